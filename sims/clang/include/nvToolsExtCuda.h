#include "nvtx3/nvToolsExtCuda.h"

/* NVTX for CUDA code: see nvToolsExt.h. */
#include "nvToolsExt.h"

/* NVTX of CUDA 11 and older: the same annotations as nvtx3. */
#include "nvtx3/nvToolsExt.h"

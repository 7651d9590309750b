/* Part of curand_kernel.h here. */
#include "curand_kernel.h"

/* cuBLAS with the handle-based interface: see cublas_api.h. */
#ifndef CUBLAS_V2_H_
#define CUBLAS_V2_H_
#include "cublas_api.h"
#endif

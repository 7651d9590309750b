/* The _block and _system atomics of compute capability 6.0 are in device_atomic_functions.h. */
#include "device_atomic_functions.h"

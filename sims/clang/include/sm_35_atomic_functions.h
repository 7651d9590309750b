/* Part of device_atomic_functions.h here. */
#include "device_atomic_functions.h"

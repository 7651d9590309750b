/* Part of driver_types.h here. */
#include "driver_types.h"

#include <host_defines.h>

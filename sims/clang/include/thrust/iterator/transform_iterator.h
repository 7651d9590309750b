/* Part of thrust/detail/scord_thrust.h (a small part of Thrust). */
#include <thrust/detail/scord_thrust.h>

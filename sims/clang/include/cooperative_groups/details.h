#include <cooperative_groups.h>

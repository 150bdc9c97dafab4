// Compiled against bs_schedule alone (tests/CMakeLists.txt): lower is above schedule, so the
// build must refuse this include.
#include "lower/Lower.h"

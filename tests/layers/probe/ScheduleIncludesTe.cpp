// Compiled against bs_schedule alone (tests/CMakeLists.txt): te is below schedule, so this
// include must compile.
#include "te/Compute.h"

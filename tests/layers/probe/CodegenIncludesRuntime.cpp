// Compiled against bs_codegen alone (tests/CMakeLists.txt): code generation runs nothing, so the
// build must refuse an include of the runtime.
#include "runtime/Buffer.h"

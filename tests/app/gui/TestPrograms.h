/// \file
/// Programs built in C++ for the app's tests, so the views can be tested while or where the
/// Python front end cannot build them. Each records script lines (as the Python front end
/// would) in a pretend script, so the selection's link to the editor can be checked.
#pragma once

#include "analysis/Program.h"

#include <QString>

namespace bs::gui::test {

/// The seed's fuse example: C = B over 64x64, C's axes fused and split into 512 parts, B
/// computed at the outer part. B's realize is 8 elements under `tvm` and 4096 under `tvm-0.5`.
Program fuseExample();

/// Ex. 6: B in "shared" scope computed at C's blockIdx.x loop, C's j bound to threadIdx.x.
/// Lines of its pretend script: A at 6, B at 7, C at 8, the schedule at 13.
Program sharedScopeExample();

/// A naive GPU matmul, 512^3 float32 (rows on blockIdx.x, columns on blockIdx.y and 64
/// threadIdx.x): a run takes long enough in any target for a test to see it running.
Program largeGpuMatmul();

/// The pretend script of sharedScopeExample(), with the statements on those lines.
QString sharedScopeScript();

constexpr int kSharedScopeLineOfB = 7;
constexpr int kSharedScopeLineOfC = 8;

} // namespace bs::gui::test

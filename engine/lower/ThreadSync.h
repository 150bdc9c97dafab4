/// \file
/// ThreadSync (TVM's `thread_storage_sync.cc`): inserts the barriers a GPU kernel needs so that
/// threads of a block see each other's writes to shared memory. A barrier
/// `tvm_storage_sync("shared")` goes between a write phase and a following read phase of a
/// shared buffer (and between reads and a following overwrite), and at the top of a loop body
/// when an iteration's writes conflict with the previous iteration's reads or the reverse.
#pragma once

#include "ir/Stmt.h"

#include <cstdint>
#include <map>
#include <string>

namespace bs {

/// The barrier intrinsic; `__syncthreads()` in CUDA.
inline constexpr const char* kStorageSyncIntrinsic = "tvm_storage_sync";

/// The launch extent of each thread axis of a kernel, by tag: the largest constant extent of the
/// axis's thread_extent attributes (a smaller nest runs on some threads only).
using LaunchExtents = std::map<std::string, int64_t>;
LaunchExtents launchExtentsOf(const Stmt& kernel);

/// `Evaluate(tvm_storage_sync("<scope>"))`.
Stmt makeStorageSync(const std::string& scope = "shared");
/// True for a statement made by makeStorageSync (of any scope).
bool isStorageSync(const Stmt& stmt);

/// Inserts barriers into one kernel (the statement under its outermost thread_extent), for the
/// buffers whose `storage_scope` attribute is `scope`.
///
/// Follows TVM's planner: the statements of each block are simulated in order with the reads
/// and writes not yet separated by a barrier; a read of a buffer with a pending write, or a
/// write with a pending read, gets a barrier before its statement. Two accesses never conflict
/// when both index the buffer with the same expression and that expression uses the innermost
/// thread index (each thread touches its own element, as in seed 002's Ex. 6, where the kernel
/// has no barrier). Indices that depend on a loop variable stand for the whole loop outside
/// it. Loops are checked once more for the dependence from one iteration to the next.
/// Throws UserError when a barrier would be needed inside a condition that depends on the
/// thread index (threads that skip it would hang the block).
Stmt threadSync(const Stmt& stmt, const std::string& scope = "shared");

/// Runs threadSync("shared") and then threadSync("warp") on every kernel of a lowered function
/// body (each outermost `thread_extent` attribute), as TVM runs them on the device functions
/// SplitHostDevice makes (`__syncthreads()` and `__syncwarp()` in CUDA; the GPU emulation
/// passes both as barriers, so the lanes of a warp meet there as in lock step);
/// host code is left alone. lower() calls it for the final IR. Running it again adds nothing.
Stmt insertThreadSync(const Stmt& body);

} // namespace bs

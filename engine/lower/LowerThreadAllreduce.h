/// \file
/// LowerThreadAllreduce (TVM's lower_thread_allreduce.cc): the device code of each
/// `tvm_thread_allreduce` that a cross-thread reduction made (lower/ComputeStmt.h). TVM runs it
/// in the device pipeline of `tvm.build`, so `tvm.lower` still prints the call; the CUDA code
/// generator and the GPU emulation both run this pass's output, so emulation checks the code
/// the GPU gets.
///
/// Two forms, as TVM chooses them:
/// - warp shuffles, when the reduction is over threadIdx.x alone, its extent is a power of two
///   of at most a warp (32) and every value is a 32- or 64-bit scalar: each lane folds in the
///   value `offset` lanes down (`__shfl_down_sync`) for offset = extent/2, ..., 1, then lane 0
///   of each group of `extent` lanes broadcasts the result (`__shfl_sync`);
/// - otherwise a tree in shared memory: each thread stores its value at
///   `group * extent + index`, and halving steps, each followed by a barrier, fold the upper
///   half into the lower one; every thread then reads its group's slot 0.
/// Unlike TVM's in-warp tail (unsynchronised steps on volatile shared memory, which races on
/// GPUs with independent thread scheduling), every step of the tree ends with a barrier.
#pragma once

#include "ir/Stmt.h"

namespace bs {

/// The lanes of a warp on the CUDA target.
inline constexpr int kCudaWarpSize = 32;

/// Rewrites every `tvm_thread_allreduce` of `body` (a lowered function body) into device code;
/// a body without one is returned as is. Throws UserError for a reduction that has no device
/// form: a thread extent that is not a constant, a reduction inside a thread nest smaller than
/// its launch, or threads of the launch that the reduction's nest does not enclose.
Stmt lowerThreadAllreduce(const Stmt& body);

} // namespace bs

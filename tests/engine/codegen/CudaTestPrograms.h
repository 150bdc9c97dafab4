/// \file
/// Hand-made lowered, flattened GPU programs in the shape engine/lower produces (seed 002's
/// Ex. 6 and the classic GPU schedules), shared by the CUDA golden tests, the `nvcc --ptx` and
/// NVRTC compile tests and the tests that run the kernels on a GPU.
#pragma once

#include "ir/Stmt.h"

#include <string>
#include <vector>

namespace bs::test {

/// A function body with its arguments (buffer Vars and scalar Vars), as `tvm.lower` gives it.
struct GpuProgram {
    std::string name;
    Stmt body;
    std::vector<Var> arguments;
};

/// Seed 002, Ex. 6 after flattening and simplification: A(200, 400), C(100, 200), B shared.
GpuProgram seedExample6();
/// C = A x B for 64 x 64 matrices, 16 x 16 tiles staged in shared memory, a k loop that needs
/// barriers, and a local accumulator.
GpuProgram tiledMatmul();
/// C[i] = max over k of A[i, k] for A(256, 64): a reduction loop into a local buffer.
GpuProgram rowMax();
/// C = A * 2 + B on 1024 floats, four per thread as float4 (vectorized loads and stores).
GpuProgram vectorAxpy();
/// Each block reverses the order of its threads' 4-element chunks of A through shared memory
/// (vector accesses to shared memory are scalarised; the exchange needs a barrier).
GpuProgram sharedReverse();
/// C = A + 1 on n elements, n symbolic: grid floordiv(n + 63, 64) and a bound check.
GpuProgram symbolicAddOne();
/// C = floordiv(A, 7)*100 + floormod(A, 7) + floordiv(threadIdx.x - 32, 8) on 256 int32
/// values (floor division of negative values).
GpuProgram floorDivision();
/// C = exp(A) + sqrt(fabs(A)) + max(A, 0) + tanh(A) + sigmoid(A) on 256 floats.
GpuProgram mathFunctions();
GpuProgram inverseMath();
/// T = A + 1 then C = T * 2 on 512 floats: two kernels and a global buffer the host allocates.
GpuProgram twoKernels();

/// Lets (an int64 one too), an unrolled loop with a non-zero start, if/else, select and casts.
GpuProgram statementKinds();
/// A vector load whose base is not a multiple of 4 and a store of stride 2: both scalarised.
GpuProgram stridedVectors();
/// C[ramp(tx, 2, 2)] = C[ramp(tx + 2, -2, 2)]: a vector store whose lanes read what it writes.
GpuProgram vectorOverwrite();
/// Two threadIdx.x nests of extents 32 and 64 in one kernel: the smaller one is guarded.
GpuProgram guardedThreadNest();
/// C[tx] = A[tx] where tx < 10, as a predicated store.
GpuProgram predicatedStore();

/// Every program above.
std::vector<GpuProgram> allGpuPrograms();

} // namespace bs::test

/// \file
/// Helpers for the LLVM code generator's tests: short builders of flattened IR, one JIT
/// shared by the tests of the process, and deterministic random data.
#pragma once

#include "codegen/llvm/LlvmJit.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "runtime/KernelRuntime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bs::test {

/// A handle-typed buffer Var.
Var bufferVar(const std::string& name);
/// `buffer[index]` of `type`; a vector type takes a vector index (a ramp).
Expr load(const Var& buffer, const Expr& index, DataType type = DataType::float32());
Stmt store(const Var& buffer, const Expr& value, const Expr& index);
Stmt loop(const Var& var, const Expr& min, const Expr& extent, const Stmt& body,
          ForKind kind = ForKind::Serial);
Stmt seq(std::vector<Stmt> stmts);

/// The JIT all tests of this program compile with.
LlvmJit& testJit();

/// Compiles `body` as kernel `name`; on a UserError the test fails with its message and the
/// IR, and the error is rethrown.
JitKernel compileKernel(const std::string& name, std::vector<Var> buffers, std::vector<Var> scalars,
                        const Stmt& body, const LlvmCodegenOptions& options = {});

/// The unoptimized LLVM IR of a kernel, to check what the code generator itself emits.
std::string unoptimizedIr(const std::string& name, std::vector<Var> buffers,
                          std::vector<Var> scalars, const Stmt& body);

/// `count` values in [-1, 1), the same for the same seed.
std::vector<float> randomFloats(size_t count, uint32_t seed);

/// Data pointers of vectors, for JitKernel::run.
template <typename... V> std::vector<void*> pointers(V&... vectors) {
    return {static_cast<void*>(vectors.data())...};
}

/// Checks element-wise closeness (relative tolerance for float32 rounding).
void expectNear(const std::vector<float>& expected, const std::vector<float>& actual,
                float tolerance = 1e-5f);

} // namespace bs::test

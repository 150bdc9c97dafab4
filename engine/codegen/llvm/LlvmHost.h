/// \file
/// The host CPU as LLVM sees it, shared by the code generator and the JIT (internal to
/// engine/codegen/llvm): one-time target initialization, the host's triple, CPU name and
/// features, a target machine for it, and the O3 pipeline of the new pass manager.
#pragma once

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>
#include <llvm/Target/TargetMachine.h>

#include <memory>
#include <string>
#include <vector>

namespace bs::llvmgen {

/// The host as reported by `llvm::sys::getHostCPUName` and `getHostCPUFeatures`.
struct HostTarget {
    std::string triple;
    std::string cpu;      ///< e.g. `skylake-avx512`, `znver3`
    std::string features; ///< e.g. `+avx2,+avx512f,...,-sse4a`, sorted
    std::vector<std::string> featureList;
};

/// The host, detected once (the native target is initialized on the first call).
const HostTarget& hostTarget();

/// A builder for target machines of the host CPU with all its features, at the aggressive
/// code generation level.
llvm::orc::JITTargetMachineBuilder hostMachineBuilder();

/// A target machine for the host; throws UserError when LLVM cannot make one.
std::unique_ptr<llvm::TargetMachine> createHostTargetMachine();

/// Whether the module is too large to optimize: it gets the O0 pipeline and, in the JIT, the
/// back end's O0 level (the fast instruction selector and register allocator).
bool isLargeModule(const llvm::Module& module);

/// Cuts every basic block longer than a thousand instructions into pieces joined by
/// unconditional branches, so that the O0 back end, whose fast register allocator is
/// quadratic in a block's length, stays linear in the kernel's size.
void splitLargeBlocks(llvm::Module& module);

/// Runs LLVM's default O3 module pipeline (new pass manager) with the host's cost model, so
/// the loop and SLP vectorizers use its vector width; the O0 pipeline when `large`
/// (isLargeModule, decided by the caller before any pass).
void optimizeModule(llvm::Module& module, llvm::TargetMachine& machine, bool large);

/// The text of an LLVM error (consumed).
std::string errorText(llvm::Error error);

} // namespace bs::llvmgen

/// \file
/// What an LlvmModule holds (internal to engine/codegen/llvm): the LLVM context and module
/// and what the JIT needs to call the entry point and explain its status codes.
#pragma once

#include "codegen/llvm/LlvmCodegen.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

namespace bs {

struct LlvmModule::Impl {
    /// Declared before `module`, so the module is destroyed first.
    std::unique_ptr<llvm::LLVMContext> context;
    std::unique_ptr<llvm::Module> module;
    std::string entryName;
    size_t bufferCount = 0;
    size_t scalarCount = 0;
    /// failureMessages[k - 1] explains status k.
    std::vector<std::string> failureMessages;
    std::string cpuName;
    double buildSeconds = 0;
    double optimizeSeconds = 0;
    /// Too large to optimize (llvmgen::isLargeModule before any pass): the JIT gives it the O0
    /// back end.
    bool large = false;
};

} // namespace bs

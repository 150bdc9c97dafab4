/// Kernels saved as object files (tvm.build's Module.save / export_library): see
/// writeKernelObject in LlvmCodegen.h.
#include "codegen/llvm/LlvmCodegen.h"
#include "codegen/llvm/LlvmHost.h"
#include "codegen/llvm/LlvmModuleImpl.h"
#include "ir/KernelAbi.h"

#include "support/Diagnostic.h"
#include "support/FileWrite.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/Support/raw_ostream.h>

namespace bs {

void writeKernelObject(const CpuKernel& kernel, const std::string& metadata,
                       const std::string& path) {
    LlvmModule generated = generateLlvm(kernel);
    std::unique_ptr<LlvmModule::Impl> impl = generated.take();
    llvm::Module& module = *impl->module;
    for (const llvm::Function& function : module) {
        if (function.isDeclaration() && !function.isIntrinsic() &&
            function.getName().startswith(kRuntimeSymbolPrefix))
            throw UserError("cannot save kernel '" + kernel.name +
                            "' as an object file: it calls Boundscope's runtime (" +
                            function.getName().str() +
                            ": a parallel loop, a heap allocation or a packed call), which only "
                            "the JIT provides; call the built module instead");
    }
    // The failure messages, in status order, after the caller's lines.
    std::string lines = metadata;
    for (std::string message : impl->failureMessages) {
        for (char& c : message)
            c = c == '\n' ? ' ' : c;
        lines += "failure " + message + "\n";
    }
    llvm::Constant* text = llvm::ConstantDataArray::getString(*impl->context, lines, true);
    new llvm::GlobalVariable(module, text->getType(), /*isConstant=*/true,
                             llvm::GlobalValue::ExternalLinkage, text, kKernelMetadataSymbol);

    llvm::orc::JITTargetMachineBuilder builder = llvmgen::hostMachineBuilder();
    builder.setRelocationModel(llvm::Reloc::PIC_);
    llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine = builder.createTargetMachine();
    if (!machine)
        throw UserError("cannot generate an object file for this CPU: " +
                        llvmgen::errorText(machine.takeError()));
    module.setPICLevel(llvm::PICLevel::BigPIC);
    llvm::SmallVector<char, 0> bytes;
    llvm::raw_svector_ostream stream(bytes);
    llvm::legacy::PassManager passes;
    if ((*machine)->addPassesToEmitFile(passes, stream, nullptr, llvm::CGFT_ObjectFile))
        throw UserError("LLVM cannot emit an object file for this CPU (" +
                        llvmgen::hostTarget().triple + ")");
    passes.run(module);
    writeFileAtomically(path, std::string(bytes.begin(), bytes.end()));
}

} // namespace bs

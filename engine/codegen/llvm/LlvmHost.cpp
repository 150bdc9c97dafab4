/// The host CPU for LLVM, and the O3 pipeline (see LlvmHost.h).
#include "codegen/llvm/LlvmHost.h"

#include "support/Diagnostic.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetOptions.h>

#include <algorithm>

namespace bs::llvmgen {

namespace {

HostTarget detectHost() {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    HostTarget host;
    host.triple = llvm::sys::getProcessTriple();
    host.cpu = llvm::sys::getHostCPUName().str();
    // Sorted, so that the printed IR of a kernel is the same from one run to the next.
    std::vector<std::string> features;
    llvm::StringMap<bool> featureMap;
    if (llvm::sys::getHostCPUFeatures(featureMap)) {
        for (const auto& feature : featureMap)
            features.push_back((feature.second ? "+" : "-") + feature.first().str());
    }
    std::sort(features.begin(), features.end());
    for (const std::string& feature : features)
        host.features += (host.features.empty() ? "" : ",") + feature;
    host.featureList = std::move(features);
    return host;
}

} // namespace

const HostTarget& hostTarget() {
    static const HostTarget host = detectHost();
    return host;
}

llvm::orc::JITTargetMachineBuilder hostMachineBuilder() {
    const HostTarget& host = hostTarget();
    llvm::orc::JITTargetMachineBuilder builder{llvm::Triple(host.triple)};
    builder.setCPU(host.cpu);
    builder.addFeatures(host.featureList);
    builder.setCodeGenOptLevel(llvm::CodeGenOpt::Aggressive);
    // As TVM's LLVM target does: contract a*b+c into fused multiply-adds where the CPU has them.
    llvm::TargetOptions options;
    options.AllowFPOpFusion = llvm::FPOpFusion::Fast;
    builder.setOptions(options);
    return builder;
}

std::unique_ptr<llvm::TargetMachine> createHostTargetMachine() {
    llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
        hostMachineBuilder().createTargetMachine();
    if (!machine)
        throw UserError("cannot generate code for this CPU (" + hostTarget().triple + ", " +
                        hostTarget().cpu + "): " + errorText(machine.takeError()));
    return std::move(*machine);
}

/// Kernels larger than this many LLVM instructions are compiled without optimization: LLVM's
/// loop analyses (ScalarEvolution, in O1 as in O3) grow much faster than the kernel (repro 09,
/// a symbolic-shape nest of about 6,000 instructions: 85 s at O3, 15 s at O1, 0.1 s at O0, for
/// microseconds of work); they get the O0 pipeline, and the JIT gives them the fast
/// instruction selector and register allocator (repro 13, an expression 100,000 additions
/// deep: 16 s in the optimizing back end's scheduler). The examples' kernels have a few hundred.
constexpr size_t kMaxOptimizedInstructions = 4000;

bool isLargeModule(const llvm::Module& module) {
    size_t instructions = 0;
    for (const llvm::Function& function : module)
        instructions += function.getInstructionCount();
    return instructions > kMaxOptimizedInstructions;
}

void optimizeModule(llvm::Module& module, llvm::TargetMachine& machine, bool large) {
    // The new pass manager's standard setup (llvm/docs/NewPassManager.rst); with the target
    // machine, the cost model is the host's, so the vectorizers use its vector width.
    llvm::LoopAnalysisManager loops;
    llvm::FunctionAnalysisManager functions;
    llvm::CGSCCAnalysisManager sccs;
    llvm::ModuleAnalysisManager modules;
    llvm::PipelineTuningOptions tuning;
    tuning.LoopUnrolling = true;
    tuning.LoopVectorization = true;
    tuning.SLPVectorization = true;
    llvm::PassBuilder builder(&machine, tuning);
    builder.registerModuleAnalyses(modules);
    builder.registerCGSCCAnalyses(sccs);
    builder.registerFunctionAnalyses(functions);
    builder.registerLoopAnalyses(loops);
    builder.crossRegisterProxies(loops, functions, sccs, modules);
    llvm::ModulePassManager passes =
        large ? builder.buildO0DefaultPipeline(llvm::OptimizationLevel::O0)
              : builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
    passes.run(module, modules);
}

void splitLargeBlocks(llvm::Module& module) {
    constexpr size_t kMaxBlockInstructions = 1000;
    for (llvm::Function& function : module) {
        if (function.isDeclaration())
            continue;
        // The entry block's allocas are static only there: no cut before the last of them.
        size_t keep = 0, position = 0;
        for (const llvm::Instruction& instruction : function.getEntryBlock()) {
            ++position;
            if (llvm::isa<llvm::AllocaInst>(instruction))
                keep = position;
        }
        // splitBasicBlock appends the tail after its block, so the loop cuts it in turn.
        for (auto block = function.begin(); block != function.end(); ++block) {
            size_t length = 0;
            for (llvm::Instruction& instruction : *block) {
                ++length;
                if (length < kMaxBlockInstructions || length <= keep ||
                    llvm::isa<llvm::PHINode>(instruction) || instruction.isEHPad())
                    continue;
                if (!instruction.isTerminator())
                    block->splitBasicBlock(instruction.getIterator());
                break;
            }
            keep = 0;
        }
    }
}

std::string errorText(llvm::Error error) { return llvm::toString(std::move(error)); }

} // namespace bs::llvmgen

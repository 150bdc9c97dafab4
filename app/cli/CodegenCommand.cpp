/// `boundscope codegen FILE.py --target llvm|cuda`: the generated kernel's source for the
/// script's current schedule: the LLVM IR of the CPU kernel, optimized at O3 for this CPU, or
/// the CUDA C of the GPU kernels (engine/run/RunKernel.h). A CPU schedule asked for cuda, or a
/// GPU schedule asked for llvm, gets one message saying which target fits (exit 1); llvm on a
/// build without LLVM exits 3.

#include "Commands.h"
#include "ScriptAnalysis.h"

#include "run/RunKernel.h"

#include <iostream>
#include <memory>

namespace bs::cli {

namespace {

struct CodegenOptions {
    std::string file;
    std::string target;
    std::string rules = "tvm";
};

int runCodegen(const CodegenOptions& options) {
    if (!checkScriptReadable(options.file))
        return kExitUsage;
    bool llvm = options.target == "llvm";
    if (llvm && !runHasLlvm()) {
        printError("codegen --target llvm is not available: this build has no LLVM code "
                   "generator (configure with -DBOUNDSCOPE_WITH_LLVM=ON)");
        return kExitUnavailable;
    }
    int exitCode = kExitOk;
    auto analysis = analyzeScript(options.file,
                                  AnalysisOptions{rulesFromName(options.rules), false}, &exitCode);
    if (!analysis)
        return exitCode;
    try {
        // Generated in full before anything is printed, so a failure prints no partial source.
        std::string source = llvm ? printKernelLlvmIr(*analysis->lowered)
                                  : printKernelCudaSource(*analysis->lowered);
        std::cout << source;
        return kExitOk;
    } catch (const UserError& e) {
        printDiagnostic(e.diagnostic(), options.file, analysis->program);
        return kExitFailure;
    }
}

} // namespace

Subcommand addCodegenCommand(CLI::App& parent) {
    auto options = std::make_shared<CodegenOptions>();
    CLI::App* command = parent.add_subcommand("codegen", "Print the generated kernel");
    addScriptArgument(*command, options->file);
    command->add_option("--target", options->target, "Code generator")
        ->required()
        ->check(CLI::IsMember({"llvm", "cuda"}));
    addRulesOption(*command, options->rules);
    return {command, [options] { return runCodegen(*options); }};
}

} // namespace bs::cli

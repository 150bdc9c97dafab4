/// `boundscope codegen FILE.py --target llvm|cuda`: the generated kernel's source (LLVM IR or
/// CUDA C) for the script's current schedule.

#include "Commands.h"

#include <memory>

namespace bs::cli {

namespace {

struct CodegenOptions {
    std::string file;
    std::string target;
};

int runCodegen(const CodegenOptions& options) {
    if (!checkScriptReadable(options.file))
        return kExitUsage;
    // TODO(issue 5): generate code once engine/codegen exists.
    return reportUnavailable("codegen");
}

} // namespace

Subcommand addCodegenCommand(CLI::App& parent) {
    auto options = std::make_shared<CodegenOptions>();
    CLI::App* command = parent.add_subcommand("codegen", "Print the generated kernel");
    addScriptArgument(*command, options->file);
    command->add_option("--target", options->target, "Code generator")
        ->required()
        ->check(CLI::IsMember({"llvm", "cuda"}));
    return {command, [options] { return runCodegen(*options); }};
}

} // namespace bs::cli

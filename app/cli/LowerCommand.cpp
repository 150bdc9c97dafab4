/// `boundscope lower FILE.py [--rules R] [--after PASS] [--keep-trivial-loops]`: the lowered IR
/// of the script's current schedule in TVM's text form, after the chosen pass.

#include "Commands.h"
#include "ScriptAnalysis.h"

#include "ir/Printer.h"

#include <iostream>
#include <memory>

namespace bs::cli {

namespace {

struct LowerCommandOptions {
    std::string file;
    std::string rules = "tvm";
    std::string after = "final";
    bool keepTrivialLoops = false;
};

int runLower(const LowerCommandOptions& options) {
    int exitCode = kExitOk;
    auto analysis = analyzeScript(options.file,
                                  AnalysisOptions{rulesFromName(options.rules), options.keepTrivialLoops},
                                  &exitCode);
    if (!analysis)
        return exitCode;
    LowerPass pass = parseLowerPass(options.after).value_or(LowerPass::Final);
    std::cout << toString(analysis->lowered->func.after(pass));
    return kExitOk;
}

} // namespace

Subcommand addLowerCommand(CLI::App& parent) {
    auto options = std::make_shared<LowerCommandOptions>();
    CLI::App* command = parent.add_subcommand("lower", "Print the lowered IR in TVM's text form");
    addScriptArgument(*command, options->file);
    addRulesOption(*command, options->rules);
    command
        ->add_option("--after", options->after, "Print the IR after this pass")
        ->check(CLI::IsMember({"schedule_ops", "flatten", "simplify", "cse", "final"}))
        ->capture_default_str();
    command->add_flag("--keep-trivial-loops", options->keepTrivialLoops,
                      "Keep loops of extent 1 (TVM's debug_keep_trivial_loop)");
    return {command, [options] { return runLower(*options); }};
}

} // namespace bs::cli

/// `boundscope steps FILE.py [--rules R] [--json]`: the bound inference of the script's current
/// schedule, step by step (schedule/BoundSteps.h): normalize, each stage's InferRootBound phases
/// per consumer, PassDownDomain per relation, the realize regions, the guards and the
/// allocations, each with its id, phase, stage and one or two sentences. `--json` is the stable
/// form documented in docs/STEPS.md.

#include "Commands.h"
#include "ScriptAnalysis.h"

#include <iostream>
#include <memory>

namespace bs::cli {

namespace {

struct StepsCommandOptions {
    std::string file;
    std::string rules = "tvm";
    bool json = false;
};

int runSteps(const StepsCommandOptions& options) {
    int exitCode = kExitOk;
    auto analysis = analyzeScript(options.file,
                                  AnalysisOptions{rulesFromName(options.rules), false}, &exitCode);
    if (!analysis)
        return exitCode;
    const BoundSteps& steps = analysis->lowered->bounds.steps;
    if (options.json) {
        std::cout << stepsToJson(steps, analysis->options.rules) << '\n';
        return kExitOk;
    }
    for (const BoundStep& step : steps.all())
        std::cout << stepText(step);
    return kExitOk;
}

} // namespace

Subcommand addStepsCommand(CLI::App& parent) {
    auto options = std::make_shared<StepsCommandOptions>();
    CLI::App* command =
        parent.add_subcommand("steps", "Print the bound inference step by step, with the reasons");
    addScriptArgument(*command, options->file);
    addRulesOption(*command, options->rules);
    command->add_flag("--json", options->json, "Print the steps as JSON (docs/STEPS.md)");
    return {command, [options] { return runSteps(*options); }};
}

} // namespace bs::cli

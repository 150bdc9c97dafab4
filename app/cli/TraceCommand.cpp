/// `boundscope trace FILE.py [--rules R] --json`: the BoundTrace of the script's current
/// schedule: every stage in visit order with its attach path and scope, each consumer's phase-1
/// leaf sets (case and reason), relax set, phase-2 root sets and phase-3 requests, the phase-4
/// union and the final ranges.

#include "Commands.h"
#include "ScriptAnalysis.h"

#include <iostream>
#include <memory>

namespace bs::cli {

namespace {

struct TraceCommandOptions {
    std::string file;
    std::string rules = "tvm";
    bool json = true;
};

int runTrace(const TraceCommandOptions& options) {
    int exitCode = kExitOk;
    auto analysis = analyzeScript(options.file,
                                  AnalysisOptions{rulesFromName(options.rules), false}, &exitCode);
    if (!analysis)
        return exitCode;
    std::cout << analysis->lowered->bounds.trace.toJson() << '\n';
    return kExitOk;
}

} // namespace

Subcommand addTraceCommand(CLI::App& parent) {
    auto options = std::make_shared<TraceCommandOptions>();
    CLI::App* command = parent.add_subcommand("trace", "Print InferBound's trace as JSON");
    addScriptArgument(*command, options->file);
    addRulesOption(*command, options->rules);
    command->add_flag("--json", options->json, "Print JSON (the only format)");
    return {command, [options] { return runTrace(*options); }};
}

} // namespace bs::cli

/// `boundscope alloc FILE.py [--rules R] [--json]`: per realized buffer of the script's current
/// schedule, the elements allocated under each rule set (tvm-0.5, tvm, tight), what one iteration
/// needs, the elements really touched (peak per iteration, total) and computed, the waste in
/// percent of the allocation under R (default tvm), and the cause of every gap with a schedule
/// change, tried under R, that reduces it (DESIGN.md, "InferBound, faithful first"; issue 3,
/// deliverable 4). The report itself is the engine's (analysis/AllocReport.h); this command only
/// prints it.

#include "Commands.h"
#include "ScriptAnalysis.h"

#include "analysis/AllocReport.h"

#include <iostream>
#include <memory>

namespace bs::cli {

namespace {

struct AllocCommandOptions {
    std::string file;
    std::string rules = "tvm";
    bool json = false;
};

int runAlloc(const AllocCommandOptions& options) {
    int exitCode = kExitOk;
    // Analysed under the tvm rules first: a script whose schedule does not lower gets the same
    // one-line message as from `lower`, before any report work.
    auto analysis = analyzeScript(options.file, AnalysisOptions{}, &exitCode);
    if (!analysis)
        return exitCode;
    AllocReport report;
    try {
        report = allocReport(analysis->program.schedule,
                             allocReportOptions(analysis->program, rulesFromName(options.rules)));
    } catch (const UserError& e) {
        // Another rule set rejected the schedule; nothing has been printed yet.
        printDiagnostic(e.diagnostic(), options.file, analysis->program);
        return kExitFailure;
    }
    std::cout << (options.json ? report.toJson() + "\n" : report.toText());
    return kExitOk;
}

} // namespace

Subcommand addAllocCommand(CLI::App& parent) {
    auto options = std::make_shared<AllocCommandOptions>();
    CLI::App* command = parent.add_subcommand(
        "alloc", "Print each buffer's allocation under every rule set, what is touched, and why");
    addScriptArgument(*command, options->file);
    addRulesOption(*command, options->rules);
    command->add_flag("--json", options->json, "Print JSON instead of a table");
    return {command, [options] { return runAlloc(*options); }};
}

} // namespace bs::cli

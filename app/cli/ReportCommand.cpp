/// `boundscope report FILE.py [--rules R] -o OUT.html`: one self-contained HTML file of the
/// analysis (viz/Report.h): the script, the lowered IR after each pass, the graphs as inline SVG,
/// the allocation report and InferBound's steps, to attach to a forum post or a CI run. Written
/// atomically: a failure leaves OUT as it was.

#include "Commands.h"
#include "ScriptAnalysis.h"

#include "support/ScriptFile.h"
#include "viz/Report.h"

#include <filesystem>
#include <iostream>
#include <memory>

namespace bs::cli {

namespace {

struct ReportCommandOptions {
    std::string file;
    std::string rules = "tvm";
    std::string output;
};

int runReport(const ReportCommandOptions& options) {
    int exitCode = kExitOk;
    auto analysis = analyzeScript(options.file,
                                  AnalysisOptions{rulesFromName(options.rules), false}, &exitCode);
    if (!analysis)
        return exitCode;
    std::string reason;
    const std::optional<std::string> script = readScriptFile(options.file, reason);
    std::optional<AllocReport> allocations;
    try {
        allocations = allocReport(analysis->program.schedule,
                                  allocReportOptions(analysis->program, analysis->options.rules));
    } catch (const UserError& e) {
        printDiagnostic(e.diagnostic(), options.file, analysis->program);
        return kExitFailure;
    }
    viz::ReportInput input;
    input.title = std::filesystem::path(options.file).filename().string();
    input.script = script.value_or("");
    input.analysis = &*analysis;
    input.allocations = &*allocations;
    return writeOutput(options.output, viz::reportHtml(input));
}

} // namespace

Subcommand addReportCommand(CLI::App& parent) {
    auto options = std::make_shared<ReportCommandOptions>();
    CLI::App* command = parent.add_subcommand(
        "report", "Write one self-contained HTML report of the analysis (IR, graphs, steps)");
    addScriptArgument(*command, options->file);
    addRulesOption(*command, options->rules);
    command->add_option("-o,--output", options->output, "The HTML file to write")->required();
    return {command, [options] { return runReport(*options); }};
}

} // namespace bs::cli

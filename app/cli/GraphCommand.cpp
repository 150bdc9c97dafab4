/// `boundscope graph FILE.py --kind dag|itervar|attach|requests [--stage S] --format dot|svg|png
/// -o OUT`: one of the schedule's graphs, laid out and written to OUT.

#include "Commands.h"
#include "ScriptAnalysis.h"

#include "viz/GraphExport.h"
#include "viz/ScheduleGraphs.h"

#include <iostream>

#include <memory>

namespace bs::cli {

namespace {

struct GraphOptions {
    std::string file;
    std::string kind;
    std::string stage;
    std::string format;
    std::string output;
};

int runGraph(const GraphOptions& options) {
    int exitCode = kExitOk;
    auto analysis = analyzeScript(options.file, AnalysisOptions{}, &exitCode);
    if (!analysis)
        return exitCode;
    try {
        const LowerResult& lowered = *analysis->lowered;
        viz::GraphInput input{lowered.normalized, &lowered.bounds.bounds, &lowered.bounds.trace};
        viz::Graph graph =
            viz::buildGraph(input, *viz::parseGraphKind(options.kind), options.stage);
        viz::writeGraph(graph, *viz::parseGraphFormat(options.format), options.output);
    } catch (const UserError& e) {
        std::cerr << options.file << ": error: " << e.what() << '\n';
        return kExitFailure;
    }
    return kExitOk;
}

} // namespace

Subcommand addGraphCommand(CLI::App& parent) {
    auto options = std::make_shared<GraphOptions>();
    CLI::App* command = parent.add_subcommand("graph", "Export a graph of the schedule");
    addScriptArgument(*command, options->file);
    command->add_option("--kind", options->kind, "Which graph")
        ->required()
        ->check(CLI::IsMember({"dag", "itervar", "attach", "requests"}));
    command->add_option("--stage", options->stage, "The stage (for itervar and requests)");
    command->add_option("--format", options->format, "Output format")
        ->required()
        ->check(CLI::IsMember({"dot", "svg", "png"}));
    command->add_option("-o,--output", options->output, "Output file")->required();
    return {command, [options] { return runGraph(*options); }};
}

} // namespace bs::cli

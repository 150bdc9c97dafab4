/// `boundscope heatmap FILE.py --buffer B [--rules R] [--iteration I] [-o OUT.svg|png|json]`:
/// every element of B's realized region, with the consumers that read it, how often, and whether
/// it was computed, over one interpreter run (analysis/Heatmap.h), or in its I-th entry alone.
/// Without -o, the counts and a character grid; with it, SVG (a grid per 2-D slice with the
/// legend), PNG (the grid alone) or JSON (the counts and every cell), written atomically.

#include "Commands.h"
#include "ScriptAnalysis.h"

#include "analysis/Heatmap.h"

#include <iostream>
#include <memory>

namespace bs::cli {

namespace {

struct HeatmapCommandOptions {
    std::string file;
    std::string buffer;
    std::string rules = "tvm";
    int64_t iteration = 0; ///< from 1; 0: the whole run
    std::string output;
};

int runHeatmap(const HeatmapCommandOptions& options) {
    if (!checkPictureOutput("heatmap", options.output))
        return kExitUsage;
    int exitCode = kExitOk;
    auto analysis = analyzeScript(options.file,
                                  AnalysisOptions{rulesFromName(options.rules), false}, &exitCode);
    if (!analysis)
        return exitCode;
    Heatmap map;
    try {
        HeatmapOptions heatmapOptions;
        heatmapOptions.rules = analysis->options.rules;
        heatmapOptions.args = analysis->program.args;
        heatmapOptions.iteration = options.iteration - 1;
        map = heatmapOf(analysis->program.schedule, options.buffer, heatmapOptions);
    } catch (const UserError& e) {
        printDiagnostic(e.diagnostic(), options.file, analysis->program);
        return kExitFailure;
    }
    if (options.output.empty()) {
        std::cout << map.toText();
        return kExitOk;
    }
    return writePicture(
        options.output, [&] { return map.toJson(); }, [&] { return map.toPng(); },
        [&] { return map.toSvg(); });
}

} // namespace

Subcommand addHeatmapCommand(CLI::App& parent) {
    auto options = std::make_shared<HeatmapCommandOptions>();
    CLI::App* command = parent.add_subcommand(
        "heatmap", "Show which elements of a buffer each consumer reads, and which none does");
    addScriptArgument(*command, options->file);
    command->add_option("--buffer", options->buffer, "The stage whose buffer to show")->required();
    addRulesOption(*command, options->rules);
    command
        ->add_option("--iteration", options->iteration,
                     "Show one entry of the allocation alone (one iteration of the loops "
                     "around it, from 1) instead of all of them overlaid")
        ->check(countFromOne());
    command->add_option("-o,--output", options->output,
                        "Write SVG (.svg), PNG (.png) or JSON (.json) instead of the text summary");
    return {command, [options] { return runHeatmap(*options); }};
}

} // namespace bs::cli

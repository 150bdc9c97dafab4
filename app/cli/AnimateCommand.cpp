/// `boundscope animate FILE.py [--rules R] [--step N] [--max-events N] [-o OUT.svg|png|json]`:
/// the loop nest played in the interpreter (analysis/LoopAnimation.h), shown at one step: what
/// that store computes from which loads, which elements of the output are computed, which of
/// each allocation are live and which inputs were read. Without -o, the step and the buffers'
/// counts; with it, the frame as SVG, PNG (the grids alone) or JSON, written atomically. Steps
/// count from 1, as the app's; the default is the last.

#include "Commands.h"
#include "ScriptAnalysis.h"

#include "analysis/LoopAnimation.h"

#include <iostream>
#include <memory>

namespace bs::cli {

namespace {

struct AnimateCommandOptions {
    std::string file;
    std::string rules = "tvm";
    int64_t step = 0; ///< 1-based; 0: the last
    int64_t maxEvents = AnimationOptions{}.maxEvents;
    std::string output;
};

std::string summary(const AnimationPlayer& player) {
    const LoopAnimation& animation = player.animation();
    std::string text = animation.describeStep(player.step()) + "\n";
    if (animation.truncated())
        text += "(the run goes on past the " + std::to_string(animation.steps()) +
                " steps recorded; --max-events records more)\n";
    if (animation.blocks() > 0)
        text += std::to_string(animation.blocks()) +
                (animation.blocks() == 1 ? " GPU block" : " GPU blocks") +
                (animation.truncated() ? " run before the recording ended\n" : "\n");
    for (size_t b = 0; b < animation.buffers().size(); ++b) {
        const AnimatedBuffer& buffer = animation.buffers()[b];
        int64_t computed = 0;
        int64_t read = 0;
        for (uint8_t bits : player.cells(b)) {
            computed += (bits & kCellComputed) ? 1 : 0;
            read += (bits & kCellRead) ? 1 : 0;
        }
        text += "  " + buffer.name + ": ";
        switch (buffer.role) {
        case AnimatedRole::Output:
            text += "output, " + std::to_string(computed) + " of " +
                    std::to_string(buffer.cells()) + " computed";
            break;
        case AnimatedRole::Intermediate:
            text += "allocated " + std::to_string(player.allocatedNow(b)) + " now (at most " +
                    std::to_string(player.peakAllocated(b)) + "), live " +
                    std::to_string(player.liveNow(b)) + ", " + std::to_string(computed) +
                    " of its " + std::to_string(buffer.cells()) + " computed so far";
            break;
        case AnimatedRole::Input:
            text += "input, " + std::to_string(read) + " of " + std::to_string(buffer.cells()) +
                    " read";
            break;
        }
        text += "\n";
    }
    return text;
}

int runAnimate(const AnimateCommandOptions& options) {
    if (!checkPictureOutput("animate", options.output))
        return kExitUsage;
    int exitCode = kExitOk;
    auto analysis = analyzeScript(options.file,
                                  AnalysisOptions{rulesFromName(options.rules), false}, &exitCode);
    if (!analysis)
        return exitCode;
    std::shared_ptr<const LoopAnimation> animation;
    try {
        AnimationOptions animationOptions;
        animationOptions.rules = analysis->options.rules;
        animationOptions.args = analysis->program.args;
        animationOptions.maxEvents = options.maxEvents;
        animation = std::make_shared<const LoopAnimation>(
            LoopAnimation::record(analysis->program.schedule, animationOptions));
    } catch (const UserError& e) {
        printDiagnostic(e.diagnostic(), options.file, analysis->program);
        return kExitFailure;
    }
    if (animation->steps() == 0) {
        printError(animation->truncated()
                       ? "animate: the first " + std::to_string(animation->eventsRecorded()) +
                             " events recorded hold no store yet; raise --max-events"
                       : std::string("animate: the program stores nothing, so there is "
                                     "nothing to play"));
        return kExitFailure;
    }
    if (options.step > animation->steps()) {
        printError("animate: --step " + std::to_string(options.step) + " is past the " +
                   std::to_string(animation->steps()) + " steps recorded" +
                   (animation->truncated() ? " (raise --max-events to record more)" : ""));
        return kExitUsage;
    }
    AnimationPlayer player(animation);
    player.seek(options.step > 0 ? options.step - 1 : animation->steps() - 1);
    if (options.output.empty()) {
        std::cout << summary(player);
        return kExitOk;
    }
    return writePicture(
        options.output, [&] { return player.toJson(); }, [&] { return player.toPng(); },
        [&] { return player.toSvg(); });
}

} // namespace

Subcommand addAnimateCommand(CLI::App& parent) {
    auto options = std::make_shared<AnimateCommandOptions>();
    CLI::App* command = parent.add_subcommand(
        "animate", "Play the loop nest: what each store computes and which elements are live");
    addScriptArgument(*command, options->file);
    addRulesOption(*command, options->rules);
    command->add_option("--step", options->step, "The step to show, from 1 (default: the last)")
        ->check(countFromOne());
    command
        ->add_option("--max-events", options->maxEvents,
                     "Record at most this many accesses (default 1000000)")
        ->check(countFromOne());
    command->add_option("-o,--output", options->output,
                        "Write the frame as SVG (.svg), PNG (.png) or JSON (.json) instead of the "
                        "summary");
    return {command, [options] { return runAnimate(*options); }};
}

} // namespace bs::cli

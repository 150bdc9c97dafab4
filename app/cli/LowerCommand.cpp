/// `boundscope lower FILE.py [--rules R] [--after PASS] [--keep-trivial-loops] [--provenance]`:
/// the lowered IR of the script's current schedule in TVM's text form, after the chosen pass;
/// with `--provenance`, each loop, thread extent, realize, guard and allocate line ends with the
/// step that produced its numbers (`allocate B[int32 * 8]  // step 41: ...`).

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
    bool provenance = false;
};

/// The step's first sentence: what it did, without the why.
std::string firstSentence(const std::string& text) {
    size_t end = text.find(". ");
    return end == std::string::npos ? text : text.substr(0, end + 1);
}

/// `text` with `// step N: ...` after each line a step produced.
std::string withProvenance(const Stmt& stmt, const BoundSteps& steps) {
    std::vector<StepMark> marks;
    std::string text = printWithSteps(stmt, &marks);
    std::string out;
    size_t next = 0, lineStart = 0;
    for (int line = 0; lineStart < text.size(); ++line) {
        size_t end = text.find('\n', lineStart);
        if (end == std::string::npos)
            end = text.size();
        out.append(text, lineStart, end - lineStart);
        for (bool first = true; next < marks.size() && marks[next].line == line; ++next) {
            const BoundStep& step = steps.at(marks[next].stepId);
            out += (first ? "  // step " : "; step ") + std::to_string(step.id) + ": " +
                   firstSentence(step.text);
            first = false;
        }
        out += '\n';
        lineStart = end + 1;
    }
    return out;
}

int runLower(const LowerCommandOptions& options) {
    int exitCode = kExitOk;
    auto analysis = analyzeScript(
        options.file, AnalysisOptions{rulesFromName(options.rules), options.keepTrivialLoops},
        &exitCode);
    if (!analysis)
        return exitCode;
    const LoweredFunc& func = analysis->lowered->func;
    const Stmt* chosen = nullptr;
    if (auto pass = parseLowerPass(options.after)) {
        chosen = &func.after(*pass);
    } else {
        // A pass the script added (tir.add_lower_pass): the last one of that name.
        for (const auto& [name, stmt] : func.afterUserPasses)
            if (name == options.after)
                chosen = &stmt;
    }
    if (!chosen) {
        std::string added;
        for (const auto& [name, stmt] : func.afterUserPasses)
            added += (added.empty() ? "" : ", ") + name;
        printError("--after " + options.after +
                   ": no such pass; expected schedule_ops, flatten, simplify, cse, final" +
                   (added.empty() ? std::string(" (the script adds no pass)")
                                  : " or a pass the script adds: " + added));
        return kExitUsage;
    }
    const Stmt& stmt = *chosen;
    if (options.provenance)
        std::cout << withProvenance(stmt, analysis->lowered->bounds.steps);
    else
        std::cout << toString(stmt);
    return kExitOk;
}

} // namespace

Subcommand addLowerCommand(CLI::App& parent) {
    auto options = std::make_shared<LowerCommandOptions>();
    CLI::App* command = parent.add_subcommand("lower", "Print the lowered IR in TVM's text form");
    addScriptArgument(*command, options->file);
    addRulesOption(*command, options->rules);
    command
        ->add_option("--after", options->after,
                     "Print the IR after this pass: schedule_ops, flatten, simplify, cse, final, "
                     "or the name of a pass the script adds (tir.add_lower_pass)")
        ->capture_default_str();
    command->add_flag("--keep-trivial-loops", options->keepTrivialLoops,
                      "Keep loops of extent 1 (TVM's debug_keep_trivial_loop)");
    command->add_flag("--provenance", options->provenance,
                      "End each loop, realize, guard and allocate line with the step that made it");
    return {command, [options] { return runLower(*options); }};
}

} // namespace bs::cli

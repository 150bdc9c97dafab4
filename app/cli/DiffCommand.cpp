/// `boundscope diff A.py [B.py] [--rules R1,R2] [--json]`: two analyses side by side (issue 18,
/// item 2; analysis/AnalysisDiff.h): one script under two rule sets (`--rules tvm-0.5,tvm`), or
/// two scripts under one rule set (or one each). The lowered IR line by line, aligned, with each
/// line marked the same, changed or only on one side; the IterVars whose range differs; each
/// buffer's allocation and what is needed of it. Exit 0 whether or not they differ.

#include "Commands.h"
#include "ScriptAnalysis.h"

#include "analysis/AnalysisDiff.h"

#include <iostream>
#include <memory>

namespace bs::cli {

namespace {

struct DiffCommandOptions {
    std::string fileA;
    std::string fileB;
    std::string rules = "tvm";
    bool json = false;
};

/// `tvm` -> {tvm, tvm}; `tvm-0.5,tvm` -> {tvm-0.5, tvm}; nullopt when malformed.
std::optional<std::pair<std::string, std::string>> rulePair(const std::string& text) {
    const size_t comma = text.find(',');
    const std::string first = text.substr(0, comma);
    const std::string second = comma == std::string::npos ? first : text.substr(comma + 1);
    if (!parseBoundRules(first) || !parseBoundRules(second) ||
        second.find(',') != std::string::npos)
        return std::nullopt;
    return std::make_pair(first, second);
}

std::optional<AllocReport> reportOf(const Analysis& analysis, const std::string& file) {
    try {
        return allocationsToCompare(analysis);
    } catch (const UserError& e) {
        printDiagnostic(e.diagnostic(), file, analysis.program);
        return std::nullopt;
    }
}

int runDiff(const DiffCommandOptions& options) {
    const auto rules = rulePair(options.rules);
    if (!rules) {
        std::string names;
        for (const std::string& name : boundRulesNames())
            names += (names.empty() ? "" : ", ") + name;
        printError("--rules takes one rule set or two separated by a comma (" + names + "), got '" +
                   options.rules + "'");
        return kExitUsage;
    }
    if (options.fileB.empty() && rules->first == rules->second) {
        printError("give a second script, or two rule sets (--rules tvm-0.5,tvm), to compare");
        return kExitUsage;
    }
    int exitCode = kExitOk;
    auto a = analyzeScript(options.fileA, AnalysisOptions{rulesFromName(rules->first), false},
                           &exitCode);
    if (!a)
        return exitCode;
    std::optional<Analysis> b;
    const std::string fileB = options.fileB.empty() ? options.fileA : options.fileB;
    if (options.fileB.empty()) {
        b = analyze(a->program, AnalysisOptions{rulesFromName(rules->second), false});
        if (!b->ok()) {
            printDiagnostic(*b->error, fileB);
            return kExitFailure;
        }
    } else {
        b = analyzeScript(fileB, AnalysisOptions{rulesFromName(rules->second), false}, &exitCode);
        if (!b)
            return exitCode;
    }
    // One script under two rule sets is one program: one report covers both sides.
    const auto reportA = reportOf(*a, options.fileA);
    const auto reportB = options.fileB.empty() ? reportA : reportOf(*b, fileB);
    if (!reportA || !reportB)
        return kExitFailure;
    const AnalysisDiff diff =
        diffAnalyses(*a, *b, options.fileA + ", rules " + rules->first,
                     fileB + ", rules " + rules->second, &*reportA, &*reportB);
    std::cout << (options.json ? diff.toJson() + "\n" : diff.toText());
    return kExitOk;
}

} // namespace

Subcommand addDiffCommand(CLI::App& parent) {
    auto options = std::make_shared<DiffCommandOptions>();
    CLI::App* command = parent.add_subcommand(
        "diff", "Compare two analyses: one script under two rule sets, or two scripts");
    addScriptArgument(*command, options->fileA);
    command->add_option("other", options->fileB, "A second script to compare with the first");
    command
        ->add_option("--rules", options->rules,
                     "One rule set for both, or two separated by a comma (tvm-0.5,tvm)")
        ->capture_default_str();
    command->add_flag("--json", options->json, "Print JSON");
    return {command, [options] { return runDiff(*options); }};
}

} // namespace bs::cli

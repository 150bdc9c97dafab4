/// `boundscope run FILE.py [--target cpu|cuda|emulate] [--repeat N] [--check] [--size NAME=N]`:
/// compiles the script's current schedule for the target, runs it on random inputs, prints the
/// timings and, with --check, compares it with a reference (engine/run/RunKernel.h, issue 6).
/// Exit codes: 0 ran (and passed the check), 1 the check failed or the kernel could not run,
/// 2 bad usage, 3 the target is not in this build (--target cpu without LLVM).

#include "Commands.h"
#include "ScriptAnalysis.h"

#include "run/RunKernel.h"

#include <cstdio>
#include <iostream>
#include <memory>

namespace bs::cli {

namespace {

struct RunOptions {
    std::string file;
    std::string target = "cpu";
    std::string rules = "tvm";
    int repeat = 10;
    bool check = false;
    uint64_t seed = 1;
    std::vector<std::string> sizes;
};

/// `NAME=VALUE` bindings of symbolic sizes; prints the error and returns false on bad syntax.
bool parseSizes(const std::vector<std::string>& texts, std::map<std::string, int64_t>* sizes) {
    for (const std::string& text : texts) {
        size_t eq = text.find('=');
        long long value = 0;
        int consumed = 0;
        bool ok = eq != std::string::npos && eq > 0 &&
                  std::sscanf(text.c_str() + eq + 1, "%lld%n", &value, &consumed) == 1 &&
                  size_t(consumed) == text.size() - eq - 1;
        if (!ok) {
            printError("--size expects NAME=VALUE with an integer VALUE, got '" + text + "'");
            return false;
        }
        (*sizes)[text.substr(0, eq)] = value;
    }
    return true;
}

std::string formatNumber(double value, int precision) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", precision, value);
    return text;
}

std::string checkLine(const RunReport& report) {
    if (!report.checked)
        return "not run (add --check)";
    std::string against = report.reference.empty() ? "" : " against " + report.reference;
    return (report.passed ? "passed" : "FAILED") + against + " (" + report.checkDetail + ")";
}

void printReport(const RunReport& report) {
    auto row = [](const char* key, const std::string& value) {
        std::printf("%-10s %s\n", key, value.c_str());
    };
    row("target", std::string(runTargetName(report.target)) + ": " + report.device);
    if (!report.sizes.empty()) {
        std::string sizes;
        for (const auto& [name, value] : report.sizes)
            sizes += (sizes.empty() ? "" : ", ") + name + "=" + std::to_string(value);
        row("sizes", sizes);
    }
    row("compile", formatNumber(report.compileMs, 1) + " ms");
    row("runs", std::to_string(report.timesMs.size()));
    row("best", formatNumber(report.bestMs, 4) + " ms");
    row("median", formatNumber(report.medianMs, 4) + " ms");
    row("spread", formatNumber(report.spread * 100, 1) + " %");
    std::string flops = std::to_string(report.flops) +
                        (report.flopsExecuted ? " flops executed per run" : " flops per run");
    if (report.flopsExecuted && report.declaredFlops != report.flops)
        flops += "; the definitions declare " + std::to_string(report.declaredFlops);
    row("GFLOP/s", formatNumber(report.gflops, 2) + " (" + flops + ")");
    row("GB/s", formatNumber(report.gbps, 2) + " (" + std::to_string(report.bytes) +
                    " bytes of arguments)");
    row("check", checkLine(report));
}

int runRun(const RunOptions& options) {
    if (!checkScriptReadable(options.file))
        return kExitUsage;
    RunRequest request;
    request.target = parseRunTarget(options.target).value_or(RunTarget::Cpu);
    if (request.target == RunTarget::Cpu && !runHasLlvm()) {
        printError("run --target cpu is not available: this build has no LLVM JIT (configure "
                   "with -DBOUNDSCOPE_WITH_LLVM=ON); use --target emulate to run the kernel in "
                   "the interpreter");
        return kExitUnavailable;
    }
    if (!parseSizes(options.sizes, &request.sizes))
        return kExitUsage;
    request.repeat = options.repeat;
    request.check = options.check;
    request.seed = options.seed;
    request.lowerOptions.rules = rulesFromName(options.rules);

    int exitCode = kExitOk;
    auto analysis =
        analyzeScript(options.file, AnalysisOptions{request.lowerOptions.rules, false}, &exitCode);
    if (!analysis)
        return exitCode;
    try {
        RunReport report = runKernel(*analysis->lowered, request);
        printReport(report);
        return report.checked && !report.passed ? kExitFailure : kExitOk;
    } catch (const UserError& e) {
        printDiagnostic(e.diagnostic(), options.file, analysis->program);
        return kExitFailure;
    }
}

} // namespace

Subcommand addRunCommand(CLI::App& parent) {
    auto options = std::make_shared<RunOptions>();
    CLI::App* command = parent.add_subcommand("run", "Compile and run the kernel, with timings");
    addScriptArgument(*command, options->file);
    command
        ->add_option("--target", options->target,
                     "Where to run: cpu (LLVM JIT), cuda (a GPU), emulate (a GPU schedule on "
                     "the CPU: compiled by LLVM, else the interpreter)")
        ->check(CLI::IsMember({"cpu", "cuda", "emulate"}))
        ->capture_default_str();
    command->add_option("--repeat", options->repeat, "Number of timed runs")
        ->check(countFromOne())
        ->capture_default_str();
    command->add_flag("--check", options->check,
                      "Check the result on random inputs (against the interpreter when the work "
                      "is small, the unscheduled program when it is large)");
    command
        ->add_option("--size", options->sizes,
                     "Value of a symbolic size, NAME=VALUE (default " +
                         std::to_string(kDefaultSymbolicSize) + ")")
        ->type_name("NAME=VALUE");
    command->add_option("--seed", options->seed, "Seed of the random inputs")
        ->capture_default_str();
    addRulesOption(*command, options->rules);
    return {command, [options] { return runRun(*options); }};
}

} // namespace bs::cli

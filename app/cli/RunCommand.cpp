/// `boundscope run FILE.py [--target cpu|cuda|emulate] [--repeat N] [--check]`: compiles and runs
/// the kernel, prints timings, and optionally checks it on random inputs.

#include "Commands.h"

#include <memory>

namespace bs::cli {

namespace {

struct RunOptions {
    std::string file;
    std::string target = "cpu";
    int repeat = 1;
    bool check = false;
};

int runRun(const RunOptions& options) {
    if (!checkScriptReadable(options.file))
        return kExitUsage;
    // TODO(issue 5): run the kernel once engine/codegen and engine/runtime exist.
    return reportUnavailable("run");
}

} // namespace

Subcommand addRunCommand(CLI::App& parent) {
    auto options = std::make_shared<RunOptions>();
    CLI::App* command = parent.add_subcommand("run", "Compile and run the kernel, with timings");
    addScriptArgument(*command, options->file);
    command->add_option("--target", options->target, "Where to run")
        ->check(CLI::IsMember({"cpu", "cuda", "emulate"}))
        ->capture_default_str();
    command->add_option("--repeat", options->repeat, "Number of timed runs")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    command->add_flag("--check", options->check, "Check the result on random inputs");
    return {command, [options] { return runRun(*options); }};
}

} // namespace bs::cli

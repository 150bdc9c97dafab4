/// `boundscope alloc FILE.py [--json]`: per realized buffer, the elements allocated under each
/// rule set, the elements really touched, and the cause of every gap.

#include "Commands.h"

#include <memory>

namespace bs::cli {

namespace {

struct AllocOptions {
    std::string file;
    bool json = false;
};

int runAlloc(const AllocOptions& options) {
    if (!checkScriptReadable(options.file))
        return kExitUsage;
    // TODO(issue 5): print the allocation report once lowering and the interpreter exist.
    return reportUnavailable("alloc");
}

} // namespace

Subcommand addAllocCommand(CLI::App& parent) {
    auto options = std::make_shared<AllocOptions>();
    CLI::App* command = parent.add_subcommand(
        "alloc", "Print each buffer's allocation under every rule set and what is touched");
    addScriptArgument(*command, options->file);
    command->add_flag("--json", options->json, "Print JSON instead of a table");
    return {command, [options] { return runAlloc(*options); }};
}

} // namespace bs::cli

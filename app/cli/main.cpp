/// `boundscope`: the headless front end. Parses the command line (DESIGN.md, "Command line
/// contract") and runs the one subcommand given; each subcommand is its own file (Commands.h).

#include "Commands.h"

#include "support/DeepStack.h"
#include "support/Diagnostic.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <vector>

using namespace bs::cli;

namespace {

/// The exit code of a command whose output could not all be written (`lower > /dev/full`):
/// a failure, said on stderr; else `exitCode`.
int checkedOutput(int exitCode) {
    errno = 0;
    std::cout.flush();
    if (std::cout.good() && std::fflush(stdout) == 0)
        return exitCode;
    const int error = errno;
    std::cerr << "boundscope: error: cannot write the output: "
              << (error ? std::strerror(error) : "the write failed") << '\n';
    return kExitFailure;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"Boundscope: explore TVM-style tensor-expression schedules and how InferBound "
                 "derives their loop bounds",
                 "boundscope"};
    app.set_version_flag("--version", std::string("boundscope ") + BOUNDSCOPE_VERSION);
    app.require_subcommand(1);
    const std::vector<Subcommand> commands = {
        addLowerCommand(app),   addBoundsCommand(app),  addStepsCommand(app),
        addTraceCommand(app),   addAllocCommand(app),   addGraphCommand(app),
        addCodegenCommand(app), addRunCommand(app),     addScriptCommand(app),
        addEditCommand(app),    addDiffCommand(app),    addReportCommand(app),
        addHeatmapCommand(app), addAnimateCommand(app),
    };
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        if (error.get_exit_code() == 0)
            return app.exit(error); // --help, --version
        printError(error.what());
        return kExitUsage;
    }
    // The command runs on a thread with a deep stack: the engine recurses through the script's
    // expressions, which can be very deep (support/DeepStack.h).
    return bs::callOnDeepStack([&commands]() -> int {
        try {
            for (const Subcommand& command : commands)
                if (command.app->parsed())
                    return checkedOutput(command.action());
        } catch (const bs::UserError& error) {
            std::cerr << error.diagnostic().toString() << '\n';
            return kExitFailure;
        } catch (const std::exception& error) {
            printError(error.what());
            return kExitFailure;
        }
        return kExitUsage;
    });
}

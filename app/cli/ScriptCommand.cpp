/// `boundscope script FILE.py [ARGS...]`: runs the script in the embedded interpreter, as
/// `python3 FILE.py` would, with `import tvm` resolving to Boundscope. Its output goes to stdout
/// and stderr as it is produced; a failure is one line `FILE:LINE: error: MESSAGE` on stderr.
/// `boundscope script FILE.tc` builds the Tensor Comprehensions definition instead and prints
/// the ranges TC inferred, per statement (its warnings on stderr).

#include "Commands.h"
#include "ScriptAnalysis.h"

#include "analysis/TcSource.h"

#ifdef BOUNDSCOPE_WITH_PYTHON
#include "script/ScriptRunner.h"
#endif

#include <chrono>
#include <iostream>
#include <memory>
#include <vector>

namespace bs::cli {

namespace {

struct ScriptCommandOptions {
    std::string file;
    std::vector<std::string> arguments;
};

int printTcRanges(const std::string& file) {
    if (!checkScriptReadable(file))
        return kExitUsage;
    std::optional<Program> program = loadTcFile(file);
    if (!program)
        return kExitFailure;
    std::cout << tc::rangesText(*program->tcPrograms.front());
    return kExitOk;
}

#ifdef BOUNDSCOPE_WITH_PYTHON
int runScript(const ScriptCommandOptions& options) {
    if (!checkScriptReadable(options.file))
        return kExitUsage;
    script::ScriptOptions scriptOptions;
    scriptOptions.arguments = options.arguments;
    scriptOptions.echoOutput = true;
    scriptOptions.timeout = scriptTimeLeft();
    scriptOptions.limitShown = scriptTimeout();
    script::ScriptRunner runner;
    script::ScriptResult result = runner.runFile(options.file, scriptOptions);
    if (result.ok())
        return kExitOk;
    if (result.status == script::ScriptStatus::CannotOpen) {
        printError(result.diagnostic->message);
        return kExitUsage;
    }
    std::cerr << result.diagnostic->toString() << '\n';
    noteTimeout(result);
    return kExitFailure;
}
#else
int runScript(const ScriptCommandOptions&) { return pythonNotBuilt("boundscope script"); }
#endif

} // namespace

Subcommand addScriptCommand(CLI::App& parent) {
    auto options = std::make_shared<ScriptCommandOptions>();
    CLI::App* command = parent.add_subcommand(
        "script", "Run the script (prints, asserts) with Boundscope as its tvm");
    addScriptArgument(*command, options->file);
    command->add_option(
        "args", options->arguments,
        "Arguments for the script (sys.argv[1:]); put them after -- when they start with -");
    return {command, [options] {
                return isTcFileName(options->file) ? printTcRanges(options->file)
                                                   : runScript(*options);
            }};
}

} // namespace bs::cli

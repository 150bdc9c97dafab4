/// `boundscope edit FILE.py "STAGE.PRIMITIVE(ARGS)" [-i]`: makes one schedule edit in the
/// script, as the app's direct manipulation does (script/edit/ScheduleEdit.h): the script runs,
/// the call is resolved in its names (`C.split(i, factor=8)`, `B.compute_at(C, xo)`,
/// `B.set_scope('local')`), tried on a copy of its schedule, written in the script's names and
/// placed by its structure. Prints the edited script, or with `-i` writes it back to FILE
/// (atomically). A note on stderr says where the edit went. A refused edit is one
/// `FILE: error: MESSAGE` line and exit status 1; the file is untouched.

#include "Commands.h"
#include "ScriptAnalysis.h"

#include "analysis/TcSource.h"
#include "support/FileWrite.h"
#include "support/ScriptFile.h"

#ifdef BOUNDSCOPE_WITH_PYTHON
#include "script/edit/ScheduleEdit.h"
#endif

#include <iostream>
#include <memory>

namespace bs::cli {

namespace {

struct EditCommandOptions {
    std::string file;
    std::string call;
    bool inPlace = false;
};

#ifdef BOUNDSCOPE_WITH_PYTHON
/// `replaced` or the first line of `lines`, without its newline, for the note.
std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

int runEdit(const EditCommandOptions& options) {
    if (!checkScriptReadable(options.file))
        return kExitUsage;
    if (isTcFileName(options.file)) {
        printError("'" + options.file +
                   "' is a .tc file: it has only its default schedule; "
                   "schedule its stages from a Python script (boundscope.tc)");
        return kExitUsage;
    }
    std::string reason;
    const std::optional<std::string> source = readScriptFile(options.file, reason);
    if (!source) {
        printError("cannot open '" + options.file + "': " + reason);
        return kExitUsage;
    }
    int exitCode = kExitOk;
    // The script's own output would bury the edit's one line: it is dropped.
    const std::optional<Program> program =
        runScriptProgram(options.file, &exitCode, /*showOutput=*/false);
    if (!program)
        return exitCode;
    std::string error;
    const script::ScheduleEdit edit =
        script::parseEdit(options.call, *source, options.file, *program, &error);
    script::EditResult result;
    script::EditOptions editOptions;
    editOptions.run.timeout = scriptTimeLeft();
    editOptions.run.limitShown = scriptTimeout();
    if (error.empty())
        result = script::applyEdit(*source, options.file, *program, edit, editOptions);
    else
        result.error = error;
    if (!result.ok()) {
        std::cerr << options.file << ": error: " << result.error << '\n';
        return kExitFailure;
    }
    if (options.inPlace) {
        try {
            writeFileAtomically(options.file, result.script);
        } catch (const std::exception& e) {
            printError(e.what());
            return kExitFailure;
        }
    } else {
        std::cout << result.script;
    }
    std::cerr << options.file << ':' << result.line << ": note: "
              << (result.replaced.empty() ? "inserted `" + firstLine(result.lines) + "`"
                                          : "replaced `" + firstLine(result.replaced) + "` by `" +
                                                firstLine(result.lines) + "`")
              << '\n';
    return kExitOk;
}
#else
int runEdit(const EditCommandOptions&) { return pythonNotBuilt("boundscope edit"); }
#endif

} // namespace

Subcommand addEditCommand(CLI::App& parent) {
    auto options = std::make_shared<EditCommandOptions>();
    CLI::App* command = parent.add_subcommand(
        "edit", "Make one schedule edit in the script, placed where it belongs");
    addScriptArgument(*command, options->file);
    command
        ->add_option("call", options->call,
                     "The primitive as Python: \"C.split(i, factor=8)\", \"B.set_scope('local')\", "
                     "\"B.compute_at(C, i.outer)\"")
        ->required();
    command->add_flag("-i,--in-place", options->inPlace,
                      "Write the edited script back to FILE instead of printing it");
    return {command, [options] { return runEdit(*options); }};
}

} // namespace bs::cli

/// \file
/// The subcommands of the `boundscope` command line (DESIGN.md, "Command line contract"). Each
/// lives in its own file: `add<Name>Command` declares its arguments on the parser and returns
/// the action that runs once the command line is parsed.
///
/// Exit codes: 0 success; 1 the script or the analysis failed (one `FILE:LINE: error: MESSAGE`
/// line on stderr); 2 bad usage (unknown option, missing or unreadable file); 3 the command is
/// not available in this build.
#pragma once

#include <CLI/CLI.hpp>

#include <chrono>
#include <functional>
#include <string>

namespace bs::cli {

enum ExitCode : int {
    kExitOk = 0,
    kExitFailure = 1,
    kExitUsage = 2,
    kExitUnavailable = 3,
};

/// What a subcommand does after parsing; returns the process's exit code.
using CommandAction = std::function<int()>;

struct Subcommand {
    CLI::App* app = nullptr;
    CommandAction action;
};

Subcommand addLowerCommand(CLI::App& parent);
Subcommand addBoundsCommand(CLI::App& parent);
Subcommand addTraceCommand(CLI::App& parent);
Subcommand addStepsCommand(CLI::App& parent);
Subcommand addAllocCommand(CLI::App& parent);
Subcommand addGraphCommand(CLI::App& parent);
Subcommand addCodegenCommand(CLI::App& parent);
Subcommand addRunCommand(CLI::App& parent);
Subcommand addScriptCommand(CLI::App& parent);
Subcommand addEditCommand(CLI::App& parent);
Subcommand addDiffCommand(CLI::App& parent);
Subcommand addReportCommand(CLI::App& parent);
Subcommand addHeatmapCommand(CLI::App& parent);
Subcommand addAnimateCommand(CLI::App& parent);

// Shared pieces of the subcommands (CommandSupport.cpp).

/// The positional `FILE.py` (or `FILE.tc`) argument, and `--timeout SECONDS`.
void addScriptArgument(CLI::App& command, std::string& file);

/// How long a command may run (`--timeout`, kDefaultScriptTimeoutSeconds unless given; 0: no
/// limit), counted from startCommandClock(). One command runs per process. main() cancels the
/// work (the analysis, the interpreter's runs, the timed runs of `run`) at that deadline; a
/// script gets scriptTimeLeft() and stops where it is, with its line.
std::chrono::milliseconds scriptTimeout();
/// Starts the command's time (main(), once the command line is read).
void startCommandClock();
/// What is left of the command's time (at least 1 ms), or 0 when it has no limit: the limit of
/// each script the command runs, so that `diff`'s second script gets what the first left.
std::chrono::milliseconds scriptTimeLeft();
constexpr double kDefaultScriptTimeoutSeconds = 300;
/// The largest `--timeout` (a year), which the watchdog's wait can hold.
constexpr double kMaxTimeoutSeconds = 365.0 * 24 * 3600;
/// The FILE the command was given (empty before parsing, or for a command without one).
std::string commandScriptFile();
/// `--rules tvm|tvm-0.5|tight` (default tvm).
void addRulesOption(CLI::App& command, std::string& rules);

/// In a build without Python: says so for `command` (`boundscope edit`) and returns
/// kExitUnavailable.
int pythonNotBuilt(const std::string& command);

/// Prints `boundscope: error: MESSAGE` to stderr.
void printError(const std::string& message);
/// Writes `bytes` to `path` atomically (support/FileWrite.h): kExitOk, or kExitFailure after
/// printing why it could not (the file is then as it was).
int writeOutput(const std::string& path, const std::string& bytes);
/// Checks a count from 1 (`--step`, `--iteration`, `--repeat`): anything else is refused with
/// "a whole number from 1 is wanted, got 'X'".
CLI::Validator countFromOne();
/// For `-o` of a command that draws (heatmap, animate): true when `path` is empty or ends in
/// .svg, .png or .json; else prints "COMMAND: the output must end in ..." and returns false.
bool checkPictureOutput(const std::string& command, const std::string& path);
/// Writes what `path`'s extension names: `json()`, `png()`, else `svg()` (see writeOutput).
int writePicture(const std::string& path, const std::function<std::string()>& json,
                 const std::function<std::string()>& png, const std::function<std::string()>& svg);
/// Whether `text` ends in `suffix` (an output's extension), ignoring case.
bool endsWith(const std::string& text, const std::string& suffix);
/// Whether `file` can be read; if not, prints `boundscope: error: cannot open 'FILE': REASON`.
bool checkScriptReadable(const std::string& file);

} // namespace bs::cli

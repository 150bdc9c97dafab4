#include "Commands.h"

#include "support/Diagnostic.h"
#include "support/FileWrite.h"
#include "support/ScriptFile.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <vector>

namespace bs::cli {

namespace {
double g_scriptTimeoutSeconds = kDefaultScriptTimeoutSeconds;
std::chrono::steady_clock::time_point g_commandStart = std::chrono::steady_clock::now();
/// Every subcommand's FILE argument; only the one given on the command line is filled in.
std::vector<const std::string*> g_scriptFiles;
} // namespace

void addScriptArgument(CLI::App& command, std::string& file) {
    g_scriptFiles.push_back(&file);
    command
        .add_option("file", file,
                    "The Python script (TVM te API), or a Tensor Comprehensions file (.tc)")
        ->required()
        ->type_name("FILE.py|FILE.tc");
    command
        .add_option("--timeout", g_scriptTimeoutSeconds,
                    "Stop the command after this many seconds, the script or the work after it "
                    "(0: no limit)")
        ->check(CLI::Validator(
            [](std::string& text) -> std::string {
                // NaN passes a range check, and a limit past a year overflows the watchdog's wait.
                char* end = nullptr;
                const double seconds = std::strtod(text.c_str(), &end);
                if (end == text.c_str() || *end != '\0' ||
                    !(seconds >= 0 && seconds <= kMaxTimeoutSeconds))
                    return "seconds from 0 (no limit) to " +
                           std::to_string(int64_t(kMaxTimeoutSeconds)) + ", got '" + text + "'";
                return "";
            },
            "SECONDS"))
        ->capture_default_str();
}

std::chrono::milliseconds scriptTimeout() {
    // Rounded up: a limit under a millisecond is a limit, not none.
    return std::chrono::milliseconds(
        static_cast<long long>(std::ceil(g_scriptTimeoutSeconds * 1000)));
}

void startCommandClock() { g_commandStart = std::chrono::steady_clock::now(); }

std::chrono::milliseconds scriptTimeLeft() {
    using std::chrono::milliseconds;
    const milliseconds limit = scriptTimeout();
    if (limit.count() == 0)
        return limit;
    const auto spent =
        std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - g_commandStart);
    return std::max(limit - spent, milliseconds(1));
}

std::string commandScriptFile() {
    for (const std::string* file : g_scriptFiles)
        if (!file->empty())
            return *file;
    return "";
}

void addRulesOption(CLI::App& command, std::string& rules) {
    command.add_option("--rules", rules, "InferBound rule set")
        ->check(CLI::IsMember({"tvm", "tvm-0.5", "tight", "compact", "tvm-0.6"}))
        ->capture_default_str();
}

int pythonNotBuilt(const std::string& command) {
    std::cerr << command
              << ": Python support was not built (configure with "
                 "-DBOUNDSCOPE_WITH_PYTHON=ON, which needs python3-dev and pybind11-dev)\n";
    return kExitUnavailable;
}

void printError(const std::string& message) {
    std::cerr << "boundscope: error: " << message << '\n';
}

int writeOutput(const std::string& path, const std::string& bytes) {
    try {
        writeFileAtomically(path, bytes);
    } catch (const UserError& e) {
        printError(e.diagnostic().message);
        return kExitFailure;
    }
    return kExitOk;
}

bool endsWith(const std::string& text, const std::string& suffix) {
    if (text.size() < suffix.size())
        return false;
    return std::equal(
        suffix.begin(), suffix.end(), text.end() - std::ptrdiff_t(suffix.size()),
        [](char a, char b) { return std::tolower(uint8_t(a)) == std::tolower(uint8_t(b)); });
}

bool checkPictureOutput(const std::string& command, const std::string& path) {
    if (path.empty() || endsWith(path, ".svg") || endsWith(path, ".png") || endsWith(path, ".json"))
        return true;
    printError(command + ": the output must end in .svg, .png or .json, got '" + path + "'");
    return false;
}

int writePicture(const std::string& path, const std::function<std::string()>& json,
                 const std::function<std::string()>& png, const std::function<std::string()>& svg) {
    return writeOutput(path, endsWith(path, ".json")  ? json() + "\n"
                             : endsWith(path, ".png") ? png()
                                                      : svg());
}

CLI::Validator countFromOne() {
    return CLI::Validator(
        [](std::string& input) -> std::string {
            const bool digits = !input.empty() && input.size() < 19 &&
                                std::all_of(input.begin(), input.end(),
                                            [](char c) { return c >= '0' && c <= '9'; });
            if (digits && std::stoll(input) >= 1)
                return {};
            return "a whole number from 1 is wanted, got '" + input + "'";
        },
        "COUNT");
}

bool checkScriptReadable(const std::string& file) {
    const std::string reason = whyScriptUnreadable(file);
    if (reason.empty())
        return true;
    printError("cannot open '" + file + "': " + reason);
    return false;
}

} // namespace bs::cli

/// \file
/// Running the built `boundscope` command in the test scripts folder, as a user runs it, for
/// the CLI tests: its exit code, stdout and stderr.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace bs::test {

struct CommandResult {
    int exitCode = -1;
    std::string out;
    std::string err;
};

inline std::string readAll(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// Runs `boundscope ARGS` in the scripts folder, with `environment` (`NAME=value ...`) prefixed.
inline CommandResult runCli(const std::string& args, const std::string& environment = "") {
    auto tmp = std::filesystem::temp_directory_path();
    auto outPath = tmp / ("bs_cli_out_" + std::to_string(::getpid()));
    auto errPath = tmp / ("bs_cli_err_" + std::to_string(::getpid()));
    std::string command = "cd '" BOUNDSCOPE_CLI_SCRIPTS "' && " + environment + " '" +
                          BOUNDSCOPE_CLI "' " + args + " >'" + outPath.string() + "' 2>'" +
                          errPath.string() + "' </dev/null";
    int status = std::system(command.c_str());
    CommandResult result;
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = readAll(outPath);
    result.err = readAll(errPath);
    std::filesystem::remove(outPath);
    std::filesystem::remove(errPath);
    return result;
}

} // namespace bs::test

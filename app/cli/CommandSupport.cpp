#include "Commands.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace bs::cli {

void addScriptArgument(CLI::App& command, std::string& file) {
    command.add_option("file", file,
                       "The Python script (TVM te API), or a Tensor Comprehensions file (.tc)")
        ->required()
        ->type_name("FILE.py|FILE.tc");
}

void addRulesOption(CLI::App& command, std::string& rules) {
    command.add_option("--rules", rules, "InferBound rule set")
        ->check(CLI::IsMember({"tvm", "tvm-0.5", "tight", "tvm-0.6"}))
        ->capture_default_str();
}

void printError(const std::string& message) { std::cerr << "boundscope: error: " << message << '\n'; }

bool checkScriptReadable(const std::string& file) {
    std::error_code error;
    if (std::filesystem::is_directory(file, error)) {
        printError("cannot open '" + file + "': " + std::strerror(EISDIR));
        return false;
    }
    std::ifstream in(file);
    if (in)
        return true;
    printError("cannot open '" + file + "': " + std::strerror(errno ? errno : ENOENT));
    return false;
}

} // namespace bs::cli

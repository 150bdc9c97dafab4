// The engine's messages are data worded by each front end (DESIGN.md; issue 13, item 7): no
// command-line flag appears in the engine's own text, so the app never has to reword it and a
// Python user never reads a flag they cannot pass. A check over the engine's sources: every
// string literal of every file under engine/.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace {

/// `FILE:LINE: "literal"` for each string literal of `path` that names a flag of the CLI.
std::vector<std::string> flagsIn(const std::filesystem::path& path) {
    static const std::regex literal(R"("([^"\\]|\\.)*")");
    static const std::regex flag(
        R"(--(target|rules|size|after|keep-trivial-loops|provenance|json|kind|stage|format|repeat|check|seed|timeout)\b)");
    std::ifstream in(path);
    std::vector<std::string> found;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        std::string code = line.substr(0, line.find("//"));
        for (auto it = std::sregex_iterator(code.begin(), code.end(), literal);
             it != std::sregex_iterator(); ++it)
            if (std::regex_search(it->str(), flag))
                found.push_back(path.string() + ":" + std::to_string(number) + ": " + it->str());
    }
    return found;
}

} // namespace

TEST(EngineText, NoEngineMessageNamesACommandLineFlag) {
    std::vector<std::string> found;
    size_t files = 0;
    for (const auto& entry :
         std::filesystem::recursive_directory_iterator(BOUNDSCOPE_ENGINE_SOURCES)) {
        const auto ext = entry.path().extension();
        if (ext != ".cpp" && ext != ".h")
            continue;
        ++files;
        for (const std::string& f : flagsIn(entry.path()))
            found.push_back(f);
    }
    EXPECT_GT(files, 100u);
    std::ostringstream list;
    for (const std::string& f : found)
        list << f << '\n';
    EXPECT_TRUE(found.empty()) << list.str();
}

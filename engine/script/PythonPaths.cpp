#include "script/PythonPaths.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

namespace bs::script {

namespace fs = std::filesystem;

namespace {

fs::path executableDirectory() {
    std::error_code error;
    fs::path exe = fs::read_symlink("/proc/self/exe", error);
    if (error)
        return {};
    return exe.parent_path();
}

std::vector<fs::path> candidateDirectories() {
    std::vector<fs::path> candidates;
    if (const char* env = std::getenv("BOUNDSCOPE_PYTHON_DIR"); env && *env)
        candidates.emplace_back(env);
    fs::path dir = executableDirectory();
    if (!dir.empty()) {
        fs::path up = dir;
        for (int level = 0; level <= 4 && !up.empty(); ++level) {
            candidates.push_back(up / "python");
            if (up == up.parent_path())
                break;
            up = up.parent_path();
        }
        candidates.push_back(dir.parent_path() / "share" / "boundscope" / "python");
    }
#ifdef BOUNDSCOPE_PYTHON_SOURCE_DIR
    candidates.emplace_back(BOUNDSCOPE_PYTHON_SOURCE_DIR);
#endif
    return candidates;
}

} // namespace

bool isPythonDirectory(const std::string& directory) {
    std::error_code error;
    fs::path dir(directory);
    return fs::is_regular_file(dir / "boundscope" / "__init__.py", error) &&
           fs::is_regular_file(dir / "tvm" / "__init__.py", error);
}

std::string findPythonDirectory() {
    for (const fs::path& candidate : candidateDirectories()) {
        if (!isPythonDirectory(candidate.string()))
            continue;
        std::error_code error;
        fs::path absolute = fs::weakly_canonical(candidate, error);
        return (error ? candidate : absolute).string();
    }
    return {};
}

} // namespace bs::script

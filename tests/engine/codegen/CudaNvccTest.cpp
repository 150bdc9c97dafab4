// Every generated kernel must be valid CUDA: where nvcc is installed (no GPU needed), each test
// program's source is compiled with `nvcc --ptx`, warnings counted as errors (issue 6, item 3).

#include "CudaTestPrograms.h"

#include "codegen/CudaCodegen.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sys/wait.h>
#include <unistd.h>

using namespace bs;
using namespace bs::test;

namespace {

namespace fs = std::filesystem;

/// nvcc from $CUDA_HOME, /usr/local/cuda or the PATH.
std::optional<std::string> findNvcc() {
    std::vector<fs::path> candidates;
    for (const char* variable : {"CUDA_HOME", "CUDA_PATH"}) {
        if (const char* root = std::getenv(variable); root && *root)
            candidates.push_back(fs::path(root) / "bin" / "nvcc");
    }
    candidates.emplace_back("/usr/local/cuda/bin/nvcc");
    if (const char* path = std::getenv("PATH")) {
        std::string dirs = path;
        for (size_t start = 0, end; start <= dirs.size(); start = end + 1) {
            end = dirs.find(':', start);
            end = end == std::string::npos ? dirs.size() : end;
            if (end > start)
                candidates.push_back(fs::path(dirs.substr(start, end - start)) / "nvcc");
        }
    }
    for (const fs::path& p : candidates) {
        if (access(p.c_str(), X_OK) == 0)
            return p.string();
    }
    return std::nullopt;
}

struct CommandResult {
    int status = -1;
    std::string output;
};

CommandResult runCommand(const std::string& command) {
    CommandResult result;
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    if (!pipe)
        return result;
    std::array<char, 4096> chunk;
    while (size_t n = fread(chunk.data(), 1, chunk.size(), pipe))
        result.output.append(chunk.data(), n);
    int status = pclose(pipe);
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

/// A fresh folder for this test's files, removed afterwards.
struct TempDir {
    fs::path path = fs::temp_directory_path() / ("boundscope-nvcc-" + std::to_string(getpid()));
    TempDir() { fs::create_directories(path); }
    ~TempDir() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
};

void expectPtx(const std::string& nvcc, const TempDir& dir, const std::string& name,
               const std::string& source) {
    fs::path cu = dir.path / (name + ".cu"), ptx = dir.path / (name + ".ptx");
    std::ofstream(cu) << source;
    CommandResult r = runCommand("'" + nvcc + "' --ptx -Werror all-warnings -o '" + ptx.string() +
                                 "' '" + cu.string() + "'");
    EXPECT_EQ(r.status, 0) << "nvcc rejected " << name << ":\n" << r.output << "\n" << source;
    EXPECT_TRUE(fs::exists(ptx)) << name;
}

} // namespace

TEST(CudaNvcc, EveryGeneratedKernelCompilesToPtx) {
    std::optional<std::string> nvcc = findNvcc();
    if (!nvcc)
        GTEST_SKIP() << "nvcc not found ($CUDA_HOME/bin, /usr/local/cuda/bin, PATH)";
    TempDir dir;
    for (const GpuProgram& p : allGpuPrograms())
        expectPtx(*nvcc, dir, p.name, buildCudaModule(p.body, p.name, p.arguments).source);
}

TEST(CudaNvcc, LaunchBoundsCompile) {
    std::optional<std::string> nvcc = findNvcc();
    if (!nvcc)
        GTEST_SKIP() << "nvcc not found ($CUDA_HOME/bin, /usr/local/cuda/bin, PATH)";
    TempDir dir;
    CudaCodegenOptions options;
    options.launchBounds = true;
    GpuProgram p = tiledMatmul();
    std::string source = buildCudaModule(p.body, p.name, p.arguments, options).source;
    ASSERT_NE(source.find("__launch_bounds__(256)"), std::string::npos);
    expectPtx(*nvcc, dir, "bounds", source);
}

namespace {

/// clang with OpenCL C support (clang-14 on Debian 12), for checking the OpenCL dialect.
std::optional<std::string> findClang() {
    for (const char* name : {"clang-14", "clang"}) {
        CommandResult r = runCommand(std::string("command -v ") + name);
        if (r.status == 0 && !r.output.empty())
            return r.output.substr(0, r.output.find('\n'));
    }
    return std::nullopt;
}

bool usesWarpOperations(const std::string& error) {
    return error.find("OpenCL C has no warp-level operations") != std::string::npos;
}

} // namespace

TEST(OpenClC, EveryGeneratedKernelIsValidOpenClC) {
    // The "opencl" target's dialect: where clang is installed, each test program's OpenCL C
    // passes its OpenCL 1.2 front end, warnings counted as errors. Programs that reduce across
    // a warp are refused with a message instead.
    std::optional<std::string> clang = findClang();
    if (!clang)
        GTEST_SKIP() << "clang not found";
    TempDir dir;
    CudaCodegenOptions options;
    options.openCl = true;
    int checked = 0;
    for (const GpuProgram& p : allGpuPrograms()) {
        std::string source;
        try {
            source = buildCudaModule(p.body, p.name, p.arguments, options).source;
        } catch (const UserError& e) {
            EXPECT_TRUE(usesWarpOperations(e.what())) << p.name << ": " << e.what();
            continue;
        }
        EXPECT_EQ(source.find("__global__"), std::string::npos) << source;
        fs::path cl = dir.path / (p.name + ".cl");
        std::ofstream(cl) << source;
        CommandResult r = runCommand("'" + *clang +
                                     "' -x cl -cl-std=CL1.2 -Xclang "
                                     "-finclude-default-header -fsyntax-only -Werror '" +
                                     cl.string() + "'");
        EXPECT_EQ(r.status, 0) << "clang rejected " << p.name << ":\n"
                               << r.output << "\n"
                               << source;
        ++checked;
    }
    EXPECT_GT(checked, 5);
}

// tvm.build through the embedded interpreter, as `boundscope script` runs it (CTest also runs
// python/test_build.py with plain python3 and the extension module).

#include "script/ScriptRunner.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

using namespace bs::script;

TEST(PythonBuild, CompiledFunctionsMatchNumpyAndCheckTheirArguments) {
    std::string path = std::string(BOUNDSCOPE_SCRIPT_TESTS) + "/test_build.py";
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    ScriptRunner runner;
    ScriptResult r = runner.runFile(path);
    EXPECT_TRUE(r.ok()) << r.diagnostic->toString() << "\n" << r.traceback << r.errorOutput;
    // "N passed, 0 failed" with N > 0: the script ran its tests and all passed.
    std::smatch match;
    ASSERT_TRUE(std::regex_search(r.output, match, std::regex(R"((\d+) passed, 0 failed)")))
        << r.output;
    EXPECT_GT(std::stoi(match[1].str()), 0) << r.output;
}

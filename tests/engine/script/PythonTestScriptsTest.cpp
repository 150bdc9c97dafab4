// The TVM-style Python test scripts in python/ run through the embedded interpreter, as
// `boundscope script` runs them (CTest also runs them with plain python3 and the extension).

#include "script/ScriptRunner.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace bs::script;

namespace {

void expectScriptPasses(const std::string& name) {
    std::string path = std::string(BOUNDSCOPE_SCRIPT_TESTS) + "/" + name;
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    ScriptRunner runner;
    ScriptResult r = runner.runFile(path);
    EXPECT_TRUE(r.ok()) << r.diagnostic->toString() << "\n" << r.traceback << r.errorOutput;
    EXPECT_NE(r.output.find(" passed, 0 failed"), std::string::npos) << r.output;
}

} // namespace

TEST(PythonTestScripts, ExpressionSemanticsMatchTvm) { expectScriptPasses("test_expr.py"); }

TEST(PythonTestScripts, TvmPackageLayoutMatchesTvm) { expectScriptPasses("test_tvm_package.py"); }

TEST(PythonTestScripts, TvmTestingMainRunsEveryTestAndFailsWhenOneFails) {
    // tests/python relies on it: CTest sees a failing test function as a non-zero exit.
    ScriptRunner runner;
    ScriptResult r = runner.runSource("import tvm.testing\n"
                                      "def test_a():\n    pass\n"
                                      "def test_b():\n    assert 1 == 2, 'b broke'\n"
                                      "def test_c():\n    print('c ran')\n"
                                      "def helper_test():\n    raise RuntimeError('not a test')\n"
                                      "tvm.testing.main()\n",
                                      "suite.py");
    EXPECT_EQ(r.status, ScriptStatus::Failed);
    ASSERT_TRUE(r.diagnostic);
    EXPECT_EQ(r.diagnostic->toString(), "suite.py:10: error: 1 of 3 tests failed: test_b");
    EXPECT_NE(r.output.find("FAILED test_b\n"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("AssertionError: b broke"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("c ran\n2 passed, 1 failed\n"), std::string::npos) << r.output;
}

TEST(PythonTestScripts, TvmTestingMainSelectsTestsByArgument) {
    ScriptRunner runner;
    ScriptOptions options;
    options.arguments = {"fuse"};
    ScriptResult r = runner.runSource("import tvm.testing\n"
                                      "def test_split():\n    raise AssertionError('ran')\n"
                                      "def test_fuse():\n    print('fuse ran')\n"
                                      "tvm.testing.main()\n",
                                      "select.py", options);
    EXPECT_TRUE(r.ok()) << r.output;
    EXPECT_EQ(r.output, "fuse ran\n1 passed, 0 failed\n");
}

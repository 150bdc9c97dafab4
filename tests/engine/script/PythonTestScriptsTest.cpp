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

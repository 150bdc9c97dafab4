// The TC lexer and parser: the syntax of seed 003's examples, every assignment operator, where
// clauses, and syntax errors located by line and column.

#include "tc/TcParser.h"

#include <gtest/gtest.h>

namespace bs::tc {
namespace {

std::string errorOf(const std::string& source) {
    try {
        parseTc(source, "bad.tc");
    } catch (const UserError& e) {
        return e.diagnostic().toString();
    }
    ADD_FAILURE() << "no error for\n" << source;
    return "";
}

TEST(TcParser, ParsesTypedInputsOutputsAndStatements) {
    std::vector<AstDef> defs = parseTc("# a comment\n"
                                       "def matmul(float(M, K) A, float(K, N) B) -> (C) {\n"
                                       "    C(m, n) +=! A(m, r_k) * B(r_k, n)  # sum over r_k\n"
                                       "}\n");
    ASSERT_EQ(defs.size(), 1u);
    const AstDef& d = defs[0];
    EXPECT_EQ(d.name, "matmul");
    ASSERT_EQ(d.inputs.size(), 2u);
    EXPECT_EQ(d.inputs[0].type.scalar, "float");
    EXPECT_EQ(d.inputs[0].type.sizes.size(), 2u);
    EXPECT_EQ(d.inputs[1].name, "B");
    ASSERT_EQ(d.outputs.size(), 1u);
    EXPECT_FALSE(d.outputs[0].typed);
    ASSERT_EQ(d.statements.size(), 1u);
    const AstStatement& st = d.statements[0];
    EXPECT_EQ(st.tensor, "C");
    EXPECT_EQ(st.indices, (std::vector<std::string>{"m", "n"}));
    EXPECT_EQ(st.reduction, "+");
    EXPECT_TRUE(st.initialize);
    EXPECT_EQ(astToString(*st.rhs), "A(m, r_k) * B(r_k, n)");
    EXPECT_EQ(st.pos.line, 3);
    EXPECT_EQ(st.pos.column, 5);
}

TEST(TcParser, EveryAssignmentOperator) {
    const std::vector<std::pair<std::string, std::pair<std::string, bool>>> table = {
        {"=", {"", false}},       {"+=", {"+", false}},     {"+=!", {"+", true}},
        {"*=", {"*", false}},     {"*=!", {"*", true}},     {"max=", {"max", false}},
        {"max=!", {"max", true}}, {"min=", {"min", false}}, {"min=!", {"min", true}}};
    for (const auto& [op, expected] : table) {
        auto defs = parseTc("def f(float(N) A) -> B { B(i) " + op + " A(i) }");
        const AstStatement& st = defs[0].statements[0];
        EXPECT_EQ(st.reduction, expected.first) << op;
        EXPECT_EQ(st.initialize, expected.second) << op;
    }
}

TEST(TcParser, WhereClausesAndExpressions) {
    auto defs =
        parseTc("def f(float(I) B, float c) -> A {\n"
                "    A(i) = i < 3 ? -B(2*i + k) : max(c, 1.5f) where k in 0:2, exists B(i)\n"
                "}\n");
    const AstStatement& st = defs[0].statements[0];
    ASSERT_EQ(st.wheres.size(), 2u);
    EXPECT_EQ(st.wheres[0].var, "k");
    EXPECT_EQ(astToString(*st.wheres[0].upper), "2");
    EXPECT_TRUE(st.wheres[1].isExists);
    EXPECT_EQ(astToString(*st.wheres[1].exists), "B(i)");
    EXPECT_EQ(astToString(*st.rhs), "(i < 3) ? -B((2 * i) + k) : max(c, 1.5)");
}

TEST(TcParser, SeveralStatementsNeedNoSeparator) {
    auto defs = parseTc("def f(float(N) A) -> (B, C) {\n  B(i) = A(i)\n  C(i) = B(i) * 2;\n}");
    EXPECT_EQ(defs[0].statements.size(), 2u);
    EXPECT_EQ(defs[0].outputs.size(), 2u);
}

TEST(TcParser, ErrorsGiveLineAndColumn) {
    EXPECT_EQ(errorOf("def f(float(N) A) -> B {\n    B(i) = A(i +)\n}\n"),
              "bad.tc:2: error: col 17: expected an expression, got ')'");
    EXPECT_EQ(errorOf("def f(float(N) A) -> B {\n    B(i) := A(i)\n}\n"),
              "bad.tc:2: error: col 10: expected an assignment ('=', '+=!', '+=', '*=!', "
              "'max=!', 'min=!', ...) after 'B(...)', got ':'");
    EXPECT_EQ(errorOf("def f(N A) -> B { }"),
              "bad.tc:1: error: col 7: expected the type of an input ('float(M, K) A'), got "
              "identifier 'N'");
    EXPECT_EQ(errorOf("def f(float(N) A) -> (float(N) B) { }"),
              "bad.tc:1: error: col 23: output sizes are inferred: remove the sizes after 'float'");
    EXPECT_EQ(errorOf("def f(float(N) A) -> B {\n  B(i) = A(i) where k on 0:2\n}"),
              "bad.tc:2: error: col 23: expected 'in' after 'k' in the where clause, got "
              "identifier 'on'");
    EXPECT_EQ(errorOf("def f(float(N) A) -> B {\n  B(i) = A(i) @\n}"),
              "bad.tc:2: error: col 15: unexpected character '@'");
    EXPECT_EQ(errorOf(""), "bad.tc:1: error: col 1: expected a definition ('def NAME(...) -> ... "
                           "{ ... }')");
}

} // namespace
} // namespace bs::tc

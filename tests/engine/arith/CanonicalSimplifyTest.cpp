// Cases from TVM's tests/python/arith/test_arith_canonical_simplify.py, run through the canonical
// pass alone (Analyzer::canonicalSimplify), with TVM's expected results in printed form.

#include "ArithTestUtil.h"

namespace bs::test {
namespace {

TEST(CanonicalSimplify, CollectsLikeTermsOfProductsAndSums) {
    Vars v;
    const Var &x = v.x, &y = v.y, &z = v.z;
    Analyzer a;
    checkTable({{2 + (3 * x + z + y + 1) * 4 + x, "((((x*13) + (z*4)) + (y*4)) + 6)"},
                {x * 3 - 4 * x + 1, "(1 - x)"},
                {y + x * 3 - 5 * x + 1 + y, "(((y*2) + 1) - (x*2))"},
                {truncdiv(x + y + x + y * 3, 2), "((y*2) + x)"},
                {truncmod(x + y + x + y * 3, 2), "0"},
                {floormod(x + x + y * 3, 2), "floormod((y*3), 2)"},
                {floordiv(x + y + x + y * 3, 2), "((y*2) + x)"},
                {floormod(x + y + x + y * 3, 2), "0"},
                {floordiv(x + x + y * 3, 2), "(floordiv((y*3), 2) + x)"}},
               [&](const Expr& e) { return a.canonicalSimplify(e); });
}

TEST(CanonicalSimplify, MergesSplitIndices) {
    Vars v;
    const Var& x = v.x;
    Analyzer a;
    checkTable(
        {{truncdiv(x, 3) * 3 + truncmod(x, 3), "x"},
         {truncdiv(x, 6) * 6 + truncmod(truncdiv(x, 3), 2) * 3 + truncmod(x, 3), "x"},
         {truncdiv(truncdiv(truncmod(x, 16), 2) * 2, 4), "((x % 16)/4)"},
         {truncdiv(truncmod(x, 2), 8), "0"},
         {truncdiv(truncmod(x, 2), 7), "0"},
         {truncdiv(truncdiv(truncmod(x, 16), 2) * 2, 6), "((x % 16)/6)"},
         {truncmod(x * 8, 16), "((x % 2)*8)"},
         {truncmod(x * 8, 2), "0"},
         {floordiv(x * 5, 2), "floordiv((x*5), 2)"},
         {floordiv(x, 3) * 3 + floormod(x, 3), "x"},
         {floordiv(x, 6) * 6 + floormod(floordiv(x, 3), 2) * 3 + floormod(x, 3), "x"},
         {floordiv(floordiv(floormod(x, 16), 2) * 2, 4), "floordiv(floormod(x, 16), 4)"},
         {floordiv(floormod(x, 2), 8), "0"},
         {floordiv(floormod(x, 2), 7), "0"},
         {floordiv(floordiv(floormod(x, 16), 2) * 2, 6), "floordiv(floormod(x, 16), 6)"},
         // Mixed division modes do not merge.
         {truncdiv(x, 6) * 2 + truncmod(floordiv(x, 3), 2), "(((x/6)*2) + (floordiv(x, 3) % 2))"}},
        [&](const Expr& e) { return a.canonicalSimplify(e); });
}

TEST(CanonicalSimplify, MergesSplitIndicesOfBoundedSums) {
    Vars v;
    const Var &x = v.x, &y = v.y, &z = v.z;
    Analyzer a;
    a.bind(x, Range(0, 1001));
    a.bind(y, Range(0, 1001));
    auto simplify = [&](const Expr& e) { return a.canonicalSimplify(e); };
    checkTable({{truncdiv(x * 4 + y, 2) * 2 + truncmod(x * 4 + y, 2), "((x*4) + y)"},
                {truncdiv(z * 9 + y, 2) * 2 + truncmod(z * 9 + y, 2), "((z*9) + y)"}},
               simplify);
    a.bind(x, Range(-100, 1101), true);
    a.bind(y, Range(-100, 1101), true);
    checkTable({{truncdiv(x * 4 + y, 2) * 2 + truncmod(x * 4 + y, 2), "((x*4) + y)"}}, simplify);
}

TEST(CanonicalSimplify, DividesSumsExactlyOrWhenNonNegative) {
    Vars v;
    const Var& x = v.x;
    Analyzer a;
    auto simplify = [&](const Expr& e) { return a.canonicalSimplify(e); };
    checkTable({{truncdiv(16 + 48 * x, 16), "((x*3) + 1)"},
                // 17 + 48x may be negative: truncation keeps the division.
                {truncdiv(17 + 48 * x, 16), "(((x*48) + 17)/16)"}},
               simplify);
    a.bind(x, Range(0, 11));
    checkTable({{truncdiv(17 + 48 * x, 16), "((x*3) + 1)"},
                {truncdiv(17 + 47 * x, 16), "(((x*47) + 17)/16)"}},
               simplify);
    a.bind(x, Range(-1000, 11001), true);
    checkTable({{floordiv(16 + 48 * x, 16), "((x*3) + 1)"},
                {floordiv(17 + 48 * x, 16), "((x*3) + 1)"},
                {floordiv(17 + 47 * x, 16), "floordiv(((x*47) + 17), 16)"}},
               simplify);
}

TEST(CanonicalSimplify, ReducesNestedFloorMod) {
    Vars v;
    const Var &x = v.x, &y = v.y;
    Analyzer a;
    checkTable({{floormod(floormod(x * 4 + y - 466036, 24528) - 24512, 16),
                 "floormod((((x*4) + y) + 12), 16)"},
                {floormod(floormod(x * 4, 16), 8), "(floormod(x, 2)*4)"}},
               [&](const Expr& e) { return a.canonicalSimplify(e); });
}

TEST(CanonicalSimplify, MixedNodesUseRewriteRules) {
    Vars v;
    const Var& x = v.x;
    Expr three(3);
    Analyzer a;
    checkTable({{truncdiv(x, three * three) - truncdiv(x, three * three), "0"},
                {floordiv(x, three + three) - floordiv(x, three + three), "0"},
                {x - 2 < 3, "(x < 5)"},
                {max(x, 1) - max(x, 1), "0"},
                {min(x, 1) - min(x, 1), "0"},
                {x * x - x * x, "0"},
                {truncmod(truncdiv(truncmod(x, 20), 2) * 2, 4), "(((x % 4)/2)*2)"}},
               [&](const Expr& e) { return a.canonicalSimplify(e); });
}

TEST(CanonicalSimplify, SolvesComplexSplitArithmetic) {
    Vars v;
    const Var &x = v.x, &y = v.y;
    Analyzer a;
    a.bind(x, Range(0, 6));
    a.bind(y, Range(0, 128));
    Expr res2 = truncdiv(truncdiv(truncmod(x * 128 + y, 1296), 36) * 2 + 1, 2) * 36 +
                truncdiv(truncmod(x * 128 + y, 36) * 2 + 1, 2) - truncmod(x * 128 + y, 1296) + 1;
    EXPECT_EQ(toString(a.canonicalSimplify(res2)), "1");
    a.bind(y, Range(0, 1025), true);
    Expr res3 = truncdiv(x * 1024 + y, 65536) + truncdiv(truncmod(x * 1024 + y, 65536), 256) +
                truncdiv(truncmod(x * 1024 + y, 256), 16) + truncmod(x * 1024 + y, 16) -
                truncdiv(y, 256) - truncdiv(truncmod(y, 256), 16) - truncmod(y, 16) - x * 4;
    EXPECT_EQ(toString(a.canonicalSimplify(res3)), "(((((x*1024) + y)/256) - (y/256)) - (x*4))");
}

TEST(CanonicalSimplify, UsesSelectConditionInBranches) {
    Vars v;
    const Var& x = v.x;
    Analyzer a;
    Expr ite = CallNode::make(DataType::int32(), "if_then_else", {truncdiv(x, 3) > 2, x, Expr(0)},
                              CallKind::Intrinsic);
    EXPECT_EQ(toString(a.canonicalSimplify(select(x >= 10, ite, Expr(0)))),
              "select((10 <= x), x, 0)");
    Expr iteFalse = CallNode::make(DataType::int32(), "if_then_else",
                                   {truncdiv(x, 3) < 2, x, Expr(0)}, CallKind::Intrinsic);
    EXPECT_EQ(toString(a.canonicalSimplify(select(x >= 10, iteFalse, Expr(0)))), "0");
}

} // namespace
} // namespace bs::test

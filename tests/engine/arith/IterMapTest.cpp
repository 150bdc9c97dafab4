// Affine index maps (arith/IterMap.h): detection of bijective maps built from sums, splits and
// fusions, the reason given for each kind of failure, and the inverse map checked by evaluating
// it on every point of small domains.

#include "ArithTestUtil.h"

#include "arith/IterMap.h"
#include "ir/Substitute.h"

namespace bs::test {
namespace {

VarMap<Range> domain(const std::vector<std::pair<Var, int>>& vars) {
    VarMap<Range> dom;
    for (const auto& [v, extent] : vars)
        dom[v] = Range(Expr(0), Expr(extent));
    return dom;
}

int64_t evalAt(const Expr& e, const VarMap<Expr>& values) {
    Analyzer analyzer;
    auto c = asConstInt(analyzer.simplify(substitute(e, values)));
    EXPECT_TRUE(c.has_value()) << toString(e);
    return c.value_or(-1);
}

/// For every point of the input box, the inverse applied to the indices gives the point back.
void expectInverseRoundTrips(const std::vector<Expr>& indices,
                             const std::vector<std::pair<Var, int>>& inputs) {
    Analyzer analyzer;
    IterMapResult map = detectIterMap(indices, domain(inputs), analyzer);
    ASSERT_TRUE(map.ok()) << map.error;
    std::vector<Var> outs;
    for (size_t k = 0; k < indices.size(); ++k)
        outs.push_back(Var("o" + std::to_string(k)));
    VarMap<Expr> inverse = inverseAffineIterMap(map.indices, {outs.begin(), outs.end()}, analyzer);
    ASSERT_EQ(inverse.size(), inputs.size());
    int total = 1;
    for (const auto& input : inputs)
        total *= input.second;
    for (int point = 0; point < total; ++point) {
        VarMap<Expr> at;
        for (int rest = point, k = int(inputs.size()) - 1; k >= 0; --k) {
            at[inputs[size_t(k)].first] = Expr(rest % inputs[size_t(k)].second);
            rest /= inputs[size_t(k)].second;
        }
        VarMap<Expr> outValues;
        for (size_t k = 0; k < indices.size(); ++k)
            outValues[outs[k]] = Expr(int(evalAt(indices[k], at)));
        for (const auto& input : inputs)
            EXPECT_EQ(evalAt(inverse.at(input.first), outValues), evalAt(at.at(input.first), {}))
                << "inverse of " << input.first.name() << " at point " << point;
    }
}

std::string errorOf(const std::vector<Expr>& indices, const VarMap<Range>& dom) {
    Analyzer analyzer;
    IterMapResult map = detectIterMap(indices, dom, analyzer);
    EXPECT_FALSE(map.ok());
    return map.error;
}

TEST(IterMap, IdentityAndPermutationAreBijective) {
    Vars v;
    expectInverseRoundTrips({v.i, v.j}, {{v.i, 3}, {v.j, 4}});
    expectInverseRoundTrips({v.j, v.i}, {{v.i, 3}, {v.j, 4}});
}

TEST(IterMap, FusedIndexInvertsToFloordivAndFloormod) {
    Vars v;
    Analyzer analyzer;
    IterMapResult map = detectIterMap({v.i * 4 + v.j}, domain({{v.i, 3}, {v.j, 4}}), analyzer);
    ASSERT_TRUE(map.ok()) << map.error;
    ASSERT_EQ(map.indices.size(), 1u);
    EXPECT_EQ(map.indices[0].args.size(), 1u);
    EXPECT_EQ(toString(map.indices[0].args[0].extent), "12");
    Var o("o");
    analyzer.bind(o, Range(Expr(0), Expr(12)));
    VarMap<Expr> inverse = inverseAffineIterMap(map.indices, {o}, analyzer);
    EXPECT_EQ(toString(inverse.at(v.i)), "floordiv(o, 4)");
    EXPECT_EQ(toString(inverse.at(v.j)), "floormod(o, 4)");
    expectInverseRoundTrips({v.i * 4 + v.j}, {{v.i, 3}, {v.j, 4}});
}

TEST(IterMap, SplitsOfOneIteratorAreBijective) {
    Vars v;
    expectInverseRoundTrips({floordiv(v.i, 4), floormod(v.i, 4)}, {{v.i, 12}});
    expectInverseRoundTrips({floormod(v.i, 4), floordiv(v.i, 4)}, {{v.i, 12}});
}

TEST(IterMap, SplitOfAFusedSumIsBijective) {
    Vars v;
    // (i*6 + j) reshaped to (4, 6) through a fused mark of 24 values, then split by 3.
    expectInverseRoundTrips({floordiv(v.i * 6 + v.j, 3), floormod(v.i * 6 + v.j, 3)},
                            {{v.i, 4}, {v.j, 6}});
}

TEST(IterMap, PiecesOfOneIteratorFuseBack) {
    Vars v;
    Analyzer analyzer;
    Expr index = floordiv(v.i, 4) * 4 + floormod(v.i, 4);
    IterMapResult map = detectIterMap({index}, domain({{v.i, 12}}), analyzer);
    ASSERT_TRUE(map.ok()) << map.error;
    ASSERT_EQ(map.indices[0].args.size(), 1u);
    EXPECT_TRUE(map.indices[0].args[0].source->var.same_as(v.i));
}

TEST(IterMap, OffsetsAndSymbolicExtentsAreKept) {
    Vars v;
    Analyzer analyzer;
    VarMap<Range> dom{{v.i, Range(Expr(0), Expr(v.sn))}, {v.j, Range(Expr(0), Expr(8))}};
    IterMapResult map = detectIterMap({v.j, v.i + 0}, dom, analyzer);
    ASSERT_TRUE(map.ok()) << map.error;
    IterMapResult shifted = detectIterMap({v.i * 8 + v.j}, dom, analyzer);
    ASSERT_TRUE(shifted.ok()) << shifted.error;
    EXPECT_EQ(toString(analyzer.simplify(shifted.indices[0].args[0].extent)), "(sn*8)");
}

TEST(IterMap, UnitIteratorsAreConstants) {
    Vars v;
    Analyzer analyzer;
    VarMap<Range> dom = domain({{v.i, 5}, {v.j, 1}});
    IterMapResult map = detectIterMap({v.i, v.j}, dom, analyzer);
    ASSERT_TRUE(map.ok()) << map.error;
    EXPECT_TRUE(map.indices[1].args.empty());
}

TEST(IterMap, FailuresSayWhy) {
    Vars v;
    VarMap<Range> dom = domain({{v.i, 8}, {v.j, 4}});
    EXPECT_NE(errorOf({v.i * v.j}, dom).find("multiplies two iterators"), std::string::npos);
    EXPECT_NE(errorOf({v.i, v.j * 2}, dom).find("has stride 2"), std::string::npos);
    EXPECT_NE(errorOf({v.i}, dom).find("'j' does not appear"), std::string::npos);
    EXPECT_NE(errorOf({v.i, v.i, v.j}, dom).find("used more than once"), std::string::npos);
    EXPECT_NE(errorOf({floordiv(v.i, 3), v.j}, dom).find("not divisible by 3"), std::string::npos);
    EXPECT_NE(errorOf({min(v.i, 3), v.j}, dom).find("not an affine form"), std::string::npos);
    EXPECT_NE(errorOf({v.i + v.j, v.j}, dom).find("do not fuse"), std::string::npos);
    EXPECT_NE(errorOf({floordiv(v.i, 2), v.j}, dom).find("only in part"), std::string::npos);
    EXPECT_NE(errorOf({floormod(v.i, 4), v.j}, dom).find("cover only 4 of the 8"),
              std::string::npos);
}

} // namespace
} // namespace bs::test

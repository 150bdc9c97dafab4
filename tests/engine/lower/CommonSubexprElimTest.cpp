#include "LowerTestUtil.h"

#include "ir/Equality.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "lower/CommonSubexprElim.h"
#include "lower/CommonSubexprElimTools.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>

using namespace bs;
using namespace bs::test;

namespace {

Var buffer(const std::string& name) { return Var(name, DataType::handle()); }

CseOptions inScope(std::vector<Var> vars) { return CseOptions{std::move(vars)}; }

/// Runs `stmt` before and after CSE on the same inputs and compares a buffer's contents.
void expectSameResults(const Stmt& before, const Stmt& after, const Var& out, size_t size,
                       const std::vector<std::pair<Var, double>>& scalars) {
    std::vector<double> results[2];
    const Stmt* programs[2] = {&before, &after};
    for (int k = 0; k < 2; ++k) {
        MiniInterpreter interp;
        for (const auto& [v, value] : scalars)
            interp.setScalar(v, value);
        interp.setBuffer(out, std::vector<double>(size, 0.0));
        interp.run(*programs[k]);
        results[k] = interp.buffer(out);
    }
    EXPECT_EQ(results[0], results[1]) << "before:\n"
                                      << toString(before) << "after:\n"
                                      << toString(after);
}

} // namespace

// ---------------------------------------------------------------------------------------------
// The analyses of seed 001

TEST(CseTools, EligibleComputationsExcludeLeavesLoadsAndImpureCalls) {
    Var x("x"), y("y"), buf = buffer("A");
    EXPECT_TRUE(cse::isEligibleComputation(x + y));
    EXPECT_TRUE(cse::isEligibleComputation(cast(DataType::float32(), x)));
    EXPECT_TRUE(cse::isEligibleComputation(mathCall("sqrt", {cast(DataType::float32(), x)})));
    EXPECT_FALSE(cse::isEligibleComputation(x));
    EXPECT_FALSE(cse::isEligibleComputation(Expr(3)));
    EXPECT_FALSE(cse::isEligibleComputation(LoadNode::make(DataType::int32(), buf, x)));
    EXPECT_FALSE(cse::isEligibleComputation(x + LoadNode::make(DataType::int32(), buf, x)));
    EXPECT_FALSE(cse::isEligibleComputation(likely(x < y)));
    EXPECT_FALSE(cse::isEligibleComputation(RampNode::make(x, 1, 4)));
}

TEST(CseTools, ComputationsDoneByRecordsMaximalComputationsOnly) {
    Var w("w"), x("x"), y("y"), z("z"), u("u"), buf = buffer("B");
    Stmt s = SeqNode::make(
        {StoreNode::make(buf, (w + x) + (y + z), 0), StoreNode::make(buf, (w + x) + u, 1)});
    cse::ComputationTable table = cse::computationsDoneBy(s);
    ASSERT_EQ(table.items().size(), 2u);
    EXPECT_EQ(toString(table.items()[0].first), "((w + x) + (y + z))");
    EXPECT_EQ(table.count((w + x) + u), 1u);
    EXPECT_EQ(table.count(w + x), 0u);
    // Inside a load, the index is looked at.
    Expr load = LoadNode::make(DataType::int32(), buf, x * 4);
    EXPECT_EQ(cse::computationsDoneBy(load + load).count(x * 4), 2u);
}

TEST(CseTools, IfCountsWhatTwoOfItsChildrenCompute) {
    Var a("a"), b("b"), c("c"), buf = buffer("B");
    Stmt thenCase = SeqNode::make({StoreNode::make(buf, a * b, 0), StoreNode::make(buf, b * c, 1)});
    Stmt elseCase = StoreNode::make(buf, a * b, 2);
    cse::ComputationTable table =
        cse::computationsDoneBy(IfThenElseNode::make(a < c, thenCase, elseCase));
    EXPECT_EQ(table.count(a * b), 2u);
    EXPECT_EQ(table.count(b * c), 0u);
    EXPECT_EQ(table.count(a < c), 0u);
    EXPECT_EQ(cse::computationsDoneBy(IfThenElseNode::make(a < c, thenCase)).count(a * b), 0u);
}

TEST(CseTools, LoopCountsOnlyWhatItsBoundsComputeToo) {
    Var n("n"), m("m"), i("i"), buf = buffer("B");
    Stmt body = SeqNode::make({StoreNode::make(buf, n * m, i), StoreNode::make(buf, n + m, i)});
    cse::ComputationTable table =
        cse::computationsDoneBy(ForNode::make(i, 0, n * m, ForKind::Serial, body));
    EXPECT_EQ(table.count(n * m), 2u);
    EXPECT_EQ(table.count(n + m), 0u);
}

TEST(CseTools, DirectSubexpressionsAreTheFirstEligibleLevel) {
    Var w("w"), x("x"), y("y"), z("z"), buf = buffer("A");
    std::vector<Expr> direct = cse::directSubexpressions((w + x) + (y + z));
    ASSERT_EQ(direct.size(), 2u);
    EXPECT_EQ(toString(direct[0]), "(w + x)");
    EXPECT_EQ(toString(direct[1]), "(y + z)");
    EXPECT_TRUE(cse::directSubexpressions(w + x).empty());
    // Looks through a non-eligible child (a load) to the computations in it.
    direct = cse::directSubexpressions(LoadNode::make(DataType::int32(), buf, (w * 2) + 1));
    ASSERT_EQ(direct.size(), 1u);
    EXPECT_EQ(toString(direct[0]), "((w*2) + 1)");
}

TEST(CseTools, CandidatesStaySortedBiggestFirst) {
    Var a("a"), b("b"), c("c");
    cse::SemanticComputations sorted = {{(a + b) * c, 1}, {a + b, 1}};
    cse::insertSorted(sorted, {b * c, (a + b) * (b + c), a + b}, 2);
    ASSERT_EQ(sorted.size(), 4u);
    EXPECT_EQ(toString(sorted[0].first), "((a + b)*(b + c))");
    EXPECT_EQ(toString(sorted[1].first), "((a + b)*c)");
    EXPECT_EQ(toString(sorted[2].first), "(a + b)");
    EXPECT_EQ(sorted[2].second, 3u);
    EXPECT_EQ(toString(sorted[3].first), "(b*c)");
}

TEST(CseTools, SemanticEntitiesMergeEquivalentTerms) {
    Var a("a"), b("b");
    cse::ComputationTable table;
    table.add(a + b);
    table.add(a * b, 2);
    table.add(a + b);
    cse::SemanticComputations semantic = cse::syntacticToSemantic(table);
    ASSERT_EQ(semantic.size(), 2u);
    EXPECT_EQ(semantic[0].second, 2u);
    EXPECT_EQ(semantic[1].second, 2u);
    EXPECT_TRUE(equivalentTerms(a + b, a + b));
    EXPECT_FALSE(equivalentTerms(a + b, b + a)); // structural today; see equivalentTerms
}

namespace {

/// What Replacements::apply must equal: the entries made one after the other, each a walk of
/// the whole tree (seed 001's loop as written).
Expr replaceInTurn(Expr e, const std::vector<std::pair<Expr, Var>>& entries) {
    class Replacer : public IRMutator {
    public:
        Replacer(const Expr& computation, const Var& var)
            : m_computation(computation), m_var(var) {}
        Expr visitExpr(const Expr& e) override {
            if (equivalentTerms(e, m_computation) && cse::isEligibleComputation(e))
                return m_var;
            if (!cse::canContainEligibleComputations(e))
                return e;
            return IRMutator::visitExpr(e);
        }

    private:
        const Expr& m_computation;
        const Var& m_var;
    };
    for (const auto& [computation, var] : entries)
        e = Replacer(computation, var).visitExpr(e);
    return e;
}

/// Every eligible sub-expression of `e`, outside lets.
std::vector<Expr> eligibleSubexpressions(const Expr& e) {
    std::vector<Expr> found;
    std::vector<Expr> stack{e};
    while (!stack.empty()) {
        Expr x = stack.back();
        stack.pop_back();
        if (cse::isEligibleComputation(x))
            found.push_back(x);
        if (!cse::canContainEligibleComputations(x))
            continue;
        for (const Expr& d : cse::directSubexpressions(x))
            stack.push_back(d);
    }
    return found;
}

} // namespace

TEST(CseTools, ReplacementsInOneWalkMatchReplacingOneAfterAnother) {
    // Random trees over a few variables, some of which also hold computations (a let in
    // scope): replacing (a + b) by h can make h*2 appear, which a later entry replaces.
    std::mt19937 rng(7);
    Var a("a"), b("b"), c("c"), h("h"), k("k");
    const std::vector<Var> leaves{a, b, c, h, k};
    std::function<Expr(int)> tree = [&](int depth) -> Expr {
        if (depth == 0 || rng() % 4 == 0)
            return rng() % 3 == 0 ? Expr(makeConst(DataType::int32(), int64_t(rng() % 3 + 1)))
                                  : Expr(leaves[rng() % leaves.size()]);
        Expr l = tree(depth - 1), r = tree(depth - 1);
        switch (rng() % 4) {
        case 0:
            return l + r;
        case 1:
            return l * r;
        case 2:
            return l - r;
        default:
            return LetNode::make(Var("t"), l, r); // never looked inside
        }
    };
    for (int round = 0; round < 400; ++round) {
        cse::AnalysisMemo memo;
        Expr root = tree(6);
        std::vector<Expr> pool = eligibleSubexpressions(root);
        pool.push_back(a + b);
        pool.push_back(h * 2);
        cse::SemanticComputations candidates;
        for (const Expr& e : pool)
            if (rng() % 3 == 0 || e.same_as(pool[pool.size() - 1]) ||
                e.same_as(pool[pool.size() - 2]))
                cse::insertSorted(candidates, {e}, 1);
        cse::Replacements replacements;
        std::vector<std::pair<Expr, Var>> entries;
        for (size_t i = 0; i < candidates.size(); ++i) {
            // Some entries are the holders h and k, the rest fresh variables.
            const bool existing = i % 3 == 0;
            Var var = existing ? (i % 2 ? k : h) : Var("v" + std::to_string(i));
            replacements.add(candidates[i].first, var, existing);
            entries.emplace_back(candidates[i].first, var);
        }
        for (size_t first : {size_t(0), entries.size() / 2}) {
            std::vector<std::pair<Expr, Var>> tail(entries.begin() + first, entries.end());
            Expr expected = replaceInTurn(root, tail);
            Expr got = replacements.apply(root, first, entries.size());
            ASSERT_TRUE(structuralEqual(got, expected))
                << "round " << round << " from entry " << first << "\n  root " << toString(root)
                << "\n  one walk " << toString(got) << "\n  in turn  " << toString(expected);
        }
    }
}

TEST(CommonSubexprElim, SkippingQuietLetChainsChangesNothing) {
    // Random statements built from a small pool of pieces, so that computations repeat at
    // several depths: the pass with its shortcut gives what every level as written gives.
    std::mt19937 rng(11);
    Var a("a"), b("b"), c("c"), i("i"), x("x"), buf = buffer("B");
    auto pick = [&](const std::vector<Expr>& pool) { return pool[rng() % pool.size()]; };
    int introducing = 0;
    for (int round = 0; round < 300; ++round) {
        std::vector<Expr> pool{a, b, c, i, x, Expr(makeConst(DataType::int32(), int64_t(2)))};
        for (int k = 0; k < 8; ++k) {
            Expr l = pick(pool), r = pick(pool);
            pool.push_back(rng() % 2 ? l + r : l * r);
        }
        std::vector<Stmt> stores;
        for (int k = 0; k < 4; ++k)
            stores.push_back(StoreNode::make(buf, pick(pool) + pick(pool), k));
        Stmt body = SeqNode::make(stores);
        if (rng() % 3 == 0)
            body = LetStmtNode::make(x, pick(pool), body); // a let the program wrote: case 1
        Stmt s = ForNode::make(i, 0, 8, ForKind::Serial, body);
        CseOptions skip = inScope({a, b, c, x}), every = inScope({a, b, c, x});
        every.skipQuietLetChains = false;
        const std::string fast = toString(commonSubexprElim(s, skip));
        const std::string slow = toString(commonSubexprElim(s, every));
        ASSERT_EQ(fast, slow) << "round " << round << "\n" << toString(s);
        introducing += fast.find("cse_var_") != std::string::npos;
    }
    EXPECT_GT(introducing, 100) << "the rounds should introduce variables";
}

TEST(CommonSubexprElim, AVariableHoldingAComputationCanMakeTwoEqualForTheLevelBelow) {
    // x holds a + t (t is never in scope). In the loop, j*2 is done twice: cse_var_1; and
    // a + t becomes x, which makes the two stored values equal. Counted before that, each was
    // done once; the statement under the new let counts them again and shares them. The
    // shortcut past quiet chains of lets must not skip that level.
    Var a("a"), c("c"), t("t"), x("x"), j("j"), buf = buffer("B");
    Stmt pair = SeqNode::make(
        {StoreNode::make(buf, (a + t) * c + j * 2, j), StoreNode::make(buf, x * c + j * 2, j + 4)});
    Stmt s = LetStmtNode::make(x, a + t, ForNode::make(j, 0, 4, ForKind::Serial, pair));
    CseOptions every = inScope({a, c});
    every.skipQuietLetChains = false;
    const std::string out = toString(commonSubexprElim(s, inScope({a, c})));
    EXPECT_EQ(out, toString(commonSubexprElim(s, every)));
    EXPECT_NE(out.find("let cse_var_1 = (j*2)"), std::string::npos) << out;
    EXPECT_NE(out.find("let cse_var_2 = ((x*c) + cse_var_1)"), std::string::npos) << out;
}

TEST(CommonSubexprElim, AnExistingVariableCanMakeAnInBetweenFormMatchALaterEntry) {
    // At the store: (p*q + r*u) -> x (case 1), x*(s + t) -> y (case 1), s + t -> cse_var_1.
    // One after the other, the first product becomes x*(s + t) before s + t is replaced, so
    // y takes it; a single walk would have made it x*cse_var_1.
    Var p("p"), q("q"), r("r"), u("u"), s("s"), t("t"), n("n"), x("x"), y("y"), k("k"),
        buf = buffer("B");
    Expr sum = p * q + r * u;
    Stmt store = StoreNode::make(buf, (sum * (s + t) + x * (s + t)) + (s + t), k);
    Stmt program = LetStmtNode::make(
        x, sum, LetStmtNode::make(y, x * (s + t), ForNode::make(k, 0, n, ForKind::Serial, store)));
    const std::string out = toString(commonSubexprElim(program, inScope({p, q, r, u, s, t, n})));
    EXPECT_NE(out.find("B[k] = ((y + y) + cse_var_1)"), std::string::npos) << out;
    EXPECT_NE(out.find("let cse_var_1 = (s + t)"), std::string::npos) << out;
}

TEST(CommonSubexprElim, InAnExpressionTheEntriesAfterTheFirstLetReplaceNothing) {
    // Seed 001 and TVM replace inside the result so far, and never look into a let expression:
    // once the first variable is introduced around the expression, the next computation gets
    // its let with nothing replaced. One level down, with that let in scope, it is replaced.
    Var a("a"), t("t"), buf = buffer("B");
    Expr body = ((t + 1) * (t + 2) + (t + 1) * (t + 2)) + ((t + 3) + (t + 3));
    Stmt s = StoreNode::make(buf, LetNode::make(t, a, body), 0);
    Stmt out = commonSubexprElim(s, inScope({a}));
    EXPECT_EQ(
        toString(out),
        "B[0] = (let t = a in (let cse_var_2 = (t + 3) in (let cse_var_1 = ((t + 1)*(t + 2)) in "
        "((cse_var_1 + cse_var_1) + (cse_var_2 + cse_var_2)))))\n");
}

// ---------------------------------------------------------------------------------------------
// The pass

TEST(CommonSubexprElim, SharedSubexpressionOfTwoStatementsGetsOneVariable) {
    // Seed 001: (w+x)+(y+z) and (w+x)+u introduce w+x into a new variable.
    Var w("w"), x("x"), y("y"), z("z"), u("u"), buf = buffer("B");
    Stmt s = SeqNode::make(
        {StoreNode::make(buf, (w + x) + (y + z), 0), StoreNode::make(buf, (w + x) + u, 1)});
    Stmt out = commonSubexprElim(s, inScope({w, x, y, z, u}));
    EXPECT_EQ(toString(out), R"(let cse_var_1 = (w + x)
B[0] = (cse_var_1 + (y + z))
B[1] = (cse_var_1 + u)
)");
    expectSameResults(s, out, buf, 2, {{w, 1}, {x, 2}, {y, 3}, {z, 4}, {u, 5}});
}

TEST(CommonSubexprElim, BiggestRedundantComputationIsIntroducedFirst) {
    Var a("a"), b("b"), c("c"), buf = buffer("B");
    Expr big = (a + b) * c;
    Stmt s = SeqNode::make({StoreNode::make(buf, big + 1, 0), StoreNode::make(buf, big - 1, 1),
                            StoreNode::make(buf, a + b, 2)});
    Stmt out = commonSubexprElim(s, inScope({a, b, c}));
    EXPECT_EQ(toString(out), R"(let cse_var_1 = ((a + b)*c)
B[0] = (cse_var_1 + 1)
B[1] = (cse_var_1 - 1)
B[2] = (a + b)
)");
}

TEST(CommonSubexprElim, ExistingLetVariableIsReused) {
    // Case 1: `let x = a + b in ... (a + b) ...`. a and b are not in scope at the root (they
    // are free), so nothing is introduced above the let; inside it, x holds a + b.
    Var a("a"), b("b"), x("x"), buf = buffer("B");
    Stmt body =
        SeqNode::make({StoreNode::make(buf, (a + b) * 2, 0), StoreNode::make(buf, (a + b) * 3, 1)});
    Stmt s = LetStmtNode::make(x, a + b, body);
    Stmt out = commonSubexprElim(s);
    EXPECT_EQ(toString(out), R"(let x = (a + b)
B[0] = (x*2)
B[1] = (x*3)
)");
    expectSameResults(s, out, buf, 2, {{a, 4}, {b, -9}});
}

TEST(CommonSubexprElim, LetExpressionReusesItsVariable) {
    Var a("a"), t("t"), buf = buffer("B");
    Expr e = LetNode::make(t, a * 3, (a * 3) + (a * 3));
    Stmt out = commonSubexprElim(StoreNode::make(buf, e, 0));
    EXPECT_EQ(toString(out), "B[0] = (let t = (a*3) in (t + t))\n");
}

TEST(CommonSubexprElim, ComputationStaysInsideTheScopeOfItsVariables) {
    // i + 1 uses the loop variable: it is introduced inside the loop. n*m is loop-invariant
    // but only the body computes it, so it stays in the loop too (TVM never moves anything
    // above a loop that only the body computes).
    Var n("n"), m("m"), i("i"), buf = buffer("B");
    Expr value = ((n * m) + (i + 1)) * ((n * m) - (i + 1));
    Stmt s = ForNode::make(i, 0, 10, ForKind::Serial, StoreNode::make(buf, value, i));
    Stmt out = commonSubexprElim(s, inScope({n, m}));
    EXPECT_EQ(toString(out), R"(for (i, 0, 10) {
  let cse_var_2 = (i + 1)
  let cse_var_1 = (n*m)
  B[i] = ((cse_var_1 + cse_var_2)*(cse_var_1 - cse_var_2))
}
)");
    expectSameResults(s, out, buf, 10, {{n, 3}, {m, 5}});
}

TEST(CommonSubexprElim, ComputationSharedWithLoopBoundsGoesAboveTheLoop) {
    Var n("n"), m("m"), i("i"), buf = buffer("B");
    Stmt s = ForNode::make(i, 0, n * m, ForKind::Serial, StoreNode::make(buf, n * m, i));
    Stmt out = commonSubexprElim(s, inScope({n, m}));
    EXPECT_EQ(toString(out), R"(let cse_var_1 = (n*m)
for (i, 0, cse_var_1) {
  B[i] = cse_var_1
}
)");
    expectSameResults(s, out, buf, 6, {{n, 2}, {m, 3}});
    // In the body only as part of a bigger computation, it stays where it is.
    Stmt inside = ForNode::make(i, 0, n * m, ForKind::Serial, StoreNode::make(buf, (n * m) - i, i));
    EXPECT_TRUE(commonSubexprElim(inside, inScope({n, m})).same_as(inside));
}

TEST(CommonSubexprElim, NothingUsesAVariableOutOfScope) {
    // Without n and m in the context, n*m can be introduced nowhere; i + 1 still can.
    Var n("n"), m("m"), i("i"), buf = buffer("B");
    Expr value = ((n * m) + (i + 1)) * ((n * m) - (i + 1));
    Stmt out =
        commonSubexprElim(ForNode::make(i, 0, 10, ForKind::Serial, StoreNode::make(buf, value, i)));
    EXPECT_EQ(toString(out), R"(for (i, 0, 10) {
  let cse_var_1 = (i + 1)
  B[i] = (((n*m) + cse_var_1)*((n*m) - cse_var_1))
}
)");
}

TEST(CommonSubexprElim, TvmNestedLetsExample) {
    // TVM's test_cse: let z1 = 1; let z2 = 2; Mem[i1] = z1 + z2;
    //   let x = 1; let y = 1; let a = (x + y) + (z1 + z2); let b = (x + y) + z3; Mem[i2] = x + y
    Var z1("z1"), z2("z2"), z3("z3"), i1("i1"), i2("i2"), x("x"), y("y"), a("a"), b("b");
    Var mem = buffer("Mem");
    Stmt inner = LetStmtNode::make(
        x, 1,
        LetStmtNode::make(y, 1,
                          LetStmtNode::make(a, (x + y) + (z1 + z2),
                                            LetStmtNode::make(b, (x + y) + z3,
                                                              StoreNode::make(mem, x + y, i2)))));
    Stmt s = LetStmtNode::make(
        z1, 1, LetStmtNode::make(z2, 2, SeqNode::make({StoreNode::make(mem, z1 + z2, i1), inner})));
    Stmt out = commonSubexprElim(s, inScope({i1, i2, z3}));
    EXPECT_EQ(toString(out), R"(let z1 = 1
let z2 = 2
let cse_var_1 = (z1 + z2)
Mem[i1] = cse_var_1
let x = 1
let y = 1
let cse_var_2 = (x + y)
let a = (cse_var_2 + cse_var_1)
let b = (cse_var_2 + z3)
Mem[i2] = cse_var_2
)");
}

TEST(CommonSubexprElim, ComputationInOneBranchStaysInIt) {
    Var a("a"), b("b"), c("c"), buf = buffer("B");
    Stmt thenCase =
        SeqNode::make({StoreNode::make(buf, (a * b) + 1, 0), StoreNode::make(buf, (a * b) + 2, 1)});
    Stmt s = IfThenElseNode::make(c > 0, thenCase, StoreNode::make(buf, a + b, 2));
    Stmt out = commonSubexprElim(s, inScope({a, b, c}));
    EXPECT_EQ(toString(out), R"(if ((c > 0)) {
  let cse_var_1 = (a*b)
  B[0] = (cse_var_1 + 1)
  B[1] = (cse_var_1 + 2)
} else {
  B[2] = (a + b)
}
)");
}

TEST(CommonSubexprElim, LoadsAreNotCommonedButTheirIndicesAre) {
    Var i("i"), src = buffer("A"), buf = buffer("B");
    Expr load = LoadNode::make(DataType::int32(), src, i * 4);
    Stmt s = ForNode::make(i, 0, 4, ForKind::Serial, StoreNode::make(buf, load + load, i));
    Stmt out = commonSubexprElim(s);
    EXPECT_EQ(toString(out), R"(for (i, 0, 4) {
  let cse_var_1 = (i*4)
  B[i] = (A[cse_var_1] + A[cse_var_1])
}
)");
}

TEST(CommonSubexprElim, ThreadIndicesAreInScopeUnderTheirAttr) {
    IterVar bx(Range(), Var("blockIdx.x"), IterVarType::ThreadIndex, "blockIdx.x");
    IterVar tx(Range(), Var("threadIdx.x"), IterVarType::ThreadIndex, "threadIdx.x");
    Var a = buffer("A"), c = buffer("C");
    Expr index = bx->var * 400 + tx->var;
    Stmt store = StoreNode::make(c, LoadNode::make(DataType::float32(), a, index), index);
    Stmt s = AttrStmtNode::make(bx, attr::kThreadExtent, 100,
                                AttrStmtNode::make(tx, attr::kThreadExtent, 200, store));
    EXPECT_EQ(toString(commonSubexprElim(s)),
              R"(// attr [iter_var(blockIdx.x, , blockIdx.x)] thread_extent = 100
// attr [iter_var(threadIdx.x, , threadIdx.x)] thread_extent = 200
let cse_var_1 = ((blockIdx.x*400) + threadIdx.x)
C[cse_var_1] = A[cse_var_1]
)");
}

TEST(CommonSubexprElim, SecondRunIntroducesNothing) {
    Var n("n"), m("m"), i("i"), w("w"), buf = buffer("B");
    Expr value = ((n * m) + (i + 1)) * ((n * m) - (i + 1)) + ((w + i) * (w + i));
    Stmt s = ForNode::make(i, 0, 10, ForKind::Serial, StoreNode::make(buf, value, i));
    Stmt once = commonSubexprElim(s, inScope({n, m, w}));
    Stmt twice = commonSubexprElim(once, inScope({n, m, w}));
    EXPECT_TRUE(structuralEqual(once, twice)) << toString(once) << "---\n" << toString(twice);
    EXPECT_EQ(toString(twice).find("cse_var_4"), std::string::npos) << toString(twice);
    expectSameResults(s, twice, buf, 10, {{n, 2}, {m, -7}, {w, 11}});
}

TEST(CommonSubexprElim, FreshNamesAvoidNamesInUse) {
    Var taken("cse_var_1"), a("a"), buf = buffer("B");
    Stmt s = SeqNode::make(
        {StoreNode::make(buf, (a * 2) + taken, 0), StoreNode::make(buf, (a * 2) - taken, 1)});
    EXPECT_EQ(toString(commonSubexprElim(s, inScope({a, taken}))), R"(let cse_var_2 = (a*2)
B[0] = (cse_var_2 + cse_var_1)
B[1] = (cse_var_2 - cse_var_1)
)");
}

TEST(CommonSubexprElim, KeepsValuesOfAssortedPrograms) {
    Var i("i"), j("j"), n("n"), buf = buffer("B");
    Expr idx = i * 8 + j;
    Expr f = floordiv(idx + n, 3) * floormod(idx + n, 3) + select(idx + n > 20, idx + n, n - idx);
    Stmt s = ForNode::make(i, 0, 4, ForKind::Serial,
                           ForNode::make(j, 0, 8, ForKind::Serial,
                                         StoreNode::make(buf, f + floordiv(idx + n, 3), idx)));
    Stmt out = commonSubexprElim(s, inScope({n}));
    EXPECT_NE(toString(out).find("cse_var_"), std::string::npos);
    for (double nValue : {-5.0, 0.0, 7.0})
        expectSameResults(s, out, buf, 32, {{n, nValue}});
}

TEST(CommonSubexprElim, ADeepExpressionWithNothingToShareIsLeftAsItIsAndOneWithSomethingIsNot) {
    // A 3,000-term sum of loads: every index differs, so nothing is introduced at any level (the
    // pass checks that once instead of running at each of the 3,000 levels).
    Var i("i"), buf = buffer("B"), a = buffer("A");
    auto sumOf = [&](int terms) {
        Expr sum = LoadNode::make(DataType::float32(), a, i);
        for (int k = 1; k < terms; ++k)
            sum = sum + LoadNode::make(DataType::float32(), a, i + k);
        return sum;
    };
    Stmt deep = ForNode::make(i, 0, 8, ForKind::Serial, StoreNode::make(buf, sumOf(3000), i));
    EXPECT_TRUE(commonSubexprElim(deep).same_as(deep));
    // A sum read twice: the loads stay, each index they share gets a variable.
    Expr twice = sumOf(50) * (sumOf(50) + 1.0f);
    Stmt shared = ForNode::make(i, 0, 8, ForKind::Serial, StoreNode::make(buf, twice, i));
    const std::string text = toString(commonSubexprElim(shared));
    EXPECT_NE(text.find("let cse_var_49 = (i + 49)"), std::string::npos) << text.substr(0, 400);
    EXPECT_EQ(text.find("(i + 49)]"), std::string::npos) << text.substr(0, 400);
    // A let in scope whose value the store computes again: computed once.
    Var x("x");
    Stmt let = ForNode::make(
        i, 0, 8, ForKind::Serial,
        LetStmtNode::make(x, i * 7,
                          StoreNode::make(buf, cast(DataType::float32(), (i * 7) + 1), i)));
    const std::string letText = toString(commonSubexprElim(let));
    EXPECT_EQ(letText.find("float32(((i*7) + 1))"), std::string::npos) << letText;
}

// Randomized property tests (fixed seeds): the simplifier never changes the value of an
// expression and is idempotent; EvalSet's interval holds every value the expression takes.

#include "ArithTestUtil.h"

#include "arith/ConstEval.h"
#include "arith/EvalSet.h"
#include "ir/Equality.h"

#include <random>

namespace bs::test {
namespace {

/// The variables of the random expressions and the ranges their values are drawn from.
struct Universe {
    Var x{"x"}, y{"y"}, z{"z"}, u{"u"};
    Var n = Var::sizeVar("n");
    struct Entry {
        Var var;
        int64_t lo, hi; ///< inclusive
    };
    std::vector<Entry> entries() const {
        return {{x, 0, 7}, {y, -5, 9}, {z, 1, 16}, {u, -10, 10}, {n, 0, 20}};
    }
    /// Binds x, y, z to their ranges (u and n stay unknown to the analyzer).
    void bindRanges(Analyzer& analyzer) const {
        for (const Entry& e : entries())
            if (!e.var.same_as(u) && !e.var.same_as(n))
                analyzer.bind(e.var, Range(int(e.lo), int(e.hi - e.lo + 1)));
    }
};

class ExprGenerator {
public:
    ExprGenerator(const Universe& u, uint32_t seed) : m_u(u), m_rng(seed) {}

    Expr integer(int depth) {
        if (depth == 0 || pick(5) == 0)
            return leaf();
        Expr a = integer(depth - 1);
        switch (pick(13)) {
        case 0:
        case 1:
            return a + integer(depth - 1);
        case 2:
        case 3:
            return a - integer(depth - 1);
        case 4:
            return a * constant(-4, 4);
        case 5:
            return pick(4) == 0 ? a * leaf() : constant(-3, 3) * a;
        case 6:
            return floordiv(a, divisor());
        case 7:
            return floormod(a, divisor());
        case 8:
            return pick(2) ? truncdiv(a, divisor()) : truncmod(a, divisor());
        case 9:
            return min(a, integer(depth - 1));
        case 10:
            return max(a, integer(depth - 1));
        case 11:
            return select(condition(depth - 1), a, integer(depth - 1));
        default:
            return pick(2) ? floordiv(a, Expr(m_u.z)) : floormod(a, Expr(m_u.z));
        }
    }

    Expr condition(int depth) {
        Expr a = integer(depth), b = integer(depth);
        switch (pick(8)) {
        case 0:
            return a < b;
        case 1:
            return a <= b;
        case 2:
            return a > b;
        case 3:
            return a >= b;
        case 4:
            return eq(a, b);
        case 5:
            return ne(a, b);
        case 6:
            return (a < b) && (b < integer(depth));
        default:
            return !(a < b) || eq(a, integer(depth));
        }
    }

    /// Index arithmetic as splits and fuses produce it: sums of one to three chains, each a
    /// variable taken through two to four divisions, remainders and scalings by constants that
    /// mostly divide each other (the cases where split terms merge).
    Expr splitIndex() {
        Expr sum = splitChain();
        for (int terms = pick(3); terms > 0; --terms)
            sum = pick(3) ? sum + splitChain() : sum - splitChain();
        return sum;
    }

    Expr splitChain() {
        auto entries = m_u.entries();
        Expr e = entries[size_t(pick(int(entries.size())))].var;
        for (int steps = 2 + pick(3); steps > 0; --steps) {
            Expr c = Expr(int(std::vector<int>{2, 4, 8, 16, 2, 4, 3, 6, 20, 24}[size_t(pick(10))]));
            switch (pick(7)) {
            case 0:
            case 1:
                e = floordiv(e, c);
                break;
            case 2:
            case 3:
                e = floormod(e, c);
                break;
            case 4:
                e = pick(2) ? truncdiv(e, c) : truncmod(e, c);
                break;
            default:
                e = e * c;
            }
        }
        return e;
    }

    int64_t draw(int64_t lo, int64_t hi) {
        return std::uniform_int_distribution<int64_t>(lo, hi)(m_rng);
    }
    int pick(int n) { return int(draw(0, n - 1)); }

private:
    Expr leaf() {
        if (pick(3) == 0)
            return constant(-9, 9);
        auto entries = m_u.entries();
        return entries[size_t(pick(int(entries.size())))].var;
    }
    Expr constant(int lo, int hi) { return Expr(int(draw(lo, hi))); }
    Expr divisor() {
        int64_t d = pick(5) == 0 ? -draw(1, 8) : draw(1, 16);
        return Expr(int(d));
    }

    const Universe& m_u;
    std::mt19937 m_rng;
};

VarMap<int64_t> randomAssignment(const Universe& u, ExprGenerator& gen) {
    VarMap<int64_t> values;
    for (const auto& e : u.entries())
        values[e.var] = gen.draw(e.lo, e.hi);
    return values;
}

std::string describe(const VarMap<int64_t>& values) {
    std::string out;
    for (const auto& [var, value] : values)
        out += var.name() + "=" + std::to_string(value) + " ";
    return out;
}

/// simplify(e) has e's value wherever e has one, for analyzers with and without ranges.
void checkPreservesValue(bool withRanges, uint32_t seed, int count, bool splitIndices = false) {
    Universe u;
    ExprGenerator gen(u, seed);
    int failures = 0;
    for (int t = 0; t < count && failures < 5; ++t) {
        Expr e = splitIndices ? gen.splitIndex() : gen.integer(4);
        Analyzer analyzer;
        if (withRanges)
            u.bindRanges(analyzer);
        Expr s = analyzer.simplify(e);
        for (int trial = 0; trial < 12; ++trial) {
            VarMap<int64_t> values = randomAssignment(u, gen);
            auto expected = evaluateInt(e, values);
            if (!expected)
                continue;
            auto actual = evaluateInt(s, values);
            if (actual == expected)
                continue;
            ++failures;
            ADD_FAILURE() << "simplify changed the value of " << toString(e) << "\n  into "
                          << toString(s) << "\n  at " << describe(values) << ": expected "
                          << *expected << ", got "
                          << (actual ? std::to_string(*actual) : "no value");
            break;
        }
    }
}

TEST(SimplifyProperty, PreservesValueWithoutRanges) { checkPreservesValue(false, 20240601, 3000); }

TEST(SimplifyProperty, PreservesValueWithBoundRanges) { checkPreservesValue(true, 977, 3000); }

TEST(SimplifyProperty, PreservesValueOfSplitIndexArithmetic) {
    checkPreservesValue(false, 8086, 3000, true);
    checkPreservesValue(true, 6502, 3000, true);
}

TEST(SimplifyProperty, IsIdempotent) {
    Universe u;
    ExprGenerator gen(u, 4242);
    int failures = 0;
    for (int t = 0; t < 2000 && failures < 5; ++t) {
        Expr e = gen.integer(4);
        Analyzer analyzer;
        u.bindRanges(analyzer);
        Expr once = analyzer.simplify(e);
        Expr twice = analyzer.simplify(once);
        if (!structuralEqual(once, twice)) {
            ++failures;
            ADD_FAILURE() << "not idempotent: " << toString(e) << "\n  once:  " << toString(once)
                          << "\n  twice: " << toString(twice);
        }
    }
}

/// Every value of `e`, with x and y running over their whole ranges and z, u, n fixed by one
/// random assignment, lies inside evalSet(e) with x and y relaxed.
void checkEvalSetContainsValues(bool useBoundAnalyzer, uint32_t seed, int count) {
    Universe u;
    ExprGenerator gen(u, seed);
    VarMap<IntSet> dom{{u.x, IntSet::interval(Expr(0), Expr(7))},
                       {u.y, IntSet::interval(Expr(-5), Expr(9))}};
    int failures = 0;
    for (int t = 0; t < count && failures < 5; ++t) {
        Expr e = gen.integer(3);
        Analyzer analyzer;
        if (useBoundAnalyzer)
            u.bindRanges(analyzer);
        IntSet s = useBoundAnalyzer ? analyzer.intSet(e, dom) : evalSet(e, dom);
        VarMap<int64_t> values = randomAssignment(u, gen);
        auto lo = s.hasLowerBound() ? evaluateInt(s.min(), values) : std::nullopt;
        auto hi = s.hasUpperBound() ? evaluateInt(s.max(), values) : std::nullopt;
        for (int64_t xv = 0; xv <= 7 && failures < 5; ++xv) {
            for (int64_t yv = -5; yv <= 9; ++yv) {
                values[u.x] = xv;
                values[u.y] = yv;
                auto v = evaluateInt(e, values);
                if (!v || ((!lo || *lo <= *v) && (!hi || *v <= *hi)))
                    continue;
                ++failures;
                ADD_FAILURE() << "value " << *v << " of " << toString(e) << " at "
                              << describe(values) << " is outside " << s.toString();
                break;
            }
        }
    }
}

TEST(EvalSetProperty, IntervalContainsEveryValue) {
    checkEvalSetContainsValues(false, 31337, 2000);
}

TEST(EvalSetProperty, IntervalContainsEveryValueWithBoundAnalyzer) {
    checkEvalSetContainsValues(true, 1618, 2000);
}

} // namespace
} // namespace bs::test

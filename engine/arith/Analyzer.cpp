#include "arith/Analyzer.h"

#include "arith/EvalSet.h"
#include "arith/Simplify_Internal.h"
#include "ir/Equality.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "support/Check.h"

namespace bs {

namespace {

/// Rounds of rewrite + canonical simplification before giving up on a fixed point. TVM runs
/// one round; a second one only changes the rare results that are not yet stable.
constexpr int kMaxSimplifyRounds = 4;

/// `!cond` pushed through comparisons and logic, as TVM's NormalizeBooleanOperators does, so
/// that a known `x < 5` also answers `5 <= x` (false).
Expr negateCondition(const Expr& cond) {
    if (const auto* op = cond.as<NotNode>())
        return op->a;
    if (const auto* op = cond.as<LTNode>())
        return op->b <= op->a;
    if (const auto* op = cond.as<LENode>())
        return op->b < op->a;
    if (const auto* op = cond.as<GTNode>())
        return op->a <= op->b;
    if (const auto* op = cond.as<GENode>())
        return op->a < op->b;
    if (const auto* op = cond.as<EQNode>())
        return ne(op->a, op->b);
    if (const auto* op = cond.as<NENode>())
        return eq(op->a, op->b);
    if (const auto* op = cond.as<AndNode>())
        return negateCondition(op->a) || negateCondition(op->b);
    if (const auto* op = cond.as<OrNode>())
        return negateCondition(op->a) && negateCondition(op->b);
    return !cond;
}

/// The conjuncts of `cond` (`a && b && c` gives a, b, c).
void conjuncts(const Expr& cond, std::vector<Expr>* out) {
    if (const auto* op = cond.as<AndNode>()) {
        conjuncts(op->a, out);
        conjuncts(op->b, out);
        return;
    }
    out->push_back(cond);
}

} // namespace

Analyzer::Analyzer()
    : m_modularSet(this), m_rewrite(std::make_unique<RewriteSimplifier>(*this)),
      m_canonical(std::make_unique<CanonicalSimplifier>(*this)) {}

Analyzer::~Analyzer() = default;

void Analyzer::bind(const Var& var, const Range& r, bool allowOverride) {
    BS_CHECK(var.defined() && r.defined() && r.extent.defined())
        << "binding an undefined variable or range";
    // An extent-1 loop is its min value (TVM's Analyzer::Bind).
    if (isConstInt(r.extent, 1)) {
        bind(var, r.min, allowOverride);
        return;
    }
    m_constIntBound.bind(var, r, allowOverride);
    m_varRanges[var] = IntSet::fromRange(r);
    if (allowOverride) {
        // A variable bound again as a range (one loop variable shared by sibling loops, as in
        // unrolled copies) loses the value an earlier extent-1 binding gave it.
        m_varValues.erase(var);
        m_modularSet.update(var, ModularSet::everything(), true);
    }
}

void Analyzer::bind(const Var& var, const Expr& value, bool allowOverride) {
    BS_CHECK(var.defined() && value.defined()) << "binding an undefined variable or value";
    // The variable's own type, so that substituting it keeps every node's type.
    Expr simplified = simplify(cast(var.type(), value));
    m_constIntBound.update(var, constIntBound(simplified), allowOverride);
    m_modularSet.update(var, modularSet(simplified), allowOverride);
    if (!allowOverride) {
        auto it = m_varValues.find(var);
        BS_CHECK(it == m_varValues.end() || structuralEqual(it->second, simplified))
            << "variable " << var.name() << " rebound from " << toString(it->second) << " to "
            << toString(simplified);
    }
    m_varValues[var] = simplified;
    m_varRanges[var] = IntSet::singlePoint(simplified);
}

Expr Analyzer::simplify(const Expr& e) {
    BS_CHECK(e.defined()) << "simplifying an undefined expression";
    Expr current = e;
    for (int round = 0; round < kMaxSimplifyRounds; ++round) {
        if (current.as<IntImmNode>())
            return current;
        Expr next = m_rewrite->simplify(current);
        if (!next.as<IntImmNode>())
            next = m_canonical->simplify(next);
        if (next.same_as(current) || structuralEqual(next, current))
            return current;
        current = next;
    }
    return current;
}

Expr Analyzer::rewriteSimplify(const Expr& e) { return m_rewrite->simplify(e); }

Expr Analyzer::canonicalSimplify(const Expr& e) { return m_canonical->simplify(e); }

bool Analyzer::canProve(const Expr& cond) {
    if (auto c = asConstInt(cond))
        return *c != 0;
    auto c = asConstInt(simplify(cond));
    return c && *c != 0;
}

bool Analyzer::canProveEqual(const Expr& a, const Expr& b) {
    auto ca = asConstInt(a), cb = asConstInt(b);
    if (ca && cb)
        return *ca == *cb;
    if (a.same_as(b))
        return true;
    if (!a.type().isIntegral() || !b.type().isIntegral())
        return false;
    Expr diff = a - b;
    return canProve(eq(diff, makeZero(diff.type())));
}

bool Analyzer::canProveGreaterEqual(const Expr& e, int64_t lower) {
    if (auto c = asConstInt(e))
        return *c >= lower;
    return constIntBound(rewriteSimplify(e)).minValue >= lower;
}

bool Analyzer::canProveLess(const Expr& e, int64_t upper) {
    if (auto c = asConstInt(e))
        return *c < upper;
    return constIntBound(rewriteSimplify(e)).maxValue < upper;
}

ConstIntBound Analyzer::constIntBound(const Expr& e) { return m_constIntBound(e); }

ModularSet Analyzer::modularSet(const Expr& e) { return m_modularSet(e); }

IntSet Analyzer::intSet(const Expr& e, const VarMap<IntSet>& dom) { return evalSet(e, dom, *this); }

IntSet Analyzer::intSet(const Expr& e) { return evalSet(e, m_varRanges, *this); }

Analyzer::ConstraintScope::ConstraintScope(Analyzer& analyzer, const Expr& condition)
    : m_analyzer(analyzer) {
    Expr simplified = analyzer.rewriteSimplify(condition);
    m_boundCount = analyzer.m_constIntBound.enterConstraint(simplified);
    std::vector<Expr> parts;
    conjuncts(simplified, &parts);
    size_t before = analyzer.m_literalConstraints.size();
    for (const Expr& part : parts) {
        if (!part.type().isBool() || part.as<IntImmNode>())
            continue;
        analyzer.m_literalConstraints.push_back(part);
        // Also remember `!negation` so that the negated spelling is recognized as false.
        analyzer.m_literalConstraints.push_back(!negateCondition(part));
    }
    m_literalCount = analyzer.m_literalConstraints.size() - before;
}

Analyzer::ConstraintScope::~ConstraintScope() {
    m_analyzer.m_constIntBound.exitConstraint(m_boundCount);
    auto& literals = m_analyzer.m_literalConstraints;
    literals.resize(literals.size() - m_literalCount);
}

} // namespace bs

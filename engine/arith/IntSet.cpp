#include "arith/IntSet.h"

#include "arith/Analyzer.h"
#include "ir/Equality.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "support/Check.h"

#include <ostream>

namespace bs {

IntSet IntSet::interval(Expr min, Expr max) {
    IntSet s;
    s.m_min = std::move(min);
    s.m_max = std::move(max);
    s.m_empty = false;
    return s;
}

IntSet IntSet::singlePoint(Expr value) {
    BS_CHECK(value.defined()) << "single point of an undefined expression";
    return interval(value, value);
}

IntSet IntSet::fromRange(const Range& r) {
    BS_CHECK(r.defined() && r.extent.defined()) << "IntSet of an undefined range";
    // Only a literal 1 makes a point: InferBound's extent-1 rule (notes section 9, item 1).
    if (isConstInt(r.extent, 1))
        return singlePoint(r.min);
    return interval(r.min, r.extent + r.min - 1);
}

IntSet IntSet::everything() { return interval(Expr(), Expr()); }

bool IntSet::isSinglePoint() const {
    if (!hasLowerBound() || !hasUpperBound())
        return false;
    return m_min.same_as(m_max) || structuralEqual(m_min, m_max);
}

const Expr& IntSet::pointValue() const {
    BS_CHECK(isSinglePoint()) << "pointValue of the non-point set " << toString();
    return m_min;
}

Range IntSet::coverRange(const Range& fallback) const {
    if (!hasLowerBound() || !hasUpperBound())
        return fallback;
    Analyzer fresh;
    return Range(fresh.simplify(m_min), fresh.simplify(m_max + 1 - m_min));
}

bool IntSet::matchRange(const Range& r) const {
    Analyzer fresh;
    return matchRange(r, fresh);
}

bool IntSet::matchRange(const Range& r, Analyzer& analyzer) const {
    if (!hasLowerBound() || !hasUpperBound())
        return false;
    return analyzer.canProveEqual(m_min, r.min) &&
           analyzer.canProveEqual(m_max, r.extent + r.min - 1);
}

std::string IntSet::toString() const {
    if (m_empty)
        return "empty";
    std::string lo = m_min.defined() ? bs::toString(m_min) : "-inf";
    std::string hi = m_max.defined() ? bs::toString(m_max) : "+inf";
    return "[" + lo + ", " + hi + "]";
}

std::ostream& operator<<(std::ostream& os, const IntSet& s) { return os << s.toString(); }

namespace {

std::vector<IntSet> nonEmpty(const std::vector<IntSet>& sets) {
    std::vector<IntSet> out;
    for (const IntSet& s : sets)
        if (!s.isNothing())
            out.push_back(s);
    return out;
}

} // namespace

IntSet unionSets(const std::vector<IntSet>& sets, bool simplify) {
    if (sets.size() == 1)
        return sets[0];
    std::vector<IntSet> parts = nonEmpty(sets);
    if (parts.empty())
        return IntSet::nothing();
    Expr lo = parts[0].min(), hi = parts[0].max();
    for (size_t i = 1; i < parts.size(); ++i) {
        // An unbounded end (undefined) absorbs everything.
        lo = lo.defined() && parts[i].hasLowerBound() ? min(lo, parts[i].min()) : Expr();
        hi = hi.defined() && parts[i].hasUpperBound() ? max(hi, parts[i].max()) : Expr();
    }
    if (!simplify)
        return IntSet::interval(lo, hi);
    Analyzer fresh;
    return IntSet::interval(lo.defined() ? fresh.simplify(lo) : lo,
                            hi.defined() ? fresh.simplify(hi) : hi);
}

IntSet intersectSets(const std::vector<IntSet>& sets) {
    if (sets.empty())
        return IntSet::nothing();
    if (sets.size() == 1)
        return sets[0];
    Expr lo, hi;
    for (const IntSet& s : sets) {
        if (s.isNothing())
            return IntSet::nothing();
        // An unbounded end constrains nothing.
        if (s.hasLowerBound())
            lo = lo.defined() ? max(lo, s.min()) : s.min();
        if (s.hasUpperBound())
            hi = hi.defined() ? min(hi, s.max()) : s.max();
    }
    Analyzer fresh;
    if (lo.defined())
        lo = fresh.simplify(lo);
    if (hi.defined())
        hi = fresh.simplify(hi);
    if (lo.defined() && hi.defined() && lo.type().isIntegral() && fresh.canProve(hi < lo))
        return IntSet::nothing();
    return IntSet::interval(lo, hi);
}

} // namespace bs

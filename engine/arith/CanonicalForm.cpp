#include "arith/CanonicalForm.h"

#include "ir/Equality.h"
#include "ir/Op.h"
#include "support/Check.h"

#include <algorithm>

namespace bs {

namespace {

Expr applyMod(const Expr& a, int64_t c, DivMode mode) {
    Expr divisor = makeConst(a.type(), c);
    return mode == DivMode::Floor ? floormod(a, divisor) : truncmod(a, divisor);
}

Expr applyDiv(const Expr& a, int64_t c, DivMode mode) {
    Expr divisor = makeConst(a.type(), c);
    return mode == DivMode::Floor ? floordiv(a, divisor) : truncdiv(a, divisor);
}

/// Merges pieces of one index split apart: equal factors add up, and
/// `(x / (c*s)) * s + (x % (c*s)) / c` becomes `x / c` (both as terms scaled alike).
/// Relies on equal indices being adjacent with decreasing `lower`.
void mergeSplitPieces(std::vector<SplitTerm>& terms) {
    for (size_t i = 0; i < terms.size(); ++i) {
        if (terms[i].scale == 0)
            continue;
        for (size_t j = i + 1; j < terms.size(); ++j) {
            SplitTerm& lhs = terms[i];
            SplitTerm& rhs = terms[j];
            if (!lhs.indexEqual(rhs) || lhs.upper < rhs.lower)
                break;
            if (lhs.upper == rhs.upper && lhs.lower == rhs.lower && lhs.compatibleWith(rhs.mode)) {
                rhs.scale += lhs.scale;
                lhs.scale = 0;
                continue;
            }
            bool adjacentPieces = lhs.lower == rhs.upper && rhs.scale != 0 &&
                                  truncModInt(lhs.scale, rhs.scale) == 0 &&
                                  lhs.lower == (truncDivInt(lhs.scale, rhs.scale)) * rhs.lower &&
                                  lhs.compatibleWith(rhs.mode);
            if (adjacentPieces) {
                rhs.upper = lhs.upper;
                lhs.scale = 0;
                break;
            }
        }
    }
}

/// TVM's order: larger scale first, then larger lower, larger upper, floor before truncating;
/// stable, so ties keep their order of appearance.
void sortTerms(std::vector<SplitTerm>& terms) {
    std::stable_sort(terms.begin(), terms.end(), [](const SplitTerm& l, const SplitTerm& r) {
        if (l.scale != r.scale)
            return l.scale > r.scale;
        if (l.lower != r.lower)
            return l.lower > r.lower;
        if (l.upper != r.upper)
            return l.upper > r.upper;
        return l.mode > r.mode;
    });
}

} // namespace

Expr SplitTerm::normalize(int64_t extraScale) const {
    if (scale == 0)
        return makeZero(type());
    Expr result = index;
    if (upper != kPosInf)
        result = applyMod(result, upper, mode);
    if (lower != 1)
        result = applyDiv(result, lower, mode);
    int64_t total = scale * extraScale;
    if (total != 1)
        result = result * makeConst(type(), total);
    return result;
}

bool SplitTerm::indexEqual(const SplitTerm& other) const {
    return index.same_as(other.index) || structuralEqual(index, other.index);
}

Expr SumForm::normalize() const {
    if (terms.empty())
        return makeConst(type, base);
    std::vector<SplitTerm> sorted = terms;
    mergeSplitPieces(sorted);
    sortTerms(sorted);
    Expr result = makeZero(type);
    for (const SplitTerm& t : sorted)
        if (t.scale > 0)
            result = result + t.normalize();
    if (base > 0)
        result = result + makeConst(type, base);
    for (const SplitTerm& t : sorted)
        if (t.scale < 0)
            result = result - t.normalize(-1);
    if (base < 0)
        result = result - makeConst(type, -base);
    return result;
}

bool SumForm::divisibleBy(int64_t c) const {
    if (truncModInt(base, c) != 0)
        return false;
    return std::all_of(terms.begin(), terms.end(),
                       [c](const SplitTerm& t) { return truncModInt(t.scale, c) == 0; });
}

void SumForm::multiplyBy(int64_t c) {
    base *= c;
    for (SplitTerm& t : terms)
        t.scale *= c;
}

void SumForm::divideBy(int64_t c) {
    BS_CHECK(divisibleBy(c)) << "dividing a sum by " << c << ", which does not divide it";
    base /= c;
    for (SplitTerm& t : terms)
        t.scale /= c;
}

void SumForm::add(SplitTerm term, int64_t factor) {
    if (term.scale == 0)
        return;
    size_t start = 0;
    while (start < terms.size() && !terms[start].indexEqual(term))
        ++start;
    for (size_t j = start; j < terms.size(); ++j) {
        if (!terms[j].indexEqual(term) || term.lower > terms[j].lower) {
            term.scale *= factor;
            terms.insert(terms.begin() + std::ptrdiff_t(j), std::move(term));
            return;
        }
        if (term.lower == terms[j].lower && term.upper == terms[j].upper &&
            term.compatibleWith(terms[j].mode)) {
            terms[j].scale += term.scale * factor;
            return;
        }
    }
    term.scale *= factor;
    terms.push_back(std::move(term));
}

void SumForm::add(const SumForm& other, int64_t factor) {
    for (const SplitTerm& t : other.terms)
        add(t, factor);
    add(other.base * factor);
}

Expr normalize(const CanonValue& v) {
    if (const auto* e = std::get_if<Expr>(&v))
        return *e;
    if (const auto* s = std::get_if<SplitTerm>(&v))
        return s->normalize();
    return std::get<SumForm>(v).normalize();
}

SplitTerm toSplit(const CanonValue& v) {
    if (const auto* s = std::get_if<SplitTerm>(&v))
        return *s;
    if (const auto* sum = std::get_if<SumForm>(&v)) {
        if (sum->base == 0 && sum->terms.size() == 1)
            return sum->terms[0];
    }
    SplitTerm term;
    term.index = normalize(v);
    return term;
}

SumForm toSum(const CanonValue& v) {
    if (const auto* sum = std::get_if<SumForm>(&v))
        return *sum;
    if (auto c = canonConst(v)) {
        SumForm constant;
        constant.type = std::get<Expr>(v).type();
        constant.base = *c;
        return constant;
    }
    SplitTerm term = toSplit(v);
    SumForm sum;
    sum.type = term.type();
    sum.terms.push_back(std::move(term));
    return sum;
}

std::optional<int64_t> canonConst(const CanonValue& v) {
    if (const auto* e = std::get_if<Expr>(&v))
        return asConstInt(*e);
    return std::nullopt;
}

} // namespace bs

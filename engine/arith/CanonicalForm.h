/// \file
/// Private to engine/arith: the normal forms of the canonical simplifier (TVM's SplitExpr and
/// SumExpr in canonical_simplify.cc, as plain values rather than IR nodes).
///
/// A SplitTerm is `((index % upper) / lower) * scale` (division and remainder floor or
/// truncating): it remembers how an index was split, so that `floordiv(x, 8)*8 + floormod(x, 8)`
/// merges back into `x`. A SumForm is `sum(terms) + base`: a linear combination with like terms
/// collected. Terms with the same index stay next to each other, ordered by decreasing `lower`.
///
/// Normalizing a sum (turning it back into an expression) merges split pieces, then orders the
/// terms by decreasing scale (stable, so ties keep their order of appearance), then lower,
/// upper and division mode, and prints positive terms, a positive base, negative terms, a
/// negative base: `j + i*64` becomes `((i*64) + j)`.
#pragma once

#include "arith/ConstIntBound.h"
#include "ir/Expr.h"

#include <variant>
#include <vector>

namespace bs {

enum class DivMode : uint8_t { Trunc, Floor };

struct SplitTerm {
    static constexpr int64_t kPosInf = ConstIntBound::kPosInf;

    Expr index;
    int64_t lower = 1;
    int64_t upper = kPosInf; ///< kPosInf: no remainder; else a multiple of `lower`
    int64_t scale = 1;
    DivMode mode = DivMode::Trunc;

    DataType type() const { return index.type(); }
    /// The expression times `extraScale` (0 when the scale is 0).
    Expr normalize(int64_t extraScale = 1) const;
    /// A term without division or remainder works with either division mode.
    bool compatibleWith(DivMode m) const { return mode == m || (lower == 1 && upper == kPosInf); }
    bool indexEqual(const SplitTerm& other) const;
};

struct SumForm {
    DataType type;
    std::vector<SplitTerm> terms;
    int64_t base = 0;

    bool isZero() const { return base == 0 && terms.empty(); }
    Expr normalize() const;
    bool divisibleBy(int64_t c) const;
    void multiplyBy(int64_t c);
    /// Divides base and every scale by `c`, which must divide them all.
    void divideBy(int64_t c);
    void add(int64_t value) { base += value; }
    /// this += term * factor, keeping equal indices adjacent and collecting like terms.
    void add(SplitTerm term, int64_t factor);
    void add(const SumForm& other, int64_t factor);
};

/// What the canonical simplifier passes between the arithmetic nodes of one tree.
using CanonValue = std::variant<Expr, SplitTerm, SumForm>;

Expr normalize(const CanonValue& v);
/// The value as one split term (a sum that is not a single bare term is normalized first).
SplitTerm toSplit(const CanonValue& v);
/// The value as a sum (an integer constant becomes the base).
SumForm toSum(const CanonValue& v);
/// The constant, if `v` is a plain integer constant.
std::optional<int64_t> canonConst(const CanonValue& v);

} // namespace bs

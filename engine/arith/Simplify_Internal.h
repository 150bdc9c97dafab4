/// \file
/// Private to engine/arith: the two simplifiers behind Analyzer::simplify (TVM's
/// RewriteSimplifier and CanonicalSimplifier), split by node kind like Halide's Simplify_*.cpp:
///
///   Simplify_Rewrite.cpp    dispatch, variables, lets, casts, calls, select, comparisons helper
///   Simplify_Add.cpp        +, -, * rules
///   Simplify_Div.cpp        truncating / and % rules
///   Simplify_FloorDiv.cpp   floordiv, floormod rules
///   Simplify_MinMax.cpp     min, max rules
///   Simplify_Compare.cpp    ==, !=, <, <=, >, >= rules
///   Simplify_Logic.cpp      &&, ||, ! rules
///   Simplify_Vector.cpp     ramp / broadcast arithmetic
///   CanonicalSimplify.cpp   sums in canonical linear form (+, -, *)
///   CanonicalDivMod.cpp     division and remainder by constants on canonical forms
///
/// The rewrite simplifier visits children first, folds constants, then tries its rules in order;
/// the first that matches (and whose condition holds) wins. The canonical simplifier derives
/// from it: arithmetic on index types (int32/int64 scalars) goes through the normal forms of
/// CanonicalForm.h, everything else through the rewrite rules with canonical children.
#pragma once

#include "arith/Analyzer.h"
#include "arith/CanonicalForm.h"
#include "arith/RewritePattern.h"
#include "ir/Functor.h"

#include <optional>

namespace bs {

/// What TryCompare knows about `x` against a value, as bit flags (EQ=1, LT=2, GT=4).
enum class CompareResult : uint8_t {
    Inconsistent = 0,
    EQ = 1,
    LT = 2,
    LE = 3,
    GT = 4,
    GE = 5,
    NE = 6,
    Unknown = 7,
};

/// TVM's IsIndexType: the only types the arithmetic rules run on.
inline bool isIndexType(DataType t) {
    return t.isInt() && t.isScalar() && (t.bits() == 32 || t.bits() == 64);
}

class RewriteSimplifier : public IRMutator {
public:
    explicit RewriteSimplifier(Analyzer& parent) : m_parent(parent) {}

    Expr simplify(const Expr& e) { return visitExpr(e); }

    // Helpers for rule conditions ---------------------------------------------------------
    /// What can be said about `x - value` from its simplified form and constant bounds (and,
    /// against 0, its modular set).
    CompareResult tryCompare(const Expr& x, int64_t value);
    /// tryCompare(x - y, 0).
    CompareResult tryCompare(const Expr& x, const Expr& y);
    bool canProveGreaterEqual(const Expr& x, int64_t v) {
        return m_parent.canProveGreaterEqual(x, v);
    }
    bool canProveLess(const Expr& x, int64_t v) { return tryCompare(x, v) == CompareResult::LT; }
    bool canProveEqual(const Expr& x, int64_t v) { return tryCompare(x, v) == CompareResult::EQ; }
    Analyzer& analyzer() { return m_parent; }

protected:
    using IRMutator::visit;

    /// The first rule of `rules` that matches `e` and whose condition holds, instantiated.
    std::optional<Expr> applyRules(const Expr& e, const RuleTable& rules);
    /// Simplifies a rewritten result again, at most kMaxRecursion levels deep.
    Expr recursiveRewrite(const Expr& e);
    /// Visits both children; returns the node itself when they are unchanged and not
    /// constants, else the node rebuilt with `build` (an ir/Op.h operator, which folds).
    template <typename Node> Expr mutateChildren(const Node* op, Expr (*build)(Expr, Expr)) {
        Expr a = visitExpr(op->a);
        Expr b = visitExpr(op->b);
        if (a.same_as(op->a) && b.same_as(op->b) && !isConstOperand(a) && !isConstOperand(b))
            return Expr(op);
        return build(a, b);
    }
    static bool isConstOperand(const Expr& e) { return e.as<IntImmNode>() || e.as<FloatImmNode>(); }

    Expr visit(const VarNode* op) override;
    Expr visit(const AddNode* op) override;
    Expr visit(const SubNode* op) override;
    Expr visit(const MulNode* op) override;
    Expr visit(const DivNode* op) override;
    Expr visit(const ModNode* op) override;
    Expr visit(const FloorDivNode* op) override;
    Expr visit(const FloorModNode* op) override;
    Expr visit(const MinNode* op) override;
    Expr visit(const MaxNode* op) override;
    Expr visit(const EQNode* op) override;
    Expr visit(const NENode* op) override;
    Expr visit(const LTNode* op) override;
    Expr visit(const LENode* op) override;
    Expr visit(const GTNode* op) override;
    Expr visit(const GENode* op) override;
    Expr visit(const AndNode* op) override;
    Expr visit(const OrNode* op) override;
    Expr visit(const NotNode* op) override;
    Expr visit(const SelectNode* op) override;
    Expr visit(const CastNode* op) override;
    Expr visit(const CallNode* op) override;
    Expr visit(const LetNode* op) override;

    // Rules applied to an already visited node (shared by several visitors).
    Expr rewriteEQ(const Expr& e);
    Expr rewriteLT(const Expr& e);
    Expr rewriteNot(const Expr& e);
    /// Lane-wise arithmetic on ramps and broadcasts (Simplify_Vector.cpp).
    std::optional<Expr> rewriteVector(const Expr& e);
    /// The residue / divisor rules for floordiv(x*c1 + y, c2) (Simplify_FloorDiv.cpp).
    std::optional<Expr> floorDivLinear(const FloorDivNode* op);
    /// true / false when `e` (or its negation) is a condition known to hold.
    std::optional<Expr> matchLiteralConstraint(const Expr& e) const;
    /// Simplifies `value` assuming `condition` holds.
    Expr visitUnder(const Expr& condition, const Expr& value);

    Analyzer& m_parent;

private:
    static constexpr int kMaxRecursion = 5;
    int m_recursionDepth = 0;
};

class CanonicalSimplifier : public RewriteSimplifier {
public:
    using RewriteSimplifier::RewriteSimplifier;

    /// Every visited expression comes back normalized (a plain expression).
    Expr visitExpr(const Expr& e) override { return normalize(mutateCanonical(e)); }

private:
    /// Arithmetic of index type in canonical form; anything else through the rewrite rules.
    CanonValue mutateCanonical(const Expr& e);
    CanonValue canonicalAdd(const AddNode* op);
    CanonValue canonicalSub(const SubNode* op);
    CanonValue canonicalMul(const MulNode* op);
    CanonValue canonicalDiv(const DivNode* op);
    CanonValue canonicalMod(const ModNode* op);
    CanonValue canonicalFloorDiv(const FloorDivNode* op);
    CanonValue canonicalFloorMod(const FloorModNode* op);

    /// `a` divided by the positive constant `c`, as one split term.
    SplitTerm splitDivConst(SplitTerm a, int64_t c, DivMode mode);
    /// `a` modulo the positive constant `c`, as one split term.
    SplitTerm splitModConst(SplitTerm a, int64_t c, DivMode mode);
    /// The term with the division mode `mode` (normalized first when incompatible).
    SplitTerm convertDivMode(SplitTerm a, DivMode mode);
    /// Divides a sum: the part divisible by c exactly, the rest through floordiv/truncdiv.
    CanonValue divideSum(SumForm sum, int64_t c, DivMode mode);
    /// The remainder of a sum: the divisible part drops, the constant reduces.
    CanonValue modSum(SumForm sum, int64_t c, DivMode mode);
    /// Rebuilds `op` from normalized children (the non-constant-divisor path).
    template <typename Node>
    CanonValue rebuild(const Node* op, const CanonValue& a, const CanonValue& b,
                       Expr (*build)(Expr, Expr)) {
        Expr na = normalize(a);
        Expr nb = normalize(b);
        if (na.same_as(op->a) && nb.same_as(op->b))
            return Expr(op);
        return build(na, nb);
    }
};

} // namespace bs

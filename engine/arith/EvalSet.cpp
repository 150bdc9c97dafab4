#include "arith/EvalSet.h"

#include "arith/Analyzer.h"
#include "arith/IntervalCombine.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Substitute.h"
#include "support/Check.h"

namespace bs {

namespace {

/// The interval evaluator (TVM's IntervalSetEvaluator): returns a set per node, with the
/// operator rules in IntervalCombine.cpp.
class IntervalEvaluator : public ExprFunctor<IntSet> {
public:
    IntervalEvaluator(Analyzer& analyzer, const VarMap<IntSet>& dom)
        : m_analyzer(analyzer), m_dom(dom) {}

    /// Relaxes both ends of `s`: its min end to the min of that end's set, its max end to the
    /// max. Recursion is capped at the number of relaxed variables, so a cyclic `dom` cannot
    /// loop forever.
    IntSet relax(const IntSet& s) {
        if (m_depth >= m_dom.size() + m_lets.size())
            return s;
        ++m_depth;
        Expr lo, hi;
        if (s.hasLowerBound())
            lo = visitExpr(s.min()).min();
        if (s.hasUpperBound())
            hi = visitExpr(s.max()).max();
        --m_depth;
        return IntSet::interval(lo, hi);
    }

protected:
    using ExprFunctor<IntSet>::visit;

    IntSet visitExprDefault(const ExprNode*) override { return IntSet::everything(); }
    IntSet visit(const IntImmNode* op) override { return IntSet::singlePoint(Expr(op)); }
    IntSet visit(const FloatImmNode* op) override { return IntSet::singlePoint(Expr(op)); }

    IntSet visit(const VarNode* op) override {
        Var v(op);
        const IntSet* set = lookup(v);
        if (!set)
            return IntSet::singlePoint(v);
        if (set->isNothing() || (set->isSinglePoint() && set->min().same_as(v)))
            return *set;
        // The set may mention other relaxed variables: relax it further.
        return relax(*set);
    }

#define BS_EVAL_BINARY(N, fn)                                                                      \
    IntSet visit(const N##Node* op) override { return binary(op, fn); }
    BS_EVAL_BINARY(Add, combineAdd)
    BS_EVAL_BINARY(Sub, combineSub)
    BS_EVAL_BINARY(Mul, combineMul)
    BS_EVAL_BINARY(Div, combineDiv)
    BS_EVAL_BINARY(Mod, combineMod)
    BS_EVAL_BINARY(FloorDiv, combineFloorDiv)
    BS_EVAL_BINARY(FloorMod, combineFloorMod)
    BS_EVAL_BINARY(Min, combineMin)
    BS_EVAL_BINARY(Max, combineMax)
#define BS_EVAL_LOGICAL(N)                                                                         \
    IntSet visit(const N##Node* op) override {                                                     \
        return binary(op, [](Analyzer&, const IntSet& a, const IntSet& b, DataType t) {            \
            return combineLogical(NodeKind::N, a, b, t);                                           \
        });                                                                                        \
    }
    BS_EVAL_LOGICAL(EQ)
    BS_EVAL_LOGICAL(NE)
    BS_EVAL_LOGICAL(LT)
    BS_EVAL_LOGICAL(LE)
    BS_EVAL_LOGICAL(GT)
    BS_EVAL_LOGICAL(GE)
    BS_EVAL_LOGICAL(And)
    BS_EVAL_LOGICAL(Or)
#undef BS_EVAL_LOGICAL
#undef BS_EVAL_BINARY

    IntSet visit(const NotNode* op) override {
        IntSet a = visitExpr(op->a);
        if (a.isSinglePoint())
            return IntSet::singlePoint(a.pointValue().same_as(op->a) ? Expr(op) : !a.pointValue());
        return IntSet::interval(makeBool(false), makeBool(true));
    }
    IntSet visit(const SelectNode* op) override {
        return combineUnion(visitExpr(op->trueValue), visitExpr(op->falseValue));
    }
    IntSet visit(const CastNode* op) override {
        return combineCast(op->type, visitExpr(op->value));
    }
    IntSet visit(const BroadcastNode* op) override { return visitExpr(op->value); }
    IntSet visit(const RampNode* op) override {
        return combineRamp(m_analyzer, visitExpr(op->base), op->stride, op->lanes);
    }
    /// A flat buffer read is a value of its own when its index uses no relaxed variable
    /// (TVM's BufferLoad rule); otherwise nothing is known.
    IntSet visit(const LoadNode* op) override {
        if (!op->type.isIntegral() || usesRelaxedVar(Expr(op)))
            return IntSet::everything();
        return IntSet::singlePoint(Expr(op));
    }
    /// `let v = value in body`: v takes the set of its value while the body is evaluated.
    IntSet visit(const LetNode* op) override {
        auto previous = m_lets.find(op->var);
        std::optional<IntSet> saved;
        if (previous != m_lets.end())
            saved = previous->second;
        m_lets[op->var] = visitExpr(op->value);
        IntSet body = visitExpr(op->body);
        if (saved)
            m_lets[op->var] = *saved;
        else
            m_lets.erase(op->var);
        return body;
    }

private:
    const IntSet* lookup(const Var& v) const {
        if (auto it = m_lets.find(v); it != m_lets.end())
            return &it->second;
        if (auto it = m_dom.find(v); it != m_dom.end())
            return &it->second;
        return nullptr;
    }
    bool usesRelaxedVar(const Expr& e) const {
        return usesVar(e, [this](const VarNode* v) { return lookup(Var(v)) != nullptr; });
    }

    template <typename Node, typename Fn> IntSet binary(const Node* op, Fn fn) {
        IntSet a = visitExpr(op->a);
        IntSet b = visitExpr(op->b);
        // Nothing relaxed below: the expression itself is the point (no rebuilding).
        if (isPointOf(a, op->a) && isPointOf(b, op->b))
            return IntSet::singlePoint(Expr(op));
        return fn(m_analyzer, a, b, op->type);
    }
    static bool isPointOf(const IntSet& s, const Expr& e) {
        return s.hasLowerBound() && s.min().same_as(e) && s.hasUpperBound() && s.max().same_as(e);
    }

    Analyzer& m_analyzer;
    const VarMap<IntSet>& m_dom;
    VarMap<IntSet> m_lets;
    size_t m_depth = 0;
};

} // namespace

IntSet evalSet(const Expr& e, const VarMap<IntSet>& dom, Analyzer& analyzer) {
    IntervalEvaluator evaluator(analyzer, dom);
    return evaluator.visitExpr(e);
}

IntSet evalSet(const Range& r, const VarMap<IntSet>& dom, Analyzer& analyzer) {
    IntervalEvaluator evaluator(analyzer, dom);
    // Simplifying the max end first can tighten it when min and extent share variables.
    Expr last = analyzer.simplify(r.min + r.extent - 1);
    return evaluator.relax(IntSet::interval(r.min, last));
}

IntSet evalSet(const Expr& e, const VarMap<IntSet>& dom) {
    Analyzer fresh;
    return evalSet(e, dom, fresh);
}

IntSet evalSet(const Range& r, const VarMap<IntSet>& dom) {
    Analyzer fresh;
    return evalSet(r, dom, fresh);
}

} // namespace bs

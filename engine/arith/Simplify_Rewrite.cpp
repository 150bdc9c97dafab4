// The rewrite simplifier's core: applying rule tables, comparisons with constants, and the
// nodes without arithmetic rules of their own (variables, lets, casts, calls, select).

#include "arith/Simplify_Internal.h"

#include "ir/Equality.h"
#include "ir/Op.h"

namespace bs {

std::optional<Expr> RewriteSimplifier::applyRules(const Expr& e, const RuleTable& rules) {
    for (const RewriteRule& rule : rules) {
        Bindings bindings;
        if (!matchPattern(rule.pattern, e, bindings))
            continue;
        if (rule.condition && !rule.condition(bindings, *this))
            continue;
        Expr result = instantiate(rule.result, bindings, e.type());
        return rule.recursive ? recursiveRewrite(result) : result;
    }
    return std::nullopt;
}

Expr RewriteSimplifier::recursiveRewrite(const Expr& e) {
    if (m_recursionDepth >= kMaxRecursion)
        return e;
    ++m_recursionDepth;
    Expr result = visitExpr(e);
    --m_recursionDepth;
    return result;
}

CompareResult RewriteSimplifier::tryCompare(const Expr& x, int64_t value) {
    // Kept light on purpose (it runs inside rule conditions): the simplified form, then the
    // constant bound, then for 0 the modular set.
    Expr diff = visitExpr(x);
    if (auto c = asConstInt(diff)) {
        if (*c == value)
            return CompareResult::EQ;
        return *c > value ? CompareResult::GT : CompareResult::LT;
    }
    ConstIntBound bound = m_parent.constIntBound(diff);
    if (bound.isConst(value))
        return CompareResult::EQ;
    if (bound.minValue > value)
        return CompareResult::GT;
    if (bound.maxValue < value)
        return CompareResult::LT;
    if (bound.minValue >= value)
        return CompareResult::GE;
    if (bound.maxValue <= value)
        return CompareResult::LE;
    if (value == 0 && m_parent.modularSet(diff).base != 0)
        return CompareResult::NE;
    return CompareResult::Unknown;
}

CompareResult RewriteSimplifier::tryCompare(const Expr& x, const Expr& y) {
    return tryCompare(x - y, 0);
}

std::optional<Expr> RewriteSimplifier::matchLiteralConstraint(const Expr& e) const {
    for (const Expr& known : m_parent.m_literalConstraints) {
        if (structuralEqual(known, e))
            return makeBool(true);
        const auto* negated = known.as<NotNode>();
        if (negated && structuralEqual(negated->a, e))
            return makeBool(false);
    }
    return std::nullopt;
}

Expr RewriteSimplifier::visitUnder(const Expr& condition, const Expr& value) {
    Analyzer::ConstraintScope scope(m_parent, condition);
    return visitExpr(value);
}

Expr RewriteSimplifier::visit(const VarNode* op) {
    auto it = m_parent.m_varValues.find(Var(op));
    return it == m_parent.m_varValues.end() ? Expr(op) : it->second;
}

Expr RewriteSimplifier::visit(const CastNode* op) {
    Expr value = visitExpr(op->value);
    if (value.same_as(op->value) && !isConstOperand(value))
        return Expr(op);
    return cast(op->type, value);
}

/// A let whose value is a constant or a variable is substituted (by binding the variable in
/// the analyzer, as TVM does); any other let stays, with value and body simplified.
Expr RewriteSimplifier::visit(const LetNode* op) {
    Expr value = visitExpr(op->value);
    if (value.as<IntImmNode>() || value.as<FloatImmNode>() || value.as<VarNode>()) {
        m_parent.bind(op->var, value, /*allowOverride=*/true);
        return visitExpr(op->body);
    }
    Expr body = visitExpr(op->body);
    if (value.same_as(op->value) && body.same_as(op->body))
        return Expr(op);
    return LetNode::make(op->var, value, body);
}

/// Each branch is simplified knowing whether the condition holds; a constant condition picks
/// its branch, equal branches drop the select.
Expr RewriteSimplifier::visit(const SelectNode* op) {
    Expr cond = visitExpr(op->condition);
    if (auto c = asConstInt(cond))
        return visitExpr(*c ? op->trueValue : op->falseValue);
    Expr t = visitUnder(cond, op->trueValue);
    Expr f = visitUnder(!cond, op->falseValue);
    if (structuralEqual(t, f))
        return t;
    if (cond.same_as(op->condition) && t.same_as(op->trueValue) && f.same_as(op->falseValue))
        return Expr(op);
    return select(cond, t, f);
}

Expr RewriteSimplifier::visit(const CallNode* op) {
    if (op->isIntrinsic("if_then_else") && op->args.size() == 3) {
        Expr cond = visitExpr(op->args[0]);
        if (auto c = asConstInt(cond))
            return visitExpr(*c ? op->args[1] : op->args[2]);
        Expr t = visitUnder(cond, op->args[1]);
        Expr f = visitUnder(!cond, op->args[2]);
        if (cond.same_as(op->args[0]) && t.same_as(op->args[1]) && f.same_as(op->args[2]))
            return Expr(op);
        return CallNode::make(op->type, op->name, {cond, t, f}, op->callKind);
    }
    Expr ret = IRMutator::visit(op);
    const auto* call = ret.as<CallNode>();
    // likely(constant) is the constant.
    if (call && call->isIntrinsic("likely") && call->args.size() == 1 &&
        call->args[0].as<IntImmNode>())
        return call->args[0];
    return ret;
}

} // namespace bs

// Rewrite rules for &&, || and ! (TVM's rewrite_simplify.cc): contradictions and tautologies
// between comparisons of the same value with constants, negation pushed into comparisons.

#include "arith/Simplify_Internal.h"

#include "ir/Op.h"

namespace bs {

namespace {

int64_t c(const Bindings& b, Slot s) { return b.c(s); }
// Conditions named after the interval they describe for x.
bool openGapEmpty(const Bindings& b, RewriteSimplifier&) { return c(b, kC2) + 1 >= c(b, kC1); }
bool halfOpenEmpty(const Bindings& b, RewriteSimplifier&) { return c(b, kC2) >= c(b, kC1); }
bool closedEmpty(const Bindings& b, RewriteSimplifier&) { return c(b, kC2) > c(b, kC1); }
bool c2BelowC1(const Bindings& b, RewriteSimplifier&) { return c(b, kC2) < c(b, kC1); }
bool c2AtMostC1(const Bindings& b, RewriteSimplifier&) { return c(b, kC2) <= c(b, kC1); }
bool c2AtMostC1Plus1(const Bindings& b, RewriteSimplifier&) { return c(b, kC2) <= c(b, kC1) + 1; }

const RuleTable& notRules() {
    static const RuleTable rules = [] {
        const auto& [x, y, z, s1, s2, b1, b2, c1, c2, c3, bx, by, bz] = wildcards();
        return RuleTable{
            {!(!bx), bx},
            {!(x <= y), y < x},
            {!(x >= y), x < y},
            {!(x < y), y <= x},
            {!(x > y), x <= y},
            {!eq(x, y), ne(x, y)},
            {!ne(x, y), eq(x, y)},
            recursiveRule(!(bx || by), (!bx) && (!by)),
            recursiveRule(!(bx && by), (!bx) || (!by)),
        };
    }();
    return rules;
}

const RuleTable& andRules() {
    static const RuleTable rules = [] {
        const auto& [x, y, z, s1, s2, b1, b2, c1, c2, c3, bx, by, bz] = wildcards();
        Expr no = makeBool(false);
        return RuleTable{
            {eq(x, y) && ne(x, y), no},
            {ne(x, y) && eq(x, y), no},
            {bx && !bx, no},
            {x <= y && y < x, no},
            {y < x && x <= y, no},
            {x < c1 && c2 < x, no, openGapEmpty},
            {c2 < x && x < c1, no, openGapEmpty},
            {x < c1 && c2 <= x, no, halfOpenEmpty},
            {c2 <= x && x < c1, no, halfOpenEmpty},
            {x <= c1 && c2 < x, no, halfOpenEmpty},
            {c2 < x && x <= c1, no, halfOpenEmpty},
            {x <= c1 && c2 <= x, no, closedEmpty},
            {c2 <= x && x <= c1, no, closedEmpty},
            {eq(x, c1) && eq(x, c2), eq(x, c1) && eq(c1, c2)},
            {eq(x, c1) && ne(x, c2), eq(x, c1) && ne(c1, c2)},
            {ne(x, c2) && eq(x, c1), eq(x, c1) && ne(c1, c2)},
            recursiveRule(eq(floordiv(x, c2), c1) && eq(floormod(x, c2), c3), eq(x, c1 * c2 + c3)),
            recursiveRule(eq(floormod(x, c2), c3) && eq(floordiv(x, c2), c1), eq(x, c1 * c2 + c3)),
            recursiveRule(bx && (by && bz), (bx && by) && bz),
        };
    }();
    return rules;
}

const RuleTable& orRules() {
    static const RuleTable rules = [] {
        const auto& [x, y, z, s1, s2, b1, b2, c1, c2, c3, bx, by, bz] = wildcards();
        Expr yes = makeBool(true);
        return RuleTable{
            {eq(x, y) || ne(x, y), yes},
            {ne(x, y) || eq(x, y), yes},
            {bx || !bx, yes},
            {x <= y || y < x, yes},
            {y < x || x <= y, yes},
            {x < y || y < x, ne(x, y)},
            {x < c1 || c2 < x, yes, c2BelowC1},
            {c2 < x || x < c1, yes, c2BelowC1},
            {x <= c1 || c2 < x, yes, c2AtMostC1},
            {c2 < x || x <= c1, yes, c2AtMostC1},
            {x < c1 || c2 <= x, yes, c2AtMostC1},
            {c2 <= x || x < c1, yes, c2AtMostC1},
            {x <= c1 || c2 <= x, yes, c2AtMostC1Plus1},
            {c2 <= x || x <= c1, yes, c2AtMostC1Plus1},
            {ne(x, c1) || ne(x, c2), ne(x, c1) || ne(c1, c2)},
            {ne(x, c1) || eq(x, c2), ne(x, c1) || eq(c1, c2)},
            {eq(x, c2) || ne(x, c1), ne(x, c1) || eq(c1, c2)},
            recursiveRule(x < y || eq(x, y), x <= y),
            recursiveRule(x < y || eq(y, x), x <= y),
            recursiveRule(eq(x, y) || x < y, x <= y),
            recursiveRule(eq(y, x) || x < y, x <= y),
            recursiveRule(bx || (by || bz), (bx || by) || bz),
        };
    }();
    return rules;
}

} // namespace

Expr RewriteSimplifier::rewriteNot(const Expr& e) {
    if (!e.as<NotNode>())
        return e;
    return applyRules(e, notRules()).value_or(e);
}

Expr RewriteSimplifier::visit(const NotNode* op) {
    Expr a = visitExpr(op->a);
    Expr ret = a.same_as(op->a) && !isConstOperand(a) ? Expr(op) : !a;
    if (!ret.as<NotNode>())
        return ret;
    if (auto known = matchLiteralConstraint(ret))
        return *known;
    return rewriteNot(ret);
}

Expr RewriteSimplifier::visit(const AndNode* op) {
    Expr ret = mutateChildren(op, [](Expr a, Expr b) { return a && b; });
    if (!ret.as<AndNode>())
        return ret;
    if (auto known = matchLiteralConstraint(ret))
        return *known;
    return applyRules(ret, andRules()).value_or(ret);
}

Expr RewriteSimplifier::visit(const OrNode* op) {
    Expr ret = mutateChildren(op, [](Expr a, Expr b) { return a || b; });
    if (!ret.as<OrNode>())
        return ret;
    if (auto known = matchLiteralConstraint(ret))
        return *known;
    return applyRules(ret, orRules()).value_or(ret);
}

} // namespace bs

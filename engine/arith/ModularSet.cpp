#include "arith/ModularSet.h"

#include "arith/Analyzer.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "support/Check.h"

#include <cstdlib>
#include <optional>

namespace bs {

int64_t zeroAwareGcd(int64_t a, int64_t b) {
    a = std::llabs(a);
    b = std::llabs(b);
    while (b != 0) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

ModularSet::ModularSet(int64_t c, int64_t b) : coeff(c < 0 ? -c : c), base(b) {
    if (coeff > 0)
        base = floorModInt(base, coeff);
}

ModularSet ModularSet::unionWith(const ModularSet& other) const {
    int64_t g = zeroAwareGcd(zeroAwareGcd(coeff, other.coeff), base - other.base);
    return {g, base};
}

std::string ModularSet::toString() const {
    return "ModularSet(coeff=" + std::to_string(coeff) + ", base=" + std::to_string(base) + ")";
}

namespace {

bool fitsProduct(int64_t a, int64_t b, int64_t* out) { return !__builtin_mul_overflow(a, b, out); }

} // namespace

/// One small rule per node kind (TVM's modular_set.cc, our derivations in the comments).
class ModularSetEvaluator : public ExprFunctor<ModularSet> {
public:
    explicit ModularSetEvaluator(const ModularSetAnalyzer& owner) : m_owner(owner) {}

protected:
    using ExprFunctor<ModularSet>::visit;

    ModularSet visitExprDefault(const ExprNode*) override { return ModularSet::everything(); }
    ModularSet visit(const IntImmNode* op) override { return {0, op->value}; }
    ModularSet visit(const VarNode* op) override {
        Var v(op);
        if (auto it = m_lets.find(v); it != m_lets.end())
            return it->second;
        if (auto it = m_owner.m_varSets.find(v); it != m_owner.m_varSets.end())
            return it->second;
        return ModularSet::everything();
    }
    ModularSet visit(const AddNode* op) override {
        ModularSet a = visitExpr(op->a), b = visitExpr(op->b);
        return {zeroAwareGcd(a.coeff, b.coeff), a.base + b.base};
    }
    ModularSet visit(const SubNode* op) override {
        ModularSet a = visitExpr(op->a), b = visitExpr(op->b);
        return {zeroAwareGcd(a.coeff, b.coeff), a.base - b.base};
    }
    // (c1*k1 + b1)(c2*k2 + b2) = c1*c2*k1*k2 + c1*b2*k1 + c2*b1*k2 + b1*b2.
    ModularSet visit(const MulNode* op) override {
        ModularSet a = visitExpr(op->a), b = visitExpr(op->b);
        int64_t cc, cb, bc, bb;
        if (!fitsProduct(a.coeff, b.coeff, &cc) || !fitsProduct(a.coeff, b.base, &cb) ||
            !fitsProduct(b.coeff, a.base, &bc) || !fitsProduct(a.base, b.base, &bb))
            return ModularSet::everything();
        return {zeroAwareGcd(zeroAwareGcd(cc, cb), bc), bb};
    }
    ModularSet visit(const DivNode* op) override { return divide(op->a, op->b, false); }
    ModularSet visit(const FloorDivNode* op) override { return divide(op->a, op->b, true); }
    ModularSet visit(const ModNode* op) override { return remainder(op->a, op->b); }
    ModularSet visit(const FloorModNode* op) override { return remainder(op->a, op->b); }
    ModularSet visit(const MinNode* op) override {
        return visitExpr(op->a).unionWith(visitExpr(op->b));
    }
    ModularSet visit(const MaxNode* op) override {
        return visitExpr(op->a).unionWith(visitExpr(op->b));
    }
    ModularSet visit(const SelectNode* op) override {
        return visitExpr(op->trueValue).unionWith(visitExpr(op->falseValue));
    }
    ModularSet visit(const CastNode* op) override {
        if (op->type.isIntegral() && op->value.type().isIntegral())
            return visitExpr(op->value);
        return ModularSet::everything();
    }
    ModularSet visit(const LetNode* op) override {
        std::optional<ModularSet> previous;
        if (auto it = m_lets.find(op->var); it != m_lets.end())
            previous = it->second;
        m_lets[op->var] = visitExpr(op->value);
        ModularSet body = visitExpr(op->body);
        if (previous)
            m_lets[op->var] = *previous;
        else
            m_lets.erase(op->var);
        return body;
    }

private:
    /// (m*c*k + b) / c = m*k + b/c when the division cannot round differently per k: b == 0
    /// (exact), or 0 <= b and rounding is floor (or the dividend is known non-negative).
    ModularSet divide(const Expr& lhs, const Expr& rhs, bool floorRounding) {
        auto divisor = asConstInt(rhs);
        if (!divisor || *divisor == 0)
            return ModularSet::everything();
        ModularSet a = visitExpr(lhs);
        int64_t c = *divisor;
        if (truncModInt(a.coeff, c) != 0)
            return ModularSet::everything();
        if (a.base == 0)
            return {truncDivInt(a.coeff, c), 0};
        if (a.base > 0 && c > 0 &&
            (floorRounding || m_owner.m_parent->canProveGreaterEqual(lhs, 0)))
            return {truncDivInt(a.coeff, c), truncDivInt(a.base, c)};
        return ModularSet::everything();
    }
    /// Any remainder r of x by c satisfies r = x - c*q, so r keeps x's residue modulo
    /// gcd(coeff, c).
    ModularSet remainder(const Expr& lhs, const Expr& rhs) {
        auto divisor = asConstInt(rhs);
        if (!divisor || *divisor == 0)
            return ModularSet::everything();
        ModularSet a = visitExpr(lhs);
        return {zeroAwareGcd(a.coeff, *divisor), a.base};
    }

    const ModularSetAnalyzer& m_owner;
    VarMap<ModularSet> m_lets;
};

ModularSet ModularSetAnalyzer::operator()(const Expr& e) const {
    ModularSetEvaluator evaluator(*this);
    return evaluator.visitExpr(e);
}

void ModularSetAnalyzer::update(const Var& var, const ModularSet& set, bool allowOverride) {
    if (!allowOverride) {
        auto it = m_varSets.find(var);
        BS_CHECK(it == m_varSets.end() || it->second == set)
            << "variable " << var.name() << " rebound from " << it->second.toString() << " to "
            << set.toString();
    }
    m_varSets[var] = set;
}

} // namespace bs

#include "arith/ConstEval.h"

#include "ir/Functor.h"
#include "ir/Op.h"
#include "support/Check.h"

namespace bs {

namespace {

using Value = std::optional<int64_t>;

class Evaluator : public ExprFunctor<Value> {
public:
    explicit Evaluator(const VarMap<int64_t>& values) : m_values(values) {}

protected:
    using ExprFunctor<Value>::visit;

    Value visitExprDefault(const ExprNode*) override { return std::nullopt; }
    Value visit(const IntImmNode* op) override { return op->value; }
    Value visit(const VarNode* op) override {
        Var v(op);
        if (auto it = m_lets.find(v); it != m_lets.end())
            return it->second;
        if (auto it = m_values.find(v); it != m_values.end())
            return wrapToType(op->type, it->second);
        return std::nullopt;
    }

    template <typename Node, typename F> Value binary(const Node* op, F f) {
        Value a = visitExpr(op->a);
        if (!a)
            return std::nullopt;
        Value b = visitExpr(op->b);
        if (!b)
            return std::nullopt;
        Value r = f(*a, *b);
        return r ? Value(wrapToType(op->type, *r)) : std::nullopt;
    }

    Value visit(const AddNode* op) override {
        return binary(
            op, [](int64_t a, int64_t b) { return Value(int64_t(uint64_t(a) + uint64_t(b))); });
    }
    Value visit(const SubNode* op) override {
        return binary(
            op, [](int64_t a, int64_t b) { return Value(int64_t(uint64_t(a) - uint64_t(b))); });
    }
    Value visit(const MulNode* op) override {
        return binary(
            op, [](int64_t a, int64_t b) { return Value(int64_t(uint64_t(a) * uint64_t(b))); });
    }
    Value visit(const DivNode* op) override {
        return binary(
            op, [](int64_t a, int64_t b) { return b == 0 ? Value() : Value(truncDivInt(a, b)); });
    }
    Value visit(const ModNode* op) override {
        return binary(
            op, [](int64_t a, int64_t b) { return b == 0 ? Value() : Value(truncModInt(a, b)); });
    }
    Value visit(const FloorDivNode* op) override {
        return binary(
            op, [](int64_t a, int64_t b) { return b == 0 ? Value() : Value(floorDivInt(a, b)); });
    }
    Value visit(const FloorModNode* op) override {
        return binary(
            op, [](int64_t a, int64_t b) { return b == 0 ? Value() : Value(floorModInt(a, b)); });
    }
    Value visit(const MinNode* op) override {
        return binary(op, [](int64_t a, int64_t b) { return Value(std::min(a, b)); });
    }
    Value visit(const MaxNode* op) override {
        return binary(op, [](int64_t a, int64_t b) { return Value(std::max(a, b)); });
    }
#define BS_EVAL_COMPARE(N, expr)                                                                   \
    Value visit(const N##Node* op) override {                                                      \
        return binary(op, [](int64_t a, int64_t b) { return Value((expr) ? 1 : 0); });             \
    }
    BS_EVAL_COMPARE(EQ, a == b)
    BS_EVAL_COMPARE(NE, a != b)
    BS_EVAL_COMPARE(LT, a < b)
    BS_EVAL_COMPARE(LE, a <= b)
    BS_EVAL_COMPARE(GT, a > b)
    BS_EVAL_COMPARE(GE, a >= b)
    BS_EVAL_COMPARE(And, a != 0 && b != 0)
    BS_EVAL_COMPARE(Or, a != 0 || b != 0)
#undef BS_EVAL_COMPARE

    Value visit(const NotNode* op) override {
        Value a = visitExpr(op->a);
        return a ? Value(*a == 0 ? 1 : 0) : std::nullopt;
    }
    /// Only the chosen branch is evaluated (a division by zero in the other one is harmless).
    Value visit(const SelectNode* op) override {
        Value c = visitExpr(op->condition);
        if (!c)
            return std::nullopt;
        return visitExpr(*c ? op->trueValue : op->falseValue);
    }
    Value visit(const CastNode* op) override {
        if (!op->type.isIntegral() && !op->type.isBool())
            return std::nullopt;
        Value v = visitExpr(op->value);
        return v ? Value(wrapToType(op->type, *v)) : std::nullopt;
    }
    Value visit(const CallNode* op) override {
        if (op->isIntrinsic("likely") && op->args.size() == 1)
            return visitExpr(op->args[0]);
        return std::nullopt;
    }
    Value visit(const LetNode* op) override {
        Value value = visitExpr(op->value);
        if (!value)
            return std::nullopt;
        std::optional<int64_t> previous;
        if (auto it = m_lets.find(op->var); it != m_lets.end())
            previous = it->second;
        m_lets[op->var] = *value;
        Value body = visitExpr(op->body);
        if (previous)
            m_lets[op->var] = *previous;
        else
            m_lets.erase(op->var);
        return body;
    }

private:
    const VarMap<int64_t>& m_values;
    VarMap<int64_t> m_lets;
};

} // namespace

std::optional<int64_t> evaluateInt(const Expr& e, const VarMap<int64_t>& values) {
    if (!e.defined() || !(e.type().isIntegral() || e.type().isBool()) || !e.type().isScalar())
        return std::nullopt;
    Evaluator evaluator(values);
    return evaluator.visitExpr(e);
}

} // namespace bs

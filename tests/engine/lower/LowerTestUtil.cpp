#include "LowerTestUtil.h"

#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Printer.h"

#include <gtest/gtest.h>

#include <cmath>

namespace bs::test {

Tensor makeTensor(const std::string& name, std::vector<Expr> shape, DataType dtype) {
    return makeOp(name, {std::move(shape)}, dtype).output(0);
}

Operation makeOp(const std::string& name, std::vector<std::vector<Expr>> shapes, DataType dtype) {
    return Operation(new FakeOpNode(name, std::move(shapes), dtype));
}

namespace {

using Lanes = std::vector<double>;

double lane(const Lanes& v, size_t i) { return v.size() == 1 ? v[0] : v[i]; }

/// Applies `fn` lane by lane, broadcasting a scalar side.
template <typename Fn> Lanes zip(const Lanes& a, const Lanes& b, Fn fn) {
    size_t n = std::max(a.size(), b.size());
    Lanes out(n);
    for (size_t i = 0; i < n; ++i)
        out[i] = fn(lane(a, i), lane(b, i));
    return out;
}

int64_t toInt(double v) { return int64_t(v); }

} // namespace

struct MiniInterpreter::Impl : ExprFunctor<Lanes>, StmtFunctor<void> {
    explicit Impl(MiniInterpreter& self) : m_self(self) {}

    using ExprFunctor<Lanes>::visitExpr;
    using StmtFunctor<void>::visitStmt;

    std::vector<double>* findBuffer(const Var& v) {
        for (auto it = m_self.m_buffers.rbegin(); it != m_self.m_buffers.rend(); ++it) {
            if (it->first.same_as(v))
                return &it->second;
        }
        ADD_FAILURE() << "unknown buffer " << v.name();
        return nullptr;
    }
    double* element(const Var& buffer, double index) {
        std::vector<double>* data = findBuffer(buffer);
        if (!data)
            return nullptr;
        int64_t i = toInt(index);
        if (i < 0 || size_t(i) >= data->size()) {
            ADD_FAILURE() << "access " << buffer.name() << "[" << i << "] out of " << data->size();
            return nullptr;
        }
        return &(*data)[size_t(i)];
    }
    template <typename Fn> void withScalar(const Var& v, double value, Fn fn) {
        m_self.m_scalars.emplace_back(v, Lanes{value});
        fn();
        m_self.m_scalars.pop_back();
    }

protected:
    using ExprFunctor<Lanes>::visit;
    using StmtFunctor<void>::visit;

    Lanes visit(const IntImmNode* op) override { return {double(op->value)}; }
    Lanes visit(const FloatImmNode* op) override { return {op->value}; }
    Lanes visit(const VarNode* op) override {
        for (auto it = m_self.m_scalars.rbegin(); it != m_self.m_scalars.rend(); ++it) {
            if (it->first.get() == op)
                return it->second;
        }
        ADD_FAILURE() << "unknown variable " << op->name;
        return {0};
    }
    template <typename Fn> Lanes arith(const ExprNode* op, const Expr& a, const Expr& b, Fn fn) {
        Lanes out = zip(visitExpr(a), visitExpr(b), fn);
        if (op->type.isIntegral()) {
            for (double& v : out)
                v = double(toInt(v));
        }
        return out;
    }
    Lanes visit(const AddNode* op) override { return arith(op, op->a, op->b, std::plus<>()); }
    Lanes visit(const SubNode* op) override { return arith(op, op->a, op->b, std::minus<>()); }
    Lanes visit(const MulNode* op) override { return arith(op, op->a, op->b, std::multiplies<>()); }
    Lanes visit(const DivNode* op) override {
        bool isInt = op->type.isIntegral();
        return arith(op, op->a, op->b, [isInt](double x, double y) {
            return isInt ? double(toInt(x) / toInt(y)) : x / y;
        });
    }
    Lanes visit(const ModNode* op) override {
        return arith(op, op->a, op->b,
                     [](double x, double y) { return double(toInt(x) % toInt(y)); });
    }
    Lanes visit(const FloorDivNode* op) override {
        return arith(op, op->a, op->b,
                     [](double x, double y) { return double(floorDivInt(toInt(x), toInt(y))); });
    }
    Lanes visit(const FloorModNode* op) override {
        return arith(op, op->a, op->b,
                     [](double x, double y) { return double(floorModInt(toInt(x), toInt(y))); });
    }
    Lanes visit(const MinNode* op) override {
        return arith(op, op->a, op->b, [](double x, double y) { return std::min(x, y); });
    }
    Lanes visit(const MaxNode* op) override {
        return arith(op, op->a, op->b, [](double x, double y) { return std::max(x, y); });
    }
#define BS_COMPARE(N, sym)                                                                         \
    Lanes visit(const N##Node* op) override {                                                      \
        return zip(visitExpr(op->a), visitExpr(op->b),                                             \
                   [](double x, double y) { return double(x sym y); });                            \
    }
    BS_COMPARE(EQ, ==)
    BS_COMPARE(NE, !=)
    BS_COMPARE(LT, <)
    BS_COMPARE(LE, <=)
    BS_COMPARE(GT, >)
    BS_COMPARE(GE, >=)
    BS_COMPARE(And, &&)
    BS_COMPARE(Or, ||)
#undef BS_COMPARE
    Lanes visit(const NotNode* op) override {
        Lanes v = visitExpr(op->a);
        for (double& x : v)
            x = !x;
        return v;
    }
    Lanes visit(const SelectNode* op) override {
        Lanes c = visitExpr(op->condition), t = visitExpr(op->trueValue),
              f = visitExpr(op->falseValue);
        size_t n = std::max({c.size(), t.size(), f.size()});
        Lanes out(n);
        for (size_t i = 0; i < n; ++i)
            out[i] = lane(c, i) ? lane(t, i) : lane(f, i);
        return out;
    }
    Lanes visit(const CastNode* op) override {
        Lanes v = visitExpr(op->value);
        if (op->type.isIntegral()) {
            for (double& x : v)
                x = double(toInt(x));
        }
        return v;
    }
    Lanes visit(const CallNode* op) override {
        Lanes v = visitExpr(op->args.at(0));
        if (op->name == "likely")
            return v;
        for (double& x : v) {
            if (op->name == "exp")
                x = std::exp(x);
            else if (op->name == "sqrt")
                x = std::sqrt(x);
            else
                ADD_FAILURE() << "unknown call " << op->name;
        }
        return v;
    }
    Lanes visit(const LoadNode* op) override {
        Lanes index = visitExpr(op->index);
        Lanes out(size_t(op->type.lanes()));
        for (size_t i = 0; i < out.size(); ++i) {
            double* e = element(op->bufferVar, lane(index, i));
            out[i] = e ? *e : 0;
        }
        return out;
    }
    Lanes visit(const RampNode* op) override {
        double base = visitExpr(op->base)[0], stride = visitExpr(op->stride)[0];
        Lanes out(size_t(op->lanes));
        for (size_t i = 0; i < out.size(); ++i)
            out[i] = base + stride * double(i);
        return out;
    }
    Lanes visit(const BroadcastNode* op) override {
        return Lanes(size_t(op->lanes), visitExpr(op->value)[0]);
    }
    Lanes visit(const LetNode* op) override {
        m_self.m_scalars.emplace_back(op->var, visitExpr(op->value));
        Lanes out = visitExpr(op->body);
        m_self.m_scalars.pop_back();
        return out;
    }

    void visit(const LetStmtNode* op) override {
        m_self.m_scalars.emplace_back(op->var, visitExpr(op->value));
        visitStmt(op->body);
        m_self.m_scalars.pop_back();
    }
    void visit(const AttrStmtNode* op) override {
        const auto* iv = op->node.as<IterVarNode>();
        if (!iv || op->key != attr::kThreadExtent) {
            visitStmt(op->body);
            return;
        }
        int64_t extent = toInt(visitExpr(op->value)[0]);
        for (int64_t t = 0; t < extent; ++t)
            withScalar(iv->var, double(t), [&] { visitStmt(op->body); });
    }
    void visit(const AssertStmtNode* op) override { visitStmt(op->body); }
    void visit(const ForNode* op) override {
        int64_t min = toInt(visitExpr(op->min)[0]);
        int64_t extent = toInt(visitExpr(op->extent)[0]);
        for (int64_t i = min; i < min + extent; ++i)
            withScalar(op->loopVar, double(i), [&] { visitStmt(op->body); });
    }
    void visit(const ProducerConsumerNode* op) override { visitStmt(op->body); }
    void visit(const AllocateNode* op) override {
        int64_t size = 1;
        for (const Expr& e : op->extents)
            size *= toInt(visitExpr(e)[0]);
        m_self.m_buffers.emplace_back(op->bufferVar, std::vector<double>(size_t(size), 0.0));
        visitStmt(op->body);
        m_self.m_buffers.pop_back();
    }
    void visit(const StoreNode* op) override {
        Lanes value = visitExpr(op->value);
        Lanes index = visitExpr(op->index);
        size_t n = std::max(value.size(), index.size());
        for (size_t i = 0; i < n; ++i) {
            if (double* e = element(op->bufferVar, lane(index, i)))
                *e = op->value.type().isIntegral() ? double(toInt(lane(value, i))) : lane(value, i);
        }
    }
    void visit(const SeqNode* op) override {
        for (const Stmt& s : op->seq)
            visitStmt(s);
    }
    void visit(const IfThenElseNode* op) override {
        if (visitExpr(op->condition)[0])
            visitStmt(op->thenCase);
        else if (op->elseCase.defined())
            visitStmt(op->elseCase);
    }
    void visit(const EvaluateNode* op) override { visitExpr(op->value); }

    Lanes visitExprDefault(const ExprNode* op) override {
        ADD_FAILURE() << "cannot evaluate " << toString(Expr(op));
        return {0};
    }
    void visitStmtDefault(const StmtNode* op) override {
        ADD_FAILURE() << "cannot run " << toString(Stmt(op));
    }

private:
    MiniInterpreter& m_self;
};

void MiniInterpreter::setBuffer(const Var& buffer, std::vector<double> data) {
    m_buffers.emplace_back(buffer, std::move(data));
}

const std::vector<double>& MiniInterpreter::buffer(const Var& buffer) const {
    for (const auto& [v, data] : m_buffers) {
        if (v.same_as(buffer))
            return data;
    }
    static const std::vector<double> kEmpty;
    ADD_FAILURE() << "unknown buffer " << buffer.name();
    return kEmpty;
}

void MiniInterpreter::setScalar(const Var& var, double value) {
    m_scalars.emplace_back(var, Lanes{value});
}

void MiniInterpreter::run(const Stmt& stmt) { Impl(*this).visitStmt(stmt); }

std::vector<double> MiniInterpreter::eval(const Expr& e) { return Impl(*this).visitExpr(e); }

} // namespace bs::test

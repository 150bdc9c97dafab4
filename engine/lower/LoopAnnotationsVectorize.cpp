/// Vectorization of ForKind::Vectorized loops, after TVM 0.6's `vectorize_loop.cc`.
#include "lower/LoopAnnotations.h"

#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/Substitute.h"

#include <algorithm>
#include <functional>
#include <initializer_list>

namespace bs {

namespace {

Expr broadcastTo(const Expr& e, int lanes) {
    if (!e.defined() || e.type().lanes() == lanes)
        return e;
    BS_CHECK(e.type().isScalar()) << "broadcast of a vector of another width";
    return BroadcastNode::make(e, lanes);
}

/// Rewrites the body of one vectorized loop (TVM's Vectorizer). Expressions that depend on the
/// loop variable become vectors; a statement that cannot be rewritten raises m_needScalarize,
/// and visitStmt turns that statement (as it was) into a serial loop.
class Vectorizer : public IRMutator {
public:
    Vectorizer(Var var, const Expr& min, int lanes)
        : m_var(std::move(var)), m_min(cast(m_var.type(), min)), m_lanes(lanes),
          m_ramp(RampNode::make(m_min, makeOne(m_var.type()), lanes)) {}

    Stmt visitStmt(const Stmt& stmt) override {
        BS_CHECK(!m_needScalarize) << "scalarization request left pending";
        Stmt result = IRMutator::visitStmt(stmt);
        if (!m_needScalarize)
            return result;
        m_needScalarize = false;
        ++m_scalarized;
        return scalarize(stmt);
    }

protected:
    using IRMutator::visit;

    // Expressions ------------------------------------------------------------------------------
    Expr visit(const VarNode* op) override {
        if (op == m_var.get())
            return m_ramp;
        auto it = m_lets.find(Var(op));
        return it == m_lets.end() ? Expr(op) : Expr(it->second);
    }

    Expr visit(const AddNode* op) override { return addSub(op, false); }
    Expr visit(const SubNode* op) override { return addSub(op, true); }
    Expr visit(const MulNode* op) override {
        Expr a = visitExpr(op->a);
        Expr b = visitExpr(op->b);
        if (a.same_as(op->a) && b.same_as(op->b))
            return Expr(op);
        // ramp(base, stride) * s == ramp(base*s, stride*s)
        if (const auto* ramp = a.as<RampNode>(); ramp && b.type().isScalar())
            return RampNode::make(ramp->base * b, ramp->stride * b, ramp->lanes);
        if (const auto* ramp = b.as<RampNode>(); ramp && a.type().isScalar())
            return RampNode::make(a * ramp->base, a * ramp->stride, ramp->lanes);
        return rebuild(op, a, b);
    }
#define BS_VECTORIZE_BINARY(N)                                                                     \
    Expr visit(const N##Node* op) override {                                                       \
        Expr a = visitExpr(op->a);                                                                 \
        Expr b = visitExpr(op->b);                                                                 \
        return a.same_as(op->a) && b.same_as(op->b) ? Expr(op) : rebuild(op, a, b);                \
    }
    BS_VECTORIZE_BINARY(Div)
    BS_VECTORIZE_BINARY(Mod)
    BS_VECTORIZE_BINARY(FloorDiv)
    BS_VECTORIZE_BINARY(FloorMod)
    BS_VECTORIZE_BINARY(Min)
    BS_VECTORIZE_BINARY(Max)
    BS_VECTORIZE_BINARY(EQ)
    BS_VECTORIZE_BINARY(NE)
    BS_VECTORIZE_BINARY(LT)
    BS_VECTORIZE_BINARY(LE)
    BS_VECTORIZE_BINARY(GT)
    BS_VECTORIZE_BINARY(GE)
    BS_VECTORIZE_BINARY(And)
    BS_VECTORIZE_BINARY(Or)
#undef BS_VECTORIZE_BINARY

    Expr visit(const SelectNode* op) override {
        Expr c = visitExpr(op->condition);
        Expr t = visitExpr(op->trueValue);
        Expr f = visitExpr(op->falseValue);
        if (c.same_as(op->condition) && t.same_as(op->trueValue) && f.same_as(op->falseValue))
            return Expr(op);
        int lanes = 1;
        if (!unifyLanes({c, t, f}, &lanes))
            return Expr(op);
        return SelectNode::make(broadcastTo(c, lanes), broadcastTo(t, lanes),
                                broadcastTo(f, lanes));
    }
    Expr visit(const CastNode* op) override {
        Expr v = visitExpr(op->value);
        if (v.same_as(op->value))
            return Expr(op);
        return CastNode::make(op->type.withLanes(v.type().lanes()), v);
    }
    /// Pure math functions work lane by lane; other calls cannot take vectors.
    Expr visit(const CallNode* op) override {
        bool changed = false;
        std::vector<Expr> args = visitExprs(op->args, &changed);
        if (!changed)
            return Expr(op);
        int lanes = 1;
        if (op->callKind != CallKind::PureExtern || !unifyLanes(args, &lanes))
            return requestScalarize(op);
        for (Expr& a : args)
            a = broadcastTo(a, lanes);
        return CallNode::make(op->type.withLanes(lanes), op->name, std::move(args), op->callKind);
    }
    Expr visit(const LoadNode* op) override {
        Expr index = visitExpr(op->index);
        Expr pred = op->predicate.defined() ? visitExpr(op->predicate) : Expr();
        if (index.same_as(op->index) && pred.same_as(op->predicate))
            return Expr(op);
        int lanes = 1;
        if (!unifyLanes({index, pred}, &lanes))
            return Expr(op);
        return LoadNode::make(op->type.withLanes(lanes), op->bufferVar, broadcastTo(index, lanes),
                              broadcastTo(pred, lanes));
    }
    Expr visit(const LetNode* op) override {
        Expr value = visitExpr(op->value);
        if (value.type().lanes() == op->value.type().lanes())
            return IRMutator::visit(op);
        Var vectorVar(op->var.name(), value.type());
        m_lets[op->var] = vectorVar;
        Expr body = visitExpr(op->body);
        m_lets.erase(op->var);
        return LetNode::make(vectorVar, value, body);
    }
    // Already vectors, tensor reads and reductions: lane-dependent ones are not handled.
    Expr visit(const RampNode* op) override { return scalarizeIfLaneDependent(op); }
    Expr visit(const BroadcastNode* op) override { return scalarizeIfLaneDependent(op); }
    Expr visit(const ProducerLoadNode* op) override { return scalarizeIfLaneDependent(op); }
    Expr visit(const ReduceNode* op) override { return scalarizeIfLaneDependent(op); }

    // Statements -------------------------------------------------------------------------------
    Stmt visit(const StoreNode* op) override {
        Expr value = visitExpr(op->value);
        Expr index = visitExpr(op->index);
        Expr pred = op->predicate.defined() ? visitExpr(op->predicate) : Expr();
        if (value.same_as(op->value) && index.same_as(op->index) && pred.same_as(op->predicate))
            return Stmt(op);
        int lanes = 1;
        if (!unifyLanes({value, index, pred}, &lanes))
            return Stmt(op);
        // Lane-dependent values written to one address: the lanes would race (TVM writes a
        // vector to a broadcast index here; keeping the loop keeps the serial semantics).
        if (index.type().isScalar() && lanes > 1) {
            m_needScalarize = true;
            return Stmt(op);
        }
        return StoreNode::make(op->bufferVar, broadcastTo(value, lanes), index,
                               broadcastTo(pred, lanes));
    }
    Stmt visit(const ProducerStoreNode* op) override {
        if (usesVar(Stmt(op), isLaneDependent()))
            m_needScalarize = true;
        return Stmt(op);
    }
    /// A lane-dependent region has no vector form.
    Stmt visit(const ProducerRealizeNode* op) override {
        for (const Range& r : op->bounds) {
            if (usesVar(r.min, isLaneDependent()) || usesVar(r.extent, isLaneDependent())) {
                m_needScalarize = true;
                return Stmt(op);
            }
        }
        return IRMutator::visit(op);
    }
    Stmt visit(const ForNode* op) override {
        Expr min = visitExpr(op->min);
        Expr extent = visitExpr(op->extent);
        if (!min.type().isScalar() || !extent.type().isScalar())
            m_needScalarize = true;
        if (m_needScalarize)
            return Stmt(op);
        Stmt body = visitStmt(op->body);
        if (min.same_as(op->min) && extent.same_as(op->extent) && body.same_as(op->body))
            return Stmt(op);
        return ForNode::make(op->loopVar, min, extent, op->kind, body, op->threadBinding);
    }
    Stmt visit(const IfThenElseNode* op) override {
        Expr cond = visitExpr(op->condition);
        if (!cond.type().isScalar())
            m_needScalarize = true;
        if (m_needScalarize)
            return Stmt(op);
        Stmt thenCase = visitStmt(op->thenCase);
        Stmt elseCase = op->elseCase.defined() ? visitStmt(op->elseCase) : Stmt();
        if (cond.same_as(op->condition) && thenCase.same_as(op->thenCase) &&
            elseCase.same_as(op->elseCase))
            return Stmt(op);
        return IfThenElseNode::make(cond, thenCase, elseCase);
    }
    Stmt visit(const LetStmtNode* op) override {
        Expr value = visitExpr(op->value);
        if (m_needScalarize)
            return Stmt(op);
        if (value.type().lanes() == op->value.type().lanes())
            return keepLet(op, value);
        // A vector binding: if anything below falls back to a serial loop, that loop would
        // need the scalar variable, so the whole let falls back instead.
        Var vectorVar(op->var.name(), value.type());
        m_lets[op->var] = vectorVar;
        int scalarizedBefore = m_scalarized;
        Stmt body = visitStmt(op->body);
        m_lets.erase(op->var);
        if (m_scalarized != scalarizedBefore) {
            m_needScalarize = true;
            return Stmt(op);
        }
        return LetStmtNode::make(vectorVar, value, body);
    }
    Stmt visit(const AttrStmtNode* op) override {
        Expr value = op->value.defined() ? visitExpr(op->value) : Expr();
        if (value.defined() && !value.type().isScalar())
            m_needScalarize = true;
        if (m_needScalarize)
            return Stmt(op);
        Stmt body = visitStmt(op->body);
        if (value.same_as(op->value) && body.same_as(op->body))
            return Stmt(op);
        return AttrStmtNode::make(op->node, op->key, value, body);
    }
    Stmt visit(const AssertStmtNode* op) override {
        if (usesVar(op->condition, isLaneDependent())) {
            m_needScalarize = true;
            return Stmt(op);
        }
        return IRMutator::visit(op);
    }
    /// A buffer allocated per lane would need one copy per lane (TVM widens it); the serial
    /// loop keeps one buffer per iteration.
    Stmt visit(const AllocateNode* op) override {
        if (usesVar(Stmt(op), isLaneDependent()))
            m_needScalarize = true;
        return Stmt(op);
    }

private:
    /// `a + ramp` and `ramp + b` (and `-`) stay ramps, so indices stay recognisably contiguous.
    template <typename NodeT> Expr addSub(const NodeT* op, bool isSub) {
        Expr a = visitExpr(op->a);
        Expr b = visitExpr(op->b);
        if (a.same_as(op->a) && b.same_as(op->b))
            return Expr(op);
        const auto* rampA = a.as<RampNode>();
        const auto* rampB = b.as<RampNode>();
        if (rampA && b.type().isScalar())
            return RampNode::make(isSub ? rampA->base - b : rampA->base + b, rampA->stride,
                                  rampA->lanes);
        if (rampB && a.type().isScalar()) {
            Expr stride = isSub ? makeZero(rampB->stride.type()) - rampB->stride : rampB->stride;
            return RampNode::make(isSub ? a - rampB->base : a + rampB->base, stride, rampB->lanes);
        }
        return rebuild(op, a, b);
    }

    template <typename NodeT> Expr rebuild(const NodeT* op, const Expr& a, const Expr& b) {
        int lanes = 1;
        if (!unifyLanes({a, b}, &lanes))
            return Expr(op);
        return NodeT::make(broadcastTo(a, lanes), broadcastTo(b, lanes));
    }

    /// The common lane count of some (possibly undefined) expressions; false, with a
    /// scalarization request, when two vectors of different widths meet (an inner vectorized
    /// loop inside this one).
    bool unifyLanes(std::initializer_list<Expr> exprs, int* lanes) {
        return unifyLanes(std::vector<Expr>(exprs), lanes);
    }
    bool unifyLanes(const std::vector<Expr>& exprs, int* lanes) {
        *lanes = 1;
        for (const Expr& e : exprs) {
            if (!e.defined() || e.type().isScalar())
                continue;
            if (*lanes != 1 && *lanes != e.type().lanes()) {
                m_needScalarize = true;
                return false;
            }
            *lanes = e.type().lanes();
        }
        return true;
    }

    Stmt keepLet(const LetStmtNode* op, const Expr& value) {
        Stmt body = visitStmt(op->body);
        if (value.same_as(op->value) && body.same_as(op->body))
            return Stmt(op);
        return LetStmtNode::make(op->var, value, body);
    }

    /// The loop variable and the variables of lets that became vectors.
    std::function<bool(const VarNode*)> isLaneDependent() const {
        return [this](const VarNode* v) { return v == m_var.get() || m_lets.count(Var(v)) > 0; };
    }

    Expr requestScalarize(const ExprNode* op) {
        m_needScalarize = true;
        return Expr(op);
    }
    /// For nodes whose operands cannot become vectors (they are not rebuilt, as a vector
    /// base would not even make a valid ramp).
    Expr scalarizeIfLaneDependent(const ExprNode* op) {
        return usesVar(Expr(op), isLaneDependent()) ? requestScalarize(op) : Expr(op);
    }

    /// TVM's Scalarize: `for (v.s, min, lanes)` over the statement with v renamed.
    Stmt scalarize(const Stmt& stmt) const {
        Var serial(m_var.name() + ".s", m_var.type());
        Stmt body = substitute(stmt, VarMap<Expr>{{m_var, serial}});
        return ForNode::make(serial, m_min, makeConst(m_var.type(), int64_t(m_lanes)),
                             ForKind::Serial, body);
    }

    Var m_var;
    Expr m_min;
    int m_lanes;
    Expr m_ramp;
    VarMap<Var> m_lets;
    bool m_needScalarize = false;
    int m_scalarized = 0;
};

/// Finds the vectorized loops, innermost first, and hands each body to a Vectorizer.
class LoopVectorizer : public IRMutator {
protected:
    using IRMutator::visit;

    Stmt visit(const ForNode* op) override {
        Stmt visited = IRMutator::visit(op);
        if (op->kind != ForKind::Vectorized)
            return visited;
        const auto* loop = visited.as<ForNode>();
        auto extent = asConstInt(loop->extent);
        if (!extent)
            throw UserError("vectorize of loop '" + loop->loopVar.name() +
                            "': extent must be a constant, got " + toString(loop->extent));
        if (*extent <= 0)
            return EvaluateNode::make(Expr(0));
        if (*extent == 1)
            return substitute(loop->body, VarMap<Expr>{{loop->loopVar, loop->min}});
        Vectorizer vectorizer(loop->loopVar, loop->min, int(*extent));
        return vectorizer.visitStmt(loop->body);
    }
};

} // namespace

Stmt vectorizeLoops(const Stmt& stmt) {
    BS_CHECK(stmt.defined()) << "vectorize of an undefined statement";
    LoopVectorizer vectorizer;
    return vectorizer.visitStmt(stmt);
}

} // namespace bs

#include "ir/Functor.h"

namespace bs {

// ---------------------------------------------------------------------------------------------
// IRVisitor

void IRVisitor::visit(const IntImmNode*) {}
void IRVisitor::visit(const FloatImmNode*) {}
void IRVisitor::visit(const StringImmNode*) {}
void IRVisitor::visit(const VarNode*) {}

#define BS_VISIT_BINARY(N)                                                                         \
    void IRVisitor::visit(const N##Node* op) {                                                     \
        visitExpr(op->a);                                                                          \
        visitExpr(op->b);                                                                          \
    }
BS_VISIT_BINARY(Add)
BS_VISIT_BINARY(Sub)
BS_VISIT_BINARY(Mul)
BS_VISIT_BINARY(Div)
BS_VISIT_BINARY(Mod)
BS_VISIT_BINARY(FloorDiv)
BS_VISIT_BINARY(FloorMod)
BS_VISIT_BINARY(Min)
BS_VISIT_BINARY(Max)
BS_VISIT_BINARY(EQ)
BS_VISIT_BINARY(NE)
BS_VISIT_BINARY(LT)
BS_VISIT_BINARY(LE)
BS_VISIT_BINARY(GT)
BS_VISIT_BINARY(GE)
BS_VISIT_BINARY(And)
BS_VISIT_BINARY(Or)
#undef BS_VISIT_BINARY

void IRVisitor::visit(const NotNode* op) { visitExpr(op->a); }
void IRVisitor::visit(const SelectNode* op) {
    visitExpr(op->condition);
    visitExpr(op->trueValue);
    visitExpr(op->falseValue);
}
void IRVisitor::visit(const CastNode* op) { visitExpr(op->value); }
void IRVisitor::visit(const CallNode* op) {
    for (const Expr& a : op->args)
        visitExpr(a);
}
void IRVisitor::visit(const ProducerLoadNode* op) {
    for (const Expr& i : op->indices)
        visitExpr(i);
}
void IRVisitor::visit(const LoadNode* op) {
    visitExpr(op->index);
    if (op->predicate.defined())
        visitExpr(op->predicate);
}
void IRVisitor::visit(const RampNode* op) {
    visitExpr(op->base);
    visitExpr(op->stride);
}
void IRVisitor::visit(const BroadcastNode* op) { visitExpr(op->value); }
void IRVisitor::visit(const LetNode* op) {
    visitExpr(op->value);
    visitExpr(op->body);
}
void IRVisitor::visit(const ReduceNode* op) {
    for (const IterVar& iv : op->axis) {
        if (iv->dom.defined()) {
            visitExpr(iv->dom.min);
            visitExpr(iv->dom.extent);
        }
    }
    for (const Expr& s : op->source)
        visitExpr(s);
    for (const Expr& e : op->init)
        visitExpr(e);
    visitExpr(op->condition);
}

void IRVisitor::visit(const LetStmtNode* op) {
    visitExpr(op->value);
    visitStmt(op->body);
}
void IRVisitor::visit(const AttrStmtNode* op) {
    if (op->value.defined())
        visitExpr(op->value);
    visitStmt(op->body);
}
void IRVisitor::visit(const AssertStmtNode* op) {
    visitExpr(op->condition);
    if (op->message.defined())
        visitExpr(op->message);
    if (op->body.defined())
        visitStmt(op->body);
}
void IRVisitor::visit(const ForNode* op) {
    visitExpr(op->min);
    visitExpr(op->extent);
    visitStmt(op->body);
}
void IRVisitor::visit(const ProducerRealizeNode* op) {
    for (const Range& r : op->bounds) {
        visitExpr(r.min);
        visitExpr(r.extent);
    }
    visitExpr(op->condition);
    visitStmt(op->body);
}
void IRVisitor::visit(const ProducerStoreNode* op) {
    visitExpr(op->value);
    for (const Expr& i : op->indices)
        visitExpr(i);
}
void IRVisitor::visit(const ProducerConsumerNode* op) { visitStmt(op->body); }
void IRVisitor::visit(const AllocateNode* op) {
    for (const Expr& e : op->extents)
        visitExpr(e);
    visitExpr(op->condition);
    visitStmt(op->body);
}
void IRVisitor::visit(const StoreNode* op) {
    visitExpr(op->value);
    visitExpr(op->index);
    if (op->predicate.defined())
        visitExpr(op->predicate);
}
void IRVisitor::visit(const SeqNode* op) {
    for (const Stmt& s : op->seq)
        visitStmt(s);
}
void IRVisitor::visit(const IfThenElseNode* op) {
    visitExpr(op->condition);
    visitStmt(op->thenCase);
    if (op->elseCase.defined())
        visitStmt(op->elseCase);
}
void IRVisitor::visit(const EvaluateNode* op) { visitExpr(op->value); }

// ---------------------------------------------------------------------------------------------
// IRMutator

namespace {
Expr mutateIfDefined(IRMutator& m, const Expr& e) { return e.defined() ? m.visitExpr(e) : e; }
Stmt mutateIfDefined(IRMutator& m, const Stmt& s) { return s.defined() ? m.visitStmt(s) : s; }
} // namespace

Stmt IRMutator::visitStmt(const Stmt& s) { return carryStep(s, StmtFunctor<Stmt>::visitStmt(s)); }

std::vector<Expr> IRMutator::visitExprs(const std::vector<Expr>& exprs, bool* changed) {
    std::vector<Expr> out;
    out.reserve(exprs.size());
    for (const Expr& e : exprs) {
        out.push_back(visitExpr(e));
        if (!out.back().same_as(e))
            *changed = true;
    }
    return out;
}

Range IRMutator::visitRange(const Range& r, bool* changed) {
    if (!r.defined())
        return r;
    Expr min = visitExpr(r.min);
    Expr extent = visitExpr(r.extent);
    if (min.same_as(r.min) && extent.same_as(r.extent))
        return r;
    *changed = true;
    return Range(min, extent);
}

Expr IRMutator::visit(const IntImmNode* op) { return Expr(op); }
Expr IRMutator::visit(const FloatImmNode* op) { return Expr(op); }
Expr IRMutator::visit(const StringImmNode* op) { return Expr(op); }
Expr IRMutator::visit(const VarNode* op) { return Expr(op); }

#define BS_MUTATE_BINARY(N)                                                                        \
    Expr IRMutator::visit(const N##Node* op) {                                                     \
        Expr a = visitExpr(op->a);                                                                 \
        Expr b = visitExpr(op->b);                                                                 \
        if (a.same_as(op->a) && b.same_as(op->b))                                                  \
            return Expr(op);                                                                       \
        return N##Node::make(a, b);                                                                \
    }
BS_MUTATE_BINARY(Add)
BS_MUTATE_BINARY(Sub)
BS_MUTATE_BINARY(Mul)
BS_MUTATE_BINARY(Div)
BS_MUTATE_BINARY(Mod)
BS_MUTATE_BINARY(FloorDiv)
BS_MUTATE_BINARY(FloorMod)
BS_MUTATE_BINARY(Min)
BS_MUTATE_BINARY(Max)
BS_MUTATE_BINARY(EQ)
BS_MUTATE_BINARY(NE)
BS_MUTATE_BINARY(LT)
BS_MUTATE_BINARY(LE)
BS_MUTATE_BINARY(GT)
BS_MUTATE_BINARY(GE)
BS_MUTATE_BINARY(And)
BS_MUTATE_BINARY(Or)
#undef BS_MUTATE_BINARY

Expr IRMutator::visit(const NotNode* op) {
    Expr a = visitExpr(op->a);
    return a.same_as(op->a) ? Expr(op) : NotNode::make(a);
}
Expr IRMutator::visit(const SelectNode* op) {
    Expr c = visitExpr(op->condition);
    Expr t = visitExpr(op->trueValue);
    Expr f = visitExpr(op->falseValue);
    if (c.same_as(op->condition) && t.same_as(op->trueValue) && f.same_as(op->falseValue))
        return Expr(op);
    return SelectNode::make(c, t, f);
}
Expr IRMutator::visit(const CastNode* op) {
    Expr v = visitExpr(op->value);
    return v.same_as(op->value) ? Expr(op) : CastNode::make(op->type, v);
}
Expr IRMutator::visit(const CallNode* op) {
    bool changed = false;
    std::vector<Expr> args = visitExprs(op->args, &changed);
    return changed ? CallNode::make(op->type, op->name, std::move(args), op->callKind) : Expr(op);
}
Expr IRMutator::visit(const ProducerLoadNode* op) {
    bool changed = false;
    std::vector<Expr> indices = visitExprs(op->indices, &changed);
    return changed ? ProducerLoadNode::make(op->tensor, std::move(indices)) : Expr(op);
}
Expr IRMutator::visit(const LoadNode* op) {
    Expr index = visitExpr(op->index);
    Expr pred = mutateIfDefined(*this, op->predicate);
    if (index.same_as(op->index) && pred.same_as(op->predicate))
        return Expr(op);
    return LoadNode::make(op->type, op->bufferVar, index, pred);
}
Expr IRMutator::visit(const RampNode* op) {
    Expr base = visitExpr(op->base);
    Expr stride = visitExpr(op->stride);
    if (base.same_as(op->base) && stride.same_as(op->stride))
        return Expr(op);
    return RampNode::make(base, stride, op->lanes);
}
Expr IRMutator::visit(const BroadcastNode* op) {
    Expr v = visitExpr(op->value);
    return v.same_as(op->value) ? Expr(op) : BroadcastNode::make(v, op->lanes);
}
Expr IRMutator::visit(const LetNode* op) {
    Expr value = visitExpr(op->value);
    Expr body = visitExpr(op->body);
    if (value.same_as(op->value) && body.same_as(op->body))
        return Expr(op);
    return LetNode::make(op->var, value, body);
}
Expr IRMutator::visit(const ReduceNode* op) {
    bool changed = false;
    std::vector<IterVar> axis;
    axis.reserve(op->axis.size());
    for (const IterVar& iv : op->axis) {
        bool domChanged = false;
        Range dom = visitRange(iv->dom, &domChanged);
        if (!domChanged) {
            axis.push_back(iv);
            continue;
        }
        changed = true;
        axis.push_back(IterVar(dom, iv->var, iv->iterType, iv->threadTag));
    }
    std::vector<Expr> source = visitExprs(op->source, &changed);
    std::vector<Expr> init = visitExprs(op->init, &changed);
    Expr cond = visitExpr(op->condition);
    if (!changed && cond.same_as(op->condition))
        return Expr(op);
    return ReduceNode::make(op->combiner, std::move(source), std::move(axis), cond, op->valueIndex,
                            std::move(init));
}

Stmt IRMutator::visit(const LetStmtNode* op) {
    Expr value = visitExpr(op->value);
    Stmt body = visitStmt(op->body);
    if (value.same_as(op->value) && body.same_as(op->body))
        return Stmt(op);
    return LetStmtNode::make(op->var, value, body);
}
Stmt IRMutator::visit(const AttrStmtNode* op) {
    Expr value = mutateIfDefined(*this, op->value);
    Stmt body = visitStmt(op->body);
    if (value.same_as(op->value) && body.same_as(op->body))
        return Stmt(op);
    return AttrStmtNode::make(op->node, op->key, value, body);
}
Stmt IRMutator::visit(const AssertStmtNode* op) {
    Expr cond = visitExpr(op->condition);
    Expr msg = mutateIfDefined(*this, op->message);
    Stmt body = mutateIfDefined(*this, op->body);
    if (cond.same_as(op->condition) && msg.same_as(op->message) && body.same_as(op->body))
        return Stmt(op);
    return AssertStmtNode::make(cond, msg, body);
}
Stmt IRMutator::visit(const ForNode* op) {
    Expr min = visitExpr(op->min);
    Expr extent = visitExpr(op->extent);
    Stmt body = visitStmt(op->body);
    if (min.same_as(op->min) && extent.same_as(op->extent) && body.same_as(op->body))
        return Stmt(op);
    return ForNode::make(op->loopVar, min, extent, op->kind, body, op->threadBinding);
}
Stmt IRMutator::visit(const ProducerRealizeNode* op) {
    bool changed = false;
    Region bounds;
    bounds.reserve(op->bounds.size());
    for (const Range& r : op->bounds)
        bounds.push_back(visitRange(r, &changed));
    Expr cond = visitExpr(op->condition);
    Stmt body = visitStmt(op->body);
    if (!changed && cond.same_as(op->condition) && body.same_as(op->body))
        return Stmt(op);
    return ProducerRealizeNode::make(op->tensor, std::move(bounds), cond, body, op->storageScope);
}
Stmt IRMutator::visit(const ProducerStoreNode* op) {
    bool changed = false;
    Expr value = visitExpr(op->value);
    std::vector<Expr> indices = visitExprs(op->indices, &changed);
    if (!changed && value.same_as(op->value))
        return Stmt(op);
    return ProducerStoreNode::make(op->tensor, value, std::move(indices));
}
Stmt IRMutator::visit(const ProducerConsumerNode* op) {
    Stmt body = visitStmt(op->body);
    return body.same_as(op->body) ? Stmt(op)
                                  : ProducerConsumerNode::make(op->op, op->isProducer, body);
}
Stmt IRMutator::visit(const AllocateNode* op) {
    bool changed = false;
    std::vector<Expr> extents = visitExprs(op->extents, &changed);
    Expr cond = visitExpr(op->condition);
    Stmt body = visitStmt(op->body);
    if (!changed && cond.same_as(op->condition) && body.same_as(op->body))
        return Stmt(op);
    return AllocateNode::make(op->bufferVar, op->type, std::move(extents), cond, body);
}
Stmt IRMutator::visit(const StoreNode* op) {
    Expr value = visitExpr(op->value);
    Expr index = visitExpr(op->index);
    Expr pred = mutateIfDefined(*this, op->predicate);
    if (value.same_as(op->value) && index.same_as(op->index) && pred.same_as(op->predicate))
        return Stmt(op);
    return StoreNode::make(op->bufferVar, value, index, pred);
}
Stmt IRMutator::visit(const SeqNode* op) {
    bool changed = false;
    std::vector<Stmt> seq;
    seq.reserve(op->seq.size());
    for (const Stmt& s : op->seq) {
        seq.push_back(visitStmt(s));
        if (!seq.back().same_as(s))
            changed = true;
    }
    return changed ? SeqNode::make(std::move(seq)) : Stmt(op);
}
Stmt IRMutator::visit(const IfThenElseNode* op) {
    Expr cond = visitExpr(op->condition);
    Stmt thenCase = visitStmt(op->thenCase);
    Stmt elseCase = mutateIfDefined(*this, op->elseCase);
    if (cond.same_as(op->condition) && thenCase.same_as(op->thenCase) &&
        elseCase.same_as(op->elseCase))
        return Stmt(op);
    return IfThenElseNode::make(cond, thenCase, elseCase);
}
Stmt IRMutator::visit(const EvaluateNode* op) {
    Expr v = visitExpr(op->value);
    return v.same_as(op->value) ? Stmt(op) : EvaluateNode::make(v);
}

// ---------------------------------------------------------------------------------------------

namespace {
class PostOrderVisitor : public IRVisitor {
public:
    explicit PostOrderVisitor(const std::function<void(const NodeRef&)>& fn) : m_fn(fn) {}
    void visitExpr(const Expr& e) override {
        IRVisitor::visitExpr(e);
        m_fn(e);
    }
    void visitStmt(const Stmt& s) override {
        IRVisitor::visitStmt(s);
        m_fn(s);
    }

private:
    const std::function<void(const NodeRef&)>& m_fn;
};
} // namespace

void postOrderVisit(const NodeRef& root, const std::function<void(const NodeRef&)>& fn) {
    PostOrderVisitor visitor(fn);
    if (isExprKind(root.kind()))
        visitor.visitExpr(Expr(static_cast<const ExprNode*>(root.get())));
    else if (isStmtKind(root.kind()))
        visitor.visitStmt(Stmt(static_cast<const StmtNode*>(root.get())));
}

} // namespace bs

#include "lower/Simplify.h"

#include "arith/Analyzer.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/ThreadBinding.h"

namespace bs {

namespace {

/// A reduction over no axes is its source where its condition holds, else the identity: what
/// TVM's canonical simplifier makes of it. rfactor over a stage's only reduce axis leaves one in
/// the rfactor stage (`C.rf[k, i] = reduce(..., axis=[])`). With an init it is the init combined
/// with the source, else the init.
class EmptyReductionRemover : public IRMutator {
protected:
    using IRMutator::visit;
    Expr visit(const ReduceNode* op) override {
        Expr e = IRMutator::visit(op);
        const auto* r = e.as<ReduceNode>();
        if (!r || !r->axis.empty())
            return e;
        const size_t k = size_t(r->valueIndex);
        Expr value = r->init.empty() ? r->source[k] : r->combiner.combine(r->init, r->source)[k];
        if (isOne(r->condition))
            return value;
        return select(r->condition, value,
                      r->init.empty() ? r->combiner->identityElement[k] : r->init[k]);
    }
};

/// Simplifies expressions bottom-up and binds each loop variable's range (and each let's value)
/// for the statements inside it, so index arithmetic folds with what is known there.
class StmtSimplifier : public IRMutator {
public:
    Expr visitExpr(const Expr& e) override {
        return m_analyzer.simplify(EmptyReductionRemover().visitExpr(e));
    }

protected:
    using IRMutator::visit;
    Stmt visit(const ForNode* op) override {
        Expr min = visitExpr(op->min);
        Expr extent = visitExpr(op->extent);
        m_analyzer.bind(op->loopVar, Range(min, extent), /*allowOverride=*/true);
        Stmt body = visitStmt(op->body);
        if (isConstInt(extent, 0))
            return EvaluateNode::make(0);
        if (min.same_as(op->min) && extent.same_as(op->extent) && body.same_as(op->body))
            return Stmt(op);
        return ForNode::make(op->loopVar, min, extent, op->kind, body, op->threadBinding);
    }
    Stmt visit(const AttrStmtNode* op) override {
        if (const IterVarNode* iv = boundThread(*op))
            m_analyzer.bind(iv->var, Range(0, visitExpr(op->value)), /*allowOverride=*/true);
        return IRMutator::visit(op);
    }
    Stmt visit(const LetStmtNode* op) override {
        Expr value = visitExpr(op->value);
        // Constants and plain variables are substituted (the let then goes); anything bigger
        // keeps its let, so a common subexpression stays shared.
        if (isConst(value) || value.as<VarNode>()) {
            m_analyzer.bind(op->var, value);
            return visitStmt(op->body);
        }
        Stmt body = visitStmt(op->body);
        if (value.same_as(op->value) && body.same_as(op->body))
            return Stmt(op);
        return LetStmtNode::make(op->var, value, body);
    }
    Stmt visit(const IfThenElseNode* op) override {
        Expr cond = visitExpr(op->condition);
        Expr decided = cond;
        if (const auto* call = cond.as<CallNode>(); call && call->isIntrinsic("likely"))
            decided = call->args[0];
        if (auto c = asConstInt(decided)) {
            if (*c)
                return visitStmt(op->thenCase);
            return op->elseCase.defined() ? visitStmt(op->elseCase) : EvaluateNode::make(0);
        }
        Stmt thenCase = visitStmt(op->thenCase);
        Stmt elseCase = op->elseCase.defined() ? visitStmt(op->elseCase) : Stmt();
        if (cond.same_as(op->condition) && thenCase.same_as(op->thenCase) &&
            elseCase.same_as(op->elseCase))
            return Stmt(op);
        return IfThenElseNode::make(cond, thenCase, elseCase);
    }

private:
    Analyzer m_analyzer;
};

} // namespace

Stmt simplifyStmt(const Stmt& s) {
    StmtSimplifier simplifier;
    return simplifier.visitStmt(s);
}

} // namespace bs

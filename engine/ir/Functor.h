/// \file
/// Dispatch over node kinds: `ExprFunctor<R>` and `StmtFunctor<R>` return a value per node
/// (TVM's ExprFunctor, used by analyses such as EvalSet), `IRVisitor` walks a tree, and
/// `IRMutator` rebuilds it, returning the original handle when no child changed (Halide's rule,
/// so passes allocate nothing on unchanged trees).
///
/// A subclass overrides `visit(const XNode*)` for the kinds it cares about; the entry points are
/// `visitExpr(e)` and `visitStmt(s)`.
#pragma once

#include "ir/Stmt.h"
#include "support/Check.h"

#include <functional>

namespace bs {

// One X(Name) per node kind, for the functors' dispatch (clang-format would reflow the lists
// differently each run).
// clang-format off
#define BS_FOR_EACH_EXPR_NODE(X)                                                                   \
    X(IntImm) X(FloatImm) X(StringImm) X(Var) X(Add) X(Sub) X(Mul) X(Div) X(Mod) X(FloorDiv)       \
    X(FloorMod) X(Min) X(Max) X(EQ) X(NE) X(LT) X(LE) X(GT) X(GE) X(And) X(Or) X(Not) X(Select)    \
    X(Cast) X(Call) X(ProducerLoad) X(Load) X(Ramp) X(Broadcast) X(Let) X(Reduce)

#define BS_FOR_EACH_STMT_NODE(X)                                                                   \
    X(LetStmt) X(AttrStmt) X(AssertStmt) X(For) X(ProducerRealize) X(ProducerStore)                \
    X(ProducerConsumer) X(Allocate) X(Store) X(Seq) X(IfThenElse) X(Evaluate)
// clang-format on

template <typename R> class ExprFunctor {
public:
    virtual ~ExprFunctor() = default;

    virtual R visitExpr(const Expr& e) {
        BS_CHECK(e.defined()) << "visiting an undefined expression";
        switch (e.kind()) {
#define BS_DISPATCH(N)                                                                             \
    case NodeKind::N:                                                                              \
        return visit(static_cast<const N##Node*>(e.get()));
            BS_FOR_EACH_EXPR_NODE(BS_DISPATCH)
#undef BS_DISPATCH
        default:
            BS_UNREACHABLE("not an expression node");
        }
    }

protected:
#define BS_DECLARE(N)                                                                              \
    virtual R visit(const N##Node* op) { return visitExprDefault(op); }
    BS_FOR_EACH_EXPR_NODE(BS_DECLARE)
#undef BS_DECLARE

    virtual R visitExprDefault(const ExprNode* op) {
        BS_UNREACHABLE("expression kind " << int(op->nodeKind) << " not handled");
    }
};

template <typename R> class StmtFunctor {
public:
    virtual ~StmtFunctor() = default;

    virtual R visitStmt(const Stmt& s) {
        BS_CHECK(s.defined()) << "visiting an undefined statement";
        switch (s.kind()) {
#define BS_DISPATCH(N)                                                                             \
    case NodeKind::N:                                                                              \
        return visit(static_cast<const N##Node*>(s.get()));
            BS_FOR_EACH_STMT_NODE(BS_DISPATCH)
#undef BS_DISPATCH
        default:
            BS_UNREACHABLE("not a statement node");
        }
    }

protected:
#define BS_DECLARE(N)                                                                              \
    virtual R visit(const N##Node* op) { return visitStmtDefault(op); }
    BS_FOR_EACH_STMT_NODE(BS_DECLARE)
#undef BS_DECLARE

    virtual R visitStmtDefault(const StmtNode* op) {
        BS_UNREACHABLE("statement kind " << int(op->nodeKind) << " not handled");
    }
};

/// Walks every child of every node. Override a `visit` and call `IRVisitor::visit(op)` to
/// keep recursing.
class IRVisitor : public ExprFunctor<void>, public StmtFunctor<void> {
public:
    using ExprFunctor<void>::visitExpr;
    using StmtFunctor<void>::visitStmt;

protected:
    using ExprFunctor<void>::visit;
    using StmtFunctor<void>::visit;
#define BS_DECLARE(N) void visit(const N##Node* op) override;
    BS_FOR_EACH_EXPR_NODE(BS_DECLARE)
    BS_FOR_EACH_STMT_NODE(BS_DECLARE)
#undef BS_DECLARE
};

/// Rebuilds a tree bottom-up; a node whose children are unchanged is returned as is.
class IRMutator : public ExprFunctor<Expr>, public StmtFunctor<Stmt> {
public:
    using ExprFunctor<Expr>::visitExpr;

    /// Dispatches on the kind, then gives the statement that replaces `s` the step `s` was
    /// made by (ir/Stmt.h, carryStep), so a loop, guard or allocate keeps its provenance
    /// through the passes.
    Stmt visitStmt(const Stmt& s) override;

    /// Convenience: mutate every expression of a list; `changed` tells whether any did.
    std::vector<Expr> visitExprs(const std::vector<Expr>& exprs, bool* changed);

protected:
    using ExprFunctor<Expr>::visit;
    using StmtFunctor<Stmt>::visit;
#define BS_DECLARE(N) Expr visit(const N##Node* op) override;
    BS_FOR_EACH_EXPR_NODE(BS_DECLARE)
#undef BS_DECLARE
#define BS_DECLARE(N) Stmt visit(const N##Node* op) override;
    BS_FOR_EACH_STMT_NODE(BS_DECLARE)
#undef BS_DECLARE

    /// Range bounds of IterVars (e.g. in Reduce axes) are mutated too.
    Range visitRange(const Range& r, bool* changed);
};

/// Calls `fn` on every expression and statement node of a tree, children before parents.
void postOrderVisit(const NodeRef& root, const std::function<void(const NodeRef&)>& fn);

} // namespace bs

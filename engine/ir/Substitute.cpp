#include "ir/Substitute.h"

#include "ir/Functor.h"

#include <algorithm>
#include <unordered_map>

namespace bs {

namespace {

class Substituter : public IRMutator {
public:
    explicit Substituter(const std::function<Expr(const Var&)>& fn) : m_fn(fn) {}

protected:
    using IRMutator::visit;
    Expr visit(const VarNode* op) override {
        if (std::find(m_reducerParams.begin(), m_reducerParams.end(), op) != m_reducerParams.end())
            return Expr(op);
        Expr replacement = m_fn(Var(op));
        return replacement.defined() ? replacement : Expr(op);
    }

    /// A reducer's result and identity may use variables of the enclosing computation, e.g.
    /// `max(x + y, float(n))` with `n` a compute axis: they are replaced too, as TVM's te
    /// VarReplacer does (MutateCommReducer), or cache_write would leave the old axis free in
    /// the cache's init (TVM's test_loop_dep_reduce_cache_write, issue 5). The reducer's own
    /// lhs/rhs are its parameters, never free, so they are left alone.
    Expr visit(const ReduceNode* op) override {
        Expr e = IRMutator::visit(op);
        const auto* reduce = e.as<ReduceNode>();
        CommReducer combiner = substituteCombiner(reduce->combiner);
        if (combiner.same_as(reduce->combiner))
            return e;
        return ReduceNode::make(combiner, reduce->source, reduce->axis, reduce->condition,
                                reduce->valueIndex, reduce->init);
    }

private:
    /// One result per reducer, so the outputs of a multi-output reduction keep sharing theirs.
    CommReducer substituteCombiner(const CommReducer& combiner) {
        auto it = m_combiners.find(combiner.get());
        if (it != m_combiners.end())
            return it->second;
        for (const std::vector<Var>* params : {&combiner->lhs, &combiner->rhs})
            for (const Var& v : *params)
                m_reducerParams.push_back(v.get());
        bool changed = false;
        std::vector<Expr> result = visitExprs(combiner->result, &changed);
        std::vector<Expr> identity = visitExprs(combiner->identityElement, &changed);
        m_reducerParams.clear();
        CommReducer out = combiner;
        if (changed)
            out = CommReducer(combiner->lhs, combiner->rhs, std::move(result), std::move(identity));
        m_combiners.emplace(combiner.get(), out);
        return out;
    }

    const std::function<Expr(const Var&)>& m_fn;
    std::unordered_map<const CommReducerNode*, CommReducer> m_combiners;
    /// The lhs/rhs of the reducer being substituted (reducers do not nest).
    std::vector<const VarNode*> m_reducerParams;
};

std::function<Expr(const Var&)> lookupIn(const VarMap<Expr>& map) {
    return [&map](const Var& v) -> Expr {
        auto it = map.find(v);
        return it == map.end() ? Expr() : it->second;
    };
}

class VarUseFinder : public IRVisitor {
public:
    explicit VarUseFinder(const std::function<bool(const VarNode*)>& pred) : m_pred(pred) {}
    bool found = false;

    void visitExpr(const Expr& e) override {
        if (!found)
            IRVisitor::visitExpr(e);
    }
    void visitStmt(const Stmt& s) override {
        if (!found)
            IRVisitor::visitStmt(s);
    }

protected:
    using IRVisitor::visit;
    void visit(const VarNode* op) override { found = found || m_pred(op); }
    void visit(const LoadNode* op) override {
        found = found || m_pred(op->bufferVar.get());
        IRVisitor::visit(op);
    }
    void visit(const StoreNode* op) override {
        found = found || m_pred(op->bufferVar.get());
        IRVisitor::visit(op);
    }

private:
    const std::function<bool(const VarNode*)>& m_pred;
};

} // namespace

Expr substitute(const Expr& e, const std::function<Expr(const Var&)>& fn) {
    if (!e.defined())
        return e;
    Substituter s(fn);
    return s.visitExpr(e);
}

Stmt substitute(const Stmt& st, const std::function<Expr(const Var&)>& fn) {
    if (!st.defined())
        return st;
    Substituter s(fn);
    return s.visitStmt(st);
}

Expr substitute(const Expr& e, const VarMap<Expr>& map) {
    if (map.empty())
        return e;
    return substitute(e, lookupIn(map));
}

Stmt substitute(const Stmt& s, const VarMap<Expr>& map) {
    if (map.empty())
        return s;
    return substitute(s, lookupIn(map));
}

bool usesVar(const Expr& e, const std::function<bool(const VarNode*)>& pred) {
    VarUseFinder finder(pred);
    finder.visitExpr(e);
    return finder.found;
}

bool usesVar(const Stmt& s, const std::function<bool(const VarNode*)>& pred) {
    VarUseFinder finder(pred);
    finder.visitStmt(s);
    return finder.found;
}

bool usesVar(const Expr& e, const Var& v) {
    const VarNode* target = v.get();
    return usesVar(e, [target](const VarNode* n) { return n == target; });
}

std::vector<Var> usedVars(const Expr& e) {
    std::vector<Var> vars;
    postOrderVisit(e, [&vars](const NodeRef& n) {
        const auto* v = n.as<VarNode>();
        if (!v)
            return;
        bool seen =
            std::any_of(vars.begin(), vars.end(), [v](const Var& x) { return x.get() == v; });
        if (!seen)
            vars.push_back(Var(v));
    });
    return vars;
}

} // namespace bs

#include "ir/Substitute.h"

#include "ir/Functor.h"

#include <algorithm>

namespace bs {

namespace {

class Substituter : public IRMutator {
public:
    explicit Substituter(const std::function<Expr(const Var&)>& fn) : m_fn(fn) {}

protected:
    using IRMutator::visit;
    Expr visit(const VarNode* op) override {
        Expr replacement = m_fn(Var(op));
        return replacement.defined() ? replacement : Expr(op);
    }

private:
    const std::function<Expr(const Var&)>& m_fn;
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
        bool seen = std::any_of(vars.begin(), vars.end(), [v](const Var& x) { return x.get() == v; });
        if (!seen)
            vars.push_back(Var(v));
    });
    return vars;
}

} // namespace bs

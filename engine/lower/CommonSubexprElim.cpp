#include "lower/CommonSubexprElim.h"

#include "ir/Equality.h"
#include "ir/Functor.h"
#include "ir/ThreadBinding.h"
#include "lower/CommonSubexprElimTools.h"

#include <algorithm>
#include <unordered_set>

namespace bs {

bool equivalentTerms(const Expr& a, const Expr& b) {
    return structuralEqual(a, b);
}

namespace {

using namespace cse;

/// Every variable name a tree uses, so that fresh names never collide (a second run of the
/// pass must not create a second `cse_var_1`).
std::unordered_set<std::string> usedNames(const Stmt& stmt) {
    std::unordered_set<std::string> names;
    postOrderVisit(stmt, [&names](const NodeRef& n) {
        if (const auto* v = n.as<VarNode>())
            names.insert(v->name);
        else if (const auto* let = n.as<LetStmtNode>())
            names.insert(let->var.name());
        else if (const auto* let = n.as<LetNode>())
            names.insert(let->var.name());
        else if (const auto* loop = n.as<ForNode>())
            names.insert(loop->loopVar.name());
    });
    return names;
}

/// A variable in scope and, when it is let-bound, the value it holds (TVM's MaybeValue).
struct ContextEntry {
    Var var;
    Expr value; ///< undefined for loop variables, parameters, buffers, thread indices
};

class CommonSubexpressionEliminator : public IRMutator {
public:
    CommonSubexpressionEliminator(const Stmt& root, const CseOptions& options)
        : m_names(usedNames(root)) {
        for (const Var& v : options.contextVars) {
            m_context.push_back({v, Expr()});
            m_names.insert(v.name());
        }
    }

    /// The entry point of seed 001: introduce at this statement what can be introduced here,
    /// then let the handlers below recurse with the context updated.
    Stmt visitStmt(const Stmt& stmt) override {
        Stmt result = eliminate(stmt, [](const Var& v, const Expr& value, const Stmt& body) {
            return LetStmtNode::make(v, value, body);
        });
        return IRMutator::visitStmt(result);
    }

    /// The same at the level of an expression, introducing `let ... in` expressions.
    Expr visitExpr(const Expr& expr) override {
        // An outermost expression with nothing to share is left as it is, without running
        // the algorithm again at each of its levels (quadratic in a deep expression's depth).
        if (m_exprDepth == 0 && nothingToShare(expr))
            return expr;
        Expr result = eliminate(expr, [](const Var& v, const Expr& value, const Expr& body) {
            return LetNode::make(v, value, body);
        });
        ++m_exprDepth;
        Expr visited = IRMutator::visitExpr(result);
        --m_exprDepth;
        return visited;
    }

protected:
    using IRMutator::visit;

    Stmt visit(const LetStmtNode* op) override {
        Expr value = visitExpr(op->value);
        Stmt body = inScope(op->var, op->value, [&] { return visitStmt(op->body); });
        if (value.same_as(op->value) && body.same_as(op->body))
            return Stmt(op);
        return LetStmtNode::make(op->var, value, body);
    }
    Expr visit(const LetNode* op) override {
        Expr value = visitExpr(op->value);
        Expr body = inScope(op->var, op->value, [&] { return visitExpr(op->body); });
        if (value.same_as(op->value) && body.same_as(op->body))
            return Expr(op);
        return LetNode::make(op->var, value, body);
    }
    /// The loop variable has no single value: it is in scope, holding nothing.
    Stmt visit(const ForNode* op) override {
        Expr min = visitExpr(op->min);
        Expr extent = visitExpr(op->extent);
        Stmt body = inScope(op->loopVar, Expr(), [&] { return visitStmt(op->body); });
        if (min.same_as(op->min) && extent.same_as(op->extent) && body.same_as(op->body))
            return Stmt(op);
        return ForNode::make(op->loopVar, min, extent, op->kind, body, op->threadBinding);
    }
    Stmt visit(const AllocateNode* op) override {
        return inScope(op->bufferVar, Expr(), [&] { return IRMutator::visit(op); });
    }
    /// A thread_extent (or virtual_thread) attr defines its thread index for its body, as a
    /// loop would.
    Stmt visit(const AttrStmtNode* op) override {
        const IterVarNode* iv = boundThread(*op);
        if (!iv)
            return IRMutator::visit(op);
        return inScope(iv->var, Expr(), [&] { return IRMutator::visit(op); });
    }
    /// Reduction axes are bound inside the reduction: nothing there is touched.
    Expr visit(const ReduceNode* op) override { return Expr(op); }

private:
    template <typename Fn>
    auto inScope(const Var& var, const Expr& value, Fn&& fn) -> decltype(fn()) {
        m_context.push_back({var, value});
        auto result = fn();
        m_context.pop_back();
        return result;
    }

    /// The loop of seed 001 over the semantic computations of `root`, biggest first; `wrap`
    /// builds `let v = value` around a root of type T (LetStmt or Let).
    template <typename T, typename Wrap> T eliminate(const T& root, Wrap wrap) {
        SemanticComputations candidates = syntacticToSemantic(computationsDoneBy(root));
        sortBySizeDecreasing(candidates);
        T result = root;
        for (size_t i = 0; i < candidates.size(); ++i) {
            const Expr computation = candidates[i].first;
            const size_t count = candidates[i].second;
            ExprPredicate selected = [&computation](const Expr& e) {
                return sameComputation(e, computation) && isEligibleComputation(e);
            };
            if (Var holder = variableHolding(computation); holder.defined()) {
                // Case 1: `let x = A in ...A...` written by the user or an earlier pass.
                result = replaceSelected(result, selected, holder);
                continue;
            }
            if (isInScope(computation) && shouldIntroduce(computation, count)) {
                // Case 2: one fresh variable for every occurrence.
                Var fresh = freshVar(computation.type());
                result = wrap(fresh, computation, replaceSelected(result, selected, fresh));
                continue;
            }
            // Case 3: its direct sub-expressions get their chance. Like TVM, each occurrence
            // among the direct sub-expressions counts once, whatever the parent's count.
            insertSorted(candidates, directSubexpressions(computation), 1);
        }
        return result;
    }

    /// Whether no step of the algorithm can change `expr` or any expression inside it: its
    /// eligible computations are all different (so each is done once, at any level) and none
    /// is the value of a let in scope; it holds no let or reduction (which bind variables).
    bool nothingToShare(const Expr& expr) const {
        class Finder : public IRVisitor {
        public:
            std::unordered_map<size_t, int> seen;
            bool shared = false;
            void visitExpr(const Expr& e) override {
                if (shared)
                    return;
                if (e.as<LetNode>() || e.as<ReduceNode>()) {
                    shared = true;
                    return;
                }
                if (isEligibleComputation(e) && ++seen[exprHash(e)] > 1) {
                    shared = true;
                    return;
                }
                IRVisitor::visitExpr(e);
            }
        } finder;
        finder.visitExpr(expr);
        if (finder.shared)
            return false;
        return std::none_of(m_context.begin(), m_context.end(), [&](const ContextEntry& entry) {
            return entry.value.defined() && finder.seen.count(exprHash(entry.value));
        });
    }

    Var variableHolding(const Expr& computation) const {
        auto it = std::find_if(m_context.begin(), m_context.end(), [&](const ContextEntry& entry) {
            return entry.value.defined() && sameComputation(entry.value, computation);
        });
        return it == m_context.end() ? Var() : it->var;
    }

    bool isInScope(const Expr& computation) const {
        for (const Var& v : freeVars(computation)) {
            bool known =
                std::any_of(m_context.begin(), m_context.end(),
                            [&v](const ContextEntry& entry) { return entry.var.same_as(v); });
            if (!known)
                return false;
        }
        return true;
    }

    /// TVM's PredicateIntroVarForComputation: worth a variable when done at least twice.
    static bool shouldIntroduce(const Expr&, size_t count) { return count >= 2; }

    Var freshVar(DataType type) {
        std::string name;
        do {
            name = "cse_var_" + std::to_string(++m_counter);
        } while (m_names.count(name));
        m_names.insert(name);
        return Var(name, type);
    }

    std::vector<ContextEntry> m_context;
    int m_exprDepth = 0; ///< expressions being visited inside an outermost one
    std::unordered_set<std::string> m_names;
    int m_counter = 0;
};

} // namespace

Stmt commonSubexprElim(const Stmt& stmt, const CseOptions& options) {
    BS_CHECK(stmt.defined()) << "CSE of an undefined statement";
    cse::AnalysisMemo memo;
    CommonSubexpressionEliminator eliminator(stmt, options);
    return eliminator.visitStmt(stmt);
}

} // namespace bs

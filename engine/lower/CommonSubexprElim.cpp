#include "lower/CommonSubexprElim.h"

#include "ir/Equality.h"
#include "ir/Functor.h"
#include "ir/ThreadBinding.h"
#include "lower/CommonSubexprElimTools.h"

#include <algorithm>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

namespace bs {

bool equivalentTerms(const Expr& a, const Expr& b) { return structuralEqual(a, b); }

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
        : m_names(usedNames(root)), m_skipQuietLetChains(options.skipQuietLetChains) {
        for (const Var& v : options.contextVars) {
            enter(v, Expr());
            m_names.insert(v.name());
        }
    }

    /// The entry point of seed 001: introduce at this statement what can be introduced here,
    /// then let the handlers below recurse with the context updated.
    Stmt visitStmt(const Stmt& stmt) override {
        if (m_quietLevels > 0) {
            --m_quietLevels;
            return IRMutator::visitStmt(stmt);
        }
        return IRMutator::visitStmt(eliminateAt(stmt));
    }

    /// The same at the level of an expression, introducing `let ... in` expressions.
    Expr visitExpr(const Expr& expr) override {
        // An expression with nothing to share is left as it is, without running the algorithm
        // at each of its levels (quadratic in a deep expression's depth). The test costs what
        // one level of the algorithm costs, so making it at every level at most doubles the
        // work where something is shared.
        if (nothingToShare(expr))
            return expr;
        return IRMutator::visitExpr(eliminateAt(expr));
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
        enter(var, value);
        auto result = fn();
        leave();
        return result;
    }

    /// The context is a stack as deep as the loop nest (a nest of attached stages is as deep as
    /// the program): its variables and let values are also indexed, so that a look-up does not
    /// walk it.
    void enter(const Var& var, const Expr& value) {
        m_context.push_back({var, value});
        ++m_inScope[var.get()];
        if (value.defined())
            m_letsByHash[exprHash(value)].push_back(m_context.size() - 1);
    }
    void leave() {
        const ContextEntry& entry = m_context.back();
        if (--m_inScope[entry.var.get()] == 0)
            m_inScope.erase(entry.var.get());
        if (entry.value.defined()) {
            auto it = m_letsByHash.find(exprHash(entry.value));
            it->second.pop_back();
            if (it->second.empty())
                m_letsByHash.erase(it);
        }
        m_context.pop_back();
    }

    /// One level of the algorithm. Kept out of visitStmt and visitExpr, which recurse as deep as
    /// the program's nest (a chain of 2,000 stages is one) or expression: its locals would be on
    /// every level's frame.
    [[gnu::noinline]] Stmt eliminateAt(const Stmt& stmt) {
        Level level;
        Stmt result = eliminate(
            stmt,
            [](const Var& v, const Expr& value, const Stmt& body) {
                return LetStmtNode::make(v, value, body);
            },
            &level);
        // The chain of lets this level built is quiet when it made no case-1 replacement (a
        // variable holding A can make two different computations equal once A is replaced)
        // and no new variable holds a computation with an eligible one inside it (that one
        // could be shared with the statement below). Then every computation left is done
        // once or uses a variable out of scope, at each level of the chain and under it:
        // those levels are visited, their expressions too, but the algorithm has nothing to
        // do there. Its lets are the next visitStmt calls: each let's body, then the last.
        if (m_skipQuietLetChains && !level.replacedByHolder && !level.introduced.empty() &&
            std::none_of(level.introduced.begin(), level.introduced.end(),
                         [](const Expr& value) { return !directSubexpressions(value).empty(); }))
            m_quietLevels = level.introduced.size();
        return result;
    }

    [[gnu::noinline]] Expr eliminateAt(const Expr& expr) {
        return eliminate(expr, [](const Var& v, const Expr& value, const Expr& body) {
            return LetNode::make(v, value, body);
        });
    }

    /// What one level of the algorithm did.
    struct Level {
        bool replacedByHolder = false; ///< case 1 happened
        std::vector<Expr> introduced;  ///< the values of the new variables (case 2)
    };

    /// The loop of seed 001 over the semantic computations of `root`, biggest first; `wrap`
    /// builds `let v = value` around a root of type T (LetStmt or Let).
    template <typename T, typename Wrap>
    T eliminate(const T& root, Wrap wrap, Level* level = nullptr) {
        SemanticComputations candidates = syntacticToSemantic(computationsDoneBy(root));
        sortBySizeDecreasing(candidates);
        Replacements replacements;
        std::vector<size_t> introduced; ///< the entries of case 2, in order
        size_t entries = 0;
        for (size_t i = 0; i < candidates.size(); ++i) {
            const Expr computation = candidates[i].first;
            const size_t count = candidates[i].second;
            if (Var holder = variableHolding(computation); holder.defined()) {
                // Case 1: `let x = A in ...A...` written by the user or an earlier pass.
                replacements.add(computation, holder, /*existing=*/true);
                ++entries;
                if (level)
                    level->replacedByHolder = true;
                continue;
            }
            if (isInScope(computation) && shouldIntroduce(computation, count)) {
                // Case 2: one fresh variable for every occurrence.
                replacements.add(computation, freshVar(computation.type()));
                introduced.push_back(entries++);
                if (level)
                    level->introduced.push_back(computation);
                continue;
            }
            // Case 3: its direct sub-expressions get their chance. Like TVM, each occurrence
            // among the direct sub-expressions counts once, whatever the parent's count.
            insertSorted(candidates, directSubexpressions(computation), 1);
        }
        if (replacements.empty())
            return root;
        // As replacing one after the other does: each new let goes around what is there, and
        // what later entries replace is replaced in its value too. Replacing never looks
        // inside a let expression (its variable is bound there), so in an expression the
        // entries after its first let replace nothing.
        const size_t end =
            std::is_same_v<T, Expr> && !introduced.empty() ? introduced.front() + 1 : entries;
        T result = replacements.apply(root, 0, end);
        for (size_t at : introduced)
            result = wrap(replacements.var(at),
                          replacements.apply(replacements.computation(at), at + 1, end), result);
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
        // The smaller of the two sets is walked and looked up in the other.
        if (finder.seen.size() < m_letsByHash.size())
            return std::none_of(finder.seen.begin(), finder.seen.end(), [&](const auto& entry) {
                return m_letsByHash.count(entry.first) != 0;
            });
        return std::none_of(m_letsByHash.begin(), m_letsByHash.end(),
                            [&](const auto& entry) { return finder.seen.count(entry.first) != 0; });
    }

    /// The outermost let variable in scope holding `computation`, if any.
    Var variableHolding(const Expr& computation) const {
        auto it = m_letsByHash.find(exprHash(computation));
        if (it == m_letsByHash.end())
            return Var();
        for (size_t at : it->second)
            if (sameComputation(m_context[at].value, computation))
                return m_context[at].var;
        return Var();
    }

    bool isInScope(const Expr& computation) const {
        const std::vector<Var> vars = freeVars(computation);
        return std::all_of(vars.begin(), vars.end(),
                           [&](const Var& v) { return m_inScope.count(v.get()) != 0; });
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
    std::unordered_map<const VarNode*, int> m_inScope;            ///< var -> entries naming it
    std::unordered_map<size_t, std::vector<size_t>> m_letsByHash; ///< let value hash -> entries
    std::unordered_set<std::string> m_names;
    int m_counter = 0;
    bool m_skipQuietLetChains;
    size_t m_quietLevels = 0; ///< visitStmt calls left in a quiet chain of lets (see visitStmt)
};

} // namespace

Stmt commonSubexprElim(const Stmt& stmt, const CseOptions& options) {
    BS_CHECK(stmt.defined()) << "CSE of an undefined statement";
    cse::AnalysisMemo memo;
    CommonSubexpressionEliminator eliminator(stmt, options);
    return eliminator.visitStmt(stmt);
}

} // namespace bs

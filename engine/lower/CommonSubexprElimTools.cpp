#include "lower/CommonSubexprElimTools.h"

#include "ir/Functor.h"
#include "lower/CommonSubexprElim.h"

#include <algorithm>
#include <initializer_list>
#include <memory>
#include <type_traits>
#include <unordered_map>

namespace bs::cse {

/// Per-node answers of the analyses below during one CSE run (AnalysisMemo). The nodes are held,
/// so that no address is reused by a new node while its answer is remembered.
struct MemoTables {
    std::unordered_map<const Node*, std::pair<NodeRef, bool>> forbidden;
    std::unordered_map<const Node*, std::pair<NodeRef, size_t>> complexity;
    std::unordered_map<const Node*, std::pair<NodeRef, size_t>> hash;
    /// Expressions in which computationsDoneBy finds nothing (most sub-expressions of a long
    /// chain of reads): CSE asks again at every level of an expression.
    std::unordered_map<const Node*, NodeRef> doNothing;
    /// The computations each statement does: CSE asks at every statement, and a statement's
    /// table is built from its children's, so a deep nest (a chain of stages, one inside the
    /// other's sequence) is walked once instead of once per level.
    std::unordered_map<const Node*, std::pair<NodeRef, ComputationTable>> statements;
};

namespace {

/// Reads memory or may have side effects: moving it into a variable could change its value
/// (a store may come in between) or the program's behaviour. Intrinsics are kept as they are
/// too: later passes and code generators recognise them by shape (`likely(...)`).
bool isForbiddenComputation(const Expr& e) {
    if (e.as<LoadNode>() || e.as<ProducerLoadNode>())
        return true;
    const auto* call = e.as<CallNode>();
    return call && call->callKind != CallKind::PureExtern;
}

thread_local MemoTables* t_memo = nullptr;

/// Whether `e` is or contains a forbidden computation, each node decided once per CSE run:
/// the candidates of CSE are nested in each other, and deciding each on its own would make
/// the pass quadratic in the depth of an expression (a long sum written as a Python loop).
class ForbiddenFinder : public IRVisitor {
public:
    bool found = false;

    void visitExpr(const Expr& e) override {
        if (found)
            return;
        if (t_memo) {
            auto it = t_memo->forbidden.find(e.get());
            if (it != t_memo->forbidden.end()) {
                found = it->second.second;
                return;
            }
        }
        found = isForbiddenComputation(e);
        if (!found)
            IRVisitor::visitExpr(e); // the children; stops at the first forbidden one
        if (t_memo)
            t_memo->forbidden.emplace(e.get(), std::make_pair(NodeRef(e), found));
    }
};

bool containsForbiddenComputation(const Expr& e) {
    ForbiddenFinder finder;
    finder.visitExpr(e);
    return finder.found;
}

size_t countNodes(const Expr& e) {
    size_t nodes = 0;
    postOrderVisit(e, [&nodes](const NodeRef&) { ++nodes; });
    return nodes;
}

inline void combine(size_t& seed, size_t value) {
    seed ^= value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
}

/// exprHash: the node's kind, type and own data, then its children's hashes in order (each
/// child through exprHash, so remembered ones are not walked again). Only what structural
/// equality compares, and compares the same way in every context, goes in: equal expressions
/// hash equally.
class ComposedHasher : public IRVisitor {
public:
    size_t hashOf(const Expr& e) {
        if (t_memo) {
            auto it = t_memo->hash.find(e.get());
            if (it != t_memo->hash.end())
                return it->second.second;
        }
        const size_t saved = m_hash;
        const bool savedRoot = m_atRoot;
        m_hash = size_t(e.kind());
        combine(m_hash, size_t(e.type().code()) * 1000003 + size_t(e.type().bits()) * 1009 +
                            size_t(e.type().lanes()));
        m_atRoot = true;
        visitExpr(e);
        const size_t h = m_hash;
        m_hash = saved;
        m_atRoot = savedRoot;
        if (t_memo)
            t_memo->hash.emplace(e.get(), std::make_pair(NodeRef(e), h));
        return h;
    }

    void visitExpr(const Expr& e) override {
        if (!m_atRoot) {
            combine(m_hash, e.defined() ? hashOf(e) : 0);
            return;
        }
        m_atRoot = false;
        IRVisitor::visitExpr(e);
    }

protected:
    using IRVisitor::visit;
    void visit(const IntImmNode* op) override { combine(m_hash, std::hash<int64_t>()(op->value)); }
    void visit(const FloatImmNode* op) override { combine(m_hash, std::hash<double>()(op->value)); }
    void visit(const StringImmNode* op) override {
        combine(m_hash, std::hash<std::string>()(op->value));
    }
    // Variables (and a load's buffer) add only their type, which the node already did: equality
    // may map a bound variable to another (let, reduction axes), so their identity cannot count.
    void visit(const VarNode*) override {}
    void visit(const CallNode* op) override {
        combine(m_hash, std::hash<std::string>()(op->name));
        IRVisitor::visit(op);
    }
    void visit(const ProducerLoadNode* op) override {
        combine(m_hash, TensorHash()(op->tensor));
        IRVisitor::visit(op);
    }

private:
    size_t m_hash = 0;
    bool m_atRoot = false;
};

} // namespace

size_t exprHash(const Expr& e) { return e.defined() ? ComposedHasher().hashOf(e) : 0; }

size_t ComputationTable::Hash::operator()(const Expr& e) const { return exprHash(e); }

bool ComputationTable::Equal::operator()(const Expr& a, const Expr& b) const {
    return equivalentTerms(a, b);
}

bool sameComputation(const Expr& a, const Expr& b) {
    return exprHash(a) == exprHash(b) && equivalentTerms(a, b);
}

AnalysisMemo::AnalysisMemo() : m_tables(std::make_unique<MemoTables>()), m_previous(t_memo) {
    t_memo = m_tables.get();
}

AnalysisMemo::~AnalysisMemo() { t_memo = m_previous; }

bool isEligibleComputation(const Expr& e) {
    if (e.as<IntImmNode>() || e.as<FloatImmNode>() || e.as<StringImmNode>() || e.as<VarNode>())
        return false;
    if (e.as<RampNode>() || e.as<BroadcastNode>() || e.as<ReduceNode>())
        return false;
    return !containsForbiddenComputation(e);
}

bool canContainEligibleComputations(const Expr& e) {
    return !e.as<LetNode>() && !e.as<ReduceNode>();
}

size_t exprComplexity(const Expr& e) {
    if (!t_memo)
        return countNodes(e);
    auto it = t_memo->complexity.find(e.get());
    if (it != t_memo->complexity.end())
        return it->second.second;
    size_t nodes = countNodes(e);
    t_memo->complexity.emplace(e.get(), std::make_pair(NodeRef(e), nodes));
    return nodes;
}

std::vector<Var> freeVars(const Expr& e) {
    class Finder : public IRVisitor {
    public:
        std::vector<Var> vars;

    protected:
        using IRVisitor::visit;
        void visit(const VarNode* op) override {
            bool known =
                std::any_of(vars.begin(), vars.end(), [op](const Var& v) { return v.get() == op; });
            if (!known && !m_bound.count(Var(op)))
                vars.push_back(Var(op));
        }
        void visit(const LetNode* op) override {
            visitExpr(op->value);
            m_bound.insert(op->var);
            visitExpr(op->body);
            m_bound.erase(op->var);
        }

    private:
        VarSet m_bound;
    };
    Finder finder;
    finder.visitExpr(e);
    return finder.vars;
}

// ---------------------------------------------------------------------------------------------
// ComputationTable

void ComputationTable::add(const Expr& computation, size_t count) {
    auto [it, inserted] = m_index.emplace(computation, m_items.size());
    if (inserted)
        m_items.emplace_back(computation, count);
    else
        m_items[it->second].second += count;
}

void ComputationTable::merge(const ComputationTable& other) {
    for (const auto& [e, n] : other.m_items)
        add(e, n);
}

ComputationTable ComputationTable::inAtLeastTwo(const ComputationTable& a,
                                                const ComputationTable& b,
                                                const ComputationTable& c) {
    ComputationTable result;
    for (const ComputationTable* table : {&a, &b, &c}) {
        for (const auto& [e, n] : table->m_items) {
            size_t tablesDoingIt = (a.count(e) > 0) + (b.count(e) > 0) + (c.count(e) > 0);
            if (tablesDoingIt >= 2 && result.count(e) == 0)
                result.add(e, a.count(e) + b.count(e) + c.count(e));
        }
    }
    return result;
}

size_t ComputationTable::count(const Expr& computation) const {
    auto it = m_index.find(computation);
    return it == m_index.end() ? 0 : m_items[it->second].second;
}

// ---------------------------------------------------------------------------------------------
// computationsDoneBy

namespace {

/// TVM's ComputationsDoneBy: records eligible computations whole, dives into the rest.
const ComputationTable& tableOfStatement(const Stmt& s);

class ComputationCollector : public IRVisitor {
public:
    ComputationTable table;

    /// The statement it is run on is walked; the statements below it come from the memo.
    void visitStmt(const Stmt& s) override {
        if (!t_memo || !m_enteredStatement) {
            m_enteredStatement = true;
            IRVisitor::visitStmt(s);
            return;
        }
        table.merge(tableOfStatement(s));
    }

    void visitExpr(const Expr& e) override {
        if (t_memo && t_memo->doNothing.count(e.get()))
            return;
        if (isEligibleComputation(e)) {
            table.add(e);
            ++m_found;
            return;
        }
        size_t before = m_found;
        if (canContainEligibleComputations(e))
            IRVisitor::visitExpr(e);
        if (t_memo && m_found == before)
            t_memo->doNothing.emplace(e.get(), NodeRef(e));
    }

protected:
    using IRVisitor::visit;

    void visit(const IfThenElseNode* op) override {
        table.merge(
            ComputationTable::inAtLeastTwo(of(op->condition), of(op->thenCase), of(op->elseCase)));
    }
    void visit(const ForNode* op) override {
        table.merge(ComputationTable::inAtLeastTwo(of(op->min), of(op->extent), of(op->body)));
    }

private:
    /// The table of one child on its own (empty for an absent else branch).
    template <typename T> static ComputationTable of(const T& child) {
        if constexpr (std::is_same_v<T, Stmt>) {
            if (t_memo && child.defined())
                return tableOfStatement(child);
        }
        ComputationCollector collector;
        if (child.defined())
            collector.visitChild(child);
        return std::move(collector.table);
    }
    void visitChild(const Expr& e) { visitExpr(e); }
    void visitChild(const Stmt& s) { visitStmt(s); }

    size_t m_found = 0; ///< computations recorded, to tell which expressions do none
    bool m_enteredStatement = false;
};

const ComputationTable& tableOfStatement(const Stmt& s) {
    auto it = t_memo->statements.find(s.get());
    if (it != t_memo->statements.end())
        return it->second.second;
    ComputationCollector collector;
    collector.visitStmt(s);
    return t_memo->statements
        .emplace(s.get(), std::make_pair(NodeRef(s), std::move(collector.table)))
        .first->second.second;
}

/// TVM's DirectSubexpr: the first level of eligible computations strictly below the root.
class DirectSubexprCollector : public IRVisitor {
public:
    std::vector<Expr> found;

    void visitExpr(const Expr& e) override {
        if (!m_entered) {
            m_entered = true;
            if (canContainEligibleComputations(e))
                IRVisitor::visitExpr(e);
            return;
        }
        if (isEligibleComputation(e)) {
            found.push_back(e);
            return;
        }
        if (canContainEligibleComputations(e))
            IRVisitor::visitExpr(e);
    }

private:
    bool m_entered = false;
};

} // namespace

ComputationTable computationsDoneBy(const Expr& e) {
    ComputationCollector collector;
    collector.visitExpr(e);
    return std::move(collector.table);
}

ComputationTable computationsDoneBy(const Stmt& s) {
    if (t_memo)
        return tableOfStatement(s);
    ComputationCollector collector;
    collector.visitStmt(s);
    return std::move(collector.table);
}

std::vector<Expr> directSubexpressions(const Expr& e) {
    DirectSubexprCollector collector;
    collector.visitExpr(e);
    return std::move(collector.found);
}

// ---------------------------------------------------------------------------------------------
// Semantic entities

SemanticComputations syntacticToSemantic(const ComputationTable& table) {
    SemanticComputations result;
    // The entries so far by hash: each computation is compared only with those it may equal.
    std::unordered_multimap<size_t, size_t> byHash;
    for (const auto& [e, n] : table.items()) {
        const size_t h = exprHash(e);
        auto [first, last] = byHash.equal_range(h);
        auto same = std::find_if(first, last, [&](const auto& entry) {
            return equivalentTerms(result[entry.second].first, e);
        });
        if (same != last) {
            result[same->second].second += n;
            continue;
        }
        byHash.emplace(h, result.size());
        result.emplace_back(e, n);
    }
    return result;
}

void sortBySizeDecreasing(SemanticComputations& computations) {
    std::stable_sort(computations.begin(), computations.end(), [](const auto& a, const auto& b) {
        return exprComplexity(a.first) > exprComplexity(b.first);
    });
}

void insertSorted(SemanticComputations& sorted, const std::vector<Expr>& exprs, size_t count) {
    for (const Expr& e : exprs) {
        auto same = std::find_if(sorted.begin(), sorted.end(), [&e](const auto& entry) {
            return sameComputation(entry.first, e);
        });
        if (same != sorted.end()) {
            same->second += count;
            continue;
        }
        size_t size = exprComplexity(e);
        auto position = std::find_if(sorted.begin(), sorted.end(), [size](const auto& entry) {
            return exprComplexity(entry.first) < size;
        });
        sorted.insert(position, {e, count});
    }
}

void Replacements::add(const Expr& computation, const Var& var, bool existing) {
    if (existing)
        m_existing.push_back(m_items.size());
    m_byHash[exprHash(computation)].push_back(m_items.size());
    m_items.emplace_back(computation, var);
}

size_t Replacements::match(const Expr& e, size_t first, size_t end) const {
    auto it = m_byHash.find(exprHash(e));
    if (it == m_byHash.end())
        return end;
    for (size_t i : it->second)
        if (i >= first && i < end && sameComputation(m_items[i].first, e) &&
            isEligibleComputation(e))
            return i;
    return end;
}

class ReplacementWalker : public IRMutator {
public:
    ReplacementWalker(const Replacements& replacements, size_t first, size_t end)
        : m_replacements(replacements), m_first(first), m_end(end), m_after(first) {}

    Expr visitExpr(const Expr& e) override {
        if (size_t i = m_replacements.match(e, m_first, m_end); i != m_end) {
            m_after = std::max(m_after, i + 1);
            return m_replacements.var(i);
        }
        if (!canContainEligibleComputations(e))
            return e;
        // Replacing in turn, an entry meets this expression as the entries before it left it:
        // rebuilt, it can be a match only for an entry after those made inside it.
        const size_t outer = m_after;
        m_after = m_first;
        Expr rebuilt = IRMutator::visitExpr(e);
        size_t after = m_after;
        if (!rebuilt.same_as(e)) {
            if (size_t i = m_replacements.match(rebuilt, after, m_end); i != m_end) {
                rebuilt = m_replacements.var(i);
                after = i + 1;
            }
        }
        m_after = std::max(outer, after);
        return rebuilt;
    }

private:
    const Replacements& m_replacements;
    size_t m_first;
    size_t m_end;
    size_t m_after; ///< one past the latest entry made inside the expression being rebuilt
};

namespace {

Expr walk(ReplacementWalker& walker, const Expr& e) { return walker.visitExpr(e); }
Stmt walk(ReplacementWalker& walker, const Stmt& s) { return walker.visitStmt(s); }

} // namespace

template <typename T> T Replacements::applyInTurn(const T& root, size_t first, size_t end) const {
    if (first >= end)
        return root;
    auto existing = std::lower_bound(m_existing.begin(), m_existing.end(), first);
    if (existing == m_existing.end() || *existing >= end) {
        ReplacementWalker walker(*this, first, end);
        return walk(walker, root);
    }
    T result = root;
    for (size_t i = first; i < end; ++i) {
        ReplacementWalker walker(*this, i, i + 1);
        result = walk(walker, result);
    }
    return result;
}

Expr Replacements::apply(const Expr& e, size_t first, size_t end) const {
    return applyInTurn(e, first, end);
}

Stmt Replacements::apply(const Stmt& s, size_t first, size_t end) const {
    return applyInTurn(s, first, end);
}

} // namespace bs::cse

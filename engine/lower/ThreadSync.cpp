#include "lower/ThreadSync.h"

#include "ir/Equality.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Substitute.h"

#include <algorithm>
#include <map>
#include <set>

namespace bs {

Stmt makeStorageSync(const std::string& scope) {
    return EvaluateNode::make(CallNode::make(DataType::int32(), kStorageSyncIntrinsic,
                                             {StringImmNode::make(scope)}, CallKind::Intrinsic));
}

bool isStorageSync(const Stmt& stmt) {
    const auto* eval = stmt.as<EvaluateNode>();
    const auto* call = eval ? eval->value.as<CallNode>() : nullptr;
    return call && call->isIntrinsic(kStorageSyncIntrinsic);
}

LaunchExtents launchExtentsOf(const Stmt& kernel) {
    LaunchExtents extents;
    postOrderVisit(kernel, [&](const NodeRef& node) {
        const auto* a = node.as<AttrStmtNode>();
        const auto* iv = a && a->key == attr::kThreadExtent ? a->node.as<IterVarNode>() : nullptr;
        auto extent = iv ? asConstInt(a->value) : std::nullopt;
        if (!extent)
            return;
        int64_t& launch = extents[iv->threadTag];
        launch = std::max(launch, *extent);
    });
    return extents;
}

namespace {

enum class AccessKind { Read, Write, Sync };

/// A thread nest smaller than the launch along its axis: it runs on some threads only (the
/// launch takes the largest extent and guards the smaller nests, SplitHostDevice.h).
bool isPartialNest(const AttrStmtNode* op, const LaunchExtents& launch) {
    const auto* iv = op->node.as<IterVarNode>();
    if (op->key != attr::kThreadExtent || !iv)
        return false;
    auto extent = asConstInt(op->value);
    auto it = launch.find(iv->threadTag);
    return extent && it != launch.end() && *extent < it->second;
}

/// One access to a synchronised buffer, or a barrier (TVM's AccessEntry).
struct Access {
    AccessKind kind;
    Var buffer;
    /// The element index; undefined when the access stands for a range (a vector access, or an
    /// index that depends on a loop variable seen from outside the loop).
    Expr index;
    /// The innermost thread index around the access.
    const VarNode* thread = nullptr;
};

/// A statement of a block, numbered in the order both passes meet it, with its accesses (for
/// a compound statement, those its body exposes: before its first and after its last barrier).
struct Entry {
    int id;
    std::vector<Access> accesses;
};

/// TVM's FindConflict: the same index, using the innermost thread index, means each thread
/// touches its own element (no race between threads is assumed).
bool sameThreadElement(const Access& prev, const Access& cur) {
    if (!prev.index.defined() || !cur.index.defined() || !cur.thread)
        return false;
    auto isThread = [&](const VarNode* v) { return v == cur.thread; };
    return structuralEqual(prev.index, cur.index) && usesVar(cur.index, isThread);
}

const Access* findConflict(const std::vector<Access>& pending, const Access& cur) {
    for (const Access& p : pending) {
        if (p.buffer.same_as(cur.buffer) && !sameThreadElement(p, cur))
            return &p;
    }
    return nullptr;
}

/// The unsynchronised reads and writes of a simulated block.
struct Pending {
    std::vector<Access> reads;
    std::vector<Access> writes;

    bool empty() const { return reads.empty() && writes.empty(); }
    void clear() {
        reads.clear();
        writes.clear();
    }
    /// The access of `accesses` that needs a barrier before it, or nullptr.
    const Access* conflictOf(const std::vector<Access>& accesses) {
        for (const Access& a : accesses) {
            if (a.kind == AccessKind::Sync) {
                clear();
                continue;
            }
            if (findConflict(a.kind == AccessKind::Read ? writes : reads, a))
                return &a;
        }
        return nullptr;
    }
    void add(const std::vector<Access>& accesses) {
        for (const Access& a : accesses) {
            if (a.kind == AccessKind::Sync)
                clear();
            else
                (a.kind == AccessKind::Read ? reads : writes).push_back(a);
        }
    }
};

/// Finds where barriers go (TVM's ThreadSyncPlanner over StorageAccessVisitor).
class SyncPlanner : public IRVisitor {
public:
    SyncPlanner(std::string scope, VarSet buffers)
        : m_scope(std::move(scope)), m_buffers(std::move(buffers)) {}

    std::set<int> syncBefore;

    void plan(const Stmt& stmt) {
        m_launchExtents = launchExtentsOf(stmt);
        m_frames.emplace_back();
        visitStmt(stmt);
        summarize(m_frames.back(), false);
    }

protected:
    using IRVisitor::visit;

    void visit(const StoreNode* op) override {
        Entry entry{m_nextId++, {}};
        addReads(op->value, entry);
        addReads(op->index, entry);
        if (op->predicate.defined())
            addReads(op->predicate, entry);
        if (m_buffers.count(op->bufferVar))
            entry.accesses.push_back(
                {AccessKind::Write, op->bufferVar, pointIndex(op->index), innerThread()});
        m_frames.back().push_back(std::move(entry));
    }
    void visit(const EvaluateNode* op) override {
        Entry entry{m_nextId++, {}};
        if (isSyncOfScope(op->value))
            entry.accesses.push_back({AccessKind::Sync, Var(), Expr(), nullptr});
        else
            addReads(op->value, entry);
        m_frames.back().push_back(std::move(entry));
    }
    void visit(const LetStmtNode* op) override {
        Entry entry{m_nextId++, {}};
        addReads(op->value, entry);
        m_frames.back().push_back(std::move(entry));
        if (isDivergent(op->value))
            m_divergentVars.insert(op->var);
        visitStmt(op->body);
    }
    void visit(const ForNode* op) override {
        Entry entry{m_nextId++, {}};
        addReads(op->min, entry);
        addReads(op->extent, entry);
        if (isDivergent(op->min) || isDivergent(op->extent))
            m_divergentVars.insert(op->loopVar);
        std::vector<Access> body = inFrame(op->body, true);
        relax(body, definedIn(op));
        entry.accesses.insert(entry.accesses.end(), body.begin(), body.end());
        m_frames.back().push_back(std::move(entry));
    }
    void visit(const IfThenElseNode* op) override {
        Entry entry{m_nextId++, {}};
        addReads(op->condition, entry);
        bool divergent = isDivergent(op->condition);
        m_divergentDepth += divergent;
        for (const Stmt& branch : {op->thenCase, op->elseCase}) {
            if (!branch.defined())
                continue;
            std::vector<Access> accesses = inFrame(branch, false);
            entry.accesses.insert(entry.accesses.end(), accesses.begin(), accesses.end());
        }
        m_divergentDepth -= divergent;
        m_frames.back().push_back(std::move(entry));
    }
    void visit(const AttrStmtNode* op) override {
        const auto* iv = op->node.as<IterVarNode>();
        if (op->key != attr::kThreadExtent || !iv) {
            visitStmt(op->body);
            return;
        }
        m_threads.push_back(iv->var.get());
        if (iv->threadTag.rfind("blockIdx", 0) != 0)
            m_divergentVars.insert(iv->var);
        if (isPartialNest(op, m_launchExtents)) {
            // Some threads skip the nest: it is one statement of its block, so a barrier it
            // needs against what came before goes in front of it, where every thread passes.
            Entry entry{m_nextId++, {}};
            ++m_partialDepth;
            entry.accesses = inFrame(op->body, false);
            --m_partialDepth;
            m_frames.back().push_back(std::move(entry));
        } else {
            visitStmt(op->body);
        }
        m_threads.pop_back();
    }

private:
    bool isSyncOfScope(const Expr& e) const {
        const auto* call = e.as<CallNode>();
        if (!call || !call->isIntrinsic(kStorageSyncIntrinsic) || call->args.empty())
            return false;
        const auto* scope = call->args[0].as<StringImmNode>();
        return scope && scope->value == m_scope;
    }
    const VarNode* innerThread() const { return m_threads.empty() ? nullptr : m_threads.back(); }

    static Expr pointIndex(const Expr& index) { return index.type().isScalar() ? index : Expr(); }

    void addReads(const Expr& e, Entry& entry) {
        postOrderVisit(e, [&](const NodeRef& node) {
            const auto* load = node.as<LoadNode>();
            if (load && m_buffers.count(load->bufferVar))
                entry.accesses.push_back(
                    {AccessKind::Read, load->bufferVar, pointIndex(load->index), innerThread()});
        });
    }

    /// True when `e` may differ between the threads of a block.
    bool isDivergent(const Expr& e) const {
        return usesVar(e, [&](const VarNode* v) { return m_divergentVars.count(Var(v)) > 0; });
    }

    /// Visits `body` as a block of its own and returns what it exposes to its parent.
    std::vector<Access> inFrame(const Stmt& body, bool isLoop) {
        m_frames.emplace_back();
        visitStmt(body);
        std::vector<Entry> frame = std::move(m_frames.back());
        m_frames.pop_back();
        return summarize(frame, isLoop);
    }

    /// The loop variable and everything bound inside the loop: seen from outside, an index
    /// using them covers a range, not one element.
    static VarSet definedIn(const ForNode* loop) {
        VarSet vars{loop->loopVar};
        postOrderVisit(loop->body, [&](const NodeRef& node) {
            if (const auto* f = node.as<ForNode>())
                vars.insert(f->loopVar);
            else if (const auto* let = node.as<LetStmtNode>())
                vars.insert(let->var);
            else if (const auto* letExpr = node.as<LetNode>())
                vars.insert(letExpr->var);
        });
        return vars;
    }
    static void relax(std::vector<Access>& accesses, const VarSet& vars) {
        for (Access& a : accesses) {
            if (a.index.defined() &&
                usesVar(a.index, [&](const VarNode* v) { return vars.count(Var(v)) > 0; }))
                a.index = Expr();
        }
    }

    void insertSync(const Entry& entry, const Access& access) {
        if (m_divergentDepth > 0) {
            throw UserError("shared buffer '" + access.buffer.name() +
                            "' needs a barrier inside a condition that depends on the thread "
                            "index; threads that skip it would never reach the barrier");
        }
        if (m_partialDepth > 0) {
            throw UserError("shared buffer '" + access.buffer.name() +
                            "' needs a barrier inside a thread nest smaller than the block "
                            "(two stages bind one thread axis with different extents); the "
                            "threads outside it would never reach the barrier");
        }
        syncBefore.insert(entry.id);
    }

    std::vector<Access> summarize(const std::vector<Entry>& frame, bool isLoop);
    std::vector<Access> exposed(const std::vector<Entry>& frame) const;

    std::string m_scope;
    VarSet m_buffers;
    std::vector<std::vector<Entry>> m_frames;
    std::vector<const VarNode*> m_threads;
    VarSet m_divergentVars;
    int m_divergentDepth = 0;
    int m_partialDepth = 0;
    LaunchExtents m_launchExtents;
    int m_nextId = 0;
};

/// TVM's Summarize: simulates the block in order, placing a barrier before each statement that
/// conflicts with what is pending; for a loop, simulates the next iteration's head against
/// this iteration's tail.
std::vector<Access> SyncPlanner::summarize(const std::vector<Entry>& frame, bool isLoop) {
    Pending pending;
    for (const Entry& entry : frame) {
        if (syncBefore.count(entry.id))
            pending.clear();
        Pending probe = pending;
        if (const Access* conflict = probe.conflictOf(entry.accesses)) {
            insertSync(entry, *conflict);
            pending.clear();
        }
        pending.add(entry.accesses);
    }
    if (isLoop) {
        for (const Entry& entry : frame) {
            if (syncBefore.count(entry.id) || pending.empty())
                break;
            if (const Access* conflict = pending.conflictOf(entry.accesses)) {
                insertSync(entry, *conflict);
                break;
            }
        }
    }
    return exposed(frame);
}

/// What a block shows its parent: the accesses before its first barrier, one barrier if it has
/// any, and the accesses after its last barrier.
std::vector<Access> SyncPlanner::exposed(const std::vector<Entry>& frame) const {
    std::vector<Access> head, tail;
    bool synced = false;
    auto barrier = [&] {
        if (synced)
            tail.clear();
        else
            head.push_back({AccessKind::Sync, Var(), Expr(), nullptr});
        synced = true;
    };
    for (const Entry& entry : frame) {
        if (syncBefore.count(entry.id))
            barrier();
        for (const Access& a : entry.accesses) {
            if (a.kind == AccessKind::Sync)
                barrier();
            else
                (synced ? tail : head).push_back(a);
        }
    }
    head.insert(head.end(), tail.begin(), tail.end());
    return head;
}

/// Puts the planned barriers in, numbering statements exactly as the planner did.
class SyncInserter : public IRMutator {
public:
    SyncInserter(const std::set<int>& syncBefore, std::string scope, LaunchExtents launch)
        : m_syncBefore(syncBefore), m_scope(std::move(scope)), m_launch(std::move(launch)) {}

protected:
    using IRMutator::visit;

    Stmt visit(const StoreNode* op) override { return entry(op); }
    Stmt visit(const EvaluateNode* op) override { return entry(op); }
    Stmt visit(const LetStmtNode* op) override { return entry(op); }
    Stmt visit(const ForNode* op) override { return entry(op); }
    Stmt visit(const IfThenElseNode* op) override { return entry(op); }
    Stmt visit(const AttrStmtNode* op) override {
        return isPartialNest(op, m_launch) ? entry(op) : IRMutator::visit(op);
    }

private:
    template <typename T> Stmt entry(const T* op) {
        int id = m_nextId++;
        Stmt stmt = IRMutator::visit(op);
        if (!m_syncBefore.count(id))
            return stmt;
        return SeqNode::make({makeStorageSync(m_scope), stmt});
    }

    const std::set<int>& m_syncBefore;
    std::string m_scope;
    LaunchExtents m_launch;
    int m_nextId = 0;
};

/// The buffers whose storage_scope attribute is `scope`.
VarSet buffersInScope(const Stmt& stmt, const std::string& scope) {
    VarSet buffers;
    postOrderVisit(stmt, [&](const NodeRef& node) {
        const auto* attrStmt = node.as<AttrStmtNode>();
        if (!attrStmt || attrStmt->key != attr::kStorageScope)
            return;
        const auto* value = attrStmt->value.as<StringImmNode>();
        const auto* buffer = attrStmt->node.as<VarNode>();
        if (value && buffer && value->value == scope)
            buffers.insert(Var(buffer));
    });
    return buffers;
}

/// Applies threadSync at each outermost kernel attribute; kernels do not nest.
class KernelSync : public IRMutator {
protected:
    using IRMutator::visit;
    Stmt visit(const AttrStmtNode* op) override {
        if (op->key == attr::kThreadExtent)
            return threadSync(threadSync(Stmt(op), "shared"), "warp");
        return IRMutator::visit(op);
    }
};

} // namespace

Stmt insertThreadSync(const Stmt& body) { return KernelSync().visitStmt(body); }

Stmt threadSync(const Stmt& stmt, const std::string& scope) {
    VarSet buffers = buffersInScope(stmt, scope);
    if (buffers.empty())
        return stmt;
    SyncPlanner planner(scope, std::move(buffers));
    planner.plan(stmt);
    if (planner.syncBefore.empty())
        return stmt;
    return SyncInserter(planner.syncBefore, scope, launchExtentsOf(stmt)).visitStmt(stmt);
}

} // namespace bs

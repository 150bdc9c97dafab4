#include "lower/InjectDoubleBuffer.h"

#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/Substitute.h"

#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace bs {

namespace {

/// The buffers under a double_buffer_scope that are never used as a value (TVM's
/// DoubleBufferDetector): a handle passed on could be read at any index.
class DoubleBufferDetector : public IRVisitor {
public:
    std::unordered_set<const VarNode*> buffers;

protected:
    using IRVisitor::visit;
    void visit(const AttrStmtNode* op) override {
        if (op->key == attr::kDoubleBufferScope)
            if (const auto* v = op->node.as<VarNode>())
                buffers.insert(v);
        IRVisitor::visit(op);
    }
    void visit(const VarNode* op) override { buffers.erase(op); }
};

/// Removes the attrs with one key: the double_buffer_write marks (TVM's
/// StripDoubleBufferWrite), or the double_buffer_scope marks of a program with none to double.
class StripAttr : public IRMutator {
public:
    explicit StripAttr(const char* key) : m_key(key) {}

protected:
    using IRMutator::visit;
    Stmt visit(const AttrStmtNode* op) override {
        if (op->key == m_key)
            return visitStmt(op->body);
        return IRMutator::visit(op);
    }

private:
    const char* m_key;
};

class DoubleBufferInjector : public IRMutator {
public:
    Stmt inject(const Stmt& stmt) {
        DoubleBufferDetector detector;
        detector.visitStmt(stmt);
        if (detector.buffers.empty())
            return StripAttr(attr::kDoubleBufferScope).visitStmt(stmt);
        for (const VarNode* v : detector.buffers)
            m_buffers[v] = Entry();
        return visitStmt(stmt);
    }

protected:
    using IRMutator::visit;

    Stmt visit(const AttrStmtNode* op) override {
        if (op->key == attr::kDoubleBufferScope) {
            const auto* v = op->node.as<VarNode>();
            auto it = v ? m_buffers.find(v) : m_buffers.end();
            if (it == m_buffers.end() || m_loops.empty())
                return visitStmt(op->body); // TVM skips it too
            return makeProducer(Var(v), it->second, op->body);
        }
        if (op->key == attr::kThreadExtent || op->key == attr::kVirtualThread) {
            const auto* iv = op->node.as<IterVarNode>();
            if (!iv)
                return IRMutator::visit(op);
            const bool virtualThread = op->key == attr::kVirtualThread ||
                                       iv->threadTag == "vthread" || iv->threadTag == "cthread";
            if (virtualThread)
                m_virtualThreads.push_back(iv->var);
            Stmt out = withBound(iv->var, [&] { return IRMutator::visit(op); });
            if (virtualThread)
                m_virtualThreads.pop_back();
            return out;
        }
        if (op->key == attr::kStorageScope) {
            // Moved before the loop with the doubled allocate.
            const auto* v = op->node.as<VarNode>();
            const auto* scope = op->value.as<StringImmNode>();
            if (v && scope && m_buffers.count(v)) {
                m_buffers[v].scope = scope->value;
                return visitStmt(op->body);
            }
        }
        return IRMutator::visit(op);
    }

    Stmt visit(const LetStmtNode* op) override {
        return withBound(op->var, [&] { return IRMutator::visit(op); });
    }

    Stmt visit(const AllocateNode* op) override {
        auto it = m_buffers.find(op->bufferVar.get());
        if (it == m_buffers.end())
            return withBound(op->bufferVar, [&] { return IRMutator::visit(op); });
        Entry& entry = it->second;
        if (op->extents.size() != 1)
            throw UserError("double_buffer of '" + op->bufferVar.name() +
                            "': expected a flat buffer, got " + std::to_string(op->extents.size()) +
                            " extents");
        entry.stride = op->extents[0];
        Stmt body = visitStmt(op->body);
        if (!entry.loop) {
            // Not inside a loop: nothing to double; the scope attr goes back where it was.
            Stmt alloc =
                AllocateNode::make(op->bufferVar, op->type, op->extents, op->condition, body);
            if (entry.scope.empty())
                return alloc;
            return AttrStmtNode::make(op->bufferVar, attr::kStorageScope,
                                      StringImmNode::make(entry.scope), alloc);
        }
        // The doubled allocation goes before the loop: its size must not change inside it.
        std::vector<Var> inner = m_bound.empty() ? std::vector<Var>{} : m_bound.back();
        inner.push_back(entry.loop->loopVar);
        for (const Expr& e : {op->extents[0]})
            if (std::optional<Var> v = usesAny(e, inner))
                throw UserError("double_buffer of '" + op->bufferVar.name() + "': its size " +
                                toString(e) + " changes with '" + v->name() +
                                "' inside the loop '" + entry.loop->loopVar.name() +
                                "', but both halves are allocated once, before it");
        std::vector<Stmt>& nest = m_loopAllocs[entry.loop];
        if (!entry.scope.empty())
            nest.push_back(AttrStmtNode::make(op->bufferVar, attr::kStorageScope,
                                              StringImmNode::make(entry.scope),
                                              EvaluateNode::make(0)));
        nest.push_back(AllocateNode::make(op->bufferVar, op->type, {op->extents[0] * Expr(2)},
                                          op->condition, EvaluateNode::make(0)));
        return body;
    }

    Stmt visit(const ForNode* op) override {
        if (!m_bound.empty())
            m_bound.back().push_back(op->loopVar);
        m_loops.push_back(op);
        m_bound.emplace_back();
        Stmt stmt = IRMutator::visit(op);
        m_bound.pop_back();
        if (!m_bound.empty())
            m_bound.back().pop_back();
        if (auto pre = m_loopPre.find(op); pre != m_loopPre.end()) {
            // TVM's split_loop of 1: the last iteration runs without prefetching a next one.
            const auto* loop = stmt.as<ForNode>();
            Expr extent = loop->extent - Expr(1);
            Stmt main = ForNode::make(loop->loopVar, loop->min, extent, loop->kind, loop->body,
                                      loop->threadBinding);
            VarMap<Expr> last{{loop->loopVar, loop->min + extent}};
            Stmt tail = IfThenElseNode::make(
                makeZero(extent.type()) < loop->extent,
                substitute(StripAttr(attr::kDoubleBufferWrite).visitStmt(loop->body), last));
            std::vector<Stmt> seq = pre->second;
            seq.push_back(main);
            seq.push_back(tail);
            stmt = SeqNode::make(std::move(seq));
        }
        if (auto allocs = m_loopAllocs.find(op); allocs != m_loopAllocs.end()) {
            for (auto it = allocs->second.rbegin(); it != allocs->second.rend(); ++it) {
                if (const auto* a = it->as<AllocateNode>())
                    stmt =
                        AllocateNode::make(a->bufferVar, a->type, a->extents, a->condition, stmt);
                else if (const auto* attr = it->as<AttrStmtNode>())
                    stmt = AttrStmtNode::make(attr->node, attr->key, attr->value, stmt);
            }
        }
        m_loops.pop_back();
        return stmt;
    }

    Stmt visit(const StoreNode* op) override {
        Stmt s = IRMutator::visit(op);
        auto it = m_buffers.find(op->bufferVar.get());
        if (it == m_buffers.end())
            return s;
        const auto* store = s.as<StoreNode>();
        if (!it->second.switchWrite.defined())
            return s; // its double_buffer_scope was not inside a loop: one buffer
        return StoreNode::make(store->bufferVar, store->value,
                               it->second.switchWrite * it->second.stride + store->index,
                               store->predicate);
    }

    Expr visit(const LoadNode* op) override {
        Expr e = IRMutator::visit(op);
        auto it = m_buffers.find(op->bufferVar.get());
        if (it == m_buffers.end() || !it->second.switchRead.defined())
            return e;
        const auto* load = e.as<LoadNode>();
        return LoadNode::make(load->type, load->bufferVar,
                              it->second.switchRead * it->second.stride + load->index,
                              load->predicate);
    }

private:
    struct Entry {
        Expr stride;
        const ForNode* loop = nullptr;
        Var switchWrite;
        Expr switchRead;
        std::string scope;
    };

    /// TVM's MakeProducer: iteration 0's producer goes before the loop; in the loop the
    /// producer fills the other half for iteration i + 1.
    Stmt makeProducer(const Var& buffer, Entry& entry, const Stmt& producer) {
        const ForNode* loop = m_loops.back();
        if (!m_virtualThreads.empty())
            throw UserError("double_buffer of '" + buffer.name() + "' inside virtual thread '" +
                            m_virtualThreads.back().name() +
                            "': not supported (the virtual threads run one after another and "
                            "would overwrite the half another one still reads)");
        // Iteration 0's producer runs before the loop and iteration i + 1's in iteration i:
        // what it reads must exist there and then.
        std::vector<Var> inner;
        for (const Var& v : m_bound.empty() ? std::vector<Var>{} : m_bound.back())
            if (!m_buffers.count(v.get()))
                inner.push_back(v);
        if (std::optional<Var> v = usesAny(producer, inner))
            throw UserError("double_buffer of '" + buffer.name() + "': its producer uses '" +
                            v->name() + "', which is defined inside the loop '" +
                            loop->loopVar.name() +
                            "' around it (a buffer computed in the same iteration, a thread index "
                            "or a let): it cannot load the next iteration's data ahead of time; "
                            "double-buffer that stage too, or compute it outside the loop");
        entry.loop = loop;
        const Var& i = loop->loopVar;
        DataType t = i.type();
        entry.switchWrite = Var(i.name() + ".db", t);
        entry.switchRead = floormod(i - loop->min, makeConst(t, int64_t(2)));
        Stmt body = visitStmt(producer);
        m_loopPre[loop].push_back(
            substitute(body, VarMap<Expr>{{entry.switchWrite, makeZero(t)}, {i, loop->min}}));
        Expr next = i + makeConst(t, int64_t(1));
        body =
            substitute(body, VarMap<Expr>{{i, next},
                                          {entry.switchWrite,
                                           floormod(next - loop->min, makeConst(t, int64_t(2)))}});
        body = AttrStmtNode::make(buffer, attr::kDoubleBufferWrite, Expr(1), body);
        return IfThenElseNode::make(next < loop->min + loop->extent, body);
    }

    /// Runs `visit` with `v` recorded as bound inside the innermost loop.
    template <typename F> Stmt withBound(const Var& v, F visit) {
        if (m_bound.empty())
            return visit();
        m_bound.back().push_back(v);
        Stmt out = visit();
        m_bound.back().pop_back();
        return out;
    }

    /// A variable of `vars` that `node` uses as a value or as the buffer of a load or store.
    static std::optional<Var> usesAny(const NodeRef& node, const std::vector<Var>& vars) {
        std::optional<Var> found;
        auto check = [&](const Var& v) {
            for (const Var& w : vars)
                if (!found && w.same_as(v))
                    found = v;
        };
        postOrderVisit(node, [&](const NodeRef& n) {
            if (const auto* v = n.as<VarNode>())
                check(Var(v));
            else if (const auto* load = n.as<LoadNode>())
                check(load->bufferVar);
            else if (const auto* store = n.as<StoreNode>())
                check(store->bufferVar);
        });
        return found;
    }

    std::unordered_map<const VarNode*, Entry> m_buffers;
    std::vector<const ForNode*> m_loops;
    /// Per loop entered, innermost last: the variables bound inside it so far on the way in
    /// (inner loops, lets, threads, allocations).
    std::vector<std::vector<Var>> m_bound;
    std::vector<Var> m_virtualThreads;
    std::unordered_map<const ForNode*, std::vector<Stmt>> m_loopAllocs;
    std::unordered_map<const ForNode*, std::vector<Stmt>> m_loopPre;
};

} // namespace

Stmt injectDoubleBuffer(const Stmt& stmt) { return DoubleBufferInjector().inject(stmt); }

} // namespace bs

// GPU kernels as CPU loops (GpuOnCpu.h): loop fission at barriers, per-thread copies of what
// lives across them, warp shuffles through exchange buffers.
#include "lower/GpuOnCpu.h"

#include "ir/Equality.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/StorageScope.h"
#include "ir/Substitute.h"
#include "lower/LowerThreadAllreduce.h"
#include "lower/SplitHostDevice.h"
#include "lower/ThreadSync.h"
#include "support/Diagnostic.h"

#include <array>
#include <unordered_map>

namespace bs {

namespace {

/// Thrown inside the rewrite when a kernel cannot be expressed; lowerGpuForCpu returns it.
struct Refusal {
    std::string why;
};

bool isShuffle(const CallNode* call) {
    return call && call->callKind == CallKind::Intrinsic &&
           (call->name == "tvm_warp_shuffle" || call->name == "tvm_warp_shuffle_down");
}

/// Whether the threads of a block meet somewhere in `n`: a barrier or a warp shuffle.
bool hasMeeting(const NodeRef& n) {
    bool found = false;
    postOrderVisit(n, [&](const NodeRef& node) {
        found = found || isShuffle(node.as<CallNode>()) ||
                (node.as<EvaluateNode>() && isStorageSync(Stmt(node.as<EvaluateNode>())));
    });
    return found;
}

bool hasShuffle(const Expr& e) {
    bool found = false;
    postOrderVisit(e,
                   [&](const NodeRef& node) { found = found || isShuffle(node.as<CallNode>()); });
    return found;
}

/// The product of `extents`, folded where constant.
Expr productOf(const std::vector<Expr>& extents) {
    Expr product = makeConst(DataType::int32(), int64_t(1));
    for (const Expr& e : extents)
        product = product * cast(DataType::int32(), e);
    return product;
}

/// Adds `offset` to every index of `buffer` (one copy of it among several); refuses any other
/// use of the buffer (a call that takes its address).
class RebaseBuffer : public IRMutator {
public:
    RebaseBuffer(Var buffer, Expr offset)
        : m_buffer(std::move(buffer)), m_offset(std::move(offset)) {}

protected:
    using IRMutator::visit;

    /// `index + offset`; a ramp keeps its form with the offset in its base, so that a
    /// contiguous vector access stays one (not a gather of base + broadcast).
    Expr shifted(const Expr& index) {
        if (const auto* ramp = index.as<RampNode>())
            return RampNode::make(ramp->base + m_offset, ramp->stride, ramp->lanes);
        const int lanes = index.type().lanes();
        return index + (lanes > 1 ? BroadcastNode::make(m_offset, lanes) : m_offset);
    }
    Expr visit(const LoadNode* op) override {
        if (!op->bufferVar.same_as(m_buffer))
            return IRMutator::visit(op);
        Expr predicate = op->predicate.defined() ? visitExpr(op->predicate) : op->predicate;
        return LoadNode::make(op->type, op->bufferVar, shifted(visitExpr(op->index)), predicate);
    }
    Stmt visit(const StoreNode* op) override {
        if (!op->bufferVar.same_as(m_buffer))
            return IRMutator::visit(op);
        Expr predicate = op->predicate.defined() ? visitExpr(op->predicate) : op->predicate;
        return StoreNode::make(op->bufferVar, visitExpr(op->value), shifted(visitExpr(op->index)),
                               predicate);
    }
    Expr visit(const VarNode* op) override {
        if (Var(op).same_as(m_buffer))
            throw Refusal{"local buffer '" + m_buffer.name() +
                          "' lives across a barrier and is used other than by loads and stores"};
        return IRMutator::visit(op);
    }

private:
    Var m_buffer;
    Expr m_offset;
};

/// One kernel as a block loop (GpuOnCpu.h).
class KernelRewriter {
public:
    KernelRewriter(const DeviceKernel& kernel, GpuOnCpu& stats)
        : m_kernel(kernel), m_stats(stats) {}

    Stmt rewrite() {
        Stmt body = canonicalThreadVars(m_kernel.body);
        collectScopes(body);
        linearThreadIndex();
        std::vector<Stmt> shared;
        body = hoistShared(body, shared);
        body = block(body);
        for (auto it = shared.rbegin(); it != shared.rend(); ++it) {
            const auto* alloc = it->as<AllocateNode>();
            body = AllocateNode::make(alloc->bufferVar, alloc->type, alloc->extents, makeBool(true),
                                      body);
        }
        return blockLoop(body);
    }

private:
    /// Every variable bound to a thread axis becomes the one variable of its axis (a kernel has
    /// one per stage that binds the axis), as CUDA's builtins are one per axis.
    Stmt canonicalThreadVars(const Stmt& body) {
        VarMap<Expr> map;
        postOrderVisit(body, [&](const NodeRef& node) {
            const auto* a = node.as<AttrStmtNode>();
            const auto* iv =
                a && a->key == attr::kThreadExtent ? a->node.as<IterVarNode>() : nullptr;
            if (!iv)
                return;
            const int axis = threadTagIndex(iv->threadTag);
            if (axis < 0)
                throw Refusal{"it binds '" + iv->threadTag + "', which is not a GPU thread axis"};
            Var& canonical = m_axis[size_t(axis)];
            if (!canonical.defined())
                canonical = Var(iv->threadTag, iv->var.type());
            if (canonical.type() != iv->var.type())
                throw Refusal{"'" + iv->threadTag + "' is bound as " + canonical.type().toString() +
                              " and as " + iv->var.type().toString()};
            map[iv->var] = canonical;
        });
        return substitute(body, map);
    }

    void collectScopes(const Stmt& body) {
        postOrderVisit(body, [&](const NodeRef& node) {
            const auto* a = node.as<AttrStmtNode>();
            const auto* scope =
                a && a->key == attr::kStorageScope ? a->value.as<StringImmNode>() : nullptr;
            const auto* var = scope ? a->node.as<VarNode>() : nullptr;
            if (var)
                m_scopes[Var(var)] = scope->value;
        });
    }

    /// `threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)` over the bound
    /// axes, and the number of threads of a block.
    void linearThreadIndex() {
        m_threads = makeConst(DataType::int32(), int64_t(1));
        m_tid = makeConst(DataType::int32(), int64_t(0));
        for (int i = 2; i >= 0; --i) {
            const Var& v = m_axis[size_t(3 + i)];
            Expr extent = cast(DataType::int32(), m_kernel.blockDim[size_t(i)]);
            m_threads = m_threads * extent;
            m_tid = m_tid * extent +
                    (v.defined() ? cast(DataType::int32(), v) : makeZero(DataType::int32()));
        }
    }

    /// The storage scope of an allocation inside the kernel (TVM's default, "local", where no
    /// attribute says), and its rank.
    std::string scopeOf(const Var& buffer) const {
        auto it = m_scopes.find(buffer);
        return it == m_scopes.end() ? "local" : it->second;
    }
    StorageRank rankOf(const Var& buffer) const {
        if (std::optional<StorageScope> scope = StorageScope::parse(scopeOf(buffer)))
            return scope->rank;
        throw Refusal{"buffer '" + buffer.name() + "' has storage scope '" + scopeOf(buffer) +
                      "', which no GPU memory is"};
    }

    /// Moves every shared allocation out to the block (CUDA's `__shared__` arrays are one per
    /// block wherever they are declared), refusing global and variable-size ones.
    Stmt hoistShared(const Stmt& body, std::vector<Stmt>& shared) {
        class Hoist : public IRMutator {
        public:
            Hoist(const KernelRewriter& k, std::vector<Stmt>& out) : m_k(k), m_out(out) {}

        protected:
            using IRMutator::visit;
            Stmt visit(const AllocateNode* op) override {
                const StorageRank rank = m_k.rankOf(op->bufferVar);
                if (rank >= StorageRank::Warp) // warp, local and wmma: per thread or warp
                    return IRMutator::visit(op);
                if (rank == StorageRank::Global)
                    throw Refusal{"it allocates '" + op->bufferVar.name() + "' in " +
                                  m_k.scopeOf(op->bufferVar) +
                                  " memory, which is shared by every block"};
                for (const Expr& extent : op->extents)
                    for (const Var& v : usedVars(extent))
                        if (!m_k.m_kernel.findParam(v))
                            return IRMutator::visit(op); // sized in the kernel: stays where it is
                m_out.emplace_back(op);
                return visitStmt(op->body);
            }

        private:
            const KernelRewriter& m_k;
            std::vector<Stmt>& m_out;
        };
        return Hoist(*this, shared).visitStmt(body);
    }

    bool isThreadVar(const VarNode* v) const {
        for (int i = 3; i < 6; ++i)
            if (m_axis[size_t(i)].get() == v)
                return true;
        return false;
    }
    /// Whether `e` is the same for every thread of a block.
    bool uniform(const Expr& e) const {
        return !usesVar(e, [&](const VarNode* v) { return isThreadVar(v); });
    }
    void requireUniform(const Expr& e, const char* what) const {
        if (!uniform(e))
            throw Refusal{std::string("a barrier under ") + what +
                          " that differs between the threads of a block (" + toString(e) + ")"};
    }

    /// The axis of a thread_extent attribute.
    int axisOf(const AttrStmtNode* op) const {
        return threadTagIndex(op->node.as<IterVarNode>()->threadTag);
    }
    bool isLaunchExtent(const AttrStmtNode* op) const {
        const Expr& launch = m_kernel.launchExtent(axisOf(op));
        std::optional<int64_t> a = asConstInt(op->value), b = asConstInt(launch);
        return (a && b && *a == *b) || structuralEqual(op->value, launch);
    }

    /// `s`, which has no barrier, run by every thread of the block: loops over threadIdx.z, y
    /// and x around it, thread_extent attributes smaller than the launch as guards.
    Stmt threadLoops(const Stmt& s) {
        class Guards : public IRMutator {
        public:
            explicit Guards(const KernelRewriter& k) : m_k(k) {}

        protected:
            using IRMutator::visit;
            Stmt visit(const AllocateNode* op) override {
                // One copy per thread would hide what threads exchange in it (the reference
                // interpreter keeps one per block).
                if (m_k.rankOf(op->bufferVar) == StorageRank::Shared)
                    throw Refusal{"shared buffer '" + op->bufferVar.name() +
                                  "' is sized inside the kernel and no barrier follows it"};
                return IRMutator::visit(op);
            }
            Stmt visit(const AttrStmtNode* op) override {
                if (op->key != attr::kThreadExtent)
                    return IRMutator::visit(op);
                Stmt body = visitStmt(op->body);
                if (m_k.isLaunchExtent(op))
                    return body;
                const Var& axis = m_k.m_axis[size_t(m_k.axisOf(op))];
                return IfThenElseNode::make(axis < cast(axis.type(), op->value), body);
            }

        private:
            const KernelRewriter& m_k;
        };
        Stmt body = Guards(*this).visitStmt(s);
        for (int i = 0; i < 3; ++i) {
            const Var& v = m_axis[size_t(3 + i)];
            if (v.defined())
                body = ForNode::make(v, makeZero(v.type()),
                                     cast(v.type(), m_kernel.blockDim[size_t(i)]), ForKind::Serial,
                                     body);
        }
        return body;
    }

    /// `s` run once per block: thread loops around each stretch without a meeting.
    Stmt block(const Stmt& s) { return hasMeeting(s) ? blockWithMeeting(s) : threadLoops(s); }

    /// block() of a statement known to hold a barrier or shuffle.
    Stmt blockWithMeeting(const Stmt& s) {
        if (const auto* seq = s.as<SeqNode>())
            return blockSeq(seq);
        if (const auto* e = s.as<EvaluateNode>(); e && isStorageSync(s)) {
            barrier(e);
            return EvaluateNode::make(makeZero(DataType::int32()));
        }
        if (const auto* op = s.as<ForNode>()) {
            requireUniform(op->min, "a loop start");
            requireUniform(op->extent, "a loop extent");
            m_blockLoops.insert(op->loopVar);
            Stmt body = block(op->body);
            m_blockLoops.erase(op->loopVar);
            return ForNode::make(op->loopVar, op->min, op->extent, ForKind::Serial, body);
        }
        if (const auto* op = s.as<IfThenElseNode>()) {
            requireUniform(op->condition, "a condition");
            return IfThenElseNode::make(op->condition, block(op->thenCase),
                                        op->elseCase.defined() ? block(op->elseCase) : Stmt());
        }
        if (const auto* op = s.as<AssertStmtNode>()) {
            requireUniform(op->condition, "an assert");
            return AssertStmtNode::make(op->condition, op->message, block(op->body));
        }
        if (const auto* op = s.as<LetStmtNode>())
            return blockLet(op);
        if (const auto* op = s.as<AttrStmtNode>()) {
            if (op->key != attr::kThreadExtent)
                return AttrStmtNode::make(op->node, op->key, op->value, block(op->body));
            if (!isLaunchExtent(op))
                throw Refusal{"a barrier under a thread extent smaller than the launch's (" +
                              op->node.as<IterVarNode>()->threadTag + " < " + toString(op->value) +
                              ")"};
            return block(op->body);
        }
        if (const auto* op = s.as<ProducerConsumerNode>())
            return ProducerConsumerNode::make(op->op, op->isProducer, block(op->body));
        if (const auto* op = s.as<AllocateNode>()) {
            if (rankOf(op->bufferVar) != StorageRank::Shared)
                return blockAllocate(op);
            // Sized per block (a let of the block index): one size per block, as the
            // interpreter takes it; sized by a loop inside the kernel: no one size at all.
            for (const Expr& extent : op->extents)
                for (const Var& v : usedVars(extent))
                    if (m_blockLoops.count(v))
                        throw Refusal{"the size of shared buffer '" + op->bufferVar.name() +
                                      "' changes with loop '" + v.name() +
                                      "' (shared memory has one size in a block)"};
            return AllocateNode::make(op->bufferVar, op->type, op->extents, op->condition,
                                      block(op->body));
        }
        if (const auto* op = s.as<StoreNode>())
            return shuffleStore(op);
        throw Refusal{"a barrier or shuffle inside: " + toString(s)};
    }

    void barrier(const EvaluateNode* e) {
        const auto* call = e->value.as<CallNode>();
        const auto* scope = call->args.empty() ? nullptr : call->args[0].as<StringImmNode>();
        if (scope && scope->value == "global")
            throw Refusal{"a grid-wide barrier (tvm_storage_sync(\"global\"))"};
        ++m_stats.barriers;
    }

    Stmt blockSeq(const SeqNode* seq) {
        std::vector<Stmt> out, stretch;
        auto endStretch = [&] {
            if (!stretch.empty())
                out.push_back(threadLoops(SeqNode::make(stretch)));
            stretch.clear();
        };
        for (const Stmt& part : seq->seq) {
            if (const auto* e = part.as<EvaluateNode>(); e && isStorageSync(part)) {
                barrier(e);
                endStretch();
            } else if (hasMeeting(part)) {
                endStretch();
                out.push_back(blockWithMeeting(part));
            } else {
                stretch.push_back(part);
            }
        }
        endStretch();
        return SeqNode::make(out);
    }

    /// A let whose body holds a barrier: kept around the block when its value is the same for
    /// every thread, else one value per thread in an array.
    Stmt blockLet(const LetStmtNode* op) {
        if (uniform(op->value))
            return LetStmtNode::make(op->var, op->value, block(op->body));
        const DataType type = op->var.type();
        if (type.lanes() != 1 || type.isHandle())
            throw Refusal{"'" + op->var.name() + "' (" + type.toString() +
                          ") differs per thread and lives across a barrier"};
        Var values(op->var.name() + ".threads", DataType::handle());
        Stmt body =
            substitute(op->body, VarMap<Expr>{{op->var, LoadNode::make(type, values, m_tid)}});
        return AllocateNode::make(
            values, type, {m_threads}, makeBool(true),
            SeqNode::make({threadLoops(StoreNode::make(values, op->value, m_tid)), block(body)}));
    }

    /// A local buffer that lives across a barrier: one copy per thread (per warp for warp
    /// memory), the copies side by side.
    Stmt blockAllocate(const AllocateNode* op) {
        const bool perWarp = rankOf(op->bufferVar) == StorageRank::Warp;
        const Expr warp = makeConst(DataType::int32(), perWarp ? warpGroupWidth(op->bufferVar) : 1);
        const Expr copies = perWarp ? floordiv(m_threads + (warp - 1), warp) : m_threads;
        const Expr copy = perWarp ? floordiv(m_tid, warp) : m_tid;
        const Expr size = productOf(op->extents);
        Stmt body = RebaseBuffer(op->bufferVar, copy * size).visitStmt(op->body);
        return AllocateNode::make(op->bufferVar, op->type, {size * copies}, op->condition,
                                  block(body));
    }

    /// The lanes that share one copy of a warp buffer: threadIdx.x's extent, as TVM's
    /// LowerWarpMemory groups them (which refuses an extent that is not a constant dividing the
    /// warp, 32).
    int64_t warpGroupWidth(const Var& buffer) const {
        std::optional<int64_t> width = asConstInt(m_kernel.blockDim[0]);
        if (!width || *width < 1 || kCudaWarpSize % *width != 0)
            throw Refusal{
                "warp buffer '" + buffer.name() + "' needs a threadIdx.x extent that divides " +
                std::to_string(kCudaWarpSize) + " (got " + toString(m_kernel.blockDim[0]) + ")"};
        return *width;
    }

    /// A store whose value shuffles: every thread offers its value in an exchange buffer, then
    /// reads its source lane's (InterpreterGpu.cpp's rule: lanes in segments of `width`, a
    /// source outside the segment or the block reads the thread's own value).
    Stmt shuffleStore(const StoreNode* op) {
        if (op->value.type().lanes() != 1 || hasShuffle(op->index) ||
            (op->predicate.defined() && hasShuffle(op->predicate)))
            throw Refusal{"a shuffle the rewrite does not take: " + toString(Stmt(op))};
        std::vector<Stmt> offers;
        std::vector<std::pair<Var, DataType>> exchanges;
        std::unordered_map<const CallNode*, Expr> received;
        postOrderVisit(op->value, [&](const NodeRef& node) {
            const auto* call = node.as<CallNode>();
            if (!isShuffle(call) || received.count(call))
                return;
            if (call->args.size() != 5 || hasShuffle(call->args[1]) || hasShuffle(call->args[2]) ||
                hasShuffle(call->args[3]))
                throw Refusal{"a nested or malformed shuffle: " + toString(Expr(call))};
            // The interpreter's rule: a width of a power of two up to the warp (32).
            std::optional<int64_t> w = asConstInt(call->args[3]);
            if (!w || *w < 1 || *w > kCudaWarpSize || (*w & (*w - 1)) != 0)
                throw Refusal{"a shuffle whose width is not a power of two of at most " +
                              std::to_string(kCudaWarpSize) + ": " + toString(Expr(call))};
            Var exchange("shfl" + std::to_string(m_stats.shuffles++), DataType::handle());
            exchanges.emplace_back(exchange, call->type);
            offers.push_back(StoreNode::make(exchange, call->args[1], m_tid));
            const Expr self = m_tid;
            const Expr lane = cast(DataType::int32(), call->args[2]);
            const Expr width = cast(DataType::int32(), call->args[3]);
            const Expr warp = makeConst(DataType::int32(), int64_t(kCudaWarpSize));
            const Expr segment = self - floormod(floormod(self, warp), width);
            const Expr source = call->name == "tvm_warp_shuffle_down"
                                    ? self + lane
                                    : segment + floormod(lane, width);
            const Expr inSegment =
                source >= segment && source < segment + width && source < m_threads;
            received[call] = LoadNode::make(call->type, exchange, select(inSegment, source, self));
        });
        class Receive : public IRMutator {
        public:
            explicit Receive(const std::unordered_map<const CallNode*, Expr>& r) : m_r(r) {}

        protected:
            using IRMutator::visit;
            Expr visit(const CallNode* call) override {
                auto it = m_r.find(call);
                return it != m_r.end() ? it->second : IRMutator::visit(call);
            }

        private:
            const std::unordered_map<const CallNode*, Expr>& m_r;
        };
        const Expr value = Receive(received).visitExpr(op->value);
        Stmt body = SeqNode::make(
            {threadLoops(SeqNode::make(offers)),
             threadLoops(StoreNode::make(op->bufferVar, value, op->index, op->predicate))});
        for (auto it = exchanges.rbegin(); it != exchanges.rend(); ++it)
            body = AllocateNode::make(it->first, it->second, {m_threads}, makeBool(true), body);
        return body;
    }

    /// The block loop: one parallel loop over the blocks, their indices unpacked x first.
    Stmt blockLoop(const Stmt& body) {
        std::vector<int> axes;
        for (int i = 0; i < 3; ++i)
            if (m_axis[size_t(i)].defined())
                axes.push_back(i);
        if (axes.empty())
            return body;
        if (axes.size() == 1) {
            const Var& v = m_axis[size_t(axes[0])];
            return ForNode::make(v, makeZero(v.type()),
                                 cast(v.type(), m_kernel.gridDim[size_t(axes[0])]),
                                 ForKind::Parallel, body);
        }
        Var linear("blockIdx", DataType::int32());
        std::vector<std::pair<Var, Expr>> lets;
        Expr stride = makeConst(DataType::int32(), int64_t(1));
        for (size_t k = 0; k < axes.size(); ++k) {
            const Var& v = m_axis[size_t(axes[k])];
            const Expr extent = cast(DataType::int32(), m_kernel.gridDim[size_t(axes[k])]);
            Expr index = floordiv(linear, stride);
            if (k + 1 < axes.size())
                index = floormod(index, extent);
            lets.emplace_back(v, cast(v.type(), index));
            stride = stride * extent;
        }
        Stmt inner = body;
        for (auto it = lets.rbegin(); it != lets.rend(); ++it)
            inner = LetStmtNode::make(it->first, it->second, inner);
        return ForNode::make(linear, makeZero(DataType::int32()), stride, ForKind::Parallel, inner);
    }

    const DeviceKernel& m_kernel;
    GpuOnCpu& m_stats;
    std::array<Var, 6> m_axis; ///< kThreadTags order
    VarMap<std::string> m_scopes;
    VarSet m_blockLoops; ///< the loops around the statement block() is rewriting
    Expr m_threads;
    Expr m_tid;
};

/// Each launch in the host code replaced by its kernel's CPU statement.
class ReplaceLaunches : public IRMutator {
public:
    explicit ReplaceLaunches(const std::unordered_map<std::string, Stmt>& cpu) : m_cpu(cpu) {}

protected:
    using IRMutator::visit;
    Stmt visit(const EvaluateNode* op) override {
        const auto* call = op->value.as<CallNode>();
        const auto* name = call && call->isIntrinsic(kCallPackedIntrinsic) && !call->args.empty()
                               ? call->args[0].as<StringImmNode>()
                               : nullptr;
        auto it = name ? m_cpu.find(name->value) : m_cpu.end();
        return it != m_cpu.end() ? it->second : IRMutator::visit(op);
    }

private:
    const std::unordered_map<std::string, Stmt>& m_cpu;
};

/// What the CPU code generator takes of what a GPU compiler took: long unrolls and wide vectors
/// as serial loops, the warp's active mask as all lanes.
class CpuLimits : public IRMutator {
public:
    explicit CpuLimits(const GpuOnCpuOptions& options) : m_options(options) {}

protected:
    using IRMutator::visit;
    Stmt visit(const ForNode* op) override {
        Stmt s = IRMutator::visit(op);
        const auto* loop = s.as<ForNode>();
        std::optional<int64_t> extent = asConstInt(loop->extent);
        const bool tooLong =
            (loop->kind == ForKind::Unrolled && (!extent || *extent > m_options.maxUnroll)) ||
            (loop->kind == ForKind::Vectorized && (!extent || *extent > m_options.maxVectorLanes));
        if (!tooLong)
            return s;
        return ForNode::make(loop->loopVar, loop->min, loop->extent, ForKind::Serial, loop->body);
    }
    Expr visit(const CallNode* op) override {
        if (op->isIntrinsic("tvm_warp_activemask"))
            return makeConst(op->type, int64_t(0xFFFFFFFFll));
        return IRMutator::visit(op);
    }

private:
    const GpuOnCpuOptions& m_options;
};

} // namespace

GpuOnCpu lowerGpuForCpu(const Stmt& device, const std::string& functionName,
                        const std::vector<Var>& arguments, const GpuOnCpuOptions& options) {
    GpuOnCpu result;
    HostDeviceSplit split;
    try {
        split = splitHostDevice(device, functionName, arguments);
    } catch (const UserError& e) {
        result.refusal = e.what();
        return result;
    }
    std::unordered_map<std::string, Stmt> cpu;
    for (const DeviceKernel& kernel : split.kernels) {
        try {
            cpu[kernel.name] = KernelRewriter(kernel, result).rewrite();
            ++result.kernels;
        } catch (const Refusal& r) {
            result.refusal = "kernel '" + kernel.name + "': " + r.why;
            return result;
        }
    }
    result.body = CpuLimits(options).visitStmt(ReplaceLaunches(cpu).visitStmt(split.host));
    return result;
}

} // namespace bs

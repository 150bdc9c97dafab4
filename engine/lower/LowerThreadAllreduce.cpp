#include "lower/LowerThreadAllreduce.h"

#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/ThreadTag.h"
#include "lower/BufferStmts.h"
#include "lower/ThreadSync.h"
#include "support/Check.h"

#include <algorithm>

namespace bs {

namespace {

constexpr DataType kUInt32{DataType::Code::UInt, 32};

Expr index(int64_t v) { return makeConst(DataType::int32(), v); }

/// A thread axis around the reduction: its variable and constant extent.
struct ThreadAxis {
    const IterVarNode* iv;
    int64_t extent;
};

Expr shuffle(const char* name, const Var& mask, Expr value, int64_t laneArg, int64_t width) {
    DataType type = value.type();
    return CallNode::make(type, name,
                          {LoadNode::make(kUInt32, mask, Expr(0)), std::move(value), index(laneArg),
                           index(width), Expr(kCudaWarpSize)},
                          CallKind::Intrinsic);
}

class AllreduceLowering : public IRMutator {
public:
    explicit AllreduceLowering(LaunchExtents launch) : m_launch(std::move(launch)) {}

protected:
    using IRMutator::visit;

    Stmt visit(const AttrStmtNode* op) override {
        if (op->key == attr::kThreadExtent) {
            const auto* iv = op->node.as<IterVarNode>();
            auto extent = asConstInt(op->value);
            if (iv && threadIdxDim(iv->threadTag) >= 0) {
                m_threads.push_back(ThreadAxis{iv, extent.value_or(-1)});
                Stmt out = IRMutator::visit(op);
                m_threads.pop_back();
                return out;
            }
            return IRMutator::visit(op);
        }
        if (op->key == attr::kReduceScope) {
            const auto* eval = op->body.as<EvaluateNode>();
            const auto* call = eval ? eval->value.as<CallNode>() : nullptr;
            const auto* reducer = op->node.as<CommReducerNode>();
            if (call && reducer && call->isIntrinsic("tvm_thread_allreduce"))
                return lower(CommReducer(reducer), call);
        }
        return IRMutator::visit(op);
    }

private:
    /// The axes named by `vars` (reduce) or the other thread axes around the call (group),
    /// innermost dimension first, with the linear index they make.
    struct Axes {
        std::vector<ThreadAxis> axes;
        Expr index = Expr(0);
        int64_t extent = 1;
    };

    Axes axesOf(const std::vector<Expr>& vars, bool reduce, const CallNode* call) const {
        Axes out;
        for (const ThreadAxis& t : m_threads) {
            bool named = std::any_of(vars.begin(), vars.end(),
                                     [&](const Expr& v) { return v.get() == t.iv->var.get(); });
            if (named == reduce)
                out.axes.push_back(t);
        }
        std::sort(out.axes.begin(), out.axes.end(), [](const ThreadAxis& a, const ThreadAxis& b) {
            return threadIdxDim(a.iv->threadTag) < threadIdxDim(b.iv->threadTag);
        });
        for (const ThreadAxis& t : out.axes) {
            if (t.extent < 1)
                throw UserError("the cross-thread reduction " + toString(Expr(call)) +
                                " runs over " + t.iv->threadTag +
                                ", whose extent is not a constant: its device "
                                "code needs a constant number of threads");
            out.index = out.index + Expr(t.iv->var) * index(out.extent);
            out.extent *= t.extent;
        }
        return out;
    }

    /// The reduction must see every thread of its block exactly once: each axis around it has
    /// the launch's extent, and the launch has no thread axis the nest does not enclose.
    void checkWholeBlock(const CallNode* call) const {
        for (const auto& [tag, extent] : m_launch) {
            if (threadIdxDim(tag) < 0)
                continue; // blocks and virtual threads: not the block's threads
            auto it = std::find_if(m_threads.begin(), m_threads.end(),
                                   [&](const ThreadAxis& t) { return t.iv->threadTag == tag; });
            std::string what = "the cross-thread reduction " + toString(Expr(call));
            if (it == m_threads.end())
                throw UserError(what + " is outside the kernel's " + tag + " nest (extent " +
                                std::to_string(extent) +
                                "): those threads would all reduce into "
                                "the same slots; bind " +
                                tag + " around the reduction or not at all");
            if (it->extent != extent)
                throw UserError(what + " runs over " + std::to_string(it->extent) + " of the " +
                                std::to_string(extent) + " threads the kernel launches along " +
                                tag +
                                ": its barriers and shuffles need the whole block; give the "
                                "loops bound to " +
                                tag + " the same extent");
        }
    }

    Stmt lower(const CommReducer& reducer, const CallNode* call) {
        const auto size = size_t(asConstInt(call->args.at(0)).value_or(0));
        BS_CHECK(size >= 1 && call->args.size() >= 2 * size + 2)
            << "malformed tvm_thread_allreduce";
        std::vector<Expr> values(call->args.begin() + 1, call->args.begin() + 1 + long(size));
        Expr condition = visitExpr(call->args[size + 1]);
        for (Expr& v : values)
            v = visitExpr(v);
        std::vector<Var> results;
        for (size_t i = 0; i < size; ++i) {
            const auto* v = call->args[size + 2 + i].as<VarNode>();
            BS_CHECK(v) << "tvm_thread_allreduce: result buffer expected";
            results.emplace_back(v);
        }
        std::vector<Expr> reduceVars(call->args.begin() + 2 + 2 * long(size), call->args.end());
        checkWholeBlock(call);
        Axes reduce = axesOf(reduceVars, true, call);
        Axes group = axesOf(reduceVars, false, call);
        std::vector<DataType> types;
        for (const Expr& v : values)
            types.push_back(v.type());
        if (reduce.extent == 1) {
            std::vector<Stmt> copies;
            for (size_t i = 0; i < size; ++i)
                copies.push_back(StoreNode::make(
                    results[i], select(condition, values[i], reducer->identityElement[i]),
                    Expr(0)));
            return SeqNode::make(copies);
        }
        if (useWarpShuffle(reduce, types))
            return warpReduce(reducer, values, condition, results, reduce.extent, types);
        return sharedReduce(reducer, values, condition, results, reduce, group, types);
    }

    static bool useWarpShuffle(const Axes& reduce, const std::vector<DataType>& types) {
        const int64_t n = reduce.extent;
        if (reduce.axes.size() != 1 || threadIdxDim(reduce.axes[0].iv->threadTag) != 0)
            return false;
        if (n > kCudaWarpSize || (n & (n - 1)) != 0)
            return false;
        return std::all_of(types.begin(), types.end(), [](DataType t) {
            return t.isScalar() && !t.isBool() && (t.bits() == 32 || t.bits() == 64);
        });
    }

    /// `buffer[index] = condition ? value : identity`, as a branch so that a thread out of
    /// range never evaluates `value` (it may read past the end).
    static Stmt storeContribution(const Var& buffer, const Expr& index, const Expr& condition,
                                  const Expr& value, const Expr& identity) {
        if (isOne(condition))
            return StoreNode::make(buffer, value, index);
        return IfThenElseNode::make(condition, StoreNode::make(buffer, value, index),
                                    StoreNode::make(buffer, identity, index));
    }

    Stmt warpReduce(const CommReducer& reducer, const std::vector<Expr>& values,
                    const Expr& condition, const std::vector<Var>& results, int64_t extent,
                    const std::vector<DataType>& types) {
        const size_t size = values.size();
        Var mask("mask", DataType::handle());
        std::vector<Var> bufs, shuffled;
        for (size_t i = 0; i < size; ++i) {
            bufs.emplace_back("red_buf" + std::to_string(i), DataType::handle());
            shuffled.emplace_back("t" + std::to_string(i), DataType::handle());
        }
        auto loads = [&](const std::vector<Var>& from) { return loadsAt(from, types, Expr(0)); };
        std::vector<Stmt> seq;
        seq.push_back(StoreNode::make(
            mask, CallNode::make(kUInt32, "tvm_warp_activemask", {}, CallKind::Intrinsic),
            Expr(0)));
        for (size_t i = 0; i < size; ++i)
            seq.push_back(storeContribution(bufs[i], Expr(0), condition, values[i],
                                            reducer->identityElement[i]));
        for (int64_t offset = extent / 2; offset > 0; offset /= 2) {
            std::vector<Expr> mine = loads(bufs);
            for (size_t i = 0; i < size; ++i)
                seq.push_back(StoreNode::make(
                    shuffled[i], shuffle("tvm_warp_shuffle_down", mask, mine[i], offset, extent),
                    Expr(0)));
            std::vector<Stmt> folded =
                storesAt(bufs, reducer.combine(mine, loads(shuffled)), Expr(0));
            seq.insert(seq.end(), folded.begin(), folded.end());
        }
        std::vector<Expr> mine = loads(bufs);
        for (size_t i = 0; i < size; ++i)
            seq.push_back(StoreNode::make(
                bufs[i], shuffle("tvm_warp_shuffle", mask, mine[i], 0, extent), Expr(0)));
        std::vector<Stmt> copies = storesAt(results, loads(bufs), Expr(0));
        seq.insert(seq.end(), copies.begin(), copies.end());
        Stmt body = SeqNode::make(seq);
        for (size_t i = size; i-- > 0;) {
            body = allocateInScope(shuffled[i], types[i], 1, "local", body);
            body = allocateInScope(bufs[i], types[i], 1, "local", body);
        }
        return allocateInScope(mask, kUInt32, 1, "local", body);
    }

    Stmt sharedReduce(const CommReducer& reducer, const std::vector<Expr>& values,
                      const Expr& condition, const std::vector<Var>& results, const Axes& reduce,
                      const Axes& group, const std::vector<DataType>& types) {
        const size_t size = values.size();
        const int64_t extent = reduce.extent;
        std::vector<Var> bufs;
        for (size_t i = 0; i < size; ++i)
            bufs.emplace_back("red_buf" + std::to_string(i), DataType::handle());
        const Expr base = group.index * index(extent);
        const Expr slot = base + reduce.index;
        std::vector<Stmt> seq;
        for (size_t i = 0; i < size; ++i)
            seq.push_back(storeContribution(bufs[i], slot, condition, values[i],
                                            reducer->identityElement[i]));
        seq.push_back(makeStorageSync("shared"));
        // Fold slot + offset into slot for the threads below `limit`, then wait for all.
        auto fold = [&](int64_t offset, int64_t limit) {
            std::vector<Expr> combined = reducer.combine(
                loadsAt(bufs, types, slot), loadsAt(bufs, types, slot + index(offset)));
            seq.push_back(IfThenElseNode::make(reduce.index < index(limit),
                                               SeqNode::make(storesAt(bufs, combined, slot))));
            seq.push_back(makeStorageSync("shared"));
        };
        int64_t align = 1;
        while (align < extent)
            align <<= 1;
        if (align > extent) {
            align >>= 1;
            fold(align, extent - align);
        }
        while (align > 1) {
            align >>= 1;
            fold(align, align);
        }
        std::vector<Stmt> copies = storesAt(results, loadsAt(bufs, types, base), Expr(0));
        seq.insert(seq.end(), copies.begin(), copies.end());
        // Every thread has read its group's result before the buffer is written again.
        seq.push_back(makeStorageSync("shared"));
        Stmt body = SeqNode::make(seq);
        for (size_t i = size; i-- > 0;)
            body = allocateInScope(bufs[i], types[i], group.extent * extent, "shared", body);
        return body;
    }

    LaunchExtents m_launch;
    std::vector<ThreadAxis> m_threads;
};

bool hasAllreduce(const Stmt& s) {
    bool found = false;
    postOrderVisit(s, [&](const NodeRef& node) {
        const auto* call = node.as<CallNode>();
        found = found || (call && call->isIntrinsic("tvm_thread_allreduce"));
    });
    return found;
}

/// Lowers each kernel (outermost thread_extent) with its own launch extents.
class KernelWalker : public IRMutator {
protected:
    using IRMutator::visit;
    Stmt visit(const AttrStmtNode* op) override {
        if (op->key != attr::kThreadExtent)
            return IRMutator::visit(op);
        Stmt kernel(op);
        if (!hasAllreduce(kernel))
            return kernel;
        return AllreduceLowering(launchExtentsOf(kernel)).visitStmt(kernel);
    }
};

} // namespace

Stmt lowerThreadAllreduce(const Stmt& body) {
    if (!hasAllreduce(body))
        return body;
    return KernelWalker().visitStmt(body);
}

} // namespace bs

#include "lower/InjectPrefetch.h"

#include "arith/Analyzer.h"
#include "arith/EvalSet.h"
#include "arith/IntSet.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/OperationNode.h"
#include "ir/Substitute.h"
#include "ir/ThreadBinding.h"

#include <optional>

namespace bs {

namespace {

constexpr int kCacheLineBytes = 64;

Expr expandLets(const Expr& e, const VarMap<Expr>& lets) {
    if (lets.empty())
        return e;
    return substitute(e, [&](const Var& v) -> Expr {
        auto it = lets.find(v);
        return it == lets.end() ? Expr() : expandLets(it->second, lets);
    });
}

/// The cache-line loops over `region` of `tensor` (TVM's StorageFlatten of a Prefetch, with
/// each index in its own dimension).
Stmt prefetchLoops(const Tensor& tensor, const Region& region) {
    const std::vector<Expr>& shape = tensor.shape();
    const int elems = std::max(1, kCacheLineBytes / std::max(1, tensor.dtype().bytes()));
    int block = 1;
    int start = int(region.size()) - 1;
    while (start > 0) {
        auto size = asConstInt(shape[size_t(start)]);
        if (!size || block * *size > elems)
            break;
        block *= int(*size);
        --start;
    }
    const int stride = elems / block;
    std::vector<Var> vars(region.size());
    std::vector<Expr> indices(region.size());
    for (size_t d = 0; d < region.size(); ++d) {
        const Expr& min = region[d].min;
        if (int(d) > start) {
            indices[d] = min;
            continue;
        }
        vars[d] = Var("prefetch." + tensor.op->name + "." + std::to_string(d), DataType::int32());
        indices[d] = int(d) == start ? min + Expr(stride) * vars[d] : min + vars[d];
    }
    Expr address = CallNode::make(DataType::handle(), "address_of",
                                  {ProducerLoadNode::make(tensor, indices)}, CallKind::Intrinsic);
    Stmt stmt = EvaluateNode::make(CallNode::make(
        tensor.dtype(), "prefetch", {address, Expr(0), Expr(3), Expr(1)}, CallKind::Intrinsic));
    for (int d = start; d >= 0; --d) {
        const Var& var = vars[size_t(d)];
        Expr extent = d == start ? floordiv(region[size_t(d)].extent - 1, Expr(stride)) + 1
                                 : region[size_t(d)].extent;
        extent = Analyzer().simplify(extent);
        if (isOne(extent))
            stmt = substitute(stmt, VarMap<Expr>{{var, Expr(0)}});
        else
            stmt = ForNode::make(var, 0, extent, ForKind::Serial, stmt);
    }
    return stmt;
}

class PrefetchInjector : public IRMutator {
protected:
    using IRMutator::visit;

    Stmt visit(const ForNode* op) override {
        m_loops.push_back(op);
        Stmt s = IRMutator::visit(op);
        m_loops.pop_back();
        return s;
    }

    Stmt visit(const LetStmtNode* op) override {
        m_lets[op->var] = op->value;
        Stmt s = IRMutator::visit(op);
        m_lets.erase(op->var);
        return s;
    }

    Stmt visit(const AttrStmtNode* op) override {
        if (op->key != attr::kPrefetchScope)
            return IRMutator::visit(op);
        Stmt body = visitStmt(op->body);
        const auto* opNode = op->node.as<OperationNode>();
        if (!opNode || m_loops.empty())
            return body;
        Tensor tensor = Operation(opNode).output(0);
        std::optional<Region> region = regionRead(op->body, tensor, op->value);
        if (!region)
            return body;
        return SeqNode::make({prefetchLoops(tensor, *region), body});
    }

private:
    /// What the iteration `offset` ahead reads of `tensor` in `body` (TVM's DomainTouched then
    /// EvalSet); nullopt when it reads nothing, computes the tensor, or the region is unbounded.
    std::optional<Region> regionRead(const Stmt& body, const Tensor& tensor,
                                     const Expr& offset) const {
        VarMap<IntSet> dom;
        VarMap<Expr> lets = m_lets;
        std::vector<std::vector<Expr>> reads;
        bool computedInside = false;
        postOrderVisit(body, [&](const NodeRef& n) {
            if (const auto* loop = n.as<ForNode>())
                dom[loop->loopVar] = IntSet::fromMinExtent(loop->min, loop->extent);
            else if (const auto* attr = n.as<AttrStmtNode>(); attr && boundThread(*attr))
                // a thread bound inside the loop: all its values (TVM's DomainTouched)
                dom[boundThread(*attr)->var] = IntSet::fromMinExtent(Expr(0), attr->value);
            else if (const auto* let = n.as<LetStmtNode>())
                lets[let->var] = let->value;
            else if (const auto* load = n.as<ProducerLoadNode>();
                     load && load->tensor.same_as(tensor))
                reads.push_back(load->indices);
            else if (const auto* realize = n.as<ProducerRealizeNode>();
                     realize && realize->tensor.same_as(tensor))
                computedInside = true;
        });
        if (reads.empty() || computedInside)
            return std::nullopt;
        for (const ForNode* loop : m_loops)
            if (loop->kind == ForKind::Vectorized)
                dom[loop->loopVar] = IntSet::fromMinExtent(loop->min, loop->extent);
        // The prefetch loop's variable at the iteration `offset` ahead (substituted, as TVM's
        // single point `i + offset`: a set over `i` bounded by `i` itself would be re-evaluated).
        const ForNode* loop = m_loops.back();
        dom.erase(loop->loopVar);
        VarMap<Expr> ahead{{loop->loopVar, loop->loopVar + offset}};
        Region region;
        for (size_t d = 0; d < tensor.shape().size(); ++d) {
            std::vector<IntSet> sets;
            for (const std::vector<Expr>& indices : reads)
                sets.push_back(evalSet(substitute(expandLets(indices[d], lets), ahead), dom));
            IntSet all = unionSets(sets);
            if (!all.hasLowerBound() || !all.hasUpperBound())
                return std::nullopt;
            region.push_back(all.coverRange(Range()));
        }
        return region;
    }

    std::vector<const ForNode*> m_loops;
    VarMap<Expr> m_lets;
};

} // namespace

Stmt injectPrefetch(const Stmt& stmt) { return PrefetchInjector().visitStmt(stmt); }

} // namespace bs

#include "lower/StorageFlatten.h"

#include "arith/Analyzer.h"
#include "ir/BufferDecl.h"
#include "ir/Equality.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/OperationNode.h"
#include "ir/Printer.h"
#include "ir/StorageScope.h"
#include "ir/Substitute.h"
#include "te/Operation.h"

#include <limits>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace bs {

std::string bufferName(const Tensor& tensor) {
    if (tensor.op->numOutputs() == 1)
        return tensor.name();
    return tensor.name() + ".v" + std::to_string(tensor.valueIndex);
}

std::vector<Expr> alignedStrides(const std::vector<Expr>& extents,
                                 const std::vector<DimAlign>& aligns, Expr* elements) {
    Analyzer analyzer;
    std::vector<Expr> strides(extents.size());
    DataType t = extents.empty() ? DataType::int32() : extents[0].type();
    Expr stride = makeConst(t, int64_t(1));
    for (size_t d = extents.size(); d-- > 0;) {
        if (d < aligns.size() && aligns[d].factor != 0) {
            Expr factor = makeConst(t, int64_t(aligns[d].factor));
            Expr offset = makeConst(t, int64_t(aligns[d].offset));
            stride = analyzer.simplify(
                stride + floormod(factor + offset - floormod(stride, factor), factor));
        }
        strides[d] = stride;
        stride = analyzer.simplify(stride * extents[d]);
    }
    if (elements)
        *elements = stride;
    return strides;
}

std::vector<DimAlign> storageAligns(const Stage& stage) {
    const auto* compute = stage->op.as<ComputeOpNode>();
    std::vector<DimAlign> aligns;
    if (!compute)
        return aligns;
    bool any = false;
    for (const IterVar& axis : compute->axis) {
        DimAlign a;
        if (auto it = stage->iterVarAttrs.find(axis); it != stage->iterVarAttrs.end())
            a = DimAlign{it->second.dimAlignFactor, it->second.dimAlignOffset};
        any = any || a.factor != 0;
        aligns.push_back(a);
    }
    return any ? aligns : std::vector<DimAlign>{};
}

Var FlattenResult::bufferOf(const Tensor& tensor) const {
    for (const auto& [t, var] : buffers) {
        if (t.same_as(tensor))
            return var;
    }
    return Var();
}

namespace {

/// The rank of a thread tag (ir/StorageScope's ThreadScope): blockIdx 0, threadIdx and
/// virtual threads 1; anything else is not a thread scope (-1).
int threadRank(const std::string& tag) {
    return isValidThreadTag(tag) ? ThreadScope::create(tag).rank : -1;
}

/// The flat buffer that stands for a tensor: its data Var and the region it is indexed over
/// (the realize region, or [0, shape) for an argument). A buffer private to virtual threads
/// has one leading dimension per thread, [0, thread extent), indexed by the thread variable.
struct BufferEntry {
    Var data;
    std::vector<Expr> mins;
    std::vector<Expr> extents;
    std::vector<Expr> threadIndices; ///< the thread variables of the leading dimensions
    /// One per dimension when storage_align padded them; empty: row-major over `extents`.
    std::vector<Expr> strides;
    bool external = false;
    std::string scope = "global"; ///< the storage scope of the allocation
};

/// Throws UserError when the buffer of `tensor`, `extents` of constants, holds more elements than
/// its flat index's type reaches: the index (and the size, folded) would wrap, as `65536 x 65536`
/// in int32 folds to an allocation of 0. TVM's IntImm refuses the folded literal likewise.
void requireIndexable(const Tensor& tensor, const std::vector<Expr>& extents) {
    if (extents.empty())
        return;
    // The flat index takes the widest extent's type.
    DataType type = extents[0].type();
    for (const Expr& extent : extents) {
        if (!extent.type().isIntegral())
            return;
        if (extent.type().bits() > type.bits())
            type = extent.type();
    }
    if (type.bits() >= 64)
        return;
    const int64_t limit = (int64_t(1) << (type.bits() - (type.isInt() ? 1 : 0))) - 1;
    int64_t elements = 1;
    std::string dims;
    for (const Expr& extent : extents) {
        const auto* c = extent.as<IntImmNode>();
        if (!c || c->value <= 0)
            return;
        if (elements > std::numeric_limits<int64_t>::max() / c->value)
            elements = std::numeric_limits<int64_t>::max();
        else
            elements *= c->value;
        dims += (dims.empty() ? "" : " x ") + std::to_string(c->value);
    }
    if (elements <= limit)
        return;
    throw UserError(Diagnostic{"'" + tensor.name() + "' has " + std::to_string(elements) +
                                   " elements (" + dims + "), more than its " + type.toString() +
                                   " index reaches: give its shape in int64 "
                                   "(tvm.tir.const(" +
                                   std::to_string(extents[0].as<IntImmNode>()->value) +
                                   ", \"int64\"))",
                               tensor.op->location});
}

/// `index - min`, folded as TVM's operators fold it, plus `x - x` -> 0 so that a point region
/// such as `[blockIdx.x, 1]` indexed at `blockIdx.x` contributes nothing (seed 002, Ex. 6:
/// `B(blockIdx.x, threadIdx.x)` flattens to `B[threadIdx.x]`).
Expr relativeIndex(const Expr& index, const Expr& min) {
    if (structuralEqual(index, min))
        return makeZero(index.type());
    return index - min;
}

/// Row-major offset over the entry's region (TVM's BufferDeclNode::ElemOffset).
Expr flatIndex(const BufferEntry& entry, const std::vector<Expr>& tensorIndices) {
    std::vector<Expr> indices = entry.threadIndices;
    indices.insert(indices.end(), tensorIndices.begin(), tensorIndices.end());
    BS_CHECK(indices.size() == entry.extents.size()) << "flat index of a wrong-rank access";
    if (indices.empty())
        return Expr(0);
    if (!entry.strides.empty()) {
        Expr offset;
        for (size_t k = 0; k < indices.size(); ++k) {
            Expr term = relativeIndex(indices[k], entry.mins[k]) * entry.strides[k];
            offset = offset.defined() ? offset + term : term;
        }
        return offset;
    }
    Expr offset = relativeIndex(indices[0], entry.mins[0]);
    for (size_t k = 1; k < indices.size(); ++k)
        offset = offset * entry.extents[k] + relativeIndex(indices[k], entry.mins[k]);
    return offset;
}

/// The extent of every virtual thread whose `virtual_thread` attr lies in `body`, by variable.
VarMap<Expr> virtualThreadsIn(const Stmt& body) {
    VarMap<Expr> threads;
    postOrderVisit(body, [&](const NodeRef& node) {
        const auto* attr = node.as<AttrStmtNode>();
        const auto* iv =
            attr && attr->key == attr::kVirtualThread ? attr->node.as<IterVarNode>() : nullptr;
        if (iv)
            threads.emplace(iv->var, attr->value);
    });
    return threads;
}

/// Puts `to` wherever `from` is used: as a value, or as the buffer of a load or store (an
/// extern stage's body reads and writes its buffers' data handles).
class BufferVarRenamer : public IRMutator {
public:
    BufferVarRenamer(Var from, Var to) : m_from(std::move(from)), m_to(std::move(to)) {}

protected:
    using IRMutator::visit;
    Expr visit(const VarNode* op) override {
        return op == m_from.get() ? Expr(m_to) : IRMutator::visit(op);
    }
    Expr visit(const LoadNode* op) override {
        Expr e = IRMutator::visit(op);
        const auto* load = e.as<LoadNode>();
        if (load->bufferVar.same_as(m_from))
            return LoadNode::make(load->type, m_to, load->index, load->predicate);
        return e;
    }
    Stmt visit(const StoreNode* op) override {
        Stmt s = IRMutator::visit(op);
        const auto* store = s.as<StoreNode>();
        if (store->bufferVar.same_as(m_from))
            return StoreNode::make(m_to, store->value, store->index, store->predicate);
        return s;
    }

private:
    Var m_from;
    Var m_to;
};

class StorageFlattener : public IRMutator {
public:
    StorageFlattener(const std::vector<Tensor>& args, BoundSteps* steps) : m_steps(steps) {
        for (const Tensor& t : args) {
            if (m_buffers.count(t))
                continue;
            BufferEntry entry;
            entry.data = Var(bufferName(t), DataType::handle());
            entry.extents = t.shape();
            requireIndexable(t, entry.extents);
            entry.mins.assign(entry.extents.size(), Expr(0));
            entry.external = true;
            m_buffers.emplace(t, entry);
            m_result.buffers.emplace_back(t, entry.data);
        }
    }

    FlattenResult run(const Stmt& stmt) {
        // The program's virtual threads, found once: a realize looks for them in its body only
        // when its region names one (a walk per realize made a deep nest quadratic).
        for (const auto& [var, extent] : virtualThreadsIn(stmt))
            m_virtualThreadVars.insert(var.get());
        m_result.body = visitStmt(stmt);
        return std::move(m_result);
    }

protected:
    using IRMutator::visit;

    Stmt visit(const AttrStmtNode* op) override {
        if (op->key == attr::kRealizeScope) {
            // The scope moves to the realize of each output of the op; the attr itself goes.
            if (const auto* opNode = op->node.as<OperationNode>()) {
                const auto* scope = op->value.as<StringImmNode>();
                m_realizeScopes[opNode] = scope ? scope->value : "";
            }
            return visitStmt(op->body);
        }
        if (op->key == attr::kThreadExtent) {
            const auto* iv = op->node.as<IterVarNode>();
            m_threadRanks.push_back(iv ? threadRank(iv->threadTag) : -1);
            Stmt result = IRMutator::visit(op);
            m_threadRanks.pop_back();
            return result;
        }
        if (op->key == attr::kBufferBindScope)
            return bindBuffer(op);
        if (op->key == attr::kDoubleBufferScope) {
            // The mark moves from the op to its buffers (TVM's StorageFlatten).
            const auto* opNode = op->node.as<OperationNode>();
            Stmt body = visitStmt(op->body);
            if (!opNode)
                return AttrStmtNode::make(op->node, op->key, op->value, body);
            Operation self(opNode);
            for (int i = self->numOutputs(); i-- > 0;)
                body = AttrStmtNode::make(lookup(self.output(i)).data, op->key, op->value, body);
            return body;
        }
        if (op->key == attr::kBufferDimAlign) {
            const auto* tuple = op->value.as<CallNode>();
            const auto* opNode = op->node.as<OperationNode>();
            BS_CHECK(tuple && opNode && tuple->args.size() == 3) << "malformed buffer_dim_align";
            std::vector<DimAlign>& aligns = m_dimAligns[opNode];
            size_t dim = size_t(asConstInt(tuple->args[0]).value_or(0));
            if (aligns.size() <= dim)
                aligns.resize(dim + 1);
            aligns[dim] = DimAlign{int(asConstInt(tuple->args[1]).value_or(0)),
                                   int(asConstInt(tuple->args[2]).value_or(0))};
            return visitStmt(op->body);
        }
        return IRMutator::visit(op);
    }

    Stmt visit(const ProducerRealizeNode* op) override {
        auto found = m_buffers.find(op->tensor);
        if (found != m_buffers.end() && found->second.external)
            return visitStmt(op->body); // an argument's storage is the caller's
        BufferEntry entry;
        entry.data = Var(bufferName(op->tensor), DataType::handle());
        addPrivateThreadDimensions(op, &entry);
        for (const Range& r : op->bounds) {
            entry.mins.push_back(r.min);
            entry.extents.push_back(r.extent);
        }
        requireIndexable(op->tensor, entry.extents);
        Expr size = Expr(1);
        if (auto aligned = m_dimAligns.find(op->tensor.op.get()); aligned != m_dimAligns.end()) {
            // The private thread dimensions lead and are not aligned.
            std::vector<DimAlign> aligns(entry.threadIndices.size());
            aligns.insert(aligns.end(), aligned->second.begin(), aligned->second.end());
            entry.strides = alignedStrides(entry.extents, aligns, &size);
        } else {
            for (const Expr& extent : entry.extents)
                size = size * extent;
        }
        m_result.allocations.emplace_back(op->tensor, entry.data);
        entry.scope = scopeOf(op);
        Stmt body = withEntry(op->tensor, entry, op->body);
        Stmt alloc =
            withStep(AllocateNode::make(entry.data, op->tensor.dtype(), {size}, Expr(), body),
                     allocateStep(op, entry, size));
        return AttrStmtNode::make(entry.data, attr::kStorageScope, StringImmNode::make(scopeOf(op)),
                                  alloc);
    }

    Stmt visit(const ProducerStoreNode* op) override {
        BufferEntry entry = lookup(op->tensor);
        bool changed = false;
        std::vector<Expr> indices = visitExprs(op->indices, &changed);
        Expr value = visitExpr(op->value);
        return StoreNode::make(entry.data, value, flatIndex(entry, indices));
    }

    Expr visit(const ProducerLoadNode* op) override {
        BufferEntry entry = lookup(op->tensor);
        bool changed = false;
        std::vector<Expr> indices = visitExprs(op->indices, &changed);
        return LoadNode::make(op->type, entry.data, flatIndex(entry, indices));
    }

private:
    /// TVM's buffer_bind_scope (StorageFlatten's HandleBufferBindScope) for an extern stage:
    /// the body uses the buffer of the bound tensor in place of the declared buffer's handle.
    /// The tensor is bound whole, so its buffer must start at element 0 of every axis.
    Stmt bindBuffer(const AttrStmtNode* op) {
        if (const auto* buffer = op->node.as<BufferDeclNode>())
            return bindSlice(op, buffer);
        const auto* handle = op->node.as<VarNode>();
        const auto* tuple = op->value.as<CallNode>();
        const auto* load =
            tuple && !tuple->args.empty() ? tuple->args[0].as<ProducerLoadNode>() : nullptr;
        BS_CHECK(handle && load) << "malformed buffer_bind_scope";
        const BufferEntry& entry = lookup(load->tensor);
        Analyzer analyzer;
        const std::vector<Expr>& shape = load->tensor.shape();
        bool whole = entry.threadIndices.empty() && entry.strides.empty() &&
                     entry.extents.size() == shape.size();
        for (size_t d = 0; whole && d < shape.size(); ++d)
            whole = analyzer.canProveEqual(entry.mins[d], makeZero(entry.mins[d].type())) &&
                    analyzer.canProveEqual(entry.extents[d], shape[d]);
        if (!whole) {
            const std::string region = regionOf(entry.mins, entry.extents);
            throw UserError("extern buffer '" + handle->name + "' binds tensor '" +
                            bufferName(load->tensor) + "', whose buffer is not the whole compact " +
                            "tensor (region " + region +
                            (entry.strides.empty() ? "" : ", strides padded by storage_align") +
                            "): an extern stage reads and writes its tensors whole and row-major; "
                            "compute the tensor at the root, without storage_align");
        }
        Stmt body = BufferVarRenamer(Var(handle), entry.data).visitStmt(op->body);
        return visitStmt(body);
    }

    /// TVM's buffer_bind_scope for a tensor intrinsic's buffer (StorageFlatten's
    /// HandleBufferBindScope and ArgBinder::BindBuffer): the buffer is bound to a region of the
    /// tensor's buffer. Its data is that buffer; its variables (element offset, extents,
    /// strides) take the region's values; its constants must equal them. Leading region axes
    /// of extent 1 the buffer does not have are skipped (TVM's fuzzy match).
    Stmt bindSlice(const AttrStmtNode* op, const BufferDeclNode* buffer) {
        const auto* tuple = op->value.as<CallNode>();
        const auto* load =
            tuple && !tuple->args.empty() ? tuple->args[0].as<ProducerLoadNode>() : nullptr;
        BS_CHECK(load && tuple->args.size() == 1 + 2 * load->tensor.ndim())
            << "malformed buffer_bind_scope";
        const BufferEntry& entry = lookup(load->tensor);
        const size_t ndim = load->tensor.ndim();
        std::vector<Expr> mins, extents;
        for (size_t d = 0; d < ndim; ++d) {
            mins.push_back(visitExpr(tuple->args[1 + 2 * d]));
            extents.push_back(visitExpr(tuple->args[2 + 2 * d]));
        }
        const std::string what =
            "buffer '" + buffer->name + "' bound to " + bufferName(load->tensor);
        if (buffer->shape.size() > ndim)
            throw UserError(what + ": the buffer has " + std::to_string(buffer->shape.size()) +
                            " dimensions, the tensor " + std::to_string(ndim));
        if (buffer->dtype != load->tensor.dtype())
            throw UserError(what + ": the buffer is " + buffer->dtype.toString() + ", the tensor " +
                            load->tensor.dtype().toString() + " (TVM: data type mismatch)");
        const std::string scope = buffer->scope.empty() ? "global" : buffer->scope;
        if (scope != entry.scope)
            throw UserError(what + ": the buffer is declared in scope '" + scope + "' but " +
                            bufferName(load->tensor) + " is stored in '" + entry.scope +
                            "' (TVM: buffer bind scope mismatch); set_scope the stage or cache it "
                            "into that scope");
        Analyzer analyzer;
        const size_t lead = entry.threadIndices.size();
        for (size_t d = 0; d < ndim; ++d) {
            const Expr& lo = entry.mins[lead + d];
            Expr hi = lo + entry.extents[lead + d];
            if (analyzer.canProve(mins[d] < lo) || analyzer.canProve(hi < mins[d] + extents[d]))
                throw UserError(what + ": the region " + regionOf(mins, extents) +
                                " reaches outside the part of " + bufferName(load->tensor) +
                                " that is realized, axis " + std::to_string(d) + " [" +
                                toString(lo) + ", " + toString(entry.extents[lead + d]) + "]");
        }
        const size_t skip = ndim - buffer->shape.size();
        for (size_t d = 0; d < skip; ++d)
            if (!analyzer.canProveEqual(extents[d], makeOne(extents[d].type())))
                throw UserError(what + ": the region's axis " + std::to_string(d) + " spans " +
                                toString(extents[d]) + " but the buffer has no such dimension");
        // The strides of the tensor's buffer, thread dimensions first.
        std::vector<Expr> strides = entry.strides;
        if (strides.empty()) {
            strides.assign(entry.extents.size(), Expr(1));
            for (size_t k = entry.extents.size(); k-- > 1;)
                strides[k - 1] = analyzer.simplify(strides[k] * entry.extents[k]);
        }
        VarMap<Expr> bound;
        auto bind = [&](const Expr& declared, const Expr& actual, const std::string& field) {
            Expr value = analyzer.simplify(actual);
            if (const auto* v = declared.as<VarNode>()) {
                auto [it, fresh] = bound.emplace(Var(v), value);
                if (fresh || analyzer.canProveEqual(it->second, value))
                    return;
            } else if (analyzer.canProveEqual(declared, value)) {
                return;
            }
            throw UserError(what + ": its " + field + " is " + toString(declared) +
                            " but the region gives " + toString(value));
        };
        for (size_t k = 0; k < buffer->shape.size(); ++k)
            bind(buffer->shape[k], extents[skip + k], "extent " + std::to_string(k));
        if (!buffer->strides.empty()) {
            for (size_t k = 0; k < buffer->strides.size(); ++k)
                bind(buffer->strides[k], strides[lead + skip + k], "stride " + std::to_string(k));
        } else {
            Expr compact = Expr(1);
            for (size_t k = buffer->shape.size(); k-- > 0;) {
                const Expr& extent = extents[skip + k];
                if (!analyzer.canProveEqual(extent, makeOne(extent.type())) &&
                    !analyzer.canProveEqual(strides[lead + skip + k], compact))
                    throw UserError(what + ": the region " + regionOf(mins, extents) +
                                    " is not contiguous in " + bufferName(load->tensor) +
                                    ", but the buffer has no strides (TVM: cannot bind a compact "
                                    "buffer to a strided region); declare it with strides, e.g. "
                                    "tvm.tir.decl_buffer(shape, strides=[te.var(\"s\"), 1])");
                compact = compact * extent;
            }
        }
        Expr offset = analyzer.simplify(flatIndex(entry, mins));
        bind(buffer->elemOffset, offset, "element offset");
        // The offset must be a multiple of offset_factor: refused when it provably is not,
        // asserted when it runs when that depends on the loops (TVM's binder assert).
        Expr remainder;
        if (buffer->offsetFactor > 1) {
            remainder = analyzer.simplify(floormod(offset, Expr(buffer->offsetFactor)));
            std::optional<int64_t> known = asConstInt(remainder);
            if (known && *known != 0)
                throw UserError(what + ": the region starts at element " + toString(offset) +
                                ", not a multiple of the buffer's offset_factor " +
                                std::to_string(buffer->offsetFactor));
            if (known)
                remainder = Expr();
        }
        Stmt body = bound.empty() ? op->body : substitute(op->body, bound);
        body = visitStmt(BufferVarRenamer(buffer->data, entry.data).visitStmt(body));
        if (remainder.defined())
            body = AssertStmtNode::make(eq(remainder, makeZero(remainder.type())),
                                        StringImmNode::make(what + ": the element offset " +
                                                            toString(offset) +
                                                            " is not a multiple of offset_factor " +
                                                            std::to_string(buffer->offsetFactor)),
                                        body);
        return body;
    }

    static std::string regionOf(const std::vector<Expr>& mins, const std::vector<Expr>& extents) {
        Region region;
        for (size_t d = 0; d < mins.size(); ++d)
            region.emplace_back(mins[d], extents[d]);
        return regionToString(region);
    }

    /// The step that explains an allocate's size: the product of the realize region's extents,
    /// times one copy per virtual thread the buffer is private to.
    int allocateStep(const ProducerRealizeNode* op, const BufferEntry& entry, const Expr& size) {
        if (!m_steps)
            return -1;
        BoundStep step;
        step.phase = StepPhase::Allocate;
        step.rule = entry.threadIndices.empty() ? "region" : "region-per-vthread";
        step.stage = op->tensor.op;
        step.tensor = op->tensor;
        if (op->stepId() >= 0) {
            step.from = {op->stepId()};
            step.location = m_steps->at(op->stepId()).location;
        }
        Analyzer analyzer;
        std::string extents;
        for (size_t d = entry.threadIndices.size(); d < entry.extents.size(); ++d)
            extents += (extents.empty() ? "" : " x ") + toString(entry.extents[d]);
        Expr elements = analyzer.simplify(size);
        std::string text = "Allocate " + bufferName(op->tensor) + ": " + toString(elements) +
                           (isOne(elements) ? " element" : " elements") + ", the realize region " +
                           regionToString(op->bounds) + " flattened (" +
                           (extents.empty() ? std::string("one element") : extents) + ")";
        for (size_t t = 0; t < entry.threadIndices.size(); ++t)
            text += ", x " + toString(entry.extents[t]) + " copies, one per " +
                    toString(entry.threadIndices[t]) + " (private to each virtual thread)";
        if (!entry.strides.empty()) {
            std::string strides;
            for (size_t d = entry.threadIndices.size(); d < entry.strides.size(); ++d)
                strides += (strides.empty() ? "" : ", ") + toString(entry.strides[d]);
            text += ", with strides (" + strides + ") padded by storage_align";
        }
        step.text = text + ".";
        step.outputs.push_back(StepValue{bufferName(op->tensor), IterVar(), std::nullopt,
                                         std::nullopt, analyzer.simplify(size)});
        return m_steps->add(std::move(step));
    }

    /// A realize whose region uses the variable of a virtual thread that runs inside it (and
    /// not around it) holds one region per virtual thread: InferBound kept the thread as a
    /// point because the storage is private to it ("local" under a consumer's vthread loop).
    /// The threads run one after the other, so each gets its own copy, as TVM's
    /// InjectVirtualThread gives one to a buffer allocated inside the thread
    /// (`allocate B[n * size]`, accessed at `vthread*size + index`).
    void addPrivateThreadDimensions(const ProducerRealizeNode* op, BufferEntry* entry) const {
        std::vector<Var> regionVars;
        bool namesThread = false;
        for (const Range& r : op->bounds)
            for (const Expr& e : {r.min, r.extent})
                for (const Var& v : usedVars(e)) {
                    regionVars.push_back(v);
                    namesThread |= m_virtualThreadVars.count(v.get()) > 0;
                }
        if (!namesThread)
            return;
        VarMap<Expr> threads = virtualThreadsIn(op->body);
        for (const Var& v : regionVars) {
            auto it = threads.find(v);
            if (it == threads.end() || !it->second.defined())
                continue;
            entry->threadIndices.push_back(v);
            entry->mins.push_back(Expr(0));
            entry->extents.push_back(it->second);
            it->second = Expr(); // one dimension per thread, however often the region uses it
        }
    }

    /// Visits `body` with `entry` standing for `tensor`, then restores what stood before (a
    /// tensor may be realized at several places, one after the other).
    Stmt withEntry(const Tensor& tensor, const BufferEntry& entry, const Stmt& body) {
        std::optional<BufferEntry> previous;
        if (auto it = m_buffers.find(tensor); it != m_buffers.end())
            previous = it->second;
        m_buffers[tensor] = entry;
        Stmt result = visitStmt(body);
        if (previous)
            m_buffers[tensor] = *previous;
        else
            m_buffers.erase(tensor);
        return result;
    }

    /// The realize_scope attr wins; else the realize's own field; else TVM's default from the
    /// innermost thread scope.
    std::string scopeOf(const ProducerRealizeNode* op) const {
        std::string scope = op->storageScope;
        if (auto it = m_realizeScopes.find(op->tensor.op.get()); it != m_realizeScopes.end())
            scope = it->second;
        if (!scope.empty())
            return scope;
        // TVM's DefaultStorageRank, the one InferBound uses too.
        return StorageScope::fromThreadRank(m_threadRanks.empty() ? -1 : m_threadRanks.back())
            .toString();
    }

    const BufferEntry& lookup(const Tensor& tensor) const {
        auto it = m_buffers.find(tensor);
        if (it == m_buffers.end())
            throw UserError("lowering: tensor '" + bufferName(tensor) +
                            "' is accessed but neither realized nor passed as an argument");
        return it->second;
    }

    std::unordered_map<Tensor, BufferEntry, TensorHash, TensorEqual> m_buffers;
    std::unordered_map<const OperationNode*, std::string> m_realizeScopes;
    std::unordered_map<const OperationNode*, std::vector<DimAlign>> m_dimAligns;
    std::vector<int> m_threadRanks;
    FlattenResult m_result;
    BoundSteps* m_steps;
    std::unordered_set<const VarNode*> m_virtualThreadVars;
};

} // namespace

FlattenResult storageFlatten(const Stmt& stmt, const std::vector<Tensor>& args, BoundSteps* steps) {
    BS_CHECK(stmt.defined()) << "storage flatten of an undefined statement";
    return StorageFlattener(args, steps).run(stmt);
}

} // namespace bs

#include "lower/SplitHostDevice.h"

#include "ir/Equality.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/Substitute.h"

#include <algorithm>

namespace bs {

const Expr& DeviceKernel::launchExtent(int index) const {
    BS_CHECK(index >= 0 && index < 6) << "launch axis " << index;
    return index < 3 ? gridDim[size_t(index)] : blockDim[size_t(index - 3)];
}

std::optional<int64_t> DeviceKernel::threadsPerBlock() const {
    int64_t product = 1;
    for (const Expr& e : blockDim) {
        std::optional<int64_t> value = asConstInt(e);
        if (!value)
            return std::nullopt;
        product *= *value;
    }
    return product;
}

const KernelParam* DeviceKernel::findParam(const Var& var) const {
    for (const KernelParam& p : params) {
        if (p.var.same_as(var))
            return &p;
    }
    return nullptr;
}

const DeviceKernel* HostDeviceSplit::findKernel(const std::string& name) const {
    for (const DeviceKernel& k : kernels) {
        if (k.name == name)
            return &k;
    }
    return nullptr;
}

namespace {

/// TVM's VarUseDefAnalyzer: the variables a kernel uses but does not define, in order of first
/// use (a store's buffer before its value, as TVM visits it), the element type of each buffer,
/// and every `thread_extent` attribute. Launch extents are not uses: the host evaluates them.
class KernelUses : public IRVisitor {
public:
    explicit KernelUses(const VarMap<DataType>& hostAllocations)
        : m_hostAllocations(hostAllocations) {}

    std::vector<Var> undefined;
    VarMap<DataType> elementTypes;
    VarSet defined;
    std::vector<const AttrStmtNode*> threadExtents;

protected:
    using IRVisitor::visit;

    void use(const Var& v) {
        if (defined.count(v) || !m_seen.insert(v).second)
            return;
        undefined.push_back(v);
        auto it = m_hostAllocations.find(v);
        if (it != m_hostAllocations.end())
            elementTypes.emplace(v, it->second);
    }
    void visit(const VarNode* op) override { use(Var(op)); }
    void visit(const LoadNode* op) override {
        use(op->bufferVar);
        elementTypes.emplace(op->bufferVar, op->type.element());
        IRVisitor::visit(op);
    }
    void visit(const StoreNode* op) override {
        use(op->bufferVar);
        elementTypes.emplace(op->bufferVar, op->value.type().element());
        IRVisitor::visit(op);
    }
    void visit(const LetStmtNode* op) override {
        visitExpr(op->value);
        defined.insert(op->var);
        visitStmt(op->body);
    }
    void visit(const LetNode* op) override {
        visitExpr(op->value);
        defined.insert(op->var);
        visitExpr(op->body);
    }
    void visit(const ForNode* op) override {
        visitExpr(op->min);
        visitExpr(op->extent);
        defined.insert(op->loopVar);
        visitStmt(op->body);
    }
    void visit(const AllocateNode* op) override {
        defined.insert(op->bufferVar);
        IRVisitor::visit(op);
    }
    void visit(const AttrStmtNode* op) override {
        if (op->key != attr::kThreadExtent) {
            IRVisitor::visit(op);
            return;
        }
        const auto* iv = op->node.as<IterVarNode>();
        BS_CHECK(iv) << "thread_extent on a node that is not an IterVar";
        defined.insert(iv->var);
        threadExtents.push_back(op);
        visitStmt(op->body);
    }

private:
    const VarMap<DataType>& m_hostAllocations;
    VarSet m_seen;
};

/// The one launch extent of an axis that several attributes bind: equal extents agree, constant
/// ones take the largest (the smaller nests are guarded by the code generator).
Expr mergeExtents(const std::string& kernel, const std::string& tag, const std::vector<Expr>& all) {
    Expr merged = all.front();
    for (const Expr& e : all) {
        if (structuralEqual(e, merged))
            continue;
        std::optional<int64_t> a = asConstInt(merged), b = asConstInt(e);
        if (!a || !b) {
            throw UserError("kernel '" + kernel + "' binds " + tag + " with extents " +
                            toString(merged) + " and " + toString(e) +
                            ", which cannot be merged into one launch extent");
        }
        if (*b > *a)
            merged = e;
    }
    return merged;
}

/// Orders parameters: buffers, then scalars; within each, the function's arguments in their
/// order, then the rest in order of first use.
std::vector<Var> orderParams(const std::vector<Var>& used, const std::vector<Var>& arguments) {
    auto rank = [&](const Var& v) {
        auto it = std::find_if(arguments.begin(), arguments.end(),
                               [&](const Var& a) { return a.same_as(v); });
        return it == arguments.end() ? arguments.size() : size_t(it - arguments.begin());
    };
    std::vector<Var> order = used;
    std::stable_sort(order.begin(), order.end(), [&](const Var& a, const Var& b) {
        bool aBuffer = a.type().isHandle(), bBuffer = b.type().isHandle();
        if (aBuffer != bBuffer)
            return aBuffer;
        return rank(a) < rank(b);
    });
    return order;
}

class HostDeviceSplitter : public IRMutator {
public:
    HostDeviceSplitter(std::string functionName, const std::vector<Var>& arguments,
                       VarMap<DataType> hostAllocations)
        : m_functionName(std::move(functionName)), m_arguments(arguments),
          m_hostAllocations(std::move(hostAllocations)) {}

    std::vector<DeviceKernel> kernels;

protected:
    using IRMutator::visit;

    Stmt visit(const AttrStmtNode* op) override {
        if (op->key != attr::kThreadExtent)
            return IRMutator::visit(op);
        DeviceKernel kernel = makeKernel(op);
        Stmt launch = EvaluateNode::make(launchCall(kernel));
        kernels.push_back(std::move(kernel));
        return launch;
    }

private:
    DeviceKernel makeKernel(const AttrStmtNode* op) {
        DeviceKernel kernel;
        kernel.name = m_functionName + "_kernel" + std::to_string(kernels.size());
        kernel.body = Stmt(op);
        KernelUses uses(m_hostAllocations);
        uses.visitStmt(kernel.body);
        for (const Var& v : orderParams(uses.undefined, m_arguments)) {
            DataType type = v.type();
            if (type.isHandle()) {
                auto it = uses.elementTypes.find(v);
                type = it != uses.elementTypes.end() ? it->second : DataType::float32();
            }
            kernel.params.push_back({v, type});
        }
        setLaunchDims(kernel, uses);
        return kernel;
    }

    /// Reads the launch configuration off the kernel's thread_extent attributes (TVM's
    /// ThreadAxisConfig): one extent per bound axis, 1 for the others.
    void setLaunchDims(DeviceKernel& kernel, const KernelUses& uses) {
        std::array<std::vector<Expr>, 6> extents;
        for (const AttrStmtNode* attrStmt : uses.threadExtents) {
            const auto* iv = attrStmt->node.as<IterVarNode>();
            int index = threadTagIndex(iv->threadTag);
            if (index < 0) {
                throw UserError("kernel '" + kernel.name + "': thread axis '" + iv->threadTag +
                                "' is not supported on the GPU; bind to blockIdx.x/y/z or "
                                "threadIdx.x/y/z");
            }
            for (const Var& v : usedVars(attrStmt->value)) {
                if (!uses.defined.count(v))
                    continue;
                throw UserError("kernel '" + kernel.name + "': the extent of " + iv->threadTag +
                                " depends on '" + v.name() +
                                "', which is only known inside the kernel");
            }
            extents[size_t(index)].push_back(attrStmt->value);
        }
        for (size_t i = 0; i < 6; ++i) {
            kernel.boundAxes[i] = !extents[i].empty();
            Expr extent = extents[i].empty()
                              ? Expr(1)
                              : mergeExtents(kernel.name, kThreadTags[i], extents[i]);
            (i < 3 ? kernel.gridDim[i] : kernel.blockDim[i - 3]) = extent;
        }
    }

    static Expr launchCall(const DeviceKernel& kernel) {
        std::vector<Expr> args{StringImmNode::make(kernel.name)};
        for (const KernelParam& p : kernel.params)
            args.push_back(p.var);
        for (int i = 0; i < 6; ++i) {
            if (kernel.boundAxes[size_t(i)])
                args.push_back(kernel.launchExtent(i));
        }
        return CallNode::make(DataType::int32(), kCallPackedIntrinsic, std::move(args),
                              CallKind::Intrinsic);
    }

    std::string m_functionName;
    const std::vector<Var>& m_arguments;
    VarMap<DataType> m_hostAllocations;
};

VarMap<DataType> allocationTypes(const Stmt& body) {
    VarMap<DataType> types;
    postOrderVisit(body, [&](const NodeRef& node) {
        if (const auto* alloc = node.as<AllocateNode>())
            types.emplace(alloc->bufferVar, alloc->type.element());
    });
    return types;
}

} // namespace

HostDeviceSplit splitHostDevice(const Stmt& body, const std::string& functionName,
                                const std::vector<Var>& arguments) {
    HostDeviceSplitter splitter(functionName, arguments, allocationTypes(body));
    HostDeviceSplit result;
    result.host = splitter.visitStmt(body);
    result.kernels = std::move(splitter.kernels);
    return result;
}

} // namespace bs

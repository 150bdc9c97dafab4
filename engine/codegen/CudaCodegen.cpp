/// \file
/// CUDA C statements and kernels (TVM's CodeGenC::VisitStmt_, CodeGenCUDA and AddFunction).

#include "codegen/CudaCodegen.h"

#include "codegen/CudaCodegenInternal.h"
#include "ir/Equality.h"
#include "ir/Op.h"
#include "ir/OperationNode.h"
#include "ir/Printer.h"
#include "lower/ThreadSync.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

namespace bs {

namespace {

using cuda::ExprPrinter;
using cuda::Helper;

bool isIdentifier(const std::string& name) {
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front())))
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
}

bool containsSync(const Stmt& stmt) {
    bool found = false;
    postOrderVisit(stmt, [&](const NodeRef& node) {
        if (node.as<EvaluateNode>() && isStorageSync(Stmt(node.as<EvaluateNode>())))
            found = true;
    });
    return found;
}

bool readsBuffer(const Expr& e, const Var& buffer) {
    bool found = false;
    postOrderVisit(e, [&](const NodeRef& node) {
        const auto* load = node.as<LoadNode>();
        found = found || (load && load->bufferVar.same_as(buffer));
    });
    return found;
}

/// TVM lowers virtual threads before code generation (InjectVirtualThread interleaves their
/// code); the GPU backends run them as a serial loop in each thread instead, which computes the
/// same: each virtual thread's part in turn. Done before threadSync, so that shared memory
/// reused from one virtual thread to the next gets its barrier.
class VirtualThreadsAsLoops : public IRMutator {
protected:
    using IRMutator::visit;

    Stmt visit(const AttrStmtNode* op) override {
        const auto* iv = op->node.as<IterVarNode>();
        if (op->key != attr::kVirtualThread || !iv)
            return IRMutator::visit(op);
        return ForNode::make(iv->var, makeZero(iv->var.type()), op->value, ForKind::Serial,
                             visitStmt(op->body));
    }
};

/// Prints one kernel: its signature, then its body two spaces in per level.
class KernelPrinter : public StmtFunctor<void> {
public:
    KernelPrinter(const DeviceKernel& kernel, std::set<Helper>& helpers, cuda::Dialect dialect)
        : m_kernel(kernel), m_expr(helpers, dialect), m_openCl(dialect == cuda::Dialect::OpenCl) {}

    std::string print(const CudaCodegenOptions& options) {
        if (!isIdentifier(m_kernel.name))
            throw UserError("kernel name '" + m_kernel.name + "' is not a C identifier");
        std::ostringstream header;
        header << (m_openCl ? "__kernel void " : "extern \"C\" __global__ void ");
        std::optional<int64_t> threads = m_kernel.threadsPerBlock();
        if (options.launchBounds && threads && !m_openCl)
            header << "__launch_bounds__(" << *threads << ") ";
        header << m_kernel.name << "(" << parameters() << ") {\n";
        visitStmt(m_kernel.body);
        return header.str() + m_os.str() + "}\n";
    }

protected:
    using StmtFunctor<void>::visit;

    void visit(const AttrStmtNode* op) override;
    void visit(const AllocateNode* op) override;
    void visit(const LetStmtNode* op) override;
    void visit(const ForNode* op) override;
    void visit(const StoreNode* op) override;
    void visit(const IfThenElseNode* op) override;
    void visit(const EvaluateNode* op) override;
    void visit(const AssertStmtNode* op) override { visitStmt(op->body); }
    void visit(const ProducerConsumerNode* op) override { visitStmt(op->body); }
    void visit(const SeqNode* op) override {
        for (const Stmt& s : op->seq)
            visitStmt(s);
    }
    void visitStmtDefault(const StmtNode* op) override {
        throw UserError(std::string(m_openCl ? "the OpenCL" : "the CUDA") +
                        " backend cannot generate " + toString(Stmt(op)) +
                        ": lower the program (storage flattening) first");
    }

private:
    std::ostream& line() { return m_os << std::string(size_t(m_indent) * 2, ' '); }
    void block(const Stmt& body) {
        ++m_indent;
        visitStmt(body);
        --m_indent;
    }

    /// TVM's parameter list: ` float* __restrict__ A` for a buffer (OpenCL C:
    /// `__global float* restrict A`), `int n` for a scalar, separated by `, `.
    std::string parameters() {
        std::string text;
        for (size_t i = 0; i < m_kernel.params.size(); ++i) {
            const KernelParam& p = m_kernel.params[i];
            std::string name = m_names.allocate(p.var.name());
            text += i ? ", " : "";
            if (p.isBuffer()) {
                text += m_openCl ? "__global " + type(p.type) + "* restrict " + name
                                 : " " + type(p.type) + "* __restrict__ " + name;
                m_expr.markGlobalBuffer(p.var);
            } else {
                text += type(p.type) + " " + name;
            }
            m_expr.bind(p.var, name);
        }
        return text;
    }

    std::string type(DataType t) const { return cuda::typeName(t, m_expr.dialect()); }
    /// How a thread index reads: `threadIdx.x`, or OpenCL C's `get_local_id(0)`.
    std::string threadIndex(const std::string& tag) const;

    void bindThread(const AttrStmtNode* op);
    void declareVectorLoads(const Expr& value);
    void storeElement(const std::string& target, const std::string& value,
                      const std::optional<std::string>& predicate);
    void storeVector(const StoreNode* op);

    const DeviceKernel& m_kernel;
    ExprPrinter m_expr;
    cuda::NameTable m_names;
    VarMap<std::string> m_scopes;
    std::ostringstream m_os;
    int m_indent = 1;
    bool m_openCl;
};

std::string KernelPrinter::threadIndex(const std::string& tag) const {
    if (!m_openCl)
        return tag;
    const char* function = tag.rfind("blockIdx.", 0) == 0 ? "get_group_id(" : "get_local_id(";
    return function + std::to_string(tag.back() - 'x') + ")";
}

void KernelPrinter::bindThread(const AttrStmtNode* op) {
    const auto* iv = op->node.as<IterVarNode>();
    int index = threadTagIndex(iv->threadTag);
    BS_CHECK(index >= 0) << "thread tag " << iv->threadTag << " reached the code generator";
    std::string text = "((" + type(iv->var.type()) + ")" + threadIndex(iv->threadTag) + ")";
    m_expr.bind(iv->var, text);
    m_expr.markNonNegative(iv->var);
    const Expr& launched = m_kernel.launchExtent(index);
    if (structuralEqual(op->value, launched)) {
        visitStmt(op->body);
        return;
    }
    // The launch uses the largest extent of this axis in the kernel: guard the smaller nest.
    if (containsSync(op->body)) {
        throw UserError("kernel '" + m_kernel.name + "': " + iv->threadTag + " has extent " +
                        toString(op->value) + " here but " + toString(launched) +
                        " elsewhere, and a barrier inside the smaller nest would hang the block");
    }
    line() << "if (" << text << " < " << m_expr.print(op->value) << ") {\n";
    block(op->body);
    line() << "}\n";
}

void KernelPrinter::visit(const AttrStmtNode* op) {
    if (op->key == attr::kThreadExtent) {
        bindThread(op);
        return;
    }
    if (op->key == attr::kStorageScope) {
        const auto* buffer = op->node.as<VarNode>();
        const auto* scope = op->value.as<StringImmNode>();
        if (buffer && scope)
            m_scopes[Var(buffer)] = scope->value;
    } else if (op->key == attr::kVirtualThread) {
        throw UserError("kernel '" + m_kernel.name + "': virtual threads (vthread) are not " +
                        "supported by the " + (m_openCl ? "OpenCL" : "CUDA") + " backend");
    }
    visitStmt(op->body);
}

void KernelPrinter::visit(const AllocateNode* op) {
    const std::string& bufferName = op->bufferVar.name();
    auto it = m_scopes.find(op->bufferVar);
    std::string scope = it == m_scopes.end() ? "local" : it->second;
    if (scope == "global") {
        throw UserError("kernel '" + m_kernel.name + "' allocates the global buffer '" +
                        bufferName +
                        "': a kernel can only allocate shared or local memory; compute the "
                        "stage at a GPU thread loop or give it a scope with set_scope");
    }
    if (scope != "shared" && scope != "local") {
        // TVM turns warp storage into register shuffles (LowerWarpMemory); we do not.
        throw UserError("kernel '" + m_kernel.name + "': buffer '" + bufferName +
                        "' has storage scope '" + scope +
                        "', which the CUDA code generator cannot emit (only 'shared' and "
                        "'local'); give it one of those with set_scope to get CUDA C, or run "
                        "the kernel in GPU emulation (the emulate target)");
    }
    int64_t size = op->constantSize();
    if (size < 0) {
        throw UserError("kernel '" + m_kernel.name + "': buffer '" + bufferName +
                        "' needs a constant size on the GPU");
    }
    std::string name = m_names.allocate(bufferName);
    m_expr.bind(op->bufferVar, name);
    const char* shared = m_openCl ? "__local " : "__shared__ ";
    line() << (scope == "shared" ? shared : "") << type(op->type.element()) << ' ' << name << '['
           << std::max<int64_t>(size * op->type.lanes(), 1) << "];\n";
    visitStmt(op->body);
}

/// Loads each unconditional aligned vector load of `value` once, into a vector variable
/// (`float4 A_v = ((float4*)(A + i))[0];`), so that it is one 128-bit load.
void KernelPrinter::declareVectorLoads(const Expr& value) {
    for (const auto& [load, access] : m_expr.hoistableLoads(value)) {
        const auto* op = load.as<LoadNode>();
        std::string name = m_names.allocate(op->bufferVar.name() + "_v");
        line() << *cuda::vectorTypeName(op->type) << ' ' << name << " = " << access << ";\n";
        m_expr.hoist(load, name);
    }
}

void KernelPrinter::visit(const LetStmtNode* op) {
    DataType type = op->value.type();
    std::string name = m_names.allocate(op->var.name());
    if (type.isScalar()) {
        line() << this->type(type) << ' ' << name << " = " << m_expr.print(op->value) << ";\n";
        m_expr.bind(op->var, name);
        m_expr.recordLetValue(op->var, op->value);
        if (type.isIntegral() && m_expr.isNonNegative(op->value))
            m_expr.markNonNegative(op->var);
    } else {
        declareVectorLoads(op->value);
        line() << this->type(type.element()) << ' ' << name << '[' << type.lanes() << "] = {";
        for (int k = 0; k < type.lanes(); ++k)
            m_os << (k ? ", " : "") << m_expr.printLane(op->value, k);
        m_os << "};\n";
        m_expr.clearHoisted();
        m_expr.bindArray(op->var, name);
    }
    visitStmt(op->body);
}

void KernelPrinter::visit(const ForNode* op) {
    if (op->kind == ForKind::ThreadBinding)
        throw UserError("the GPU backends expect thread bindings as thread_extent attributes");
    std::string name = m_names.allocate(op->loopVar.name());
    Expr end = isZero(op->min) ? op->extent : op->min + op->extent;
    if (op->kind == ForKind::Unrolled)
        line() << "#pragma unroll\n";
    line() << "for (" << type(op->loopVar.type()) << ' ' << name << " = " << m_expr.print(op->min)
           << "; " << name << " < " << m_expr.print(end) << "; ++" << name << ") {\n";
    m_expr.bind(op->loopVar, name);
    if (m_expr.isNonNegative(op->min))
        m_expr.markNonNegative(op->loopVar);
    block(op->body);
    line() << "}\n";
}

void KernelPrinter::storeElement(const std::string& target, const std::string& value,
                                 const std::optional<std::string>& predicate) {
    if (!predicate) {
        line() << target << " = " << value << ";\n";
        return;
    }
    line() << "if " << (cuda::isWrapped(*predicate) ? *predicate : "(" + *predicate + ")")
           << " {\n";
    ++m_indent;
    line() << target << " = " << value << ";\n";
    --m_indent;
    line() << "}\n";
}

void KernelPrinter::visit(const StoreNode* op) {
    if (op->value.type().isVector()) {
        storeVector(op);
        return;
    }
    std::optional<std::string> predicate;
    if (cuda::hasPredicate(op->predicate))
        predicate = m_expr.print(op->predicate);
    std::string target = m_expr.nameOf(op->bufferVar) + "[" + m_expr.print(op->index) + "]";
    storeElement(target, m_expr.print(op->value), predicate);
}

/// A vector store: one aligned vector access where possible (TVM's `((float4*)(C + i))[0] =`),
/// else one store per lane. Lanes are computed before any is stored when the value reads the
/// buffer it overwrites, keeping the vector's all-reads-then-writes meaning.
void KernelPrinter::storeVector(const StoreNode* op) {
    DataType type = op->value.type();
    const int lanes = type.lanes();
    declareVectorLoads(op->value);
    std::vector<std::string> values;
    for (int k = 0; k < lanes; ++k)
        values.push_back(m_expr.printLane(op->value, k));
    m_expr.clearHoisted();
    const bool predicated = cuda::hasPredicate(op->predicate);
    std::optional<std::string> access;
    if (!predicated)
        access = m_expr.vectorAccess(op->bufferVar, op->index, type);
    if (access) {
        line() << *access << " = make_" << *cuda::vectorTypeName(type) << "(";
        for (int k = 0; k < lanes; ++k)
            m_os << (k ? ", " : "") << values[size_t(k)];
        m_os << ");\n";
        return;
    }
    const std::string& buffer = m_expr.nameOf(op->bufferVar);
    if (readsBuffer(op->value, op->bufferVar)) {
        std::string temp = m_names.allocate(op->bufferVar.name() + "_lanes");
        line() << this->type(type.element()) << ' ' << temp << '[' << lanes << "] = {";
        for (int k = 0; k < lanes; ++k)
            m_os << (k ? ", " : "") << values[size_t(k)];
        m_os << "};\n";
        for (int k = 0; k < lanes; ++k)
            values[size_t(k)] = temp + "[" + std::to_string(k) + "]";
    }
    for (int k = 0; k < lanes; ++k) {
        std::optional<std::string> predicate;
        if (predicated)
            predicate = m_expr.printLane(op->predicate, k);
        std::string target = buffer + "[" + m_expr.printLane(op->index, k) + "]";
        storeElement(target, values[size_t(k)], predicate);
    }
}

void KernelPrinter::visit(const IfThenElseNode* op) {
    std::string condition = m_expr.print(op->condition);
    line() << "if " << (cuda::isWrapped(condition) ? condition : "(" + condition + ")") << " {\n";
    block(op->thenCase);
    if (op->elseCase.defined()) {
        line() << "} else {\n";
        block(op->elseCase);
    }
    line() << "}\n";
}

void KernelPrinter::visit(const EvaluateNode* op) {
    // A prefetch (a CPU cache hint from s[C].prefetch) has no CUDA counterpart: left out.
    const auto* call = op->value.as<CallNode>();
    if (isConst(op->value) || (call && call->isIntrinsic("prefetch")))
        return;
    if (op->value.type().isScalar()) {
        line() << m_expr.print(op->value) << ";\n";
        return;
    }
    for (int k = 0; k < op->value.type().lanes(); ++k)
        line() << m_expr.printLane(op->value, k) << ";\n";
}

std::string helperPrelude(const std::set<Helper>& helpers, cuda::Dialect dialect) {
    std::string text;
    for (Helper h : helpers)
        text += cuda::helperSource(h, dialect);
    return text.empty() ? text : text + "\n";
}

cuda::Dialect dialectOf(const CudaCodegenOptions& options) {
    return options.openCl ? cuda::Dialect::OpenCl : cuda::Dialect::Cuda;
}

/// OpenCL C needs an extension for double (TVM's CodeGenOpenCL enables it the same way).
std::string openClPrelude(const CudaCodegenOptions& options, const std::string& source) {
    if (!options.openCl)
        return "";
    for (size_t at = source.find("double"); at != std::string::npos;
         at = source.find("double", at + 1)) {
        const bool wordStart = at == 0 || !std::isalnum(static_cast<unsigned char>(source[at - 1]));
        const size_t end = at + 6;
        const bool wordEnd =
            end == source.size() ||
            !(std::isalnum(static_cast<unsigned char>(source[end])) || source[end] == '_');
        if (wordStart && wordEnd)
            return "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n\n";
    }
    return "";
}

/// The host only launches kernels: a buffer access or a non-global allocation there means a
/// stage was not bound to GPU threads. The stage is the produce block the access is in.
class HostCodeCheck : public IRVisitor {
protected:
    using IRVisitor::visit;

    void visit(const ProducerConsumerNode* op) override {
        const std::string outer = m_stage;
        if (op->isProducer)
            m_stage = op->op->name;
        IRVisitor::visit(op);
        m_stage = outer;
    }
    void visit(const LoadNode* op) override { refuse(op->bufferVar, "reads"); }
    void visit(const StoreNode* op) override { refuse(op->bufferVar, "writes"); }
    void visit(const AttrStmtNode* op) override {
        const auto* scope = op->value.as<StringImmNode>();
        if (op->key == attr::kStorageScope && scope && scope->value != "global")
            throw UserError("buffer '" + nodeToString(op->node) + "' has storage scope '" +
                            scope->value +
                            "' but lives outside any GPU kernel: compute_at it under a "
                            "blockIdx loop");
        IRVisitor::visit(op);
    }

private:
    void refuse(const Var& buffer, const char* verb) const {
        const std::string who =
            m_stage.empty() ? std::string("the program") : "stage '" + m_stage + "'";
        throw UserError(who + " " + verb + " buffer '" + buffer.name() +
                        "' outside any GPU kernel: bind " +
                        (m_stage.empty() ? std::string("its stage's loops")
                                         : "the loops of '" + m_stage + "'") +
                        " to blockIdx/threadIdx (a GPU target runs no loop on the host)");
    }

    std::string m_stage;
};

void checkHostCode(const Stmt& host) { HostCodeCheck().visitStmt(host); }

} // namespace

std::string generateCudaKernel(const DeviceKernel& kernel, const CudaCodegenOptions& options) {
    std::set<Helper> helpers;
    std::string text = KernelPrinter(kernel, helpers, dialectOf(options)).print(options);
    std::string source = helperPrelude(helpers, dialectOf(options)) + text;
    return openClPrelude(options, source) + source;
}

std::string generateCudaSource(const HostDeviceSplit& program, const CudaCodegenOptions& options) {
    std::set<Helper> helpers;
    std::string kernels;
    for (const DeviceKernel& kernel : program.kernels) {
        kernels += kernels.empty() ? "" : "\n";
        kernels += KernelPrinter(kernel, helpers, dialectOf(options)).print(options);
    }
    std::string source = helperPrelude(helpers, dialectOf(options)) + kernels;
    return openClPrelude(options, source) + source;
}

CudaModule buildCudaModule(const Stmt& body, const std::string& functionName,
                           const std::vector<Var>& arguments, const CudaCodegenOptions& options) {
    CudaModule module;
    // Virtual threads first: their loops define their variables, which are no kernel parameter.
    module.program =
        splitHostDevice(VirtualThreadsAsLoops().visitStmt(body), functionName, arguments);
    checkHostCode(module.program.host);
    for (DeviceKernel& kernel : module.program.kernels)
        kernel.body = threadSync(kernel.body);
    module.source = generateCudaSource(module.program, options);
    return module;
}

} // namespace bs

/// Compiling statements into SNodes: scopes of variables and buffers, allocation sites with
/// their storage scope, and kernels (outermost blockIdx/threadIdx thread_extent nests).
#include "runtime/InterpreterCompiler.h"

#include "ir/BufferDecl.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/OperationNode.h"
#include "ir/Printer.h"
#include "ir/StorageScope.h"
#include "ir/Substitute.h"

namespace bs::interp {

namespace {

/// Where a buffer of `scope` lives inside a kernel: CUDA's `__shared__` memory is per block,
/// local memory and registers per thread, anything else is global memory shared by the whole
/// launch. Warp memory is per group of threadIdx.x lanes (the warp when threadIdx.x runs 32), as
/// TVM's LowerWarpMemory makes it (registers exchanged by shuffles). An unknown scope is global.
ScopeKind kindOfScope(const std::string& scope) {
    switch (StorageScope::parse(scope).value_or(StorageScope{}).rank) {
    case StorageRank::Shared:
        return ScopeKind::PerBlock;
    case StorageRank::Warp:
        return ScopeKind::PerWarp;
    case StorageRank::Local:
    case StorageRank::WMMAMatrixA:
    case StorageRank::WMMAMatrixB:
    case StorageRank::WMMAAccumulator:
        return ScopeKind::PerThread;
    case StorageRank::Global:
        break;
    }
    return ScopeKind::PerLaunch;
}

/// TVM's default storage rank, as StorageFlatten applies it: by the innermost thread attribute.
std::string defaultScope(const std::vector<int>& threadRanks) {
    return StorageScope::fromThreadRank(threadRanks.empty() ? -1 : threadRanks.back()).toString();
}

std::string tensorBufferName(const Tensor& t) {
    if (t.op->numOutputs() == 1)
        return t.name();
    return t.name() + ".v" + std::to_string(t.valueIndex);
}

} // namespace

std::string describeStmt(const StmtNode* stmt) {
    if (!stmt)
        return "";
    std::string text = toString(Stmt(stmt));
    size_t begin = text.find_first_not_of(' ');
    size_t end = text.find('\n', begin == std::string::npos ? 0 : begin);
    if (begin == std::string::npos)
        return "";
    return text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

Program compileProgram(const Stmt& stmt, const CompileInputs& inputs) {
    Program program;
    Compiler compiler(program);
    compiler.bindInputs(inputs);
    program.root = compiler.stmt(stmt);
    return program;
}

void Compiler::bindInputs(const CompileInputs& inputs) {
    for (const auto& [var, buffer] : inputs.buffers) {
        ArgBinding arg;
        arg.bufferVar = var;
        arg.buffer = buffer;
        arg.bufferSlot = m_p.numBufferSlots++;
        m_bufferSlots[var] = arg.bufferSlot;
        ++m_liveBuffers[var];
        m_p.args.push_back(arg);
    }
    for (const auto& [tensor, buffer] : inputs.tensors) {
        ArgBinding arg;
        arg.tensor = tensor;
        arg.buffer = buffer;
        arg.bufferSlot = m_p.numBufferSlots++;
        m_tensorSlots[tensor] = arg.bufferSlot;
        ++m_liveTensors[tensor];
        m_argTensors.insert(tensor);
        m_p.args.push_back(arg);
    }
    for (const auto& [var, value] : inputs.scalars) {
        enter(var);
        m_p.scalars.push_back({slotOf(var), value});
    }
}

int32_t Compiler::slotOf(const Var& v) {
    auto it = m_slots.find(v);
    if (it != m_slots.end())
        return it->second;
    int32_t slot = m_p.numSlots;
    m_p.numSlots += v.type().lanes();
    m_slots.emplace(v, slot);
    return slot;
}

int32_t Compiler::assignBufferSlot(const Var& v) {
    auto it = m_bufferSlots.find(v);
    if (it != m_bufferSlots.end())
        return it->second;
    int32_t slot = m_p.numBufferSlots++;
    m_bufferSlots.emplace(v, slot);
    return slot;
}

int32_t Compiler::bufferSlotOf(const Var& v) {
    auto live = m_liveBuffers.find(v);
    if (live == m_liveBuffers.end() || live->second <= 0)
        fail("buffer '" + v.name() + "' is neither allocated here nor bound as an argument");
    return m_bufferSlots.at(v);
}

int32_t Compiler::tensorSlotOf(const Tensor& t) {
    auto live = m_liveTensors.find(t);
    if (live == m_liveTensors.end() || live->second <= 0)
        fail("tensor '" + tensorBufferName(t) +
             "' is neither realized here nor bound as an argument");
    return m_tensorSlots.at(t);
}

void Compiler::fail(const std::string& message) const {
    if (!m_stmt)
        throw UserError(message);
    throw UserError(message + " at: " + describeStmt(m_stmt));
}

int32_t Compiler::emitStmt(SNode node) {
    m_p.stmts.push_back(node);
    return int32_t(m_p.stmts.size() - 1);
}

int32_t Compiler::pushList(const std::vector<int32_t>& ids) {
    int32_t first = int32_t(m_p.lists.size());
    m_p.lists.insert(m_p.lists.end(), ids.begin(), ids.end());
    return first;
}

int32_t Compiler::stmt(const Stmt& s) {
    BS_CHECK(s.defined()) << "compiling an undefined statement";
    const StmtNode* saved = m_stmt;
    m_stmt = s.get();
    int32_t id = -1;
    switch (s.kind()) {
    case NodeKind::LetStmt:
        id = letStmt(s.as<LetStmtNode>());
        break;
    case NodeKind::AttrStmt:
        id = attrStmt(s.as<AttrStmtNode>());
        break;
    case NodeKind::For: {
        const auto* op = s.as<ForNode>();
        if (op->kind == ForKind::ThreadBinding)
            fail("thread bindings must be thread_extent attributes, not thread_binding loops");
        id = forLoop(op->loopVar, op->min, op->extent, op->body);
        break;
    }
    case NodeKind::ProducerRealize:
        id = realize(s.as<ProducerRealizeNode>());
        break;
    case NodeKind::ProducerStore:
        id = producerStore(s.as<ProducerStoreNode>());
        break;
    case NodeKind::ProducerConsumer:
        id = producerConsumer(s.as<ProducerConsumerNode>());
        break;
    case NodeKind::Allocate:
        id = allocate(s.as<AllocateNode>());
        break;
    case NodeKind::Store:
        id = store(s.as<StoreNode>());
        break;
    case NodeKind::Seq:
        id = seq(s.as<SeqNode>()->seq);
        break;
    case NodeKind::Evaluate:
        id = evaluate(s.as<EvaluateNode>());
        break;
    case NodeKind::AssertStmt:
        id = assertStmt(s.as<AssertStmtNode>());
        break;
    case NodeKind::IfThenElse:
        id = ifThenElse(s.as<IfThenElseNode>());
        break;
    default:
        BS_UNREACHABLE("unexpected statement kind " << int(s.kind()));
    }
    m_stmt = saved;
    return id;
}

int32_t Compiler::assertStmt(const AssertStmtNode* op) {
    SNode n;
    n.op = SOp::Assert;
    n.a = expr(op->condition, 0);
    const auto* text = op->message.as<StringImmNode>();
    m_p.strings.push_back(text ? text->value : toString(op->message));
    n.aux = int32_t(m_p.strings.size() - 1);
    n.body = stmt(op->body);
    n.source = op;
    return emitStmt(n);
}

int32_t Compiler::ifThenElse(const IfThenElseNode* op) {
    SNode n;
    n.op = SOp::If;
    n.a = expr(op->condition, 0);
    n.body = stmt(op->thenCase);
    if (op->elseCase.defined())
        n.other = stmt(op->elseCase);
    n.source = op;
    return emitStmt(n);
}

int32_t Compiler::seq(const std::vector<Stmt>& parts) {
    std::vector<int32_t> ids;
    for (const Stmt& part : parts)
        ids.push_back(stmt(part));
    SNode n;
    n.op = SOp::Seq;
    n.a = pushList(ids);
    n.b = int32_t(ids.size());
    n.source = m_stmt;
    return emitStmt(n);
}

int32_t Compiler::forLoop(const Var& var, const Expr& min, const Expr& extent, const Stmt& body) {
    SNode n;
    n.op = SOp::For;
    n.a = expr(min, 0);
    n.b = expr(extent, 0);
    n.slot = slotOf(var);
    n.source = m_stmt;
    enter(var);
    n.body = stmt(body);
    leave(var);
    return emitStmt(n);
}

int32_t Compiler::letStmt(const LetStmtNode* op) {
    std::vector<int32_t> lanes;
    for (int lane = 0; lane < op->var.type().lanes(); ++lane)
        lanes.push_back(expr(op->value, lane));
    SNode n;
    n.op = SOp::Let;
    n.slot = slotOf(op->var);
    n.a = pushList(lanes);
    n.b = int32_t(lanes.size());
    n.source = op;
    enter(op->var);
    n.body = stmt(op->body);
    leave(op->var);
    return emitStmt(n);
}

int32_t Compiler::attrStmt(const AttrStmtNode* op) {
    if (op->key == attr::kThreadExtent || op->key == attr::kVirtualThread) {
        const auto* iv = op->node.as<IterVarNode>();
        if (!iv)
            fail("attribute " + op->key + " on a node that is not an IterVar");
        if (op->key == attr::kThreadExtent && threadTagIndex(iv->threadTag) >= 0)
            return threadExtent(op);
        // Virtual threads (and unknown tags) are serial loops within one thread, which is
        // what InjectVirtualThread turns them into; their buffers are thread-local.
        m_threadRanks.push_back(1);
        int32_t id = forLoop(iv->var, Expr(0), op->value, op->body);
        m_threadRanks.pop_back();
        return id;
    }
    if (op->key == attr::kStorageScope) {
        const auto* scope = op->value.as<StringImmNode>();
        if (const auto* v = op->node.as<VarNode>(); v && scope)
            m_storageScopes[Var(v)] = scope->value;
    } else if (op->key == attr::kRealizeScope) {
        const auto* scope = op->value.as<StringImmNode>();
        if (op->node.defined() && scope)
            m_realizeScopes[op->node.get()] = scope->value;
    }
    if (op->key == attr::kBufferBindScope) {
        // An extern stage's buffer (before StorageFlatten): its handle is the bound tensor's
        // storage, which is whole (ScheduleOps realizes it so).
        if (op->node.as<BufferDeclNode>())
            fail("a tensorized stage's buffers are bound by StorageFlatten: run the lowered "
                 "program");
        const auto* handle = op->node.as<VarNode>();
        const auto* tuple = op->value.as<CallNode>();
        const auto* load =
            tuple && !tuple->args.empty() ? tuple->args[0].as<ProducerLoadNode>() : nullptr;
        if (!handle || !load)
            fail("malformed buffer_bind_scope");
        Var v(handle);
        m_bufferSlots[v] = tensorSlotOf(load->tensor);
        ++m_liveBuffers[v];
        int32_t body = stmt(op->body);
        --m_liveBuffers[v];
        return body;
    }
    // Pragmas and every other attribute change nothing about the values computed.
    return stmt(op->body);
}

int32_t Compiler::callPacked(const EvaluateNode* op, const CallNode* call) {
    const auto* name = call->args.empty() ? nullptr : call->args[0].as<StringImmNode>();
    if (!name)
        fail("tvm_call_packed: the first argument must be the function's name");
    PackedCall packed;
    packed.name = name->value;
    for (size_t i = 1; i < call->args.size(); ++i) {
        const Expr& arg = call->args[i];
        PackedCallArg a;
        const auto* array = arg.as<CallNode>();
        if (const auto* text = arg.as<StringImmNode>()) {
            a.kind = PackedCallArg::Kind::String;
            a.text = text->value;
        } else if (array && array->isIntrinsic("tvm_stack_make_array")) {
            const auto* data = array->args.size() == 6 ? array->args[0].as<VarNode>() : nullptr;
            const auto* shape = data ? array->args[1].as<CallNode>() : nullptr;
            if (!data || !shape || !shape->isIntrinsic("tvm_stack_make_shape"))
                fail("tvm_stack_make_array: expected (buffer, tvm_stack_make_shape(...), strides, "
                     "ndim, dtype, elem_offset)");
            const auto* strides = array->args[2].as<CallNode>();
            if (!isConstInt(array->args[2], 0) &&
                (!strides || !strides->isIntrinsic("tvm_stack_make_shape") ||
                 strides->args.size() != shape->args.size()))
                fail("tvm_stack_make_array: the strides must be 0 or a tvm_stack_make_shape of "
                     "one stride per dimension");
            a.kind = PackedCallArg::Kind::Array;
            a.bufferSlot = bufferSlotOf(Var(data));
            for (const Expr& extent : shape->args)
                a.shape.push_back(expr(extent, 0));
            if (strides)
                for (const Expr& stride : strides->args)
                    a.strides.push_back(expr(stride, 0));
            a.elemOffset = expr(array->args[5], 0);
            a.dtype = array->args[4].type();
        } else if (const auto* handle = arg.as<VarNode>(); handle && arg.type().isHandle()) {
            a.kind = PackedCallArg::Kind::Handle;
            a.bufferSlot = bufferSlotOf(Var(handle));
        } else if (arg.type().isHandle() || !arg.type().isScalar()) {
            fail("tvm_call_packed: argument '" + toString(arg) + "' is not supported");
        } else {
            a.kind = arg.type().isFloat() ? PackedCallArg::Kind::Float : PackedCallArg::Kind::Int;
            a.expr = expr(arg, 0);
        }
        packed.args.push_back(std::move(a));
    }
    SNode n;
    n.source = op;
    n.op = SOp::CallPacked;
    n.aux = int32_t(m_p.packedCalls.size());
    packed.reader = m_reader;
    m_p.packedCalls.push_back(std::move(packed));
    return emitStmt(n);
}

int32_t Compiler::threadExtent(const AttrStmtNode* op) {
    if (m_kernel < 0)
        return launch(op);
    const auto* iv = op->node.as<IterVarNode>();
    int axis = threadTagIndex(iv->threadTag);
    SNode n;
    n.op = SOp::BindThread;
    n.a = expr(op->value, 0);
    n.aux = axis;
    n.slot = slotOf(iv->var);
    n.source = op;
    m_threadRanks.push_back(axis < 3 ? 0 : 1);
    enter(iv->var);
    n.body = stmt(op->body);
    leave(iv->var);
    m_threadRanks.pop_back();
    return emitStmt(n);
}

int32_t Compiler::launch(const AttrStmtNode* op) {
    int32_t id = int32_t(m_p.kernels.size());
    m_p.kernels.emplace_back();
    m_p.kernels[size_t(id)].source = op;
    // The launch extents come from every thread_extent of the nest and are evaluated where the
    // kernel is launched, so they may use host variables only (as in SplitHostDevice).
    std::vector<std::pair<int, Expr>> extents;
    std::vector<std::pair<int, Var>> threadVars;
    postOrderVisit(Stmt(op), [&](const NodeRef& node) {
        const auto* attr = node.as<AttrStmtNode>();
        if (!attr || attr->key != attr::kThreadExtent)
            return;
        const auto* iv = attr->node.as<IterVarNode>();
        if (int axis = iv ? threadTagIndex(iv->threadTag) : -1; axis >= 0) {
            extents.emplace_back(axis, attr->value);
            threadVars.emplace_back(axis, iv->var);
        }
    });
    Kernel& kernel = m_p.kernels[size_t(id)];
    for (const auto& [axis, extent] : extents) {
        for (const Var& v : usedVars(extent)) {
            auto live = m_live.find(v);
            if (live == m_live.end() || live->second <= 0)
                fail("the launch extent " + toString(extent) + " of " + kThreadTags[size_t(axis)] +
                     " uses '" + v.name() +
                     "', which only the kernel defines: a GPU needs every launch extent "
                     "before the kernel starts");
        }
        kernel.extents[axis].push_back(expr(extent, 0));
    }
    for (const auto& [axis, v] : threadVars) {
        kernel.threadSlots.emplace_back(axis, slotOf(v));
        enter(v);
    }
    m_kernel = id;
    int32_t body = threadExtent(op);
    m_kernel = -1;
    for (const auto& [axis, v] : threadVars)
        leave(v);
    m_p.kernels[size_t(id)].body = body;
    SNode n;
    n.op = SOp::Launch;
    n.aux = id;
    n.source = op;
    return emitStmt(n);
}

std::string Compiler::scopeOfRealize(const ProducerRealizeNode* op) const {
    if (auto it = m_realizeScopes.find(op->tensor.op.get());
        it != m_realizeScopes.end() && !it->second.empty())
        return it->second;
    if (!op->storageScope.empty())
        return op->storageScope;
    return defaultScope(m_threadRanks);
}

int32_t Compiler::newSite(AllocSite site) {
    site.kind = kindOfScope(site.scope);
    site.inKernel = m_kernel >= 0;
    site.source = m_stmt;
    int32_t id = int32_t(m_p.sites.size());
    if (site.inKernel && (site.kind == ScopeKind::PerBlock || site.kind == ScopeKind::PerWarp))
        m_p.kernels[size_t(m_kernel)].perBlockSites.push_back(id);
    if (site.inKernel && site.kind == ScopeKind::PerLaunch)
        m_p.kernels[size_t(m_kernel)].perLaunchSites.push_back(id);
    m_p.sites.push_back(std::move(site));
    return id;
}

int32_t Compiler::allocate(const AllocateNode* op) {
    AllocSite site;
    site.name = op->bufferVar.name();
    site.bufferVar = op->bufferVar;
    site.dtype = op->type.element();
    if (!elemTypeOf(site.dtype, &site.elem))
        fail("unsupported element type " + op->type.toString());
    auto scope = m_storageScopes.find(op->bufferVar);
    site.scope = scope != m_storageScopes.end() ? scope->second : defaultScope(m_threadRanks);
    for (const Expr& extent : op->extents)
        site.extents.push_back(expr(extent, 0));
    site.bufferSlot = assignBufferSlot(op->bufferVar);
    SNode n;
    n.op = SOp::Allocate;
    n.aux = newSite(std::move(site));
    n.source = op;
    ++m_liveBuffers[op->bufferVar];
    n.body = stmt(op->body);
    --m_liveBuffers[op->bufferVar];
    return emitStmt(n);
}

int32_t Compiler::realize(const ProducerRealizeNode* op) {
    if (m_argTensors.count(op->tensor))
        return stmt(op->body); // an argument's storage is the caller's, as in StorageFlatten
    if (op->bounds.size() > size_t(kMaxRank))
        fail("realize of rank " + std::to_string(op->bounds.size()) + " (at most " +
             std::to_string(kMaxRank) + ")");
    AllocSite site;
    site.name = tensorBufferName(op->tensor);
    site.tensor = op->tensor;
    site.dtype = op->tensor.dtype();
    if (!elemTypeOf(site.dtype, &site.elem))
        fail("unsupported element type " + site.dtype.toString());
    site.scope = scopeOfRealize(op);
    for (const Range& r : op->bounds) {
        site.mins.push_back(expr(r.min, 0));
        site.extents.push_back(expr(r.extent, 0));
    }
    auto slot = m_tensorSlots.find(op->tensor);
    site.bufferSlot = slot != m_tensorSlots.end() ? slot->second : m_p.numBufferSlots++;
    m_tensorSlots[op->tensor] = site.bufferSlot;
    SNode n;
    n.op = SOp::Allocate;
    n.aux = newSite(std::move(site));
    n.source = op;
    ++m_liveTensors[op->tensor];
    n.body = stmt(op->body);
    --m_liveTensors[op->tensor];
    return emitStmt(n);
}

int32_t Compiler::store(const StoreNode* op) {
    int32_t slot = bufferSlotOf(op->bufferVar);
    bool predicated = op->predicate.defined() && !isOne(op->predicate);
    std::vector<int32_t> lanes;
    for (int lane = 0; lane < op->value.type().lanes(); ++lane) {
        SNode n;
        n.op = SOp::Store;
        n.slot = slot;
        n.a = expr(op->index, lane);
        n.b = expr(op->value, lane);
        n.c = predicated ? expr(op->predicate, lane) : -1;
        n.floatValue = op->value.type().isFloat();
        n.source = op;
        lanes.push_back(emitStmt(n));
    }
    if (lanes.size() == 1)
        return lanes[0];
    SNode n;
    n.op = SOp::Seq;
    n.a = pushList(lanes);
    n.b = int32_t(lanes.size());
    n.source = op;
    return emitStmt(n);
}

int32_t Compiler::producerStore(const ProducerStoreNode* op) {
    SNode n;
    n.op = SOp::StoreND;
    n.slot = tensorSlotOf(op->tensor);
    std::vector<int32_t> indices;
    for (const Expr& index : op->indices)
        indices.push_back(expr(index, 0));
    n.a = pushList(indices);
    n.b = int32_t(indices.size());
    n.c = expr(op->value, 0);
    n.floatValue = op->value.type().isFloat();
    n.source = op;
    return emitStmt(n);
}

int32_t Compiler::evaluate(const EvaluateNode* op) {
    SNode n;
    n.source = op;
    const auto* call = op->value.as<CallNode>();
    if (call && call->isIntrinsic("tvm_storage_sync")) {
        const auto* scope = call->args.empty() ? nullptr : call->args[0].as<StringImmNode>();
        if (scope && scope->value == "global")
            fail("global barriers (tvm_storage_sync(\"global\")) are not supported");
        n.op = SOp::Barrier;
        if (m_kernel >= 0)
            m_p.kernels[size_t(m_kernel)].hasBarrier = true;
        return emitStmt(n);
    }
    if (call && call->isIntrinsic("tvm_call_packed"))
        return callPacked(op, call);
    // A prefetch is a hint to a cache: nothing to do, and its address is not an access.
    if (isConst(op->value) || (call && call->isIntrinsic("prefetch")))
        return emitStmt(n); // `Evaluate(0)`, the no-op statement
    n.op = SOp::Evaluate;
    n.a = expr(op->value, 0);
    return emitStmt(n);
}

int32_t Compiler::producerConsumer(const ProducerConsumerNode* op) {
    // Only `produce` blocks name a reader: a consume block's loads belong to the stage around.
    if (!op->isProducer)
        return stmt(op->body);
    const auto [known, added] = m_readerIds.try_emplace(op->op->name, int32_t(m_p.readers.size()));
    if (added)
        m_p.readers.push_back(op->op->name);
    const int32_t reader = known->second;
    const int32_t outer = m_reader;
    m_reader = reader;
    const int32_t id = stmt(op->body);
    m_reader = outer;
    return id;
}

} // namespace bs::interp

/// Functions, statements and loops of the LLVM code generator (see CodeGenLlvm.h).
#include "codegen/llvm/CodeGenLlvm.h"

#include "ir/KernelAbi.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "lower/LoopAnnotations.h"

#include <cctype>
#include <optional>

namespace bs::llvmgen {

namespace {

bool isCIdentifier(const std::string& name) {
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])))
        return false;
    for (char c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
            return false;
    }
    return true;
}

/// The kernel's parameters must be distinct Vars: handles for buffers, values for scalars.
void checkSignature(const CpuKernel& kernel) {
    if (!isCIdentifier(kernel.name))
        throw UserError("kernel name '" + kernel.name +
                        "' is not a C identifier (letters, digits and '_', not starting with a "
                        "digit)");
    if (!kernel.body.defined())
        throw UserError("kernel '" + kernel.name + "' has no body");
    VarSet seen;
    for (const Var& buffer : kernel.buffers) {
        if (!buffer.type().isHandle())
            throw UserError("buffer argument '" + buffer.name() + "' of kernel '" + kernel.name +
                            "' must be a handle, got " + buffer.type().toString());
        if (!seen.insert(buffer).second)
            throw UserError("argument '" + buffer.name() + "' appears twice in kernel '" +
                            kernel.name + "'");
    }
    for (const Var& scalar : kernel.scalars) {
        if (scalar.type().isHandle() || scalar.type().isVector())
            throw UserError("scalar argument '" + scalar.name() + "' of kernel '" + kernel.name +
                            "' must be a scalar number, got " + scalar.type().toString());
        if (!seen.insert(scalar).second)
            throw UserError("argument '" + scalar.name() + "' appears twice in kernel '" +
                            kernel.name + "'");
    }
}

} // namespace

CodeGenLlvm::ScopedBinding::ScopedBinding(CodeGenLlvm& codegen, const Var& var, llvm::Value* value)
    : m_codegen(codegen), m_var(var), m_previous(nullptr) {
    auto it = codegen.m_vars.find(var);
    if (it != codegen.m_vars.end())
        m_previous = it->second;
    codegen.m_vars[var] = value;
}

CodeGenLlvm::ScopedBinding::~ScopedBinding() {
    if (m_previous)
        m_codegen.m_vars[m_var] = m_previous;
    else
        m_codegen.m_vars.erase(m_var);
}

CodeGenLlvm::CodeGenLlvm(llvm::Module& module, const HostTarget& host,
                         const LlvmCodegenOptions& options)
    : m_context(module.getContext()), m_module(module), m_builder(m_context),
      m_mdBuilder(m_context), m_host(host), m_options(options) {}

void CodeGenLlvm::generate(const CpuKernel& kernel) {
    checkSignature(kernel);
    m_kernelName = kernel.name;
    std::vector<Var> params = kernel.buffers;
    params.insert(params.end(), kernel.scalars.begin(), kernel.scalars.end());
    llvm::Function* body = emitFunction(kernel.name + "_compute", {}, params,
                                        [&](llvm::Function*) { visitStmt(kernel.body); });
    emitEntry(kernel, body);
}

// ---------------------------------------------------------------------------------------------
// Functions

void CodeGenLlvm::setTargetAttributes(llvm::Function* function) {
    function->addFnAttr("target-cpu", m_host.cpu);
    function->addFnAttr("target-features", m_host.features);
    function->addFnAttr(llvm::Attribute::NoUnwind);
}

llvm::Function* CodeGenLlvm::emitFunction(const std::string& name,
                                          const std::vector<llvm::Type*>& leading,
                                          const std::vector<Var>& params,
                                          const BodyEmitter& emitBody) {
    std::vector<llvm::Type*> types = leading;
    for (const Var& param : params)
        types.push_back(valueType(param.type()));
    auto* type = llvm::FunctionType::get(m_builder.getInt32Ty(), types, false);
    auto* function = llvm::Function::Create(type, llvm::Function::InternalLinkage, name, m_module);
    setTargetAttributes(function);

    // The new function sees only its parameters; the caller's state comes back afterwards.
    VarMap<llvm::Value*> outerVars = std::move(m_vars);
    m_vars.clear();
    FunctionState* outerFunction = m_function;
    llvm::IRBuilderBase::InsertPoint outerPoint = m_builder.saveIP();
    FunctionState state;
    state.function = function;
    state.entry = llvm::BasicBlock::Create(m_context, "entry", function);
    m_function = &state;
    m_builder.SetInsertPoint(state.entry);
    for (size_t i = 0; i < params.size(); ++i) {
        llvm::Argument* arg = function->getArg(unsigned(leading.size() + i));
        arg->setName(params[i].name());
        // Distinct buffer arguments never overlap (as TVM assumes): lets LLVM vectorize
        // without runtime alias checks.
        if (params[i].type().isHandle())
            arg->addAttr(llvm::Attribute::NoAlias);
        m_vars[params[i]] = arg;
    }
    emitBody(function);
    if (!blockTerminated())
        emitReturn(m_builder.getInt32(0));

    m_vars = std::move(outerVars);
    m_function = outerFunction;
    m_builder.restoreIP(outerPoint);
    return function;
}

void CodeGenLlvm::emitEntry(const CpuKernel& kernel, llvm::Function* body) {
    llvm::Type* bytePtr = m_builder.getInt8PtrTy();
    llvm::Type* int64 = m_builder.getInt64Ty();
    auto* type = llvm::FunctionType::get(m_builder.getInt32Ty(),
                                         {bytePtr->getPointerTo(), int64->getPointerTo()}, false);
    auto* entry =
        llvm::Function::Create(type, llvm::Function::ExternalLinkage, kernel.name, m_module);
    setTargetAttributes(entry);
    llvm::Argument* buffers = entry->getArg(0);
    llvm::Argument* scalars = entry->getArg(1);
    buffers->setName("buffers");
    scalars->setName("scalars");

    llvm::IRBuilderBase::InsertPoint outerPoint = m_builder.saveIP();
    m_builder.SetInsertPoint(llvm::BasicBlock::Create(m_context, "entry", entry));
    std::vector<llvm::Value*> args;
    for (size_t i = 0; i < kernel.buffers.size(); ++i) {
        llvm::Value* slot = m_builder.CreateConstInBoundsGEP1_64(bytePtr, buffers, i);
        args.push_back(m_builder.CreateLoad(bytePtr, slot, kernel.buffers[i].name()));
    }
    for (size_t i = 0; i < kernel.scalars.size(); ++i) {
        llvm::Value* slot = m_builder.CreateConstInBoundsGEP1_64(int64, scalars, i);
        args.push_back(unpackScalar(kernel.scalars[i], m_builder.CreateLoad(int64, slot)));
    }
    m_builder.CreateRet(m_builder.CreateCall(body, args));
    m_builder.restoreIP(outerPoint);
}

llvm::Value* CodeGenLlvm::unpackScalar(const Var& var, llvm::Value* slot) {
    DataType type = var.type();
    if (type.isBool())
        return m_builder.CreateICmpNE(slot, m_builder.getInt64(0), var.name());
    if (type.isFloat()) {
        // The slot holds the bits of a double (packFloatScalar).
        llvm::Value* value = m_builder.CreateBitCast(slot, m_builder.getDoubleTy());
        return m_builder.CreateFPCast(value, valueType(type), var.name());
    }
    return m_builder.CreateIntCast(slot, valueType(type), type.isInt(), var.name());
}

// ---------------------------------------------------------------------------------------------
// Control flow helpers

llvm::BasicBlock* CodeGenLlvm::newBlock(const char* name) {
    return llvm::BasicBlock::Create(m_context, name, m_function->function);
}

bool CodeGenLlvm::blockTerminated() const {
    return m_builder.GetInsertBlock()->getTerminator() != nullptr;
}

llvm::AllocaInst* CodeGenLlvm::entryAlloca(llvm::Type* type, uint64_t count,
                                           const std::string& name) {
    // In the entry block, so that an allocation inside a loop is made once per call.
    llvm::IRBuilder<> entry(m_function->entry, m_function->entry->begin());
    llvm::AllocaInst* alloca = entry.CreateAlloca(llvm::ArrayType::get(type, count), nullptr, name);
    alloca->setAlignment(llvm::Align(64));
    return alloca;
}

llvm::Value* CodeGenLlvm::lookupVar(const Var& var) {
    auto it = m_vars.find(var);
    if (it == m_vars.end())
        throw UserError("variable '" + var.name() + "' is used but not bound in kernel '" +
                        m_kernelName + "': pass it as a scalar argument or bind it by a let");
    return it->second;
}

int CodeGenLlvm::addFailureMessage(std::string message) {
    m_failureMessages.push_back(std::move(message));
    return int(m_failureMessages.size());
}

void CodeGenLlvm::emitReturn(llvm::Value* code) {
    llvm::FunctionCallee freeFn =
        runtimeFunction(kFreeSymbol, m_builder.getVoidTy(), {m_builder.getInt8PtrTy()});
    for (auto it = m_function->heapBuffers.rbegin(); it != m_function->heapBuffers.rend(); ++it)
        m_builder.CreateCall(freeFn, {*it});
    m_builder.CreateRet(code);
}

void CodeGenLlvm::emitReturnOnFailure(llvm::Value* status) {
    llvm::BasicBlock* failed = newBlock("failed");
    llvm::BasicBlock* ok = newBlock("ok");
    m_builder.CreateCondBr(m_builder.CreateICmpNE(status, m_builder.getInt32(0)), failed, ok,
                           m_mdBuilder.createBranchWeights(1, 2000));
    m_builder.SetInsertPoint(failed);
    emitReturn(status);
    m_builder.SetInsertPoint(ok);
}

llvm::MDNode* CodeGenLlvm::loopHint(const char* key) {
    // A distinct loop ID whose first operand is itself, then the hint (LangRef, "llvm.loop").
    llvm::Metadata* hint[] = {llvm::MDString::get(m_context, key),
                              llvm::ConstantAsMetadata::get(m_builder.getTrue())};
    llvm::MDNode* property = llvm::MDNode::get(m_context, hint);
    llvm::MDNode* loopId = llvm::MDNode::getDistinct(m_context, {nullptr, property});
    loopId->replaceOperandWith(0, loopId);
    return loopId;
}

void CodeGenLlvm::emitLoop(const Var& var, llvm::Value* begin, llvm::Value* end, const Stmt& body,
                           llvm::MDNode* hints) {
    llvm::BasicBlock* preheader = m_builder.GetInsertBlock();
    llvm::BasicBlock* header = newBlock("for_header");
    llvm::BasicBlock* loopBody = newBlock("for_body");
    llvm::BasicBlock* exit = newBlock("for_end");
    m_builder.CreateBr(header);

    m_builder.SetInsertPoint(header);
    llvm::PHINode* index = m_builder.CreatePHI(begin->getType(), 2, var.name());
    index->addIncoming(begin, preheader);
    llvm::Value* inRange = var.type().isUInt() ? m_builder.CreateICmpULT(index, end)
                                               : m_builder.CreateICmpSLT(index, end);
    m_builder.CreateCondBr(inRange, loopBody, exit);

    m_builder.SetInsertPoint(loopBody);
    {
        ScopedBinding binding(*this, var, index);
        visitStmt(body);
    }
    // The increment cannot overflow: the index stays below `end`.
    llvm::Value* next = var.type().isUInt()
                            ? m_builder.CreateNUWAdd(index, constInt(var.type(), 1))
                            : m_builder.CreateNSWAdd(index, constInt(var.type(), 1));
    llvm::BranchInst* latch = m_builder.CreateBr(header);
    if (hints)
        latch->setMetadata(llvm::LLVMContext::MD_loop, hints);
    index->addIncoming(next, m_builder.GetInsertBlock());
    m_builder.SetInsertPoint(exit);
}

// ---------------------------------------------------------------------------------------------
// Statements

void CodeGenLlvm::visit(const LetStmtNode* op) {
    llvm::Value* value = visitExpr(op->value);
    if (auto* inst = llvm::dyn_cast<llvm::Instruction>(value); inst && !inst->hasName())
        inst->setName(op->var.name());
    ScopedBinding binding(*this, op->var, value);
    visitStmt(op->body);
}

void CodeGenLlvm::visit(const AttrStmtNode* op) {
    // Storage scopes, pragmas and compute scopes change nothing on the CPU. A virtual thread
    // that InjectVirtualThread did not lower runs its copies one after the other, as a loop.
    // Thread extents mean the statement is a GPU kernel.
    const auto* thread = op->node.as<IterVarNode>();
    if (op->key == attr::kVirtualThread && thread) {
        DataType type = thread->var.type();
        llvm::Value* count = emitCast(op->value.type(), type, visitExpr(op->value));
        emitLoop(thread->var, constInt(type, 0), count, op->body, nullptr);
        return;
    }
    if (op->key == attr::kThreadExtent) {
        std::string name = !thread                     ? nodeToString(op->node)
                           : thread->threadTag.empty() ? thread->var.name()
                                                       : thread->threadTag;
        throw UserError("kernel '" + m_kernelName + "' binds '" + name + "' to a GPU thread (" +
                        op->key +
                        "): GPU kernels cannot run on the CPU target; run it on the cuda or the "
                        "emulate target");
    }
    visitStmt(op->body);
}

llvm::Value* CodeGenLlvm::emitBranchCondition(const Expr& condition, const char* statement) {
    if (!condition.type().isBool() || !condition.type().isScalar())
        throw UserError(std::string("the condition of ") + statement + " '" + toString(condition) +
                        "' in kernel '" + m_kernelName + "' must be a scalar bool, got " +
                        condition.type().toString());
    return visitExpr(condition);
}

void CodeGenLlvm::visit(const AssertStmtNode* op) {
    llvm::Value* holds = emitBranchCondition(op->condition, "an assert");
    const auto* text = op->message.as<StringImmNode>();
    int code = addFailureMessage(text ? text->value : toString(op->message));
    llvm::BasicBlock* failed = newBlock("assert_failed");
    llvm::BasicBlock* ok = newBlock("assert_ok");
    m_builder.CreateCondBr(holds, ok, failed, m_mdBuilder.createBranchWeights(2000, 1));
    m_builder.SetInsertPoint(failed);
    emitReturn(m_builder.getInt32(code));
    m_builder.SetInsertPoint(ok);
    visitStmt(op->body);
}

void CodeGenLlvm::visit(const ForNode* op) {
    llvm::MDNode* hints = nullptr;
    std::optional<int64_t> extent = asConstInt(op->extent);
    switch (op->kind) {
    case ForKind::ThreadBinding:
        throw UserError("loop '" + op->loopVar.name() + "' of kernel '" + m_kernelName +
                        "' is bound to a GPU thread: GPU kernels cannot run on the CPU target; "
                        "run it on the cuda or the emulate target");
    case ForKind::Parallel:
        emitParallelLoop(op);
        return;
    case ForKind::Vectorized:
    case ForKind::Unrolled: {
        if (extent && *extent <= 0)
            return;
        // A constant extent: engine/lower's passes make vectors or copies of the body, which
        // are then compiled (vector lanes as LLVM vectors). A symbolic one: LLVM's hint.
        Stmt rewritten = !extent                           ? Stmt()
                         : op->kind == ForKind::Vectorized ? vectorizeLoops(Stmt(op))
                                                           : unrollLoops(Stmt(op));
        if (rewritten.defined() && !rewritten.same_as(Stmt(op))) {
            visitStmt(rewritten);
            return;
        }
        hints = loopHint(op->kind == ForKind::Vectorized ? "llvm.loop.vectorize.enable"
                                                         : "llvm.loop.unroll.enable");
        break;
    }
    case ForKind::Serial:
        break;
    }
    DataType type = op->loopVar.type();
    llvm::Value* begin = emitCast(op->min.type(), type, visitExpr(op->min));
    llvm::Value* count = emitCast(op->extent.type(), type, visitExpr(op->extent));
    emitLoop(op->loopVar, begin, emitArith(NodeKind::Add, type, begin, count), op->body, hints);
}

void CodeGenLlvm::visit(const ProducerConsumerNode* op) { visitStmt(op->body); }

void CodeGenLlvm::visit(const SeqNode* op) {
    for (const Stmt& stmt : op->seq)
        visitStmt(stmt);
}

void CodeGenLlvm::visit(const IfThenElseNode* op) {
    // `likely(c)` becomes branch weights (clang's __builtin_expect uses 2000:1).
    const auto* call = op->condition.as<CallNode>();
    bool isLikely = call && call->isIntrinsic("likely");
    llvm::Value* condition = emitBranchCondition(op->condition, "an if");
    llvm::BasicBlock* thenBlock = newBlock("if_then");
    llvm::BasicBlock* endBlock = newBlock("if_end");
    llvm::BasicBlock* elseBlock = op->elseCase.defined() ? newBlock("if_else") : endBlock;
    m_builder.CreateCondBr(condition, thenBlock, elseBlock,
                           isLikely ? m_mdBuilder.createBranchWeights(2000, 1) : nullptr);
    m_builder.SetInsertPoint(thenBlock);
    visitStmt(op->thenCase);
    m_builder.CreateBr(endBlock);
    if (op->elseCase.defined()) {
        m_builder.SetInsertPoint(elseBlock);
        visitStmt(op->elseCase);
        m_builder.CreateBr(endBlock);
    }
    m_builder.SetInsertPoint(endBlock);
}

void CodeGenLlvm::visit(const EvaluateNode* op) {
    if (!isConst(op->value))
        visitExpr(op->value);
}

void CodeGenLlvm::visitStmtDefault(const StmtNode* op) {
    std::string text = toString(Stmt(op));
    if (!text.empty() && text.back() == '\n')
        text.pop_back();
    throw UserError("cannot compile '" + text.substr(0, text.find('\n')) + "' in kernel '" +
                    m_kernelName +
                    "': tensor realizes and stores must be flattened to buffers first "
                    "(storageFlatten)");
}

} // namespace bs::llvmgen

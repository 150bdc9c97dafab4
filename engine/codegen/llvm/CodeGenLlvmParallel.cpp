/// Parallel loops, as TVM's CodeGenCPU outlines them (`CreateParallelLaunch`): the loop body
/// becomes a closure over the values it uses, and the runtime's parallel-for calls it on
/// chunks of the iteration range from the threads of runtime/ThreadPool.
///
/// For `parallel (i, 0, n) { body }` in kernel `k` this emits
///   - `k_parallel_0_body(i64 begin, i64 end, <captured values>)`: a serial loop over
///     [begin, end) running `body`; captured buffers are `noalias` parameters, so the body
///     vectorizes as well as the kernel's own loops;
///   - `k_parallel_0(i64 begin, i64 end, i8* closure)`: unpacks the captured values from a
///     struct and calls the body function;
///   - in the kernel: the struct filled on the stack, then
///     `status = bs_llvm_parallel_for(k_parallel_0, closure, min, min + extent)`, and an early
///     return when a chunk failed.
#include "codegen/llvm/CodeGenLlvm.h"

#include "ir/KernelAbi.h"

namespace bs::llvmgen {

namespace {

/// The variables `body` refers to (values and buffers) in order of first use, each once.
std::vector<Var> referencedVars(const Stmt& body) {
    std::vector<Var> vars;
    VarSet seen;
    auto add = [&](const Var& var) {
        if (seen.insert(var).second)
            vars.push_back(var);
    };
    postOrderVisit(body, [&](const NodeRef& node) {
        if (const auto* var = node.as<VarNode>())
            add(Var(var));
        else if (const auto* load = node.as<LoadNode>())
            add(load->bufferVar);
        else if (const auto* store = node.as<StoreNode>())
            add(store->bufferVar);
    });
    return vars;
}

/// `name(i64 begin, i64 end, i8* closure)`, the runtime's chunk signature: unpacks the
/// captured values from the closure struct and calls `body(begin, end, values...)`.
llvm::Function* emitChunkTrampoline(llvm::Module& module, const std::string& name,
                                    llvm::StructType* closureType, llvm::Function* body) {
    llvm::LLVMContext& context = module.getContext();
    llvm::Type* int64 = llvm::Type::getInt64Ty(context);
    auto* type = llvm::FunctionType::get(llvm::Type::getInt32Ty(context),
                                         {int64, int64, llvm::Type::getInt8PtrTy(context)}, false);
    auto* chunk = llvm::Function::Create(type, llvm::Function::InternalLinkage, name, module);
    llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", chunk));
    llvm::Value* closure = builder.CreateBitCast(chunk->getArg(2), closureType->getPointerTo());
    std::vector<llvm::Value*> args = {chunk->getArg(0), chunk->getArg(1)};
    for (unsigned i = 0; i < closureType->getNumElements(); ++i) {
        llvm::Value* field = builder.CreateStructGEP(closureType, closure, i);
        args.push_back(builder.CreateLoad(closureType->getElementType(i), field,
                                          body->getArg(i + 2)->getName()));
    }
    builder.CreateRet(builder.CreateCall(body, args));
    return chunk;
}

} // namespace

void CodeGenLlvm::emitParallelLoop(const ForNode* op) {
    DataType type = op->loopVar.type();
    bool isSigned = !type.isUInt();
    llvm::Type* int64 = m_builder.getInt64Ty();
    llvm::Value* begin = emitCast(op->min.type(), type, visitExpr(op->min));
    llvm::Value* count = emitCast(op->extent.type(), type, visitExpr(op->extent));
    llvm::Value* end = emitArith(NodeKind::Add, type, begin, count);

    // Captured: what the body uses that is bound out here. Variables bound inside the body
    // (lets, inner loops, allocations) are not in scope yet and are left out.
    std::vector<Var> captured;
    std::vector<llvm::Type*> fieldTypes;
    for (const Var& var : referencedVars(op->body)) {
        auto bound = m_vars.find(var);
        if (var.same_as(op->loopVar) || bound == m_vars.end())
            continue;
        captured.push_back(var);
        fieldTypes.push_back(bound->second->getType());
    }
    std::string name = m_kernelName + "_parallel_" + std::to_string(m_parallelCount++);
    auto* closureType = llvm::StructType::create(m_context, fieldTypes, name + "_closure");
    llvm::Function* body =
        emitFunction(name + "_body", {int64, int64}, captured, [&](llvm::Function* function) {
            llvm::Value* lo =
                m_builder.CreateIntCast(function->getArg(0), begin->getType(), isSigned);
            llvm::Value* hi =
                m_builder.CreateIntCast(function->getArg(1), begin->getType(), isSigned);
            emitLoop(op->loopVar, lo, hi, op->body, nullptr);
        });
    llvm::Function* chunk = emitChunkTrampoline(m_module, name, closureType, body);
    setTargetAttributes(chunk);

    // The closure lives on the kernel's stack for the duration of the call.
    llvm::AllocaInst* closure = entryAlloca(closureType, 1, name + "_closure");
    llvm::Value* fields = m_builder.CreateBitCast(closure, closureType->getPointerTo());
    for (unsigned i = 0; i < captured.size(); ++i)
        m_builder.CreateStore(m_vars[captured[i]],
                              m_builder.CreateStructGEP(closureType, fields, i));
    llvm::Type* bytePtr = m_builder.getInt8PtrTy();
    llvm::FunctionCallee parallelFor = runtimeFunction(kParallelForSymbol, m_builder.getInt32Ty(),
                                                       {chunk->getType(), bytePtr, int64, int64});
    llvm::Value* status =
        m_builder.CreateCall(parallelFor, {chunk, m_builder.CreateBitCast(closure, bytePtr),
                                           m_builder.CreateIntCast(begin, int64, isSigned),
                                           m_builder.CreateIntCast(end, int64, isSigned)});
    emitReturnOnFailure(status);
}

} // namespace bs::llvmgen

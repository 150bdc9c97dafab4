/// Loads, stores, vectors and allocations of the LLVM code generator. A vector access whose
/// index is `ramp(base, 1, n)` is one contiguous vector load or store (masked when it has a
/// predicate), an index that is the same on every lane is one scalar load, and any other
/// vector index is a gather or a scatter: TVM's CodeGenLLVM makes the same three cases.
#include "codegen/llvm/CodeGenLlvm.h"

#include "ir/KernelAbi.h"
#include "ir/Op.h"
#include "ir/Printer.h"

namespace bs::llvmgen {

namespace {

/// The ramp of a contiguous access, `ramp(base, 1, n)`, or null.
const RampNode* contiguousRamp(const Expr& index) {
    const auto* ramp = index.as<RampNode>();
    return ramp && isConstInt(ramp->stride, 1) ? ramp : nullptr;
}

/// A predicate that is absent or the constant true needs no mask.
bool needsMask(const Expr& predicate) {
    if (!predicate.defined())
        return false;
    if (const auto* broadcast = predicate.as<BroadcastNode>())
        return needsMask(broadcast->value);
    return !isConstInt(predicate, 1);
}

llvm::Align elementAlign(DataType type) { return llvm::Align(std::max(1, type.bits() / 8)); }

} // namespace

llvm::Value* CodeGenLlvm::bufferValue(const Var& buffer) {
    if (!buffer.type().isHandle())
        throw UserError("'" + buffer.name() + "' is accessed as a buffer in kernel '" +
                        m_kernelName + "' but has type " + buffer.type().toString());
    return lookupVar(buffer);
}

llvm::Value* CodeGenLlvm::elementPointer(const Var& buffer, DataType element, llvm::Value* index) {
    llvm::Type* storage = storageType(element.element());
    llvm::Value* base = m_builder.CreateBitCast(bufferValue(buffer), storage->getPointerTo());
    return m_builder.CreateInBoundsGEP(storage, base, index, buffer.name());
}

llvm::Value* CodeGenLlvm::emitIndex(const Expr& index) {
    // GEP sign-extends narrow indices; an unsigned one is zero-extended first.
    llvm::Value* value = visitExpr(index);
    if (!index.type().isUInt() || index.type().bits() >= 64)
        return value;
    return emitCast(index.type(), DataType(DataType::Code::UInt, 64, index.type().lanes()), value);
}

llvm::Value* CodeGenLlvm::toStorage(DataType type, llvm::Value* value) {
    return type.isBool() ? m_builder.CreateZExt(value, storageType(type)) : value;
}

llvm::Value* CodeGenLlvm::fromStorage(DataType type, llvm::Value* value) {
    if (!type.isBool())
        return value;
    return m_builder.CreateICmpNE(value, llvm::Constant::getNullValue(value->getType()));
}

llvm::Value* CodeGenLlvm::vectorMask(const Expr& predicate, int lanes) {
    if (!needsMask(predicate))
        return llvm::Constant::getAllOnesValue(valueType(DataType::boolean().withLanes(lanes)));
    return splat(visitExpr(predicate), lanes);
}

// ---------------------------------------------------------------------------------------------
// Loads

llvm::Value* CodeGenLlvm::visit(const LoadNode* op) {
    if (op->index.type().lanes() != op->type.lanes())
        throw UserError("load '" + toString(Expr(op)) + "' reads " +
                        std::to_string(op->type.lanes()) + " lanes with an index of " +
                        std::to_string(op->index.type().lanes()));
    return op->type.isVector() ? emitVectorLoad(op) : emitScalarLoad(op);
}

llvm::Value* CodeGenLlvm::emitScalarLoad(const LoadNode* op) {
    llvm::Type* storage = storageType(op->type);
    auto load = [&] {
        llvm::Value* pointer = elementPointer(op->bufferVar, op->type, emitIndex(op->index));
        llvm::Value* value = m_builder.CreateAlignedLoad(storage, pointer, elementAlign(op->type));
        return fromStorage(op->type, value);
    };
    if (!needsMask(op->predicate))
        return load();
    // A predicated scalar load reads memory only when the predicate holds, else gives 0.
    llvm::Value* condition = visitExpr(op->predicate);
    llvm::BasicBlock* before = m_builder.GetInsertBlock();
    llvm::BasicBlock* doLoad = newBlock("load");
    llvm::BasicBlock* done = newBlock("load_end");
    m_builder.CreateCondBr(condition, doLoad, done);
    m_builder.SetInsertPoint(doLoad);
    llvm::Value* value = load();
    llvm::BasicBlock* loaded = m_builder.GetInsertBlock();
    m_builder.CreateBr(done);
    m_builder.SetInsertPoint(done);
    llvm::PHINode* result = m_builder.CreatePHI(value->getType(), 2);
    result->addIncoming(value, loaded);
    result->addIncoming(llvm::Constant::getNullValue(value->getType()), before);
    return result;
}

llvm::Value* CodeGenLlvm::emitVectorLoad(const LoadNode* op) {
    int lanes = op->type.lanes();
    llvm::Type* storage = storageType(op->type);
    llvm::Align align = elementAlign(op->type);
    llvm::Value* zero = llvm::Constant::getNullValue(storage);
    if (const RampNode* ramp = contiguousRamp(op->index)) {
        llvm::Value* first = elementPointer(op->bufferVar, op->type, emitIndex(ramp->base));
        llvm::Value* pointer = m_builder.CreateBitCast(first, storage->getPointerTo());
        if (!needsMask(op->predicate))
            return fromStorage(op->type, m_builder.CreateAlignedLoad(storage, pointer, align));
        llvm::Value* mask = vectorMask(op->predicate, lanes);
        return fromStorage(op->type,
                           m_builder.CreateMaskedLoad(storage, pointer, align, mask, zero));
    }
    if (const auto* broadcast = op->index.as<BroadcastNode>();
        broadcast && !needsMask(op->predicate)) {
        llvm::Value* pointer = elementPointer(op->bufferVar, op->type, emitIndex(broadcast->value));
        llvm::Value* value =
            m_builder.CreateAlignedLoad(storageType(op->type.element()), pointer, align);
        return fromStorage(op->type, splat(value, lanes));
    }
    llvm::Value* pointers = elementPointer(op->bufferVar, op->type, emitIndex(op->index));
    llvm::Value* value = m_builder.CreateMaskedGather(storage, pointers, align,
                                                      vectorMask(op->predicate, lanes), zero);
    return fromStorage(op->type, value);
}

// ---------------------------------------------------------------------------------------------
// Stores

void CodeGenLlvm::visit(const StoreNode* op) {
    DataType type = op->value.type();
    if (op->index.type().lanes() != type.lanes())
        throw UserError("store to '" + op->bufferVar.name() + "' writes " +
                        std::to_string(type.lanes()) + " lanes with an index of " +
                        std::to_string(op->index.type().lanes()));
    llvm::Value* value = toStorage(type, visitExpr(op->value));
    if (type.isVector()) {
        emitVectorStore(op, value);
        return;
    }
    llvm::BasicBlock* done = nullptr;
    if (needsMask(op->predicate)) {
        llvm::BasicBlock* doStore = newBlock("store");
        done = newBlock("store_end");
        m_builder.CreateCondBr(visitExpr(op->predicate), doStore, done);
        m_builder.SetInsertPoint(doStore);
    }
    llvm::Value* pointer = elementPointer(op->bufferVar, type, emitIndex(op->index));
    m_builder.CreateAlignedStore(value, pointer, elementAlign(type));
    if (done) {
        m_builder.CreateBr(done);
        m_builder.SetInsertPoint(done);
    }
}

void CodeGenLlvm::emitVectorStore(const StoreNode* op, llvm::Value* value) {
    DataType type = op->value.type();
    int lanes = type.lanes();
    llvm::Align align = elementAlign(type);
    if (const RampNode* ramp = contiguousRamp(op->index)) {
        llvm::Value* first = elementPointer(op->bufferVar, type, emitIndex(ramp->base));
        llvm::Value* pointer = m_builder.CreateBitCast(first, value->getType()->getPointerTo());
        if (needsMask(op->predicate))
            m_builder.CreateMaskedStore(value, pointer, align, vectorMask(op->predicate, lanes));
        else
            m_builder.CreateAlignedStore(value, pointer, align);
        return;
    }
    // Lanes with the same address are written in lane order, the last one wins (as a loop).
    llvm::Value* pointers = elementPointer(op->bufferVar, type, emitIndex(op->index));
    m_builder.CreateMaskedScatter(value, pointers, align, vectorMask(op->predicate, lanes));
}

// ---------------------------------------------------------------------------------------------
// Vectors

llvm::Value* CodeGenLlvm::visit(const RampNode* op) {
    // base + stride * <0, 1, ..., lanes-1>
    DataType type = op->type;
    llvm::Value* base = splat(visitExpr(op->base), op->lanes);
    llvm::Value* stride = splat(visitExpr(op->stride), op->lanes);
    std::vector<llvm::Constant*> steps;
    for (int k = 0; k < op->lanes; ++k) {
        steps.push_back(type.isFloat()
                            ? llvm::ConstantFP::get(valueType(type.element()), double(k))
                            : llvm::ConstantInt::get(valueType(type.element()), uint64_t(k)));
    }
    llvm::Value* offsets = emitArith(NodeKind::Mul, type, stride, llvm::ConstantVector::get(steps));
    return emitArith(NodeKind::Add, type, base, offsets);
}

llvm::Value* CodeGenLlvm::visit(const BroadcastNode* op) {
    return splat(visitExpr(op->value), op->lanes);
}

// ---------------------------------------------------------------------------------------------
// Allocations

llvm::Value* CodeGenLlvm::emitHeapAllocation(const AllocateNode* op, llvm::Value* bytes) {
    llvm::FunctionCallee allocFn =
        runtimeFunction(kAllocSymbol, m_builder.getInt8PtrTy(), {m_builder.getInt64Ty()});
    llvm::Value* pointer = m_builder.CreateCall(allocFn, {bytes}, op->bufferVar.name());
    int code = addFailureMessage("allocation of '" + op->bufferVar.name() + "' in kernel '" +
                                 m_kernelName + "' failed: out of memory");
    llvm::BasicBlock* failed = newBlock("alloc_failed");
    llvm::BasicBlock* ok = newBlock("alloc_ok");
    m_builder.CreateCondBr(m_builder.CreateIsNull(pointer), failed, ok,
                           m_mdBuilder.createBranchWeights(1, 2000));
    m_builder.SetInsertPoint(failed);
    emitReturn(m_builder.getInt32(code));
    m_builder.SetInsertPoint(ok);
    return pointer;
}

void CodeGenLlvm::visit(const AllocateNode* op) {
    if (op->condition.defined() && !isConstInt(op->condition, 1))
        throw UserError("allocation of '" + op->bufferVar.name() + "' in kernel '" + m_kernelName +
                        "' has a condition, which the CPU target does not support");
    int64_t count = op->constantSize();
    int64_t elementBytes = op->type.bytes();
    if (count >= 0 && count * elementBytes <= m_options.maxStackBytes) {
        llvm::AllocaInst* array =
            entryAlloca(storageType(op->type), uint64_t(count), op->bufferVar.name());
        ScopedBinding binding(*this, op->bufferVar,
                              m_builder.CreateBitCast(array, m_builder.getInt8PtrTy()));
        visitStmt(op->body);
        return;
    }
    llvm::Value* bytes = m_builder.getInt64(uint64_t(elementBytes));
    for (const Expr& extent : op->extents) {
        llvm::Value* value = emitCast(extent.type(), DataType::int64(), visitExpr(extent));
        bytes = m_builder.CreateMul(bytes, value);
    }
    llvm::Value* pointer = emitHeapAllocation(op, bytes);
    m_function->heapBuffers.push_back(pointer);
    {
        ScopedBinding binding(*this, op->bufferVar, pointer);
        visitStmt(op->body);
    }
    m_function->heapBuffers.pop_back();
    llvm::FunctionCallee freeFn =
        runtimeFunction(kFreeSymbol, m_builder.getVoidTy(), {m_builder.getInt8PtrTy()});
    m_builder.CreateCall(freeFn, {pointer});
}

} // namespace bs::llvmgen

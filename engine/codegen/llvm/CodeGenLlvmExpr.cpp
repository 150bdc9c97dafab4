/// Types, constants, arithmetic, comparisons, logic and casts of the LLVM code generator,
/// with TVM's semantics per type (TVM's CodeGenLLVM::VisitExpr_ for the same nodes).
#include "codegen/llvm/CodeGenLlvm.h"

#include "ir/Printer.h"

#include <llvm/IR/Intrinsics.h>

namespace bs::llvmgen {

// ---------------------------------------------------------------------------------------------
// Types and constants

llvm::Type* CodeGenLlvm::valueType(DataType type) {
    llvm::Type* scalar = nullptr;
    switch (type.code()) {
    case DataType::Code::Int:
    case DataType::Code::UInt:
        scalar = llvm::IntegerType::get(m_context, unsigned(type.bits()));
        break;
    case DataType::Code::Bool:
        scalar = m_builder.getInt1Ty();
        break;
    case DataType::Code::Float:
        if (type.bits() == 16)
            scalar = m_builder.getHalfTy();
        else if (type.bits() == 32)
            scalar = m_builder.getFloatTy();
        else if (type.bits() == 64)
            scalar = m_builder.getDoubleTy();
        break;
    case DataType::Code::Handle:
        if (type.isScalar())
            scalar = m_builder.getInt8PtrTy();
        break;
    }
    if (!scalar)
        throw UserError("type " + type.toString() + " is not supported by the CPU code generator");
    return type.isVector() ? llvm::FixedVectorType::get(scalar, unsigned(type.lanes())) : scalar;
}

llvm::Type* CodeGenLlvm::storageType(DataType type) {
    if (type.isBool())
        return valueType(DataType(DataType::Code::Int, 8, type.lanes()));
    return valueType(type);
}

llvm::Value* CodeGenLlvm::constInt(DataType type, int64_t value) {
    return llvm::ConstantInt::get(valueType(type), uint64_t(value), /*isSigned=*/true);
}

llvm::Value* CodeGenLlvm::splat(llvm::Value* value, int lanes) {
    if (lanes == 1 || value->getType()->isVectorTy())
        return value;
    return m_builder.CreateVectorSplat(unsigned(lanes), value);
}

llvm::Value* CodeGenLlvm::visit(const IntImmNode* op) { return constInt(op->type, op->value); }

llvm::Value* CodeGenLlvm::visit(const FloatImmNode* op) {
    return llvm::ConstantFP::get(valueType(op->type), op->value);
}

llvm::Value* CodeGenLlvm::visit(const StringImmNode* op) {
    throw UserError("string \"" + op->value + "\" used as a value in kernel '" + m_kernelName +
                    "': strings are only arguments of extern calls and assert messages");
}

llvm::Value* CodeGenLlvm::visit(const VarNode* op) { return lookupVar(Var(op)); }

llvm::Value* CodeGenLlvm::visitExprDefault(const ExprNode* op) {
    std::string reason = "this expression is not supported by the CPU code generator";
    if (op->nodeKind == NodeKind::ProducerLoad)
        reason = "tensor reads must be flattened to buffer loads first (storageFlatten)";
    else if (op->nodeKind == NodeKind::Reduce)
        reason = "reductions must be lowered to loops first (ScheduleOps)";
    throw UserError("cannot compile '" + toString(Expr(op)) + "' in kernel '" + m_kernelName +
                    "': " + reason);
}

// ---------------------------------------------------------------------------------------------
// Arithmetic

llvm::Value* CodeGenLlvm::emitArith(NodeKind kind, DataType type, llvm::Value* a, llvm::Value* b) {
    bool isFloat = type.isFloat();
    bool isSigned = type.isInt();
    // TVM marks signed 32/64-bit index arithmetic nsw, which lets LLVM widen indices.
    bool noSignedWrap = isSigned && type.bits() >= 32;
    switch (kind) {
    case NodeKind::Add:
        return isFloat ? m_builder.CreateFAdd(a, b)
                       : m_builder.CreateAdd(a, b, "", false, noSignedWrap);
    case NodeKind::Sub:
        return isFloat ? m_builder.CreateFSub(a, b)
                       : m_builder.CreateSub(a, b, "", false, noSignedWrap);
    case NodeKind::Mul:
        return isFloat ? m_builder.CreateFMul(a, b)
                       : m_builder.CreateMul(a, b, "", false, noSignedWrap);
    case NodeKind::Div:
        return isFloat    ? m_builder.CreateFDiv(a, b)
               : isSigned ? m_builder.CreateSDiv(a, b)
                          : m_builder.CreateUDiv(a, b);
    case NodeKind::Mod:
        return isFloat    ? m_builder.CreateFRem(a, b)
               : isSigned ? m_builder.CreateSRem(a, b)
                          : m_builder.CreateURem(a, b);
    case NodeKind::FloorDiv:
        return emitFloorDiv(type, a, b);
    case NodeKind::FloorMod:
        return emitFloorMod(type, a, b);
    case NodeKind::Min:
        return emitMinMax(true, type, a, b);
    case NodeKind::Max:
        return emitMinMax(false, type, a, b);
    default:
        BS_UNREACHABLE("not an arithmetic node kind " << int(kind));
    }
}

namespace {

/// Whether a signed truncating division's result must move down by one to round towards minus
/// infinity: a non-zero remainder whose sign differs from the divisor's (-7 / 2 is -3
/// remainder -1, floordiv is -4, floormod is -1 + 2 = 1).
llvm::Value* needsFloorAdjust(llvm::IRBuilder<>& builder, llvm::Value* remainder,
                              llvm::Value* divisor) {
    llvm::Value* zero = llvm::Constant::getNullValue(remainder->getType());
    llvm::Value* nonZero = builder.CreateICmpNE(remainder, zero);
    llvm::Value* signsDiffer = builder.CreateICmpSLT(builder.CreateXor(remainder, divisor), zero);
    return builder.CreateAnd(nonZero, signsDiffer);
}

} // namespace

llvm::Value* CodeGenLlvm::emitFloorDiv(DataType type, llvm::Value* a, llvm::Value* b) {
    if (type.isFloat()) {
        llvm::Function* floorFn =
            llvm::Intrinsic::getDeclaration(&m_module, llvm::Intrinsic::floor, {a->getType()});
        return m_builder.CreateCall(floorFn, {m_builder.CreateFDiv(a, b)});
    }
    if (!type.isInt())
        return m_builder.CreateUDiv(a, b);
    llvm::Value* quotient = m_builder.CreateSDiv(a, b);
    llvm::Value* adjust = needsFloorAdjust(m_builder, m_builder.CreateSRem(a, b), b);
    return m_builder.CreateSelect(adjust, m_builder.CreateSub(quotient, constInt(type, 1)),
                                  quotient);
}

llvm::Value* CodeGenLlvm::emitFloorMod(DataType type, llvm::Value* a, llvm::Value* b) {
    if (type.isFloat()) {
        // a - floor(a / b) * b, as TVM's floormod on floats.
        llvm::Value* quotient = emitFloorDiv(type, a, b);
        return m_builder.CreateFSub(a, m_builder.CreateFMul(quotient, b));
    }
    if (!type.isInt())
        return m_builder.CreateURem(a, b);
    llvm::Value* remainder = m_builder.CreateSRem(a, b);
    llvm::Value* adjust = needsFloorAdjust(m_builder, remainder, b);
    return m_builder.CreateSelect(adjust, m_builder.CreateAdd(remainder, b), remainder);
}

llvm::Value* CodeGenLlvm::emitMinMax(bool isMin, DataType type, llvm::Value* a, llvm::Value* b) {
    // select(a < b, a, b) as TVM emits it: NaN operands pick `b`.
    llvm::Value* aFirst = emitCompare(isMin ? NodeKind::LT : NodeKind::GT, type, a, b);
    return m_builder.CreateSelect(aFirst, a, b);
}

#define BS_VISIT_ARITH(N)                                                                          \
    llvm::Value* CodeGenLlvm::visit(const N##Node* op) {                                           \
        llvm::Value* a = visitExpr(op->a);                                                         \
        return emitArith(NodeKind::N, op->type, a, visitExpr(op->b));                              \
    }
BS_VISIT_ARITH(Add)
BS_VISIT_ARITH(Sub)
BS_VISIT_ARITH(Mul)
BS_VISIT_ARITH(Div)
BS_VISIT_ARITH(Mod)
BS_VISIT_ARITH(FloorDiv)
BS_VISIT_ARITH(FloorMod)
BS_VISIT_ARITH(Min)
BS_VISIT_ARITH(Max)
#undef BS_VISIT_ARITH

// ---------------------------------------------------------------------------------------------
// Comparisons and logic

llvm::Value* CodeGenLlvm::emitCompare(NodeKind kind, DataType operandType, llvm::Value* a,
                                      llvm::Value* b) {
    using P = llvm::CmpInst::Predicate;
    P predicate = P::BAD_ICMP_PREDICATE;
    bool isFloat = operandType.isFloat();
    bool isSigned = operandType.isInt();
    switch (kind) {
    // Ordered float comparisons except `!=`, which holds for NaN as in C.
    case NodeKind::EQ:
        predicate = isFloat ? P::FCMP_OEQ : P::ICMP_EQ;
        break;
    case NodeKind::NE:
        predicate = isFloat ? P::FCMP_UNE : P::ICMP_NE;
        break;
    case NodeKind::LT:
        predicate = isFloat ? P::FCMP_OLT : isSigned ? P::ICMP_SLT : P::ICMP_ULT;
        break;
    case NodeKind::LE:
        predicate = isFloat ? P::FCMP_OLE : isSigned ? P::ICMP_SLE : P::ICMP_ULE;
        break;
    case NodeKind::GT:
        predicate = isFloat ? P::FCMP_OGT : isSigned ? P::ICMP_SGT : P::ICMP_UGT;
        break;
    case NodeKind::GE:
        predicate = isFloat ? P::FCMP_OGE : isSigned ? P::ICMP_SGE : P::ICMP_UGE;
        break;
    default:
        BS_UNREACHABLE("not a comparison node kind " << int(kind));
    }
    return isFloat ? m_builder.CreateFCmp(predicate, a, b) : m_builder.CreateICmp(predicate, a, b);
}

#define BS_VISIT_COMPARE(N)                                                                        \
    llvm::Value* CodeGenLlvm::visit(const N##Node* op) {                                           \
        llvm::Value* a = visitExpr(op->a);                                                         \
        return emitCompare(NodeKind::N, op->a.type(), a, visitExpr(op->b));                        \
    }
BS_VISIT_COMPARE(EQ)
BS_VISIT_COMPARE(NE)
BS_VISIT_COMPARE(LT)
BS_VISIT_COMPARE(LE)
BS_VISIT_COMPARE(GT)
BS_VISIT_COMPARE(GE)
#undef BS_VISIT_COMPARE

llvm::Value* CodeGenLlvm::visit(const AndNode* op) {
    llvm::Value* a = visitExpr(op->a);
    return m_builder.CreateAnd(a, visitExpr(op->b));
}

llvm::Value* CodeGenLlvm::visit(const OrNode* op) {
    llvm::Value* a = visitExpr(op->a);
    return m_builder.CreateOr(a, visitExpr(op->b));
}

llvm::Value* CodeGenLlvm::visit(const NotNode* op) { return m_builder.CreateNot(visitExpr(op->a)); }

llvm::Value* CodeGenLlvm::visit(const SelectNode* op) {
    // Both values are computed, as in TVM; if_then_else is the lazy form.
    llvm::Value* condition = visitExpr(op->condition);
    llvm::Value* trueValue = visitExpr(op->trueValue);
    llvm::Value* falseValue = visitExpr(op->falseValue);
    return m_builder.CreateSelect(condition, trueValue, falseValue);
}

llvm::Value* CodeGenLlvm::visit(const LetNode* op) {
    llvm::Value* value = visitExpr(op->value);
    ScopedBinding binding(*this, op->var, value);
    return visitExpr(op->body);
}

// ---------------------------------------------------------------------------------------------
// Casts

llvm::Value* CodeGenLlvm::emitCast(DataType from, DataType to, llvm::Value* value) {
    llvm::Type* target = valueType(to);
    if (from == to)
        return value;
    if (to.isBool()) {
        llvm::Value* zero = llvm::Constant::getNullValue(value->getType());
        return from.isFloat() ? m_builder.CreateFCmpUNE(value, zero)
                              : m_builder.CreateICmpNE(value, zero);
    }
    if (from.isHandle() || to.isHandle()) {
        if (from.isHandle() && to.isHandle())
            return value;
        return from.isHandle() ? m_builder.CreatePtrToInt(value, target)
                               : m_builder.CreateIntToPtr(value, target);
    }
    if (from.isFloat() && to.isFloat())
        return m_builder.CreateFPCast(value, target);
    if (from.isFloat())
        return to.isInt() ? m_builder.CreateFPToSI(value, target)
                          : m_builder.CreateFPToUI(value, target);
    // From an integer or a bool (which is unsigned: true is 1).
    if (to.isFloat())
        return from.isInt() ? m_builder.CreateSIToFP(value, target)
                            : m_builder.CreateUIToFP(value, target);
    return m_builder.CreateIntCast(value, target, from.isInt());
}

llvm::Value* CodeGenLlvm::visit(const CastNode* op) {
    if (op->type.lanes() != op->value.type().lanes())
        throw UserError("cast of '" + toString(op->value) + "' changes the number of lanes (" +
                        op->value.type().toString() + " to " + op->type.toString() + ")");
    return emitCast(op->value.type(), op->type, visitExpr(op->value));
}

} // namespace bs::llvmgen

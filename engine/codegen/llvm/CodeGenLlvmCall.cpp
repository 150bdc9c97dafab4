/// Calls in the LLVM code generator: TVM's intrinsics (likely, if_then_else, shifts, bitwise
/// operations, popcount, reinterpret), math functions (LLVM intrinsics where LLVM has one, so
/// they vectorize; libm otherwise), and extern calls resolved by the JIT.
#include "codegen/llvm/CodeGenLlvm.h"
#include "ir/KernelAbi.h"

#include "ir/Op.h"
#include "ir/Printer.h"

#include <llvm/IR/Intrinsics.h>

#include <map>

namespace bs::llvmgen {

namespace {

/// Math functions with an LLVM intrinsic (LangRef, "Standard C/C++ Library Intrinsics").
const std::map<std::string, llvm::Intrinsic::ID>& mathIntrinsics() {
    static const std::map<std::string, llvm::Intrinsic::ID> table = {
        {"exp", llvm::Intrinsic::exp},
        {"exp2", llvm::Intrinsic::exp2},
        {"log", llvm::Intrinsic::log},
        {"log2", llvm::Intrinsic::log2},
        {"log10", llvm::Intrinsic::log10},
        {"sqrt", llvm::Intrinsic::sqrt},
        {"sin", llvm::Intrinsic::sin},
        {"cos", llvm::Intrinsic::cos},
        {"floor", llvm::Intrinsic::floor},
        {"ceil", llvm::Intrinsic::ceil},
        {"trunc", llvm::Intrinsic::trunc},
        {"round", llvm::Intrinsic::round},
        {"nearbyint", llvm::Intrinsic::nearbyint},
        {"fabs", llvm::Intrinsic::fabs},
        {"pow", llvm::Intrinsic::pow},
        {"fma", llvm::Intrinsic::fma},
        {"copysign", llvm::Intrinsic::copysign},
        {"fmin", llvm::Intrinsic::minnum},
        {"fmax", llvm::Intrinsic::maxnum},
    };
    return table;
}

/// Math functions taken from libm, with their number of arguments.
const std::map<std::string, size_t>& libmFunctions() {
    static const std::map<std::string, size_t> table = {
        {"tan", 1},   {"tanh", 1},  {"atan", 1},  {"asin", 1},  {"acos", 1}, {"sinh", 1},
        {"cosh", 1},  {"erf", 1},   {"log1p", 1}, {"expm1", 1}, {"cbrt", 1}, {"asinh", 1},
        {"acosh", 1}, {"atanh", 1}, {"erfc", 1},  {"atan2", 2}, {"fmod", 2}, {"hypot", 2},
    };
    return table;
}

void requireArgs(const CallNode* op, size_t count) {
    if (op->args.size() != count)
        throw UserError("call '" + toString(Expr(op)) + "' has " + std::to_string(op->args.size()) +
                        " arguments, " + op->name + " takes " + std::to_string(count));
}

} // namespace

llvm::FunctionCallee CodeGenLlvm::runtimeFunction(const char* name, llvm::Type* result,
                                                  std::vector<llvm::Type*> params) {
    auto* type = llvm::FunctionType::get(result, params, false);
    return m_module.getOrInsertFunction(name, type);
}

llvm::Value* CodeGenLlvm::visit(const CallNode* op) {
    if (op->callKind == CallKind::Intrinsic)
        return emitIntrinsicCall(op);
    if (op->callKind == CallKind::PureExtern)
        return emitMathCall(op);
    return emitExternCall(op);
}

llvm::Value* CodeGenLlvm::emitIntrinsicCall(const CallNode* op) {
    const std::string& name = op->name;
    if (name == "likely") {
        // Only the condition: IfThenElse turns a likely condition into branch weights.
        requireArgs(op, 1);
        return visitExpr(op->args[0]);
    }
    // `tvm_if_then_else` is the spelling TVM's te.if_then_else and topi's padding produce.
    if (name == "if_then_else" || name == "tvm_if_then_else") {
        requireArgs(op, 3);
        return emitIfThenElse(op);
    }
    if (name == "bitwise_not") {
        requireArgs(op, 1);
        return m_builder.CreateNot(visitExpr(op->args[0]));
    }
    if (name == "popcount") {
        requireArgs(op, 1);
        llvm::Value* value = visitExpr(op->args[0]);
        llvm::Function* ctpop =
            llvm::Intrinsic::getDeclaration(&m_module, llvm::Intrinsic::ctpop, {value->getType()});
        return emitCast(op->args[0].type(), op->type, m_builder.CreateCall(ctpop, {value}));
    }
    if (name == "reinterpret") {
        requireArgs(op, 1);
        if (op->args[0].type().bytes() != op->type.bytes())
            throw UserError("reinterpret of '" + toString(op->args[0]) + "' as " +
                            op->type.toString() + " changes the size");
        return m_builder.CreateBitCast(visitExpr(op->args[0]), valueType(op->type));
    }
    if (name == "isnan" || name == "isinf" || name == "isfinite") {
        requireArgs(op, 1);
        return emitFloatClass(op);
    }
    if (name == "prefetch") {
        requireArgs(op, 4);
        return emitPrefetch(op);
    }
    if (name == "tvm_call_packed")
        return emitCallPacked(op);
    if (name == "tvm_stack_make_array") {
        requireArgs(op, 6);
        return emitStackArray(op);
    }
    if (name == "tvm_stack_make_shape")
        return emitStackShape(op);
    static const std::map<std::string, llvm::Instruction::BinaryOps> kBitwise = {
        {"shift_left", llvm::Instruction::Shl},
        {"bitwise_and", llvm::Instruction::And},
        {"bitwise_or", llvm::Instruction::Or},
        {"bitwise_xor", llvm::Instruction::Xor}};
    bool isShiftRight = name == "shift_right";
    auto bitwise = kBitwise.find(name);
    if (bitwise == kBitwise.end() && !isShiftRight)
        throw UserError("unknown intrinsic '" + name + "' in '" + toString(Expr(op)) +
                        "' (kernel '" + m_kernelName + "')");
    requireArgs(op, 2);
    llvm::Value* a = visitExpr(op->args[0]);
    llvm::Value* b = visitExpr(op->args[1]);
    if (isShiftRight)
        return op->type.isInt() ? m_builder.CreateAShr(a, b) : m_builder.CreateLShr(a, b);
    return m_builder.CreateBinOp(bitwise->second, a, b);
}

llvm::Value* CodeGenLlvm::emitFloatClass(const CallNode* op) {
    // isnan: unordered with itself; isinf: |x| == inf; isfinite: ordered and |x| != inf.
    const Expr& arg = op->args[0];
    if (!arg.type().isFloat())
        throw UserError(op->name + " of '" + toString(arg) + "' takes a float, got " +
                        arg.type().toString());
    llvm::Value* x = visitExpr(arg);
    if (op->name == "isnan")
        return m_builder.CreateFCmpUNO(x, x);
    llvm::Function* fabs =
        llvm::Intrinsic::getDeclaration(&m_module, llvm::Intrinsic::fabs, {x->getType()});
    llvm::Value* magnitude = m_builder.CreateCall(fabs, {x});
    llvm::Value* inf = llvm::ConstantFP::getInfinity(x->getType());
    if (op->name == "isinf")
        return m_builder.CreateFCmpOEQ(magnitude, inf);
    return m_builder.CreateFCmpONE(magnitude, inf);
}

llvm::Value* CodeGenLlvm::emitPrefetch(const CallNode* op) {
    // prefetch(address_of(load), rw, locality, cache type): llvm.prefetch of the element's
    // address. The load itself does not run, so an address past the buffer is only a hint.
    const auto* address = op->args[0].as<CallNode>();
    const auto* load = address && address->isIntrinsic("address_of") && address->args.size() == 1
                           ? address->args[0].as<LoadNode>()
                           : nullptr;
    if (!load || load->index.type().isVector())
        throw UserError("prefetch expects the address of one element, got '" +
                        toString(op->args[0]) + "' (kernel '" + m_kernelName + "')");
    llvm::Value* pointer = elementPointer(load->bufferVar, load->type, emitIndex(load->index));
    llvm::Type* bytePointer = m_builder.getInt8PtrTy(pointer->getType()->getPointerAddressSpace());
    llvm::Function* prefetch =
        llvm::Intrinsic::getDeclaration(&m_module, llvm::Intrinsic::prefetch, {bytePointer});
    std::vector<llvm::Value*> args = {m_builder.CreatePointerCast(pointer, bytePointer)};
    for (size_t k = 1; k < 4; ++k) {
        auto value = asConstInt(op->args[k]);
        if (!value)
            throw UserError("prefetch: argument " + std::to_string(k) + " of '" +
                            toString(Expr(op)) + "' must be a constant");
        args.push_back(m_builder.getInt32(uint32_t(*value)));
    }
    m_builder.CreateCall(prefetch, args);
    return llvm::Constant::getNullValue(valueType(op->type));
}

llvm::Value* CodeGenLlvm::emitIfThenElse(const CallNode* op) {
    llvm::Value* condition = visitExpr(op->args[0]);
    if (condition->getType()->isVectorTy()) {
        llvm::Value* a = visitExpr(op->args[1]);
        return m_builder.CreateSelect(condition, a, visitExpr(op->args[2]));
    }
    // Only the chosen value is computed: it may be a load that is out of bounds otherwise
    // (padding, `if_then_else(i < n, A[i], 0f)`).
    llvm::BasicBlock* thenBlock = newBlock("then");
    llvm::BasicBlock* elseBlock = newBlock("else");
    llvm::BasicBlock* endBlock = newBlock("if_end");
    m_builder.CreateCondBr(condition, thenBlock, elseBlock);
    m_builder.SetInsertPoint(thenBlock);
    llvm::Value* thenValue = visitExpr(op->args[1]);
    llvm::BasicBlock* thenEnd = m_builder.GetInsertBlock();
    m_builder.CreateBr(endBlock);
    m_builder.SetInsertPoint(elseBlock);
    llvm::Value* elseValue = visitExpr(op->args[2]);
    llvm::BasicBlock* elseEnd = m_builder.GetInsertBlock();
    m_builder.CreateBr(endBlock);
    m_builder.SetInsertPoint(endBlock);
    llvm::PHINode* result = m_builder.CreatePHI(thenValue->getType(), 2);
    result->addIncoming(thenValue, thenEnd);
    result->addIncoming(elseValue, elseEnd);
    return result;
}

llvm::Value* CodeGenLlvm::emitMathCall(const CallNode* op) {
    for (const Expr& arg : op->args) {
        if (!arg.type().isFloat() || arg.type() != op->type)
            throw UserError("math function " + op->name + " in '" + toString(Expr(op)) +
                            "' takes arguments of type " + op->type.toString() + ", got " +
                            arg.type().toString());
    }
    std::vector<llvm::Value*> args;
    for (const Expr& arg : op->args)
        args.push_back(visitExpr(arg));
    llvm::Type* type = valueType(op->type);
    if (op->name == "sigmoid" || op->name == "rsqrt") {
        // 1 / (1 + exp(-x)) and 1 / sqrt(x), as TVM's intrinsic rules expand them.
        requireArgs(op, 1);
        llvm::Value* one = llvm::ConstantFP::get(type, 1.0);
        bool isSigmoid = op->name == "sigmoid";
        llvm::Function* fn = llvm::Intrinsic::getDeclaration(
            &m_module, isSigmoid ? llvm::Intrinsic::exp : llvm::Intrinsic::sqrt, {type});
        llvm::Value* inner = isSigmoid ? m_builder.CreateFNeg(args[0]) : args[0];
        llvm::Value* value = m_builder.CreateCall(fn, {inner});
        return m_builder.CreateFDiv(one, isSigmoid ? m_builder.CreateFAdd(one, value) : value);
    }
    if (auto it = mathIntrinsics().find(op->name); it != mathIntrinsics().end()) {
        requireArgs(op, llvm::Intrinsic::getType(m_context, it->second, {type})->getNumParams());
        llvm::Function* fn = llvm::Intrinsic::getDeclaration(&m_module, it->second, {type});
        return m_builder.CreateCall(fn, args);
    }
    if (auto it = libmFunctions().find(op->name); it != libmFunctions().end()) {
        requireArgs(op, it->second);
        return emitLibmCall(op->name, op->type, args);
    }
    // Any other name is a C function called as it is spelled (tvm.tir.call_pure_extern, or
    // what an intrinsic-lowering rule produced, e.g. `expf`), as TVM's LLVM backend calls it.
    return emitExternCall(op);
}

llvm::Value* CodeGenLlvm::emitLibmCall(const std::string& name, DataType type,
                                       const std::vector<llvm::Value*>& args) {
    // libm has float (`tanhf`) and double (`tanh`) versions; half goes through float, and a
    // vector calls it once per lane.
    DataType callType = type.bits() == 64 ? DataType::float64() : DataType::float32();
    llvm::Type* scalar = valueType(callType);
    std::vector<llvm::Type*> params(args.size(), scalar);
    llvm::FunctionCallee fn =
        runtimeFunction((name + (callType.bits() == 32 ? "f" : "")).c_str(), scalar, params);
    auto callLane = [&](auto&& laneArg) {
        std::vector<llvm::Value*> laneArgs;
        for (size_t i = 0; i < args.size(); ++i)
            laneArgs.push_back(emitCast(type.element(), callType, laneArg(args[i])));
        return emitCast(callType, type.element(), m_builder.CreateCall(fn, laneArgs));
    };
    if (type.isScalar())
        return callLane([](llvm::Value* v) { return v; });
    llvm::Value* result = llvm::UndefValue::get(valueType(type));
    for (int lane = 0; lane < type.lanes(); ++lane) {
        llvm::Value* value = callLane(
            [&](llvm::Value* v) { return m_builder.CreateExtractElement(v, uint64_t(lane)); });
        result = m_builder.CreateInsertElement(result, value, uint64_t(lane));
    }
    return result;
}

llvm::Value* CodeGenLlvm::emitStackShape(const CallNode* op) {
    llvm::Type* i64 = m_builder.getInt64Ty();
    llvm::AllocaInst* shape =
        entryAlloca(i64, std::max<uint64_t>(op->args.size(), 1), "stack_shape");
    for (size_t d = 0; d < op->args.size(); ++d) {
        const Expr& extent = op->args[d];
        if (!extent.type().isInt() && !extent.type().isUInt())
            throw UserError("tvm_stack_make_shape: extent '" + toString(extent) +
                            "' is not an integer");
        llvm::Value* value = m_builder.CreateIntCast(visitExpr(extent), i64, extent.type().isInt());
        m_builder.CreateStore(
            value, m_builder.CreateConstInBoundsGEP2_64(shape->getAllocatedType(), shape, 0, d));
    }
    return m_builder.CreateConstInBoundsGEP2_64(shape->getAllocatedType(), shape, 0, 0);
}

llvm::Value* CodeGenLlvm::emitStackArray(const CallNode* op) {
    // (data, shape, strides, ndim, a value of the element type, elem_offset): PackedArray.
    llvm::Type* i8ptr = m_builder.getInt8PtrTy();
    llvm::Type* i64ptr = llvm::PointerType::getUnqual(m_builder.getInt64Ty());
    llvm::StructType* arrayType = llvm::StructType::get(
        m_context, {i8ptr, i64ptr, i64ptr, m_builder.getInt32Ty(), m_builder.getInt8Ty(),
                    m_builder.getInt8Ty(), m_builder.getInt16Ty(), m_builder.getInt64Ty()});
    llvm::AllocaInst* array = entryAlloca(arrayType, 1, "stack_array");
    auto field = [&](unsigned index, llvm::Value* value) {
        m_builder.CreateStore(value,
                              m_builder.CreateConstInBoundsGEP2_32(arrayType, array, 0, index));
    };
    auto pointerArg = [&](const Expr& e, llvm::Type* type) -> llvm::Value* {
        if (isConstInt(e, 0))
            return llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(type));
        return m_builder.CreatePointerCast(visitExpr(e), type);
    };
    field(0, pointerArg(op->args[0], i8ptr));
    field(1, pointerArg(op->args[1], i64ptr));
    field(2, pointerArg(op->args[2], i64ptr));
    field(3, m_builder.CreateIntCast(visitExpr(op->args[3]), m_builder.getInt32Ty(), true));
    DataType element = op->args[4].type();
    field(4, m_builder.getInt8(uint8_t(element.code())));
    field(5, m_builder.getInt8(uint8_t(element.bits())));
    field(6, m_builder.getInt16(uint16_t(element.lanes())));
    field(7, m_builder.CreateIntCast(visitExpr(op->args[5]), m_builder.getInt64Ty(), true));
    return m_builder.CreatePointerCast(array, i8ptr);
}

llvm::Value* CodeGenLlvm::emitCallPacked(const CallNode* op) {
    const auto* name = op->args.empty() ? nullptr : op->args[0].as<StringImmNode>();
    if (!name)
        throw UserError("tvm_call_packed: the first argument must be the function's name, in '" +
                        toString(Expr(op)) + "'");
    size_t count = op->args.size() - 1;
    llvm::Type* i64 = m_builder.getInt64Ty();
    llvm::Type* i32 = m_builder.getInt32Ty();
    llvm::AllocaInst* values = entryAlloca(i64, std::max<uint64_t>(count, 1), "packed_args");
    llvm::AllocaInst* codes = entryAlloca(i32, std::max<uint64_t>(count, 1), "packed_codes");
    for (size_t i = 0; i < count; ++i) {
        const Expr& arg = op->args[i + 1];
        DataType type = arg.type();
        PackedCode code;
        llvm::Value* value;
        if (const auto* text = arg.as<StringImmNode>()) {
            code = PackedCode::String;
            value = m_builder.CreatePtrToInt(m_builder.CreateGlobalStringPtr(text->value), i64);
        } else if (type.isHandle()) {
            const auto* call = arg.as<CallNode>();
            code = call && call->isIntrinsic("tvm_stack_make_array") ? PackedCode::Array
                                                                     : PackedCode::Handle;
            value = m_builder.CreatePtrToInt(visitExpr(arg), i64);
        } else if (!type.isScalar()) {
            throw UserError("tvm_call_packed: argument '" + toString(arg) + "' of '" + name->value +
                            "' is a vector");
        } else if (type.isFloat()) {
            code = PackedCode::Float;
            value = m_builder.CreateBitCast(
                m_builder.CreateFPCast(visitExpr(arg), m_builder.getDoubleTy()), i64);
        } else {
            code = PackedCode::Int;
            value = m_builder.CreateIntCast(visitExpr(arg), i64, type.isInt());
        }
        m_builder.CreateStore(
            value, m_builder.CreateConstInBoundsGEP2_64(values->getAllocatedType(), values, 0, i));
        m_builder.CreateStore(
            m_builder.getInt32(uint32_t(code)),
            m_builder.CreateConstInBoundsGEP2_64(codes->getAllocatedType(), codes, 0, i));
    }
    llvm::FunctionCallee fn =
        runtimeFunction(kCallPackedSymbol, i32,
                        {m_builder.getInt8PtrTy(), llvm::PointerType::getUnqual(i64),
                         llvm::PointerType::getUnqual(i32), i32});
    llvm::Value* status = m_builder.CreateCall(
        fn, {m_builder.CreateGlobalStringPtr(name->value),
             m_builder.CreateConstInBoundsGEP2_64(values->getAllocatedType(), values, 0, 0),
             m_builder.CreateConstInBoundsGEP2_64(codes->getAllocatedType(), codes, 0, 0),
             m_builder.getInt32(uint32_t(count))});
    int failed = addFailureMessage("packed function '" + name->value + "' failed");
    emitReturnOnFailure(
        m_builder.CreateSelect(m_builder.CreateICmpNE(status, m_builder.getInt32(0)),
                               m_builder.getInt32(failed), m_builder.getInt32(0)));
    return m_builder.getInt32(0);
}

llvm::Value* CodeGenLlvm::emitExternCall(const CallNode* op) {
    // `call_extern`: a C function the JIT resolves (LlvmJit::defineSymbol or the process).
    std::vector<llvm::Value*> args;
    std::vector<llvm::Type*> types;
    for (const Expr& arg : op->args) {
        const auto* text = arg.as<StringImmNode>();
        args.push_back(text ? m_builder.CreateGlobalStringPtr(text->value) : visitExpr(arg));
        types.push_back(args.back()->getType());
    }
    llvm::FunctionCallee fn = runtimeFunction(op->name.c_str(), valueType(op->type), types);
    return m_builder.CreateCall(fn, args);
}

} // namespace bs::llvmgen

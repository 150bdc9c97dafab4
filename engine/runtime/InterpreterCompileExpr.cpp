/// Compiling expressions into XNodes: one scalar tree per lane, operators specialised by value
/// class and width, names of math functions resolved to function pointers.
#include "runtime/InterpreterCompiler.h"

#include "ir/Op.h"
#include "ir/Printer.h"

#include <cmath>
#include <cstring>
#include <string_view>

namespace bs::interp {

namespace {

Wrap wrapOf(DataType type) {
    const int bits = type.bits();
    if (type.isFloat())
        return bits == 32 ? Wrap::F32 : Wrap::None;
    if (type.isBool())
        return Wrap::Bool;
    if (type.isInt())
        return bits == 8 ? Wrap::S8 : bits == 16 ? Wrap::S16 : bits == 32 ? Wrap::S32 : Wrap::None;
    if (type.isUInt())
        return bits == 8 ? Wrap::U8 : bits == 16 ? Wrap::U16 : bits == 32 ? Wrap::U32 : Wrap::None;
    return Wrap::None;
}

bool isUInt64(DataType type) { return type.isUInt() && type.bits() == 64; }

struct Math1Entry {
    const char* name;
    MathFn1 fn;
};

/// Unary math functions by the names TVM's intrinsics and the code generators use.
const Math1Entry kMath1[] = {
    {"exp", [](double x) { return std::exp(x); }},
    {"exp2", [](double x) { return std::exp2(x); }},
    {"exp10", [](double x) { return std::pow(10.0, x); }},
    {"log", [](double x) { return std::log(x); }},
    {"log2", [](double x) { return std::log2(x); }},
    {"log10", [](double x) { return std::log10(x); }},
    {"log1p", [](double x) { return std::log1p(x); }},
    {"expm1", [](double x) { return std::expm1(x); }},
    {"sqrt", [](double x) { return std::sqrt(x); }},
    {"rsqrt", [](double x) { return 1.0 / std::sqrt(x); }},
    {"cbrt", [](double x) { return std::cbrt(x); }},
    {"sin", [](double x) { return std::sin(x); }},
    {"cos", [](double x) { return std::cos(x); }},
    {"tan", [](double x) { return std::tan(x); }},
    {"asin", [](double x) { return std::asin(x); }},
    {"acos", [](double x) { return std::acos(x); }},
    {"atan", [](double x) { return std::atan(x); }},
    {"sinh", [](double x) { return std::sinh(x); }},
    {"cosh", [](double x) { return std::cosh(x); }},
    {"tanh", [](double x) { return std::tanh(x); }},
    {"asinh", [](double x) { return std::asinh(x); }},
    {"acosh", [](double x) { return std::acosh(x); }},
    {"atanh", [](double x) { return std::atanh(x); }},
    {"sigmoid", [](double x) { return 1.0 / (1.0 + std::exp(-x)); }},
    {"erf", [](double x) { return std::erf(x); }},
    {"erfc", [](double x) { return std::erfc(x); }},
    {"floor", [](double x) { return std::floor(x); }},
    {"ceil", [](double x) { return std::ceil(x); }},
    {"trunc", [](double x) { return std::trunc(x); }},
    // llvm.round and CUDA's roundf: halfway cases away from zero.
    {"round", [](double x) { return std::round(x); }},
    {"nearbyint", [](double x) { return std::nearbyint(x); }},
    {"fabs", [](double x) { return std::fabs(x); }},
    {"abs", [](double x) { return std::fabs(x); }},
};

struct Math2Entry {
    const char* name;
    MathFn2 fn;
};

const Math2Entry kMath2[] = {
    {"pow", [](double x, double y) { return std::pow(x, y); }},
    {"power", [](double x, double y) { return std::pow(x, y); }},
    {"atan2", [](double x, double y) { return std::atan2(x, y); }},
    {"fmod", [](double x, double y) { return std::fmod(x, y); }},
    {"hypot", [](double x, double y) { return std::hypot(x, y); }},
    {"fmin", [](double x, double y) { return std::fmin(x, y); }},
    {"fmax", [](double x, double y) { return std::fmax(x, y); }},
    {"copysign", [](double x, double y) { return std::copysign(x, y); }},
};

template <typename Entry, size_t N>
const Entry* findExactEntry(const Entry (&table)[N], std::string_view name) {
    for (const Entry& e : table) {
        if (name == e.name)
            return &e;
    }
    return nullptr;
}

/// A math function by its intrinsic name (`exp`) or by a C spelling of it that
/// `call_pure_extern` and intrinsic-lowering rules produce: libm's float version (`expf`) and
/// CUDA's fast-math one (`__expf`). All compute on doubles here.
template <typename Entry, size_t N>
const Entry* findEntry(const Entry (&table)[N], const std::string& name) {
    if (const Entry* e = findExactEntry(table, name))
        return e;
    std::string_view base = name;
    if (base.substr(0, 2) == "__")
        base.remove_prefix(2);
    if (base.size() > 1 && base.back() == 'f')
        base.remove_suffix(1);
    return base.size() == name.size() ? nullptr : findExactEntry(table, base);
}

} // namespace

int32_t Compiler::emit(XNode node) {
    m_p.exprs.push_back(node);
    return int32_t(m_p.exprs.size() - 1);
}

int32_t Compiler::constInt(int64_t value, DataType type, const ExprNode* source) {
    XNode n;
    n.op = XOp::ConstI;
    n.imm = value;
    n.wrap = wrapOf(type);
    n.source = source;
    return emit(n);
}

int32_t Compiler::constFloat(double value, const ExprNode* source) {
    XNode n;
    n.op = XOp::ConstF;
    n.fimm = value;
    n.source = source;
    return emit(n);
}

int32_t Compiler::expr(const Expr& e, int lane) {
    BS_CHECK(e.defined()) << "compiling an undefined expression";
    if (e.type().isScalar())
        lane = 0;
    const ExprNode* node = e.get();
    switch (e.kind()) {
    case NodeKind::IntImm:
        return constInt(e.as<IntImmNode>()->value, e.type(), node);
    case NodeKind::FloatImm: {
        double v = e.as<FloatImmNode>()->value;
        return constFloat(e.type().bits() == 32 ? double(float(v)) : v, node);
    }
    case NodeKind::Var:
        return var(e.as<VarNode>(), lane);
    case NodeKind::Not: {
        XNode n;
        n.op = XOp::Not;
        n.a = expr(e.as<NotNode>()->a, lane);
        n.source = node;
        return emit(n);
    }
    case NodeKind::Select: {
        const auto* op = e.as<SelectNode>();
        XNode n;
        n.op = XOp::Select;
        n.a = expr(op->condition, lane);
        n.b = expr(op->trueValue, lane);
        n.c = expr(op->falseValue, lane);
        n.source = node;
        return emit(n);
    }
    case NodeKind::Cast: {
        const auto* op = e.as<CastNode>();
        return castTo(op->type.element(), op->value.type().element(), expr(op->value, lane), node);
    }
    case NodeKind::Call:
        return call(e.as<CallNode>(), lane);
    case NodeKind::Load:
        return load(e.as<LoadNode>(), lane);
    case NodeKind::ProducerLoad:
        return producerLoad(e.as<ProducerLoadNode>(), lane);
    case NodeKind::Ramp:
        return ramp(e.as<RampNode>(), lane);
    case NodeKind::Broadcast:
        return expr(e.as<BroadcastNode>()->value, 0);
    case NodeKind::Let:
        return let(e.as<LetNode>(), lane);
    case NodeKind::StringImm:
        fail("string \"" + e.as<StringImmNode>()->value + "\" used as a value");
    case NodeKind::Reduce:
        fail("a reduction cannot be executed, lower it first: " + toString(e));
    default:
        break;
    }
    // clang-format off
    switch (e.kind()) {
#define BS_BINARY_CASE(K)                                                                          \
    case NodeKind::K: {                                                                            \
        const auto* op = e.as<BinaryNode<NodeKind::K>>();                                          \
        return binary(node, op->a, op->b, lane);                                                   \
    }
    BS_BINARY_CASE(Add) BS_BINARY_CASE(Sub) BS_BINARY_CASE(Mul) BS_BINARY_CASE(Div)
    BS_BINARY_CASE(Mod) BS_BINARY_CASE(FloorDiv) BS_BINARY_CASE(FloorMod) BS_BINARY_CASE(Min)
    BS_BINARY_CASE(Max) BS_BINARY_CASE(EQ) BS_BINARY_CASE(NE) BS_BINARY_CASE(LT)
    BS_BINARY_CASE(LE) BS_BINARY_CASE(GT) BS_BINARY_CASE(GE) BS_BINARY_CASE(And)
    BS_BINARY_CASE(Or)
#undef BS_BINARY_CASE
    default:
        BS_UNREACHABLE("unexpected expression kind " << int(e.kind()));
    }
    // clang-format on
}

int32_t Compiler::var(const VarNode* op, int lane) {
    Var v(op);
    if (op->type.isHandle())
        fail("buffer variable '" + op->name + "' used as a value");
    auto live = m_live.find(v);
    if (live == m_live.end() || live->second <= 0)
        fail("unbound variable '" + op->name + "'");
    XNode n;
    n.op = XOp::Slot;
    n.slot = slotOf(v) + lane;
    n.source = op;
    return emit(n);
}

int32_t Compiler::binary(const ExprNode* op, const Expr& a, const Expr& b, int lane) {
    int32_t ia = expr(a, lane);
    int32_t ib = expr(b, lane);
    NodeKind kind = op->nodeKind;
    if (isComparisonKind(kind))
        return compare(kind, a.type().element(), ia, ib, op);
    if (kind == NodeKind::And || kind == NodeKind::Or) {
        XNode n;
        n.op = kind == NodeKind::And ? XOp::And : XOp::Or;
        n.a = ia;
        n.b = ib;
        n.source = op;
        return emit(n);
    }
    return arith(kind, op->type.element(), ia, ib, op);
}

int32_t Compiler::arith(NodeKind kind, DataType type, int32_t a, int32_t b,
                        const ExprNode* source) {
    const bool f = type.isFloat();
    const bool u = isUInt64(type);
    XNode n;
    switch (kind) {
    case NodeKind::Add:
        n.op = f ? XOp::AddF : XOp::AddI;
        break;
    case NodeKind::Sub:
        n.op = f ? XOp::SubF : XOp::SubI;
        break;
    case NodeKind::Mul:
        n.op = f ? XOp::MulF : XOp::MulI;
        break;
    case NodeKind::Div:
        n.op = f ? XOp::DivF : u ? XOp::DivU : XOp::DivI;
        break;
    case NodeKind::Mod:
        n.op = f ? XOp::ModF : u ? XOp::ModU : XOp::ModI;
        break;
    // Unsigned values are never negative, so flooring is truncating for them.
    case NodeKind::FloorDiv:
        n.op = f ? XOp::FloorDivF : u ? XOp::DivU : XOp::FloorDivI;
        break;
    case NodeKind::FloorMod:
        n.op = f ? XOp::FloorModF : u ? XOp::ModU : XOp::FloorModI;
        break;
    case NodeKind::Min:
        n.op = f ? XOp::MinF : u ? XOp::MinU : XOp::MinI;
        break;
    case NodeKind::Max:
        n.op = f ? XOp::MaxF : u ? XOp::MaxU : XOp::MaxI;
        break;
    default:
        BS_UNREACHABLE("not an arithmetic kind: " << int(kind));
    }
    n.a = a;
    n.b = b;
    n.wrap = wrapOf(type);
    n.source = source;
    return emit(n);
}

int32_t Compiler::compare(NodeKind kind, DataType operandType, int32_t a, int32_t b,
                          const ExprNode* source) {
    const bool f = operandType.isFloat();
    const bool u = isUInt64(operandType);
    XNode n;
    n.a = a;
    n.b = b;
    switch (kind) {
    case NodeKind::EQ:
        n.op = f ? XOp::EqF : XOp::EqI;
        break;
    case NodeKind::NE:
        n.op = f ? XOp::NeF : XOp::NeI;
        break;
    case NodeKind::LT:
        n.op = f ? XOp::LtF : u ? XOp::LtU : XOp::LtI;
        break;
    case NodeKind::LE:
        n.op = f ? XOp::LeF : u ? XOp::LeU : XOp::LeI;
        break;
    case NodeKind::GT:
        n.op = f ? XOp::LtF : u ? XOp::LtU : XOp::LtI;
        std::swap(n.a, n.b);
        break;
    case NodeKind::GE:
        n.op = f ? XOp::LeF : u ? XOp::LeU : XOp::LeI;
        std::swap(n.a, n.b);
        break;
    default:
        BS_UNREACHABLE("not a comparison kind: " << int(kind));
    }
    n.source = source;
    return emit(n);
}

int32_t Compiler::castTo(DataType to, DataType from, int32_t value, const ExprNode* source) {
    if (to == from)
        return value;
    XNode n;
    n.a = value;
    n.source = source;
    n.wrap = wrapOf(to);
    if (to.isFloat()) {
        if (from.isFloat() && to.bits() >= from.bits())
            return value; // widening a float changes no value
        n.op = from.isFloat()   ? XOp::FloatToFloat
               : isUInt64(from) ? XOp::UIntToFloat
                                : XOp::IntToFloat;
    } else if (to.isBool()) {
        n.op = from.isFloat() ? XOp::FloatToBool : XOp::IntToBool;
    } else {
        n.op = from.isFloat() ? XOp::FloatToInt : XOp::IntToInt;
    }
    return emit(n);
}

int32_t Compiler::ramp(const RampNode* op, int lane) {
    int32_t base = expr(op->base, 0);
    if (lane == 0)
        return base;
    DataType type = op->base.type();
    int32_t laneIndex = type.isFloat() ? constFloat(lane, op) : constInt(lane, type, op);
    int32_t offset = arith(NodeKind::Mul, type, expr(op->stride, 0), laneIndex, op);
    return arith(NodeKind::Add, type, base, offset, op);
}

int32_t Compiler::let(const LetNode* op, int lane) {
    int32_t value = expr(op->value, lane);
    int32_t slot = slotOf(op->var) + (op->var.type().isVector() ? lane : 0);
    enter(op->var);
    int32_t body = expr(op->body, lane);
    leave(op->var);
    XNode n;
    n.op = XOp::Let;
    n.slot = slot;
    n.a = value;
    n.b = body;
    n.source = op;
    return emit(n);
}

int32_t Compiler::load(const LoadNode* op, int lane) {
    XNode n;
    n.op = XOp::Load;
    n.slot = bufferSlotOf(op->bufferVar);
    n.a = expr(op->index, lane);
    if (op->predicate.defined() && !isOne(op->predicate))
        n.b = expr(op->predicate, lane);
    n.floatResult = op->type.isFloat();
    n.c = m_reader;
    n.source = op;
    return emit(n);
}

int32_t Compiler::producerLoad(const ProducerLoadNode* op, int lane) {
    XNode n;
    n.op = XOp::LoadND;
    n.slot = tensorSlotOf(op->tensor);
    std::vector<int32_t> indices;
    for (const Expr& index : op->indices)
        indices.push_back(expr(index, lane));
    n.a = pushList(indices);
    n.b = int32_t(indices.size());
    n.floatResult = op->type.isFloat();
    n.c = m_reader;
    n.source = op;
    return emit(n);
}

int32_t Compiler::call(const CallNode* op, int lane) {
    if (op->callKind == CallKind::Intrinsic)
        return intrinsic(op, lane);
    return mathCall(op, lane);
}

int32_t Compiler::intrinsic(const CallNode* op, int lane) {
    const std::string& name = op->name;
    auto arity = [&](size_t n) {
        if (op->args.size() != n)
            fail("intrinsic " + name + " takes " + std::to_string(n) + " arguments, got " +
                 std::to_string(op->args.size()));
    };
    if (name == "likely") {
        arity(1);
        return expr(op->args[0], lane);
    }
    XNode n;
    n.source = op;
    n.wrap = wrapOf(op->type.element());
    if (name == "if_then_else" || name == "tvm_if_then_else") {
        arity(3);
        n.op = XOp::IfThenElse;
        n.c = expr(op->args[2], lane);
    } else if (name == "bitwise_and" || name == "bitwise_or" || name == "bitwise_xor" ||
               name == "shift_left" || name == "shift_right") {
        arity(2);
        n.op = name == "bitwise_and"   ? XOp::BitAnd
               : name == "bitwise_or"  ? XOp::BitOr
               : name == "bitwise_xor" ? XOp::BitXor
               : name == "shift_left"  ? XOp::Shl
               : op->type.isUInt()     ? XOp::ShrU
                                       : XOp::ShrS;
    } else if (name == "bitwise_not" || name == "popcount") {
        arity(1);
        n.op = name == "bitwise_not" ? XOp::BitNot : XOp::Popcount;
    } else if (name == "isnan" || name == "isinf" || name == "isfinite") {
        return mathCall(op, lane);
    } else if (name == "tvm_storage_sync") {
        fail("the barrier tvm_storage_sync is only allowed as a statement");
    } else if (name == "tvm_warp_activemask") {
        // Every lane of the block's warps runs the reductions that ask for the mask.
        n.op = XOp::ConstI;
        n.imm = 0xFFFFFFFFll;
        return emit(n);
    } else if (name == "tvm_warp_shuffle_down" || name == "tvm_warp_shuffle") {
        arity(5);
        if (m_kernel < 0)
            fail("the warp shuffle " + name + " is outside any kernel");
        m_p.kernels[size_t(m_kernel)].hasBarrier = true; // its lanes meet, as at a barrier
        n.op = XOp::WarpShuffle;
        n.imm = name == "tvm_warp_shuffle_down" ? 1 : 0;
        n.floatResult = op->type.isFloat();
        n.a = expr(op->args[1], lane);
        n.b = expr(op->args[2], lane);
        n.c = expr(op->args[3], lane);
        return emit(n);
    } else if (name == "tvm_thread_allreduce") {
        fail("tvm_thread_allreduce is run as the device code LowerThreadAllreduce makes of it "
             "(LoweredFunc::device), not as a call");
    } else if (name == "tvm_call_packed") {
        fail("tvm_call_packed is run as a statement of its own (Evaluate), not inside an "
             "expression");
    } else {
        fail("unsupported intrinsic '" + name + "'");
    }
    n.a = expr(op->args[0], lane);
    if (op->args.size() > 1)
        n.b = expr(op->args[1], lane);
    return emit(n);
}

int32_t Compiler::mathCall(const CallNode* op, int lane) {
    const std::string& name = op->name;
    DataType type = op->type.element();
    XNode n;
    n.source = op;
    n.wrap = wrapOf(type);
    if (op->args.empty())
        fail("function '" + name + "' called without arguments");
    DataType argType = op->args[0].type().element();
    if ((name == "abs" || name == "fabs") && !argType.isFloat() && !type.isFloat()) {
        n.op = XOp::AbsI;
        n.a = expr(op->args[0], lane);
        return emit(n);
    }
    // Math functions compute on doubles: integer arguments are converted first.
    std::vector<int32_t> args;
    for (const Expr& arg : op->args) {
        DataType t = arg.type().element();
        args.push_back(castTo(DataType::float64(), t, expr(arg, lane), op));
    }
    if (name == "isnan" || name == "isinf" || name == "isfinite") {
        n.op = name == "isnan" ? XOp::IsNan : name == "isinf" ? XOp::IsInf : XOp::IsFinite;
    } else if (const Math1Entry* e1 = findEntry(kMath1, name); e1 && args.size() == 1) {
        n.op = XOp::Math1;
        n.fn1 = e1->fn;
    } else if (const Math2Entry* e2 = findEntry(kMath2, name); e2 && args.size() == 2) {
        n.op = XOp::Math2;
        n.fn2 = e2->fn;
    } else if (name == "fma" && args.size() == 3) {
        n.op = XOp::Math3;
        n.fn3 = [](double x, double y, double z) { return std::fma(x, y, z); };
    } else {
        fail("unsupported function '" + name + "' with " + std::to_string(args.size()) +
             " arguments");
    }
    n.a = args[0];
    n.b = args.size() > 1 ? args[1] : -1;
    n.c = args.size() > 2 ? args[2] : -1;
    if (type.isFloat() || n.op == XOp::IsNan || n.op == XOp::IsInf || n.op == XOp::IsFinite)
        return emit(n);
    // A math function typed as an integer (TVM allows it): compute, then convert.
    n.wrap = Wrap::None;
    return castTo(type, DataType::float64(), emit(n), op);
}

} // namespace bs::interp

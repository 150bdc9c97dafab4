/// \file
/// CUDA C expressions (TVM's CodeGenC::VisitExpr_ and CodeGenCUDA), one lane at a time for
/// vectors.

#include "codegen/CudaCodegenInternal.h"

#include "ir/Equality.h"
#include "ir/Op.h"
#include "ir/Printer.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

namespace bs::cuda {

namespace {

/// Math functions CUDA offers for float (with an `f` suffix) and double.
bool isCudaMathFunction(std::string_view name) {
    static constexpr std::array<std::string_view, 39> kFunctions = {
        "exp",   "exp2",  "exp10", "log",  "log2",  "log10",     "log1p",   "expm1",
        "sqrt",  "rsqrt", "cbrt",  "sin",  "cos",   "tan",       "asin",    "acos",
        "atan",  "sinh",  "cosh",  "tanh", "asinh", "acosh",     "atanh",   "pow",
        "atan2", "fmod",  "floor", "ceil", "trunc", "round",     "erf",     "erfc",
        "fabs",  "fma",   "hypot", "fmin", "fmax",  "nearbyint", "copysign"};
    for (std::string_view f : kFunctions) {
        if (name == f)
            return true;
    }
    return false;
}

/// The functions TVM's CUDA intrinsic rules (CUDAFastMath) map to CUDA's fast, less exact
/// float versions: `__expf`, `__logf`, `__sinf`, ...
bool isCudaFastMathFunction(std::string_view name) {
    for (std::string_view f : {"exp", "exp10", "log", "log2", "log10", "sin", "cos"}) {
        if (name == f)
            return true;
    }
    return false;
}

bool isCIdentifier(std::string_view name) {
    auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
    if (name.empty() || !letter(name[0]))
        return false;
    return std::all_of(name.begin(), name.end(), [&](char c) {
        return letter(c) || std::isdigit(static_cast<unsigned char>(c));
    });
}

/// The vector loads of an expression that always run: not in a branch of a select or
/// if_then_else, nor in a let body (their index may use the let variable).
class UnconditionalLoads : public IRVisitor {
public:
    std::vector<const LoadNode*> loads;

protected:
    using IRVisitor::visit;

    void visit(const LoadNode* op) override {
        if (op->type.isVector() && !hasPredicate(op->predicate))
            loads.push_back(op);
        IRVisitor::visit(op);
    }
    void visit(const SelectNode* op) override { visitExpr(op->condition); }
    void visit(const CallNode* op) override {
        if (op->isIntrinsic("tvm_if_then_else") || op->isIntrinsic("if_then_else"))
            visitExpr(op->args.at(0));
        else
            IRVisitor::visit(op);
    }
    void visit(const LetNode* op) override { visitExpr(op->value); }
};

} // namespace

bool hasPredicate(const Expr& predicate) {
    if (!predicate.defined())
        return false;
    const auto* broadcast = predicate.as<BroadcastNode>();
    return asConstInt(broadcast ? broadcast->value : predicate) != std::optional<int64_t>(1);
}

std::string ExprPrinter::print(const Expr& e) {
    int saved = m_lane;
    m_lane = -1;
    std::string text = visitExpr(e);
    m_lane = saved;
    return text;
}

std::string ExprPrinter::printLane(const Expr& e, int laneIndex) {
    int saved = m_lane;
    m_lane = e.type().isVector() ? laneIndex : -1;
    std::string text = visitExpr(e);
    m_lane = saved;
    return text;
}

int ExprPrinter::lane(const ExprNode* op) const {
    BS_CHECK(m_lane >= 0 && m_lane < op->type.lanes())
        << "vector expression " << toString(Expr(op)) << " printed outside a lane context";
    return m_lane;
}

void ExprPrinter::bindArray(const Var& var, std::string name) {
    m_names[var] = std::move(name);
    m_arrays.insert(var);
}

const std::string& ExprPrinter::nameOf(const Var& var) const {
    auto it = m_names.find(var);
    if (it == m_names.end())
        throw UserError(backend() + " code generation: '" + var.name() +
                        "' is used but never defined");
    return it->second;
}

std::string ExprPrinter::backend() const {
    return m_dialect == Dialect::OpenCl ? "OpenCL" : "CUDA";
}

std::optional<std::string> ExprPrinter::vectorAccess(const Var& buffer, const Expr& index,
                                                     DataType type) {
    // OpenCL C has no pointer casts to vectors of another address space: lanes one by one.
    if (m_dialect == Dialect::OpenCl)
        return std::nullopt;
    const auto* ramp = index.as<RampNode>();
    if (!ramp || !isConstInt(ramp->stride, 1) || !m_globalBuffers.count(buffer))
        return std::nullopt;
    std::optional<std::string> vectorType = vectorTypeName(type);
    // cuMemAlloc aligns buffers to 256 bytes, so a base that is a multiple of the lane count
    // is aligned to the vector's size.
    if (!vectorType || !isMultipleOf(ramp->base, type.lanes(), &m_letValues))
        return std::nullopt;
    return "((" + *vectorType + "*)(" + nameOf(buffer) + " + " + print(ramp->base) + "))[0]";
}

std::vector<std::pair<Expr, std::string>> ExprPrinter::hoistableLoads(const Expr& value) {
    if (m_dialect == Dialect::OpenCl)
        return {};
    UnconditionalLoads finder;
    finder.visitExpr(value);
    std::vector<std::pair<Expr, std::string>> found;
    for (const LoadNode* op : finder.loads) {
        Expr load(op);
        bool seen = std::any_of(found.begin(), found.end(),
                                [&](const auto& f) { return structuralEqual(f.first, load); });
        if (seen)
            continue;
        if (std::optional<std::string> access = vectorAccess(op->bufferVar, op->index, op->type))
            found.emplace_back(load, *access);
    }
    return found;
}

bool ExprPrinter::isNonNegative(const Expr& e) const {
    if (std::optional<int64_t> value = asConstInt(e))
        return *value >= 0;
    if (e.type().isUInt())
        return true;
    auto both = [this](const auto* op) { return isNonNegative(op->a) && isNonNegative(op->b); };
    switch (e.kind()) {
    case NodeKind::Var:
        return m_nonNegative.count(Var(e.as<VarNode>())) > 0 || e.as<VarNode>()->isSizeVar;
    case NodeKind::Add:
        return both(e.as<AddNode>());
    case NodeKind::Mul:
        return both(e.as<MulNode>());
    case NodeKind::Div:
        return both(e.as<DivNode>());
    case NodeKind::Mod:
        return both(e.as<ModNode>());
    case NodeKind::FloorDiv:
        return both(e.as<FloorDivNode>());
    case NodeKind::FloorMod:
        return both(e.as<FloorModNode>());
    case NodeKind::Min:
        return both(e.as<MinNode>());
    case NodeKind::Max:
        return isNonNegative(e.as<MaxNode>()->a) || isNonNegative(e.as<MaxNode>()->b);
    case NodeKind::Select:
        return isNonNegative(e.as<SelectNode>()->trueValue) &&
               isNonNegative(e.as<SelectNode>()->falseValue);
    case NodeKind::Cast:
        return e.type().isIntegral() && e.as<CastNode>()->value.type().isIntegral() &&
               isNonNegative(e.as<CastNode>()->value);
    case NodeKind::Ramp:
        return isNonNegative(e.as<RampNode>()->base) && isNonNegative(e.as<RampNode>()->stride);
    case NodeKind::Broadcast:
        return isNonNegative(e.as<BroadcastNode>()->value);
    default:
        return false;
    }
}

std::string ExprPrinter::visit(const IntImmNode* op) {
    return intLiteral(op->type, op->value, m_dialect);
}

std::string ExprPrinter::visit(const FloatImmNode* op) {
    return floatLiteral(op->type, op->value, m_dialect);
}

std::string ExprPrinter::visit(const StringImmNode* op) { return "\"" + op->value + "\""; }

std::string ExprPrinter::visit(const VarNode* op) {
    Var var(op);
    const std::string& name = nameOf(var);
    if (m_arrays.count(var))
        return name + "[" + std::to_string(lane(op)) + "]";
    return name;
}

std::string ExprPrinter::binary(const Expr& a, const char* op, const Expr& b) {
    std::string left = visitExpr(a);
    return "(" + left + " " + op + " " + visitExpr(b) + ")";
}

std::string ExprPrinter::commutative(const Expr& a, const char* op, const Expr& b) {
    // `3.14f * A[i]` prints as `(A[i] * 3.140000e+00f)`, the form TVM's kernels show (seed 002,
    // Ex. 6); + and * commute exactly, for floats too.
    if (isConst(a) && !isConst(b))
        return binary(b, op, a);
    return binary(a, op, b);
}

std::string ExprPrinter::function(const char* name, const Expr& a, const Expr& b) {
    std::string first = visitExpr(a);
    return std::string(name) + "(" + first + ", " + visitExpr(b) + ")";
}

std::string ExprPrinter::conditional(const Expr& condition, const Expr& t, const Expr& f) {
    // Only the chosen branch runs (loads guarded by the condition stay safe).
    std::string c = visitExpr(condition);
    std::string whenTrue = visitExpr(t);
    std::string whenFalse = visitExpr(f);
    return "(" + c + " ? " + whenTrue + " : " + whenFalse + ")";
}

std::string ExprPrinter::visit(const ModNode* op) {
    if (op->type.isFloat())
        return function(op->type.bits() == 32 ? "fmodf" : "fmod", op->a, op->b);
    return binary(op->a, "%", op->b);
}

std::string ExprPrinter::visit(const FloorDivNode* op) {
    if (op->type.isFloat()) {
        const char* floorName = op->type.bits() == 32 ? "floorf" : "floor";
        return std::string(floorName) + "(" + binary(op->a, "/", op->b) + ")";
    }
    // C's `/` truncates; it equals floor division when both sides are non-negative.
    if (isNonNegative(op->a) && isNonNegative(op->b))
        return binary(op->a, "/", op->b);
    m_helpers.insert(Helper::FloorDivMod);
    return function("bs_floordiv", op->a, op->b);
}

std::string ExprPrinter::visit(const FloorModNode* op) {
    if (op->type.isFloat()) {
        std::string a = visitExpr(op->a), b = visitExpr(op->b);
        const char* floorName = op->type.bits() == 32 ? "floorf" : "floor";
        return "(" + a + " - (" + floorName + "((" + a + " / " + b + ")) * " + b + "))";
    }
    if (isNonNegative(op->a) && isNonNegative(op->b))
        return binary(op->a, "%", op->b);
    m_helpers.insert(Helper::FloorDivMod);
    return function("bs_floormod", op->a, op->b);
}

std::string ExprPrinter::visit(const SelectNode* op) {
    return conditional(op->condition, op->trueValue, op->falseValue);
}

std::string ExprPrinter::visit(const CastNode* op) {
    return "((" + typeName(op->type.element(), m_dialect) + ")" + visitExpr(op->value) + ")";
}

std::string ExprPrinter::visit(const CallNode* op) {
    if (op->callKind == CallKind::Intrinsic)
        return intrinsic(op);
    if (op->callKind == CallKind::PureExtern)
        return mathCall(op);
    // tvm.tir.call_extern: a device function called as it is spelled.
    return externCall(op->name, op->name, op->args);
}

std::string ExprPrinter::externCall(const std::string& name, const std::string& callee,
                                    const std::vector<Expr>& args) {
    if (!isCIdentifier(callee))
        throw UserError("the " + backend() + " backend cannot call '" + name +
                        "': not a math function, nor a C function name");
    std::string text = callee + "(";
    for (size_t i = 0; i < args.size(); ++i)
        text += (i ? ", " : "") + visitExpr(args[i]);
    return text + ")";
}

std::string ExprPrinter::intrinsic(const CallNode* op) {
    const std::string& name = op->name;
    if (name == "likely")
        return visitExpr(op->args.at(0));
    if (name == "tvm_if_then_else" || name == "if_then_else")
        return conditional(op->args.at(0), op->args.at(1), op->args.at(2));
    static const std::array<std::pair<const char*, const char*>, 5> kOperators = {
        {{"shift_left", "<<"},
         {"shift_right", ">>"},
         {"bitwise_and", "&"},
         {"bitwise_or", "|"},
         {"bitwise_xor", "^"}}};
    for (const auto& [intrinsicName, symbol] : kOperators) {
        if (name == intrinsicName)
            return binary(op->args.at(0), symbol, op->args.at(1));
    }
    if (name == "bitwise_not")
        return "(~" + visitExpr(op->args.at(0)) + ")";
    if (name == "popcount") {
        if (m_dialect == Dialect::OpenCl)
            return "popcount(" + visitExpr(op->args.at(0)) + ")";
        return std::string(op->args.at(0).type().bits() == 64 ? "__popcll(" : "__popc(") +
               visitExpr(op->args.at(0)) + ")";
    }
    if (m_dialect == Dialect::OpenCl) {
        if (name == "tvm_storage_sync") {
            const auto* scope = op->args.empty() ? nullptr : op->args[0].as<StringImmNode>();
            if (scope && scope->value == "shared")
                return "barrier(CLK_LOCAL_MEM_FENCE)";
        }
        if (name == "tvm_storage_sync" || name.rfind("tvm_warp_", 0) == 0)
            throw UserError("the OpenCL backend cannot generate " + toString(Expr(op)) +
                            ": OpenCL C has no warp-level operations (a cross-thread reduction "
                            "within one warp lowers to them); build for cuda");
    }
    if (name == "tvm_warp_activemask")
        return "__activemask()";
    if (name == "tvm_warp_shuffle_down" || name == "tvm_warp_shuffle") {
        // (mask, value, offset or source lane, width, warp size): CUDA takes the first four.
        std::string text = name == "tvm_warp_shuffle" ? "__shfl_sync(" : "__shfl_down_sync(";
        for (size_t i = 0; i < 4; ++i)
            text += (i ? ", " : "") + visitExpr(op->args.at(i));
        return text + ")";
    }
    if (name == "tvm_storage_sync") {
        const auto* scope = op->args.empty() ? nullptr : op->args[0].as<StringImmNode>();
        if (scope && scope->value == "shared")
            return "__syncthreads()";
        if (scope && scope->value == "warp")
            return "__syncwarp()";
    }
    if (name == "isnan" || name == "isinf" || name == "isfinite")
        return name + "(" + visitExpr(op->args.at(0)) + ")";
    throw UserError("the " + backend() + " backend cannot generate the intrinsic " +
                    toString(Expr(op)));
}

std::string ExprPrinter::mathCall(const CallNode* op) {
    DataType type = op->type.element();
    if (!type.isFloat() || (type.bits() != 32 && type.bits() != 64))
        throw UserError("the " + backend() + " backend cannot call " + op->name + " on " +
                        type.toString());
    // OpenCL C's math functions are overloaded for float and double (TVM's OpenCL rules call
    // them by their name); CUDA's have an `f` version, and fast ones (CUDAFastMath).
    const bool openCl = m_dialect == Dialect::OpenCl;
    const std::string suffix = type.bits() == 32 && !openCl ? "f" : "";
    if (op->name == "sigmoid") {
        std::string one = floatLiteral(type, 1.0, m_dialect);
        const std::string x = visitExpr(op->args.at(0));
        std::string negated = x.front() == '-' ? "(-(" + x + "))" : "(-" + x + ")";
        // TVM legalizes sigmoid to this before the CUDA rules turn exp into __expf.
        const char* exp = type.bits() == 32 && !openCl ? "__expf(" : "exp(";
        return "(" + one + " / (" + one + " + " + exp + negated + ")))";
    }
    std::string name = op->name == "abs" ? "fabs" : op->name == "power" ? "pow" : op->name;
    // Any other name is a C function called as it is spelled (tvm.tir.call_pure_extern, or
    // what an intrinsic-lowering rule produced: `__expf`, `logf`).
    std::string callee = name;
    if (isCudaMathFunction(name))
        callee = (type.bits() == 32 && !openCl && isCudaFastMathFunction(name) ? "__" : "") + name +
                 suffix;
    return externCall(op->name, callee, op->args);
}

std::string ExprPrinter::visit(const LoadNode* op) {
    const std::string& buffer = nameOf(op->bufferVar);
    const bool predicated = hasPredicate(op->predicate);
    if (op->type.isVector() && !predicated) {
        for (const auto& [load, variable] : m_hoisted) {
            if (structuralEqual(load, Expr(op)))
                return variable + "." + "xyzw"[lane(op)];
        }
    }
    std::string access = buffer + "[" + visitExpr(op->index) + "]";
    if (!predicated)
        return access;
    std::string condition = visitExpr(op->predicate);
    return "(" + condition + " ? " + access + " : " + print(makeZero(op->type.element())) + ")";
}

std::string ExprPrinter::visit(const RampNode* op) {
    Expr laneIndex = makeConst(op->base.type(), int64_t(lane(op)));
    return print(op->base + laneIndex * op->stride);
}

std::string ExprPrinter::visit(const BroadcastNode* op) {
    lane(op);
    return print(op->value);
}

std::string ExprPrinter::visit(const LetNode* op) {
    // TVM's CodeGenC binds a let variable to the text of its value.
    std::string value = visitExpr(op->value);
    auto previous = m_names.find(op->var);
    std::optional<std::string> saved;
    if (previous != m_names.end())
        saved = previous->second;
    m_names[op->var] = value;
    std::string body = visitExpr(op->body);
    if (saved)
        m_names[op->var] = *saved;
    else
        m_names.erase(op->var);
    return body;
}

std::string ExprPrinter::visitExprDefault(const ExprNode* op) {
    throw UserError("the " + backend() + " backend cannot generate " + toString(Expr(op)) +
                    ": lower the program (storage flattening) first");
}

} // namespace bs::cuda

/// The IR layer's free functions with TVM's names: `var`, `size_var`, `const`, the division
/// family (`floordiv`, `indexdiv`, `truncdiv`, ...), `min`/`max`, `if_then_else`, `all`/`any`,
/// `likely`, the math intrinsics and `min_value`/`max_value`. The Python packages (resources/
/// python) place them where TVM has them (`te.var`, `tvm.tir.floordiv`, `tvm.const`).

#include "ir/Op.h"
#include "ir/Printer.h"
#include "script/bindings/Bindings.h"
#include "script/bindings/CallGuard.h"
#include "script/bindings/Casters.h"

namespace bs::script {

namespace {

/// TVM's `const(value, dtype=None)`: without a dtype, a bool is `bool`, an int `int32` (`int64`
/// when it does not fit) and a float `float32`.
Expr makeConstant(py::handle value, const std::optional<std::string>& dtype) {
    if (!PyBool_Check(value.ptr()) && !PyLong_Check(value.ptr()) && !PyFloat_Check(value.ptr()) &&
        !PyIndex_Check(value.ptr()))
        throw py::type_error("const expects a bool, int or float value, got a value of type '" +
                             std::string(py::str(value.get_type().attr("__name__"))) + "'");
    Expr inferred = convertExpr(value);
    if (!dtype)
        return inferred;
    DataType type = parseDType(*dtype);
    if (type.isHandle())
        throw UserError("cannot make a constant of type " + *dtype);
    if (PyFloat_Check(value.ptr()))
        return makeConst(type, value.cast<double>());
    return makeConst(type, int64_t(value.cast<long long>()));
}

/// TVM's `if_then_else(cond, t, f)`: folds a constant condition, otherwise the intrinsic call
/// that lowering keeps as a guarded load (printed `tvm_if_then_else(...)` as TVM 0.6 prints it).
Expr ifThenElse(const Expr& condition, Expr t, Expr f) {
    if (!condition.type().isBool())
        throw UserError("if_then_else only accept the condition to be boolean type, got " +
                        condition.type().toString());
    if (t.type() != f.type()) {
        if (isConst(t))
            t = cast(f.type(), t);
        else if (isConst(f))
            f = cast(t.type(), f);
        else
            throw UserError("if_then_else branches of different types " + t.type().toString() +
                            " and " + f.type().toString());
    }
    if (auto c = asConstInt(condition))
        return *c ? t : f;
    return CallNode::make(t.type(), "tvm_if_then_else", {condition, t, f}, CallKind::Intrinsic);
}

/// TVM's `tvm.tir.all(*args)` / `any(*args)`: the conjunction (disjunction) of the arguments,
/// folded left to right.
Expr foldLogical(const py::args& args, bool conjunction) {
    if (args.size() == 0)
        throw UserError(std::string("tvm.tir.") + (conjunction ? "all" : "any") +
                        " needs at least one argument");
    Expr result = convertExpr(args[0]);
    for (size_t i = 1; i < args.size(); ++i)
        result = conjunction ? (result && convertExpr(args[i])) : (result || convertExpr(args[i]));
    return result;
}

void bindConstructors(py::module_& m) {
    m.def(
        "var",
        [](std::string name, const std::string& dtype) { return Var(name, parseDType(dtype)); },
        py::arg("name") = "tindex", py::arg("dtype") = "int32", Located());
    m.def(
        "size_var",
        [](std::string name, const std::string& dtype) {
            return Var::sizeVar(name, parseDType(dtype));
        },
        py::arg("name") = "size", py::arg("dtype") = "int32", Located());
    m.def("const", &makeConstant, py::arg("value"), py::arg("dtype") = py::none(), Located());
    m.def(
        "min_value", [](const std::string& dtype) { return minValue(parseDType(dtype)); },
        py::arg("dtype"), Located());
    m.def(
        "max_value", [](const std::string& dtype) { return maxValue(parseDType(dtype)); },
        py::arg("dtype"), Located());
}

void requireNumeric(const Expr& e, const char* function) {
    if (e.type().isHandle())
        throw UserError(std::string(function) + " of a handle expression '" + toString(e) + "'");
}

template <typename Op> void defineBinary(py::module_& m, const char* name, Op op) {
    m.def(
        name,
        [name, op](Expr a, Expr b) {
            requireNumeric(a, name);
            requireNumeric(b, name);
            return op(a, b);
        },
        py::arg("a"), py::arg("b"), Located());
}

void bindArithmetic(py::module_& m) {
    defineBinary(m, "floordiv", [](Expr a, Expr b) { return floordiv(a, b); });
    defineBinary(m, "floormod", [](Expr a, Expr b) { return floormod(a, b); });
    defineBinary(m, "truncdiv", [](Expr a, Expr b) { return truncdiv(a, b); });
    defineBinary(m, "truncmod", [](Expr a, Expr b) { return truncmod(a, b); });
    // TVM's index arithmetic is floor-based (tvm.tir.indexdiv is floordiv since 0.6).
    defineBinary(m, "indexdiv", [](Expr a, Expr b) { return floordiv(a, b); });
    defineBinary(m, "indexmod", [](Expr a, Expr b) { return floormod(a, b); });
    // tvm.tir.div: C division, truncating on integers.
    defineBinary(m, "div", [](Expr a, Expr b) { return truncdiv(a, b); });
    defineBinary(m, "min", [](Expr a, Expr b) { return min(a, b); });
    defineBinary(m, "max", [](Expr a, Expr b) { return max(a, b); });
    m.def("if_then_else", &ifThenElse, py::arg("cond"), py::arg("t"), py::arg("f"), Located());
    m.def(
        "all", [](py::args args) { return foldLogical(args, true); }, Located());
    m.def(
        "any", [](py::args args) { return foldLogical(args, false); }, Located());
    m.def(
        "logical_not", [](Expr a) { return !a; }, py::arg("a"), Located());
    m.def(
        "likely", [](Expr cond) { return likely(cond); }, py::arg("cond"), Located());
    m.def(
        "vscale", []() { return vscale(); }, Located());
    m.def(
        "cast",
        [](Expr value, const std::string& dtype) {
            DataType to = parseDType(dtype);
            if (to.isHandle() || (value.type().isVector() && to.lanes() != value.type().lanes()))
                throw UserError("cannot cast " + value.type().toString() + " to " + dtype);
            return cast(to, value);
        },
        py::arg("value"), py::arg("dtype"), Located());
}

void bindMath(py::module_& m) {
    // Unary intrinsics TVM's te/tir export; each is a pure call typed like its (float) argument.
    for (const char* name :
         {"exp",   "exp2",  "exp10", "log",   "log2",      "log10", "log1p", "expm1",
          "sqrt",  "rsqrt", "cbrt",  "tanh",  "sigmoid",   "sin",   "cos",   "tan",
          "asin",  "acos",  "atan",  "sinh",  "cosh",      "asinh", "acosh", "atanh",
          "floor", "ceil",  "round", "trunc", "nearbyint", "fabs",  "erf"}) {
        std::string fn = name;
        m.def(
            name, [fn](Expr x) { return mathCall(fn, {x}); }, py::arg("x"), Located());
    }
    // Binary ones; `power` and `pow` are TVM's two names of one function.
    for (const auto& [name, fn] :
         std::vector<std::pair<const char*, std::string>>{{"power", "pow"},
                                                          {"pow", "pow"},
                                                          {"atan2", "atan2"},
                                                          {"fmod", "fmod"},
                                                          {"hypot", "hypot"},
                                                          {"copysign", "copysign"}}) {
        std::string callee = fn;
        m.def(
            name,
            [callee](Expr x, Expr y) {
                return mathCall(callee, {x, y});
            },
            py::arg("x"), py::arg("y"), Located());
    }
    // TVM's abs: fabs of a float, the value or its negation for a signed integer, the value
    // itself for an unsigned one.
    m.def(
        "abs",
        [](Expr x) -> Expr {
            DataType t = x.type();
            if (t.isFloat())
                return mathCall("fabs", {x});
            if (t.isUInt())
                return x;
            return select(x >= makeZero(t), x, makeZero(t) - x);
        },
        py::arg("x"), Located());
    // TVM's isnan / isinf / isfinite: a bool intrinsic of a float; a constant of an integer.
    for (const char* name : {"isnan", "isinf", "isfinite"}) {
        std::string fn = name;
        m.def(
            name,
            [fn](Expr x) -> Expr {
                DataType result = DataType::boolean().withLanes(x.type().lanes());
                if (!x.type().isFloat())
                    return makeConst(result, int64_t(fn == "isfinite" ? 1 : 0));
                return CallNode::make(result, fn, {x}, CallKind::Intrinsic);
            },
            py::arg("x"), Located());
    }
}

} // namespace

void bindIrFunctions(py::module_& m) {
    bindConstructors(m);
    bindArithmetic(m);
    bindMath(m);
}

} // namespace bs::script

#include "script/bindings/ExprOperators.h"

#include "ir/Op.h"
#include "ir/Printer.h"
#include "script/bindings/CallGuard.h"

#include <functional>

namespace bs::script {

namespace {

using BinaryOp = Expr (*)(Expr, Expr);

/// A deferred `a == b` (or `a != b` when `negated`): TVM keeps both Python operands and decides
/// later whether an expression or a truth value is wanted.
struct DeferredCompare {
    py::object a;
    py::object b;
};
struct EqualOp : DeferredCompare {};
struct NotEqualOp : DeferredCompare {};

py::object notImplemented() { return py::reinterpret_borrow<py::object>(Py_NotImplemented); }

void requireArithmetic(const Expr& e, const char* symbol) {
    if (e.type().isHandle())
        throw UserError(std::string("operator ") + symbol + " on a handle expression '" +
                        toString(e) + "'");
}

/// `lhs op rhs`, or NotImplemented when an operand is not an expression, so that Python tries
/// the other operand's reflected operator and finally raises its usual TypeError.
py::object applyBinary(py::handle lhs, py::handle rhs, BinaryOp op, const char* symbol) {
    auto a = tryConvertExpr(lhs);
    auto b = tryConvertExpr(rhs);
    if (!a || !b)
        return notImplemented();
    requireArithmetic(*a, symbol);
    requireArithmetic(*b, symbol);
    return wrapNode(op(*a, *b).get());
}

/// TVM's `_dtype_is_int`: a Python int or an expression of a signed integer type.
bool isIntOperand(py::handle value) {
    if (PyLong_Check(value.ptr()) && !PyBool_Check(value.ptr()))
        return true;
    if (!py::isinstance<ExprNode>(value) && !py::isinstance<IterVarNode>(value))
        return false;
    auto e = tryConvertExpr(value);
    return e && e->type().isInt();
}

py::object trueDivide(py::handle lhs, py::handle rhs) {
    if (isIntOperand(lhs) && isIntOperand(rhs))
        throw std::runtime_error("TVM supports multiple types of integer divisions, please call "
                                 "div, indexdiv/indexmod, floordiv/floormod  or truncdiv/truncmod "
                                 "directly to avoid ambiguity in the code.");
    return applyBinary(
        lhs, rhs, [](Expr a, Expr b) { return a / b; }, "/");
}

[[noreturn]] void raiseUnsupported(const char* symbol) {
    throw py::type_error(std::string("operator ") + symbol +
                         " on expressions is not supported by Boundscope");
}

/// Defines method `name` on `cls`, keeping overloads defined before.
template <typename Func> void defineMethod(py::handle cls, const char* name, Func&& f) {
    py::cpp_function method(std::forward<Func>(f), py::name(name), py::is_method(cls),
                            py::sibling(py::getattr(cls, name, py::none())), Located());
    py::setattr(cls, name, method);
}

void defineBinary(py::handle cls, const char* name, const char* rname, BinaryOp op,
                  const char* symbol) {
    defineMethod(cls, name, [op, symbol](py::object self, py::object other) {
        return applyBinary(self, other, op, symbol);
    });
    defineMethod(cls, rname, [op, symbol](py::object self, py::object other) {
        return applyBinary(other, self, op, symbol);
    });
}

void defineComparisons(py::handle cls) {
    struct Comparison {
        const char* name;
        const char* symbol;
        BinaryOp op;
    };
    const Comparison comparisons[] = {
        {"__lt__", "<", [](Expr a, Expr b) { return a < b; }},
        {"__le__", "<=", [](Expr a, Expr b) { return a <= b; }},
        {"__gt__", ">", [](Expr a, Expr b) { return a > b; }},
        {"__ge__", ">=", [](Expr a, Expr b) { return a >= b; }},
    };
    for (const Comparison& c : comparisons) {
        defineMethod(cls, c.name, [c](py::object self, py::object other) {
            return applyBinary(self, other, c.op, c.symbol);
        });
    }
    defineMethod(cls, "__eq__", [](py::object self, py::object other) {
        return py::cast(EqualOp{{self, other}});
    });
    defineMethod(cls, "__ne__", [](py::object self, py::object other) {
        return py::cast(NotEqualOp{{self, other}});
    });
}

void defineUnsupported(py::handle cls) {
    const char* const bitwise[][2] = {
        {"__and__", "&"},     {"__rand__", "&"},    {"__or__", "|"},      {"__ror__", "|"},
        {"__xor__", "^"},     {"__rxor__", "^"},    {"__lshift__", "<<"}, {"__rlshift__", "<<"},
        {"__rshift__", ">>"}, {"__rrshift__", ">>"}};
    for (const auto& entry : bitwise) {
        const char* symbol = entry[1];
        defineMethod(cls, entry[0],
                     [symbol](py::object, py::object) -> py::object { raiseUnsupported(symbol); });
    }
    defineMethod(cls, "__invert__", [](py::object) -> py::object { raiseUnsupported("~"); });
}

template <typename T> void bindDeferred(py::module_& m, const char* name, BinaryOp build) {
    bool negated = std::is_same_v<T, NotEqualOp>;
    py::class_<T>(m, name)
        .def(py::init([](py::object a, py::object b) {
            return T{{std::move(a), std::move(b)}};
        }))
        .def_property_readonly("a", [](const T& op) { return op.a; })
        .def_property_readonly("b", [](const T& op) { return op.b; })
        .def("__bool__", [negated](const T& op) { return sameAs(op.a, op.b) != negated; })
        .def(
            "asobject",
            [build](const T& op) {
                return wrapNode(build(convertExpr(op.a), convertExpr(op.b)).get());
            },
            Located())
        .def("same_as", [](py::object self, py::object other) { return self.is(other); })
        .def("__str__", [build](const T& op) {
            return toString(build(convertExpr(op.a), convertExpr(op.b)));
        });
}

} // namespace

std::optional<Expr> deferredComparison(py::handle value) {
    const DeferredCompare* op = nullptr;
    BinaryOp build = nullptr;
    if (py::isinstance<EqualOp>(value)) {
        op = value.cast<EqualOp*>();
        build = eq;
    } else if (py::isinstance<NotEqualOp>(value)) {
        op = value.cast<NotEqualOp*>();
        build = ne;
    }
    if (!op)
        return std::nullopt;
    auto a = tryConvertExpr(op->a);
    auto b = tryConvertExpr(op->b);
    if (!a || !b)
        return std::nullopt;
    return build(*a, *b);
}

bool sameAs(py::handle a, py::handle b) {
    if (py::isinstance<Node>(a) && py::isinstance<Node>(b))
        return a.cast<Node*>() == b.cast<Node*>();
    return a.is(b);
}

void addExprOperators(py::handle cls) {
    defineBinary(
        cls, "__add__", "__radd__", [](Expr a, Expr b) { return a + b; }, "+");
    defineBinary(
        cls, "__sub__", "__rsub__", [](Expr a, Expr b) { return a - b; }, "-");
    defineBinary(
        cls, "__mul__", "__rmul__", [](Expr a, Expr b) { return a * b; }, "*");
    defineBinary(cls, "__floordiv__", "__rfloordiv__", floordiv, "//");
    defineBinary(cls, "__mod__", "__rmod__", floormod, "%");
    defineMethod(cls, "__truediv__",
                 [](py::object self, py::object other) { return trueDivide(self, other); });
    defineMethod(cls, "__rtruediv__",
                 [](py::object self, py::object other) { return trueDivide(other, self); });
    defineMethod(cls, "__neg__", [](py::object self) {
        Expr e = convertExpr(self);
        requireArithmetic(e, "-");
        return wrapNode((e * makeConst(e.type(), int64_t(-1))).get());
    });
    defineComparisons(cls);
    defineUnsupported(cls);
    defineMethod(cls, "__bool__", [](py::object) -> bool {
        throw py::value_error("Cannot use and / or / not operator to Expr, hint: use "
                              "tvm.tir.all / tvm.tir.any instead");
    });
    defineMethod(cls, "__hash__",
                 [](py::object self) { return std::hash<const void*>()(self.cast<Node*>()); });
    defineMethod(cls, "equal", [](py::object self, py::object other) {
        return wrapNode(eq(convertExpr(self), convertExpr(other)).get());
    });
}

void addIntImmOperators(py::handle cls) {
    defineMethod(cls, "__eq__", [](py::object self, py::object other) {
        return applyBinary(self, other, eq, "==");
    });
    defineMethod(cls, "__ne__", [](py::object self, py::object other) {
        return applyBinary(self, other, ne, "!=");
    });
    defineMethod(cls, "__bool__", [](const IntImmNode& n) { return n.value != 0; });
    defineMethod(cls, "__hash__", [](const IntImmNode& n) { return py::hash(py::int_(n.value)); });
    defineMethod(cls, "__int__", [](const IntImmNode& n) { return n.value; });
}

void bindDeferredComparisons(py::module_& m) {
    bindDeferred<EqualOp>(m, "EqualOp", eq);
    bindDeferred<NotEqualOp>(m, "NotEqualOp", ne);
}

} // namespace bs::script

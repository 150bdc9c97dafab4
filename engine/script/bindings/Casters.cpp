#include "script/bindings/Casters.h"

#include "ir/Op.h"
#include "script/bindings/ExprOperators.h"

#include <limits>

namespace bs::script {

namespace {

/// TVM's `_scalar_type_inference` for Python ints: int32 when the value fits, else int64.
Expr convertInt(py::handle value) {
    long long v = 0;
    try {
        v = value.cast<long long>();
    } catch (const py::cast_error&) {
        throw UserError("integer " + std::string(py::str(value)) + " does not fit in int64");
    }
    bool fits32 =
        v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
    return makeConst(fits32 ? DataType::int32() : DataType::int64(), int64_t(v));
}

} // namespace

std::optional<Expr> tryConvertExpr(py::handle value) {
    if (py::isinstance<ExprNode>(value))
        return Expr(value.cast<ExprNode*>());
    if (py::isinstance<IterVarNode>(value))
        return Expr(value.cast<IterVarNode*>()->var);
    if (auto deferred = deferredComparison(value))
        return deferred;
    // bool before int: Python's bool is an int.
    if (PyBool_Check(value.ptr()))
        return makeBool(value.ptr() == Py_True);
    if (PyLong_Check(value.ptr()) || (!PyFloat_Check(value.ptr()) && PyIndex_Check(value.ptr()))) {
        auto index = py::reinterpret_steal<py::object>(PyNumber_Index(value.ptr()));
        if (!index)
            throw py::error_already_set();
        return convertInt(index);
    }
    // Python floats and numeric scalars that are not integers (numpy.float32, ...): TVM makes
    // them float32 constants.
    if (PyFloat_Check(value.ptr()) ||
        (PyNumber_Check(value.ptr()) && py::hasattr(value, "__float__")))
        return makeConst(DataType::float32(), value.cast<double>());
    // Objects that stand for an expression (TVM's ObjectGeneric) say so with `asobject()`.
    if (py::hasattr(value, "asobject"))
        return tryConvertExpr(value.attr("asobject")());
    return std::nullopt;
}

Expr convertExpr(py::handle value, const char* what) {
    if (auto e = tryConvertExpr(value))
        return *e;
    std::string typeName = py::str(value.get_type().attr("__name__"));
    throw py::type_error(std::string("expected ") + what + ", got a value of type '" + typeName +
                         "'");
}

DataType parseDType(const std::string& text) {
    auto type = DataType::parse(text);
    if (!type)
        throw UserError("unknown data type '" + text + "'");
    return *type;
}

std::vector<Tensor> tensorList(const py::object& value, const std::string& what) {
    if (value.is_none())
        return {};
    if (py::isinstance<Tensor>(value))
        return {value.cast<Tensor>()};
    std::vector<Tensor> out;
    for (const py::handle item : value) {
        if (!py::isinstance<Tensor>(item))
            throw UserError(what + ": expected tensors, got " +
                            std::string(py::str(py::type::of(item).attr("__name__"))));
        out.push_back(item.cast<Tensor>());
    }
    return out;
}

py::object wrapNode(const Node* node) {
    if (!node)
        return py::none();
    // The holder is the intrusive pointer, so "taking ownership" only adds a reference; an
    // existing Python object for this node is returned as is.
    return py::cast(const_cast<Node*>(node), py::return_value_policy::take_ownership);
}

bool isTvm06Marker(const Stmt& s) {
    if (s.as<ProducerConsumerNode>())
        return true;
    const auto* attr = s.as<AttrStmtNode>();
    return attr && attr->key == attr::kRealizeScope;
}

Stmt skipTvm06Markers(Stmt s) {
    while (s.defined() && isTvm06Marker(s)) {
        if (const auto* pc = s.as<ProducerConsumerNode>())
            s = pc->body;
        else
            s = s.as<AttrStmtNode>()->body;
    }
    return s;
}

Expr optionalExpr(const py::object& value) { return value.is_none() ? Expr() : convertExpr(value); }

Stmt optionalStmt(const py::object& value) { return value.is_none() ? Stmt() : value.cast<Stmt>(); }

std::vector<Expr> convertExprList(const py::object& value, const char* what) {
    std::vector<Expr> out;
    if (py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value)) {
        for (py::handle item : value)
            out.push_back(convertExpr(item, what));
        return out;
    }
    out.push_back(convertExpr(value, what));
    return out;
}

} // namespace bs::script

/// \file
/// How engine values cross into Python and back. IR nodes are Python objects whose holder is the
/// engine's own intrusive pointer, so a node keeps one identity on both sides (`te.var` returned
/// twice is the same Python object) and lives as long as either side holds it. Handles (`Expr`,
/// `Stmt`, `Var`, `IterVar`) convert to and from those node objects; an `Expr` parameter also
/// accepts what TVM's `convert` accepts: Python ints, floats and bools, IterVars (their variable)
/// and the deferred `a == b` objects. Every binding source includes this header, so all translation
/// units agree on these casters.
#pragma once

#include "ir/Stmt.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>

PYBIND11_DECLARE_HOLDER_TYPE(T, bs::IntrusivePtr<T>, true);

namespace bs::script {

namespace py = pybind11;

/// Converts a Python value to an expression as TVM's `convert` does: an expression node as is,
/// an IterVar as its variable, a bool as a `bool` constant, an int as `int32` (or `int64` when it
/// does not fit), a float as `float32`, a deferred comparison as EQ/NE. Nullopt for anything else.
std::optional<Expr> tryConvertExpr(py::handle value);

/// Like tryConvertExpr, but raises TypeError naming the value's type when it does not convert.
Expr convertExpr(py::handle value, const char* what = "an expression");
/// A list or tuple of expressions, each converted; any other value is a list of one.
std::vector<Expr> convertExprList(const py::object& value, const char* what);

/// None as an undefined expression, anything else as convertExpr converts it.
Expr optionalExpr(const py::object& value);
/// None as an undefined statement, else the statement (a TypeError for anything else).
Stmt optionalStmt(const py::object& value);

/// Parses a TVM dtype string (`int32`, `float32`, `bool`, `float32x4`); a UserError when invalid.
DataType parseDType(const std::string& text);

/// The Python object of a node (the existing one if the node already has one).
py::object wrapNode(const Node* node);

/// Whether a statement is one of the markers Boundscope keeps from TVM 0.6 for its printed IR
/// (the seeds' `produce T {` and `// attr [T] realize_scope`) that TVM 0.7 and later do not have:
/// a ProducerConsumer, or an AttrStmt `realize_scope` (its scope is also the realize's
/// `storage_scope`).
bool isTvm06Marker(const Stmt& s);
/// The statement Python sees for `s`: past any TVM 0.6 markers, so the tree that TVM's Python API
/// walks (`stmt.body.body`, `seq[i]`, `post_order_visit`) has the shape of the TVM whose API it
/// is. The printed text keeps the markers.
Stmt skipTvm06Markers(Stmt s);

/// A tensor or a sequence of tensors, as TVM's Python accepts (create_group, scan); None is
/// none. A UserError `<what>: expected tensors, got <type>` for anything else.
std::vector<Tensor> tensorList(const py::object& value, const std::string& what);

} // namespace bs::script

namespace pybind11::detail {

/// Caster for a handle type over a bound node class: `None` is an undefined handle.
template <typename Handle, typename NodeType> struct BsHandleCaster {
    Handle value;

    bool load(handle src, bool /*convert*/) {
        if (!isinstance<NodeType>(src))
            return false;
        value = Handle(src.cast<NodeType*>());
        return true;
    }
    static handle cast(const Handle& h, return_value_policy, handle) {
        if (!h.defined())
            return none().release();
        return bs::script::wrapNode(h.get()).release();
    }
    operator Handle&() { return value; }
    operator Handle*() { return &value; }
    operator Handle&&() && { return std::move(value); }
    template <typename T> using cast_op_type = movable_cast_op_type<T>;
};

template <> struct type_caster<bs::Var> : BsHandleCaster<bs::Var, bs::VarNode> {
    static constexpr auto name = const_name("Var");
};

template <> struct type_caster<bs::IterVar> : BsHandleCaster<bs::IterVar, bs::IterVarNode> {
    static constexpr auto name = const_name("IterVar");
};

template <> struct type_caster<bs::Stmt> : BsHandleCaster<bs::Stmt, bs::StmtNode> {
    static constexpr auto name = const_name("Stmt");

    static handle cast(const bs::Stmt& s, return_value_policy policy, handle parent) {
        return BsHandleCaster::cast(bs::script::skipTvm06Markers(s), policy, parent);
    }
};

template <>
struct type_caster<bs::CommReducer> : BsHandleCaster<bs::CommReducer, bs::CommReducerNode> {
    static constexpr auto name = const_name("CommReducer");
};

/// An Expr parameter takes nodes without conversion and, in the converting pass, anything
/// `tryConvertExpr` accepts.
template <> struct type_caster<bs::Expr> {
    PYBIND11_TYPE_CASTER(bs::Expr, const_name("PrimExpr"));

    bool load(handle src, bool convert) {
        if (isinstance<bs::ExprNode>(src)) {
            value = bs::Expr(src.cast<bs::ExprNode*>());
            return true;
        }
        if (!convert)
            return false;
        auto converted = bs::script::tryConvertExpr(src);
        if (!converted)
            return false;
        value = *converted;
        return true;
    }
    static handle cast(const bs::Expr& e, return_value_policy, handle) {
        if (!e.defined())
            return none().release();
        return bs::script::wrapNode(e.get()).release();
    }
};

} // namespace pybind11::detail

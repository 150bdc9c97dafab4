/// The IR layer's node classes as Python classes with TVM's names and fields (tvm/tir/expr.py):
/// `tvm.tir.Var`, `IntImm`, `Add` (with `.a`, `.b`), `Select`, ..., `tvm.ir.Range`,
/// `tvm.tir.IterVar`. Each class is the engine node itself (see Casters.h), so `isinstance(x + 1,
/// tvm.tir.Add)` holds and a node has one Python object.

#include "ir/Op.h"
#include "ir/Printer.h"
#include "script/bindings/Bindings.h"
#include "script/bindings/CallGuard.h"
#include "script/bindings/Casters.h"
#include "script/bindings/ExprOperators.h"

namespace bs::script {

namespace {

template <typename T> using NodeClass = py::class_<T, ExprNode, IntrusivePtr<T>>;

template <typename T> IntrusivePtr<T> holderOf(const Expr& e) {
    return IntrusivePtr<T>(const_cast<T*>(static_cast<const T*>(e.get())));
}

void bindObject(py::module_& m) {
    py::class_<Node, IntrusivePtr<Node>>(m, "Object")
        .def("same_as", [](py::object self, py::object other) { return sameAs(self, other); })
        .def("__str__", [](const Node& n) { return nodeToString(NodeRef(&n)); })
        .def("__repr__", [](const Node& n) { return nodeToString(NodeRef(&n)); })
        .def("__hash__", [](const Node& n) { return std::hash<const void*>()(&n); });

    py::class_<ExprNode, Node, IntrusivePtr<ExprNode>> prim(m, "PrimExpr");
    prim.def_property_readonly("dtype", [](const ExprNode& n) { return n.type.toString(); })
        .def(
            "astype",
            [](const ExprNode& n, const std::string& dtype) {
                DataType to = parseDType(dtype);
                if (to.isHandle() || (n.type.isVector() && to.lanes() != n.type.lanes()))
                    throw UserError("cannot cast " + n.type.toString() + " to " + dtype);
                return cast(to, Expr(&n));
            },
            py::arg("dtype"), Located());
    addExprOperators(prim);
}

void bindLeaves(py::module_& m) {
    NodeClass<VarNode>(m, "Var")
        .def(py::init([](std::string name, const std::string& dtype) {
                 return holderOf<VarNode>(Var(std::move(name), parseDType(dtype)));
             }),
             py::arg("name"), py::arg("dtype") = "int32", Located())
        .def_property_readonly("name", [](const VarNode& n) { return n.name; });

    auto intImm = NodeClass<IntImmNode>(m, "IntImm")
                      .def(py::init([](const std::string& dtype, long long value) {
                               DataType t = parseDType(dtype);
                               if (!t.isScalar() || !(t.isIntegral() || t.isBool()))
                                   throw UserError("IntImm of non-integer type " + dtype);
                               return holderOf<IntImmNode>(IntImmNode::make(t, value));
                           }),
                           py::arg("dtype"), py::arg("value"), Located())
                      .def_property_readonly("value", [](const IntImmNode& n) { return n.value; });
    addIntImmOperators(intImm);

    NodeClass<FloatImmNode>(m, "FloatImm")
        .def(py::init([](const std::string& dtype, double value) {
                 DataType t = parseDType(dtype);
                 if (!t.isScalar() || !t.isFloat())
                     throw UserError("FloatImm of non-float type " + dtype);
                 return holderOf<FloatImmNode>(FloatImmNode::make(t, value));
             }),
             py::arg("dtype"), py::arg("value"), Located())
        .def_property_readonly("value", [](const FloatImmNode& n) { return n.value; })
        .def("__float__", [](const FloatImmNode& n) { return n.value; });

    NodeClass<StringImmNode>(m, "StringImm")
        .def(py::init([](std::string value) {
                 return holderOf<StringImmNode>(StringImmNode::make(std::move(value)));
             }),
             Located())
        .def_property_readonly("value", [](const StringImmNode& n) { return n.value; });
}

/// A binary node class with TVM's constructor `tvm.tir.Add(a, b)`, which (unlike `a + b`)
/// neither folds nor converts: both operands must already have one type.
template <NodeKind K> void bindBinary(py::module_& m, const char* name) {
    using T = BinaryNode<K>;
    NodeClass<T>(m, name)
        .def(py::init([name](Expr a, Expr b) {
                 if (a.type() != b.type())
                     throw UserError(std::string(name) + " of mismatched types " +
                                     a.type().toString() + " and " + b.type().toString());
                 if ((K == NodeKind::And || K == NodeKind::Or) && !a.type().isBool())
                     throw UserError(std::string(name) + " of non-boolean " + a.type().toString());
                 return holderOf<T>(T::make(a, b));
             }),
             py::arg("a"), py::arg("b"), Located())
        .def_property_readonly("a", [](const T& n) { return n.a; })
        .def_property_readonly("b", [](const T& n) { return n.b; });
}

void bindBinaries(py::module_& m) {
    bindBinary<NodeKind::Add>(m, "Add");
    bindBinary<NodeKind::Sub>(m, "Sub");
    bindBinary<NodeKind::Mul>(m, "Mul");
    bindBinary<NodeKind::Div>(m, "Div");
    bindBinary<NodeKind::Mod>(m, "Mod");
    bindBinary<NodeKind::FloorDiv>(m, "FloorDiv");
    bindBinary<NodeKind::FloorMod>(m, "FloorMod");
    bindBinary<NodeKind::Min>(m, "Min");
    bindBinary<NodeKind::Max>(m, "Max");
    bindBinary<NodeKind::EQ>(m, "EQ");
    bindBinary<NodeKind::NE>(m, "NE");
    bindBinary<NodeKind::LT>(m, "LT");
    bindBinary<NodeKind::LE>(m, "LE");
    bindBinary<NodeKind::GT>(m, "GT");
    bindBinary<NodeKind::GE>(m, "GE");
    bindBinary<NodeKind::And>(m, "And");
    bindBinary<NodeKind::Or>(m, "Or");
}

void requireBool(const Expr& e, const char* what) {
    if (!e.type().isBool())
        throw UserError(std::string(what) + " must be a boolean expression, got " +
                        e.type().toString() + " '" + toString(e) + "'");
}

void bindCompound(py::module_& m) {
    NodeClass<NotNode>(m, "Not")
        .def(py::init([](Expr a) {
                 requireBool(a, "the operand of Not");
                 return holderOf<NotNode>(NotNode::make(a));
             }),
             py::arg("a"), Located())
        .def_property_readonly("a", [](const NotNode& n) { return n.a; });

    NodeClass<SelectNode>(m, "Select")
        .def(py::init([](Expr c, Expr t, Expr f) {
                 requireBool(c, "the condition of Select");
                 if (t.type() != f.type())
                     throw UserError("Select branches of different types " + t.type().toString() +
                                     " and " + f.type().toString());
                 return holderOf<SelectNode>(SelectNode::make(c, t, f));
             }),
             py::arg("condition"), py::arg("true_value"), py::arg("false_value"), Located())
        .def_property_readonly("condition", [](const SelectNode& n) { return n.condition; })
        .def_property_readonly("true_value", [](const SelectNode& n) { return n.trueValue; })
        .def_property_readonly("false_value", [](const SelectNode& n) { return n.falseValue; });

    NodeClass<CastNode>(m, "Cast").def_property_readonly("value",
                                                         [](const CastNode& n) { return n.value; });
    NodeClass<CallNode>(m, "Call")
        .def_property_readonly("name", [](const CallNode& n) { return n.name; })
        .def_property_readonly("args", [](const CallNode& n) { return n.args; })
        .def_property_readonly("_kind", [](const CallNode& n) {
            switch (n.callKind) {
            case CallKind::Intrinsic:
                return "intrinsic";
            case CallKind::PureExtern:
                return "pure_extern";
            case CallKind::Extern:
                break;
            }
            return "extern";
        });
    NodeClass<ProducerLoadNode>(m, "ProducerLoad")
        .def_property_readonly("producer", [](const ProducerLoadNode& n) { return n.tensor; })
        .def_property_readonly("indices", [](const ProducerLoadNode& n) { return n.indices; });
    NodeClass<LoadNode>(m, "Load")
        .def_property_readonly("buffer_var", [](const LoadNode& n) { return n.bufferVar; })
        .def_property_readonly("index", [](const LoadNode& n) { return n.index; })
        .def_property_readonly("predicate", [](const LoadNode& n) { return n.predicate; });
    NodeClass<RampNode>(m, "Ramp")
        .def_property_readonly("base", [](const RampNode& n) { return n.base; })
        .def_property_readonly("stride", [](const RampNode& n) { return n.stride; })
        .def_property_readonly("lanes", [](const RampNode& n) { return n.lanes; });
    NodeClass<BroadcastNode>(m, "Broadcast")
        .def_property_readonly("value", [](const BroadcastNode& n) { return n.value; })
        .def_property_readonly("lanes", [](const BroadcastNode& n) { return n.lanes; });
    NodeClass<LetNode>(m, "Let")
        .def_property_readonly("var", [](const LetNode& n) { return n.var; })
        .def_property_readonly("value", [](const LetNode& n) { return n.value; })
        .def_property_readonly("body", [](const LetNode& n) { return n.body; });
    NodeClass<ReduceNode>(m, "Reduce")
        .def_property_readonly("combiner", [](const ReduceNode& n) { return n.combiner; })
        .def_property_readonly("source", [](const ReduceNode& n) { return n.source; })
        .def_property_readonly("axis", [](const ReduceNode& n) { return n.axis; })
        .def_property_readonly("condition", [](const ReduceNode& n) { return n.condition; })
        .def_property_readonly("init", [](const ReduceNode& n) { return n.init; })
        .def_property_readonly("value_index", [](const ReduceNode& n) { return n.valueIndex; });
}

} // namespace

void bindIr(py::module_& m) {
    bindObject(m);
    bindLeaves(m);
    bindBinaries(m);
    bindCompound(m);
    bindIrAxes(m);
    bindIrFunctions(m);
    bindIrStmt(m);
    bindDeferredComparisons(m);
}

} // namespace bs::script

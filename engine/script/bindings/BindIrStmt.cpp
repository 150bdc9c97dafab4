/// The IR layer's statements as read-only Python classes with TVM's names and fields
/// (tvm/tir/stmt.py): `tvm.tir.For` (`loop_var`, `min`, `extent`, `kind`, `body`), `AttrStmt`
/// (`node`, `attr_key`, `value`, `body`), `ProducerRealize`, `ProducerStore`, `Allocate`, ...,
/// so TVM's schedule tests can walk what `tvm.lower` and `ScheduleOps` return. `str()` of a
/// statement is the printer's text. Also `post_order_visit` (tvm.tir.stmt_functor) and
/// `structural_equal` (tvm.ir) over statements and expressions.

#include "ir/Equality.h"
#include "ir/Functor.h"
#include "ir/Operation.h"
#include "script/bindings/Bindings.h"
#include "script/bindings/Casters.h"

#include <unordered_set>

namespace bs::script {

namespace {

template <typename T> using StmtClass = py::class_<T, StmtNode, IntrusivePtr<T>>;

void bindScopes(py::module_& m) {
    StmtClass<LetStmtNode>(m, "LetStmt")
        .def_property_readonly("var", [](const LetStmtNode& n) { return n.var; })
        .def_property_readonly("value", [](const LetStmtNode& n) { return n.value; })
        .def_property_readonly("body", [](const LetStmtNode& n) { return n.body; });
    StmtClass<AttrStmtNode>(m, "AttrStmt")
        // An IterVar (thread_extent), an operation (realize_scope), a Var or a StringImm.
        .def_property_readonly("node", [](const AttrStmtNode& n) { return wrapNode(n.node.get()); })
        .def_property_readonly("attr_key", [](const AttrStmtNode& n) { return n.key; })
        .def_property_readonly("value", [](const AttrStmtNode& n) { return n.value; })
        .def_property_readonly("body", [](const AttrStmtNode& n) { return n.body; });
    StmtClass<AssertStmtNode>(m, "AssertStmt")
        .def_property_readonly("condition", [](const AssertStmtNode& n) { return n.condition; })
        .def_property_readonly("message", [](const AssertStmtNode& n) { return n.message; })
        .def_property_readonly("body", [](const AssertStmtNode& n) { return n.body; });
    // `kind` is the ForKind number (SERIAL 0 ... THREAD_BINDING 4, TVM's order); the Python
    // package turns it into tvm.tir.ForKind.
    StmtClass<ForNode>(m, "For")
        .def_property_readonly("loop_var", [](const ForNode& n) { return n.loopVar; })
        .def_property_readonly("min", [](const ForNode& n) { return n.min; })
        .def_property_readonly("extent", [](const ForNode& n) { return n.extent; })
        .def_property_readonly("_kind", [](const ForNode& n) { return int(n.kind); })
        .def_property_readonly("body", [](const ForNode& n) { return n.body; })
        .def_property_readonly("thread_binding", [](const ForNode& n) { return n.threadBinding; });
    StmtClass<IfThenElseNode>(m, "IfThenElse")
        .def_property_readonly("condition", [](const IfThenElseNode& n) { return n.condition; })
        .def_property_readonly("then_case", [](const IfThenElseNode& n) { return n.thenCase; })
        .def_property_readonly("else_case", [](const IfThenElseNode& n) { return n.elseCase; });
}

void bindTensorStatements(py::module_& m) {
    StmtClass<ProducerRealizeNode>(m, "ProducerRealize")
        .def_property_readonly("producer", [](const ProducerRealizeNode& n) { return n.tensor; })
        .def_property_readonly("bounds", [](const ProducerRealizeNode& n) { return n.bounds; })
        .def_property_readonly("condition",
                               [](const ProducerRealizeNode& n) { return n.condition; })
        .def_property_readonly("body", [](const ProducerRealizeNode& n) { return n.body; })
        .def_property_readonly("storage_scope",
                               [](const ProducerRealizeNode& n) { return n.storageScope; });
    StmtClass<ProducerStoreNode>(m, "ProducerStore")
        .def_property_readonly("producer", [](const ProducerStoreNode& n) { return n.tensor; })
        .def_property_readonly("value", [](const ProducerStoreNode& n) { return n.value; })
        .def_property_readonly("indices", [](const ProducerStoreNode& n) { return n.indices; });
    // TVM 0.6's `produce T { ... }`; later TVM has no such node.
    StmtClass<ProducerConsumerNode>(m, "ProducerConsumer")
        .def_property_readonly("func",
                               [](const ProducerConsumerNode& n) { return wrapNode(n.op.get()); })
        .def_property_readonly("is_producer",
                               [](const ProducerConsumerNode& n) { return n.isProducer; })
        .def_property_readonly("body", [](const ProducerConsumerNode& n) { return n.body; });
}

void bindBufferStatements(py::module_& m) {
    StmtClass<AllocateNode>(m, "Allocate")
        .def_property_readonly("buffer_var", [](const AllocateNode& n) { return n.bufferVar; })
        .def_property_readonly("dtype", [](const AllocateNode& n) { return n.type.toString(); })
        .def_property_readonly("extents", [](const AllocateNode& n) { return n.extents; })
        .def_property_readonly("condition", [](const AllocateNode& n) { return n.condition; })
        .def_property_readonly("body", [](const AllocateNode& n) { return n.body; });
    StmtClass<StoreNode>(m, "Store")
        .def_property_readonly("buffer_var", [](const StoreNode& n) { return n.bufferVar; })
        .def_property_readonly("value", [](const StoreNode& n) { return n.value; })
        .def_property_readonly("index", [](const StoreNode& n) { return n.index; })
        .def_property_readonly("predicate", [](const StoreNode& n) { return n.predicate; });
    StmtClass<SeqNode>(m, "SeqStmt")
        .def_property_readonly("seq", [](const SeqNode& n) { return n.seq; })
        .def("__len__", [](const SeqNode& n) { return n.seq.size(); })
        .def("__getitem__", [](const SeqNode& n, long long i) {
            long long size = static_cast<long long>(n.seq.size());
            if (i < -size || i >= size)
                throw py::index_error("SeqStmt index " + std::to_string(i) + " out of range for " +
                                      std::to_string(size) + " statements");
            return n.seq[static_cast<size_t>(i < 0 ? i + size : i)];
        });
    StmtClass<EvaluateNode>(m, "Evaluate")
        .def_property_readonly("value", [](const EvaluateNode& n) { return n.value; });
}

/// TVM's PostOrderVisit: children before parents, and a node shared by several parents is
/// visited (with its subtree) once. TVM 0.6's markers are walked through, not visited.
class PythonPostOrderVisitor : public IRVisitor {
public:
    explicit PythonPostOrderVisitor(py::function fn) : m_fn(std::move(fn)) {}

    void visitExpr(const Expr& e) override {
        if (!m_visited.insert(e.get()).second)
            return;
        IRVisitor::visitExpr(e);
        m_fn(wrapNode(e.get()));
    }
    void visitStmt(const Stmt& s) override {
        if (!m_visited.insert(s.get()).second)
            return;
        IRVisitor::visitStmt(s);
        if (!isTvm06Marker(s))
            m_fn(wrapNode(s.get()));
    }

private:
    py::function m_fn;
    std::unordered_set<const Node*> m_visited;
};

/// Expressions and statements of one Python object, for the functions that take either.
struct IrNode {
    std::optional<Expr> expr;
    std::optional<Stmt> stmt;
};

IrNode irNodeOf(const py::handle& value, const char* what) {
    if (py::isinstance<StmtNode>(value))
        return {std::nullopt, value.cast<Stmt>()};
    if (auto e = tryConvertExpr(value))
        return {*e, std::nullopt};
    throw py::type_error(std::string(what) + " must be a statement or an expression, got '" +
                         std::string(py::str(value.get_type().attr("__name__"))) + "'");
}

void bindFunctions(py::module_& m) {
    m.def(
        "post_order_visit",
        [](const py::object& node, py::function fvisit) {
            IrNode root = irNodeOf(node, "the node of post_order_visit");
            PythonPostOrderVisitor visitor(std::move(fvisit));
            if (root.stmt)
                visitor.visitStmt(*root.stmt);
            else
                visitor.visitExpr(*root.expr);
        },
        py::arg("stmt"), py::arg("fvisit"),
        "Calls fvisit on every statement and expression of the tree, children first.");
    m.def(
        "_structural_equal",
        [](const py::object& lhs, const py::object& rhs, bool mapFreeVars) {
            IrNode a = irNodeOf(lhs, "the left side of structural_equal");
            IrNode b = irNodeOf(rhs, "the right side of structural_equal");
            if (a.stmt && b.stmt)
                return structuralEqual(*a.stmt, *b.stmt, mapFreeVars);
            if (a.expr && b.expr)
                return structuralEqual(*a.expr, *b.expr, mapFreeVars);
            return false;
        },
        py::arg("lhs"), py::arg("rhs"), py::arg("map_free_vars") = false);
}

} // namespace

void bindIrStmt(py::module_& m) {
    py::class_<StmtNode, Node, IntrusivePtr<StmtNode>>(m, "Stmt");
    bindScopes(m);
    bindTensorStatements(m);
    bindBufferStatements(m);
    bindFunctions(m);
}

} // namespace bs::script

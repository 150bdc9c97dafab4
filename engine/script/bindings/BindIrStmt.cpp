/// The IR layer's statements as Python classes with TVM's names, fields and constructors
/// (tvm/tir/stmt.py): `tvm.tir.For(loop_var, min, extent, kind, body)` (`loop_var`, `min`,
/// `extent`, `kind`, `body`), `AttrStmt` (`node`, `attr_key`, `value`, `body`),
/// `ProducerRealize`, `ProducerStore`, `Allocate`, ..., so TVM's schedule tests can walk what
/// `tvm.lower` and `ScheduleOps` return and custom passes can build new statements. `str()` of a
/// statement is the printer's text. Also `post_order_visit`, `ir_transform`
/// (tvm.tir.stmt_functor) and `structural_equal` (tvm.ir) over statements and expressions.

#include "ir/Equality.h"
#include "ir/Functor.h"
#include "ir/OperationNode.h"
#include "ir/TypeKey.h"
#include "script/bindings/Bindings.h"
#include "script/bindings/CallGuard.h"
#include "script/bindings/Casters.h"

#include <algorithm>
#include <functional>
#include <type_traits>
#include <unordered_set>

namespace bs::script {

namespace {

template <typename T> using StmtClass = py::class_<T, StmtNode, IntrusivePtr<T>>;

/// The node a statement constructor made, as its class's holder.
template <typename T> IntrusivePtr<T> holderOf(const Stmt& s) {
    const T* node = s.as<T>();
    BS_CHECK(node) << "a statement constructor made a " << typeKeyOf(s);
    return IntrusivePtr<T>(const_cast<T*>(node));
}

/// `value` as a `to` expression: an integer constant takes the type (TVM promotes constants);
/// anything else of another type is a UserError naming `what`.
Expr ofType(const Expr& value, DataType to, const std::string& what) {
    if (value.type() == to)
        return value;
    if (const auto* imm = value.as<IntImmNode>(); imm && to.isIntegral() && to.isScalar())
        return IntImmNode::make(to, imm->value);
    throw UserError(what + " is " + value.type().toString() + ", expected " + to.toString());
}

Expr condition(const py::object& value, const char* what) {
    Expr c = convertExpr(value);
    if (!c.type().isBool() || !c.type().isScalar())
        throw UserError(std::string(what) + ": the condition is " + c.type().toString() +
                        ", expected bool");
    return c;
}

/// An attribute's value or node given as a Python string is a StringImm (TVM's convert).
Expr attrExpr(const py::object& value) {
    return py::isinstance<py::str>(value) ? StringImmNode::make(value.cast<std::string>())
                                          : convertExpr(value);
}

void bindScopes(py::module_& m) {
    StmtClass<LetStmtNode>(m, "LetStmt")
        .def(py::init([](Var var, const py::object& value, Stmt body, const py::object&) {
                 Expr v = ofType(convertExpr(value), var.type(),
                                 "LetStmt: the value of '" + var.name() + "'");
                 return holderOf<LetStmtNode>(LetStmtNode::make(var, v, body));
             }),
             py::arg("var"), py::arg("value"), py::arg("body"), py::arg("span") = py::none(),
             Located())
        .def_property_readonly("var", [](const LetStmtNode& n) { return n.var; })
        .def_property_readonly("value", [](const LetStmtNode& n) { return n.value; })
        .def_property_readonly("body", [](const LetStmtNode& n) { return n.body; });
    StmtClass<AttrStmtNode>(m, "AttrStmt")
        .def(py::init([](const py::object& node, const std::string& key, const py::object& value,
                         Stmt body, const py::object&) {
                 NodeRef ref = py::isinstance<Node>(node) ? NodeRef(node.cast<const Node*>())
                                                          : NodeRef(attrExpr(node));
                 return holderOf<AttrStmtNode>(AttrStmtNode::make(ref, key, attrExpr(value), body));
             }),
             py::arg("node"), py::arg("attr_key"), py::arg("value"), py::arg("body"),
             py::arg("span") = py::none(), Located())
        // An IterVar (thread_extent), an operation (realize_scope), a Var or a StringImm.
        .def_property_readonly("node", [](const AttrStmtNode& n) { return wrapNode(n.node.get()); })
        .def_property_readonly("attr_key", [](const AttrStmtNode& n) { return n.key; })
        .def_property_readonly("value", [](const AttrStmtNode& n) { return n.value; })
        .def_property_readonly("body", [](const AttrStmtNode& n) { return n.body; });
    StmtClass<AssertStmtNode>(m, "AssertStmt")
        .def(py::init([](const py::object& condition, const py::object& message, Stmt body,
                         const py::object&) {
                 return holderOf<AssertStmtNode>(AssertStmtNode::make(
                     bs::script::condition(condition, "AssertStmt"), attrExpr(message), body));
             }),
             py::arg("condition"), py::arg("message"), py::arg("body"),
             py::arg("span") = py::none(), Located())
        .def_property_readonly("condition", [](const AssertStmtNode& n) { return n.condition; })
        .def_property_readonly("message", [](const AssertStmtNode& n) { return n.message; })
        .def_property_readonly("body", [](const AssertStmtNode& n) { return n.body; });
    // `kind` is the ForKind number (SERIAL 0 ... THREAD_BINDING 4, TVM's order); the Python
    // package turns it into tvm.tir.ForKind.
    StmtClass<ForNode>(m, "For")
        .def(py::init([](Var loopVar, const py::object& min, const py::object& extent, int kind,
                         Stmt body, const py::object& threadBinding, const py::object&,
                         const py::object&) {
                 if (kind < 0 || kind > int(ForKind::ThreadBinding))
                     throw UserError("unknown ForKind " + std::to_string(kind));
                 IterVar thread =
                     threadBinding.is_none() ? IterVar() : threadBinding.cast<IterVar>();
                 if (!loopVar.type().isIntegral() || !loopVar.type().isScalar())
                     throw UserError("For: the loop variable '" + loopVar.name() + "' is " +
                                     loopVar.type().toString() + ", expected an integer");
                 Expr lo = ofType(convertExpr(min), loopVar.type(),
                                  "For: the min of loop '" + loopVar.name() + "'");
                 Expr n = ofType(convertExpr(extent), loopVar.type(),
                                 "For: the extent of loop '" + loopVar.name() + "'");
                 return holderOf<ForNode>(
                     ForNode::make(loopVar, lo, n, ForKind(kind), body, thread));
             }),
             py::arg("loop_var"), py::arg("min"), py::arg("extent"), py::arg("kind"),
             py::arg("body"), py::arg("thread_binding") = py::none(),
             py::arg("annotations") = py::none(), py::arg("span") = py::none(), Located())
        .def_property_readonly("loop_var", [](const ForNode& n) { return n.loopVar; })
        .def_property_readonly("min", [](const ForNode& n) { return n.min; })
        .def_property_readonly("extent", [](const ForNode& n) { return n.extent; })
        .def_property_readonly("_kind", [](const ForNode& n) { return int(n.kind); })
        .def_property_readonly("body", [](const ForNode& n) { return n.body; })
        .def_property_readonly("thread_binding", [](const ForNode& n) { return n.threadBinding; });
    StmtClass<IfThenElseNode>(m, "IfThenElse")
        .def(py::init([](const py::object& condition, Stmt thenCase, const py::object& elseCase,
                         const py::object&) {
                 return holderOf<IfThenElseNode>(
                     IfThenElseNode::make(bs::script::condition(condition, "IfThenElse"), thenCase,
                                          optionalStmt(elseCase)));
             }),
             py::arg("condition"), py::arg("then_case"), py::arg("else_case") = py::none(),
             py::arg("span") = py::none(), Located())
        .def_property_readonly("condition", [](const IfThenElseNode& n) { return n.condition; })
        .def_property_readonly("then_case", [](const IfThenElseNode& n) { return n.thenCase; })
        .def_property_readonly("else_case", [](const IfThenElseNode& n) { return n.elseCase; });
}

void bindTensorStatements(py::module_& m) {
    StmtClass<ProducerRealizeNode>(m, "ProducerRealize")
        .def(py::init([](const Tensor& producer, const Region& bounds, const py::object& condition,
                         Stmt body, const std::string& scope, const py::object&) {
                 if (bounds.size() != producer.ndim())
                     throw UserError("ProducerRealize: " + std::to_string(bounds.size()) +
                                     " ranges for " + producer.name() + ", which has " +
                                     std::to_string(producer.ndim()) + " dimensions");
                 return holderOf<ProducerRealizeNode>(ProducerRealizeNode::make(
                     producer, bounds, optionalExpr(condition), body, scope));
             }),
             py::arg("producer"), py::arg("bounds"), py::arg("condition"), py::arg("body"),
             py::arg("storage_scope") = "", py::arg("span") = py::none(), Located())
        .def_property_readonly("producer", [](const ProducerRealizeNode& n) { return n.tensor; })
        .def_property_readonly("bounds", [](const ProducerRealizeNode& n) { return n.bounds; })
        .def_property_readonly("condition",
                               [](const ProducerRealizeNode& n) { return n.condition; })
        .def_property_readonly("body", [](const ProducerRealizeNode& n) { return n.body; })
        .def_property_readonly("storage_scope",
                               [](const ProducerRealizeNode& n) { return n.storageScope; });
    StmtClass<ProducerStoreNode>(m, "ProducerStore")
        .def(py::init([](const Tensor& producer, const py::object& value, const py::object& indices,
                         const py::object&) {
                 std::vector<Expr> index = convertExprList(indices, "indices");
                 if (index.size() != producer.ndim())
                     throw UserError("ProducerStore: " + std::to_string(index.size()) +
                                     " indices for " + producer.name() + ", which has " +
                                     std::to_string(producer.ndim()) + " dimensions");
                 Expr v = ofType(convertExpr(value), producer.dtype(),
                                 "ProducerStore: the value stored in " + producer.name());
                 return holderOf<ProducerStoreNode>(ProducerStoreNode::make(producer, v, index));
             }),
             py::arg("producer"), py::arg("value"), py::arg("indices"),
             py::arg("span") = py::none(), Located())
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
        .def(py::init([](Var bufferVar, const std::string& dtype, const py::object& extents,
                         const py::object& condition, Stmt body, const py::object&,
                         const py::object&) {
                 return holderOf<AllocateNode>(AllocateNode::make(
                     bufferVar, parseDType(dtype), convertExprList(extents, "extents"),
                     optionalExpr(condition), body));
             }),
             py::arg("buffer_var"), py::arg("dtype"), py::arg("extents"), py::arg("condition"),
             py::arg("body"), py::arg("annotations") = py::none(), py::arg("span") = py::none(),
             Located())
        .def_property_readonly("buffer_var", [](const AllocateNode& n) { return n.bufferVar; })
        .def_property_readonly("dtype", [](const AllocateNode& n) { return n.type.toString(); })
        .def_property_readonly("extents", [](const AllocateNode& n) { return n.extents; })
        .def_property_readonly("condition", [](const AllocateNode& n) { return n.condition; })
        .def_property_readonly("body", [](const AllocateNode& n) { return n.body; });
    StmtClass<StoreNode>(m, "Store")
        .def(py::init([](Var bufferVar, const py::object& value, const py::object& index,
                         const py::object& predicate, const py::object&) {
                 return holderOf<StoreNode>(StoreNode::make(
                     bufferVar, convertExpr(value), convertExpr(index), optionalExpr(predicate)));
             }),
             py::arg("buffer_var"), py::arg("value"), py::arg("index"),
             py::arg("predicate") = py::none(), py::arg("span") = py::none(), Located())
        .def_property_readonly("buffer_var", [](const StoreNode& n) { return n.bufferVar; })
        .def_property_readonly("value", [](const StoreNode& n) { return n.value; })
        .def_property_readonly("index", [](const StoreNode& n) { return n.index; })
        .def_property_readonly("predicate", [](const StoreNode& n) { return n.predicate; });
    StmtClass<SeqNode>(m, "SeqStmt")
        // Nested sequences are spliced in (as TVM's SeqStmt::Flatten); one statement stays a
        // sequence of one.
        .def(py::init([](const std::vector<Stmt>& seq, const py::object&) {
                 if (seq.empty())
                     throw UserError("SeqStmt: an empty sequence (use Evaluate(0) for nothing)");
                 std::vector<Stmt> flat;
                 for (const Stmt& part : seq) {
                     if (!part.defined())
                         throw UserError("SeqStmt: a part is None");
                     if (const auto* inner = part.as<SeqNode>())
                         flat.insert(flat.end(), inner->seq.begin(), inner->seq.end());
                     else
                         flat.push_back(part);
                 }
                 return IntrusivePtr<SeqNode>(new SeqNode(std::move(flat)));
             }),
             py::arg("seq"), py::arg("span") = py::none(), Located())
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
        .def(py::init([](const py::object& value, const py::object&) {
                 return holderOf<EvaluateNode>(EvaluateNode::make(convertExpr(value)));
             }),
             py::arg("value"), py::arg("span") = py::none(), Located())
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

/// TVM's IRTransform: for each node whose type key is in `only` (all when empty), `preorder`
/// may return its replacement (children not visited); else the children are transformed, and
/// `postorder`, given the node with its new children, may return a replacement. None keeps the
/// node. TVM 0.6's markers are walked through, not offered.
class PythonTransform : public IRMutator {
public:
    PythonTransform(py::object preorder, py::object postorder, std::vector<NodeKind> only)
        : m_preorder(std::move(preorder)), m_postorder(std::move(postorder)),
          m_only(std::move(only)) {}

    Expr visitExpr(const Expr& e) override {
        return transform<Expr>(e, [&] { return IRMutator::visitExpr(e); });
    }
    Stmt visitStmt(const Stmt& s) override {
        if (isTvm06Marker(s))
            return IRMutator::visitStmt(s);
        return transform<Stmt>(s, [&] { return IRMutator::visitStmt(s); });
    }

private:
    py::object m_preorder;
    py::object m_postorder;
    std::vector<NodeKind> m_only;

    bool enabled(const NodeRef& n) const {
        return m_only.empty() || std::find(m_only.begin(), m_only.end(), n.kind()) != m_only.end();
    }

    template <typename Handle>
    static Handle replacement(const py::object& out, const NodeRef& node, const char* which) {
        if constexpr (std::is_same_v<Handle, Stmt>) {
            if (!py::isinstance<StmtNode>(out))
                throw py::type_error(
                    std::string("ir_transform: the ") + which + " function returned a " +
                    std::string(py::str(py::type::of(out).attr("__name__"))) + " for a " +
                    typeKeyOf(node) + "; a statement must be replaced by a statement");
            return Stmt(out.cast<StmtNode*>());
        } else {
            auto e = tryConvertExpr(out);
            if (!e)
                throw py::type_error(
                    std::string("ir_transform: the ") + which + " function returned a " +
                    std::string(py::str(py::type::of(out).attr("__name__"))) + " for a " +
                    typeKeyOf(node) + "; an expression must be replaced by an expression");
            return *e;
        }
    }

    template <typename Handle, typename Children>
    Handle transform(const Handle& n, Children&& children) {
        const bool on = enabled(n);
        if (on && !m_preorder.is_none()) {
            py::object out = m_preorder(wrapNode(n.get()));
            if (!out.is_none())
                return replacement<Handle>(out, n, "preorder");
        }
        Handle rebuilt = children();
        if (on && !m_postorder.is_none()) {
            py::object out = m_postorder(wrapNode(rebuilt.get()));
            if (!out.is_none())
                return replacement<Handle>(out, n, "postorder");
        }
        return rebuilt;
    }
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
        "ir_transform",
        [](const py::object& node, const py::object& preorder, const py::object& postorder,
           const py::object& onlyEnable) -> py::object {
            std::vector<NodeKind> only;
            if (!onlyEnable.is_none()) {
                for (py::handle key : onlyEnable) {
                    std::string name = py::str(key);
                    auto kind = nodeKindOfTypeKey(name);
                    if (!kind)
                        throw UserError("ir_transform: '" + name +
                                        "' names no node type (e.g. tir.For, tir.Call, tir.Store)");
                    only.push_back(*kind);
                }
            }
            IrNode root = irNodeOf(node, "the node of ir_transform");
            PythonTransform transform(preorder, postorder, std::move(only));
            if (root.stmt)
                return wrapNode(transform.visitStmt(*root.stmt).get());
            return wrapNode(transform.visitExpr(*root.expr).get());
        },
        py::arg("stmt"), py::arg("preorder"), py::arg("postorder"),
        py::arg("only_enable") = py::none(), Located(), "TVM's tvm.tir.stmt_functor.ir_transform.");
    m.def(
        "_with_body",
        [](const Stmt& root, const Stmt& body) {
            // `root` as Python saw it past TVM 0.6's markers, with `body` there instead: the
            // markers (the output's `produce` block) stay around the new body.
            std::function<Stmt(const Stmt&)> rewrap = [&](const Stmt& s) -> Stmt {
                if (!s.defined() || !isTvm06Marker(s))
                    return body;
                if (const auto* pc = s.as<ProducerConsumerNode>())
                    return ProducerConsumerNode::make(pc->op, pc->isProducer, rewrap(pc->body));
                const auto* attr = s.as<AttrStmtNode>();
                return AttrStmtNode::make(attr->node, attr->key, attr->value, rewrap(attr->body));
            };
            return wrapNode(rewrap(root).get());
        },
        py::arg("root"), py::arg("body"), Located());
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

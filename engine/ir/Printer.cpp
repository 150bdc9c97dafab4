#include "ir/Printer.h"

#include "ir/BufferDecl.h"
#include "ir/Functor.h"
#include "ir/OperationNode.h"

#include <cstdio>
#include <sstream>

namespace bs {

namespace {

std::string formatFloat(double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof(buffer), "%f", value);
    return buffer;
}

std::string quote(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            out += c;
        }
    }
    return out + "\"";
}

/// Prints one node per call into a shared stream; statements are indented by two spaces a level.
class Printer : public ExprFunctor<void>, public StmtFunctor<void> {
public:
    explicit Printer(std::ostream& os, std::vector<std::pair<std::streamoff, int>>* marks = nullptr)
        : m_os(os), m_marks(marks) {}

    void print(const Expr& e) {
        if (!e.defined()) {
            m_os << "(nullptr)";
            return;
        }
        visitExpr(e);
    }
    void print(const Stmt& s) {
        if (s.defined())
            visitStmt(s);
    }
    void print(const Range& r) {
        if (!r.defined()) {
            m_os << "range(nullptr)";
            return;
        }
        m_os << "range(min=";
        print(r.min);
        m_os << ", ext=";
        print(r.extent);
        m_os << ")";
    }
    void print(const IterVar& iv) {
        m_os << "iter_var(";
        if (!iv->var.name().empty())
            m_os << iv->var.name() << ", ";
        if (iv->dom.defined())
            print(iv->dom);
        if (!iv->threadTag.empty())
            m_os << ", " << iv->threadTag;
        m_os << ")";
    }
    void printNode(const NodeRef& node) {
        if (!node.defined()) {
            m_os << "(nullptr)";
        } else if (isExprKind(node.kind())) {
            print(Expr(static_cast<const ExprNode*>(node.get())));
        } else if (isStmtKind(node.kind())) {
            print(Stmt(static_cast<const StmtNode*>(node.get())));
        } else if (const auto* iv = node.as<IterVarNode>()) {
            print(IterVar(iv));
        } else if (const auto* op = node.as<OperationNode>()) {
            m_os << op->typeKey() << "(" << op->name << ")";
        } else if (const auto* r = node.as<CommReducerNode>()) {
            printReducer(r);
        } else if (const auto* b = node.as<BufferDeclNode>()) {
            m_os << "buffer(" << b->name << ")";

        } else {
            m_os << "<node>";
        }
    }
    void printRegion(const Region& region) {
        for (size_t i = 0; i < region.size(); ++i) {
            if (i)
                m_os << ", ";
            m_os << "[";
            print(region[i].min);
            m_os << ", ";
            print(region[i].extent);
            m_os << "]";
        }
    }

protected:
    using ExprFunctor<void>::visit;
    using StmtFunctor<void>::visit;

    // Expressions -----------------------------------------------------------------------------
    void visit(const IntImmNode* op) override {
        if (op->type == DataType::int32())
            m_os << op->value;
        else
            m_os << "(" << op->type.toString() << ")" << op->value;
    }
    void visit(const FloatImmNode* op) override {
        m_os << formatFloat(op->value);
        if (op->type.bits() == 32)
            m_os << 'f';
        else if (op->type.bits() == 16)
            m_os << 'h';
    }
    void visit(const StringImmNode* op) override { m_os << quote(op->value); }
    void visit(const VarNode* op) override { m_os << op->name; }

    void infix(const Expr& a, const char* sym, const Expr& b) {
        m_os << "(";
        print(a);
        m_os << sym;
        print(b);
        m_os << ")";
    }
    void call(const char* name, const Expr& a, const Expr& b) {
        m_os << name << "(";
        print(a);
        m_os << ", ";
        print(b);
        m_os << ")";
    }
    void visit(const AddNode* op) override { infix(op->a, " + ", op->b); }
    void visit(const SubNode* op) override { infix(op->a, " - ", op->b); }
    void visit(const MulNode* op) override { infix(op->a, "*", op->b); }
    void visit(const DivNode* op) override { infix(op->a, "/", op->b); }
    void visit(const ModNode* op) override { infix(op->a, " % ", op->b); }
    void visit(const FloorDivNode* op) override { call("floordiv", op->a, op->b); }
    void visit(const FloorModNode* op) override { call("floormod", op->a, op->b); }
    void visit(const MinNode* op) override { call("min", op->a, op->b); }
    void visit(const MaxNode* op) override { call("max", op->a, op->b); }
    void visit(const EQNode* op) override { infix(op->a, " == ", op->b); }
    void visit(const NENode* op) override { infix(op->a, " != ", op->b); }
    void visit(const LTNode* op) override { infix(op->a, " < ", op->b); }
    void visit(const LENode* op) override { infix(op->a, " <= ", op->b); }
    void visit(const GTNode* op) override { infix(op->a, " > ", op->b); }
    void visit(const GENode* op) override { infix(op->a, " >= ", op->b); }
    void visit(const AndNode* op) override { infix(op->a, " && ", op->b); }
    void visit(const OrNode* op) override { infix(op->a, " || ", op->b); }
    void visit(const NotNode* op) override {
        m_os << "!";
        print(op->a);
    }
    void visit(const SelectNode* op) override {
        m_os << "select(";
        print(op->condition);
        m_os << ", ";
        print(op->trueValue);
        m_os << ", ";
        print(op->falseValue);
        m_os << ")";
    }
    void visit(const CastNode* op) override {
        m_os << op->type.toString() << "(";
        print(op->value);
        m_os << ")";
    }
    void printArgs(const std::vector<Expr>& args) {
        for (size_t i = 0; i < args.size(); ++i) {
            if (i)
                m_os << ", ";
            print(args[i]);
        }
    }
    void visit(const CallNode* op) override {
        m_os << op->name << "(";
        printArgs(op->args);
        m_os << ")";
    }
    void printTensorName(const Tensor& t) {
        m_os << t.name();
        if (t.op->numOutputs() > 1)
            m_os << ".v" << t.valueIndex;
    }
    void visit(const ProducerLoadNode* op) override {
        printTensorName(op->tensor);
        m_os << "(";
        printArgs(op->indices);
        m_os << ")";
    }
    void visit(const LoadNode* op) override {
        m_os << op->bufferVar.name() << "[";
        print(op->index);
        m_os << "]";
        if (op->predicate.defined() && !isOne(op->predicate)) {
            m_os << " if ";
            print(op->predicate);
        }
    }
    void visit(const RampNode* op) override {
        m_os << "ramp(";
        print(op->base);
        m_os << ", ";
        print(op->stride);
        m_os << ", " << op->lanes << ")";
    }
    void visit(const BroadcastNode* op) override {
        m_os << "x" << op->lanes << "(";
        print(op->value);
        m_os << ")";
    }
    void visit(const LetNode* op) override {
        m_os << "(let " << op->var.name() << " = ";
        print(op->value);
        m_os << " in ";
        print(op->body);
        m_os << ")";
    }
    void printReducer(const CommReducerNode* r) {
        auto list = [this](const auto& items) {
            m_os << "[";
            for (size_t i = 0; i < items.size(); ++i) {
                if (i)
                    m_os << ", ";
                print(Expr(items[i]));
            }
            m_os << "]";
        };
        m_os << "comm_reducer(result=";
        list(r->result);
        m_os << ", lhs=";
        list(r->lhs);
        m_os << ", rhs=";
        list(r->rhs);
        m_os << ", identity_element=";
        list(r->identityElement);
        m_os << ")";
    }
    void visit(const ReduceNode* op) override {
        m_os << "reduce(combiner=";
        printReducer(op->combiner.get());
        m_os << ", source=[";
        printArgs(op->source);
        if (!op->init.empty()) {
            m_os << "], init=[";
            printArgs(op->init);
        }
        m_os << "], axis=[";
        for (size_t i = 0; i < op->axis.size(); ++i) {
            if (i)
                m_os << ", ";
            print(op->axis[i]);
        }
        m_os << "], where=";
        print(op->condition);
        m_os << ", value_index=" << op->valueIndex << ")";
    }

    // Statements ------------------------------------------------------------------------------
    void indent() { m_os << std::string(size_t(m_indent) * 2, ' '); }
    /// Notes where the statement's line starts when it carries a step.
    void mark(const StmtNode* op) {
        if (m_marks && op->stepId() >= 0)
            m_marks->emplace_back(std::streamoff(m_os.tellp()), op->stepId());
    }
    void block(const Stmt& body) {
        ++m_indent;
        print(body);
        --m_indent;
    }
    void visit(const LetStmtNode* op) override {
        indent();
        m_os << "let " << op->var.name() << " = ";
        print(op->value);
        m_os << '\n';
        print(op->body);
    }
    void visit(const AttrStmtNode* op) override {
        mark(op);
        indent();
        m_os << "// attr [";
        printNode(op->node);
        m_os << "] " << op->key << " = ";
        print(op->value);
        m_os << '\n';
        print(op->body);
    }
    void visit(const AssertStmtNode* op) override {
        indent();
        m_os << "assert(";
        print(op->condition);
        m_os << ", ";
        print(op->message);
        m_os << ")\n";
        print(op->body);
    }
    void visit(const ForNode* op) override {
        mark(op);
        indent();
        m_os << forKindName(op->kind) << " (" << op->loopVar.name() << ", ";
        print(op->min);
        m_os << ", ";
        print(op->extent);
        m_os << ") {\n";
        block(op->body);
        indent();
        m_os << "}\n";
    }
    void visit(const ProducerRealizeNode* op) override {
        mark(op);
        indent();
        m_os << "realize ";
        printTensorName(op->tensor);
        m_os << "(";
        printRegion(op->bounds);
        m_os << ")";
        if (!isOne(op->condition)) {
            m_os << " if ";
            print(op->condition);
        }
        m_os << " {\n";
        block(op->body);
        indent();
        m_os << "}\n";
    }
    void visit(const ProducerStoreNode* op) override {
        indent();
        printTensorName(op->tensor);
        m_os << "(";
        printArgs(op->indices);
        m_os << ") =";
        print(op->value);
        m_os << '\n';
    }
    void visit(const ProducerConsumerNode* op) override {
        if (!op->isProducer) {
            print(op->body);
            return;
        }
        indent();
        m_os << "produce " << op->op->name << " {\n";
        block(op->body);
        indent();
        m_os << "}\n";
    }
    void visit(const AllocateNode* op) override {
        mark(op);
        indent();
        m_os << "allocate " << op->bufferVar.name() << "[" << op->type.toString();
        for (const Expr& e : op->extents) {
            m_os << " * ";
            print(e);
        }
        m_os << "]";
        if (!isOne(op->condition)) {
            m_os << " if ";
            print(op->condition);
        }
        m_os << '\n';
        print(op->body);
    }
    void visit(const StoreNode* op) override {
        indent();
        m_os << op->bufferVar.name() << "[";
        print(op->index);
        m_os << "] = ";
        print(op->value);
        if (op->predicate.defined() && !isOne(op->predicate)) {
            m_os << " if ";
            print(op->predicate);
        }
        m_os << '\n';
    }
    void visit(const SeqNode* op) override {
        for (const Stmt& s : op->seq)
            print(s);
    }
    void visit(const IfThenElseNode* op) override {
        mark(op);
        indent();
        while (true) {
            m_os << "if (";
            print(op->condition);
            m_os << ") {\n";
            block(op->thenCase);
            indent();
            m_os << "}";
            if (!op->elseCase.defined())
                break;
            if (const auto* nested = op->elseCase.as<IfThenElseNode>()) {
                m_os << " else ";
                op = nested;
                continue;
            }
            m_os << " else {\n";
            block(op->elseCase);
            indent();
            m_os << "}";
            break;
        }
        m_os << '\n';
    }
    void visit(const EvaluateNode* op) override {
        indent();
        print(op->value);
        m_os << '\n';
    }

private:
    bool isOne(const Expr& e) const {
        const auto* imm = e.as<IntImmNode>();
        return imm && imm->value == 1;
    }

    std::ostream& m_os;
    std::vector<std::pair<std::streamoff, int>>* m_marks;
    int m_indent = 0;
};

template <typename T> std::string printToString(const T& value) {
    std::ostringstream os;
    Printer(os).print(value);
    return os.str();
}

} // namespace

std::string toString(const Expr& e) { return printToString(e); }
std::string toString(const Stmt& s) { return printToString(s); }

std::string printWithSteps(const Stmt& s, std::vector<StepMark>* marks) {
    std::ostringstream os;
    std::vector<std::pair<std::streamoff, int>> offsets;
    Printer(os, &offsets).print(s);
    std::string text = os.str();
    int line = 0;
    std::streamoff pos = 0;
    for (const auto& [offset, step] : offsets) {
        for (; pos < offset && size_t(pos) < text.size(); ++pos)
            line += text[size_t(pos)] == '\n';
        marks->push_back(StepMark{line, step});
    }
    return text;
}
std::string toString(const Range& r) { return printToString(r); }
std::string toString(const IterVar& iv) { return printToString(iv); }

std::string regionToString(const Region& region) {
    std::ostringstream os;
    Printer(os).printRegion(region);
    return os.str();
}

std::string nodeToString(const NodeRef& node) {
    std::ostringstream os;
    Printer(os).printNode(node);
    return os.str();
}

std::ostream& operator<<(std::ostream& os, const Expr& e) {
    Printer(os).print(e);
    return os;
}
std::ostream& operator<<(std::ostream& os, const Stmt& s) {
    Printer(os).print(s);
    return os;
}
std::ostream& operator<<(std::ostream& os, const Range& r) {
    Printer(os).print(r);
    return os;
}
std::ostream& operator<<(std::ostream& os, const IterVar& iv) {
    Printer(os).print(iv);
    return os;
}

} // namespace bs

#include "lower/VerifyVars.h"

#include "ir/Functor.h"
#include "ir/Printer.h"
#include "ir/ThreadBinding.h"

#include <unordered_map>

namespace bs {

namespace {

/// The first line of a statement, to name it in a message.
std::string headOf(const Stmt& s) {
    std::string text = toString(s);
    size_t end = text.find('\n');
    if (end != std::string::npos)
        text.resize(end);
    while (!text.empty() && (text.back() == '{' || text.back() == ' '))
        text.pop_back();
    return text;
}

class DefinedVarsChecker : public IRVisitor {
public:
    explicit DefinedVarsChecker(const std::vector<Var>& params) {
        for (const Var& v : params)
            define(v);
    }

    void visitStmt(const Stmt& s) override {
        Stmt saved = m_stmt;
        m_stmt = s;
        IRVisitor::visitStmt(s);
        m_stmt = saved;
    }

protected:
    using IRVisitor::visit;

    void visit(const VarNode* op) override {
        if (op->type.isHandle() || m_defined[op] > 0)
            return;
        throw UserError("variable '" + op->name +
                        "' is used where nothing defines it, at: " + headOf(m_stmt) +
                        " (the schedule leaves it free in a stage's bounds; TVM rejects the "
                        "program: \"Not all Vars are passed in api_args\")");
    }
    void visit(const ForNode* op) override {
        visitExpr(op->min);
        visitExpr(op->extent);
        scoped({op->loopVar}, op->body);
    }
    void visit(const LetStmtNode* op) override {
        visitExpr(op->value);
        scoped({op->var}, op->body);
    }
    void visit(const LetNode* op) override {
        visitExpr(op->value);
        define(op->var);
        visitExpr(op->body);
        undefine(op->var);
    }
    void visit(const AttrStmtNode* op) override {
        visitExpr(op->value);
        const IterVarNode* iv = boundThread(*op);
        if (!iv) {
            visitStmt(op->body);
        } else if (op->key == attr::kVirtualThread) {
            scoped({iv->var}, op->body);
        } else if (m_inKernel) {
            visitStmt(op->body);
        } else {
            m_inKernel = true;
            scoped(kernelThreads(op), op->body);
            m_inKernel = false;
        }
    }

private:
    /// Every thread index bound in the kernel rooted at `root`.
    static std::vector<Var> kernelThreads(const AttrStmtNode* root) {
        std::vector<Var> vars;
        postOrderVisit(Stmt(root), [&](const NodeRef& node) {
            const auto* a = node.as<AttrStmtNode>();
            const auto* iv =
                a && a->key == attr::kThreadExtent ? a->node.as<IterVarNode>() : nullptr;
            if (iv)
                vars.push_back(iv->var);
        });
        return vars;
    }
    void scoped(const std::vector<Var>& vars, const Stmt& body) {
        for (const Var& v : vars)
            define(v);
        visitStmt(body);
        for (const Var& v : vars)
            undefine(v);
    }
    void define(const Var& v) { ++m_defined[v.get()]; }
    void undefine(const Var& v) { --m_defined[v.get()]; }

    std::unordered_map<const VarNode*, int> m_defined;
    Stmt m_stmt;
    bool m_inKernel = false;
};

} // namespace

void verifyDefinedVars(const Stmt& body, const std::vector<Var>& params) {
    DefinedVarsChecker(params).visitStmt(body);
}

} // namespace bs

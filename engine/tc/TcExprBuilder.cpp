// TC expressions to IR (see TcExprBuilder.h for the name rules).

#include "tc/TcExprBuilder.h"

#include "tc/TcParser.h"

#include "ir/Op.h"
#include "ir/Substitute.h"
#include "support/Check.h"

#include <set>

namespace bs::tc {

namespace {

const std::set<std::string> kUnaryMath = {"exp", "log", "sqrt", "tanh", "fabs"};

Expr intConst(int64_t value) {
    if (value >= INT32_MIN && value <= INT32_MAX)
        return Expr(int(value));
    return makeConst(DataType::int64(), value);
}

} // namespace

IndexVariable* TcExprBuilder::findVariable(const std::string& name) {
    for (IndexVariable& v : m_vars)
        if (v.var.name() == name)
            return &v;
    return nullptr;
}

Var TcExprBuilder::declareIndex(const std::string& name, SourcePos pos) {
    if (findVariable(name))
        failAt(m_scope.fileName, pos,
               "index variable '" + name + "' appears twice on the left-hand side");
    if (m_scope.sizes.count(name) || m_scope.tensors.count(name))
        failAt(m_scope.fileName, pos,
               "'" + name + "' is a size or a tensor, not an index variable");
    m_vars.push_back(IndexVariable{Var(name), pos, Expr(), Expr()});
    return m_vars.back().var;
}

void TcExprBuilder::recordAccess(const Tensor& tensor, const std::vector<Expr>& indices,
                                 SourcePos pos) {
    std::string text = tensor.name() + "(";
    for (size_t k = 0; k < indices.size(); ++k)
        text += (k ? ", " : "") + formatIndexExpr(indices[k]);
    m_accesses.push_back(Access{tensor.name(), tensor.shape(), indices, text + ")", pos, false});
}

Expr TcExprBuilder::convert(const AstExpr& e, bool fromExists) {
    switch (e.kind) {
    case ExprKind::Int:
        return intConst(e.intValue);
    case ExprKind::Float:
        return Expr(float(e.floatValue));
    case ExprKind::Ident:
        return convertIdent(e);
    case ExprKind::Apply:
        return convertApply(e, fromExists);
    case ExprKind::Unary: {
        Expr a = convert(*e.args[0], fromExists);
        return e.name == "-" ? -a : !a;
    }
    case ExprKind::Binary:
        return convertBinary(e, fromExists);
    case ExprKind::Ternary:
        return select(convert(*e.args[0], fromExists), convert(*e.args[1], fromExists),
                      convert(*e.args[2], fromExists));
    }
    BS_UNREACHABLE("unknown TC expression kind");
}

Expr TcExprBuilder::convertIdent(const AstExpr& e) {
    if (IndexVariable* v = findVariable(e.name))
        return v->var;
    if (auto it = m_scope.sizes.find(e.name); it != m_scope.sizes.end())
        return it->second;
    if (auto it = m_scope.tensors.find(e.name); it != m_scope.tensors.end()) {
        const Tensor& t = it->second;
        if (t.ndim() != 0)
            failAt(m_scope.fileName, e.pos,
                   "'" + e.name + "' has " + std::to_string(t.ndim()) + " dimensions: read it as " +
                       e.name + "(...)");
        return t({});
    }
    m_vars.push_back(IndexVariable{Var(e.name), e.pos, Expr(), Expr()});
    return m_vars.back().var;
}

Expr TcExprBuilder::convertApply(const AstExpr& e, bool fromExists) {
    std::vector<Expr> args;
    for (const AstExprPtr& arg : e.args)
        args.push_back(convert(*arg, fromExists));
    auto it = m_scope.tensors.find(e.name);
    if (it == m_scope.tensors.end()) {
        if ((e.name == "min" || e.name == "max") && args.size() == 2)
            return e.name == "min" ? min(args[0], args[1]) : max(args[0], args[1]);
        if (kUnaryMath.count(e.name) && args.size() == 1)
            return mathCall(
                e.name, {args[0].type().isFloat() ? args[0] : cast(DataType::float32(), args[0])});
        failAt(m_scope.fileName, e.pos,
               "unknown tensor or function '" + e.name + "' with " + std::to_string(args.size()) +
                   " arguments");
    }
    const Tensor& t = it->second;
    if (args.size() != t.ndim())
        failAt(m_scope.fileName, e.pos,
               "'" + e.name + "' has " + std::to_string(t.ndim()) +
                   " dimensions but is indexed with " + std::to_string(args.size()));
    for (size_t k = 0; k < args.size(); ++k)
        if (!args[k].type().isInt())
            failAt(m_scope.fileName, e.args[k]->pos,
                   "index " + std::to_string(k) + " of '" + e.name +
                       "' is not an integer expression");
    recordAccess(t, args, e.pos);
    m_accesses.back().fromExists = fromExists;
    return t(args);
}

Expr TcExprBuilder::convertBinary(const AstExpr& e, bool fromExists) {
    Expr a = convert(*e.args[0], fromExists);
    Expr b = convert(*e.args[1], fromExists);
    const std::string& op = e.name;
    bool ints = a.type().isInt() && b.type().isInt();
    if (op == "+")
        return a + b;
    if (op == "-")
        return a - b;
    if (op == "*")
        return a * b;
    if (op == "/")
        return ints ? floordiv(a, b) : a / b;
    if (op == "%") {
        if (!ints)
            failAt(m_scope.fileName, e.pos, "'%' needs integer operands");
        return floormod(a, b);
    }
    if (op == "<")
        return a < b;
    if (op == "<=")
        return a <= b;
    if (op == ">")
        return a > b;
    if (op == ">=")
        return a >= b;
    if (op == "==")
        return eq(a, b);
    if (op == "!=")
        return ne(a, b);
    if (op == "&&")
        return a && b;
    if (op == "||")
        return a || b;
    BS_UNREACHABLE("unknown TC operator " << op);
}

Expr TcExprBuilder::convertSize(const AstExpr& e, const std::string& context) {
    size_t before = m_accesses.size();
    size_t varsBefore = m_vars.size();
    Expr value = convert(e);
    bool usesIndex = usesVar(value, [this](const VarNode* v) {
        for (const IndexVariable& iv : m_vars)
            if (iv.var.get() == v)
                return true;
        return false;
    });
    if (m_accesses.size() != before || m_vars.size() != varsBefore || usesIndex ||
        !value.type().isInt())
        failAt(m_scope.fileName, e.pos,
               context + " must be an integer expression of sizes and constants, got '" +
                   astToString(e) + "'");
    return value;
}

} // namespace bs::tc

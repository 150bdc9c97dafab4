// The TC parser: recursive descent over the tokens of TcLexer, one function per grammar rule.
//
//     def       := 'def' NAME '(' inputs ')' '->' ( '(' outputs ')' | output ) '{' stmt* '}'
//     input     := TYPE [ '(' expr, ... ')' ] NAME
//     output    := [ TYPE ] NAME
//     stmt      := NAME [ '(' NAME, ... ')' ] ASSIGN expr [ 'where' item, ... ] [ ';' ]
//     item      := NAME 'in' expr ':' expr  |  'exists' expr
//     expr      := or [ '?' expr ':' expr ], then ||, &&, comparisons, + -, * / %, unary - !
//     primary   := INT | FLOAT | NAME [ '(' expr, ... ')' ] | '(' expr ')'

#include "tc/TcParser.h"

#include "tc/TcLexer.h"

#include <set>
#include <sstream>

namespace bs::tc {

namespace {

const std::set<std::string> kScalarTypes = {"float",   "float32", "float64", "double", "half",
                                            "float16", "int",     "int32",   "int64",  "bool"};

const std::set<std::string> kAssignOps = {"=",    "+=",    "+=!",  "*=",   "*=!",
                                          "max=", "max=!", "min=", "min=!"};

class Parser {
public:
    Parser(std::vector<Token> tokens, const std::string& fileName)
        : m_tokens(std::move(tokens)), m_file(fileName) {}

    std::vector<AstDef> parseAll() {
        std::vector<AstDef> defs;
        while (peek().kind != TokenKind::End)
            defs.push_back(parseDef());
        if (defs.empty())
            failAt(m_file, peek().pos, "expected a definition ('def NAME(...) -> ... { ... }')");
        return defs;
    }

private:
    const Token& peek(size_t ahead = 0) const {
        return m_tokens[std::min(m_at + ahead, m_tokens.size() - 1)];
    }
    Token take() { return m_tokens[std::min(m_at++, m_tokens.size() - 1)]; }
    bool isPunct(const char* text, size_t ahead = 0) const {
        return peek(ahead).kind == TokenKind::Punct && peek(ahead).text == text;
    }
    bool isKeyword(const char* text) const {
        return peek().kind == TokenKind::Ident && peek().text == text;
    }
    bool accept(const char* punct) {
        if (!isPunct(punct))
            return false;
        ++m_at;
        return true;
    }
    Token expect(const char* punct, const std::string& what) {
        if (!isPunct(punct))
            failAt(m_file, peek().pos,
                   std::string("expected '") + punct + "' " + what + ", got " +
                       describeToken(peek()));
        return take();
    }
    Token expectName(const std::string& what) {
        if (peek().kind != TokenKind::Ident)
            failAt(m_file, peek().pos, "expected " + what + ", got " + describeToken(peek()));
        return take();
    }

    AstDef parseDef() {
        if (!isKeyword("def"))
            failAt(m_file, peek().pos, "expected 'def', got " + describeToken(peek()));
        take();
        AstDef def;
        Token name = expectName("the name of the definition");
        def.name = name.text;
        def.pos = name.pos;
        expect("(", "after the name of '" + def.name + "'");
        if (!isPunct(")"))
            do
                def.inputs.push_back(parseParam(true));
            while (accept(","));
        expect(")", "to close the inputs of '" + def.name + "'");
        expect("->", "before the outputs of '" + def.name + "'");
        if (accept("(")) {
            do
                def.outputs.push_back(parseParam(false));
            while (accept(","));
            expect(")", "to close the outputs of '" + def.name + "'");
        } else {
            def.outputs.push_back(parseParam(false));
        }
        expect("{", "to open the body of '" + def.name + "'");
        while (!isPunct("}") && peek().kind != TokenKind::End)
            def.statements.push_back(parseStatement());
        expect("}", "to close the body of '" + def.name + "'");
        return def;
    }

    /// Inputs need a type; outputs may have one (`float C`) but never sizes.
    AstParam parseParam(bool isInput) {
        AstParam param;
        bool typed = peek().kind == TokenKind::Ident && kScalarTypes.count(peek().text) &&
                     (isPunct("(", 1) || peek(1).kind == TokenKind::Ident);
        if (typed) {
            Token type = take();
            param.typed = true;
            param.type.scalar = type.text;
            param.type.pos = type.pos;
            if (accept("(")) {
                if (!isInput)
                    failAt(m_file, type.pos,
                           "output sizes are inferred: remove the sizes after '" + type.text + "'");
                do
                    param.type.sizes.push_back(parseExpr());
                while (accept(","));
                expect(")", "to close the sizes of the input");
            }
        } else if (isInput) {
            failAt(m_file, peek().pos,
                   "expected the type of an input ('float(M, K) A'), got " + describeToken(peek()));
        }
        Token name = expectName(isInput ? "the name of an input" : "the name of an output");
        param.name = name.text;
        param.pos = name.pos;
        return param;
    }

    AstStatement parseStatement() {
        AstStatement st;
        Token name = expectName("a statement ('C(i, j) = ...')");
        st.tensor = name.text;
        st.pos = name.pos;
        if (accept("(")) {
            if (!isPunct(")"))
                do {
                    Token index = expectName("an index variable on the left-hand side of '" +
                                             st.tensor + "'");
                    st.indices.push_back(index.text);
                    st.indexPos.push_back(index.pos);
                } while (accept(","));
            expect(")", "to close the indices of '" + st.tensor + "'");
        }
        parseAssignOp(st);
        st.rhs = parseExpr();
        if (isKeyword("where")) {
            take();
            do
                st.wheres.push_back(parseWhere());
            while (accept(","));
        }
        accept(";");
        return st;
    }

    void parseAssignOp(AstStatement& st) {
        if (peek().kind != TokenKind::Punct || !kAssignOps.count(peek().text))
            failAt(m_file, peek().pos,
                   "expected an assignment ('=', '+=!', '+=', '*=!', 'max=!', 'min=!', ...) "
                   "after '" +
                       st.tensor + "(...)', got " + describeToken(peek()));
        Token op = take();
        st.opPos = op.pos;
        std::string text = op.text;
        st.initialize = text.back() == '!';
        if (st.initialize)
            text.pop_back();
        st.reduction = text.substr(0, text.size() - 1);
    }

    AstWhere parseWhere() {
        AstWhere w;
        w.pos = peek().pos;
        if (isKeyword("exists")) {
            take();
            w.isExists = true;
            w.exists = parseExpr();
            return w;
        }
        Token var = expectName("'VAR in LB:UB' or 'exists EXPR' after 'where'");
        w.var = var.text;
        if (!isKeyword("in"))
            failAt(m_file, peek().pos,
                   "expected 'in' after '" + w.var + "' in the where clause, got " +
                       describeToken(peek()));
        take();
        w.lower = parseOr();
        expect(":", "between the bounds of '" + w.var + "' ('lb:ub')");
        w.upper = parseOr();
        return w;
    }

    AstExprPtr make(ExprKind kind, SourcePos pos, std::string name, std::vector<AstExprPtr> args) {
        auto e = std::make_shared<AstExpr>();
        e->kind = kind;
        e->pos = pos;
        e->name = std::move(name);
        e->args = std::move(args);
        return e;
    }

    AstExprPtr parseExpr() {
        AstExprPtr cond = parseOr();
        if (!isPunct("?"))
            return cond;
        Token q = take();
        AstExprPtr a = parseExpr();
        expect(":", "in the conditional expression");
        AstExprPtr b = parseExpr();
        return make(ExprKind::Ternary, q.pos, "?", {cond, a, b});
    }

    /// One precedence level of left-associative binary operators.
    template <typename Next>
    AstExprPtr parseLevel(std::initializer_list<const char*> ops, Next next) {
        AstExprPtr lhs = (this->*next)();
        for (;;) {
            const char* matched = nullptr;
            for (const char* op : ops)
                if (isPunct(op))
                    matched = op;
            if (!matched)
                return lhs;
            Token op = take();
            AstExprPtr rhs = (this->*next)();
            lhs = make(ExprKind::Binary, op.pos, op.text, {lhs, rhs});
        }
    }
    AstExprPtr parseOr() { return parseLevel({"||"}, &Parser::parseAnd); }
    AstExprPtr parseAnd() { return parseLevel({"&&"}, &Parser::parseEquality); }
    AstExprPtr parseEquality() { return parseLevel({"==", "!="}, &Parser::parseCompare); }
    AstExprPtr parseCompare() { return parseLevel({"<", "<=", ">", ">="}, &Parser::parseSum); }
    AstExprPtr parseSum() { return parseLevel({"+", "-"}, &Parser::parseProduct); }
    AstExprPtr parseProduct() { return parseLevel({"*", "/", "%"}, &Parser::parseUnary); }

    AstExprPtr parseUnary() {
        if (isPunct("-") || isPunct("!")) {
            Token op = take();
            return make(ExprKind::Unary, op.pos, op.text, {parseUnary()});
        }
        return parsePrimary();
    }

    AstExprPtr parsePrimary() {
        Token t = take();
        if (t.kind == TokenKind::Int || t.kind == TokenKind::Float) {
            auto e = std::make_shared<AstExpr>();
            e->kind = t.kind == TokenKind::Int ? ExprKind::Int : ExprKind::Float;
            e->pos = t.pos;
            e->name = t.text;
            e->intValue = t.intValue;
            e->floatValue = t.floatValue;
            return e;
        }
        if (t.kind == TokenKind::Punct && t.text == "(") {
            AstExprPtr inner = parseExpr();
            expect(")", "to close the parenthesis");
            return inner;
        }
        if (t.kind != TokenKind::Ident)
            failAt(m_file, t.pos, "expected an expression, got " + describeToken(t));
        if (!accept("("))
            return make(ExprKind::Ident, t.pos, t.text, {});
        std::vector<AstExprPtr> args;
        if (!isPunct(")"))
            do
                args.push_back(parseExpr());
            while (accept(","));
        expect(")", "to close the arguments of '" + t.text + "'");
        return make(ExprKind::Apply, t.pos, t.text, std::move(args));
    }

    std::vector<Token> m_tokens;
    const std::string& m_file;
    size_t m_at = 0;
};

void print(std::ostream& os, const AstExpr& e) {
    switch (e.kind) {
    case ExprKind::Int:
    case ExprKind::Float:
    case ExprKind::Ident:
        os << e.name;
        return;
    case ExprKind::Apply:
        os << e.name << '(';
        for (size_t k = 0; k < e.args.size(); ++k)
            os << (k ? ", " : "") << astToString(*e.args[k]);
        os << ')';
        return;
    case ExprKind::Unary:
        os << e.name;
        print(os, *e.args[0]);
        return;
    case ExprKind::Binary:
        os << '(';
        print(os, *e.args[0]);
        os << ' ' << e.name << ' ';
        print(os, *e.args[1]);
        os << ')';
        return;
    case ExprKind::Ternary:
        os << '(';
        print(os, *e.args[0]);
        os << " ? ";
        print(os, *e.args[1]);
        os << " : ";
        print(os, *e.args[2]);
        os << ')';
        return;
    }
}

} // namespace

std::vector<AstDef> parseTc(const std::string& source, const std::string& fileName) {
    return Parser(tokenize(source, fileName), fileName).parseAll();
}

Diagnostic tcDiagnostic(const std::string& fileName, SourcePos pos, const std::string& text,
                        Severity severity) {
    Diagnostic d;
    d.location.file = fileName;
    d.location.line = pos.line;
    d.message = pos.column > 0 ? "col " + std::to_string(pos.column) + ": " + text : text;
    d.severity = severity;
    return d;
}

void failAt(const std::string& fileName, SourcePos pos, const std::string& text) {
    throw UserError(tcDiagnostic(fileName, pos, text));
}

std::string astToString(const AstExpr& e) {
    std::ostringstream os;
    if (e.kind == ExprKind::Binary || e.kind == ExprKind::Ternary) {
        // The outermost parentheses add nothing to a message.
        std::ostringstream inner;
        print(inner, e);
        std::string text = inner.str();
        return text.substr(1, text.size() - 2);
    }
    print(os, e);
    return os.str();
}

} // namespace bs::tc

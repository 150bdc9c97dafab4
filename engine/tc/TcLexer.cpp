// The TC lexer: identifiers, integer and float literals, punctuation and the assignment
// operators of seed 003 (`=`, `+=`, `+=!`, `*=`, `*=!`, `max=`, `max=!`, `min=`, `min=!`).

#include "tc/TcLexer.h"

#include "tc/TcParser.h"

#include <cctype>
#include <cstdlib>
#include <cstring>

namespace bs::tc {

namespace {

bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

/// Longest-match punctuation, longest first.
const char* const kPunctuation[] = {"+=!", "*=!", "->", "+=", "*=", "<=", ">=", "==", "!=", "&&",
                                    "||",  "(",   ")",  "{",  "}",  ",",  ":",  ";",  "?",  "<",
                                    ">",   "=",   "+",  "-",  "*",  "/",  "%",  "!"};

class Lexer {
public:
    Lexer(const std::string& source, const std::string& fileName)
        : m_src(source), m_file(fileName) {}

    std::vector<Token> run() {
        std::vector<Token> tokens;
        for (skipSpace(); m_at < m_src.size(); skipSpace())
            tokens.push_back(next());
        Token end;
        end.pos = here();
        tokens.push_back(end);
        return tokens;
    }

private:
    SourcePos here() const { return SourcePos{m_line, int(m_at - m_lineStart) + 1}; }

    void advance(size_t n = 1) {
        for (size_t k = 0; k < n && m_at < m_src.size(); ++k, ++m_at) {
            if (m_src[m_at] == '\n') {
                ++m_line;
                m_lineStart = m_at + 1;
            }
        }
    }

    void skipSpace() {
        while (m_at < m_src.size()) {
            char c = m_src[m_at];
            if (c == '#') {
                while (m_at < m_src.size() && m_src[m_at] != '\n')
                    advance();
            } else if (std::isspace(static_cast<unsigned char>(c))) {
                advance();
            } else {
                return;
            }
        }
    }

    bool startsWith(const char* text) const {
        return m_src.compare(m_at, std::strlen(text), text) == 0;
    }

    Token next() {
        Token token;
        token.pos = here();
        char c = m_src[m_at];
        if (isIdentStart(c))
            return identifier(token);
        if (isDigit(c) || (c == '.' && m_at + 1 < m_src.size() && isDigit(m_src[m_at + 1])))
            return number(token);
        for (const char* p : kPunctuation) {
            if (startsWith(p)) {
                token.kind = TokenKind::Punct;
                token.text = p;
                advance(token.text.size());
                return token;
            }
        }
        failAt(m_file, token.pos, std::string("unexpected character '") + c + "'");
    }

    /// `max=` / `min=!` are operators when `=` follows the name directly (not `==`).
    Token identifier(Token token) {
        size_t start = m_at;
        while (m_at < m_src.size() && isIdentChar(m_src[m_at]))
            advance();
        token.kind = TokenKind::Ident;
        token.text = m_src.substr(start, m_at - start);
        if ((token.text == "max" || token.text == "min") && startsWith("=") && !startsWith("==")) {
            advance();
            token.kind = TokenKind::Punct;
            token.text += "=";
            if (startsWith("!")) {
                advance();
                token.text += "!";
            }
        }
        return token;
    }

    Token number(Token token) {
        size_t start = m_at;
        bool isFloat = false;
        while (m_at < m_src.size() && (isDigit(m_src[m_at]) || m_src[m_at] == '.')) {
            isFloat = isFloat || m_src[m_at] == '.';
            advance();
        }
        if (m_at < m_src.size() && (m_src[m_at] == 'e' || m_src[m_at] == 'E')) {
            isFloat = true;
            advance();
            if (m_at < m_src.size() && (m_src[m_at] == '+' || m_src[m_at] == '-'))
                advance();
            while (m_at < m_src.size() && isDigit(m_src[m_at]))
                advance();
        }
        token.text = m_src.substr(start, m_at - start);
        if (m_at < m_src.size() && m_src[m_at] == 'f') {
            isFloat = true;
            advance();
        }
        token.kind = isFloat ? TokenKind::Float : TokenKind::Int;
        if (isFloat)
            token.floatValue = std::strtod(token.text.c_str(), nullptr);
        else
            token.intValue = std::strtoll(token.text.c_str(), nullptr, 10);
        return token;
    }

    const std::string& m_src;
    const std::string& m_file;
    size_t m_at = 0;
    size_t m_lineStart = 0;
    int m_line = 1;
};

} // namespace

std::vector<Token> tokenize(const std::string& source, const std::string& fileName) {
    return Lexer(source, fileName).run();
}

std::string describeToken(const Token& token) {
    switch (token.kind) {
    case TokenKind::End:
        return "end of input";
    case TokenKind::Ident:
        return "identifier '" + token.text + "'";
    default:
        return "'" + token.text + "'";
    }
}

} // namespace bs::tc

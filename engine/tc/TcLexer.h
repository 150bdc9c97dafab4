/// \file
/// Private to engine/tc: the tokens of a TC source. Assignment operators are single tokens
/// (`+=!`, `max=`, `min=!`), as in TC's own lexer, so `C(i) max=! A(i, j)` needs no lookahead.
#pragma once

#include "tc/TcAst.h"

#include <string>
#include <vector>

namespace bs::tc {

enum class TokenKind { Ident, Int, Float, Punct, End };

struct Token {
    TokenKind kind = TokenKind::End;
    std::string text;
    SourcePos pos;
    int64_t intValue = 0;
    double floatValue = 0.0;
};

/// Splits `source` into tokens ending with one End token; throws UserError at the first
/// character that starts no token.
std::vector<Token> tokenize(const std::string& source, const std::string& fileName);

/// `'+'`, `identifier 'A'`, `end of input`: a token as error messages name it.
std::string describeToken(const Token& token);

} // namespace bs::tc

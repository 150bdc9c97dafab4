/// \file
/// The outline of a Python script that schedule edits are written against: its top-level
/// statements as CPython's own `ast` module reads them (boundscope/_source_outline.py), as plain
/// C++ data. Offsets are bytes into the script's UTF-8 text, lines are 1-based. Building an
/// outline runs on the process's Python thread (script/PythonThread.h) and never runs the script.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bs::script {

/// A call of a schedule primitive on a stage, `s[C].split(x, factor=4)`, or on the schedule,
/// `s.cache_read(A, "shared", [B])` (then `stage` is the first argument's text).
struct PrimitiveCall {
    std::string schedule;          ///< the variable the call goes through (`s`)
    std::string stage;             ///< the subscript's text (`C`), as ast.unparse writes it
    std::string method;            ///< `split`
    std::vector<std::string> args; ///< positional arguments' text
    std::map<std::string, std::string> keywords; ///< keyword arguments' text
};

struct Statement {
    int line = 0;                   ///< first line
    int endLine = 0;                ///< last line
    size_t start = 0;               ///< byte offset of its first character
    size_t end = 0;                 ///< byte offset just past its last character
    std::vector<std::string> binds; ///< names it binds at module scope, in order
    std::vector<std::string> loads; ///< names it reads anywhere (function bodies included)
    /// The names it reads whole, not as `x[...]` or `x.attr` (`tvm.lower(s, ...)` reads `s`
    /// whole; `s[C].split(...)` does not), sorted.
    std::vector<std::string> bare;
    /// The plain names of a single-target assignment (`xo, xi = ...` gives xo, xi); empty for
    /// anything else (`a.b = ...`, `x += 1`, expressions).
    std::vector<std::string> targets;
    std::string value; ///< the assigned or evaluated expression as ast.unparse writes it
    /// `import tvm` gives (tvm, tvm); `from tvm import te` gives (tvm.te, te).
    std::vector<std::pair<std::string, std::string>> imports;
    std::optional<PrimitiveCall> primitive;

    bool assigns(const std::string& name) const;
    bool reads(const std::string& name) const;
    bool readsWhole(const std::string& name) const;
};

struct SourceOutline {
    std::vector<Statement> statements;
    /// Every identifier-like word of the script (code, strings, comments), sorted.
    std::vector<std::string> identifiers;

    /// The statement whose lines contain `line`; nullptr when none does, or when several do
    /// (statements separated by `;`): the engine records lines, so those cannot be told apart.
    const Statement* statementAt(int line) const;
    /// Its index in `statements`, or -1.
    int indexAt(int line) const;
};

/// Whether `text` is a name Python accepts for a variable (an identifier, not a keyword).
bool isPythonName(const std::string& text);
/// `a, b, c`.
std::string commaJoined(const std::vector<std::string>& items);
/// `A, C ,D` -> A, C, D: the items of a flat comma-separated list, trimmed, empty ones dropped.
std::vector<std::string> commaItems(const std::string& text);

/// Byte offsets into `text`: the start of the line holding `offset`, and the start of the line
/// after it (the text's end when it is the last); the 1-based number of that line.
size_t lineStartAt(const std::string& text, size_t offset);
size_t nextLineAt(const std::string& text, size_t offset);
int lineNumberAt(const std::string& text, size_t offset);

/// The bytes deleting statement `st` of `script` removes: its whole lines when it has them to
/// itself, else the statement and the `;` that joins it to its neighbour on the line.
std::pair<size_t, size_t> removalRange(const std::string& script, const Statement& st);

/// Parses `source` with CPython's ast. Throws UserError (at the line of the syntax error,
/// in `fileName`) when the script does not parse.
SourceOutline outlineSource(const std::string& source, const std::string& fileName);

/// One argument of a primitive call typed by a user (`boundscope edit`).
struct CallArgument {
    enum class Kind { Name, String, Int, List, Other };
    Kind kind = Kind::Other;
    std::string text;                ///< the source text (`i.outer`, `'local'`, `8`)
    std::string value;               ///< String: the string; Int: its digits
    std::vector<CallArgument> items; ///< List: the elements
};

/// `C.split(i.outer, factor=8)`: receiver `C`, method `split`, the arguments.
struct ParsedCall {
    std::string receiver;
    std::string method;
    std::vector<CallArgument> args;
    std::map<std::string, CallArgument> keywords;
};

/// Parses one method call with CPython's ast. Throws UserError naming the problem when `text`
/// is not `RECEIVER.METHOD(ARGS)`.
ParsedCall parseCall(const std::string& text);

} // namespace bs::script

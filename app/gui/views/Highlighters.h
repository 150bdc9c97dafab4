/// \file
/// Syntax highlighting for the two kinds of text the app shows: the Python script (keywords,
/// builtins, the TE API, strings including triple-quoted ones across lines, comments, numbers)
/// and the lowered IR in TVM's text form (loop and buffer keywords, `// attr` lines, intrinsics,
/// types, numbers). Rules are regular expressions applied per line; the only state carried from
/// line to line is "inside a triple-quoted string". Colours are designed for white paper and
/// adapted to the palette as the text is highlighted (views/Theme.h).
#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace bs::gui {

/// One pattern and the format of its matches (capture group 1 when the pattern has one).
struct HighlightRule {
    QRegularExpression pattern;
    QTextCharFormat format;
};

/// A highlighter made of rules only: each line gets every rule's matches, in order. The text
/// is highlighted again when the theme changes.
class RuleHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit RuleHighlighter(QTextDocument* document);

protected:
    void highlightBlock(const QString& text) override;
    /// setFormat() with `format`'s colour (designed for white) adapted to the palette.
    void setThemedFormat(int start, int count, const QTextCharFormat& format);

    QList<HighlightRule> m_rules;
};

class PythonHighlighter : public RuleHighlighter {
    Q_OBJECT
public:
    explicit PythonHighlighter(QTextDocument* document);

protected:
    void highlightBlock(const QString& text) override;

private:
    /// Formats triple-quoted strings, carrying one still open at the end of the line to the
    /// next line through the block state.
    void highlightTripleQuotes(const QString& text);

    QTextCharFormat m_stringFormat;
    QTextCharFormat m_commentFormat;
};

class IrHighlighter : public RuleHighlighter {
    Q_OBJECT
public:
    explicit IrHighlighter(QTextDocument* document);
};

/// Generated code: CUDA C (keywords, `__global__`/`__shared__` qualifiers, thread indices,
/// `//` comments) and LLVM IR (instructions, types, `%`/`@` names, `;` comments).
class CodeHighlighter : public RuleHighlighter {
    Q_OBJECT
public:
    explicit CodeHighlighter(QTextDocument* document);
};

/// Tensor Comprehensions (seed 003): `def`, `where`, `exists`, `in`, the scalar types, the
/// reduction operators (`+=!`, `max=!`, ...), built-in functions, numbers and `#` comments.
class TcHighlighter : public RuleHighlighter {
    Q_OBJECT
public:
    explicit TcHighlighter(QTextDocument* document);
};

/// The fixed-pitch font every code view uses.
QFont codeFont();

} // namespace bs::gui

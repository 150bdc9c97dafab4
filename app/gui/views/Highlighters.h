/// \file
/// Syntax highlighting for the two kinds of text the app shows: the Python script (keywords,
/// builtins, the TE API, strings including triple-quoted ones across lines, comments, numbers)
/// and the lowered IR in TVM's text form (loop and buffer keywords, `// attr` lines, intrinsics,
/// types, numbers). Rules are regular expressions applied per line; the only state carried from
/// line to line is "inside a triple-quoted string".
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

class PythonHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit PythonHighlighter(QTextDocument* document);

protected:
    void highlightBlock(const QString& text) override;

private:
    /// Formats triple-quoted strings, carrying one still open at the end of the line to the
    /// next line through the block state.
    void highlightTripleQuotes(const QString& text);

    QList<HighlightRule> m_rules;
    QTextCharFormat m_stringFormat;
    QTextCharFormat m_commentFormat;
};

class IrHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit IrHighlighter(QTextDocument* document);

protected:
    void highlightBlock(const QString& text) override;

private:
    QList<HighlightRule> m_rules;
};

/// Generated code: CUDA C (keywords, `__global__`/`__shared__` qualifiers, thread indices,
/// `//` comments) and LLVM IR (instructions, types, `%`/`@` names, `;` comments).
class CodeHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit CodeHighlighter(QTextDocument* document);

protected:
    void highlightBlock(const QString& text) override;

private:
    QList<HighlightRule> m_rules;
};

/// Tensor Comprehensions (seed 003): `def`, `where`, `exists`, `in`, the scalar types, the
/// reduction operators (`+=!`, `max=!`, ...), built-in functions, numbers and `#` comments.
class TcHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit TcHighlighter(QTextDocument* document);

protected:
    void highlightBlock(const QString& text) override;

private:
    QList<HighlightRule> m_rules;
};

/// The fixed-pitch font every code view uses.
QFont codeFont();

} // namespace bs::gui

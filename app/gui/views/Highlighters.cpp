#include "views/Highlighters.h"

#include "views/Theme.h"

#include <QFontDatabase>

namespace bs::gui {

namespace {

QTextCharFormat charFormat(const QColor& color, bool bold = false, bool italic = false) {
    QTextCharFormat f;
    f.setForeground(color);
    if (bold)
        f.setFontWeight(QFont::Bold);
    f.setFontItalic(italic);
    return f;
}

HighlightRule wordsRule(const QStringList& words, const QTextCharFormat& f) {
    return {QRegularExpression(QStringLiteral("\\b(%1)\\b").arg(words.join(QLatin1Char('|')))), f};
}

// Triple-quoted string states of a block.
constexpr int kNotInString = 0;
constexpr int kInTripleSingle = 1;
constexpr int kInTripleDouble = 2;

} // namespace

QFont codeFont() {
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setStyleHint(QFont::Monospace);
    font.setPointSize(10);
    return font;
}

PythonHighlighter::PythonHighlighter(QTextDocument* document) : RuleHighlighter(document) {
    const QStringList keywords = {
        QStringLiteral("and"),   QStringLiteral("as"),     QStringLiteral("assert"),
        QStringLiteral("break"), QStringLiteral("class"),  QStringLiteral("continue"),
        QStringLiteral("def"),   QStringLiteral("del"),    QStringLiteral("elif"),
        QStringLiteral("else"),  QStringLiteral("except"), QStringLiteral("finally"),
        QStringLiteral("for"),   QStringLiteral("from"),   QStringLiteral("global"),
        QStringLiteral("if"),    QStringLiteral("import"), QStringLiteral("in"),
        QStringLiteral("is"),    QStringLiteral("lambda"), QStringLiteral("nonlocal"),
        QStringLiteral("not"),   QStringLiteral("or"),     QStringLiteral("pass"),
        QStringLiteral("raise"), QStringLiteral("return"), QStringLiteral("try"),
        QStringLiteral("while"), QStringLiteral("with"),   QStringLiteral("yield"),
        QStringLiteral("None"),  QStringLiteral("True"),   QStringLiteral("False")};
    const QStringList builtins = {QStringLiteral("print"), QStringLiteral("range"),
                                  QStringLiteral("len"),   QStringLiteral("int"),
                                  QStringLiteral("float"), QStringLiteral("list"),
                                  QStringLiteral("tuple"), QStringLiteral("self")};
    // The TE API a schedule script is made of, so the schedule reads at a glance.
    const QStringList teApi = {QStringLiteral("tvm"),
                               QStringLiteral("te"),
                               QStringLiteral("placeholder"),
                               QStringLiteral("compute"),
                               QStringLiteral("create_schedule"),
                               QStringLiteral("thread_axis"),
                               QStringLiteral("reduce_axis"),
                               QStringLiteral("split"),
                               QStringLiteral("fuse"),
                               QStringLiteral("reorder"),
                               QStringLiteral("tile"),
                               QStringLiteral("compute_at"),
                               QStringLiteral("compute_inline"),
                               QStringLiteral("compute_root"),
                               QStringLiteral("bind"),
                               QStringLiteral("set_scope"),
                               QStringLiteral("cache_read"),
                               QStringLiteral("cache_write"),
                               QStringLiteral("vectorize"),
                               QStringLiteral("unroll"),
                               QStringLiteral("parallel"),
                               QStringLiteral("rfactor"),
                               QStringLiteral("create_group"),
                               QStringLiteral("reverse_compute_inline"),
                               QStringLiteral("pragma"),
                               QStringLiteral("set_store_predicate")};
    m_rules << wordsRule(keywords, charFormat(QColor(0x1f, 0x4e, 0xa8), true));
    m_rules << wordsRule(builtins, charFormat(QColor(0x7a, 0x3e, 0x9d)));
    m_rules << wordsRule(teApi, charFormat(QColor(0x00, 0x6e, 0x6e)));
    m_rules << HighlightRule{
        QRegularExpression(QStringLiteral("\\b[0-9]+(\\.[0-9]*)?([eE][-+]?[0-9]+)?\\b")),
        charFormat(QColor(0xa0, 0x52, 0x00))};
    m_rules << HighlightRule{QRegularExpression(QStringLiteral("^\\s*(@[A-Za-z_.]+)")),
                             charFormat(QColor(0x7a, 0x3e, 0x9d))};
    m_stringFormat = charFormat(QColor(0x2e, 0x7d, 0x32));
    m_commentFormat = charFormat(QColor(0x70, 0x70, 0x70), false, true);
}

void PythonHighlighter::highlightBlock(const QString& text) {
    RuleHighlighter::highlightBlock(text);
    // Single-line strings and comments last, so keywords inside them are overwritten. A `#`
    // inside a string does not start a comment: scan once, tracking the quote.
    QChar quote;
    int stringStart = -1;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (stringStart >= 0) {
            if (c == QLatin1Char('\\')) {
                ++i;
            } else if (c == quote) {
                setThemedFormat(stringStart, i - stringStart + 1, m_stringFormat);
                stringStart = -1;
            }
        } else if (c == QLatin1Char('#')) {
            setThemedFormat(i, int(text.size()) - i, m_commentFormat);
            break;
        } else if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
            quote = c;
            stringStart = i;
        }
    }
    highlightTripleQuotes(text);
}

void PythonHighlighter::highlightTripleQuotes(const QString& text) {
    int state = previousBlockState() < 0 ? kNotInString : previousBlockState();
    int from = 0;
    while (true) {
        if (state == kNotInString) {
            const int single = int(text.indexOf(QLatin1String("'''"), from));
            const int dbl = int(text.indexOf(QLatin1String("\"\"\""), from));
            if (single < 0 && dbl < 0)
                break;
            const bool useSingle = dbl < 0 || (single >= 0 && single < dbl);
            from = useSingle ? single : dbl;
            state = useSingle ? kInTripleSingle : kInTripleDouble;
            const int end = int(
                text.indexOf(useSingle ? QLatin1String("'''") : QLatin1String("\"\"\""), from + 3));
            if (end < 0) {
                setThemedFormat(from, int(text.size()) - from, m_stringFormat);
                break;
            }
            setThemedFormat(from, end + 3 - from, m_stringFormat);
            from = end + 3;
            state = kNotInString;
            continue;
        }
        const QLatin1String delimiter(state == kInTripleSingle ? "'''" : "\"\"\"");
        const int end = int(text.indexOf(delimiter, from));
        if (end < 0) {
            setThemedFormat(0, int(text.size()), m_stringFormat);
            break;
        }
        setThemedFormat(0, end + 3, m_stringFormat);
        from = end + 3;
        state = kNotInString;
    }
    setCurrentBlockState(state);
}

IrHighlighter::IrHighlighter(QTextDocument* document) : RuleHighlighter(document) {
    const QStringList keywords = {
        QStringLiteral("for"),        QStringLiteral("produce"), QStringLiteral("realize"),
        QStringLiteral("allocate"),   QStringLiteral("if"),      QStringLiteral("else"),
        QStringLiteral("let"),        QStringLiteral("assert"),  QStringLiteral("parallel"),
        QStringLiteral("vectorized"), QStringLiteral("unrolled")};
    const QStringList intrinsics = {QStringLiteral("min"),      QStringLiteral("max"),
                                    QStringLiteral("floordiv"), QStringLiteral("floormod"),
                                    QStringLiteral("select"),   QStringLiteral("likely"),
                                    QStringLiteral("ramp"),     QStringLiteral("broadcast")};
    m_rules << wordsRule(keywords, charFormat(QColor(0x1f, 0x4e, 0xa8), true));
    m_rules << wordsRule(intrinsics, charFormat(QColor(0x7a, 0x3e, 0x9d)));
    m_rules << HighlightRule{QRegularExpression(QStringLiteral("\\b(u?int|float|bool)[0-9]+\\b")),
                             charFormat(QColor(0x00, 0x6e, 0x6e))};
    m_rules << HighlightRule{QRegularExpression(QStringLiteral("\\b[0-9]+(\\.[0-9]+f?)?\\b")),
                             charFormat(QColor(0xa0, 0x52, 0x00))};
    m_rules << HighlightRule{
        QRegularExpression(QStringLiteral("\\b(threadIdx|blockIdx)\\.[xyz]\\b")),
        charFormat(QColor(0xb0, 0x20, 0x60), true)};
    // `// attr [...] thread_extent = 100`: TVM prints annotations as comments; they matter, so
    // they stay legible, in a muted colour rather than faded out.
    m_rules << HighlightRule{QRegularExpression(QStringLiteral("//.*$")),
                             charFormat(QColor(0x5f, 0x6b, 0x7a), false, true)};
}

RuleHighlighter::RuleHighlighter(QTextDocument* document) : QSyntaxHighlighter(document) {
    connect(theme::notifier(), &theme::Notifier::changed, this, &QSyntaxHighlighter::rehighlight);
}

void RuleHighlighter::setThemedFormat(int start, int count, const QTextCharFormat& format) {
    if (!theme::isDark()) {
        setFormat(start, count, format);
        return;
    }
    QTextCharFormat themed = format;
    themed.setForeground(theme::ink(format.foreground().color()));
    setFormat(start, count, themed);
}

/// Applies every rule to `text` in order (later rules win where matches overlap).
void RuleHighlighter::highlightBlock(const QString& text) {
    for (const HighlightRule& rule : m_rules) {
        QRegularExpressionMatchIterator it = rule.pattern.globalMatch(text);
        while (it.hasNext()) {
            const QRegularExpressionMatch m = it.next();
            const int group = rule.pattern.captureCount() > 0 ? 1 : 0;
            setThemedFormat(int(m.capturedStart(group)), int(m.capturedLength(group)), rule.format);
        }
    }
}

CodeHighlighter::CodeHighlighter(QTextDocument* document) : RuleHighlighter(document) {
    const QStringList keywords =
        QStringLiteral(
            "extern|for|if|else|return|void|const|__global__|__shared__|__device__|__restrict__|"
            "__syncthreads|__launch_bounds__|define|declare|ret|br|label|phi|call|alloca|load|"
            "store|getelementptr|inbounds|icmp|fcmp|select|to|align|nsw|nuw|attributes")
            .split(QLatin1Char('|'));
    const QStringList types = QStringLiteral("int|float|double|char|bool|half|i1|i8|i32|i64|ptr|"
                                             "float4|int4")
                                  .split(QLatin1Char('|'));
    m_rules << wordsRule(keywords, charFormat(QColor(0x1f, 0x4e, 0xa8), true));
    m_rules << wordsRule(types, charFormat(QColor(0x00, 0x6e, 0x6e)));
    m_rules << HighlightRule{QRegularExpression(QStringLiteral("[%@][\\w.$]+")),
                             charFormat(QColor(0x7a, 0x3e, 0x9d))};
    m_rules << HighlightRule{
        QRegularExpression(QStringLiteral("\\b[0-9]+(\\.[0-9]+(e[+-]?[0-9]+)?f?)?\\b")),
        charFormat(QColor(0xa0, 0x52, 0x00))};
    m_rules << HighlightRule{
        QRegularExpression(QStringLiteral("\\b(threadIdx|blockIdx)\\.[xyz]\\b")),
        charFormat(QColor(0xb0, 0x20, 0x60), true)};
    m_rules << HighlightRule{QRegularExpression(QStringLiteral("//.*$|^\\s*;.*$")),
                             charFormat(QColor(0x5f, 0x6b, 0x7a), false, true)};
}

TcHighlighter::TcHighlighter(QTextDocument* document) : RuleHighlighter(document) {
    const QStringList keywords = QStringLiteral("def|where|exists|in").split(QLatin1Char('|'));
    const QStringList types =
        QStringLiteral("float|float16|float32|float64|double|half|int|int32|int64|bool")
            .split(QLatin1Char('|'));
    const QStringList functions =
        QStringLiteral("min|max|exp|log|sqrt|tanh|fabs").split(QLatin1Char('|'));
    m_rules << wordsRule(keywords, charFormat(QColor(0x1f, 0x4e, 0xa8), true));
    m_rules << wordsRule(types, charFormat(QColor(0x00, 0x6e, 0x6e)));
    m_rules << wordsRule(functions, charFormat(QColor(0x7a, 0x3e, 0x9d)));
    m_rules << HighlightRule{QRegularExpression(QStringLiteral("\\b[0-9]+(\\.[0-9]*)?f?\\b")),
                             charFormat(QColor(0xa0, 0x52, 0x00))};
    m_rules << HighlightRule{QRegularExpression(QStringLiteral("(?:\\+|\\*|max|min)?=!?|->")),
                             charFormat(QColor(0xb0, 0x20, 0x60), true)};
    m_rules << HighlightRule{QRegularExpression(QStringLiteral("#.*$")),
                             charFormat(QColor(0x70, 0x70, 0x70), false, true)};
}

} // namespace bs::gui

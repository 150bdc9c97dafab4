#include "models/IrLines.h"

#include <QRegularExpression>

namespace bs::gui {

namespace {

/// The stage a storage or produce line names, or empty.
QString stageNamedBy(const QString& line) {
    static const QRegularExpression storage(QStringLiteral(
        R"(^\s*(?:produce|realize|allocate)\s+([A-Za-z_][\w.]*)|^\s*// attr \[(?:compute|placeholder|extern|scan)?\(?([A-Za-z_][\w.]*)\)?\] (?:storage_scope|realize_scope))"));
    const QRegularExpressionMatch m = storage.match(line);
    if (!m.hasMatch())
        return QString();
    return m.captured(1).isEmpty() ? m.captured(2) : m.captured(1);
}

QString loopVarOpenedBy(const QString& line) {
    static const QRegularExpression loop(
        QStringLiteral(R"(^\s*(?:for|parallel|vectorized|unrolled)?\s*\(([A-Za-z_][\w.]*),)"));
    static const QRegularExpression thread(QStringLiteral(
        R"(^\s*// attr \[iter_var\(([\w.]+),.*\] (?:thread_extent|virtual_thread))"));
    QRegularExpressionMatch m = loop.match(line);
    if (m.hasMatch() && line.trimmed().endsWith(QLatin1Char('{')))
        return m.captured(1);
    m = thread.match(line);
    return m.hasMatch() ? m.captured(1) : QString();
}

} // namespace

QList<IrLine> irLines(const QString& text) {
    QList<IrLine> lines;
    // The open `produce` blocks, innermost last, with the brace depth each opened at.
    QList<QPair<QString, int>> open;
    int depth = 0;
    static const QRegularExpression produce(QStringLiteral(R"(^\s*produce\s+([A-Za-z_][\w.]*))"));
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        IrLine info;
        const QString named = stageNamedBy(line);
        const QRegularExpressionMatch opens = produce.match(line);
        if (opens.hasMatch())
            open.append({opens.captured(1), depth});
        info.stage = !named.isEmpty() ? named : open.isEmpty() ? QString() : open.last().first;
        info.namesStage = !named.isEmpty();
        info.loopVar = loopVarOpenedBy(line);
        lines << info;
        depth += int(line.count(QLatin1Char('{'))) - int(line.count(QLatin1Char('}')));
        while (!open.isEmpty() && depth <= open.last().second)
            open.removeLast();
    }
    return lines;
}

QPair<int, int> numberSpanAt(const QString& line, int column) {
    auto isDigit = [&line](int at) { return at >= 0 && at < line.size() && line[at].isDigit(); };
    if (!isDigit(column))
        --column; // the cursor sits just after the number
    if (!isDigit(column))
        return {-1, -1};
    int start = column;
    while (isDigit(start - 1))
        --start;
    int end = column + 1;
    while (isDigit(end))
        ++end;
    const bool inName = start > 0 && (line[start - 1].isLetter() || line[start - 1] == u'_');
    return inName ? QPair<int, int>(-1, -1) : QPair<int, int>(start, end);
}

} // namespace bs::gui

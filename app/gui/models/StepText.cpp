#include "models/StepText.h"

#include "ir/Printer.h"
#include "models/EngineText.h"
#include "models/StepOutline.h"
#include "views/Theme.h"

namespace bs::gui {

namespace {

/// The style attribute of secondary text, in the theme's caption grey.
QString captionStyle() {
    return QStringLiteral("style=\"color:%1\"").arg(theme::captionInk().name());
}

/// At most this many steps in one derivation tooltip.
constexpr int kDerivationSteps = 10;
/// Sentences end at ". " (not at the dot of `i.j.fused` or of `3.5`).
constexpr QLatin1StringView kSentenceEnd(". ");

QString phaseName(const BoundStep& step) { return QString::fromLatin1(stepPhaseName(step.phase)); }

QString escaped(const std::string& text) { return qstr(text).toHtmlEscaped(); }

QString code(const QString& text) {
    return QStringLiteral("<code>%1</code>").arg(text.toHtmlEscaped());
}

QString stepLink(const BoundSteps& steps, int id) {
    return QStringLiteral("<a href=\"step:%1\">%2</a>")
        .arg(id)
        .arg(stepLabel(steps.at(id)).toHtmlEscaped());
}

QString linkList(const BoundSteps& steps, const QList<int>& ids) {
    QStringList links;
    for (int id : ids)
        links << stepLink(steps, id);
    return links.join(QStringLiteral(", "));
}

/// Rows `in  name  value` of a values table.
QString valueRows(const QString& caption, const std::vector<StepValue>& values) {
    QString rows;
    for (size_t n = 0; n < values.size(); ++n) {
        rows += QStringLiteral("<tr><td %1>").arg(captionStyle()) +
                QStringLiteral("%1</td><td>%2</td><td>= %3</td></tr>")
                    .arg(n == 0 ? caption : QString(), code(qstr(values[n].name)),
                         code(stepValueText(values[n])));
    }
    return rows;
}

/// `stage B · consumer C · fuse(outer=i, ...) · line 15`.
QString whereLine(const Analysis& analysis, const BoundStep& step) {
    QStringList parts;
    if (step.stage.defined())
        parts << QStringLiteral("stage <b>%1</b>").arg(stageNameOf(analysis, step.stage));
    if (step.consumer.defined())
        parts << QStringLiteral("consumer <b>%1</b>").arg(stageNameOf(analysis, step.consumer));
    if (step.relation.defined())
        parts << code(qstr(toString(step.relation)));
    if (step.tensor.defined() && step.axis >= 0)
        parts << QStringLiteral("%1 axis %2").arg(code(qstr(step.tensor.name()))).arg(step.axis);
    if (step.location.known())
        parts << QStringLiteral("script line %1").arg(step.location.line);
    return parts.join(QStringLiteral(" · "));
}

void appendDerivation(const BoundSteps& steps, int id, int level, int depth, QSet<int>& shown,
                      QString& html) {
    if (shown.contains(id) || shown.size() >= kDerivationSteps)
        return;
    shown.insert(id);
    const BoundStep& step = steps.at(id);
    const QString line =
        QStringLiteral("<p style=\"margin-left:%1px; margin-top:%2px\">%3<b>step %4 · %5</b> "
                       "<span ") +
        captionStyle() + QStringLiteral(">%6</span><br>%7</p>");
    html += line.arg(level * 16)
                .arg(level == 0 ? 0 : 4)
                .arg(level == 0 ? QString() : QStringLiteral("← "))
                .arg(id)
                .arg(phaseName(step), escaped(step.rule), escaped(step.text));
    if (level + 1 >= depth)
        return;
    for (int from : step.from) {
        if (from >= 0 && from < int(steps.size()))
            appendDerivation(steps, from, level + 1, depth, shown, html);
    }
}

} // namespace

QString stepLabel(const BoundStep& step) {
    return QStringLiteral("#%1 %2").arg(step.id).arg(phaseName(step));
}

QString stepValueText(const StepValue& value) {
    if (value.set)
        return qstr(value.set->toString());
    if (value.range && value.range->min.defined())
        return QStringLiteral("[%1, +%2)")
            .arg(exprText(value.range->min), exprText(value.range->extent));
    if (value.expr.defined())
        return exprText(value.expr);
    return QString();
}

QString stepSummary(const BoundStep& step) {
    QStringList values;
    for (const StepValue& value : step.outputs)
        values << QStringLiteral("%1 = %2").arg(qstr(value.name), stepValueText(value));
    if (!values.isEmpty())
        return values.join(QStringLiteral("; "));
    const QString text = qstr(step.text);
    const qsizetype end = text.indexOf(kSentenceEnd);
    return end < 0 ? text : text.left(end + 1);
}

QString stepDetailsHtml(const Analysis& analysis, int id) {
    const BoundSteps* steps = stepsOf(analysis);
    if (!steps || id < 0 || id >= int(steps->size()))
        return QString();
    const BoundStep& step = steps->at(id);
    const QString title = QStringLiteral("<p style=\"margin-bottom:2px\"><b>Step %1 of %2 · %3</b> "
                                         "<span ") +
                          captionStyle() + QStringLiteral(">(%4)</span></p>");
    QString html = title.arg(id).arg(steps->size() - 1).arg(phaseName(step), escaped(step.rule));
    html += QStringLiteral("<p style=\"color:%1; margin-top:0\">").arg(theme::captionInk().name()) +
            whereLine(analysis, step) + QStringLiteral("</p>");
    html += QStringLiteral("<p>%1</p>").arg(escaped(step.text));
    if (!step.inputs.empty() || !step.outputs.empty())
        html += QStringLiteral("<table cellspacing=\"0\" cellpadding=\"2\">%1%2</table>")
                    .arg(valueRows(QStringLiteral("in"), step.inputs),
                         valueRows(QStringLiteral("out"), step.outputs));
    if (!step.from.empty())
        html += QStringLiteral("<p>Reads: %1</p>")
                    .arg(linkList(*steps, QList<int>(step.from.begin(), step.from.end())));
    const QList<int> readers = stepsReading(*steps, id);
    if (!readers.isEmpty())
        html += QStringLiteral("<p>Read by: %1</p>").arg(linkList(*steps, readers));
    return html;
}

QString derivationHtml(const BoundSteps& steps, int id, int depth) {
    if (id < 0 || id >= int(steps.size()))
        return QString();
    QString html;
    QSet<int> shown;
    appendDerivation(steps, id, 0, depth, shown, html);
    return html;
}

QList<int> stepsReading(const BoundSteps& steps, int id) {
    QList<int> readers;
    for (const BoundStep& step : steps.all()) {
        if (std::find(step.from.begin(), step.from.end(), id) != step.from.end())
            readers << step.id;
    }
    return readers;
}

QSet<int> stepsDerivedFrom(const BoundSteps& steps, int id) {
    QSet<int> derived{id};
    // `from` names earlier steps, so the first pass in order finds every descendant; the
    // passes repeat until nothing is added, in case one ever names a later step.
    for (bool grew = true; grew;) {
        grew = false;
        for (const BoundStep& step : steps.all()) {
            if (derived.contains(step.id))
                continue;
            for (int from : step.from) {
                if (derived.contains(from)) {
                    derived.insert(step.id);
                    grew = true;
                    break;
                }
            }
        }
    }
    return derived;
}

} // namespace bs::gui

#include "models/AppWording.h"

#include <QRegularExpression>

namespace bs::gui {

namespace {

/// The Run panel's name of a `--target` value.
QString targetName(const QString& flag) {
    if (flag == QLatin1String("cpu"))
        return QStringLiteral("the CPU target");
    if (flag == QLatin1String("cuda"))
        return QStringLiteral("the GPU target");
    if (flag == QLatin1String("emulate"))
        return QStringLiteral("the GPU emulation target");
    return QStringLiteral("LLVM IR");
}

} // namespace

QString appWording(const QString& engineMessage) {
    static const QRegularExpression aside(QStringLiteral(" \\(--[a-z]+ [\\w.-]+\\)"));
    static const QRegularExpression target(QStringLiteral("--target (cpu|cuda|emulate|llvm)\\b"));
    static const QRegularExpression rules(QStringLiteral("--rules (tvm-0\\.6|tvm|tight)\\b"));
    QString text = engineMessage;
    text.remove(aside);
    QRegularExpressionMatch m;
    while ((m = target.match(text)).hasMatch())
        text.replace(m.capturedStart(), m.capturedLength(), targetName(m.captured(1)));
    bool namedRules = false;
    while ((m = rules.match(text)).hasMatch()) {
        text.replace(m.capturedStart(), m.capturedLength(),
                     QStringLiteral("the %1 rules").arg(m.captured(1)));
        namedRules = true;
    }
    if (namedRules)
        text += QStringLiteral("; the Rules box in the toolbar chooses the rules");
    return text;
}

} // namespace bs::gui

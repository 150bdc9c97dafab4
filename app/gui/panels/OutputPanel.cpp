#include "panels/OutputPanel.h"

#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTime>
#include <QVBoxLayout>

namespace bs::gui {

OutputPanel::OutputPanel(QWidget* parent)
    : QWidget(parent), m_summary(new QLabel(this)), m_text(new QPlainTextEdit(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_summary->setText(tr("No run yet: the script's print() output and warnings appear here."));
    m_summary->setWordWrap(true);
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setPlaceholderText(tr("The script printed nothing."));
    layout->addWidget(m_summary);
    layout->addWidget(m_text, 1);
}

void OutputPanel::setRun(const QString& scriptName, const QString& output, qint64 elapsedMs,
                         const std::optional<Diagnostic>& problem) {
    const QString when = QTime::currentTime().toString(QStringLiteral("HH:mm:ss"));
    m_summary->setText(
        problem ? tr("Output of %1, run at %2 (%3 ms): it stopped with an error")
                      .arg(scriptName, when)
                      .arg(elapsedMs)
                : tr("Output of %1, run at %2 (%3 ms)").arg(scriptName, when).arg(elapsedMs));
    QString text = output;
    if (problem) {
        if (!text.isEmpty() && !text.endsWith(QLatin1Char('\n')))
            text += QLatin1Char('\n');
        text += QString::fromStdString(problem->toString());
    }
    m_text->setPlainText(text);
}

QString OutputPanel::summary() const { return m_summary->text(); }

QString OutputPanel::text() const { return m_text->toPlainText(); }

} // namespace bs::gui

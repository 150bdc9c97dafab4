/// \file
/// The Output dock (issue 17, item 2): what the latest run of the script wrote, stdout then
/// stderr (warnings, TC's included), and, when it failed, the error where it stopped. Replaced
/// by each run, so it always belongs to the script the title names.
#pragma once

#include "support/Diagnostic.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPlainTextEdit;

namespace bs::gui {

class OutputPanel : public QWidget {
    Q_OBJECT
public:
    explicit OutputPanel(QWidget* parent = nullptr);

    /// Shows the output of a run of `scriptName` that took `elapsedMs`; `problem` when it failed.
    void setRun(const QString& scriptName, const QString& output, qint64 elapsedMs,
                const std::optional<Diagnostic>& problem);

    /// The line above the text (which run it is).
    QString summary() const;
    /// The text shown: the output, then the error line when the run failed.
    QString text() const;

private:
    QLabel* m_summary;
    QPlainTextEdit* m_text;
};

} // namespace bs::gui

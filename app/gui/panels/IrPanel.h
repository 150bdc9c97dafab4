/// \file
/// The lowered IR after a chosen pass (schedule_ops, flatten, simplify, cse, final), in TVM's
/// text form with highlighting, linked to the shared selection both ways (issue 7, item 3):
/// the selected stage's lines are tinted (its produce block lightly, the lines that produce,
/// realize or allocate it strongly, the loop of a selected IterVar in the accent colour), and
/// clicking a line selects the stage it belongs to and the IterVar of the loop it opens.
#pragma once

#include "analysis/Analysis.h"
#include "models/IrLines.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QPlainTextEdit;

namespace bs::gui {

class IrPanel : public QWidget {
    Q_OBJECT
public:
    explicit IrPanel(QWidget* parent = nullptr);

    void setAnalysis(const std::shared_ptr<const Analysis>& analysis);
    LowerPass pass() const;
    void setPass(LowerPass pass);
    /// Highlights the lines of `stage` (and of the loop over `iterVar`) and scrolls to them.
    /// Emits nothing.
    void showSelection(const QString& stage, const QString& iterVar = QString());

    /// The IR text shown.
    QString text() const;
    /// The 0-based lines drawn as belonging to the selection.
    QList<int> highlightedLines() const { return m_highlighted; }
    /// Acts as a click on 0-based `line` (selects its stage); false when it belongs to none.
    bool chooseLine(int line);
    QComboBox* passSelector() const { return m_passes; }
    QPlainTextEdit* textView() const { return m_text; }

Q_SIGNALS:
    /// The user clicked a line of `stage` (opening the loop over its IterVar `iterVar`).
    void lineChosen(const QString& stage, const QString& iterVar);

private:
    void refresh();
    void highlightSelection(bool scroll);

    std::shared_ptr<const Analysis> m_analysis;
    QString m_stage;
    QString m_iterVar;
    QList<IrLine> m_lines;
    QList<int> m_highlighted;
    bool m_updating = false;
    QComboBox* m_passes;
    QPlainTextEdit* m_text;
};

/// The IR of `analysis` after `pass`, in TVM's text form (empty when it was not lowered).
QString loweredIrText(const Analysis& analysis, LowerPass pass);

} // namespace bs::gui

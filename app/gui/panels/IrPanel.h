/// \file
/// The lowered IR after a chosen pass (schedule_ops, flatten, simplify, cse, final, and the passes
/// the script adds with tir.add_lower_pass, each where it runs), in TVM's text form with
/// highlighting, linked to the shared selection both ways (issue 7, item 3): the selected stage's
/// lines are tinted (its produce block lightly, the lines that produce, realize or allocate it
/// strongly, the loop of a selected IterVar in the accent colour), and clicking a line selects the
/// stage it belongs to and the IterVar of the loop it opens.
///
/// Each line knows the step of bound inference that produced it (issue 13, item 3): hovering a
/// number of a loop, thread extent, realize, guard or allocate line shows its derivation (the
/// step and the steps it reads, models/StepText.h), and clicking the number (or Ctrl+clicking
/// the line) asks for that step in the Step-through (stepChosen). The current step's lines are
/// drawn in the step colour, and the lines derived from it in a lighter one.
#pragma once

#include "analysis/Analysis.h"
#include "models/IrLines.h"
#include "views/IrView.h"

#include <QSet>
#include <QWidget>

#include <memory>

class QComboBox;

namespace bs::gui {

class IrPanel : public QWidget {
    Q_OBJECT
public:
    explicit IrPanel(QWidget* parent = nullptr);

    void setAnalysis(const std::shared_ptr<const Analysis>& analysis);
    /// The built-in pass chosen; final while a user pass is.
    LowerPass pass() const;
    void setPass(LowerPass pass);
    /// The name of the pass chosen: a built-in one's (`simplify`) or a user pass's.
    QString passName() const;
    /// The IR after the pass chosen, in TVM's text form (empty when nothing was lowered).
    QString loweredText() const;
    /// Highlights the lines of `stage` (and of the loop over `iterVar`) and scrolls to them.
    /// Emits nothing.
    void showSelection(const QString& stage, const QString& iterVar = QString());

    /// Draws the lines of step `id` (-1: none) and those of the steps in `derived` (the steps
    /// derived from it) in the step colours, and scrolls to the first. Emits nothing.
    void showStep(int id, const QSet<int>& derived = {});
    int shownStep() const { return m_step; }

    /// The IR text shown.
    QString text() const;
    /// The 0-based lines drawn as belonging to the selection or to the current step.
    QList<int> highlightedLines() const { return m_highlighted; }
    /// The 0-based lines the current step produced.
    QList<int> stepLines() const;
    /// The step that produced 0-based `line`; -1 when none did.
    int stepOfLine(int line) const;
    /// Acts as a click on 0-based `line` (selects its stage); false when it belongs to none.
    bool chooseLine(int line);
    QComboBox* passSelector() const { return m_passes; }
    IrView* textView() const { return m_text; }

Q_SIGNALS:
    /// The user clicked a line of `stage` (opening the loop over its IterVar `iterVar`).
    void lineChosen(const QString& stage, const QString& iterVar);
    /// The user clicked a number of a line made by step `id` (or Ctrl+clicked the line).
    void stepChosen(int id);

private:
    void refresh();
    /// The selector's entries: the built-in passes with the analysis's user passes among them
    /// where they run.
    void updatePassEntries();
    void highlightSelection(bool scroll);
    /// The background of `line` under the selection and the current step; invalid: none.
    QColor lineTint(const IrLine& line, int step) const;

    std::shared_ptr<const Analysis> m_analysis;
    QString m_stage;
    QString m_iterVar;
    QList<IrLine> m_lines;
    QList<int> m_highlighted;
    int m_step = -1;
    QSet<int> m_derived;
    bool m_updating = false;
    QComboBox* m_passes;
    IrView* m_text;
};

/// The IR of `analysis` after `pass`, in TVM's text form (empty when it was not lowered).
QString loweredIrText(const Analysis& analysis, LowerPass pass);

} // namespace bs::gui

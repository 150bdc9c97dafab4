/// \file
/// The lowered IR's text (issue 13, item 3: "where every number in the IR came from"): a
/// read-only code view that knows the step of bound inference behind each line that has one
/// (loops, thread extents, realizes, guards, allocates; ir/Printer.h, printWithSteps). Those
/// lines get a subtle marker in the gutter, the current step's lines a strong one; hovering a
/// number on such a line shows its derivation (from a provider the panel sets); clicking the
/// number, or Ctrl+clicking anywhere on the line, emits stepClicked.
#pragma once

#include <QPlainTextEdit>

#include <functional>

namespace bs::gui {

class TextGutter;

class IrView : public QPlainTextEdit {
    Q_OBJECT
public:
    /// The tooltip for a number of a line made by step `stepId` (rich text; empty: none).
    using Derivation = std::function<QString(int stepId)>;

    explicit IrView(QWidget* parent = nullptr);

    /// The step of each 0-based line (-1: none), as long as the text's line count.
    void setLineSteps(QList<int> steps);
    /// The step of 0-based `line`; -1 when it has none.
    int stepOfLine(int line) const { return m_lineSteps.value(line, -1); }
    /// Marks the lines of step `id` in the gutter (-1: none).
    void setCurrentStep(int id);
    void setDerivation(Derivation derivation) { m_derivation = std::move(derivation); }

    /// The step of the number under viewport point `pos`; -1 when `pos` is on no number of a
    /// line with a step.
    int stepOfNumberAt(const QPoint& pos) const;
    /// The tooltip at viewport point `pos`: the derivation of the number's step, else empty.
    QString toolTipAt(const QPoint& pos) const;
    /// The viewport point in the middle of the character at `column` of 0-based `line`.
    QPoint pointAt(int line, int column) const;

    int gutterWidth() const;

Q_SIGNALS:
    /// The user clicked a number of a line made by `stepId`, or Ctrl+clicked the line.
    void stepClicked(int stepId);

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    void paintGutter(QPaintEvent* event);
    /// The 0-based line at viewport point `pos`.
    int lineAt(const QPoint& pos) const;

    TextGutter* m_gutter;
    QList<int> m_lineSteps;
    int m_currentStep = -1;
    Derivation m_derivation;
};

} // namespace bs::gui

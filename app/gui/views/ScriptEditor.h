/// \file
/// The script editor: a QPlainTextEdit with line numbers, Python highlighting, the failing line
/// marked with its message (issue 7: "the failing line marked with the message"), and the line
/// that created the selected stage or IterVar highlighted (the shared selection, DESIGN.md).
#pragma once

#include <QPlainTextEdit>
#include <QPointer>
#include <QUndoStack>

namespace bs::gui {

class TextGutter;

class ScriptEditor : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit ScriptEditor(QWidget* parent = nullptr);

    /// Marks 1-based `line` as failing with `message`: a tinted line, a wavy underline, a marker
    /// in the gutter and the message after the line's text. Line 0 marks no line.
    void setProblem(int line, const QString& message);
    void clearProblem() { setProblem(0, QString()); }
    int problemLine() const { return m_problemLine; }
    const QString& problemMessage() const { return m_problemMessage; }

    /// Highlights 1-based `line` as the origin of the selection and scrolls it into view
    /// (without moving the cursor); 0 clears the highlight.
    void setLinkedLine(int line);
    int linkedLine() const { return m_linkedLine; }

    /// Undo and redo (keys and the context menu) go through `history`, the script's one
    /// history of typing and schedule edits, instead of the text document's own stack.
    void setHistory(QUndoStack* history) { m_history = history; }

    /// The width the line-number gutter needs for the current line count.
    int gutterWidth() const;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    /// Files dragged onto the editor are left to the main window, which opens them.
    void dragEnterEvent(QDragEnterEvent* event) override;
    /// Shows the problem's message as the tooltip of the failing line.
    bool viewportEvent(QEvent* event) override;

private:
    void paintGutter(QPaintEvent* event);
    void paintProblemMessage();
    void updateExtraSelections();
    /// The viewport rectangle of 1-based `line`, or an empty one when it is not visible.
    QRectF lineRect(int line) const;

    TextGutter* m_gutter;
    int m_problemLine = 0;
    QString m_problemMessage;
    int m_linkedLine = 0;
    QPointer<QUndoStack> m_history;
};

} // namespace bs::gui

/// \file
/// The app's table view. It says why it is empty: with no rows, its viewport shows a grey,
/// word-wrapped hint under the header ("An output stage has no consumers", "No runs yet"), so
/// an empty table never looks broken. And it keeps its text legible: the columns are fitted to
/// their text (the wide ones sharing the view's width, their text wrapping) and the rows to the
/// wrapped text, again after every resize, until the user sizes a column by hand. Right-clicking
/// a row about a stage or IterVar asks for that object's context menu (the schedule edits).
#pragma once

#include <QTableView>

namespace bs::gui {

class HintTableView : public QTableView {
    Q_OBJECT
public:
    explicit HintTableView(QWidget* parent = nullptr);

    /// The hint shown while the model has no rows (empty: none).
    void setEmptyText(const QString& text);
    const QString& emptyText() const { return m_emptyText; }
    /// Whether the hint is drawn now (the model is empty and there is a hint).
    bool isShowingEmptyText() const;

    /// Fits the columns and rows to new text, forgetting column widths the user chose (after a
    /// model reset). Deferred to the event loop, so many calls make one fit.
    void refit();
    /// Sizes the columns to their text: all of it when the view is wide enough, else the
    /// narrow columns whole and the wide ones sharing the rest equally (at least 90 pixels
    /// each). The last column stretches.
    void fitColumns();

Q_SIGNALS:
    /// The user right-clicked a row about `stage` (and its IterVar `iterVar`, when the row
    /// names one) at `globalPos`.
    void objectMenuRequested(const QString& stage, const QString& iterVar, const QPoint& globalPos);

protected:
    void paintEvent(QPaintEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    /// Fits the columns (unless the user sized one) and the rows, after the current event.
    void fitLater();
    void onSectionResized(int logicalIndex);

    QString m_emptyText;
    bool m_fitPending = false;
    bool m_fitting = false;
    bool m_userSizedColumns = false;
};

} // namespace bs::gui

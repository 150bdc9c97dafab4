/// \file
/// The strip left of a text view's lines (the script editor's line numbers, the IR view's step
/// markers): it follows the view's scrolling and size, and the view paints it.
#pragma once

#include <QWidget>

#include <functional>

class QPlainTextEdit;

namespace bs::gui {

class TextGutter : public QWidget {
public:
    /// A gutter on `view`, `width()` wide, painted by `paint` (a QPainter on this widget).
    TextGutter(QPlainTextEdit* view, std::function<int()> width,
               std::function<void(QPaintEvent*)> paint);

    QSize sizeHint() const override { return QSize(m_width(), 0); }
    /// Lays the gutter along the left of the view's contents: call from the view's resizeEvent.
    void place();

protected:
    void paintEvent(QPaintEvent* event) override { m_paint(event); }

private:
    /// Scrolls or repaints with the view's text (QPlainTextEdit::updateRequest).
    void follow(const QRect& rect, int dy);

    QPlainTextEdit* m_view;
    std::function<int()> m_width;
    std::function<void(QPaintEvent*)> m_paint;
};

} // namespace bs::gui

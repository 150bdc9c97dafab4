#include "views/TextGutter.h"

#include <QPlainTextEdit>

namespace bs::gui {

TextGutter::TextGutter(QPlainTextEdit* view, std::function<int()> width,
                       std::function<void(QPaintEvent*)> paint)
    : QWidget(view), m_view(view), m_width(std::move(width)), m_paint(std::move(paint)) {
    connect(view, &QPlainTextEdit::updateRequest, this, &TextGutter::follow);
}

void TextGutter::place() {
    const QRect area = m_view->contentsRect();
    setGeometry(QRect(area.left(), area.top(), m_width(), area.height()));
}

void TextGutter::follow(const QRect& rect, int dy) {
    if (dy != 0)
        scroll(0, dy);
    else
        update(0, rect.y(), width(), rect.height());
}

} // namespace bs::gui

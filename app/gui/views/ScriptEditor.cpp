#include "views/ScriptEditor.h"

#include "views/Highlighters.h"
#include "views/TextGutter.h"
#include "views/Theme.h"

#include <QContextMenuEvent>
#include <QDragEnterEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QMimeData>
#include <QPainter>
#include <QScrollBar>
#include <QTextBlock>
#include <QToolTip>
#include <QUndoStack>

namespace bs::gui {

namespace {
const QColor kProblemTint(0xfd, 0xe8, 0xe8);
const QColor kProblemInk(0xc6, 0x28, 0x28);
const QColor kLinkedTint(0xff, 0xf3, 0xc4);
const QColor kCurrentLineTint(0xf3, 0xf6, 0xfa);
const QColor kGutterBackground(0xf4, 0xf4, 0xf4);
const QColor kGutterInk(0x9a, 0x9a, 0x9a);
constexpr int kIndent = 4;
} // namespace

ScriptEditor::ScriptEditor(QWidget* parent)
    : QPlainTextEdit(parent), m_gutter(new TextGutter(
                                  this, [this] { return gutterWidth(); },
                                  [this](QPaintEvent* event) { paintGutter(event); })) {
    setFont(codeFont());
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabStopDistance(fontMetrics().horizontalAdvance(QLatin1Char(' ')) * kIndent);
    connect(this, &QPlainTextEdit::blockCountChanged, this,
            [this] { setViewportMargins(gutterWidth(), 0, 0, 0); });
    connect(this, &QPlainTextEdit::cursorPositionChanged, this,
            &ScriptEditor::updateExtraSelections);
    connect(theme::notifier(), &theme::Notifier::changed, this,
            &ScriptEditor::updateExtraSelections);
    setViewportMargins(gutterWidth(), 0, 0, 0);
    updateExtraSelections();
}

int ScriptEditor::gutterWidth() const {
    int digits = 2;
    for (int lines = qMax(1, blockCount()); lines >= 100; lines /= 10)
        ++digits;
    // Room for the digits and, left of them, the problem marker.
    return 18 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * digits;
}

void ScriptEditor::setProblem(int line, const QString& message) {
    m_problemLine = qMax(0, line);
    m_problemMessage = message;
    updateExtraSelections();
    m_gutter->update();
    viewport()->update();
}

void ScriptEditor::setLinkedLine(int line) {
    m_linkedLine = qMax(0, line);
    updateExtraSelections();
    if (m_linkedLine > 0 && lineRect(m_linkedLine).isEmpty()) {
        const int visibleLines = qMax(1, viewport()->height() / fontMetrics().height());
        verticalScrollBar()->setValue(qMax(0, m_linkedLine - 1 - visibleLines / 3));
    }
}

QRectF ScriptEditor::lineRect(int line) const {
    const QTextBlock block = document()->findBlockByNumber(line - 1);
    if (!block.isValid() || !block.isVisible())
        return QRectF();
    const QRectF rect = blockBoundingGeometry(block).translated(contentOffset());
    if (rect.bottom() < 0 || rect.top() > viewport()->height())
        return QRectF();
    return rect;
}

void ScriptEditor::updateExtraSelections() {
    QList<QTextEdit::ExtraSelection> selections;
    auto lineSelection = [this](int line, const QColor& tint) {
        QTextEdit::ExtraSelection s;
        s.format.setBackground(tint);
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        s.cursor = QTextCursor(document()->findBlockByNumber(line - 1));
        return s;
    };
    selections << lineSelection(textCursor().blockNumber() + 1, theme::tint(kCurrentLineTint));
    if (m_linkedLine > 0)
        selections << lineSelection(m_linkedLine, theme::tint(kLinkedTint));
    if (m_problemLine > 0 && m_problemLine <= blockCount()) {
        selections << lineSelection(m_problemLine, theme::tint(kProblemTint));
        QTextEdit::ExtraSelection underline;
        underline.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        underline.format.setUnderlineColor(theme::ink(kProblemInk));
        underline.cursor = QTextCursor(document()->findBlockByNumber(m_problemLine - 1));
        underline.cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        selections << underline;
    }
    setExtraSelections(selections);
}

void ScriptEditor::resizeEvent(QResizeEvent* event) {
    QPlainTextEdit::resizeEvent(event);
    m_gutter->place();
}

void ScriptEditor::paintGutter(QPaintEvent* event) {
    QPainter painter(m_gutter);
    painter.fillRect(event->rect(), theme::tint(kGutterBackground));
    painter.setFont(font());
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    const int lineHeight = fontMetrics().height();
    while (block.isValid() && top <= event->rect().bottom()) {
        const int line = block.blockNumber() + 1;
        if (block.isVisible() && top + lineHeight >= event->rect().top()) {
            const bool isProblem = line == m_problemLine;
            if (isProblem) {
                painter.setBrush(theme::ink(kProblemInk));
                painter.setPen(Qt::NoPen);
                painter.drawEllipse(QPointF(7, top + lineHeight / 2.0), 3.5, 3.5);
            }
            painter.setPen(theme::ink(isProblem ? kProblemInk : kGutterInk));
            painter.drawText(0, top, m_gutter->width() - 5, lineHeight, Qt::AlignRight,
                             QString::number(line));
        }
        top += qRound(blockBoundingRect(block).height());
        block = block.next();
    }
}

void ScriptEditor::paintEvent(QPaintEvent* event) {
    QPlainTextEdit::paintEvent(event);
    paintProblemMessage();
}

void ScriptEditor::paintProblemMessage() {
    if (m_problemLine <= 0 || m_problemMessage.isEmpty())
        return;
    const QRectF rect = lineRect(m_problemLine);
    if (rect.isEmpty())
        return;
    // After the line's own text, two spaces on; lines too long for it leave the message to the
    // banner and the tooltip.
    const QString text = document()->findBlockByNumber(m_problemLine - 1).text();
    const QFontMetrics metrics(font());
    const qreal x = contentOffset().x() + document()->documentMargin() +
                    metrics.horizontalAdvance(text) +
                    metrics.horizontalAdvance(QStringLiteral("    "));
    const qreal room = viewport()->width() - x - 4;
    if (room < metrics.horizontalAdvance(QStringLiteral("mmmmmmmmmm")))
        return;
    QPainter painter(viewport());
    QFont messageFont = font();
    messageFont.setItalic(true);
    painter.setFont(messageFont);
    painter.setPen(theme::ink(kProblemInk));
    const QString elided =
        QFontMetrics(messageFont).elidedText(m_problemMessage, Qt::ElideRight, int(room));
    painter.drawText(QRectF(x, rect.top(), room, rect.height()), Qt::AlignVCenter, elided);
}

void ScriptEditor::keyPressEvent(QKeyEvent* event) {
    // Ctrl++ / Ctrl+= and Ctrl+- zoom the text (a point at a time, 6 to 40 points).
    const bool zoomIn =
        event->matches(QKeySequence::ZoomIn) ||
        (event->key() == Qt::Key_Equal && event->modifiers() == Qt::ControlModifier);
    if (zoomIn || event->matches(QKeySequence::ZoomOut)) {
        const qreal size = font().pointSizeF();
        if (zoomIn && size < 40)
            this->zoomIn(1);
        else if (!zoomIn && size > 6)
            zoomOut(1);
        return;
    }
    if (m_history && (event->matches(QKeySequence::Undo) || event->matches(QKeySequence::Redo))) {
        if (!isReadOnly()) {
            if (event->matches(QKeySequence::Undo))
                m_history->undo();
            else
                m_history->redo();
        }
        return;
    }
    if (event->key() == Qt::Key_Tab && event->modifiers() == Qt::NoModifier) {
        textCursor().insertText(QString(kIndent, QLatin1Char(' ')));
        return;
    }
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        // Keep the indentation, one level more after a line that opens a block.
        const QString line = textCursor().block().text();
        int indent = 0;
        while (indent < line.size() && line[indent] == QLatin1Char(' '))
            ++indent;
        if (line.trimmed().endsWith(QLatin1Char(':')))
            indent += kIndent;
        textCursor().insertText(QLatin1Char('\n') + QString(indent, QLatin1Char(' ')));
        ensureCursorVisible();
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
}

void ScriptEditor::contextMenuEvent(QContextMenuEvent* event) {
    QMenu* menu = createStandardContextMenu(event->pos());
    if (m_history && !isReadOnly()) {
        // The text document's own Undo and Redo would step past the schedule edits.
        for (QAction* action : menu->actions()) {
            const QString name = action->objectName();
            if (name != QLatin1String("edit-undo") && name != QLatin1String("edit-redo"))
                continue;
            QAction* replacement = name == QLatin1String("edit-undo")
                                       ? m_history->createUndoAction(menu, tr("&Undo"))
                                       : m_history->createRedoAction(menu, tr("&Redo"));
            replacement->setShortcut(action->shortcut());
            menu->insertAction(action, replacement);
            menu->removeAction(action);
        }
    }
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(event->globalPos());
}

bool ScriptEditor::viewportEvent(QEvent* event) {
    if (event->type() != QEvent::ToolTip || m_problemLine <= 0)
        return QPlainTextEdit::viewportEvent(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const int line = cursorForPosition(help->pos()).blockNumber() + 1;
    if (line == m_problemLine && !m_problemMessage.isEmpty())
        QToolTip::showText(help->globalPos(), m_problemMessage, this);
    else
        QToolTip::hideText();
    return true;
}

void ScriptEditor::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) {
        event->ignore();
        return;
    }
    QPlainTextEdit::dragEnterEvent(event);
}

} // namespace bs::gui

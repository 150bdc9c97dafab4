#include "panels/EditorPanel.h"

#include "views/Highlighters.h"
#include "views/ScriptEditor.h"
#include "views/Theme.h"

#include <QFileInfo>
#include <QLabel>
#include <QVBoxLayout>

namespace bs::gui {

EditorPanel::EditorPanel(QTextDocument* document, QWidget* parent)
    : QWidget(parent), m_editor(new ScriptEditor(this)), m_banner(new QLabel(this)) {
    m_editor->setDocument(document);
    m_editor->setFont(codeFont());
    // File > New starts empty: say how to begin without typing Python.
    m_editor->setPlaceholderText(
        tr("An empty script. Type a TVM schedule here, open one from Examples, or build it "
           "from the Schedule menu: Add Placeholder…, Add Compute Stage…, Add Reduction…, then "
           "split, tile, compute_at and the other primitives, each a step you can undo."));
    m_highlighter = new PythonHighlighter(document);
    m_banner->setObjectName(QStringLiteral("problemBanner"));
    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto styleBanner = [this] {
        m_banner->setStyleSheet(
            QStringLiteral("QLabel#problemBanner { background: %1; color: %2; border-top: 1px "
                           "solid %3; padding: 6px 10px; }")
                .arg(theme::tint(QColor(0xfd, 0xec, 0xea)).name(),
                     theme::ink(QColor(0x8a, 0x1c, 0x1c)).name(),
                     theme::tint(QColor(0xf0, 0xb8, 0xb4)).name()));
    };
    styleBanner();
    connect(theme::notifier(), &theme::Notifier::changed, m_banner, styleBanner);
    m_banner->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_editor, 1);
    layout->addWidget(m_banner);
}

void EditorPanel::showProblem(const std::optional<Diagnostic>& problem, const QString& scriptName,
                              bool viewsAreStale) {
    if (!problem) {
        m_editor->clearProblem();
        m_banner->clear();
        m_banner->hide();
        return;
    }
    const QString message = QString::fromStdString(problem->message);
    const SourceLocation& where = problem->location;
    const QString file = QFileInfo(QString::fromStdString(where.file)).fileName();
    const bool inThisScript = where.known() && (file.isEmpty() || file == scriptName);
    const QString fix = QString::fromStdString(problem->fix);
    const QString explained = fix.isEmpty() ? message : tr("%1\nFix: %2").arg(message, fix);
    m_editor->setProblem(inThisScript ? where.line : 0, explained);
    QString text = inThisScript ? tr("Line %1: %2").arg(where.line).arg(explained) : explained;
    if (viewsAreStale)
        text += tr("\nThe views show the last successful analysis.");
    else if (!problem->subject.empty())
        text += tr("\nThe views show the program as built up to this line, what failed marked "
                   "in red.");
    m_banner->setText(text);
    m_banner->show();
}

void EditorPanel::setTcSource(bool isTc) {
    if (isTc == bool(qobject_cast<TcHighlighter*>(m_highlighter)))
        return;
    QTextDocument* document = m_highlighter->document();
    delete m_highlighter;
    if (isTc)
        m_highlighter = new TcHighlighter(document);
    else
        m_highlighter = new PythonHighlighter(document);
}

QString EditorPanel::bannerText() const {
    return m_banner->isHidden() ? QString() : m_banner->text();
}

} // namespace bs::gui

// The file, example and export actions of MainWindow: the only part of the window that shows
// dialogs. Unsaved changes are never dropped silently (issue 7, "Files").
#include "MainWindow.h"

#include "AppOptions.h"
#include "document/Autosave.h"
#include "document/ExampleCatalog.h"
#include "document/Exporter.h"
#include "document/RecentFiles.h"
#include "document/ScriptDocument.h"
#include "edit/ScheduleTools.h"
#include "models/GraphModels.h"
#include "models/StageQueries.h"
#include "panels/AllocationsPanel.h"
#include "panels/CodePanel.h"
#include "panels/EditorPanel.h"
#include "panels/GraphPanel.h"
#include "panels/IrPanel.h"
#include "views/GuideBrowser.h"
#include "views/IrView.h"
#include "views/ScriptEditor.h"
#include "viz/Report.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QStatusBar>
#include <QTextCursor>
#include <QTextDocument>
#include <QVBoxLayout>

#include <functional>

namespace bs::gui {

namespace {

/// A file name for an export: the script's name without `.py`, a suffix and an extension, in
/// the script's folder (or the current one for untitled scripts).
QString suggestedExportPath(const ScriptDocument& document, const QString& suffix) {
    const QString base = QFileInfo(document.scriptName()).completeBaseName() + suffix;
    const QString dir =
        document.filePath().isEmpty() ? QDir::currentPath() : QFileInfo(document.filePath()).path();
    return QDir(dir).filePath(base);
}

} // namespace

bool MainWindow::openFile(const QString& path, QString* errorMessage) {
    if (!m_document->openFile(path, errorMessage))
        return false;
    m_recentFiles->add(path);
    return true;
}

bool MainWindow::openExample(const QString& nameOrPath, QString* errorMessage) {
    QString path = QFileInfo(nameOrPath).isFile() ? nameOrPath : QString();
    if (path.isEmpty())
        path = findExample(examplesDirectory(), nameOrPath);
    if (path.isEmpty()) {
        *errorMessage = tr("no example named '%1' in '%2'").arg(nameOrPath, examplesDirectory());
        return false;
    }
    return m_document->openExample(path, errorMessage);
}

bool MainWindow::openDefaultExample(QString* errorMessage) {
    const QString path = defaultExample(examplesDirectory());
    if (path.isEmpty()) {
        *errorMessage = tr("no examples found (looked for resources/examples)");
        return false;
    }
    return m_document->openExample(path, errorMessage);
}

void MainWindow::newScript() {
    if (maybeSave())
        m_document->setUntitled(QString(), QStringLiteral("untitled.py"));
}

void MainWindow::openWithDialog() {
    if (!maybeSave())
        return;
    const QString dir = m_document->filePath().isEmpty() ? examplesDirectory()
                                                         : QFileInfo(m_document->filePath()).path();
    const QString path = m_dialogs.openFile(tr("Open Script"), dir,
                                            tr("Scripts (*.py *.tc);;Python scripts (*.py);;"
                                               "Tensor Comprehensions (*.tc);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !openFile(path, &error))
        reportError(tr("Open Script"), error);
}

void MainWindow::openRecent(const QString& path) {
    if (!maybeSave())
        return;
    QString error;
    if (openFile(path, &error))
        return;
    m_recentFiles->remove(path);
    reportError(tr("Open Recent"), error);
}

bool MainWindow::save() {
    if (m_document->filePath().isEmpty())
        return saveAsWithDialog();
    QString error;
    if (!m_document->saveAs(m_document->filePath(), &error)) {
        reportError(tr("Save"), error);
        return false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(m_document->filePath()), 4000);
    return true;
}

bool MainWindow::saveAsWithDialog() {
    const bool isTc = m_document->isTcSource();
    const QString suggested =
        suggestedExportPath(*m_document, isTc ? QStringLiteral(".tc") : QStringLiteral(".py"));
    const QString path =
        m_dialogs.saveFile(tr("Save Script As"), suggested,
                           isTc ? tr("Tensor Comprehensions (*.tc)") : tr("Python scripts (*.py)"));
    if (path.isEmpty())
        return false;
    QString error;
    if (!m_document->saveAs(path, &error)) {
        reportError(tr("Save As"), error);
        return false;
    }
    m_recentFiles->add(path);
    statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
    return true;
}

bool MainWindow::maybeSave() {
    if (!m_document->isModified())
        return true;
    switch (m_dialogs.askUnsaved(m_document->scriptName())) {
    case Dialogs::Unsaved::Save:
        return save();
    case Dialogs::Unsaved::Discard:
        return true;
    case Dialogs::Unsaved::Cancel:
        break;
    }
    return false;
}

void MainWindow::populateExamplesMenu() {
    m_examplesMenu->clear();
    const QList<ExampleInfo> examples = listExamples(examplesDirectory());
    if (examples.isEmpty()) {
        m_examplesMenu->addAction(tr("(no examples found)"))->setEnabled(false);
        return;
    }
    for (const ExampleInfo& example : examples) {
        QAction* action = m_examplesMenu->addAction(example.name);
        action->setToolTip(example.summary);
        action->setStatusTip(example.summary);
        connect(action, &QAction::triggered, this, [this, path = example.path] {
            QString error;
            if (maybeSave() && !m_document->openExample(path, &error))
                reportError(tr("Open Example"), error);
        });
    }
}

void MainWindow::populateRecentMenu() {
    m_recentMenu->clear();
    for (const QString& path : m_recentFiles->files()) {
        QAction* action = m_recentMenu->addAction(QFileInfo(path).fileName());
        action->setToolTip(path);
        connect(action, &QAction::triggered, this, [this, path] { openRecent(path); });
    }
    if (m_recentFiles->files().isEmpty()) {
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
        return;
    }
    m_recentMenu->addSeparator();
    connect(m_recentMenu->addAction(tr("Clear List")), &QAction::triggered, m_recentFiles,
            &RecentFiles::clear);
}

void MainWindow::exportIr() {
    if (!m_document->analysis())
        return reportError(tr("Export Lowered IR"), tr("there is no analysis to export yet"));
    const QString pass = m_ir->passName();
    const QString path = m_dialogs.saveFile(
        tr("Export Lowered IR"),
        suggestedExportPath(*m_document, QLatin1Char('-') + pass + QStringLiteral(".txt")),
        tr("Text files (*.txt);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !writeFileAtomically(path, m_ir->loweredText().toUtf8(), &error))
        reportError(tr("Export Lowered IR"), error);
}

void MainWindow::exportCode() {
    const GeneratedCode& code = m_code->code();
    if (code.language.isEmpty())
        return reportError(tr("Export Generated Code"),
                           tr("there is no generated code to export: %1").arg(code.message));
    const QString path =
        m_dialogs.saveFile(tr("Export %1").arg(code.language),
                           suggestedExportPath(*m_document, QLatin1Char('.') + code.suffix),
                           tr("%1 (*.%2);;All files (*)").arg(code.language, code.suffix));
    QString error;
    if (!path.isEmpty() && !writeFileAtomically(path, code.text.toUtf8(), &error))
        reportError(tr("Export Generated Code"), error);
}

void MainWindow::exportTrace() {
    if (!m_document->analysis() || !m_document->analysis()->lowered)
        return reportError(tr("Export Bounds Trace"),
                           tr("there is no bounds trace to export: the schedule was not analysed"));
    const QString path = m_dialogs.saveFile(
        tr("Export Bounds Trace"), suggestedExportPath(*m_document, QStringLiteral("-trace.json")),
        tr("JSON files (*.json)"));
    const std::string json = m_document->analysis()->lowered->bounds.trace.toJson();
    QString error;
    if (!path.isEmpty() && !writeFileAtomically(path, QByteArray::fromStdString(json), &error))
        reportError(tr("Export Bounds Trace"), error);
}

bool MainWindow::exportReport(const QString& path, QString* error) {
    const auto& analysis = m_document->analysis();
    if (!analysis || !analysis->lowered) {
        *error = tr("there is no analysis to report: the schedule was not analysed");
        return false;
    }
    viz::ReportInput input;
    input.title = m_document->scriptName().toStdString();
    input.script = m_document->textDocument()->toPlainText().toStdString();
    input.analysis = analysis.get();
    input.allocations = m_scheduleTools ? m_scheduleTools->allocations()->report() : nullptr;
    return writeFileAtomically(path, QByteArray::fromStdString(viz::reportHtml(input)), error);
}

void MainWindow::exportReportFile() {
    const QString path = m_dialogs.saveFile(
        tr("Export Report"), suggestedExportPath(*m_document, QStringLiteral(".html")),
        tr("HTML files (*.html);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !exportReport(path, &error))
        reportError(tr("Export Report"), error);
}

void MainWindow::exportGraph(GraphPanel* panel) {
    const QString kind = QString::fromLatin1(viz::graphKindName(panel->kind()));
    const QString path = m_dialogs.saveFile(
        tr("Export %1").arg(graphKindTitle(panel->kind())),
        suggestedExportPath(*m_document, QLatin1Char('-') + kind + QStringLiteral(".png")),
        tr("PNG image (*.png);;SVG image (*.svg);;Graphviz DOT (*.dot)"));
    QString error;
    if (!path.isEmpty() && !panel->exportTo(path, &error))
        reportError(tr("Export %1").arg(graphKindTitle(panel->kind())), error);
}

bool MainWindow::offerRecovery() {
    if (!m_autosave)
        return false;
    const std::optional<RecoveredScript> found = m_autosave->findRecoverable();
    if (!found)
        return false;
    const bool recover = m_dialogs.askYesNo(
        tr("Recover Unsaved Changes"),
        tr("Boundscope ended without saving the changes to %1 (autosaved %2). Recover them? "
           "(No discards them.)")
            .arg(found->scriptName, QLocale().toString(found->savedAt, QLocale::ShortFormat)));
    if (!recover) {
        m_autosave->discardRecoverable(*found);
        return false;
    }
    m_document->recover(found->text, found->filePath, found->scriptName);
    m_autosave->discardRecoverable(*found);
    statusBar()->showMessage(tr("Recovered the unsaved changes to %1").arg(found->scriptName),
                             8000);
    return true;
}

namespace {

/// The file name extensions of the scripts the app opens: Python, Tensor Comprehensions.
const QStringList& scriptSuffixes() {
    static const QStringList suffixes = {QStringLiteral("py"), QStringLiteral("tc")};
    return suffixes;
}

/// The local script files a drag carries (an image or a folder is no script: refused).
QStringList droppedScripts(const QMimeData* mime) {
    QStringList paths;
    for (const QUrl& url : mime->urls()) {
        const QFileInfo file(url.toLocalFile());
        if (url.isLocalFile() && file.isFile() &&
            scriptSuffixes().contains(file.suffix(), Qt::CaseInsensitive))
            paths << url.toLocalFile();
    }
    return paths;
}

} // namespace

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (!droppedScripts(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QStringList paths = droppedScripts(event->mimeData());
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    QString error;
    if (maybeSave() && !openFile(paths.first(), &error))
        reportError(tr("Open Script"), error);
}

void MainWindow::showAbout() {
    QMessageBox::about(this, tr("About Boundscope"),
                       tr("<b>Boundscope %1</b><p>An interactive explorer of tensor-expression "
                          "schedules: edit a TVM-style schedule and see how InferBound derives "
                          "every loop extent and buffer, and the lowered IR.</p>")
                           .arg(QStringLiteral(BOUNDSCOPE_VERSION)));
}

namespace {

/// Selects the next occurrence of `text` in `edit` after its cursor, wrapping around; the line
/// (1-based) found, or 0.
int findInText(QPlainTextEdit* edit, const QString& text) {
    if (!edit->find(text)) {
        QTextCursor start = edit->textCursor();
        start.movePosition(QTextCursor::Start);
        edit->setTextCursor(start);
        if (!edit->find(text))
            return 0;
    }
    edit->ensureCursorVisible();
    return edit->textCursor().blockNumber() + 1;
}

} // namespace

QString MainWindow::findText(const QString& text) {
    m_findText = text;
    QStringList found;
    std::function<void()> select;
    // A stage, or an IterVar (the selected stage's first, then any stage's).
    const auto& analysis = m_document->analysis();
    if (analysis && analysis->program.defined()) {
        const Schedule& sch = scheduleShown(*analysis);
        const QString current = selection()->stage();
        QString stageFound, loopStage;
        for (const Stage& stage : sch.stages()) {
            const QString name = QString::fromStdString(stage.name());
            if (name == text)
                stageFound = name;
            std::vector<IterVar> loops = stage->op->rootIterVars();
            loops.insert(loops.end(), stage->leafIterVars.begin(), stage->leafIterVars.end());
            for (const IterVar& iv : loops) {
                if (QString::fromStdString(iv->var.name()) == text &&
                    (loopStage.isEmpty() || name == current))
                    loopStage = name;
            }
        }
        if (!stageFound.isEmpty()) {
            select = [this, stageFound] { selection()->select(stageFound); };
            found << tr("stage %1").arg(stageFound);
        } else if (!loopStage.isEmpty()) {
            select = [this, loopStage, text] { selection()->select(loopStage, text); };
            found << tr("IterVar %1 of %2").arg(text, loopStage);
        }
    }
    if (const int line = findInText(m_editorPanel->editor(), text))
        found << tr("script line %1").arg(line);
    if (const int line = findInText(m_ir->textView(), text))
        found << tr("IR line %1").arg(line);
    // Last: moving the text cursors selects the stage of their line.
    if (select)
        select();
    return found.isEmpty() ? QString()
                           : tr("Found '%1': %2").arg(text, found.join(QStringLiteral(", ")));
}

QString MainWindow::shortcutsHtml() const {
    QString html = QStringLiteral("<table cellspacing=6>");
    const auto row = [&html](const QString& keys, const QString& what) {
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                    .arg(keys.toHtmlEscaped(), what.toHtmlEscaped());
    };
    for (QAction* menuAction : menuBar()->actions()) {
        QMenu* menu = menuAction->menu();
        if (!menu)
            continue;
        QString rows;
        for (QAction* action : menu->actions()) {
            if (action->shortcut().isEmpty())
                continue;
            QString text = action->text();
            text.remove(QLatin1Char('&'));
            rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                        .arg(action->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped(),
                             text.toHtmlEscaped());
        }
        if (rows.isEmpty())
            continue;
        QString title = menuAction->text();
        title.remove(QLatin1Char('&'));
        html += QStringLiteral("<tr><td colspan=2><i>%1</i></td></tr>").arg(title) + rows;
    }
    html += QStringLiteral("<tr><td colspan=2><i>%1</i></td></tr>").arg(tr("In the views"));
    row(tr("Arrow keys"), tr("in a graph: select the nearest node that way"));
    row(tr("Wheel, drag"), tr("in a graph: zoom around the pointer, pan"));
    row(tr("Right-click"), tr("on a stage or loop in a graph or a table row: its schedule "
                              "edits, illegal ones disabled with the reason"));
    row(tr("Drag a stage"), tr("in the Attach Tree: onto a loop of another stage to compute it "
                               "there, onto ROOT to compute it at the root"));
    row(tr("Drag a loop"), tr("in the Attach Tree or the IterVar graph: onto another loop of its "
                              "stage to move it there (reorder)"));
    row(tr("Ctrl++, Ctrl+-"), tr("in the script editor: larger or smaller text"));
    row(tr("Ctrl+Z, Ctrl+Y"), tr("in the script editor too: one history of typing and edits"));
    return html + QStringLiteral("</table>");
}

void MainWindow::showShortcuts() {
    QMessageBox box(this);
    box.setWindowTitle(tr("Keyboard Shortcuts"));
    box.setTextFormat(Qt::RichText);
    box.setText(shortcutsHtml());
    box.exec();
}

void MainWindow::showGuide() {
    if (!m_guide) {
        m_guide = new QWidget(this, Qt::Window);
        m_guide->setWindowTitle(tr("Boundscope Guide"));
        m_guide->setObjectName(QStringLiteral("guideWindow"));
        m_guideBrowser = new GuideBrowser(m_guide);
        auto* layout = new QVBoxLayout(m_guide);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(m_guideBrowser);
        m_guide->resize(720, 820);
        QString error;
        if (!m_guideBrowser->load(guideFile(), &error))
            m_guideBrowser->setPlainText(error);
        connect(m_guideBrowser, &GuideBrowser::exampleRequested, this, [this](const QString& name) {
            QString error;
            if (maybeSave() && !openExample(name, &error))
                reportError(tr("Open Example"), error);
        });
        connect(m_guideBrowser, &GuideBrowser::dockRequested, this, [this](const QString& name) {
            if (QDockWidget* target = dock(dockObjectName(name))) {
                target->show();
                target->raise();
            }
        });
    }
    m_guide->show();
    m_guide->raise();
}

void MainWindow::reportError(const QString& title, const QString& message) {
    statusBar()->showMessage(message, 8000);
    m_dialogs.showError(title, message);
}

} // namespace bs::gui

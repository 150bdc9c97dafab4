#include "edit/ScheduleTools.h"

#include "MainWindow.h"
#include "document/ScriptDocument.h"
#include "edit/EditActions.h"
#include "edit/ScheduleEditor.h"
#include "panels/AllocationsPanel.h"
#include "panels/AnimationPanel.h"
#include "panels/ComparePanel.h"
#include "panels/EditorPanel.h"
#include "panels/GraphPanel.h"
#include "panels/HeatmapPanel.h"
#include "panels/RunPanel.h"
#include "steps/StepTools.h"
#include "views/HintTableView.h"
#include "views/ScriptEditor.h"

#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>

namespace bs::gui {

namespace {
/// How long an edit's message stays in the status bar.
constexpr int kMessageMs = 6000;
} // namespace

ScheduleTools::ScheduleTools(MainWindow* window)
    : QObject(window), m_window(window), m_editor(new ScheduleEditor(window->document(), this)),
      m_actions(new EditActions(m_editor, window)) {
    m_menu = m_actions->createMenu(window);
    QMenu* view = window->viewMenu();
    if (view)
        window->menuBar()->insertMenu(view->menuAction(), m_menu);
    else
        window->menuBar()->addMenu(m_menu);
    createDocks();
    wire();
}

void ScheduleTools::createDocks() {
    m_allocations = new AllocationsPanel(m_window);
    m_run = new RunPanel(m_window);
    // Beside the lowered IR under the editor, where there is room for their tables.
    QDockWidget* ir = m_window->dock(QStringLiteral("loweredIrDock"));
    QDockWidget* allocations =
        m_window->addDock(m_allocations, tr("Allocations"), QStringLiteral("allocationsDock"),
                          Qt::BottomDockWidgetArea, ir);
    m_window->addDock(m_run, tr("Run"), QStringLiteral("runDock"), Qt::BottomDockWidgetArea,
                      allocations);
    m_heatmap = new HeatmapPanel(m_window);
    m_window->addDock(m_heatmap, tr("Heatmap"), QStringLiteral("heatmapDock"),
                      Qt::BottomDockWidgetArea, allocations);
    m_animation = new AnimationPanel(m_window);
    m_window->addDock(m_animation, tr("Loop Nest"), QStringLiteral("loopNestDock"),
                      Qt::BottomDockWidgetArea, allocations);
    m_compare = new ComparePanel(m_window);
    QDockWidget* compare =
        m_window->addDock(m_compare, tr("Compare"), QStringLiteral("compareDock"),
                          Qt::BottomDockWidgetArea, allocations);
    connect(compare, &QDockWidget::visibilityChanged, m_compare, &ComparePanel::setInSight);
    if (ir)
        ir->raise();
}

void ScheduleTools::wire() {
    ScriptDocument* document = m_window->document();
    StageSelection* selection = document->selection();
    connect(document, &ScriptDocument::analysisChanged, this, &ScheduleTools::onAnalysisChanged);
    // Another file's history is not this one's: Compare starts afresh.
    connect(document, &ScriptDocument::textReplaced, m_compare, &ComparePanel::clearHistory);
    connect(document, &ScriptDocument::fileChanged, this,
            [this, document] { m_run->setScriptName(document->scriptName()); });
    connect(selection, &StageSelection::changed, this, [this, selection] {
        m_allocations->showStage(selection->stage());
        m_heatmap->showStage(selection->stage());
    });
    connect(m_heatmap, &HeatmapPanel::stepRequested, this, [this](int id) {
        m_window->stepTools()->goToStep(id);
        if (QDockWidget* steps = m_window->dock(QStringLiteral("stepThroughDock")))
            steps->raise();
    });
    connect(m_allocations, &AllocationsPanel::stageChosen, selection,
            [selection](const QString& stage) { selection->select(stage); });
    connect(m_editor, &ScheduleEditor::edited, this,
            [this](const QString& what) { showMessage(tr("Edit: %1").arg(what)); });
    connect(m_editor, &ScheduleEditor::refused, this,
            [this](const QString& why) { showMessage(tr("Cannot edit: %1").arg(why)); });
    // The check runs the edited script: say what is happening until it ends.
    connect(m_editor, &ScheduleEditor::checkingChanged, this,
            [this](bool checking, const QString& what) {
                if (checking)
                    m_window->statusBar()->showMessage(tr("Checking the edit: %1…").arg(what));
            });
    connect(m_editor, &ScheduleEditor::pickingChanged, this, [this, selection](bool picking) {
        if (picking)
            m_window->statusBar()->showMessage(
                tr("compute_at %1: click the loop to compute it at (Esc cancels)")
                    .arg(selection->stage()));
        else
            m_window->statusBar()->clearMessage();
    });
    m_run->setScriptName(document->scriptName());
    m_window->editorPanel()->editor()->setHistory(m_editor->undoStack());
    // What Compare finds changed is marked in every graph.
    for (GraphPanel* graph : m_window->graphPanels())
        connect(m_compare, &ComparePanel::changesFound, graph, &GraphPanel::showChanges);
    // Right-clicking a stage or loop in a graph offers its edits, each checked.
    for (GraphPanel* graph : m_window->graphPanels())
        connect(graph, &GraphPanel::contextMenuRequested, m_actions,
                &EditActions::popupContextMenu);
    // Right-clicking a table row about a stage or loop offers its edits too.
    for (HintTableView* table : m_window->findChildren<HintTableView*>())
        connect(table, &HintTableView::objectMenuRequested, this,
                [this, selection](const QString& stage, const QString& iterVar,
                                  const QPoint& globalPos) {
                    selection->select(stage, iterVar);
                    m_actions->popupContextMenu(globalPos);
                });
    // Dragging edits where the loops are drawn: compute_at/compute_root in the attach tree,
    // reorder there and in the IterVar graph.
    for (GraphPanel* graph : {m_window->attachTree(), m_window->iterVarGraph()}) {
        graph->setDropHandler([this](const GraphDrop& drop) { return m_actions->judgeDrop(drop); });
        connect(graph, &GraphPanel::dropRequested, m_actions, &EditActions::drop);
        connect(graph, &GraphPanel::dragFeedback, this, [this](const QString& text) {
            if (text.isEmpty())
                m_window->statusBar()->clearMessage();
            else
                m_window->statusBar()->showMessage(text);
        });
    }
}

void ScheduleTools::onAnalysisChanged() {
    const auto& analysis = m_window->document()->analysis();
    m_allocations->setAnalysis(analysis);
    m_run->setAnalysis(analysis);
    m_heatmap->setAnalysis(analysis);
    m_animation->setAnalysis(analysis);
    m_compare->setAnalysis(analysis);
}

void ScheduleTools::showMessage(const QString& text) {
    m_window->statusBar()->showMessage(text, kMessageMs);
}

} // namespace bs::gui

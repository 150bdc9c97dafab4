#include "MainWindow.h"

#include "document/Autosave.h"
#include "document/RecentFiles.h"
#include "document/ScriptDocument.h"
#include "edit/ScheduleTools.h"
#include "models/EngineText.h"
#include "models/StageQueries.h"
#include "panels/BoundsPanel.h"
#include "panels/CodePanel.h"
#include "panels/EditorPanel.h"
#include "panels/GraphPanel.h"
#include "panels/InspectorPanel.h"
#include "panels/IrPanel.h"
#include "panels/OutputPanel.h"
#include "panels/TcRangesPanel.h"
#include "steps/StepTools.h"
#include "views/GraphView.h"
#include "views/ScriptEditor.h"
#include "views/Theme.h"

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>
#include <QTabBar>
#include <QToolBar>

namespace bs::gui {

namespace {
const char* const kGeometryKey = "mainWindow/geometry";
const char* const kStateKey = "mainWindow/state";
const char* const kRulesKey = "analysis/rules";
const char* const kDarkThemeKey = "view/darkTheme";
// Bump when the docks change, so an old saved layout is not applied to new docks.
constexpr int kLayoutVersion = 4;
} // namespace

MainWindow::MainWindow(Options options, QWidget* parent)
    : QMainWindow(parent), m_document(new ScriptDocument(this)),
      m_recentFiles(new RecentFiles(this)), m_dialogs(Dialogs::modal(this)) {
    setObjectName(QStringLiteral("mainWindow"));
    setAcceptDrops(true);
    createActions();
    createMenus();
    createToolBar();
    createPanels();
    wireDocument();
    wireSelection();
    m_scheduleTools = new ScheduleTools(this);
    m_stepTools = new StepTools(this);
    resize(1500, 950);
    sizeDocks();
    if (options.restoreLayout)
        restoreLayout();
    if (options.autosave)
        m_autosave = new Autosave(m_document, this);
    updateTitle();
}

MainWindow::~MainWindow() = default;

bool MainWindow::event(QEvent* event) {
    if (event->type() == QEvent::ChildPolished) {
        // QMainWindow makes a tab bar for each group of tabbed docks, as its own child.
        if (auto* bar = qobject_cast<QTabBar*>(static_cast<QChildEvent*>(event)->child())) {
            bar->setElideMode(Qt::ElideNone);
            bar->setUsesScrollButtons(true);
        }
    }
    return QMainWindow::event(event);
}

StageSelection* MainWindow::selection() const { return m_document->selection(); }

QList<GraphPanel*> MainWindow::graphPanels() const {
    return {m_dag, m_iterVars, m_attachTree, m_requests};
}

void MainWindow::createPanels() {
    m_editorPanel = new EditorPanel(m_document->textDocument(), this);
    setCentralWidget(m_editorPanel);
    m_dag = new GraphPanel(viz::GraphKind::StageDag, this);
    m_iterVars = new GraphPanel(viz::GraphKind::IterVarRelations, this);
    m_attachTree = new GraphPanel(viz::GraphKind::AttachTree, this);
    m_requests = new GraphPanel(viz::GraphKind::ConsumerRequests, this);
    m_inspector = new InspectorPanel(this);
    m_bounds = new BoundsPanel(this);
    m_ir = new IrPanel(this);
    m_code = new CodePanel(this);
    m_tcRanges = new TcRangesPanel(this);
    m_output = new OutputPanel(this);

    // The right-hand docks take the full height; the bottom ones sit under the editor.
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    setDockNestingEnabled(true);
    // The inspector is split off below the DAG before the other graphs join the DAG's tabs
    // (splitting a tabbed dock would tab the new one too).
    QDockWidget* dag =
        addDock(m_dag, tr("Stage DAG"), QStringLiteral("stageDagDock"), Qt::RightDockWidgetArea);
    QDockWidget* inspector = addDock(m_inspector, tr("InferBound Inspector"),
                                     QStringLiteral("inspectorDock"), Qt::RightDockWidgetArea);
    splitDockWidget(dag, inspector, Qt::Vertical);
    addDock(m_iterVars, tr("IterVar Relations"), QStringLiteral("iterVarDock"),
            Qt::RightDockWidgetArea, dag);
    addDock(m_attachTree, tr("Attach Tree"), QStringLiteral("attachTreeDock"),
            Qt::RightDockWidgetArea, dag);
    addDock(m_requests, tr("Requests Graph"), QStringLiteral("requestsGraphDock"),
            Qt::RightDockWidgetArea, dag);
    QDockWidget* ir =
        addDock(m_ir, tr("Lowered IR"), QStringLiteral("loweredIrDock"), Qt::BottomDockWidgetArea);
    addDock(m_code, tr("Generated Code"), QStringLiteral("generatedCodeDock"),
            Qt::BottomDockWidgetArea, ir);
    addDock(m_bounds, tr("Bounds"), QStringLiteral("boundsDock"), Qt::BottomDockWidgetArea, ir);
    addDock(m_tcRanges, tr("TC Ranges"), QStringLiteral("tcRangesDock"), Qt::BottomDockWidgetArea,
            ir);
    addDock(m_output, tr("Output"), QStringLiteral("outputDock"), Qt::BottomDockWidgetArea, ir);
    dag->raise();
    ir->raise();
}

/// The docks' first sizes: the graphs and the inspector take the right-hand side, the IR a third
/// of the height under the editor. Applied once every dock exists (the tools' docks join the
/// tab groups, which resets their sizes).
void MainWindow::sizeDocks() {
    QDockWidget* dag = dock(QStringLiteral("stageDagDock"));
    QDockWidget* inspector = dock(QStringLiteral("inspectorDock"));
    QDockWidget* ir = dock(QStringLiteral("loweredIrDock"));
    resizeDocks({dag, inspector}, {400, 530}, Qt::Vertical);
    resizeDocks({dag}, {860}, Qt::Horizontal);
    resizeDocks({ir}, {360}, Qt::Vertical);
}

QDockWidget* MainWindow::addDock(QWidget* content, const QString& title, const QString& objectName,
                                 Qt::DockWidgetArea area, QDockWidget* tabifyWith) {
    auto* dock = new QDockWidget(title, this);
    // saveState/restoreState find docks by objectName; without one they silently fail.
    dock->setObjectName(objectName);
    dock->setProperty("baseTitle", title);
    dock->setWidget(content);
    addDockWidget(area, dock);
    if (tabifyWith)
        tabifyDockWidget(tabifyWith, dock);
    m_docks << dock;
    if (m_viewMenu)
        m_viewMenu->insertAction(m_viewMenu->actions().value(m_docks.size() - 1),
                                 dock->toggleViewAction());
    return dock;
}

void MainWindow::setViewsOutOfDate(bool outOfDate) {
    if (outOfDate == m_viewsOutOfDate)
        return;
    m_viewsOutOfDate = outOfDate;
    for (QDockWidget* d : m_docks) {
        const QString base = d->property("baseTitle").toString();
        // The Output dock shows the latest run's output, not an analysis.
        if (base.isEmpty() || d->objectName() == QLatin1String("outputDock"))
            continue;
        d->setWindowTitle(outOfDate ? tr("%1 (out of date: analysing the edit…)").arg(base) : base);
    }
}

QDockWidget* MainWindow::dock(const QString& objectName) const {
    for (QDockWidget* d : m_docks) {
        if (d->objectName() == objectName)
            return d;
    }
    return nullptr;
}

void MainWindow::createActions() {
    auto make = [this](const QString& text, const QKeySequence& key, auto slot) {
        auto* action = new QAction(text, this);
        action->setShortcut(key);
        connect(action, &QAction::triggered, this, slot);
        return action;
    };
    m_newAction = make(tr("&New"), QKeySequence::New, &MainWindow::newScript);
    m_openAction = make(tr("&Open…"), QKeySequence::Open, &MainWindow::openWithDialog);
    m_saveAction = make(tr("&Save"), QKeySequence::Save, &MainWindow::save);
    m_saveAsAction = make(tr("Save &As…"), QKeySequence::SaveAs, &MainWindow::saveAsWithDialog);
    m_quitAction = make(tr("&Quit"), QKeySequence::Quit, &QWidget::close);
    // Named, so the tests find them with findChild.
    m_newAction->setObjectName(QStringLiteral("newAction"));
    m_openAction->setObjectName(QStringLiteral("openAction"));
    m_saveAction->setObjectName(QStringLiteral("saveAction"));
    m_saveAsAction->setObjectName(QStringLiteral("saveAsAction"));
    m_runAction =
        make(tr("&Analyse Now"), QKeySequence(Qt::Key_F5), [this] { m_document->reanalyse(); });
    m_stopAction = make(tr("&Stop Script"), QKeySequence(Qt::SHIFT | Qt::Key_F5),
                        [this] { m_document->stop(); });
    m_stopAction->setToolTip(tr("Interrupt a script that runs too long (Shift+F5)"));
    m_stopAction->setEnabled(false);
    m_trivialLoopsAction = make(tr("&Keep Trivial Loops"), QKeySequence(),
                                [this](bool on) { m_document->setKeepTrivialLoops(on); });
    m_trivialLoopsAction->setCheckable(true);
    m_fitAction = make(tr("&Fit Graphs"), QKeySequence(Qt::CTRL | Qt::Key_0), [this] {
        for (GraphPanel* panel : graphPanels())
            panel->view()->fitGraph();
    });
    m_findAction = make(tr("&Find…"), QKeySequence::Find, [this] {
        bool ok = false;
        const QString text = QInputDialog::getText(
            this, tr("Find"), tr("Stage, IterVar, or text of the script and IR:"),
            QLineEdit::Normal, m_findText, &ok);
        if (ok && !text.isEmpty()) {
            const QString found = findText(text);
            statusBar()->showMessage(found.isEmpty() ? tr("'%1' not found").arg(text) : found,
                                     8000);
        }
    });
    m_findNextAction = make(tr("Find &Next"), QKeySequence::FindNext, [this] {
        if (m_findText.isEmpty())
            return;
        const QString found = findText(m_findText);
        statusBar()->showMessage(found.isEmpty() ? tr("'%1' not found").arg(m_findText) : found,
                                 8000);
    });
    m_darkAction = make(tr("&Dark Theme"), QKeySequence(), [this](bool on) { setDarkTheme(on); });
    m_darkAction->setCheckable(true);
    m_darkAction->setChecked(theme::isDark());
    // What caches colours in HTML is written again (the highlighters and views follow alone).
    connect(theme::notifier(), &theme::Notifier::changed, this, [this] {
        m_darkAction->setChecked(theme::isDark());
        m_inspector->setAnalysis(m_document->analysis());
    });
    m_aboutAction = make(tr("&About Boundscope"), QKeySequence(), &MainWindow::showAbout);
    m_guideAction = make(tr("&Guide"), QKeySequence(), &MainWindow::showGuide);
    m_shortcutsAction =
        make(tr("&Keyboard Shortcuts"), QKeySequence(Qt::Key_F1), &MainWindow::showShortcuts);
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addActions({m_newAction, m_openAction});
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::populateRecentMenu);
    file->addSeparator();
    file->addActions({m_saveAction, m_saveAsAction});
    m_exportMenu = file->addMenu(tr("&Export"));
    m_exportMenu->addAction(tr("Lowered &IR…"), this, &MainWindow::exportIr);
    m_exportMenu->addAction(tr("Generated &Code…"), this, &MainWindow::exportCode);
    m_exportMenu->addAction(tr("Bounds &Trace (JSON)…"), this, &MainWindow::exportTrace);
    m_exportMenu->addAction(tr("&Report (HTML)…"), this, &MainWindow::exportReportFile);
    m_exportMenu->addSeparator();
    const QList<QPair<QString, GraphPanel* MainWindow::*>> graphs = {
        {tr("Stage &DAG…"), &MainWindow::m_dag},
        {tr("I&terVar Relations…"), &MainWindow::m_iterVars},
        {tr("&Attach Tree…"), &MainWindow::m_attachTree},
        {tr("&Requests Graph…"), &MainWindow::m_requests}};
    for (const auto& graph : graphs) {
        GraphPanel* MainWindow::*member = graph.second;
        m_exportMenu->addAction(graph.first, this, [this, member] { exportGraph(this->*member); });
    }
    file->addSeparator();
    file->addAction(m_quitAction);

    m_examplesMenu = menuBar()->addMenu(tr("E&xamples"));
    m_examplesMenu->setToolTipsVisible(true);
    populateExamplesMenu();

    m_analysisMenu = menuBar()->addMenu(tr("&Analysis"));
    m_analysisMenu->addActions({m_runAction, m_stopAction});
    m_analysisMenu->addSeparator();
    m_analysisMenu->addAction(m_trivialLoopsAction);

    // The docks' toggles are inserted above the separator as addDock creates them.
    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_fitAction);
    m_viewMenu->addAction(m_darkAction);
    m_viewMenu->addSeparator();
    m_viewMenu->addActions({m_findAction, m_findNextAction});

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(m_guideAction);
    help->addAction(m_shortcutsAction);
    help->addAction(m_aboutAction);
}

void MainWindow::createToolBar() {
    m_toolBar = addToolBar(tr("Main"));
    m_toolBar->setObjectName(QStringLiteral("mainToolBar"));
    m_toolBar->setMovable(false);
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_toolBar->addActions({m_openAction, m_saveAction});
    m_toolBar->addSeparator();
    m_toolBar->addWidget(new QLabel(tr(" Rules "), m_toolBar));
    m_rules = new QComboBox(m_toolBar);
    m_rules->setObjectName(QStringLiteral("rulesSelector"));
    for (BoundRules rules :
         {BoundRules::Tvm, BoundRules::Tvm05, BoundRules::Tight, BoundRules::Compact})
        m_rules->addItem(QString::fromLatin1(boundRulesName(rules)), int(rules));
    m_rules->setItemData(0, tr("TVM's final TE InferBound"), Qt::ToolTipRole);
    m_rules->setItemData(1,
                         tr("The 2019 behaviour the seed documents (fuse falls back to the "
                            "full ranges, split inner is always the factor)"),
                         Qt::ToolTipRole);
    m_rules->setItemData(2, tr("The smallest static rectangle each realize needs"),
                         Qt::ToolTipRole);
    m_rules->setItemData(3,
                         tr("tight, with a buffer whose reads are a lattice (strided) or "
                            "disjoint boxes stored as exactly those elements"),
                         Qt::ToolTipRole);
    m_rules->setToolTip(tr("The InferBound rules every view is analysed under"));
    connect(m_rules, &QComboBox::currentIndexChanged, this,
            [this] { m_document->setRules(BoundRules(m_rules->currentData().toInt())); });
    m_toolBar->addWidget(m_rules);
    m_toolBar->addSeparator();
    m_toolBar->addActions({m_runAction, m_stopAction});
    m_statusRules = new QLabel(this);
    m_statusRules->setMinimumWidth(m_statusRules->fontMetrics().horizontalAdvance(
        QStringLiteral("rules tvm-0.5 · 99999 ms  ")));
    m_statusRules->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    statusBar()->addPermanentWidget(m_statusRules);
}

void MainWindow::wireDocument() {
    connect(m_document, &ScriptDocument::analysisChanged, this, &MainWindow::onAnalysisChanged);
    connect(m_document, &ScriptDocument::problemChanged, this, &MainWindow::onProblemChanged);
    connect(m_document, &ScriptDocument::analysisFinished, this, &MainWindow::onAnalysisFinished);
    connect(m_document, &ScriptDocument::fileChanged, this, &MainWindow::updateTitle);
    connect(m_document, &ScriptDocument::fileChanged, this,
            [this] { m_editorPanel->setTcSource(m_document->isTcSource()); });
    connect(m_document, &ScriptDocument::modificationChanged, this, &MainWindow::updateTitle);
    // Issue 17, item 1: while an edit is re-analysed, the views still show the previous
    // analysis; after a moment (so quick analyses do not flicker) their titles say so.
    m_outOfDateTimer = new QTimer(this);
    m_outOfDateTimer->setSingleShot(true);
    m_outOfDateTimer->setInterval(300);
    connect(m_outOfDateTimer, &QTimer::timeout, this, [this] {
        const auto& shown = m_document->analysis();
        setViewsOutOfDate(m_document->isBusy() && shown && shown->program.defined());
    });
    connect(m_document, &ScriptDocument::busyChanged, this, [this](bool busy) {
        m_stopAction->setEnabled(busy);
        if (busy) {
            statusBar()->showMessage(tr("Running %1…").arg(m_document->scriptName()));
            m_outOfDateTimer->start();
        } else {
            m_outOfDateTimer->stop();
            setViewsOutOfDate(false);
        }
    });
    for (GraphPanel* panel : graphPanels())
        connect(panel, &GraphPanel::exportRequested, this, [this, panel] { exportGraph(panel); });
}

void MainWindow::wireSelection() {
    StageSelection* selection = m_document->selection();
    auto selectStage = [selection](const QString& stage) { selection->select(stage); };
    for (GraphPanel* panel : graphPanels())
        connect(panel, &GraphPanel::objectChosen, selection, &StageSelection::select);
    connect(m_inspector, &InspectorPanel::stageChosen, selection, selectStage);
    connect(m_inspector, &InspectorPanel::iterVarChosen, selection, &StageSelection::select);
    connect(m_bounds, &BoundsPanel::rowChosen, selection, &StageSelection::select);
    connect(m_tcRanges, &TcRangesPanel::rowChosen, selection, &StageSelection::select);
    connect(m_ir, &IrPanel::lineChosen, selection, &StageSelection::select);
    connect(selection, &StageSelection::changed, this, &MainWindow::onSelectionChanged);
}

void MainWindow::onAnalysisChanged() {
    const std::shared_ptr<const Analysis>& analysis = m_document->analysis();
    m_bounds->setAnalysis(analysis);
    m_inspector->setAnalysis(analysis);
    m_ir->setAnalysis(analysis);
    m_code->setAnalysis(analysis);
    m_tcRanges->setAnalysis(analysis);
    for (GraphPanel* panel : graphPanels())
        panel->setAnalysis(analysis);
    selectDefaultStage();
    onSelectionChanged();
}

/// A new script starts with its output selected, so every view has something to show; a
/// selection that survives the edit is kept.
void MainWindow::selectDefaultStage() {
    const Analysis& analysis = *m_document->analysis();
    const QStringList names = stageNames(analysis);
    // A failed schedule opens on what failed: the stage whose IterVar or attach it is about.
    const QString failed = analysis.error ? problemStage(*analysis.error) : QString();
    if (names.contains(failed)) {
        if (selection()->stage() != failed)
            selection()->select(failed);
        return;
    }
    if (names.contains(selection()->stage()))
        return;
    // A script that built no program (yet): nothing to select.
    if (!scheduleShown(analysis).defined()) {
        selection()->clear();
        return;
    }
    for (const Stage& stage : scheduleShown(analysis).stages()) {
        if (stage->isOutput) {
            selection()->select(qstr(stage.name()));
            return;
        }
    }
    selection()->clear();
}

void MainWindow::onSelectionChanged() {
    const QString& stage = selection()->stage();
    const QString& iterVar = selection()->iterVar();
    for (GraphPanel* panel : graphPanels())
        panel->showSelection(stage, iterVar);
    m_bounds->showSelection(stage, iterVar);
    m_tcRanges->showSelection(stage, iterVar);
    m_inspector->showStage(stage);
    m_ir->showSelection(stage, iterVar);
    const std::shared_ptr<const Analysis>& analysis = m_document->analysis();
    m_editorPanel->editor()->setLinkedLine(analysis ? sourceLine(*analysis, stage, iterVar) : 0);
}

void MainWindow::onProblemChanged() {
    m_editorPanel->showProblem(m_document->problem(), m_document->scriptName(),
                               m_document->analysis() && !m_document->analysisIsCurrent());
}

void MainWindow::onAnalysisFinished() {
    m_output->setRun(m_document->scriptName(), m_document->scriptOutput(), m_document->lastRunMs(),
                     m_document->problem());
    const QString rules = QString::fromLatin1(boundRulesName(m_document->rules()));
    m_statusRules->setText(tr("rules %1 · %2 ms ").arg(rules).arg(m_document->lastRunMs()));
    if (const auto& problem = m_document->problem()) {
        statusBar()->showMessage(tr("Error: %1").arg(QString::fromStdString(problem->toString())));
        return;
    }
    const int stages = int(stageNames(*m_document->analysis()).size());
    statusBar()->showMessage(tr("Analysed %1 stages of %2 under the %3 rules")
                                 .arg(stages)
                                 .arg(m_document->scriptName(), rules));
}

bool MainWindow::graphsAreCurrent() const {
    for (GraphPanel* panel : graphPanels()) {
        if (panel->isLayingOut())
            return false;
    }
    return true;
}

void MainWindow::updateTitle() {
    setWindowTitle(tr("%1[*] — Boundscope").arg(m_document->scriptName()));
    setWindowModified(m_document->isModified());
}

void MainWindow::setDarkTheme(bool dark) {
    theme::applyDark(dark);
    QSettings().setValue(QLatin1String(kDarkThemeKey), dark);
}

void MainWindow::restoreLayout() {
    QSettings settings;
    if (settings.value(QLatin1String(kDarkThemeKey), false).toBool())
        theme::applyDark(true);
    restoreGeometry(settings.value(QLatin1String(kGeometryKey)).toByteArray());
    restoreState(settings.value(QLatin1String(kStateKey)).toByteArray(), kLayoutVersion);
    const int rules = m_rules->findText(settings.value(QLatin1String(kRulesKey)).toString());
    if (rules >= 0)
        m_rules->setCurrentIndex(rules);
}

void MainWindow::saveLayout() {
    QSettings settings;
    settings.setValue(QLatin1String(kGeometryKey), saveGeometry());
    settings.setValue(QLatin1String(kStateKey), saveState(kLayoutVersion));
    settings.setValue(QLatin1String(kRulesKey), m_rules->currentText());
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    saveLayout();
    if (m_autosave)
        m_autosave->discard();
    event->accept();
}

} // namespace bs::gui

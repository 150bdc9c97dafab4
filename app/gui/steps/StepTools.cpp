#include "steps/StepTools.h"

#include "MainWindow.h"
#include "document/ScriptDocument.h"
#include "document/StepCursor.h"
#include "models/StepFocus.h"
#include "models/StepText.h"
#include "panels/EditorPanel.h"
#include "panels/GraphPanel.h"
#include "panels/IrPanel.h"
#include "panels/StepsPanel.h"
#include "views/ScriptEditor.h"

#include <QDockWidget>
#include <QMenu>

namespace bs::gui {

StepTools::StepTools(MainWindow* window)
    : QObject(window), m_window(window), m_cursor(new StepCursor(this)) {
    createDock();
    createMenu();
    wire();
}

void StepTools::createDock() {
    m_panel = new StepsPanel(m_window);
    // Beside the inspector, under the graphs: stepping shows the graphs and the IR at once.
    QDockWidget* inspector = m_window->dock(QStringLiteral("inspectorDock"));
    m_window->addDock(m_panel, tr("Step-through"), QStringLiteral("stepThroughDock"),
                      Qt::RightDockWidgetArea, inspector);
    if (inspector)
        inspector->raise();
}

void StepTools::createMenu() {
    QMenu* analysis = m_window->analysisMenu();
    if (!analysis)
        return;
    analysis->addSeparator();
    QMenu* steps = analysis->addMenu(tr("Step &Through"));
    steps->addActions(m_panel->actions());
}

void StepTools::wire() {
    ScriptDocument* document = m_window->document();
    connect(document, &ScriptDocument::analysisChanged, this, &StepTools::onAnalysisChanged);
    connect(document->selection(), &StageSelection::changed, this, &StepTools::onSelectionChanged);
    connect(m_cursor, &StepCursor::changed, m_panel, &StepsPanel::showStep);
    connect(m_panel, &StepsPanel::stepChosen, this, &StepTools::goToStep);
    connect(m_window->irPanel(), &IrPanel::stepChosen, this, &StepTools::goToStep);
}

void StepTools::goToStep(int id) {
    if (id < 0 || id >= m_panel->stepCount())
        return;
    m_cursor->setStep(id);
    m_following = true;
    if (QDockWidget* dock = m_window->dock(QStringLiteral("stepThroughDock"));
        dock && !m_panel->isVisible()) {
        dock->show();
        dock->raise();
    }
    showCurrentStep();
}

void StepTools::onAnalysisChanged() {
    const std::shared_ptr<const Analysis>& analysis = m_window->document()->analysis();
    m_panel->setAnalysis(analysis);
    const int id = analysis ? resolveStep(*analysis, m_key, m_cursor->step()) : -1;
    m_cursor->setStep(id);
    showCurrentStep();
}

void StepTools::onSelectionChanged() {
    if (m_applying || !m_following)
        return;
    m_following = false;
    clearViews();
}

void StepTools::showCurrentStep() {
    const std::shared_ptr<const Analysis>& analysis = m_window->document()->analysis();
    const int id = m_cursor->step();
    m_panel->showStep(id);
    m_key = analysis ? stepKeyOf(*analysis, id) : std::nullopt;
    if (!m_following || !analysis || id < 0) {
        clearViews();
        return;
    }
    const StepFocus focus = stepFocusOf(*analysis, id);
    m_applying = true;
    // The graphs learn the step first, so the selection below rebuilds each graph only once.
    for (GraphPanel* panel : m_window->graphPanels())
        panel->showStepFocus(focus);
    if (!focus.stage.isEmpty())
        m_window->selection()->select(focus.stage, focus.iterVar);
    m_applying = false;
    m_window->irPanel()->showStep(id, stepsDerivedFrom(*stepsOf(*analysis), id));
    if (focus.line > 0)
        m_window->editorPanel()->editor()->setLinkedLine(focus.line);
}

void StepTools::clearViews() {
    for (GraphPanel* panel : m_window->graphPanels())
        panel->showStepFocus(std::nullopt);
    m_window->irPanel()->showStep(-1);
}

} // namespace bs::gui

/// \file
/// The Step-through panel (issue 13, item 4): bound inference as a timeline of steps, from
/// normalize to the allocations (schedule/BoundSteps.h). A tree groups the steps by stage and
/// phase; a slider, First/Previous/Next/Last and Play/Pause (at a chosen speed) move through
/// them; the current step's rule, text, values in and out, and links to the steps it reads and
/// to those that read it are shown beside the tree. The panel shows the current step it is
/// given (showStep) and asks for another by emitting stepChosen; StepTools owns the current
/// step and makes the other views follow it.
#pragma once

#include "analysis/Analysis.h"

#include <QTimer>
#include <QWidget>

#include <memory>

class QAction;
class QComboBox;
class QLabel;
class QModelIndex;
class QSlider;
class QTextBrowser;
class QToolButton;
class QTreeView;

namespace bs::gui {

class StepTreeModel;

class StepsPanel : public QWidget {
    Q_OBJECT
public:
    /// The speeds Play offers, in milliseconds per step; the default is the second.
    static constexpr int kPlayIntervals[] = {500, 1000, 2000, 4000};

    explicit StepsPanel(QWidget* parent = nullptr);

    /// Shows the steps of `analysis`; no step is current until showStep.
    void setAnalysis(std::shared_ptr<const Analysis> analysis);
    /// Makes step `id` the one shown (-1: none). Emits nothing.
    void showStep(int id);
    int shownStep() const { return m_step; }
    int stepCount() const;

    /// What the controls do; each emits stepChosen when there is a step to go to.
    void first();
    void previous();
    void next();
    void last();
    /// Starts or stops playing: the next step every playInterval() ms, stopping at the last.
    void setPlaying(bool playing);
    bool isPlaying() const { return m_timer.isActive(); }
    int playInterval() const { return m_timer.interval(); }
    void setPlayInterval(int ms);

    /// First (Alt+Home), Previous (Alt+Left), Play/Pause (Alt+P), Next (Alt+Right) and Last
    /// (Alt+End), for the panel's buttons and the Analysis menu.
    QList<QAction*> actions() const;
    QAction* nextAction() const { return m_nextAction; }
    QAction* previousAction() const { return m_previousAction; }
    QAction* playAction() const { return m_playAction; }

    StepTreeModel* model() const { return m_model; }
    QTreeView* tree() const { return m_tree; }
    QSlider* slider() const { return m_slider; }
    QTextBrowser* details() const { return m_details; }
    QToolButton* playButton() const { return m_play; }
    /// The current step's details as plain text.
    QString detailsText() const;

Q_SIGNALS:
    /// The user asked for step `id` (a control, the tree, the slider or a link).
    void stepChosen(int id);

private:
    void createActions();
    QWidget* createControls();
    void chooseStep(int id);
    void onTreeCurrentChanged(const QModelIndex& current);
    void onTick();
    void updateControls();

    std::shared_ptr<const Analysis> m_analysis;
    int m_step = -1;
    bool m_updating = false;
    QTimer m_timer;

    StepTreeModel* m_model;
    QTreeView* m_tree;
    QTextBrowser* m_details;
    QSlider* m_slider = nullptr;
    QLabel* m_position = nullptr;
    QComboBox* m_speed = nullptr;
    QToolButton* m_play = nullptr;
    QAction* m_firstAction = nullptr;
    QAction* m_previousAction = nullptr;
    QAction* m_playAction = nullptr;
    QAction* m_nextAction = nullptr;
    QAction* m_lastAction = nullptr;
};

} // namespace bs::gui

/// \file
/// Installs the schedule editing tools in the main window (issue 7, items 1 and 4): the
/// Schedule menu with its single-key edits and its undo stack, and the Allocations, Run,
/// Heatmap, Loop Nest and Compare docks, wired to the document (each new Analysis) and to the
/// shared selection. MainWindow only creates it; everything here goes through MainWindow's
/// public hooks (`addDock`, the menus, the document).
#pragma once

#include <QObject>

class QMenu;

namespace bs::gui {

class AllocationsPanel;
class AnimationPanel;
class HeatmapPanel;
class ComparePanel;
class EditActions;
class MainWindow;
class RunPanel;
class ScheduleEditor;

class ScheduleTools : public QObject {
    Q_OBJECT
public:
    /// Adds the menu and the docks to `window` (call after its own docks exist, before its
    /// saved layout is restored, so the new docks take their saved places too).
    explicit ScheduleTools(MainWindow* window);

    ScheduleEditor* editor() const { return m_editor; }
    EditActions* actions() const { return m_actions; }
    AllocationsPanel* allocations() const { return m_allocations; }
    HeatmapPanel* heatmap() const { return m_heatmap; }
    AnimationPanel* animation() const { return m_animation; }
    ComparePanel* compare() const { return m_compare; }
    RunPanel* run() const { return m_run; }
    QMenu* menu() const { return m_menu; }

private:
    void createDocks();
    void wire();
    void onAnalysisChanged();
    void showMessage(const QString& text);

    MainWindow* m_window;
    ScheduleEditor* m_editor;
    EditActions* m_actions;
    QMenu* m_menu = nullptr;
    AllocationsPanel* m_allocations = nullptr;
    HeatmapPanel* m_heatmap = nullptr;
    AnimationPanel* m_animation = nullptr;
    ComparePanel* m_compare = nullptr;
    RunPanel* m_run = nullptr;
};

} // namespace bs::gui

/// \file
/// Installs the Step-through in the main window (issue 13, items 3 and 4): the Step-through
/// dock (panels/StepsPanel.h), its Previous/Next/Play keys in the Analysis menu, and the current
/// step (document/StepCursor.h), which every view follows: stepping selects the step's stage
/// (the shared selection), draws what the step touches in the graphs (models/StepFocus.h),
/// tints the IR lines it produced and those derived from them, and marks its script line.
/// Clicking a number in the IR steps to the step that made it.
///
/// The views follow the current step from the moment the user steps until the selection is
/// changed elsewhere (a click on a graph, a table or the IR); the panel keeps showing it, and
/// the next step resumes. A re-analysis (an edit, other rules) keeps the same step: the one
/// with the same key, else the same id, clamped (models/StepOutline.h, resolveStep).
/// MainWindow only creates it; everything here goes through MainWindow's public hooks.
#pragma once

#include "models/StepOutline.h"

#include <QObject>

#include <optional>

namespace bs::gui {

class MainWindow;
class StepCursor;
class StepsPanel;

class StepTools : public QObject {
    Q_OBJECT
public:
    /// Adds the dock and the menu to `window` (after its own docks, before its saved layout is
    /// restored).
    explicit StepTools(MainWindow* window);

    StepsPanel* panel() const { return m_panel; }
    StepCursor* cursor() const { return m_cursor; }
    /// Makes step `id` current and every view show it, as stepping there does.
    void goToStep(int id);
    /// Whether the views show the current step (the user stepped, and has not selected
    /// something else since).
    bool isFollowing() const { return m_following; }

private:
    void createDock();
    void createMenu();
    void wire();
    void onAnalysisChanged();
    void onSelectionChanged();
    /// Shows the current step in the panel and, while following, in every view.
    void showCurrentStep();
    void clearViews();

    MainWindow* m_window;
    StepCursor* m_cursor;
    StepsPanel* m_panel = nullptr;
    /// What the current step is about, to find it again in the next Analysis.
    std::optional<StepKey> m_key;
    bool m_following = false;
    bool m_applying = false; ///< the selection changes because of a step, not the user
};

} // namespace bs::gui

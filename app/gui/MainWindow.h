/// \file
/// The main window of `boundscope-gui`. It only wires (STYLE.md): the ScriptDocument owns the
/// script and its Analysis, the panels show it, and MainWindow connects them, the shared
/// selection, the actions and the menus. The editor is the central widget; every view is a
/// movable dock whose layout is saved in QSettings.
///
/// Other parts of the app hook in through `addDock` (which also lists the dock in the View
/// menu and keeps its place in the saved layout), the menus and toolbar accessors, and the
/// document: `document()->analysis()` is the current Analysis and `document()->selection()`
/// the shared selection.
#pragma once

#include "Dialogs.h"

#include <QMainWindow>
#include <QTimer>

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QToolBar;

namespace bs::gui {

class Autosave;
class CodePanel;
class EditorPanel;
class GraphPanel;
class GuideBrowser;
class InspectorPanel;
class IrPanel;
class BoundsPanel;
class RecentFiles;
class ScriptDocument;
class ScheduleTools;
class TcRangesPanel;
class OutputPanel;
class StageSelection;
class StepTools;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    struct Options {
        /// Restore the window geometry and dock layout saved by the last session.
        bool restoreLayout = true;
        /// Keep an autosave copy of unsaved changes (off for screenshots).
        bool autosave = true;
    };

    explicit MainWindow(Options options, QWidget* parent = nullptr);
    MainWindow() : MainWindow(Options{}) {}
    ~MainWindow() override;

    ScriptDocument* document() const { return m_document; }
    StageSelection* selection() const;
    EditorPanel* editorPanel() const { return m_editorPanel; }
    GraphPanel* stageDag() const { return m_dag; }
    GraphPanel* iterVarGraph() const { return m_iterVars; }
    GraphPanel* attachTree() const { return m_attachTree; }
    GraphPanel* requestsGraph() const { return m_requests; }
    QList<GraphPanel*> graphPanels() const;
    InspectorPanel* inspector() const { return m_inspector; }
    BoundsPanel* bounds() const { return m_bounds; }
    IrPanel* irPanel() const { return m_ir; }
    CodePanel* codePanel() const { return m_code; }
    /// TC's ranges next to InferBound's, for programs built from Tensor Comprehensions.
    TcRangesPanel* tcRanges() const { return m_tcRanges; }
    OutputPanel* output() const { return m_output; }
    QComboBox* rulesSelector() const { return m_rules; }
    Autosave* autosave() const { return m_autosave; }
    /// The Schedule menu (editing by direct manipulation) and the Allocations and Run docks.
    ScheduleTools* scheduleTools() const { return m_scheduleTools; }
    /// The Step-through dock, its keys and the current step every view follows.
    StepTools* stepTools() const { return m_stepTools; }

    /// Adds `content` as a dock named `objectName` (the key of the saved layout) in `area`,
    /// tabbed with `tabifyWith` when given, and lists it in the View menu.
    QDockWidget* addDock(QWidget* content, const QString& title, const QString& objectName,
                         Qt::DockWidgetArea area, QDockWidget* tabifyWith = nullptr);
    /// The dock named `objectName`, or null.
    QDockWidget* dock(const QString& objectName) const;
    /// Whether the views are marked out of date: a re-analysis of an edit has been running for
    /// a moment, and every view's dock title says the view shows the previous analysis.
    bool viewsMarkedOutOfDate() const { return m_viewsOutOfDate; }
    QMenu* viewMenu() const { return m_viewMenu; }
    QMenu* analysisMenu() const { return m_analysisMenu; }
    QMenu* exportMenu() const { return m_exportMenu; }
    QToolBar* mainToolBar() const { return m_toolBar; }

    /// What the file actions ask the user (the real dialogs unless replaced, e.g. by a test).
    const Dialogs& dialogs() const { return m_dialogs; }
    void setDialogs(Dialogs dialogs) { m_dialogs = std::move(dialogs); }

    /// Opens `path` (no dialogs: false with `errorMessage` set when it cannot be read).
    bool openFile(const QString& path, QString* errorMessage);
    /// Opens the example `nameOrPath` (`ex6_shared_scope`, or a path) as an untitled copy.
    bool openExample(const QString& nameOrPath, QString* errorMessage);
    /// Opens the default example (resources/examples/default.py, else the first one).
    bool openDefaultExample(QString* errorMessage);
    /// Offers to recover the unsaved text of a session that ended without saving it (asks);
    /// true when a text was recovered.
    bool offerRecovery();
    /// View > Dark Theme: switches the palette (views/Theme.h) and remembers the choice.
    void setDarkTheme(bool dark);
    /// Help > Guide: the guide in a window of its own (made on first use); its links open
    /// examples and raise docks here.
    void showGuide();
    /// The guide's browser, null until the guide was first shown.
    GuideBrowser* guideBrowser() const { return m_guideBrowser; }
    /// Edit > Find (Ctrl+F, F3 for the next): selects the stage or IterVar named `text` in every
    /// view, and the next occurrence of `text` in the script and in the lowered IR (wrapping
    /// around). Returns what was found, for the status bar; empty when nothing was.
    QString findText(const QString& text);

    /// File > Export > Report: one self-contained HTML file of the current analysis
    /// (viz/Report.h, as `boundscope report`), with the Allocations panel's report when it has
    /// one. False with `error` set when there is nothing to report or the file cannot be written.
    bool exportReport(const QString& path, QString* error);

    /// Help > Keyboard Shortcuts: every action with a key, by menu, and the keys of the views.
    QString shortcutsHtml() const;

    /// Whether every graph dock shows the latest analysis (no layout running).
    bool graphsAreCurrent() const;

protected:
    void closeEvent(QCloseEvent* event) override;
    /// Gives the tab bars of tabbed docks whole titles, with scroll buttons where they do not
    /// fit (the bottom group's elided every title to "Lo…", "Bo…" at the default size).
    bool event(QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    // MainWindow.cpp: building and wiring.
    void createPanels();
    void sizeDocks();
    void createActions();
    void createMenus();
    void createToolBar();
    void wireDocument();
    void wireSelection();
    void onAnalysisChanged();
    void onProblemChanged();
    void onAnalysisFinished();
    void onSelectionChanged();
    void selectDefaultStage();
    void updateTitle();
    void restoreLayout();
    void saveLayout();

    // MainWindowFiles.cpp: file and export actions (these ask through m_dialogs).
    void newScript();
    void openWithDialog();
    void openRecent(const QString& path);
    bool save();
    bool saveAsWithDialog();
    /// Asks whether to save unsaved changes; false when the user cancels.
    bool maybeSave();
    void populateExamplesMenu();
    void populateRecentMenu();
    void exportIr();
    void exportCode();
    void exportTrace();
    void exportGraph(GraphPanel* panel);
    void showAbout();
    void showShortcuts();
    void exportReportFile();
    void reportError(const QString& title, const QString& message);

    ScriptDocument* m_document;
    RecentFiles* m_recentFiles;
    Dialogs m_dialogs;
    Autosave* m_autosave = nullptr;
    ScheduleTools* m_scheduleTools = nullptr;
    StepTools* m_stepTools = nullptr;

    EditorPanel* m_editorPanel = nullptr;
    GraphPanel* m_dag = nullptr;
    GraphPanel* m_iterVars = nullptr;
    GraphPanel* m_attachTree = nullptr;
    GraphPanel* m_requests = nullptr;
    InspectorPanel* m_inspector = nullptr;
    BoundsPanel* m_bounds = nullptr;
    IrPanel* m_ir = nullptr;
    CodePanel* m_code = nullptr;
    TcRangesPanel* m_tcRanges = nullptr;
    OutputPanel* m_output = nullptr;
    QList<QDockWidget*> m_docks;
    /// Started when a re-analysis starts; when it fires first, the views are marked out of date.
    QTimer* m_outOfDateTimer = nullptr;
    bool m_viewsOutOfDate = false;
    void setViewsOutOfDate(bool outOfDate);

    QToolBar* m_toolBar = nullptr;
    QComboBox* m_rules = nullptr;
    QLabel* m_statusRules = nullptr;
    QMenu* m_examplesMenu = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QMenu* m_analysisMenu = nullptr;
    QMenu* m_exportMenu = nullptr;
    QAction* m_newAction = nullptr;
    QAction* m_openAction = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_saveAsAction = nullptr;
    QAction* m_quitAction = nullptr;
    QAction* m_runAction = nullptr;
    QAction* m_stopAction = nullptr;
    QAction* m_trivialLoopsAction = nullptr;
    QAction* m_fitAction = nullptr;
    QAction* m_darkAction = nullptr;
    QAction* m_findAction = nullptr;
    QAction* m_findNextAction = nullptr;
    QString m_findText;
    QAction* m_aboutAction = nullptr;
    QAction* m_shortcutsAction = nullptr;
    QAction* m_guideAction = nullptr;
    QWidget* m_guide = nullptr;
    GuideBrowser* m_guideBrowser = nullptr;
};

} // namespace bs::gui

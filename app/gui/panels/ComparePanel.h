/// \file
/// The Compare dock (issue 18, item 2): two analyses side by side, as `boundscope diff` prints
/// them (analysis/AnalysisDiff.h), either the current script under two rule sets or the current
/// analysis against an earlier point of the script's history: the analysis before the latest
/// change (a typed change, a schedule edit, an undo), or up to kHistory changes back; or two
/// earlier points against each other; or the current script against another file, as
/// `boundscope diff A.py B.py` does. The
/// lowered IR is shown in two columns aligned line by line, changed lines tinted (changed, only
/// on the left, only on the right); the bounds and allocations that differ are listed below.
/// Made off the GUI thread by a JobRunner (analyses and allocation reports) when the dock is
/// shown.
#pragma once

#include "analysis/AnalysisDiff.h"
#include "document/JobRunner.h"
#include "models/ChangeMarks.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace bs::gui {

class AnalysisRunner;
struct AnalysisOutcome;
class StringTableModel;
class HintTableView;

class ComparePanel : public QWidget {
    Q_OBJECT
public:
    enum class Mode { Rules, PreviousAnalysis, OtherFile };
    /// The earlier analyses kept for PreviousAnalysis.
    static constexpr int kHistory = 10;

    explicit ComparePanel(QWidget* parent = nullptr);

    /// The current analysis; the one it replaces (of a different text) becomes the previous.
    void setAnalysis(std::shared_ptr<const Analysis> analysis);
    void setMode(Mode mode);
    Mode mode() const;
    /// The rule sets compared in Rules mode (left, right).
    void setRules(BoundRules left, BoundRules right);
    /// In PreviousAnalysis mode, how many changes back the left side is (1: the latest).
    void setChangesBack(int changes);
    /// In PreviousAnalysis mode, how many changes back the right side is (0: now, the default).
    void setRightChangesBack(int changes);
    /// How many earlier analyses there are to compare with.
    int historySize() const { return int(m_history.size()); }
    /// Forgets the earlier analyses (another file was opened, or the text replaced).
    void clearHistory();
    /// In OtherFile mode, the script compared with the current one (on the right); its text is
    /// read now and run when the diff is made. False with the reason shown when it cannot be
    /// read.
    bool setOtherFile(const QString& path);
    QString otherFile() const { return m_otherPath; }
    /// Whether the panel's dock is in sight (QDockWidget::visibilityChanged: a tab behind
    /// another is not); changesFound follows it.
    void setInSight(bool inSight);

    /// The diff shown (null while none is).
    const AnalysisDiff* diff() const { return m_diff.get(); }
    QString summaryText() const;
    QPlainTextEdit* leftView() const { return m_left; }
    QPlainTextEdit* rightView() const { return m_right; }
    StringTableModel* changes() const { return m_changes; }

Q_SIGNALS:
    /// A diff (or why there is none) is shown.
    void diffShown();
    /// What the graphs should mark as changed: the diff's changed stages and IterVars while the
    /// panel is in sight (setInSight), nothing when it is not or has no diff.
    void changesFound(const bs::gui::ChangedObjects& changed);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void recompute();
    void display(JobOutcome<AnalysisDiff> outcome);
    void clear(const QString& summary);
    void updateBackChoices();
    /// The other file's analysis arrived: diff it against the current one.
    void compareWithOther(const AnalysisOutcome& outcome);

    std::shared_ptr<const Analysis> m_analysis;
    /// Earlier analyses of other texts, the latest first (at most kHistory).
    std::vector<std::shared_ptr<const Analysis>> m_history;
    bool m_stale = true;
    bool m_inSight = false;
    std::shared_ptr<const AnalysisDiff> m_diff;
    JobRunner m_jobs;
    QComboBox* m_mode;
    QComboBox* m_rulesLeft;
    QComboBox* m_rulesRight;
    QComboBox* m_back;      ///< how many changes back the left side is (PreviousAnalysis)
    QComboBox* m_backRight; ///< and the right side (0: now)
    QLabel* m_backAgainst;
    QPushButton* m_chooseFile;
    QLabel* m_fileLabel;
    QString m_otherPath;
    std::string m_otherSource;
    AnalysisRunner* m_otherRunner = nullptr; ///< runs the other file's script (made when needed)
    QLabel* m_summary;
    QPlainTextEdit* m_left;
    QPlainTextEdit* m_right;
    StringTableModel* m_changes;
    HintTableView* m_changesView;
};

} // namespace bs::gui

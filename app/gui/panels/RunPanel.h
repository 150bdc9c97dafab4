/// \file
/// The Run panel (issue 7, item 1): runs the current program's lowered kernel on a target
/// (CPU through the LLVM JIT, GPU through CUDA, or the reference interpreter's GPU emulation)
/// with engine/run (`runKernel`, the same as `boundscope run`). Run times N runs; Check runs
/// once and compares the outputs with the reference. Each result becomes a row of the table:
/// best, median and spread of the times, GFLOP/s, pass/fail, and the comparison with the saved
/// baseline of this script and target (QSettings). The kernel runs in a worker thread.
///
/// The panel says which targets fit the schedule: a schedule bound to GPU threads cannot run on
/// the CPU (that target is disabled, and GPU emulation is chosen when the CPU was), a CPU
/// schedule cannot run on the GPU. A target that cannot run here (no GPU, no LLVM) shows one
/// message in the panel (the engine names targets in words, never by a command-line flag).
#pragma once

#include "analysis/Analysis.h"
#include "models/StringTableModel.h"
#include "run/RunKernel.h"

#include "document/JobRunner.h"

#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace bs::gui {

class HintTableView;

/// The table's headers and the row of one result (widget-free, for the panel and its tests).
QStringList runHeaders();
/// `program` is the script that was run: rows of several programs stay apart in the table.
TableRow runRow(const QString& program, const RunReport& report, int runs,
                std::optional<double> baselineMs);
/// `1.50× faster` / `2.00× slower` / `same` for a best time against the baseline's.
QString baselineComparison(double bestMs, double baselineMs);

class RunPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunPanel(QWidget* parent = nullptr);
    ~RunPanel() override;

    /// The program to run: its lowered function (null or failed: nothing to run).
    void setAnalysis(const std::shared_ptr<const Analysis>& analysis);
    /// The script's name, which keys the saved baselines.
    void setScriptName(const QString& name);

    RunTarget target() const;
    /// Chooses `target` (also a disabled one: running it then says why it cannot run).
    void setTarget(RunTarget target);
    /// Whether `target` can run the current schedule (GPU threads need GPU or GPU emulation).
    bool targetFits(RunTarget target) const;
    /// Whether the current schedule binds loops to GPU threads.
    bool isGpuSchedule() const { return m_gpuSchedule; }
    void setRepeat(int runs);
    /// Starts a timed run (`check` false) or a checked one; false when one is running or
    /// there is nothing to run (the status says why).
    bool run(bool check);
    bool isRunning() const { return m_running; }
    /// Stops the run in progress (between runs, or inside the interpreter); its row is not
    /// added and the status says it was cancelled.
    void cancel();

    /// Saves the latest result's best time as the baseline of this script and target.
    bool saveBaseline();
    /// The saved baseline's best time for this script and the current target.
    std::optional<double> baseline() const;
    void clearBaseline();

    const std::optional<RunReport>& lastReport() const { return m_lastReport; }
    /// The latest run's error message (empty when it ran).
    const QString& lastError() const { return m_lastError; }
    StringTableModel* model() const { return m_model; }
    QString statusText() const;

Q_SIGNALS:
    /// A run ended (its row was added, or its error shown).
    void runFinished();

private:
    /// A run's report, or why it has none, for `program` on `target`.
    void onOutcome(JobOutcome<RunReport> outcome, const QString& program, RunTarget target,
                   int runs);
    void updateButtons();
    /// Enables the targets that fit the schedule and moves off one that does not.
    void updateTargets();
    /// What the schedule runs on, for the status line before a run.
    QString scheduleText() const;
    QString baselineKey(RunTarget target) const;
    std::optional<double> baselineFor(RunTarget target) const;

    JobRunner m_jobs;
    std::shared_ptr<const Analysis> m_analysis;
    QString m_scriptName;
    bool m_running = false;
    bool m_gpuSchedule = false;
    /// The target the user last chose (QSettings), taken again whenever it fits.
    /// The user's last choice for CPU schedules and for GPU schedules.
    RunTarget m_preferredCpu = RunTarget::Cpu;
    RunTarget m_preferredGpu = RunTarget::Emulate;
    std::optional<RunReport> m_lastReport;
    QString m_lastError;
    QList<TableRow> m_rows;

    QComboBox* m_target;
    QSpinBox* m_repeat;
    QPushButton* m_runButton;
    QPushButton* m_checkButton;
    QPushButton* m_baselineButton;
    QPushButton* m_cancelButton;
    QLabel* m_status;
    StringTableModel* m_model;
    HintTableView* m_view;
};

} // namespace bs::gui

#include "panels/RunPanel.h"

#include "models/EngineText.h"
#include "panels/TableViews.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <cmath>

namespace bs::gui {

namespace {

/// `40000 FLOP executed (the definitions declare 100000), 0.01 GB/s`.
QString flopsToolTip(const RunReport& report) {
    QString flops = QStringLiteral("%1 FLOP%2")
                        .arg(report.flops)
                        .arg(report.flopsExecuted ? QStringLiteral(" executed") : QString());
    if (report.flopsExecuted && report.declaredFlops != report.flops)
        flops += QStringLiteral(" (the definitions declare %1)").arg(report.declaredFlops);
    return flops + QStringLiteral(", %1 GB/s").arg(report.gbps, 0, 'f', 2);
}

/// The target chosen for CPU schedules and for GPU schedules (each remembered apart, so a GPU
/// program's emulate does not carry over to a CPU program).
const char* const kCpuTargetKey = "run/target/cpu";
const char* const kGpuTargetKey = "run/target/gpu";
const char* const kRepeatKey = "run/repeat";

QString targetLabel(RunTarget target) {
    switch (target) {
    case RunTarget::Cpu:
        return QStringLiteral("cpu (LLVM JIT)");
    case RunTarget::Cuda:
        return QStringLiteral("cuda (GPU)");
    case RunTarget::Emulate:
        return QStringLiteral("emulate (GPU emulation)");
    }
    return QString();
}

QString msText(double ms) { return QString::number(ms, 'g', 4); }

} // namespace

QStringList runHeaders() {
    return {QStringLiteral("Program"), QStringLiteral("Target"),    QStringLiteral("Runs"),
            QStringLiteral("Best ms"), QStringLiteral("Median ms"), QStringLiteral("Spread"),
            QStringLiteral("GFLOP/s"), QStringLiteral("Check"),     QStringLiteral("Baseline"),
            QStringLiteral("Device")};
}

QString baselineComparison(double bestMs, double baselineMs) {
    if (bestMs <= 0 || baselineMs <= 0)
        return QStringLiteral("?");
    const double ratio = baselineMs / bestMs;
    // Closer than 2 % is within the noise of a few runs.
    if (std::abs(ratio - 1.0) < 0.02)
        return QStringLiteral("same");
    if (ratio > 1.0)
        return QStringLiteral("%1× faster").arg(ratio, 0, 'f', 2);
    return QStringLiteral("%1× slower").arg(1.0 / ratio, 0, 'f', 2);
}

TableRow runRow(const QString& program, const RunReport& report, int runs,
                std::optional<double> baselineMs) {
    TableRow row;
    QString check = QStringLiteral("not checked");
    if (report.checked)
        check = report.passed ? QStringLiteral("pass") : QStringLiteral("FAIL");
    row.cells << program << targetLabel(report.target) << QString::number(runs)
              << msText(report.bestMs) << msText(report.medianMs)
              << QStringLiteral("%1 %").arg(report.spread * 100.0, 0, 'f', 1)
              << QString::number(report.gflops, 'f', 3) << check
              << (baselineMs ? QStringLiteral("%1 (%2 ms)")
                                   .arg(baselineComparison(report.bestMs, *baselineMs),
                                        msText(*baselineMs))
                             : QStringLiteral("none"))
              << qstr(report.device);
    QStringList times;
    for (double t : report.timesMs)
        times << msText(t);
    row.toolTips << QString() << QString() << times.join(QStringLiteral(", "))
                 << QStringLiteral("compile %1 ms").arg(msText(report.compileMs)) << QString()
                 << QStringLiteral("(slowest - fastest) / median") << flopsToolTip(report)
                 << (report.checked ? QStringLiteral("against the %1: %2")
                                          .arg(qstr(report.reference), qstr(report.checkDetail))
                                    : QString());
    return row;
}

RunPanel::RunPanel(QWidget* parent)
    : QWidget(parent), m_target(new QComboBox(this)), m_repeat(new QSpinBox(this)),
      m_runButton(new QPushButton(tr("&Run"), this)),
      m_checkButton(new QPushButton(tr("&Check"), this)),
      m_baselineButton(new QPushButton(tr("Save &Baseline"), this)),
      m_cancelButton(new QPushButton(tr("Cance&l"), this)), m_status(new QLabel(this)),
      m_model(new StringTableModel(runHeaders(), this)) {
    for (RunTarget target : {RunTarget::Cpu, RunTarget::Cuda, RunTarget::Emulate})
        m_target->addItem(targetLabel(target), int(target));
    m_target->setObjectName(QStringLiteral("runTarget"));
    m_target->setToolTip(tr("CPU: the LLVM JIT; GPU: CUDA; GPU emulation: the GPU kernels "
                            "rewritten as CPU loops and compiled by LLVM (the reference "
                            "interpreter where they cannot be)"));
    m_repeat->setRange(1, 1000);
    m_repeat->setPrefix(tr("N = "));
    m_repeat->setToolTip(tr("Timed runs after one warm-up run"));
    m_runButton->setToolTip(tr("Time N runs of the kernel"));
    m_checkButton->setToolTip(tr("Run once and compare the outputs with the reference"));
    m_baselineButton->setToolTip(tr("Keep the latest best time to compare later runs with"));
    m_status->setWordWrap(true);
    QSettings settings;
    m_preferredCpu =
        RunTarget(settings.value(QLatin1String(kCpuTargetKey), int(RunTarget::Cpu)).toInt());
    m_preferredGpu =
        RunTarget(settings.value(QLatin1String(kGpuTargetKey), int(RunTarget::Emulate)).toInt());
    setTarget(m_preferredCpu);
    m_repeat->setValue(settings.value(QLatin1String(kRepeatKey), 10).toInt());

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Target"), this));
    controls->addWidget(m_target);
    controls->addWidget(m_repeat);
    controls->addWidget(m_runButton);
    controls->addWidget(m_checkButton);
    controls->addWidget(m_cancelButton);
    controls->addStretch(1);
    controls->addWidget(m_baselineButton);
    m_view = createTableView(m_model, this);
    m_view->setObjectName(QStringLiteral("runTable"));
    m_view->setEmptyText(tr("No runs yet: Run times N runs of the kernel, Check runs it once and "
                            "compares its outputs with the reference."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(m_status);
    layout->addWidget(m_view, 1);

    connect(m_runButton, &QPushButton::clicked, this, [this] { run(false); });
    connect(m_checkButton, &QPushButton::clicked, this, [this] { run(true); });
    connect(m_baselineButton, &QPushButton::clicked, this, &RunPanel::saveBaseline);
    m_cancelButton->setToolTip(tr("Stop the run in progress"));
    connect(m_cancelButton, &QPushButton::clicked, this, &RunPanel::cancel);
    // Only the user's own choice is remembered, not a move off a target that does not fit.
    connect(m_target, &QComboBox::activated, this, [this] {
        (m_gpuSchedule ? m_preferredGpu : m_preferredCpu) = target();
        QSettings().setValue(QLatin1String(m_gpuSchedule ? kGpuTargetKey : kCpuTargetKey),
                             int(target()));
    });
    connect(m_repeat, &QSpinBox::valueChanged, this,
            [](int runs) { QSettings().setValue(QLatin1String(kRepeatKey), runs); });
    m_status->setText(scheduleText());
    updateButtons();
}

RunPanel::~RunPanel() = default;

void RunPanel::setAnalysis(const std::shared_ptr<const Analysis>& analysis) {
    m_analysis = analysis && analysis->ok() ? analysis : nullptr;
    m_gpuSchedule = m_analysis && m_analysis->lowered && usesGpuThreads(m_analysis->lowered->func);
    updateTargets();
    if (!m_running)
        m_status->setText(scheduleText());
    updateButtons();
}

bool RunPanel::targetFits(RunTarget target) const {
    if (target == RunTarget::Emulate)
        return true;
    return (target == RunTarget::Cuda) == m_gpuSchedule;
}

void RunPanel::updateTargets() {
    auto* items = qobject_cast<QStandardItemModel*>(m_target->model());
    for (int i = 0; i < m_target->count(); ++i) {
        const auto target = RunTarget(m_target->itemData(i).toInt());
        const bool fits = !m_analysis || targetFits(target);
        items->item(i)->setEnabled(fits);
        items->item(i)->setToolTip(
            fits            ? QString()
            : m_gpuSchedule ? tr("This schedule binds loops to GPU threads: it cannot run on "
                                 "the CPU")
                            : tr("This schedule binds no loop to a GPU thread: it has no GPU "
                                 "kernel"));
    }
    if (!m_analysis)
        return;
    const RunTarget preferred = m_gpuSchedule ? m_preferredGpu : m_preferredCpu;
    if (targetFits(preferred) && (preferred != RunTarget::Cpu || runHasLlvm()))
        setTarget(preferred);
    else if (!targetFits(target()))
        setTarget(m_gpuSchedule || !runHasLlvm() ? RunTarget::Emulate : RunTarget::Cpu);
}

QString RunPanel::scheduleText() const {
    if (!m_analysis)
        return tr("Run or check the kernel once the script is analysed");
    if (m_gpuSchedule)
        return tr("A GPU schedule (loops bound to blockIdx/threadIdx): it runs on the GPU with "
                  "CUDA, or in GPU emulation on the CPU: blocks in parallel, each block's threads "
                  "as loops split at its barriers, compiled by LLVM and checked against the "
                  "interpreter (CPU timings, not GPU ones).");
    return tr("A CPU schedule: it runs on the CPU through the LLVM JIT, or in the interpreter "
              "(the GPU emulation target).");
}

void RunPanel::setScriptName(const QString& name) { m_scriptName = name; }

RunTarget RunPanel::target() const { return RunTarget(m_target->currentData().toInt()); }

void RunPanel::setTarget(RunTarget target) {
    const int index = m_target->findData(int(target));
    if (index >= 0)
        m_target->setCurrentIndex(index);
}

void RunPanel::setRepeat(int runs) { m_repeat->setValue(runs); }

bool RunPanel::run(bool check) {
    if (m_running)
        return false;
    if (!m_analysis) {
        m_status->setText(tr("Nothing to run: the script has no analysed program"));
        return false;
    }
    RunRequest request;
    request.target = target();
    request.check = check;
    request.repeat = check ? 1 : m_repeat->value();
    request.lowerOptions.rules = m_analysis->options.rules;
    request.lowerOptions.keepTrivialLoops = m_analysis->options.keepTrivialLoops;
    m_running = true;
    updateButtons();
    const QString doing =
        tr("%1 on %2").arg(check ? tr("Checking") : tr("Running"), targetLabel(request.target));
    m_status->setText(doing + QStringLiteral("…"));
    // Progress: `run 3 of 10` in the status as the runs end.
    request.progress = [toGui = m_jobs.guiThread(), this, doing](int done, int total) {
        toGui([this, doing, done, total] {
            if (m_running)
                m_status->setText(tr("%1: run %2 of %3…").arg(doing).arg(done).arg(total));
        });
    };
    // The Analysis is shared and immutable: the job keeps it alive while it runs.
    const QString program = m_scriptName.isEmpty() ? tr("untitled") : m_scriptName;
    m_jobs.start<RunReport>(
        [analysis = m_analysis, request] {
            try {
                return runKernel(*analysis->lowered, request);
            } catch (const UserError& e) {
                // Its fix as the script writes it (`s[BL]`, not `s[B.local]`).
                Diagnostic d = e.diagnostic();
                d.fix = analysis->program.inSourceNamesOf(d.fix);
                throw UserError(std::move(d));
            }
        },
        [this, program, target = request.target,
         runs = request.repeat](JobOutcome<RunReport> outcome) {
            onOutcome(std::move(outcome), program, target, runs);
        });
    return true;
}

void RunPanel::onOutcome(JobOutcome<RunReport> outcome, const QString& program, RunTarget target,
                         int runs) {
    m_running = false;
    m_lastError = outcome.cancelled ? tr("cancelled") : outcome.error;
    if (outcome.value) {
        m_lastReport = std::move(outcome.value);
        const std::optional<double> base = baselineFor(m_lastReport->target);
        m_rows.prepend(runRow(program, *m_lastReport, runs, base));
        m_model->setRows(m_rows);
        // Emulated times are the CPU's (compiled, or the interpreter's where the rewrite for the
        // CPU refused the kernel), not a GPU's: say so where they are read.
        const QString where = m_lastReport->target != RunTarget::Emulate
                                  ? targetLabel(m_lastReport->target)
                              : m_lastReport->interpreted
                                  ? tr("emulate (interpreter times, not a GPU's)")
                                  : tr("emulate (compiled for the CPU: CPU times, not a GPU's)");
        QString status = tr("%1: best %2 ms, %3 GFLOP/s")
                             .arg(where, msText(m_lastReport->bestMs))
                             .arg(m_lastReport->gflops, 0, 'f', 3);
        if (m_lastReport->checked)
            status += m_lastReport->passed
                          ? tr(", matches the %1").arg(qstr(m_lastReport->reference))
                          : tr(", WRONG: %1").arg(qstr(m_lastReport->checkDetail));
        m_status->setText(status);
    } else {
        m_status->setText(outcome.cancelled
                              ? tr("Run on %1 cancelled").arg(targetLabel(target))
                              : tr("Cannot run on %1: %2").arg(targetLabel(target), outcome.error));
    }
    updateButtons();
    Q_EMIT runFinished();
}

void RunPanel::cancel() {
    if (m_running)
        m_jobs.cancel();
}

void RunPanel::updateButtons() {
    const bool canRun = m_analysis && !m_running;
    m_runButton->setEnabled(canRun);
    m_checkButton->setEnabled(canRun);
    m_cancelButton->setEnabled(m_running);
    m_baselineButton->setEnabled(m_lastReport.has_value() && !m_running);
}

QString RunPanel::baselineKey(RunTarget target) const {
    QString script = m_scriptName.isEmpty() ? QStringLiteral("untitled") : m_scriptName;
    script.replace(QLatin1Char('/'), QLatin1Char('_'));
    return QStringLiteral("run/baselines/%1/%2")
        .arg(script, QString::fromLatin1(runTargetName(target)));
}

bool RunPanel::saveBaseline() {
    if (!m_lastReport)
        return false;
    QSettings().setValue(baselineKey(m_lastReport->target), m_lastReport->bestMs);
    m_status->setText(
        tr("Baseline for %1 on %2: %3 ms")
            .arg(m_scriptName, targetLabel(m_lastReport->target), msText(m_lastReport->bestMs)));
    return true;
}

std::optional<double> RunPanel::baseline() const { return baselineFor(target()); }

std::optional<double> RunPanel::baselineFor(RunTarget target) const {
    const QVariant value = QSettings().value(baselineKey(target));
    if (!value.isValid())
        return std::nullopt;
    return value.toDouble();
}

void RunPanel::clearBaseline() { QSettings().remove(baselineKey(target())); }

QString RunPanel::statusText() const { return m_status->text(); }

} // namespace bs::gui

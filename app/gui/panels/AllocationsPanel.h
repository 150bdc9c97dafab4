/// \file
/// The Allocations panel (issue 7, item 1): every realized buffer of the current program with
/// the elements it allocates under the tvm-0.5, tvm and tight rules, the elements one
/// iteration really needs, those the reference interpreter really touched, the waste in
/// percent and its causes, each with the schedule change that removes it
/// (analysis/AllocReport.h, the same report as `boundscope alloc`). The report runs the
/// program in the interpreter, so it is computed off the GUI thread, once per program (a rules
/// change does not recompute it: it covers every rule set). Selecting a row selects its stage.
#pragma once

#include "analysis/AllocReport.h"
#include "analysis/Analysis.h"
#include "models/StringTableModel.h"

#include "document/JobRunner.h"

#include <QWidget>

#include <memory>

class QLabel;
class QPlainTextEdit;

namespace bs::gui {

class HintTableView;

/// The table's headers and one row per buffer (widget-free, for the panel and its tests).
QStringList allocationHeaders();
QList<TableRow> allocationRows(const AllocReport& report);
/// Every cause of `buffer` with its detail, the rules it affects and its hint, as plain text.
QString allocationDetails(const BufferReport& buffer);

class AllocationsPanel : public QWidget {
    Q_OBJECT
public:
    explicit AllocationsPanel(QWidget* parent = nullptr);
    ~AllocationsPanel() override;

    /// Computes the report of `analysis`'s program (in a worker; `reportReady` follows), unless
    /// it is the program already shown. A failed or missing analysis clears the panel.
    void setAnalysis(const std::shared_ptr<const Analysis>& analysis);
    /// Selects the row of `stage` (now, or when the report arrives). Emits nothing.
    void showStage(const QString& stage);

    /// The report shown; null while none is (computing, failed, or no program).
    const AllocReport* report() const { return m_report.get(); }
    StringTableModel* model() const { return m_model; }
    /// The line above the table: computing, the error, or the summary.
    QString statusText() const;
    /// The text below the table: the selected buffer's causes and hints.
    QString detailsText() const;
    bool isComputing() const { return m_computing; }

Q_SIGNALS:
    /// A report (or its error) arrived and is shown.
    void reportReady();
    /// The user selected the row of `stage`.
    void stageChosen(const QString& stage);

private:
    void onResult(JobOutcome<std::shared_ptr<const AllocReport>> outcome);
    /// Shows no report, with `status` above the table and `emptyText` in it.
    void clearReport(const QString& status, const QString& emptyText);
    void showDetails(const QString& stage);

    JobRunner m_jobs;
    bool m_computing = false;
    BoundRules m_rules = BoundRules::Tvm;
    Schedule m_schedule; ///< the program the report is (being) computed for
    std::shared_ptr<const AllocReport> m_report;
    bool m_updating = false;
    QString m_stage; ///< the selected stage, selected again when a report arrives

    StringTableModel* m_model;
    QLabel* m_status;
    HintTableView* m_view;
    QPlainTextEdit* m_details;
};

} // namespace bs::gui

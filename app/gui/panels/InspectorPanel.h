/// \file
/// The InferBound inspector (issue 7): for the selected stage, its place in InferBound's visit
/// order, its attach point and attach path, its storage scope (set or inferred), a table of
/// each consumer's request per output axis (phase 3), and in tabs the union and final ranges
/// (phase 4), the relaxed loops with the reason, the phase-1 leaf sets with their case and the
/// phase-2 root sets (seed 000, "InferRootBound").
#pragma once

#include "analysis/Analysis.h"
#include "models/StageQueries.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QTabWidget;

namespace bs::gui {

class HintTableView;
class StringTableModel;

class InspectorPanel : public QWidget {
    Q_OBJECT
public:
    enum class Table { Requests, Union, Relax, LeafSets, RootSets };

    explicit InspectorPanel(QWidget* parent = nullptr);

    /// Shows `analysis`, keeping the stage shown if it still exists.
    void setAnalysis(std::shared_ptr<const Analysis> analysis);
    /// Shows the stage `name` (empty: none). Emits nothing.
    void showStage(const QString& name);
    const QString& stage() const { return m_stage; }

    StringTableModel* model(Table table) const;
    /// The view of `table` (its hint says why it is empty).
    HintTableView* view(Table table) const { return m_views.value(int(table)); }
    /// The header lines (visit order, attach point, attach path, scope) as shown.
    QString summaryText() const;

Q_SIGNALS:
    /// The user picked a stage in the inspector's list or double-clicked a consumer row.
    void stageChosen(const QString& name);
    /// The user picked a row about an IterVar of `stage`.
    void iterVarChosen(const QString& stage, const QString& iterVar);

private:
    QWidget* createSummary();
    HintTableView* addTable(Table table, const QStringList& headers);
    /// Says in each empty table why the stage has no rows there.
    void setEmptyHints(const StageSummary& summary);
    void refresh();
    void onRowActivated(const QModelIndex& index, bool jumpToStage);

    std::shared_ptr<const Analysis> m_analysis;
    QString m_stage;
    bool m_updating = false;

    QComboBox* m_stageList;
    QLabel* m_kind;
    QLabel* m_visit;
    QLabel* m_attach;
    QLabel* m_attachPath;
    QLabel* m_scope;
    QTabWidget* m_tabs;
    QList<StringTableModel*> m_models; ///< indexed by Table
    QList<HintTableView*> m_views;     ///< indexed by Table
};

} // namespace bs::gui

/// \file
/// A read-only table of text, the one adapter behind every table of the app (bounds, consumer
/// requests, leaf sets, ...). The rows are built from engine results by the functions in
/// models/TraceRows.h; the model only hands them to Qt's views (STYLE.md: "models adapt engine
/// data to Qt and hold no logic"). Each row also names the stage and IterVar it is about, which
/// the panels use to link a clicked row to the shared selection.
#pragma once

#include <QAbstractTableModel>
#include <QStringList>

namespace bs::gui {

struct TableRow {
    QStringList cells;
    /// Longer explanations per cell (may be shorter than `cells`; missing ones are empty).
    QStringList toolTips;
    QString stage;   ///< the stage the row is about
    QString iterVar; ///< the IterVar the row is about, if any
};

class StringTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role { StageRole = Qt::UserRole + 1, IterVarRole };

    explicit StringTableModel(QStringList headers, QObject* parent = nullptr);

    /// Replaces every row (a model reset: views keep their columns and header state).
    void setRows(QList<TableRow> rows);
    const TableRow& row(int index) const { return m_rows.at(index); }
    /// The first row about `stage` (and `iterVar` when given), or -1.
    int findRow(const QString& stage, const QString& iterVar = QString()) const;

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QStringList m_headers;
    QList<TableRow> m_rows;
};

} // namespace bs::gui

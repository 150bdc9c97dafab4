#include "models/StringTableModel.h"

namespace bs::gui {

StringTableModel::StringTableModel(QStringList headers, QObject* parent)
    : QAbstractTableModel(parent), m_headers(std::move(headers)) {}

void StringTableModel::setRows(QList<TableRow> rows) {
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int StringTableModel::findRow(const QString& stage, const QString& iterVar) const {
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].stage == stage && (iterVar.isEmpty() || m_rows[i].iterVar == iterVar))
            return i;
    }
    return -1;
}

int StringTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int StringTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_headers.size());
}

QVariant StringTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= m_rows.size())
        return QVariant();
    const TableRow& row = m_rows[index.row()];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return column < row.cells.size() ? row.cells[column] : QString();
    case Qt::ToolTipRole: {
        // Cells are often too narrow for a whole IntSet: the tooltip always has the full text.
        const QString tip = column < row.toolTips.size() ? row.toolTips[column] : QString();
        const QString text = column < row.cells.size() ? row.cells[column] : QString();
        return tip.isEmpty() ? text : text + QStringLiteral("\n\n") + tip;
    }
    case StageRole:
        return row.stage;
    case IterVarRole:
        return row.iterVar;
    default:
        return QVariant();
    }
}

QVariant StringTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole)
        return QVariant();
    if (orientation == Qt::Vertical)
        return section + 1;
    return section < m_headers.size() ? m_headers[section] : QVariant();
}

} // namespace bs::gui

#include "panels/BoundsPanel.h"

#include "models/StageQueries.h"
#include "models/StringTableModel.h"
#include "models/TraceRows.h"
#include "panels/TableViews.h"

#include <QItemSelection>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QVBoxLayout>

namespace bs::gui {

namespace {
constexpr int kExtentColumn = 3;
constexpr int kRoleColumn = 4;
} // namespace

BoundsPanel::BoundsPanel(QWidget* parent)
    : QWidget(parent), m_model(new StringTableModel(boundsHeaders(), this)),
      m_filter(new QSortFilterProxyModel(this)), m_filterEdit(new QLineEdit(this)) {
    m_filter->setSourceModel(m_model);
    m_filter->setFilterKeyColumn(-1);
    m_filter->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_filterEdit->setPlaceholderText(tr("Filter by stage, IterVar or role"));
    m_filterEdit->setClearButtonEnabled(true);
    m_view = createTableView(m_filter, this);
    connect(m_filterEdit, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_filter->setFilterFixedString(text);
        updateEmptyText();
    });
    updateEmptyText();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_filterEdit);
    layout->addWidget(m_view, 1);
    onRowChosen(m_view, this, &m_updating, [this](const QString& stage, const QString& iterVar) {
        Q_EMIT rowChosen(stage, iterVar);
    });
}

void BoundsPanel::setAnalysis(const std::shared_ptr<const Analysis>& analysis) {
    m_updating = true;
    m_model->setRows(analysis ? boundsRows(*analysis) : QList<TableRow>());
    m_failure = analysis ? failureNote(*analysis) : QString();
    m_updating = false;
    updateEmptyText();
    showSelection(m_stage, m_iterVar);
}

void BoundsPanel::updateEmptyText() {
    m_view->setEmptyText(m_model->rowCount()
                             ? tr("No IterVar matches '%1'.").arg(m_filterEdit->text())
                         : !m_failure.isEmpty() ? m_failure + tr("; no bounds were inferred.")
                                                : tr("No analysis yet."));
}

void BoundsPanel::showSelection(const QString& stage, const QString& iterVar) {
    m_stage = stage;
    m_iterVar = iterVar;
    m_updating = true;
    QItemSelection selection;
    QModelIndex first;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const TableRow& r = m_model->row(row);
        if (r.stage != stage || (!iterVar.isEmpty() && r.iterVar != iterVar))
            continue;
        const QModelIndex index = m_filter->mapFromSource(m_model->index(row, 0));
        if (!index.isValid())
            continue;
        selection.select(index, index.siblingAtColumn(m_model->columnCount() - 1));
        if (!first.isValid())
            first = index;
    }
    QItemSelectionModel* selectionModel = m_view->selectionModel();
    selectionModel->select(selection, QItemSelectionModel::ClearAndSelect);
    selectionModel->setCurrentIndex(first, QItemSelectionModel::NoUpdate);
    if (first.isValid())
        m_view->scrollTo(first);
    m_updating = false;
}

qint64 BoundsPanel::rootElements(const QString& stage) const {
    qint64 elements = 1;
    int roots = 0;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const TableRow& r = m_model->row(row);
        if (r.stage != stage || !r.cells.value(kRoleColumn).startsWith(QLatin1String("root")))
            continue;
        bool isNumber = false;
        const qint64 extent = r.cells.value(kExtentColumn).toLongLong(&isNumber);
        if (!isNumber)
            return -1;
        elements *= extent;
        ++roots;
    }
    return roots ? elements : -1;
}

} // namespace bs::gui

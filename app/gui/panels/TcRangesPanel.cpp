#include "panels/TcRangesPanel.h"

#include "models/StringTableModel.h"
#include "models/TcRangeRows.h"
#include "panels/TableViews.h"
#include "views/Theme.h"

#include <QItemSelection>
#include <QLabel>
#include <QVBoxLayout>

namespace bs::gui {

TcRangesPanel::TcRangesPanel(QWidget* parent)
    : QWidget(parent), m_model(new StringTableModel(tcRangeHeaders(), this)),
      m_view(createTableView(m_model, this)), m_summary(new QLabel(this)),
      m_warnings(new QLabel(this)) {
    m_summary->setObjectName(QStringLiteral("tcRangesSummary"));
    m_summary->setWordWrap(true);
    m_summary->setText(tr("No analysis yet."));
    m_warnings->setObjectName(QStringLiteral("tcRangesWarnings"));
    m_warnings->setWordWrap(true);
    m_warnings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto styleWarnings = [this] {
        m_warnings->setStyleSheet(QStringLiteral("QLabel#tcRangesWarnings { color: %1; }")
                                      .arg(theme::ink(QColor(0x8a, 0x5a, 0x00)).name()));
    };
    styleWarnings();
    connect(theme::notifier(), &theme::Notifier::changed, m_warnings, styleWarnings);
    m_warnings->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_summary);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_warnings);
    onRowChosen(m_view, this, &m_updating, [this](const QString& stage, const QString& iterVar) {
        Q_EMIT rowChosen(stage, iterVar);
    });
}

void TcRangesPanel::setAnalysis(const std::shared_ptr<const Analysis>& analysis) {
    m_updating = true;
    m_model->setRows(analysis ? tcRangeRows(*analysis) : QList<TableRow>());
    m_updating = false;
    m_summary->setText(analysis ? tcRangesSummary(*analysis) : tr("No analysis yet."));
    const bool fromTc = analysis && !analysis->program.tcPrograms.empty();
    m_view->setVisible(fromTc);
    m_view->setEmptyText(tr("No statement of the TC definition is a stage of this schedule."));
    const QStringList warnings = analysis ? tcWarningLines(*analysis) : QStringList();
    m_warnings->setText(warnings.join(QLatin1Char('\n')));
    m_warnings->setVisible(!warnings.isEmpty());
}

void TcRangesPanel::showSelection(const QString& stage, const QString& iterVar) {
    m_updating = true;
    QItemSelection selection;
    QModelIndex first;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const TableRow& r = m_model->row(row);
        if (stage.isEmpty() || r.stage != stage || (!iterVar.isEmpty() && r.iterVar != iterVar))
            continue;
        const QModelIndex index = m_model->index(row, 0);
        selection.select(index, index.siblingAtColumn(m_model->columnCount() - 1));
        if (!first.isValid())
            first = index;
    }
    m_view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
    m_view->selectionModel()->setCurrentIndex(first, QItemSelectionModel::NoUpdate);
    if (first.isValid())
        m_view->scrollTo(first);
    m_updating = false;
}

QString TcRangesPanel::summary() const { return m_summary->text(); }

QString TcRangesPanel::warnings() const {
    return m_warnings->isHidden() ? QString() : m_warnings->text();
}

} // namespace bs::gui

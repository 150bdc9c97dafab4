#include "models/StepTreeModel.h"

#include "models/EngineText.h"
#include "models/StepOutline.h"
#include "models/StepText.h"

namespace bs::gui {

namespace {

QStandardItem* headingItem(const QString& text, int firstStep, int level) {
    auto* item = new QStandardItem(text);
    QFont font = item->font();
    font.setBold(level == 0);
    font.setItalic(level == 1);
    item->setFont(font);
    item->setData(firstStep, StepTreeModel::StepRole);
    item->setData(level, StepTreeModel::LevelRole);
    item->setEditable(false);
    return item;
}

QList<QStandardItem*> stepRow(const BoundStep& step) {
    QList<QStandardItem*> row{new QStandardItem(stepLabel(step)),
                              new QStandardItem(qstr(step.rule)),
                              new QStandardItem(stepSummary(step))};
    for (QStandardItem* item : row) {
        item->setData(step.id, StepTreeModel::StepRole);
        item->setData(2, StepTreeModel::LevelRole);
        item->setToolTip(qstr(step.text));
        item->setEditable(false);
    }
    return row;
}

} // namespace

StepTreeModel::StepTreeModel(QObject* parent) : QStandardItemModel(parent) {
    setHorizontalHeaderLabels({tr("Step"), tr("Rule"), tr("Result")});
}

void StepTreeModel::setAnalysis(const Analysis* analysis) {
    removeRows(0, rowCount());
    m_steps.clear();
    const BoundSteps* steps = analysis ? stepsOf(*analysis) : nullptr;
    if (!steps)
        return;
    m_steps.resize(qsizetype(steps->size()), nullptr);
    for (const StepGroup& group : stepOutline(*analysis)) {
        const int groupStep = group.sections.value(0).steps.value(0, -1);
        QStandardItem* groupItem = headingItem(group.title, groupStep, 0);
        for (const StepSection& section : group.sections) {
            QStandardItem* sectionItem = headingItem(section.title, section.steps.value(0, -1), 1);
            for (int id : section.steps) {
                QList<QStandardItem*> row = stepRow(steps->at(id));
                m_steps[id] = row.front();
                sectionItem->appendRow(row);
            }
            groupItem->appendRow(sectionItem);
        }
        appendRow(groupItem);
    }
}

QModelIndex StepTreeModel::indexOfStep(int id) const {
    if (id < 0 || id >= m_steps.size() || !m_steps[id])
        return QModelIndex();
    return m_steps[id]->index();
}

int StepTreeModel::stepAt(const QModelIndex& index) const {
    const QVariant step = index.sibling(index.row(), 0).data(StepRole);
    return step.isValid() ? step.toInt() : -1;
}

} // namespace bs::gui

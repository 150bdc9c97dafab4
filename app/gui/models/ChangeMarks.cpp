#include "models/ChangeMarks.h"

#include "models/GraphModels.h"

#include <QRegularExpression>

namespace bs::gui {

ChangedObjects changedObjectsOf(const AnalysisDiff& diff) {
    ChangedObjects changed;
    for (const BoundsPair& pair : diff.bounds) {
        if (!pair.changed())
            continue;
        const QString stage = QString::fromStdString(pair.stage);
        changed.stages.insert(stage);
        changed.iterVars.insert({stage, QString::fromStdString(pair.name)});
    }
    // A buffer is named after its stage; a multi-output stage's buffers carry `.v0`, `.v1`.
    static const QRegularExpression output(QStringLiteral("\\.v\\d+$"));
    for (const AllocationPair& pair : diff.allocations)
        if (pair.changed())
            changed.stages.insert(QString::fromStdString(pair.buffer).remove(output));
    return changed;
}

StepMarks changeMarksOf(const Analysis& analysis, const ChangedObjects& changed,
                        const viz::Graph& graph) {
    StepMarks marks;
    auto isChanged = [&](const ObjectNames& names) {
        return names.iterVar.isEmpty() ? changed.stages.contains(names.stage)
                                       : changed.iterVars.contains({names.stage, names.iterVar});
    };
    for (const viz::GraphNode& node : graph.nodes) {
        const QString id = QString::fromStdString(node.id);
        if (node.ref.stage >= 0 && isChanged(objectNamesOf(analysis, node.ref)))
            marks.nodes.insert(id);
        for (size_t r = 0; r < node.rows.size(); ++r) {
            const viz::ObjectRef& ref = node.rows[r].ref;
            if (ref.stage < 0 || ref.iterVar < 0)
                continue;
            if (isChanged(objectNamesOf(analysis, ref)))
                marks.rows[id].insert(int(r));
        }
    }
    return marks;
}

} // namespace bs::gui

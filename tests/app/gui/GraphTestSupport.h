/// \file
/// Helpers for the tests that drive the graphs with the mouse: where a stage or loop is drawn,
/// and a drag from one point of a graph to another.
#pragma once

#include "models/GraphModels.h"
#include "panels/GraphPanel.h"
#include "views/GraphItems.h"
#include "views/GraphScene.h"
#include "views/GraphView.h"

#include <QDockWidget>
#include <QtTest>

#include <optional>

namespace bs::gui::test {

/// A point of the attach tree, in scene coordinates, on the node of `stage` (its title when
/// `iterVar` is empty, else the row of that loop); null when there is none.
inline std::optional<QPointF> pointOf(GraphPanel* panel, const Analysis& analysis,
                                      const QString& stage, const QString& iterVar) {
    const QString wantedRoot = QStringLiteral("root");
    for (QGraphicsItem* item : panel->scene()->items()) {
        auto* node = dynamic_cast<GraphNodeItem*>(item);
        if (!node)
            continue;
        const QRectF box = node->sceneBoundingRect();
        const bool isRoot = node->node().kind == viz::GraphNodeKind::Root;
        if (stage == wantedRoot) {
            if (isRoot)
                return box.center();
            continue;
        }
        if (isRoot)
            continue;
        // Scan down the middle of the node for the title or the row.
        for (qreal y = box.top() + 1; y < box.bottom(); y += 1) {
            const QPointF at(box.center().x(), y);
            const ObjectNames names =
                objectNamesOf(analysis, node->objectAt(node->mapFromScene(at)));
            if (names.stage == stage && names.iterVar == iterVar)
                return at;
        }
    }
    return std::nullopt;
}

/// Floats `panel`'s dock at `size`, so that a whole small graph is in view.
inline void floatLarge(GraphPanel* panel, QSize size = QSize(900, 700)) {
    if (auto* dock = qobject_cast<QDockWidget*>(panel->parentWidget())) {
        dock->setFloating(true);
        dock->resize(size);
        dock->show();
    }
}

/// Drags in `panel`'s view from scene point `from` to `to` with the left button (the view is
/// centred between them first).
inline void drag(GraphPanel* panel, QPointF from, QPointF to) {
    panel->view()->centerOn((from + to) / 2);
    QWidget* viewport = panel->view()->viewport();
    const QPoint start = panel->view()->mapFromScene(from);
    const QPoint end = panel->view()->mapFromScene(to);
    QTest::mousePress(viewport, Qt::LeftButton, Qt::NoModifier, start);
    for (int step = 1; step <= 8; ++step)
        QTest::mouseMove(viewport, start + (end - start) * step / 8);
    QTest::mouseRelease(viewport, Qt::LeftButton, Qt::NoModifier, end);
}

} // namespace bs::gui::test

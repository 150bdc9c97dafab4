// Editing by dragging in the graphs (issue 17, item 6): in the attach tree a stage dropped on
// a loop of another stage is computed there and on ROOT at the root, a loop dropped on another
// loop of its stage takes its place; an illegal drop says why in the status bar and changes
// nothing. dropEdit, the mapping from a drop to an edit, is tested on its own first.
#include "GraphTestSupport.h"
#include "GuiTestSupport.h"

#include "edit/EditActions.h"
#include "edit/ScheduleTools.h"
#include "models/GraphModels.h"
#include "models/StringTableModel.h"
#include "panels/BoundsPanel.h"
#include "panels/GraphPanel.h"
#include "views/GraphItems.h"
#include "views/GraphScene.h"
#include "views/GraphView.h"
#include "views/HintTableView.h"

#include <QApplication>
#include <QContextMenuEvent>
#include <QDockWidget>
#include <QMenu>
#include <QStatusBar>
#include <QTextDocument>
#include <QtTest>

namespace bs::gui::test {

namespace {

const char* const kScript = "import tvm\n"
                            "from tvm import te\n"
                            "A = te.placeholder((64, 64), name=\"A\")\n"
                            "B = te.compute((64, 64), lambda i, j: A[i, j] + 1.0, name=\"B\")\n"
                            "C = te.compute((64, 64), lambda i, j: B[i, j] * 2.0, name=\"C\")\n"
                            "s = te.create_schedule(C.op)\n";

struct Fixture {
    MainWindow window{MainWindow::Options{false, false}};

    Fixture() {
        window.resize(1600, 1000);
        window.show();
    }

    /// Opens `script` with the attach tree in a floating dock big enough for the whole tree.
    bool open(const QString& script) {
        floatLarge(window.attachTree());
        window.document()->textDocument()->setPlainText(script);
        window.document()->reanalyse();
        return waitForAnalysis(*window.document()) && !window.document()->problem() &&
               waitForGraphs(window);
    }

    QString text() const { return window.document()->textDocument()->toPlainText(); }

    /// The attach tree, fitted.
    GraphPanel* tree() {
        window.attachTree()->view()->fitGraph();
        return window.attachTree();
    }
    /// Where `stage` (its loop `iterVar`) is drawn in the attach tree of the current analysis.
    std::optional<QPointF> at(const QString& stage, const QString& iterVar = QString()) {
        return pointOf(window.attachTree(), *window.document()->analysis(), stage, iterVar);
    }
};

} // namespace

class GraphDragTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void dropEditMapsDropsToEdits();
    void dragAStageOntoALoopComputesItThere();
    void dragALoopOntoAnotherReordersThem();
    void anIllegalDropSaysWhyAndChangesNothing();
    void rightClickingATableRowOffersItsEdits();
    void aDragThatLosesTheMouseEndsWithoutADrop();
};

void GraphDragTest::dropEditMapsDropsToEdits() {
    Fixture f;
    QVERIFY(f.open(QString::fromLatin1(kScript)));
    const Program program = f.window.document()->analysis()->program;
    QString refusal;
    GraphDrop drop{QStringLiteral("B"), QString(), QStringLiteral("C"), QStringLiteral("j"), false};
    std::optional<ScheduleEdit> edit = dropEdit(program, drop, &refusal);
    QVERIFY(edit && edit->kind == EditKind::ComputeAt);
    QCOMPARE(edit->description(), std::string("compute_at B \u2192 C.j"));
    // Dragged by one of its loops, the stage still goes.
    drop.iterVar = QStringLiteral("i");
    edit = dropEdit(program, drop, &refusal);
    QVERIFY(edit && edit->kind == EditKind::ComputeAt);
    drop.root = true;
    edit = dropEdit(program, drop, &refusal);
    QVERIFY(edit && edit->kind == EditKind::ComputeRoot);
    // On another stage's title: what to do instead.
    drop = GraphDrop{QStringLiteral("B"), QString(), QStringLiteral("C"), QString(), false};
    QVERIFY(!dropEdit(program, drop, &refusal));
    QCOMPARE(refusal, QStringLiteral("drop B on a loop of C to compute it there"));
    // A loop onto another of its stage: the loops between them move, the rest keep order.
    drop = GraphDrop{QStringLiteral("C"), QStringLiteral("j"), QStringLiteral("C"),
                     QStringLiteral("i"), false};
    edit = dropEdit(program, drop, &refusal);
    QVERIFY(edit && edit->kind == EditKind::Reorder);
    QCOMPARE(edit->iterVar, std::string("j"));
    QCOMPARE(edit->moreIterVars, std::vector<std::string>{"i"});
    // Four loops (C's i and j split): moving down and up takes the target's place, only the
    // loops between move, in both directions and over a distance.
    const char* const split = "io, ii = s[C].split(C.op.axis[0], factor=8)\n"
                              "jo, ji = s[C].split(C.op.axis[1], factor=8)\n";
    QVERIFY(f.open(QString::fromLatin1(kScript) + QString::fromLatin1(split)));
    const Program four = f.window.document()->analysis()->program;
    const auto moved = [&](const char* from, const char* to) {
        GraphDrop loop{QStringLiteral("C"), QString::fromLatin1(from), QStringLiteral("C"),
                       QString::fromLatin1(to), false};
        const std::optional<ScheduleEdit> reorder = dropEdit(four, loop, &refusal);
        std::vector<std::string> order;
        if (reorder && reorder->kind == EditKind::Reorder) {
            order.push_back(reorder->iterVar);
            order.insert(order.end(), reorder->moreIterVars.begin(), reorder->moreIterVars.end());
        }
        return order;
    };
    // Leaves: i.outer, i.inner, j.outer, j.inner.
    QCOMPARE(moved("i.outer", "j.inner"),
             (std::vector<std::string>{"i.inner", "j.outer", "j.inner", "i.outer"}));
    QCOMPARE(moved("j.inner", "i.inner"),
             (std::vector<std::string>{"j.inner", "i.inner", "j.outer"}));
    QCOMPARE(moved("j.outer", "i.outer"),
             (std::vector<std::string>{"j.outer", "i.outer", "i.inner"}));
    // A loop that is no leaf any more (split) cannot move.
    QVERIFY(moved("i", "j.inner").empty());
    QVERIFY(refusal.contains(QStringLiteral("'i' is not a loop of C any more")));
    // Onto itself, or onto empty space: nothing, and nothing to say.
    drop.targetIterVar = drop.iterVar;
    QVERIFY(!dropEdit(program, drop, &refusal) && refusal.isEmpty());
    drop = GraphDrop();
    drop.stage = QStringLiteral("C");
    QVERIFY(!dropEdit(program, drop, &refusal) && refusal.isEmpty());
}

void GraphDragTest::dragAStageOntoALoopComputesItThere() {
    Fixture f;
    QVERIFY(f.open(QString::fromLatin1(kScript)));
    GraphPanel* tree = f.tree();
    const std::optional<QPointF> b = f.at(QStringLiteral("B"));
    const std::optional<QPointF> ci = f.at(QStringLiteral("C"), QStringLiteral("i"));
    QVERIFY(b && ci);
    drag(tree, *b, *ci);
    QVERIFY(waitForEditedAnalysis(*f.window.scheduleTools()->editor()));
    QVERIFY2(f.text().endsWith(QStringLiteral("s[B].compute_at(s[C], s[C].op.axis[0])\n")),
             qPrintable(f.text()));
    QVERIFY(!f.window.document()->problem());
    // Back to the root: drop B on ROOT; the new compute_root replaces the compute_at.
    QVERIFY(waitForGraphs(f.window));
    f.tree();
    const std::optional<QPointF> b2 = f.at(QStringLiteral("B"));
    const std::optional<QPointF> root = f.at(QStringLiteral("root"));
    QVERIFY(b2 && root);
    drag(tree, *b2, *root);
    QVERIFY(waitForEdit(*f.window.scheduleTools()->editor()));
    QVERIFY2(f.text().endsWith(QStringLiteral("s[B].compute_root()\n")), qPrintable(f.text()));
    QVERIFY(!f.text().contains(QStringLiteral("compute_at")));
    // Both are steps of the one history.
    QCOMPARE(f.window.scheduleTools()->editor()->undoStack()->count(), 2);
}

void GraphDragTest::dragALoopOntoAnotherReordersThem() {
    Fixture f;
    QVERIFY(f.open(QString::fromLatin1(kScript)));
    GraphPanel* tree = f.tree();
    const std::optional<QPointF> cj = f.at(QStringLiteral("C"), QStringLiteral("j"));
    const std::optional<QPointF> ci = f.at(QStringLiteral("C"), QStringLiteral("i"));
    QVERIFY(cj && ci);
    drag(tree, *cj, *ci);
    QVERIFY(waitForEditedAnalysis(*f.window.scheduleTools()->editor()));
    QVERIFY2(f.text().endsWith(QStringLiteral("s[C].reorder(s[C].op.axis[1], s[C].op.axis[0])\n")),
             qPrintable(f.text() + f.window.statusBar()->currentMessage()));
    const Stage c = f.window.document()->analysis()->program.schedule.stages()[2];
    QCOMPARE(c->leafIterVars[0]->var.name(), std::string("j"));
}

void GraphDragTest::anIllegalDropSaysWhyAndChangesNothing() {
    Fixture f;
    QVERIFY(f.open(QString::fromLatin1(kScript)));
    GraphPanel* tree = f.tree();
    // C is the output: it has no consumer to be computed inside, least of all its producer.
    const std::optional<QPointF> c = f.at(QStringLiteral("C"));
    const std::optional<QPointF> bi = f.at(QStringLiteral("B"), QStringLiteral("i"));
    QVERIFY(c && bi);
    QSignalSpy feedback(tree, &GraphPanel::dragFeedback);
    QSignalSpy dropped(tree, &GraphPanel::dropRequested);
    f.window.selection()->select(QStringLiteral("A"));
    const QString selected = f.window.selection()->stage();
    const QString selectedLoop = f.window.selection()->iterVar();
    drag(tree, *c, *bi);
    QVERIFY(!feedback.isEmpty());
    QVERIFY2(feedback.last().first().toString().startsWith(QStringLiteral("Cannot drop here: ")),
             qPrintable(feedback.last().first().toString()));
    QVERIFY(f.window.statusBar()->currentMessage().startsWith(QStringLiteral("Cannot drop here")));
    QCOMPARE(dropped.count(), 0);
    QVERIFY(!f.window.scheduleTools()->editor()->isChecking());
    QCOMPARE(f.text(), QString::fromLatin1(kScript));
    // The press was a drag, not a click: the selection is what it was, and the drag is over.
    QCOMPARE(f.window.selection()->stage(), selected);
    QCOMPARE(f.window.selection()->iterVar(), selectedLoop);
    QVERIFY(!tree->scene()->isDragging());
}

void GraphDragTest::rightClickingATableRowOffersItsEdits() {
    Fixture f;
    QVERIFY(f.open(QString::fromLatin1(kScript)));
    // The Bounds table lists every loop: right-clicking the row of C's j selects the loop and
    // pops up the edits of a loop, checked (j is innermost: no fuse with the next loop).
    HintTableView* table = f.window.bounds()->view();
    QAbstractItemModel* model = table->model(); // the filter's proxy
    QModelIndex cj;
    for (int row = 0; row < model->rowCount() && !cj.isValid(); ++row) {
        const QModelIndex index = model->index(row, 0);
        if (index.data(StringTableModel::StageRole) == QStringLiteral("C") &&
            index.data(StringTableModel::IterVarRole) == QStringLiteral("j"))
            cj = index;
    }
    QVERIFY(cj.isValid());
    table->scrollTo(cj);
    const QPoint at = table->visualRect(cj).center();
    QContextMenuEvent event(QContextMenuEvent::Mouse, at, table->viewport()->mapToGlobal(at));
    QCoreApplication::sendEvent(table->viewport(), &event);
    QVERIFY(event.isAccepted());
    QCOMPARE(f.window.selection()->stage(), QStringLiteral("C"));
    QCOMPARE(f.window.selection()->iterVar(), QStringLiteral("j"));
    QTRY_VERIFY(qobject_cast<QMenu*>(QApplication::activePopupWidget()));
    auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
    QStringList texts;
    QAction* fuseNext = nullptr;
    for (QAction* action : menu->actions()) {
        texts << action->text();
        if (action->text() == QStringLiteral("&Fuse with Next"))
            fuseNext = action;
    }
    QVERIFY2(texts.contains(QStringLiteral("Loop j of C")), qPrintable(texts.join(u'|')));
    QVERIFY(fuseNext && !fuseNext->isEnabled());
    menu->close();
}

void GraphDragTest::aDragThatLosesTheMouseEndsWithoutADrop() {
    Fixture f;
    QVERIFY(f.open(QString::fromLatin1(kScript)));
    GraphPanel* tree = f.tree();
    const std::optional<QPointF> b = f.at(QStringLiteral("B"));
    const std::optional<QPointF> ci = f.at(QStringLiteral("C"), QStringLiteral("i"));
    QVERIFY(b && ci);
    QWidget* viewport = tree->view()->viewport();
    const QPoint start = tree->view()->mapFromScene(*b);
    const QPoint end = tree->view()->mapFromScene(*ci);
    QTest::mousePress(viewport, Qt::LeftButton, Qt::NoModifier, start);
    for (int step = 1; step <= 4; ++step)
        QTest::mouseMove(viewport, start + (end - start) * step / 4);
    QVERIFY(tree->scene()->isDragging());
    QVERIFY(f.window.statusBar()->currentMessage().startsWith(QStringLiteral("Drop to")));
    // A popup (or another window) takes the mouse: the drag ends, nothing is dropped.
    QSignalSpy dropped(tree, &GraphPanel::dropRequested);
    QGraphicsItem* grabber = tree->scene()->mouseGrabberItem();
    QVERIFY(grabber);
    grabber->ungrabMouse();
    QVERIFY(!tree->scene()->isDragging());
    QVERIFY(f.window.statusBar()->currentMessage().isEmpty());
    QCOMPARE(dropped.count(), 0);
    QCOMPARE(f.text(), QString::fromLatin1(kScript));
    QTest::mouseRelease(viewport, Qt::LeftButton, Qt::NoModifier, end);
    // The next drag works.
    drag(tree, *b, *ci);
    QVERIFY(waitForEditedAnalysis(*f.window.scheduleTools()->editor()));
    QVERIFY(f.text().contains(QStringLiteral("compute_at")));
}

BS_GUI_TEST_SUITE(GraphDragTest);

} // namespace bs::gui::test

#include "GraphDragTest.moc"

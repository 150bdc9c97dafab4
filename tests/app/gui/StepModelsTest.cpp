// The Step-through's models (issue 13, items 3 and 4): the steps of the fuse/split example are
// grouped by stage and phase, each once; a step is found again after a re-analysis; a step is
// named on the command line; the words shown for a step and for a number of the IR; and which
// characters of an IR line are a number.
#include "GuiTestSupport.h"
#include "TestPrograms.h"

#include "models/EngineText.h"
#include "models/IrLines.h"
#include "models/StepOutline.h"
#include "models/StepText.h"
#include "models/StepTreeModel.h"

#include <QtTest>

namespace bs::gui::test {

namespace {

std::shared_ptr<const Analysis> analyse(const Program& program,
                                        BoundRules rules = BoundRules::Tvm) {
    return std::make_shared<const Analysis>(analyze(program, AnalysisOptions{rules, false}));
}

/// The titles of `item`'s children.
QStringList childTitles(const QStandardItem* item) {
    QStringList titles;
    for (int r = 0; r < item->rowCount(); ++r)
        titles << item->child(r)->text();
    return titles;
}

} // namespace

class StepModelsTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void outlineGroupsEveryStepOnceByStageAndPhase();
    void treeModelShowsTheOutlineAndFindsEachStep();
    void stepSpecsNameAnIdAPhaseOrAPhaseAndRule();
    void sameStepIsFoundAfterAReanalysis();
    void derivationOfAnAllocateFollowsItsRealizeAndUnions();
    void detailsLinkTheStepsReadAndReading();
    void numbersOfAnIrLineAreNotPartsOfNames();
};

void StepModelsTest::outlineGroupsEveryStepOnceByStageAndPhase() {
    const auto analysis = analyse(fuseExample());
    QVERIFY2(analysis->ok(), analysis->error ? analysis->error->message.c_str() : "");
    const QList<StepGroup> outline = stepOutline(*analysis);
    QStringList titles;
    QList<int> ids;
    for (const StepGroup& group : outline) {
        titles << group.title;
        for (const StepSection& section : group.sections)
            ids << section.steps;
    }
    QCOMPARE(titles, (QStringList{QStringLiteral("normalize (inline, rebase)"),
                                  QStringLiteral("C · output"),
                                  QStringLiteral("B · computed at i.j.fused.outer of C"),
                                  QStringLiteral("lowering (realize, guards, allocate)")}));
    // Every step once, in order.
    QCOMPARE(ids.size(), int(stepsOf(*analysis)->size()));
    for (int n = 0; n < ids.size(); ++n)
        QCOMPARE(ids[n], n);
    QStringList sections;
    for (const StepSection& section : outline[2].sections)
        sections << section.title;
    QCOMPARE(
        sections,
        (QStringList{QStringLiteral("visit"), QStringLiteral("phase 1 · consumer C: leaf sets"),
                     QStringLiteral("phase 2 · consumer C: pass up"),
                     QStringLiteral("phase 3 · consumer C: requests"),
                     QStringLiteral("phase 4 · union"), QStringLiteral("pass down")}));
    // The pass-up section holds C's split and then its fuse, both about B's request.
    const BoundSteps& steps = *stepsOf(*analysis);
    const QList<int> passUp = outline[2].sections[2].steps;
    QVERIFY(passUp.size() >= 2);
    QCOMPARE(steps.at(passUp[0]).rule, std::string("split-evaluated"));
    QCOMPARE(steps.at(passUp[1]).rule, std::string("fuse-one-row"));
    for (int id : outline[2].sections[2].steps)
        QCOMPARE(stageNameOf(*analysis, steps.at(id).stage), QStringLiteral("B"));
    QCOMPARE(outline[2].stage, QStringLiteral("B"));
}

void StepModelsTest::treeModelShowsTheOutlineAndFindsEachStep() {
    const auto analysis = analyse(fuseExample());
    StepTreeModel model;
    model.setAnalysis(analysis.get());
    const BoundSteps& steps = *stepsOf(*analysis);
    QCOMPARE(model.stepCount(), int(steps.size()));
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(childTitles(model.item(0)), QStringList{QStringLiteral("rebase")});
    for (int id = 0; id < int(steps.size()); ++id) {
        const QModelIndex index = model.indexOfStep(id);
        QVERIFY(index.isValid());
        QCOMPARE(model.stepAt(index), id);
        QCOMPARE(index.data(StepTreeModel::LevelRole).toInt(), 2);
        QCOMPARE(index.data().toString(), stepLabel(steps.at(id)));
        QCOMPARE(index.parent().parent().parent(), QModelIndex()); // group > section > step
    }
    // A group or section row stands for its first step.
    QCOMPARE(model.stepAt(model.index(2, 0)),
             findStep(*analysis, QStringLiteral("visit:computed")));
    const int fuse = findStep(*analysis, QStringLiteral("pass-up:fuse"));
    const QModelIndex fuseRow = model.indexOfStep(fuse);
    QCOMPARE(fuseRow.parent().data().toString(), QStringLiteral("phase 2 · consumer C: pass up"));
    QCOMPARE(fuseRow.siblingAtColumn(StepTreeModel::RuleColumn).data().toString(),
             QStringLiteral("fuse-one-row"));
    model.setAnalysis(nullptr);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.stepCount(), 0);
}

void StepModelsTest::stepSpecsNameAnIdAPhaseOrAPhaseAndRule() {
    const auto analysis = analyse(fuseExample());
    const BoundSteps& steps = *stepsOf(*analysis);
    QCOMPARE(findStep(*analysis, QStringLiteral("3")), 3);
    QCOMPARE(findStep(*analysis, QString::number(steps.size())), -1);
    const int passUp = findStep(*analysis, QStringLiteral("pass-up"));
    QCOMPARE(steps.at(passUp).rule, std::string("split-evaluated"));
    const int fuse = findStep(*analysis, QStringLiteral("pass-up:fuse"));
    QCOMPARE(steps.at(fuse).phase, StepPhase::PassUp);
    QCOMPARE(steps.at(fuse).rule, std::string("fuse-one-row"));
    QCOMPARE(findStep(*analysis, QStringLiteral("pass-up:rebase")), -1);
    QVERIFY(!isStepSpec(QStringLiteral("pass-sideways")));
    QVERIFY(!isStepSpec(QStringLiteral("")));
    QVERIFY(isStepSpec(QStringLiteral("allocate")));
}

void StepModelsTest::sameStepIsFoundAfterAReanalysis() {
    const auto tvm = analyse(fuseExample());
    const auto seed = analyse(fuseExample(), BoundRules::Tvm05);
    const int fuse = findStep(*tvm, QStringLiteral("pass-up:fuse"));
    // The rules change how the fuse is passed up, not which step it is.
    const std::optional<StepKey> key = stepKeyOf(*tvm, fuse);
    QVERIFY(key);
    QCOMPARE(resolveStep(*seed, key, fuse), fuse);
    QCOMPARE(stepsOf(*seed)->at(fuse).rule, std::string("fuse-fallback"));
    // In another program the same kind of step is found where it is: B's allocation.
    const auto shared = analyse(sharedScopeExample());
    const int allocateB = findStep(*tvm, QStringLiteral("allocate"));
    const int found = resolveStep(*shared, stepKeyOf(*tvm, allocateB), allocateB);
    QCOMPARE(stepsOf(*shared)->at(found).phase, StepPhase::Allocate);
    QCOMPARE(qstr(stepsOf(*shared)->at(found).tensor.name()), QStringLiteral("B"));
    // A step that is not there any more: the same id, clamped to the steps there are.
    StepKey gone = *key;
    gone.stage = QStringLiteral("nowhere");
    QCOMPARE(resolveStep(*shared, gone, 3), 3);
    QCOMPARE(resolveStep(*shared, gone, 100000), int(stepsOf(*shared)->size()) - 1);
    QCOMPARE(resolveStep(*shared, std::nullopt, -1), 0);
    Analysis failed;
    QCOMPARE(resolveStep(failed, key, fuse), -1);
}

void StepModelsTest::derivationOfAnAllocateFollowsItsRealizeAndUnions() {
    const auto analysis = analyse(fuseExample());
    const BoundSteps& steps = *stepsOf(*analysis);
    const int allocate = findStep(*analysis, QStringLiteral("allocate"));
    const BoundStep& step = steps.at(allocate);
    QCOMPARE(step.from.size(), size_t(1));
    const BoundStep& realize = steps.at(step.from[0]);
    QCOMPARE(realize.phase, StepPhase::Realize);
    const QString html = derivationHtml(steps, allocate);
    QVERIFY2(html.contains(QStringLiteral("step %1 · allocate").arg(allocate)), qPrintable(html));
    QVERIFY2(html.contains(qstr(step.text).toHtmlEscaped()), qPrintable(html));
    QVERIFY2(html.contains(QStringLiteral("← <b>step %1 · realize").arg(realize.id)),
             qPrintable(html));
    for (int unionStep : realize.from)
        QVERIFY2(html.contains(QStringLiteral("step %1 · union").arg(unionStep)), qPrintable(html));
    // Three levels: the unions' own sources are left out.
    for (int unionStep : realize.from) {
        for (int request : steps.at(unionStep).from)
            QVERIFY2(!html.contains(QStringLiteral("step %1 ·").arg(request)), qPrintable(html));
    }
    QCOMPARE(derivationHtml(steps, -1), QString());
    // Everything read from the unions of B down to the allocate derives from them.
    const QSet<int> derived = stepsDerivedFrom(steps, realize.from[0]);
    QVERIFY(derived.contains(realize.id));
    QVERIFY(derived.contains(allocate));
    QVERIFY(!derived.contains(findStep(*analysis, QStringLiteral("visit"))));
}

void StepModelsTest::detailsLinkTheStepsReadAndReading() {
    const auto analysis = analyse(fuseExample());
    const BoundSteps& steps = *stepsOf(*analysis);
    const int allocate = findStep(*analysis, QStringLiteral("allocate"));
    const int realize = steps.at(allocate).from[0];
    const QString html = stepDetailsHtml(*analysis, realize);
    QVERIFY2(html.contains(QStringLiteral("realize")), qPrintable(html));
    QVERIFY2(html.contains(QStringLiteral("href=\"step:%1\"").arg(allocate)), qPrintable(html));
    for (int from : steps.at(realize).from)
        QVERIFY2(html.contains(QStringLiteral("href=\"step:%1\"").arg(from)), qPrintable(html));
    QCOMPARE(stepsReading(steps, realize), QList<int>{allocate});
    QCOMPARE(stepDetailsHtml(*analysis, int(steps.size())), QString());
    // What a pass-up step produced is its summary.
    const int fuse = findStep(*analysis, QStringLiteral("pass-up:fuse"));
    QVERIFY(stepSummary(steps.at(fuse)).startsWith(QStringLiteral("i = [")));
}

void StepModelsTest::numbersOfAnIrLineAreNotPartsOfNames() {
    const QString allocate = QStringLiteral("    allocate B[int32 * 8]");
    const int eight = int(allocate.indexOf(QLatin1Char('8')));
    QCOMPARE(numberSpanAt(allocate, eight), (QPair<int, int>(eight, eight + 1)));
    QCOMPARE(numberSpanAt(allocate, eight + 1), (QPair<int, int>(eight, eight + 1)));
    const int thirtyTwo = int(allocate.indexOf(QStringLiteral("32")));
    QCOMPARE(numberSpanAt(allocate, thirtyTwo), (QPair<int, int>(-1, -1)));
    const QString loop = QStringLiteral("for (i.j.fused.outer, 0, 512) {");
    const int five = int(loop.indexOf(QStringLiteral("512")));
    QCOMPARE(numberSpanAt(loop, five + 1), (QPair<int, int>(five, five + 3)));
    QCOMPARE(numberSpanAt(loop, 0), (QPair<int, int>(-1, -1)));
}

BS_GUI_TEST_SUITE(StepModelsTest);

} // namespace bs::gui::test

#include "StepModelsTest.moc"

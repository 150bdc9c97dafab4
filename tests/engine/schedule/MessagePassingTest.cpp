// The one message-passing module (schedule/MessagePassing.h, issue 13 item 1): each pass on each
// relation kind, the rule it reports to its sink, and the passes that used to exist twice
// (cache_write and rfactor now use the same functions as InferBound and ScheduleOps).
#include "ScheduleTestUtil.h"

#include "ir/Printer.h"
#include "schedule/MessagePassing.h"

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::test;

namespace {

std::vector<std::string> rulesOf(const std::vector<PassEvent>& events) {
    std::vector<std::string> out;
    for (const PassEvent& e : events) {
        std::string rule = passRuleName(e.rule);
        if (e.tightening != Tightening::NotApplicable)
            rule += std::string("/") + tighteningName(e.tightening);
        out.push_back(rule);
    }
    return out;
}

PassSink collect(std::vector<PassEvent>* events) {
    return [events](const PassEvent& e) { events->push_back(e); };
}

std::string text(const IntSet& s) { return s.toString(); }

/// C (64, 64) with its axes fused, then split into `nparts` parts; the ranges of a whole pass
/// down.
struct FusedSplit {
    Elementwise ew{{64, 64}};
    IterVar fused, outer, inner;
    IterVarMap<Range> rmap;
    Analyzer analyzer;

    explicit FusedSplit(int64_t nparts) {
        Stage c = ew.sch[ew.c];
        fused = c.fuse(ew.axis(0), ew.axis(1));
        auto [o, i] = c.splitByNParts(fused, makeConst(DataType::int32(), nparts));
        outer = o;
        inner = i;
        rmap[ew.axis(0)] = Range(0, 64);
        rmap[ew.axis(1)] = Range(0, 64);
        passDownDomain(c, &rmap, &analyzer, BoundRules::Tvm, false);
    }
};

} // namespace

TEST(MessagePassing, PassDownReportsEachRelationInOrder) {
    FusedSplit f(512);
    std::vector<PassEvent> events;
    IterVarMap<Range> rmap{{f.ew.axis(0), Range(0, 64)}, {f.ew.axis(1), Range(0, 64)}};
    Analyzer analyzer;
    passDownDomain(f.ew.sch[f.ew.c], &rmap, &analyzer, BoundRules::Tvm, false, collect(&events));
    EXPECT_EQ(rulesOf(events), (Names{"fuse-product", "split-nparts/parent-not-smaller"}));
    EXPECT_EQ(toString(rmap.at(f.fused).extent), "4096");
    EXPECT_EQ(toString(rmap.at(f.outer).extent), "512");
    EXPECT_EQ(toString(rmap.at(f.inner).extent), "8");
}

TEST(MessagePassing, SplitTighteningIsReportedWithItsReason) {
    for (BoundRules rules : {BoundRules::Tvm, BoundRules::Tvm05}) {
        Elementwise ew({8});
        Stage c = ew.sch[ew.c];
        c.split(ew.axis(0), Expr(32));
        std::vector<PassEvent> events;
        IterVarMap<Range> rmap{{ew.axis(0), Range(0, 8)}};
        Analyzer analyzer;
        passDownDomain(c, &rmap, &analyzer, rules, false, collect(&events));
        const auto* split = c->relations[0].as<SplitNode>();
        if (rules == BoundRules::Tvm) {
            EXPECT_EQ(rulesOf(events), (Names{"split-factor/tightened"}));
            EXPECT_EQ(toString(rmap.at(split->inner).extent), "8");
        } else {
            EXPECT_EQ(rulesOf(events), (Names{"split-factor/seed-rules"}));
            EXPECT_EQ(toString(rmap.at(split->inner).extent), "32");
        }
    }
}

TEST(MessagePassing, ThreadBoundSplitIsNotTightenedAndTheThreadTakesTheLeafRange) {
    Elementwise ew({8});
    Stage c = ew.sch[ew.c];
    auto [o, i] = c.split(ew.axis(0), Expr(32));
    IterVar tx(Range(), Var("threadIdx.x"), IterVarType::ThreadIndex, "threadIdx.x");
    c.bind(i, tx);
    std::vector<PassEvent> events;
    IterVarMap<Range> rmap{{ew.axis(0), Range(0, 8)}};
    Analyzer analyzer;
    passDownDomain(c, &rmap, &analyzer, BoundRules::Tvm, false, collect(&events));
    EXPECT_EQ(rulesOf(events), (Names{"split-factor/thread-bound", "thread-binding"}));
    EXPECT_EQ(toString(rmap.at(tx).extent), "32");
    EXPECT_TRUE(events.back().rangesIn.front().first.same_as(i));
}

TEST(MessagePassing, EarlyPassesSkipMissingInputsAndNeverTighten) {
    Elementwise ew({8, 4});
    Stage c = ew.sch[ew.c];
    c.split(ew.axis(0), Expr(32));
    c.split(ew.axis(1), Expr(2));
    std::vector<PassEvent> events;
    IterVarMap<Range> rmap{{ew.axis(0), Range(0, 8)}}; // axis 1 has no range yet
    Analyzer analyzer;
    passDownDomain(c, &rmap, &analyzer, BoundRules::Tvm, /*allowMissing=*/true, collect(&events));
    EXPECT_EQ(rulesOf(events), (Names{"split-factor/early-pass"}));
}

TEST(MessagePassing, PassUpThroughAFuseOfTheSeedRulesFallsBackToWholeRanges) {
    FusedSplit f(512);
    for (BoundRules rules : {BoundRules::Tvm, BoundRules::Tvm05}) {
        IterVarMap<IntSet> state{{f.outer, IntSet::singlePoint(f.outer->var)},
                                 {f.inner, IntSet::fromRange(f.rmap.at(f.inner))}};
        std::vector<PassEvent> events;
        passUpDomain(f.ew.sch[f.ew.c], f.rmap, rules, &state, collect(&events));
        if (rules == BoundRules::Tvm05) {
            EXPECT_EQ(rulesOf(events), (Names{"split-evaluated", "fuse-fallback"}));
            EXPECT_EQ(text(state.at(f.ew.axis(1))), "[0, 63]");
        } else {
            EXPECT_EQ(rulesOf(events), (Names{"split-evaluated", "fuse-one-row"}));
            Analyzer a;
            const IntSet& j = state.at(f.ew.axis(1));
            EXPECT_EQ(toString(a.simplify(j.max() - j.min() + 1)), "8");
        }
        EXPECT_EQ(toString(events[0].evaluated), "((i.j.fused.outer*8) + i.j.fused.inner)");
    }
}

TEST(MessagePassing, PassUpOfAnUnalignedSegmentTakesWholeRows) {
    FusedSplit f(86); // segments of 48 in rows of 64
    IterVarMap<IntSet> state{{f.outer, IntSet::singlePoint(f.outer->var)},
                             {f.inner, IntSet::fromRange(f.rmap.at(f.inner))}};
    std::vector<PassEvent> events;
    passUpDomain(f.ew.sch[f.ew.c], f.rmap, BoundRules::Tvm, &state, collect(&events));
    EXPECT_EQ(rulesOf(events), (Names{"split-evaluated", "fuse-whole-rows"}));
    EXPECT_EQ(text(state.at(f.ew.axis(1))), "[0, 63]");
}

TEST(MessagePassing, PassUpOfWholeChildrenGivesTheWholeParent) {
    FusedSplit f(512);
    IterVarMap<IntSet> state{{f.outer, IntSet::fromRange(f.rmap.at(f.outer))},
                             {f.inner, IntSet::fromRange(f.rmap.at(f.inner))}};
    std::vector<PassEvent> events;
    passUpDomain(f.ew.sch[f.ew.c], f.rmap, BoundRules::Tvm, &state, collect(&events));
    EXPECT_EQ(rulesOf(events), (Names{"split-whole-parent", "fuse-whole"}));
}

TEST(MessagePassing, PassUpIndexCastsTheFusedChildrenToTheirTypes) {
    // The copies before issue 13 differed here: one cast floordiv/floormod of the fused value to
    // the outer and inner variables' types, the other did not.
    Tensor a = placeholder(
        {makeConst(DataType::int64(), int64_t(8)), makeConst(DataType::int64(), int64_t(4))},
        DataType::float32(), "A");
    Tensor c = compute(
        a.shape(),
        [&](const std::vector<Var>& v) {
            return a({v[0], v[1]});
        },
        "C");
    Schedule sch = createSchedule(c.op);
    Stage stage = sch[c];
    const auto* op = c.op.as<ComputeOpNode>();
    IterVar fused = stage.fuse(op->axis[0], op->axis[1]);
    IterVarMap<Range> dom{
        {op->axis[0], Range(0, 8)}, {op->axis[1], Range(0, 4)}, {fused, Range(0, 32)}};
    Var narrow("v", DataType::int32());
    IterVarMap<Expr> values{{fused, narrow}};
    passUpIndex(stage, dom, &values);
    EXPECT_EQ(values.at(op->axis[0]).type(), op->axis[0]->var.type());
    EXPECT_EQ(values.at(op->axis[1]).type(), op->axis[1]->var.type());
}

TEST(MessagePassing, PassDownIndexInvertsPassUpIndex) {
    Elementwise ew({64, 32});
    Stage c = ew.sch[ew.c];
    auto [o, i] = c.split(ew.axis(0), Expr(8));
    IterVarMap<Range> dom{{ew.axis(0), Range(0, 64)}, {o, Range(0, 8)}, {i, Range(0, 8)}};
    IterVarMap<Expr> down{{ew.axis(0), ew.axis(0)->var}};
    passDownIndex(c, dom, &down, /*allowMissing=*/true);
    EXPECT_EQ(toString(down.at(o)), "floordiv(i, 8)");
    EXPECT_EQ(toString(down.at(i)), "floormod(i, 8)");
    IterVarMap<Expr> up{{o, o->var}, {i, i->var}};
    passUpIndex(c, dom, &up, /*allowMissing=*/true);
    EXPECT_EQ(toString(up.at(ew.axis(0))), "(i.inner + (i.outer*8))");
}

TEST(MessagePassing, PassUpIndexOfOneRelationWritesOnlyItsParents) {
    // The ISL model of the tight rules writes each relation as `parent = value` with the
    // children as their own variables: one relation, not the composition of the pass.
    Elementwise ew({64, 32});
    Stage c = ew.sch[ew.c];
    auto [o, i] = c.split(ew.axis(0), Expr(8));
    auto [io, ii] = c.split(i, Expr(2));
    IterVarMap<Range> dom{{ew.axis(0), Range(0, 64)},
                          {o, Range(0, 8)},
                          {i, Range(0, 8)},
                          {io, Range(0, 4)},
                          {ii, Range(0, 2)}};
    IterVarMap<Expr> children{{o, o->var}, {i, i->var}, {io, io->var}, {ii, ii->var}};
    IterVarMap<Expr> parents;
    passUpIndexOf(c->relations[0], dom, children, &parents);
    ASSERT_EQ(parents.size(), 1u);
    EXPECT_EQ(toString(parents.at(ew.axis(0))), "(i.inner + (i.outer*8))");
    passUpIndexOf(c->relations[1], dom, children, &parents);
    EXPECT_EQ(toString(parents.at(i)), "(i.inner.inner + (i.inner.outer*2))");
}

TEST(MessagePassing, TheRemainderModeRunsOnlyWhatASplitThatDoesNotDivideLeaves) {
    // Seed 002: extent 20 split by 16 runs min(16, 20 - i.outer*16) iterations of i.inner; the
    // ranges keep the factor, the stride of the outer loop.
    Elementwise ew({20, 32});
    Stage c = ew.sch[ew.c];
    auto [o, i] = c.split(ew.axis(0), Expr(16));
    auto [jo, ji] = c.split(ew.axis(1), Expr(8));
    IterVarMap<Range> rmap{{ew.axis(0), Range(0, 20)}, {ew.axis(1), Range(0, 32)}};
    Analyzer analyzer;
    LoopExtents loops;
    passDownDomain(c, &rmap, &analyzer, BoundRules::Tight, false, {}, &loops);
    EXPECT_TRUE(loops.expressible);
    EXPECT_EQ(toString(rmap.at(i).extent), "16");
    EXPECT_EQ(toString(loops.extents.at(o)), "2");
    EXPECT_EQ(toString(loops.extents.at(i)), "min(16, (20 - (i.outer*16)))");
    EXPECT_EQ(toString(loops.extents.at(ji)), "8"); // 32 by 8 divides
    ASSERT_EQ(loops.remainders.size(), 1u);
    EXPECT_TRUE(loops.remainders.count(c->relations[0].as<SplitNode>()));

    // A loop that must run a constant extent keeps the factor (and TVM's bound check).
    for (IterVarType kind : {IterVarType::Vectorized, IterVarType::Unrolled}) {
        Elementwise ev({20});
        Stage s = ev.sch[ev.c];
        auto [so, si] = s.split(ev.axis(0), Expr(16));
        if (kind == IterVarType::Vectorized)
            s.vectorize(si);
        else
            s.unroll(si);
        IterVarMap<Range> r{{ev.axis(0), Range(0, 20)}};
        LoopExtents kept;
        passDownDomain(s, &r, &analyzer, BoundRules::Tight, false, {}, &kept);
        EXPECT_TRUE(kept.remainders.empty());
        EXPECT_EQ(toString(kept.extents.at(si)), "16");
    }

    // A fuse of a row that runs a remainder would divide by a varying length.
    Elementwise ef({20, 4});
    Stage f = ef.sch[ef.c];
    auto [fo, fi] = f.split(ef.axis(1), Expr(3));
    f.fuse(fo, fi);
    IterVarMap<Range> rf{{ef.axis(0), Range(0, 20)}, {ef.axis(1), Range(0, 4)}};
    LoopExtents fused;
    passDownDomain(f, &rf, &analyzer, BoundRules::Tight, false, {}, &fused);
    EXPECT_FALSE(fused.expressible);
}

TEST(MessagePassing, BitMasksFlowThroughEveryRelation) {
    Elementwise ew({64, 32});
    Stage c = ew.sch[ew.c];
    IterVar fused = c.fuse(ew.axis(0), ew.axis(1));
    auto [o, i] = c.split(fused, Expr(16));
    IterVarMap<int> down{{ew.axis(0), 1}, {ew.axis(1), 2}};
    passDownBitMaskOr(c, &down);
    EXPECT_EQ(down.at(o), 3);
    EXPECT_EQ(down.at(i), 3);
    IterVarMap<int> up{{i, 4}};
    passUpBitMaskOr(c, &up, /*allowMissing=*/true);
    EXPECT_EQ(up.at(ew.axis(0)), 4);
    EXPECT_EQ(up.at(ew.axis(1)), 4);
}

TEST(MessagePassing, BoundChecksNameTheirIterVarAndKind) {
    Elementwise ew({20});
    Stage c = ew.sch[ew.c];
    auto [o, i] = c.split(ew.axis(0), Expr(16));
    IterVarMap<Range> dom{{ew.axis(0), Range(0, 20)}, {o, Range(0, 2)}, {i, Range(0, 16)}};
    IterVarMap<Expr> values{{o, o->var}, {i, i->var}};
    passUpIndex(c, dom, &values);
    std::vector<BoundCheck> checks = makeBoundCheck(c, dom, values, false, {});
    ASSERT_EQ(checks.size(), 1u);
    EXPECT_TRUE(checks[0].iv.same_as(ew.axis(0)));
    EXPECT_EQ(checks[0].kind, BoundCheck::Kind::Extent);
    EXPECT_EQ(toString(checks[0].predicate), "((i.inner + (i.outer*16)) < 20)");
    // A split that runs its remainder exactly (the tight rules) needs no check.
    Analyzer analyzer;
    const auto* split = c->relations[0].as<SplitNode>();
    std::unordered_set<const SplitNode*> exact{split};
    EXPECT_TRUE(passUpBoundCheck(c, dom, analyzer)[ew.axis(0)]);
    EXPECT_FALSE(passUpBoundCheck(c, dom, analyzer, &exact)[ew.axis(0)]);
}

TEST(MessagePassing, VisitRelationReachesEveryKind) {
    Elementwise ew({64, 32});
    Stage c = ew.sch[ew.c];
    IterVar fused = c.fuse(ew.axis(0), ew.axis(1));
    c.split(fused, Expr(16));
    c.fuse(std::vector<IterVar>{}); // a singleton
    Schedule normalized = ew.sch.normalize();
    std::vector<std::string> kinds;
    for (const IterVarRelation& rel : normalized[ew.c]->relations)
        kinds.push_back(relationKindName(rel.kind()));
    EXPECT_EQ(kinds, (Names{"fuse", "split", "singleton"}));
    for (const IterVarRelation& rel : normalized[ew.c]->relations) {
        std::string seen =
            visitRelation(rel, Overloaded{
                                   [](const SplitNode*) { return std::string("split"); },
                                   [](const FuseNode*) { return std::string("fuse"); },
                                   [](const RebaseNode*) { return std::string("rebase"); },
                                   [](const SingletonNode*) { return std::string("singleton"); },
                               });
        EXPECT_EQ(seen, relationKindName(rel.kind()));
        EXPECT_FALSE(relationOutputs(rel).empty());
    }
}

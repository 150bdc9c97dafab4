#include "ScheduleTestUtil.h"

#include "ir/Printer.h"
#include "schedule/Graph.h"

#include <gtest/gtest.h>

namespace bs {
namespace {

using test::Names;
using test::names;
using test::stageNames;

std::string bodyOf(const Stage& stage, size_t i = 0) {
    return toString(stage->op.as<ComputeOpNode>()->body[i]);
}

TEST(Schedule, LookupByOperationOrTensor) {
    test::Elementwise p;
    EXPECT_TRUE(p.sch[p.c].same_as(p.sch[p.c.op]));
    EXPECT_TRUE(p.sch.stageOf(p.a.op)->op.same_as(p.a.op));
    EXPECT_FALSE(p.sch.findStage(placeholder({1}).op).defined());
    EXPECT_EQ(p.sch->stageMap.size(), 2u);
    ASSERT_EQ(p.sch.outputs().size(), 1u);
    EXPECT_TRUE(p.sch.outputs()[0].same_as(p.c.op));
}

TEST(Schedule, CopyIsDeepAndRemapsAttachments) {
    Tensor a = placeholder({4, 4}, DataType::float32(), "A");
    Tensor c = compute(
        {4, 4},
        [&](const std::vector<Var>& v) {
            return a({v[0], v[1]});
        },
        "C");
    Tensor d = compute(
        {4, 4},
        [&](const std::vector<Var>& v) {
            return c({v[0], v[1]});
        },
        "D");
    Schedule sch = createSchedule(d.op);
    sch[c].computeAt(sch[d], d.op.as<ComputeOpNode>()->axis[0]);
    Schedule copy = sch.copy();
    EXPECT_FALSE(copy[c].same_as(sch[c]));
    EXPECT_TRUE(copy[c]->attachStage.same_as(copy[d]));
    copy[d].split(d.op.as<ComputeOpNode>()->axis[1], 2);
    EXPECT_EQ(names(copy[d]->leafIterVars), (Names{"i", "j.outer", "j.inner"}));
    EXPECT_EQ(names(sch[d]->leafIterVars), (Names{"i", "j"}));
}

TEST(Schedule, StagesThatShareANameAreRenamedApart) {
    // te.compute's default name: three stages called `compute`, and one the script called
    // `compute_1`, which keeps its name (the renamed ones skip it).
    auto plusOne = [](const Tensor& in, const std::string& name) {
        return compute(
            {8}, [&](const std::vector<Var>& v) { return in({v[0]}) + 1.0f; }, name);
    };
    Tensor a = placeholder({8}, DataType::float32(), "placeholder");
    Tensor b = placeholder({8}, DataType::float32(), "placeholder");
    Tensor c = plusOne(a, "compute");
    Tensor d = plusOne(c, "compute_1");
    Tensor e = compute(
        {8}, [&](const std::vector<Var>& v) { return d({v[0]}) + b({v[0]}); }, "compute");
    Tensor f = plusOne(e, "compute");
    Schedule sch = createSchedule(f.op);
    EXPECT_EQ(stageNames(sch), (Names{"placeholder", "compute", "compute_1", "placeholder_1",
                                      "compute_2", "compute_3"}));
    // The operations themselves are renamed, so the tensors, their buffers and every message
    // name them apart; and a second schedule of the same operations keeps the names.
    EXPECT_EQ(e.name(), "compute_2");
    EXPECT_EQ(bodyOf(sch[f]), "(compute_2(i) + 1.000000f)");
    EXPECT_EQ(stageNames(createSchedule(f.op)), stageNames(sch));
}

TEST(Schedule, ALaterScheduleLeavesTheNamesOfAnEarlierOnesStages) {
    // P and Q are `compute`s of a first schedule, which names Q `compute_1`. A second schedule
    // of R (`compute` too) and P renamed P, which the first shares, so that the first had two
    // `compute_1`s. It renames R instead.
    auto plusOne = [](const Tensor& in) {
        return compute({8}, [&](const std::vector<Var>& v) { return in({v[0]}) + 1.0f; });
    };
    Tensor a = placeholder({8}, DataType::float32(), "A");
    Tensor p = plusOne(a);
    Tensor q = plusOne(p);
    Schedule first = createSchedule(q.op);
    EXPECT_EQ(stageNames(first), (Names{"A", "compute", "compute_1"}));
    Tensor r = plusOne(a);
    Schedule second = createSchedule(std::vector<Operation>{r.op, p.op});
    EXPECT_EQ(stageNames(first), (Names{"A", "compute", "compute_1"}));
    EXPECT_EQ(p.name(), "compute");
    EXPECT_EQ(r.name(), "compute_1");
    // Two operations each named by a schedule of its own keep their names in a third: that
    // schedule has two stages of one name, which the lookups by name refuse.
    Tensor u = plusOne(a);
    createSchedule(u.op);
    EXPECT_EQ(stageNames(createSchedule(std::vector<Operation>{u.op, p.op})),
              (Names{"A", "compute", "compute"}));
}

TEST(Schedule, AnOperationARewritePutInAStageKeepsItsNameInALaterSchedule) {
    // cache_write gives C's stage a new operation (the copy, also `compute`); a later schedule
    // of it and another `compute` renamed the copy, and so the earlier schedule's stage.
    Tensor a = placeholder({8}, DataType::float32(), "A");
    Tensor c = compute({8}, [&](const std::vector<Var>& v) { return a({v[0]}) + 1.0f; });
    Schedule first = createSchedule(c.op);
    first.cacheWrite(c, "local");
    const Names before = stageNames(first);
    EXPECT_EQ(before, (Names{"A", "compute.local", "compute"}));
    Tensor d = compute({8}, [&](const std::vector<Var>& v) { return a({v[0]}) * 2.0f; });
    Schedule second = createSchedule(std::vector<Operation>{d.op, first[c]->op});
    EXPECT_EQ(stageNames(first), before);
    EXPECT_EQ(d.name(), "compute_1");
}

TEST(Schedule, AStageARewriteAddsGetsANameOfItsOwn) {
    // A second cache_write of one stage makes a second `C.local`.
    test::Elementwise p;
    Tensor first = p.sch.cacheWrite(p.c, "local");
    Tensor second = p.sch.cacheWrite(p.c, "local");
    EXPECT_EQ(first.name(), "C.local");
    EXPECT_EQ(second.name(), "C.local_1");
    EXPECT_EQ(stageNames(p.sch), (Names{"A", "C.local", "C.local_1", "C"}));
}

TEST(Schedule, CacheReadInsertsTheCopyRightAfterTheSource) {
    test::Elementwise p;
    Tensor cache = p.sch.cacheRead(p.a, "shared", {p.c.op});
    EXPECT_EQ(cache.name(), "A.shared");
    EXPECT_EQ(stageNames(p.sch), (Names{"A", "A.shared", "C"}));
    Stage cacheStage = p.sch[cache];
    EXPECT_EQ(cacheStage->scope, "shared");
    EXPECT_EQ(names(cacheStage->leafIterVars), (Names{"ax0", "ax1"}));
    EXPECT_EQ(bodyOf(cacheStage), "A(ax0, ax1)");
    EXPECT_EQ(bodyOf(p.sch[p.c]), "(A.shared(i, j)*2.000000f)");
    EXPECT_TRUE(p.sch[p.c]->originOp.same_as(p.c.op));
    EXPECT_TRUE(p.sch.outputs()[0].same_as(p.sch[p.c]->op));
}

TEST(Schedule, CacheReadNamesStayUnique) {
    Tensor a = placeholder({8}, DataType::float32(), "A");
    Tensor c = compute(
        {8}, [&](const std::vector<Var>& v) { return a({v[0]}) + 1.0f; }, "C");
    Tensor d = compute(
        {8}, [&](const std::vector<Var>& v) { return a({v[0]}) + c({v[0]}); }, "D");
    Schedule sch = createSchedule(d.op);
    Tensor first = sch.cacheRead(a, "shared", {c.op});
    Tensor second = sch.cacheRead(a, "shared", {d.op});
    EXPECT_EQ(first.name(), "A.shared");
    EXPECT_EQ(second.name(), "A.d.shared");
    EXPECT_EQ(stageNames(sch), (Names{"A", "A.d.shared", "A.shared", "C", "D"}));
    EXPECT_EQ(bodyOf(sch[d]), "(A.d.shared(i) + C(i))");
}

TEST(Schedule, CacheReadOfASecondOutputIsNamedByIndex) {
    Tensor a = placeholder({8}, DataType::float32(), "A");
    std::vector<Tensor> m = computeMulti(
        {8},
        [&](const std::vector<Var>& v) {
            return std::vector<Expr>{a({v[0]}) + 1.0f, a({v[0]}) * 2.0f};
        },
        "M");
    Tensor d = compute(
        {8}, [&](const std::vector<Var>& v) { return m[1]({v[0]}); }, "D");
    Schedule sch = createSchedule(d.op);
    Tensor cache = sch.cacheRead(m[1], "local", {d.op});
    EXPECT_EQ(cache.name(), "M.v1.local");
}

TEST(Schedule, CacheWriteInsertsTheCacheBeforeTheOriginal) {
    test::Elementwise p;
    Tensor cache = p.sch.cacheWrite(p.c, "local");
    EXPECT_EQ(cache.name(), "C.local");
    EXPECT_EQ(stageNames(p.sch), (Names{"A", "C.local", "C"}));
    Stage cacheStage = p.sch[cache];
    EXPECT_EQ(cacheStage->scope, "local");
    EXPECT_EQ(names(cacheStage->leafIterVars), (Names{"i.c", "j.c"}));
    EXPECT_EQ(bodyOf(cacheStage), "(A(i.c, j.c)*2.000000f)");
    EXPECT_EQ(bodyOf(p.sch[p.c]), "C.local(i, j)");
    EXPECT_TRUE(p.sch[p.c]->isOutput);
    EXPECT_FALSE(cacheStage->isOutput);
}

TEST(Schedule, CacheWriteRelaysOutAlongTheSplitLeaves) {
    test::Elementwise p({10, 32});
    Stage c = p.sch[p.c];
    c.split(p.axis(0), 4);
    Tensor cache = p.sch.cacheWrite(p.c, "local");
    Stage cacheStage = p.sch[cache];
    const auto* op = cache.op.as<ComputeOpNode>();
    EXPECT_EQ(names(op->axis), (Names{"i.outer.c", "i.inner.c", "j.c"}));
    EXPECT_EQ(toString(op->axis[0]->dom), "range(min=0, ext=3)");
    EXPECT_EQ(toString(op->axis[1]->dom), "range(min=0, ext=4)");
    // 3 * 4 > 10: the cache is predicated where the split overruns.
    EXPECT_EQ(bodyOf(cacheStage), "select(((i.inner.c + (i.outer.c*4)) < 10), "
                                  "(A((i.inner.c + (i.outer.c*4)), j.c)*2.000000f), 0.000000f)");
    EXPECT_EQ(bodyOf(c), "C.local(floordiv(i, 4), floormod(i, 4), j)");
    EXPECT_EQ(names(c->leafIterVars), (Names{"i", "j"}));
    EXPECT_TRUE(c->relations.empty());
}

TEST(Schedule, CacheWriteDividesSymbolicExtentsExactly) {
    Var n = var("n");
    test::Elementwise p({n * 8, 4});
    p.sch[p.c].split(p.axis(0), 8);
    Tensor cache = p.sch.cacheWrite(p.c, "local");
    const auto* op = cache.op.as<ComputeOpNode>();
    EXPECT_EQ(toString(op->axis[0]->dom), "range(min=0, ext=n)");
    // n*8 is exactly 8 rows per outer iteration: no predicate.
    EXPECT_EQ(bodyOf(p.sch[cache]), "(A((i.inner.c + (i.outer.c*8)), j.c)*2.000000f)");
}

TEST(Schedule, CacheWritePredicatesASymbolicRemainder) {
    Var n = var("n");
    test::Elementwise p({n, 4});
    p.sch[p.c].split(p.axis(0), 4);
    Tensor cache = p.sch.cacheWrite(p.c, "local");
    const auto* op = cache.op.as<ComputeOpNode>();
    EXPECT_EQ(toString(op->axis[0]->dom), "range(min=0, ext=floordiv((n + 3), 4))");
    EXPECT_EQ(bodyOf(p.sch[cache]), "select(((i.inner.c + (i.outer.c*4)) < n), "
                                    "(A((i.inner.c + (i.outer.c*4)), j.c)*2.000000f), 0.000000f)");
}

TEST(Schedule, CacheWriteOfAReductionKeepsTheReduceAxis) {
    test::RowSum p;
    Tensor cache = p.sch.cacheWrite(p.b, "local");
    const auto* op = cache.op.as<ComputeOpNode>();
    EXPECT_EQ(names(op->axis), (Names{"i.c"}));
    ASSERT_EQ(op->reduceAxis.size(), 1u);
    EXPECT_TRUE(op->reduceAxis[0].same_as(p.k));
    EXPECT_EQ(names(p.sch[cache]->leafIterVars), (Names{"i.c", "k"}));
    EXPECT_EQ(bodyOf(p.sch[p.b]), "B.local(i)");
    EXPECT_FALSE(p.sch[p.b]->op.as<ComputeOpNode>()->isReduction());
}

TEST(Schedule, RfactorInsertsTheFactoredStageBefore) {
    test::RowSum p;
    Stage b = p.sch[p.b];
    auto [ko, ki] = b.split(p.k, 16);
    std::vector<Tensor> rf = p.sch.rfactor(p.b, ki);
    ASSERT_EQ(rf.size(), 1u);
    EXPECT_EQ(rf[0].name(), "B.rf");
    EXPECT_EQ(stageNames(p.sch), (Names{"A", "B.rf", "B.repl"}));
    const auto* rfOp = rf[0].op.as<ComputeOpNode>();
    EXPECT_EQ(names(rfOp->axis), (Names{"k.inner", "i"}));
    EXPECT_EQ(rfOp->axis[0]->iterType, IterVarType::DataPar);
    EXPECT_EQ(toString(rfOp->axis[0]->dom), "range(min=0, ext=16)");
    EXPECT_EQ(names(rfOp->reduceAxis), (Names{"k.outer"}));
    EXPECT_EQ(toString(rfOp->reduceAxis[0]->dom), "range(min=0, ext=8)");
    const auto* reduce = rfOp->body[0].as<ReduceNode>();
    EXPECT_EQ(toString(reduce->source[0]), "A(i, (k.inner + (k.outer*16)))");
    EXPECT_EQ(b.name(), "B");
    EXPECT_EQ(names(b->leafIterVars), (Names{"ax0", "k.inner.v"}));
    EXPECT_TRUE(b->relations.empty());
    EXPECT_EQ(toString(b->op.as<ComputeOpNode>()->body[0].as<ReduceNode>()->source[0]),
              "B.rf(k.inner.v, ax0)");
    EXPECT_TRUE(p.sch.outputs()[0].same_as(b->op));
}

TEST(Schedule, RfactorAtTheLastFactorAxis) {
    test::RowSum p;
    auto [ko, ki] = p.sch[p.b].split(p.k, 16);
    std::vector<Tensor> rf = p.sch.rfactor(p.b, ko, -1);
    EXPECT_EQ(names(rf[0].op.as<ComputeOpNode>()->axis), (Names{"i", "k.outer"}));
    EXPECT_EQ(names(rf[0].op.as<ComputeOpNode>()->reduceAxis), (Names{"k.inner"}));
}

TEST(Schedule, RfactorKeepsTheUntouchedRelations) {
    test::RowSum p;
    Stage b = p.sch[p.b];
    b.split(p.axis(), 8);
    auto [ko, ki] = b.split(p.k, 16);
    std::vector<Tensor> rf = p.sch.rfactor(p.b, ki);
    EXPECT_EQ(test::relationStrings(p.sch[rf[0]]),
              (Names{"split(parent=i, outer=i.outer, inner=i.inner, factor=8)"}));
}

TEST(Schedule, RfactorOfAnUnsplitAxisMovesTheWholeReduction) {
    test::RowSum p;
    std::vector<Tensor> rf = p.sch.rfactor(p.b, p.k);
    const auto* rfOp = rf[0].op.as<ComputeOpNode>();
    EXPECT_EQ(names(rfOp->axis), (Names{"k", "i"}));
    EXPECT_TRUE(rfOp->reduceAxis.empty());
    EXPECT_EQ(toString(rfOp->body[0].as<ReduceNode>()->source[0]), "A(i, k)");
}

TEST(Schedule, GpuMatmulCachesAreOrderedAsInTvm) {
    // The cache layout of TVM's GPU matmul tutorials.
    Tensor a = placeholder({64, 64}, DataType::float32(), "A");
    Tensor b = placeholder({64, 64}, DataType::float32(), "B");
    IterVar k = reduceAxis(Range(0, 64), "k");
    Tensor c = compute(
        {64, 64},
        [&](const std::vector<Var>& v) {
            return sum(a({v[0], k}) * b({k, v[1]}), {k});
        },
        "C");
    Schedule sch = createSchedule(c.op);
    Tensor aa = sch.cacheRead(a, "shared", {c.op});
    Tensor bb = sch.cacheRead(b, "shared", {c.op});
    Tensor al = sch.cacheRead(aa, "local", {c.op});
    Tensor bl = sch.cacheRead(bb, "local", {c.op});
    Tensor cc = sch.cacheWrite(c, "local");
    EXPECT_EQ(stageNames(sch), (Names{"A", "A.shared", "A.shared.local", "B", "B.shared",
                                      "B.shared.local", "C.local", "C"}));
    const auto* r = sch[cc]->op.as<ComputeOpNode>()->body[0].as<ReduceNode>();
    EXPECT_EQ(toString(r->source[0]), "(A.shared.local(i.c, k)*B.shared.local(k, j.c))");
    EXPECT_EQ(bodyOf(sch[al]), "A.shared(ax0, ax1)");

    const auto* cop = c.op.as<ComputeOpNode>();
    TileResult t = sch[c].tile(cop->axis[0], cop->axis[1], 8, 8);
    sch[c].bind(t.xOuter, threadAxis("blockIdx.y"));
    sch[c].bind(t.yOuter, threadAxis("blockIdx.x"));
    sch[cc].computeAt(sch[c], t.yOuter);
    IterVar kc = sch[cc]->op.as<ComputeOpNode>()->reduceAxis[0];
    auto [ko, ki] = sch[cc].split(kc, 8);
    sch[aa].computeAt(sch[cc], ko);
    sch[al].computeAt(sch[cc], ki);
    Schedule normalized = sch.normalize();
    AttachPathMap paths = createAttachPath(normalized);
    EXPECT_EQ(names(paths.at(normalized[al]->op)),
              (Names{"k.inner", "k.outer", "j.c", "i.c", "j.outer", "i.outer"}));
    EXPECT_EQ(names(paths.at(normalized[aa]->op)),
              (Names{"k.outer", "j.c", "i.c", "j.outer", "i.outer"}));
    EXPECT_TRUE(paths.at(normalized[bb]->op).empty());
}

} // namespace
} // namespace bs

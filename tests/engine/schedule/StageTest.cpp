#include "ScheduleTestUtil.h"

#include "ir/Printer.h"

#include <gtest/gtest.h>

namespace bs {
namespace {

using test::Names;
using test::names;
using test::relationStrings;

TEST(Stage, FreshStageHasRootsAsLeaves) {
    test::RowSum p;
    Stage b = p.sch[p.b];
    EXPECT_EQ(names(b->allIterVars), (Names{"i", "k"}));
    EXPECT_EQ(names(b->leafIterVars), (Names{"i", "k"}));
    EXPECT_TRUE(b->relations.empty());
    EXPECT_EQ(b->attachType, AttachType::GroupRoot);
    EXPECT_TRUE(b->isOutput);
    EXPECT_TRUE(b->scope.empty());
    EXPECT_EQ(b.name(), "B");
}

TEST(Stage, SplitByFactorReplacesTheLeafByOuterAndInner) {
    test::Elementwise p;
    Stage c = p.sch[p.c];
    auto [outer, inner] = c.split(p.axis(0), 8);
    EXPECT_EQ(outer->var.name(), "i.outer");
    EXPECT_EQ(inner->var.name(), "i.inner");
    EXPECT_FALSE(outer->dom.defined());
    EXPECT_EQ(names(c->leafIterVars), (Names{"i.outer", "i.inner", "j"}));
    EXPECT_EQ(names(c->allIterVars), (Names{"i", "j", "i.outer", "i.inner"}));
    EXPECT_EQ(relationStrings(c),
              (Names{"split(parent=i, outer=i.outer, inner=i.inner, factor=8)"}));
    const auto* split = c->relations[0].as<SplitNode>();
    ASSERT_NE(split, nullptr);
    EXPECT_TRUE(split->parent.same_as(p.axis(0)));
    EXPECT_FALSE(split->nparts.defined());
}

TEST(Stage, SplitByNPartsRecordsNParts) {
    test::Elementwise p;
    Stage c = p.sch[p.c];
    auto [outer, inner] = c.splitByNParts(p.axis(1), 4);
    EXPECT_EQ(names(c->leafIterVars), (Names{"i", "j.outer", "j.inner"}));
    EXPECT_EQ(relationStrings(c),
              (Names{"split(parent=j, outer=j.outer, inner=j.inner, nparts=4)"}));
    EXPECT_EQ(outer->iterType, IterVarType::DataPar);
}

TEST(Stage, SplitTwiceNestsNames) {
    test::Elementwise p;
    Stage c = p.sch[p.c];
    auto [outer, inner] = c.split(p.axis(0), 16);
    c.split(inner, 4);
    EXPECT_EQ(names(c->leafIterVars), (Names{"i.outer", "i.inner.outer", "i.inner.inner", "j"}));
}

TEST(Stage, SplitBySymbolicFactor) {
    test::Elementwise p;
    Stage c = p.sch[p.c];
    Var f = var("f");
    c.split(p.axis(0), f);
    EXPECT_EQ(relationStrings(c),
              (Names{"split(parent=i, outer=i.outer, inner=i.inner, factor=f)"}));
}

TEST(Stage, FuseAdjacentLeaves) {
    test::Elementwise p;
    Stage c = p.sch[p.c];
    IterVar fused = c.fuse(p.axis(0), p.axis(1));
    EXPECT_EQ(fused->var.name(), "i.j.fused");
    EXPECT_EQ(names(c->leafIterVars), (Names{"i.j.fused"}));
    EXPECT_EQ(relationStrings(c), (Names{"fuse(outer=i, inner=j, fused=i.j.fused)"}));
}

TEST(Stage, FuseIsOrderInsensitiveButNamedInArgumentOrder) {
    test::Elementwise p;
    Stage c = p.sch[p.c];
    IterVar fused = c.fuse(p.axis(1), p.axis(0));
    EXPECT_EQ(fused->var.name(), "j.i.fused");
    EXPECT_EQ(relationStrings(c), (Names{"fuse(outer=i, inner=j, fused=j.i.fused)"}));
}

TEST(Stage, FuseTakesTheLargerKind) {
    test::RowSum p;
    Stage b = p.sch[p.b];
    IterVar fused = b.fuse(p.axis(), p.k);
    EXPECT_EQ(fused->iterType, IterVarType::CommReduce);
}

TEST(Stage, FuseListFusesLeftToRight) {
    test::Elementwise p({4, 8, 16});
    Stage c = p.sch[p.c];
    IterVar fused = c.fuse(std::vector<IterVar>{p.axis(0), p.axis(1), p.axis(2)});
    EXPECT_EQ(fused->var.name(), "i.j.fused.k.fused");
    EXPECT_EQ(names(c->leafIterVars), (Names{"i.j.fused.k.fused"}));
    EXPECT_EQ(c->relations.size(), 2u);
}

TEST(Stage, FuseWithNothingInsertsASingleton) {
    test::Elementwise p;
    Stage c = p.sch[p.c];
    IterVar singleton = c.fuse(std::vector<IterVar>{});
    EXPECT_EQ(singleton->var.name(), "singleton");
    EXPECT_EQ(toString(singleton->dom), "range(min=0, ext=1)");
    EXPECT_EQ(names(c->leafIterVars), (Names{"singleton", "i", "j"}));
    EXPECT_EQ(relationStrings(c), (Names{"singleton(iter=singleton)"}));
}

TEST(Stage, ReorderPermutesOnlyTheListedPositions) {
    test::Elementwise p({4, 8, 16});
    Stage c = p.sch[p.c];
    c.reorder({p.axis(2), p.axis(0)});
    EXPECT_EQ(names(c->leafIterVars), (Names{"k", "j", "i"}));
    c.reorder({p.axis(1), p.axis(2)});
    EXPECT_EQ(names(c->leafIterVars), (Names{"j", "k", "i"}));
    EXPECT_TRUE(c->relations.empty());
}

TEST(Stage, TileSplitsBothAndReorders) {
    test::Elementwise p;
    Stage c = p.sch[p.c];
    TileResult t = c.tile(p.axis(0), p.axis(1), 8, 4);
    EXPECT_EQ(names({t.xOuter, t.yOuter, t.xInner, t.yInner}),
              (Names{"i.outer", "j.outer", "i.inner", "j.inner"}));
    EXPECT_EQ(names(c->leafIterVars), (Names{"i.outer", "j.outer", "i.inner", "j.inner"}));
    EXPECT_EQ(relationStrings(c),
              (Names{"split(parent=i, outer=i.outer, inner=i.inner, factor=8)",
                     "split(parent=j, outer=j.outer, inner=j.inner, factor=4)"}));
}

TEST(Stage, BindRecordsTheThreadAndKeepsTheKind) {
    test::Elementwise p;
    Stage c = p.sch[p.c];
    IterVar tx = threadAxis("threadIdx.x");
    c.bind(p.axis(1), tx);
    const IterVarAttr* attr = c.attrOf(p.axis(1));
    ASSERT_NE(attr, nullptr);
    EXPECT_TRUE(attr->bindThread.same_as(tx));
    EXPECT_EQ(attr->iterType, IterVarType::DataPar);
    EXPECT_EQ(p.axis(1)->iterType, IterVarType::DataPar);
    EXPECT_EQ(names(c->leafIterVars), (Names{"i", "j"}));
}

TEST(Stage, LoopAnnotationsSetTheAttributeKind) {
    test::Elementwise p({4, 8, 16});
    Stage c = p.sch[p.c];
    c.vectorize(p.axis(2));
    c.unroll(p.axis(1));
    c.parallel(p.axis(0));
    EXPECT_EQ(c.attrOf(p.axis(2))->iterType, IterVarType::Vectorized);
    EXPECT_EQ(c.attrOf(p.axis(1))->iterType, IterVarType::Unrolled);
    EXPECT_EQ(c.attrOf(p.axis(0))->iterType, IterVarType::Parallelized);
}

TEST(Stage, PragmaRecordsKeyAndValueAndForwardsUnroll) {
    test::Elementwise p;
    Stage c = p.sch[p.c];
    c.pragma(p.axis(0), "auto_unroll_max_step", 16);
    c.pragma(p.axis(1), "unroll");
    const IterVarAttr* attr = c.attrOf(p.axis(0));
    ASSERT_EQ(attr->pragmas.size(), 1u);
    EXPECT_EQ(attr->pragmas[0].first, "auto_unroll_max_step");
    EXPECT_EQ(toString(attr->pragmas[0].second), "16");
    EXPECT_EQ(c.attrOf(p.axis(1))->iterType, IterVarType::Unrolled);
    EXPECT_TRUE(c.attrOf(p.axis(1))->pragmas.empty());
}

TEST(Stage, ComputeAtRootAndInlineSetTheAttachment) {
    Tensor a = placeholder({5, 16}, DataType::float32(), "A");
    Tensor c = compute(
        {5, 16},
        [&](const std::vector<Var>& v) {
            return a({v[0], v[1]}) + 1.0f;
        },
        "C");
    Tensor d = compute(
        {5, 16},
        [&](const std::vector<Var>& v) {
            return c({v[0], v[1]}) * 2.0f;
        },
        "D");
    Schedule sch = createSchedule(d.op);
    IterVar dj = d.op.as<ComputeOpNode>()->axis[1];
    sch[c].computeAt(sch[d], dj);
    EXPECT_EQ(sch[c]->attachType, AttachType::Scope);
    EXPECT_TRUE(sch[c]->attachIVar.same_as(dj));
    EXPECT_TRUE(sch[c]->attachStage.same_as(sch[d]));
    sch[c].computeRoot();
    EXPECT_EQ(sch[c]->attachType, AttachType::GroupRoot);
    EXPECT_FALSE(sch[c]->attachStage.defined());
    sch[c].computeInline();
    EXPECT_EQ(sch[c]->attachType, AttachType::Inline);
    EXPECT_STREQ(attachTypeName(sch[c]->attachType), "kInline");
}

TEST(Stage, SetScopeRecordsTheScope) {
    test::Elementwise p;
    p.sch[p.c].setScope("shared");
    EXPECT_EQ(p.sch[p.c]->scope, "shared");
}

TEST(Stage, EveryEditRecordsItsScriptLine) {
    test::Elementwise p;
    Stage c = p.sch[p.c];
    {
        ScopedSourceLocation at(SourceLocation{"s.py", 12});
        c.split(p.axis(0), 4);
    }
    {
        ScopedSourceLocation at(SourceLocation{"s.py", 13});
        c.vectorize(c->leafIterVars[1]);
    }
    EXPECT_EQ(c->relations[0]->location.line, 12);
    EXPECT_EQ(c->leafIterVars[0]->location.line, 12);
    EXPECT_EQ(c.attrOf(c->leafIterVars[1])->location.line, 13);
    EXPECT_EQ(c->relations[0]->location.file, "s.py");
}

TEST(Stage, ComputeAtRecordsItsScriptLine) {
    Tensor a = placeholder({4}, DataType::float32(), "A");
    Tensor c = compute(
        {4}, [&](const std::vector<Var>& v) { return a({v[0]}); }, "C");
    Tensor d = compute(
        {4}, [&](const std::vector<Var>& v) { return c({v[0]}); }, "D");
    Schedule sch;
    {
        ScopedSourceLocation at(SourceLocation{"s.py", 3});
        sch = createSchedule(d.op);
    }
    ScopedSourceLocation at(SourceLocation{"s.py", 4});
    sch[c].computeAt(sch[d], d.op.as<ComputeOpNode>()->axis[0]);
    EXPECT_EQ(sch[c]->location.line, 3);
    EXPECT_EQ(sch[c]->attachLocation.line, 4);
}

} // namespace
} // namespace bs

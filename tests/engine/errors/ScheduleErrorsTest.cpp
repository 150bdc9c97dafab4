// One test per user-facing diagnostic of the schedule primitives: the full message, and that
// the schedule is left exactly as it was.

#include "ir/Op.h"
#include "schedule/Graph.h"
#include "schedule/Schedule.h"
#include "te/Compute.h"
#include "te/Reduce.h"

#include <gtest/gtest.h>

#include <functional>

namespace bs {
namespace {

/// What a failed primitive must not have changed.
struct StageSnapshot {
    std::vector<std::string> leaves;
    std::vector<std::string> all;
    size_t relations;
    size_t attrs;
    AttachType attach;
    std::string op;

    explicit StageSnapshot(const Stage& s)
        : relations(s->relations.size()), attrs(s->iterVarAttrs.size()), attach(s->attachType),
          op(s->op->name) {
        for (const IterVar& iv : s->leafIterVars)
            leaves.push_back(iv->var.name());
        for (const IterVar& iv : s->allIterVars)
            all.push_back(iv->var.name());
    }
    bool operator==(const StageSnapshot& o) const {
        return leaves == o.leaves && all == o.all && relations == o.relations && attrs == o.attrs &&
               attach == o.attach && op == o.op;
    }
};

std::vector<StageSnapshot> snapshot(const Schedule& sch) {
    std::vector<StageSnapshot> out;
    for (const Stage& s : sch.stages())
        out.emplace_back(s);
    return out;
}

/// Runs `action`, expects exactly `message`, and checks the schedule did not change.
void expectError(const Schedule& sch, const std::function<void()>& action,
                 const std::string& message) {
    std::vector<StageSnapshot> before = snapshot(sch);
    try {
        action();
        ADD_FAILURE() << "expected: " << message;
    } catch (const UserError& e) {
        EXPECT_EQ(std::string(e.what()), message);
    }
    EXPECT_TRUE(before == snapshot(sch)) << "the schedule changed after: " << message;
}

/// A(32, 64) -> B = A + 1 -> C = B * 2 with axes (i, j), and D(4) = sum over k of C(0, k).
struct Program {
    Tensor a, b, c, d;
    IterVar k;
    Schedule sch;
    Program() {
        a = placeholder({32, 64}, DataType::float32(), "A");
        b = compute(
            {32, 64},
            [&](const std::vector<Var>& v) {
                return a({v[0], v[1]}) + 1.0f;
            },
            "B");
        c = compute(
            {32, 64},
            [&](const std::vector<Var>& v) {
                return b({v[0], v[1]}) * 2.0f;
            },
            "C");
        k = reduceAxis(Range(0, 64), "k");
        d = compute(
            {4},
            [&](const std::vector<Var>& v) {
                return sum(c({v[0], k}), {k});
            },
            "D");
        sch = createSchedule(d.op);
    }
    IterVar axisOf(const Tensor& t, size_t i) const { return t.op.as<ComputeOpNode>()->axis[i]; }
    Stage stage(const Tensor& t) const { return sch[t]; }
};

TEST(ScheduleErrors, SplitOfAnIterVarAlreadySplit) {
    Program p;
    p.stage(p.c).split(p.axisOf(p.c, 0), 8);
    expectError(
        p.sch, [&] { p.stage(p.c).split(p.axisOf(p.c, 0), 4); },
        "split of 'i' in stage 'C': 'i' is no longer a leaf (it was split into 'i.outer' "
        "and 'i.inner')");
}

TEST(ScheduleErrors, SplitOfAnotherStagesIterVar) {
    Program p;
    expectError(
        p.sch, [&] { p.stage(p.c).split(p.axisOf(p.b, 1), 4); },
        "split of 'j' in stage 'C': 'j' is not an iter var of stage 'C'");
}

TEST(ScheduleErrors, SplitFactorZero) {
    Program p;
    expectError(
        p.sch, [&] { p.stage(p.c).split(p.axisOf(p.c, 0), 0); },
        "split of 'i' in stage 'C': factor must be a positive integer, got 0");
}

TEST(ScheduleErrors, SplitNPartsNegative) {
    Program p;
    expectError(
        p.sch, [&] { p.stage(p.c).splitByNParts(p.axisOf(p.c, 1), -2); },
        "split of 'j' in stage 'C': nparts must be a positive integer, got -2");
}

TEST(ScheduleErrors, SplitFactorNotAnInteger) {
    Program p;
    expectError(
        p.sch, [&] { p.stage(p.c).split(p.axisOf(p.c, 0), Expr(2.5f)); },
        "split of 'i' in stage 'C': factor must be a positive integer, got 2.500000f");
}

TEST(ScheduleErrors, BindOfAFusedIterVar) {
    Program p;
    p.stage(p.c).fuse(p.axisOf(p.c, 0), p.axisOf(p.c, 1));
    expectError(
        p.sch, [&] { p.stage(p.c).bind(p.axisOf(p.c, 0), threadAxis("blockIdx.x")); },
        "bind of 'i' in stage 'C': 'i' is no longer a leaf (it was fused into 'i.j.fused')");
}

TEST(ScheduleErrors, BindToSomethingNotAThread) {
    Program p;
    expectError(
        p.sch, [&] { p.stage(p.c).bind(p.axisOf(p.c, 0), p.axisOf(p.c, 1)); },
        "bind of 'i' in stage 'C': can only bind to a thread axis created by "
        "thread_axis, but 'j' is kDataPar");
}

TEST(ScheduleErrors, FuseOfNonAdjacentLeaves) {
    Tensor a = placeholder({4, 8, 16}, DataType::float32(), "A");
    Tensor c = compute(
        {4, 8, 16},
        [&](const std::vector<Var>& v) {
            return a({v[0], v[1], v[2]});
        },
        "C");
    Schedule sch = createSchedule(c.op);
    const auto* op = c.op.as<ComputeOpNode>();
    expectError(
        sch, [&] { sch[c].fuse(op->axis[0], op->axis[2]); },
        "fuse of 'i' and 'k' in stage 'C': only adjacent leaves can be fused, but 'i' is "
        "leaf 0 and 'k' is leaf 2 of (i, j, k)");
}

TEST(ScheduleErrors, FuseWithAnotherStagesIterVar) {
    Program p;
    expectError(
        p.sch, [&] { p.stage(p.c).fuse(p.axisOf(p.c, 1), p.k); },
        "fuse of 'j' and 'k' in stage 'C': 'k' is not an iter var of stage 'C'");
}

TEST(ScheduleErrors, FuseListFailingHalfwayChangesNothing) {
    Tensor a = placeholder({4, 8, 16}, DataType::float32(), "A");
    Tensor c = compute(
        {4, 8, 16},
        [&](const std::vector<Var>& v) {
            return a({v[0], v[1], v[2]});
        },
        "C");
    Schedule sch = createSchedule(c.op);
    const auto* op = c.op.as<ComputeOpNode>();
    expectError(
        sch,
        [&] {
            sch[c].fuse(std::vector<IterVar>{op->axis[0], op->axis[1], op->axis[0]});
        },
        "fuse of 'i.j.fused' and 'i' in stage 'C': 'i' is no longer a leaf (it was fused "
        "into 'i.j.fused')");
}

TEST(ScheduleErrors, VectorizeOfAnIterVarAlreadySplit) {
    Program p;
    p.stage(p.c).split(p.axisOf(p.c, 1), 4);
    expectError(
        p.sch, [&] { p.stage(p.c).vectorize(p.axisOf(p.c, 1)); },
        "vectorize of 'j' in stage 'C': 'j' is no longer a leaf (it was split into "
        "'j.outer' and 'j.inner')");
}

TEST(ScheduleErrors, VectorizeOfAReductionAxis) {
    Program p;
    expectError(
        p.sch, [&] { p.stage(p.d).vectorize(p.k); },
        "vectorize of 'k' in stage 'D': cannot vectorize an iter var of kind kCommReduce");
}

TEST(ScheduleErrors, UnrollOfAnotherStagesIterVar) {
    Program p;
    expectError(
        p.sch, [&] { p.stage(p.b).unroll(p.k); },
        "unroll of 'k' in stage 'B': 'k' is not an iter var of stage 'B'");
}

TEST(ScheduleErrors, ReorderWithADuplicate) {
    Program p;
    IterVar i = p.axisOf(p.c, 0), j = p.axisOf(p.c, 1);
    expectError(
        p.sch,
        [&] {
            p.stage(p.c).reorder({j, i, i});
        },
        "reorder of 'i' in stage 'C': 'i' appears more than once in (j, i, i)");
}

TEST(ScheduleErrors, ReorderWithAnotherStagesIterVar) {
    Program p;
    expectError(
        p.sch,
        [&] {
            p.stage(p.c).reorder({p.axisOf(p.c, 1), p.k});
        },
        "reorder of 'k' in stage 'C': 'k' is not an iter var of stage 'C'");
}

TEST(ScheduleErrors, TileWithABadSecondFactorChangesNothing) {
    Program p;
    expectError(
        p.sch, [&] { p.stage(p.c).tile(p.axisOf(p.c, 0), p.axisOf(p.c, 1), 8, 0); },
        "split of 'j' in stage 'C': factor must be a positive integer, got 0");
}

TEST(ScheduleErrors, ComputeAtOntoAnIterVarNoLongerALeaf) {
    Program p;
    IterVar j = p.axisOf(p.c, 1);
    p.stage(p.c).split(j, 8);
    expectError(
        p.sch, [&] { p.stage(p.b).computeAt(p.stage(p.c), j); },
        "compute_at of stage 'B' at 'j' of stage 'C': 'j' is no longer a leaf (it was "
        "split into 'j.outer' and 'j.inner')");
}

TEST(ScheduleErrors, ComputeAtOntoAnIterVarOfAnotherStage) {
    Program p;
    expectError(
        p.sch, [&] { p.stage(p.b).computeAt(p.stage(p.c), p.axisOf(p.b, 0)); },
        "compute_at of stage 'B' at 'i' of stage 'C': 'i' is not an iter var of stage 'C'");
}

TEST(ScheduleErrors, ComputeAtOfAnOutputStage) {
    Tensor a = placeholder({8}, DataType::float32(), "A");
    Tensor c = compute(
        {8}, [&](const std::vector<Var>& v) { return a({v[0]}) + 1.0f; }, "C");
    Tensor d = compute(
        {8}, [&](const std::vector<Var>& v) { return c({v[0]}) * 2.0f; }, "D");
    Schedule sch = createSchedule(std::vector<Operation>{c.op, d.op});
    // Accepted by the call, refused when lowered (TVM's timing), at the compute_at's line.
    {
        ScopedSourceLocation line(SourceLocation{"script.py", 7});
        sch[c].computeAt(sch[d], d.op.as<ComputeOpNode>()->axis[0]);
    }
    expectError(
        sch, [&] { sch.normalize(); },
        "compute_at of stage 'C' at 'i' of stage 'D': 'C' is an output and must be "
        "computed at the root");
    try {
        sch.normalize();
    } catch (const UserError& e) {
        EXPECT_EQ(e.diagnostic().location.line, 7);
        EXPECT_EQ(e.diagnostic().subject.kind, "output-attached");
    }
}

TEST(ScheduleErrors, ComputeAtOfAnOutputAtItsOwnLoopIsNotFixedByTheSameCall) {
    Tensor a = placeholder({8}, DataType::float32(), "A");
    Tensor c = compute(
        {8}, [&](const std::vector<Var>& v) { return a({v[0]}) + 1.0f; }, "C");
    Schedule sch = createSchedule(c.op);
    sch[c].computeAt(sch[c], c.op.as<ComputeOpNode>()->axis[0]);
    try {
        sch.normalize();
        ADD_FAILURE() << "normalized";
    } catch (const UserError& e) {
        // "Attach the other way round" suggested s[C].compute_at(s[C], C.op.axis[0]) again.
        EXPECT_EQ(e.diagnostic().fix,
                  "remove this compute_at: no stage is computed inside its own loops");
    }
    // A stage that is not an output: an attach cycle of one, with the same fix.
    Tensor d = compute(
        {8}, [&](const std::vector<Var>& v) { return c({v[0]}) * 2.0f; }, "D");
    Schedule two = createSchedule(d.op);
    two[c].computeAt(two[c], c.op.as<ComputeOpNode>()->axis[0]);
    try {
        two.normalize();
        ADD_FAILURE() << "normalized";
    } catch (const UserError& e) {
        EXPECT_EQ(e.diagnostic().fix,
                  "remove this compute_at: no stage is computed inside its own loops");
    }
}

TEST(ScheduleErrors, ComputeAtMakingAnAttachCycleIsRefusedWhenLoweredAtTheClosingCall) {
    Program p;
    {
        ScopedSourceLocation line(SourceLocation{"script.py", 5});
        p.stage(p.b).computeAt(p.stage(p.c), p.axisOf(p.c, 1));
    }
    {
        ScopedSourceLocation line(SourceLocation{"script.py", 6});
        p.stage(p.c).computeAt(p.stage(p.b), p.axisOf(p.b, 0)); // accepted, as in TVM
    }
    const std::string message =
        "compute_at of stage 'C' at 'i' of stage 'B': it makes an attach cycle C -> B -> C";
    expectError(
        p.sch, [&] { p.sch.normalize(); }, message);
    expectError(
        p.sch, [&] { createAttachPath(p.sch); }, message);
    try {
        p.sch.normalize();
    } catch (const UserError& e) {
        EXPECT_EQ(e.diagnostic().location.line, 6); // the call that closed the cycle
        EXPECT_EQ(e.diagnostic().subject.kind, "attach-cycle");
    }
}

TEST(ScheduleErrors, AStageAttachedIntoACycleItIsNotPartOfDoesNotHangTheCheck) {
    // B at C, and C and D attached to each other: B's chain runs into a cycle without B.
    Program p;
    Tensor d = compute(
        {32, 64},
        [&](const std::vector<Var>& v) {
            return p.c({v[0], v[1]}) * 3.0f;
        },
        "D");
    Schedule sch = createSchedule(d.op);
    sch[p.b].computeAt(sch[p.c], p.axisOf(p.c, 0));
    sch[p.c].computeAt(sch[d], d.op.as<ComputeOpNode>()->axis[0]);
    sch[d].mutableNode()->isOutput = false; // so that only the cycle is wrong
    sch[d].computeAt(sch[p.c], p.axisOf(p.c, 1));
    try {
        sch.normalize();
        FAIL() << "accepted";
    } catch (const UserError& e) {
        EXPECT_NE(std::string(e.what()).find("it makes an attach cycle"), std::string::npos)
            << e.what();
    }
}

TEST(ScheduleErrors, ComputeAtOntoItselfIsRefusedWhenLowered) {
    Program p;
    p.stage(p.b).computeAt(p.stage(p.b), p.axisOf(p.b, 0));
    expectError(
        p.sch, [&] { p.sch.normalize(); },
        "compute_at of stage 'B' at 'i' of stage 'B': it makes an attach cycle B -> B");
}

TEST(ScheduleErrors, ComputeAtOfAPlaceholder) {
    Program p;
    expectError(
        p.sch, [&] { p.stage(p.a).computeAt(p.stage(p.c), p.axisOf(p.c, 0)); },
        "compute_at of stage 'A' at 'i' of stage 'C': a placeholder is not computed, so "
        "it cannot be attached");
}

TEST(ScheduleErrors, ComputeInlineOfAnOutput) {
    Program p;
    expectError(
        p.sch, [&] { p.stage(p.d).computeInline(); },
        "compute_inline of stage 'D': an output stage cannot be inlined");
}

TEST(ScheduleErrors, ComputeInlineOfAReduction) {
    Program p;
    Tensor e = compute(
        {4}, [&](const std::vector<Var>& v) { return p.d({v[0]}) + 1.0f; }, "E");
    Schedule sch = createSchedule(e.op);
    expectError(
        sch, [&] { sch[p.d].computeInline(); },
        "compute_inline of stage 'D': a reduction cannot be inlined; compute it at the "
        "root or with compute_at instead");
}

TEST(ScheduleErrors, ComputeInlineOfAPlaceholder) {
    Program p;
    expectError(
        p.sch, [&] { p.stage(p.a).computeInline(); },
        "compute_inline of stage 'A': only a compute can be inlined, 'A' is a placeholder");
}

TEST(ScheduleErrors, ComputeInlineOfAMultiOutputCompute) {
    Tensor a = placeholder({8}, DataType::float32(), "A");
    std::vector<Tensor> m = computeMulti(
        {8},
        [&](const std::vector<Var>& v) {
            return std::vector<Expr>{a({v[0]}) + 1.0f, a({v[0]}) * 2.0f};
        },
        "M");
    Tensor d = compute(
        {8}, [&](const std::vector<Var>& v) { return m[0]({v[0]}) + m[1]({v[0]}); }, "D");
    Schedule sch = createSchedule(d.op);
    expectError(
        sch, [&] { sch[m[0]].computeInline(); },
        "compute_inline of stage 'M': only a single-output compute can be inlined, 'M' "
        "has 2 outputs");
}

TEST(ScheduleErrors, PragmaWithoutAName) {
    Program p;
    expectError(
        p.sch, [&] { p.stage(p.c).pragma(p.axisOf(p.c, 0), ""); },
        "pragma of 'i' in stage 'C': the pragma needs a name");
}

TEST(ScheduleErrors, CacheReadForAStageThatDoesNotReadTheTensor) {
    Program p;
    expectError(
        p.sch,
        [&] {
            p.sch.cacheRead(p.a, "shared", {p.b.op, p.c.op});
        },
        "cache_read of 'A' into 'shared': stage 'C' does not read 'A'");
    EXPECT_EQ(p.sch.stages().size(), 4u);
}

TEST(ScheduleErrors, CacheWriteOfAPlaceholder) {
    Program p;
    expectError(
        p.sch, [&] { p.sch.cacheWrite(p.a, "local"); },
        "cache_write of 'A' into 'local': only a compute can be cached for writing, 'A' "
        "is a placeholder");
}

TEST(ScheduleErrors, CacheWriteAfterSplittingTheReduction) {
    Program p;
    p.stage(p.d).split(p.k, 8);
    expectError(
        p.sch, [&] { p.sch.cacheWrite(p.d, "local"); },
        "cache_write of 'D' into 'local': the cache can only be laid out along "
        "data-parallel leaves, but leaf 'k.outer' of stage 'D' is kCommReduce");
}

TEST(ScheduleErrors, RfactorOfADataAxis) {
    Program p;
    expectError(
        p.sch, [&] { p.sch.rfactor(p.d, p.axisOf(p.d, 0)); },
        "rfactor of 'i' in stage 'D': can only factor a reduction IterVar, but 'i' is "
        "kDataPar");
}

TEST(ScheduleErrors, RfactorOfAnIterVarNoLongerALeaf) {
    Program p;
    p.stage(p.d).split(p.k, 8);
    expectError(
        p.sch, [&] { p.sch.rfactor(p.d, p.k); },
        "rfactor of 'k' in stage 'D': 'k' is no longer a leaf (it was split into "
        "'k.outer' and 'k.inner')");
}

TEST(ScheduleErrors, RfactorFactorAxisOutOfRange) {
    Program p;
    expectError(
        p.sch, [&] { p.sch.rfactor(p.d, p.k, 3); },
        "rfactor of 'k' in stage 'D': factor_axis must be in [-2, 1], got 3");
}

TEST(ScheduleErrors, RfactorOfAReductionFusedWithADataAxis) {
    Program p;
    IterVar fused = p.stage(p.d).fuse(p.axisOf(p.d, 0), p.k);
    expectError(
        p.sch, [&] { p.sch.rfactor(p.d, fused); },
        "rfactor of 'i.k.fused' in stage 'D': 'i.k.fused' is fused with the data axis "
        "'i'; only reduction IterVars can be factored");
}

TEST(ScheduleErrors, LookupOfAnOperationOutsideTheSchedule) {
    Program p;
    Tensor other = placeholder({2}, DataType::float32(), "X");
    expectError(
        p.sch, [&] { p.sch[other]; }, "operation 'X' is not part of the schedule");
}

TEST(ScheduleErrors, CreateScheduleWithoutOutputsIsEmptyButAnUndefinedOutputIsRefused) {
    // TVM's te.create_schedule([]) is an empty schedule.
    Schedule empty = createSchedule(std::vector<Operation>{});
    EXPECT_TRUE(empty.stages().empty());
    try {
        createSchedule(std::vector<Operation>{Operation()});
        FAIL() << "expected a UserError";
    } catch (const UserError& e) {
        EXPECT_STREQ(e.what(), "create_schedule: output 0 is undefined");
    }
}

TEST(ScheduleErrors, AttachPathWithAStaleAttachPoint) {
    Program p;
    IterVar j = p.axisOf(p.c, 1);
    p.stage(p.b).computeAt(p.stage(p.c), j);
    p.stage(p.c).fuse(j, p.axisOf(p.c, 0));
    try {
        createAttachPath(p.sch);
        FAIL() << "expected a UserError";
    } catch (const UserError& e) {
        EXPECT_STREQ(e.what(), "invalid schedule: stage 'B' is computed at 'j' of stage 'C', but "
                               "'j' is no longer a leaf (it was fused into 'j.i.fused')");
    }
}

TEST(ScheduleErrors, ErrorsCarryTheScriptLine) {
    Program p;
    ScopedSourceLocation at(SourceLocation{"bad.py", 9});
    try {
        p.stage(p.c).split(p.axisOf(p.c, 0), 0);
        FAIL() << "expected a UserError";
    } catch (const UserError& e) {
        EXPECT_EQ(e.diagnostic().location.line, 9);
        EXPECT_EQ(e.diagnostic().toString(),
                  "bad.py:9: error: split of 'i' in stage 'C': factor must be a positive integer, "
                  "got 0");
    }
}

TEST(ScheduleErrors, ComputeAtOntoAStageThatDoesNotReadTheProducerIsAllowed) {
    // C is read by D only; computing C inside E (which reads D) is legal, as in TVM.
    Tensor a = placeholder({8}, DataType::float32(), "A");
    Tensor c = compute(
        {8}, [&](const std::vector<Var>& v) { return a({v[0]}) + 1.0f; }, "C");
    Tensor d = compute(
        {8}, [&](const std::vector<Var>& v) { return c({v[0]}) * 2.0f; }, "D");
    Tensor e = compute(
        {8}, [&](const std::vector<Var>& v) { return d({v[0]}) - 1.0f; }, "E");
    Schedule sch = createSchedule(e.op);
    IterVar ei = e.op.as<ComputeOpNode>()->axis[0];
    EXPECT_NO_THROW(sch[c].computeAt(sch[e], ei));
    EXPECT_NO_THROW(sch[d].computeAt(sch[e], ei));
    EXPECT_EQ(createAttachPath(sch).at(c.op).size(), 1u);
}

} // namespace
} // namespace bs

// Compact storage (issue 20, lower/CompactStorage.h): the `compact` rules store a lattice or
// disjoint boxes of a buffer as exactly those elements. Each example allocates its exact need,
// runs in the interpreter with the unscheduled program's result, and explains itself in a step.
#include "DiffTestUtil.h"

#include "engine/GatherBound.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "schedule/InferBoundTight.h"
#include "te/Compute.h"
#include "te/Reduce.h"

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::test;

namespace {

#define REQUIRE_ISL()                                                                              \
    if (!hasIsl())                                                                                 \
    GTEST_SKIP() << "built without ISL"

Expr f32(double v) { return makeConst(DataType::float32(), v); }
const ComputeOpNode* opOf(const Tensor& t) { return t.op.as<ComputeOpNode>(); }

/// The elements lowering allocates for `name` (the largest allocation of that name), or -1.
int64_t allocated(const LoweredFunc& f, const std::string& name) {
    int64_t size = -1;
    postOrderVisit(f.final, [&](const NodeRef& node) {
        if (const auto* alloc = node.as<AllocateNode>(); alloc && alloc->bufferVar.name() == name)
            size = std::max(size, alloc->constantSize());
    });
    return size;
}

/// Lowers `s` under `rules`, runs it and checks the output (the last argument) against the
/// unscheduled program on random inputs.
LowerResult lowerAndCheck(const Schedule& s, const std::vector<Tensor>& args, BoundRules rules) {
    std::vector<Buffer> inputs = randomArguments(args, {}, 5);
    Buffer expected = lowerAndRun(createSchedule(args.back().op), args, {}, inputs).back();
    LowerOptions options;
    options.rules = rules;
    LowerResult lowered = lower(s, args, options);
    std::vector<Buffer> out = runLowered(lowered.func, inputs);
    std::string mismatch;
    EXPECT_TRUE(Buffer::allClose(out.back(), expected, 1e-5, 1e-6, &mismatch))
        << "under " << boundRulesName(rules) << ": " << mismatch << "\n"
        << toString(lowered.func.final);
    return lowered;
}

const BoundStep* compactStep(const LowerResult& r, const std::string& tensor) {
    for (const BoundStep& step : r.bounds.steps.all())
        if (step.phase == StepPhase::Compact && step.tensor.defined() &&
            step.tensor.name() == tensor)
            return &step;
    return nullptr;
}

/// Each thread reads B at tx, tx+32, tx+64, tx+96 (the strided local cache).
struct StridedCache {
    Tensor A, B, C;
    Schedule s;
    StridedCache() {
        A = placeholder({128}, DataType::float32(), "A");
        B = compute(
            {128}, [&](const std::vector<Var>& v) { return A({v[0]}) * f32(2); }, "B");
        IterVar k = reduceAxis(Range(0, 4), "k");
        C = compute(
            {32}, [&](const std::vector<Var>& v) { return sum(B({v[0] + Expr(32) * k->var}), k); },
            "C");
        s = createSchedule(C.op);
        s[B].setScope("local");
        s[C].bind(opOf(C)->axis[0], threadAxis("threadIdx.x"));
        s[B].computeAt(s[C], opOf(C)->axis[0]);
    }
};

} // namespace

TEST(CompactStorage, StridedLocalCacheHoldsFourPerThreadInsteadOf97) {
    REQUIRE_ISL();
    StridedCache p;
    LowerResult tight = lowerAndCheck(p.s, {p.A, p.C}, BoundRules::Tight);
    EXPECT_EQ(allocated(tight.func, "B"), 97);
    EXPECT_TRUE(tight.compactions.empty());
    LowerResult compact = lowerAndCheck(p.s, {p.A, p.C}, BoundRules::Compact);
    EXPECT_EQ(allocated(compact.func, "B"), 4) << toString(compact.func.final);
    ASSERT_EQ(compact.compactions.size(), 1u);
    const Compaction& c = compact.compactions[0];
    EXPECT_EQ(c.kind, Compaction::Kind::Lattice);
    EXPECT_EQ(c.strides, std::vector<int64_t>{32});
    EXPECT_EQ(c.indexMap, "B(x0) -> B((x0 - threadIdx.x)/32)");
    // The producer runs the four points only, and the consumer reads B[k].
    const std::string final = toString(compact.func.final);
    EXPECT_NE(final.find("for (i, 0, 4)"), std::string::npos) << final;
    EXPECT_NE(final.find("B[i] = (A[((i*32) + threadIdx.x)]*2.000000f)"), std::string::npos)
        << final;
    EXPECT_NE(final.find("(C[threadIdx.x] + B[k])"), std::string::npos) << final;
}

TEST(CompactStorage, StrideFiveReadAfterComputeAtComputesThreeInsteadOf11) {
    REQUIRE_ISL();
    Tensor A = placeholder({64}, DataType::float32(), "A");
    Tensor B = compute(
        {64}, [&](const std::vector<Var>& v) { return A({v[0]}) + f32(1); }, "B");
    Tensor C = compute(
        {54}, [&](const std::vector<Var>& v) { return B({v[0]}) + B({v[0] + 5}) + B({v[0] + 10}); },
        "C");
    Schedule s = createSchedule(C.op);
    s[B].computeAt(s[C], opOf(C)->axis[0]);
    EXPECT_EQ(allocated(lowerAndCheck(s, {A, C}, BoundRules::Tight).func, "B"), 11);
    LowerResult compact = lowerAndCheck(s, {A, C}, BoundRules::Compact);
    EXPECT_EQ(allocated(compact.func, "B"), 3);
    const std::string final = toString(compact.func.final);
    EXPECT_NE(final.find("for (i, 0, 3)"), std::string::npos) << "3 computed, not 11:\n" << final;
    EXPECT_NE(final.find("B[0] + B[1]) + B[2]"), std::string::npos) << final;
}

TEST(CompactStorage, DisjointConsumersAllocateEightInsteadOf16) {
    REQUIRE_ISL();
    // The GatherBound problem (resources/examples/gather_disjoint.py).
    const test::GatherBound g;
    Schedule s = g.schedule();
    EXPECT_EQ(allocated(lowerAndCheck(s, {g.A, g.Out}, BoundRules::Tight).func, "T"), 16);
    LowerResult compact = lowerAndCheck(s, {g.A, g.Out}, BoundRules::Compact);
    EXPECT_EQ(allocated(compact.func, "T"), 8);
    ASSERT_EQ(compact.compactions.size(), 1u);
    const Compaction& c = compact.compactions[0];
    EXPECT_EQ(c.kind, Compaction::Kind::Boxes);
    ASSERT_EQ(c.boxes.size(), 2u);
    EXPECT_EQ(c.boxes[0], (std::vector<std::pair<int64_t, int64_t>>{{0, 1}, {0, 1}}));
    EXPECT_EQ(c.boxes[1], (std::vector<std::pair<int64_t, int64_t>>{{2, 3}, {2, 3}}));
    // The producer runs once per box: 8 elements computed.
    const std::string final = toString(compact.func.final);
    EXPECT_NE(final.find("for (i, 2, 2)"), std::string::npos) << final;
}

TEST(CompactStorage, StridedConvolutionInputTileHolds16InsteadOf49) {
    REQUIRE_ISL();
    Tensor A = placeholder({18, 18}, DataType::float32(), "A");
    Tensor W = placeholder({3, 3}, DataType::float32(), "W");
    Tensor P = compute(
        {18, 18},
        [&](const std::vector<Var>& v) {
            return A({v[0], v[1]}) * f32(1);
        },
        "Apad");
    IterVar ry = reduceAxis(Range(0, 3), "ry"), rx = reduceAxis(Range(0, 3), "rx");
    Tensor O = compute(
        {8, 8},
        [&](const std::vector<Var>& v) {
            return sum(P({Expr(2) * v[0] + ry->var, Expr(2) * v[1] + rx->var}) *
                           W({ry->var, rx->var}),
                       {ry, rx});
        },
        "O");
    Schedule s = createSchedule(O.op);
    auto [yo, yi] = s[O].split(opOf(O)->axis[0], 4);
    auto [xo, xi] = s[O].split(opOf(O)->axis[1], 4);
    s[O].reorder({yo, xo, ry, rx, yi, xi});
    s[P].computeAt(s[O], rx);
    EXPECT_EQ(allocated(lowerAndCheck(s, {A, W, O}, BoundRules::Tight).func, "Apad"), 49);
    LowerResult compact = lowerAndCheck(s, {A, W, O}, BoundRules::Compact);
    EXPECT_EQ(allocated(compact.func, "Apad"), 16);
    ASSERT_EQ(compact.compactions.size(), 1u);
    EXPECT_EQ(compact.compactions[0].strides, (std::vector<int64_t>{2, 2}));
}

TEST(CompactStorage, ReductionProducerRunsItsInitAndUpdateOnTheLattice) {
    REQUIRE_ISL();
    // B is a reduction (an init and an update loop, which reads what it writes); C reads every
    // third element of it.
    Tensor A = placeholder({30, 5}, DataType::float32(), "A");
    IterVar k = reduceAxis(Range(0, 5), "k");
    Tensor B = compute(
        {30},
        [&](const std::vector<Var>& v) {
            return sum(A({v[0], k->var}), k);
        },
        "B");
    Tensor C = compute(
        {4, 3}, [&](const std::vector<Var>& v) { return B({v[0] * 6 + v[1] * 3}); }, "C");
    Schedule s = createSchedule(C.op);
    s[B].computeAt(s[C], opOf(C)->axis[0]);
    EXPECT_EQ(allocated(lowerAndCheck(s, {A, C}, BoundRules::Tight).func, "B"), 7);
    LowerResult compact = lowerAndCheck(s, {A, C}, BoundRules::Compact);
    EXPECT_EQ(allocated(compact.func, "B"), 3) << toString(compact.func.final);
}

TEST(CompactStorage, ReductionProducerRunsOncePerBox) {
    REQUIRE_ISL();
    Tensor A = placeholder({10, 4}, DataType::float32(), "A");
    IterVar k = reduceAxis(Range(0, 4), "k");
    Tensor B = compute(
        {10},
        [&](const std::vector<Var>& v) {
            return sum(A({v[0], k->var}), k);
        },
        "B");
    Tensor C = compute(
        {2}, [&](const std::vector<Var>& v) { return B({v[0]}) - B({v[0] + 8}); }, "C");
    Schedule s = createSchedule(C.op);
    EXPECT_EQ(allocated(lowerAndCheck(s, {A, C}, BoundRules::Tight).func, "B"), 10);
    LowerResult compact = lowerAndCheck(s, {A, C}, BoundRules::Compact);
    EXPECT_EQ(allocated(compact.func, "B"), 4) << toString(compact.func.final);
}

TEST(CompactStorage, AProducerAxisSplitKeepsTheRectangleAndSaysWhy) {
    REQUIRE_ISL();
    StridedCache p;
    p.s[p.B].split(opOf(p.B)->axis[0], 8);
    LowerResult compact = lowerAndCheck(p.s, {p.A, p.C}, BoundRules::Compact);
    EXPECT_TRUE(compact.compactions.empty());
    EXPECT_EQ(allocated(compact.func, "B"), 97);
    const BoundStep* step = compactStep(compact, "B");
    ASSERT_NE(step, nullptr);
    EXPECT_EQ(step->rule, "kept");
    EXPECT_NE(step->text.find("keeps its rectangle: the producer writes axis 0 of B at"),
              std::string::npos)
        << step->text;
}

TEST(CompactStorage, AStorageAlignedBufferKeepsItsRectangle) {
    REQUIRE_ISL();
    // storage_align pads the rows of the rectangle; its attr sits outside the realize.
    Tensor A = placeholder({16, 16}, DataType::float32(), "A");
    Tensor B = compute(
        {16, 16},
        [&](const std::vector<Var>& v) {
            return A({v[0], v[1]}) + f32(1);
        },
        "B");
    Tensor C = compute(
        {8, 8},
        [&](const std::vector<Var>& v) {
            return B({v[0] * 2, v[1] * 2});
        },
        "C");
    Schedule s = createSchedule(C.op);
    s[B].storageAlign(opOf(B)->axis[0], 8, 1);
    LowerResult compact = lowerAndCheck(s, {A, C}, BoundRules::Compact);
    EXPECT_TRUE(compact.compactions.empty());
    const BoundStep* step = compactStep(compact, "B");
    ASSERT_NE(step, nullptr);
    EXPECT_NE(step->text.find("its stage has storage_align"), std::string::npos) << step->text;
    // Without it, both axes are lattices: 64 of 225.
    Schedule plain = createSchedule(C.op);
    LowerResult packed = lowerAndCheck(plain, {A, C}, BoundRules::Compact);
    ASSERT_EQ(packed.compactions.size(), 1u);
    EXPECT_EQ(allocated(packed.func, "B"), 64);
}

TEST(CompactStorage, DisjointBoxesAfterComputeAtKeepTheExtentOneAxis) {
    REQUIRE_ISL();
    // A review found: T computed at Out's rows has an extent-1 row axis whose loop lowering
    // removes; the boxes along the columns are still packed (3 + 3 of 12).
    Tensor A = placeholder({4, 16}, DataType::float32(), "A");
    Tensor T = compute(
        {4, 16},
        [&](const std::vector<Var>& v) {
            return A({v[0], v[1]}) + f32(1);
        },
        "T");
    Tensor Out = compute(
        {4, 3},
        [&](const std::vector<Var>& v) {
            return T({v[0], v[1] + 1}) + T({v[0], v[1] + 10});
        },
        "Out");
    Schedule s = createSchedule(Out.op);
    s[T].computeAt(s[Out], opOf(Out)->axis[0]);
    EXPECT_EQ(allocated(lowerAndCheck(s, {A, Out}, BoundRules::Tight).func, "T"), 12);
    LowerResult compact = lowerAndCheck(s, {A, Out}, BoundRules::Compact);
    EXPECT_EQ(allocated(compact.func, "T"), 6) << toString(compact.func.final);
}

TEST(CompactStorage, AReadThroughAnIntrinsicIsAReadLikeAnyOther) {
    REQUIRE_ISL();
    // if_then_else(i > 3, B[2i], 0): only address_of keeps the layout.
    Tensor A = placeholder({32}, DataType::float32(), "A");
    Tensor B = compute(
        {32}, [&](const std::vector<Var>& v) { return A({v[0]}) * f32(2); }, "B");
    Tensor D = compute(
        {16},
        [&](const std::vector<Var>& v) {
            return CallNode::make(DataType::float32(), "tvm_if_then_else",
                                  {v[0] > 3, B({v[0] * 2}), f32(0)}, CallKind::Intrinsic);
        },
        "D");
    Schedule s = createSchedule(D.op);
    LowerResult compact = lowerAndCheck(s, {A, D}, BoundRules::Compact);
    ASSERT_EQ(compact.compactions.size(), 1u) << toString(compact.func.final);
    EXPECT_EQ(allocated(compact.func, "B"), 16);
}

TEST(CompactStorage, TheStepGivesTheIndexMapAndTheAllocationFollowsIt) {
    REQUIRE_ISL();
    StridedCache p;
    LowerResult compact = lowerAndCheck(p.s, {p.A, p.C}, BoundRules::Compact);
    const BoundStep* step = compactStep(compact, "B");
    ASSERT_NE(step, nullptr);
    EXPECT_EQ(step->rule, "lattice");
    EXPECT_EQ(
        step->text,
        "Compact B: its consumers read B([threadIdx.x, 97]) only on a lattice (axis 0 every 32 "
        "from offset 0), 4 of its 97 elements. B stores those: B(x0) -> B((x0 - threadIdx.x)/32); "
        "the producer's loop i runs the lattice's points only.");
    ASSERT_EQ(step->outputs.size(), 1u);
    EXPECT_EQ(toString(*step->outputs[0].range), "range(min=0, ext=4)");
    EXPECT_EQ(compact.compactions[0].step, step->id);
    // The realize is the compaction's, and the allocation reads it.
    bool allocateFromCompact = false;
    for (const BoundStep& s : compact.bounds.steps.all())
        if (s.phase == StepPhase::Allocate && s.tensor.defined() && s.tensor.name() == "B")
            allocateFromCompact = s.from == std::vector<int>{step->id};
    EXPECT_TRUE(allocateFromCompact);
}

TEST(CompactStorage, ProgramsWithoutStridedOrDisjointReadsLowerAsUnderTight) {
    REQUIRE_ISL();
    // A 3x3 stencil over a computed input: its reads are dense.
    Tensor A = placeholder({12, 12}, DataType::float32(), "A");
    Tensor B = compute(
        {12, 12},
        [&](const std::vector<Var>& v) {
            return A({v[0], v[1]}) * f32(2);
        },
        "B");
    Tensor C = compute(
        {10, 10},
        [&](const std::vector<Var>& v) {
            Expr total = f32(0);
            for (int dy = 0; dy < 3; ++dy)
                for (int dx = 0; dx < 3; ++dx)
                    total = total + B({v[0] + dy, v[1] + dx});
            return total;
        },
        "C");
    Schedule s = createSchedule(C.op);
    s[B].computeAt(s[C], opOf(C)->axis[0]);
    LowerResult tight = lowerAndCheck(s, {A, C}, BoundRules::Tight);
    LowerResult compact = lowerAndCheck(s, {A, C}, BoundRules::Compact);
    EXPECT_TRUE(compact.compactions.empty());
    EXPECT_EQ(toString(compact.func.final), toString(tight.func.final));
    EXPECT_EQ(compactStep(compact, "B"), nullptr);
}

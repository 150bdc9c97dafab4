// Lowering under the tight rules (schedule/InferBoundTight.h): split remainders become loop
// extents without bound checks, realizes get their static rectangles, and listings of the seed's
// examples do not change.
#include "ir/Op.h"
#include "ir/Printer.h"
#include "lower/Lower.h"
#include "schedule/InferBoundTight.h"
#include "te/Compute.h"
#include "te/Reduce.h"

#include <gtest/gtest.h>

using namespace bs;

namespace {

#define REQUIRE_ISL()                                                                              \
    if (!hasIsl())                                                                                 \
    GTEST_SKIP() << "built without ISL"

Expr f32(double v) { return makeConst(DataType::float32(), v); }
const ComputeOpNode* opOf(const Tensor& t) { return t.op.as<ComputeOpNode>(); }

std::string lowered(const Schedule& s, const std::vector<Tensor>& args, LowerPass pass,
                    BoundRules rules = BoundRules::Tight) {
    LowerOptions options;
    options.rules = rules;
    return toString(lower(s, args, options).func.after(pass));
}

std::string allocateLine(const std::string& listing) {
    auto pos = listing.find("allocate ");
    return pos == std::string::npos ? "" : listing.substr(pos, listing.find('\n', pos) - pos);
}

} // namespace

TEST(ScheduleOpsTight, SplitRemainderRunsTheRemainderWithoutBoundChecks) {
    REQUIRE_ISL();
    Tensor A = placeholder({20}, DataType::float32(), "A");
    Tensor B = compute(
        {20}, [&](const std::vector<Var>& v) { return A({v[0]}) * f32(2); }, "B");
    Tensor C = compute(
        {20}, [&](const std::vector<Var>& v) { return B({v[0]}) + f32(1); }, "C");
    Schedule s = createSchedule(C.op);
    auto [xo, xi] = s[C].split(opOf(C)->axis[0], 16);
    s[B].computeAt(s[C], xo);
    EXPECT_EQ(lowered(s, {A, C}, LowerPass::Simplify), R"(produce C {
  for (i.outer, 0, 2) {
    // attr [B] storage_scope = "global"
    allocate B[float32 * 16]
    produce B {
      for (i, 0, min(16, (20 - (i.outer*16)))) {
        B[i] = (A[((i.outer*16) + i)]*2.000000f)
      }
    }
    for (i.inner, 0, min(16, (20 - (i.outer*16)))) {
      C[((i.outer*16) + i.inner)] = (B[i.inner] + 1.000000f)
    }
  }
}
)");
    EXPECT_NE(lowered(s, {A, C}, LowerPass::Simplify, BoundRules::Tvm).find("likely"),
              std::string::npos);
}

TEST(ScheduleOpsTight, ReductionInitAndUpdateRunTheRemainder) {
    REQUIRE_ISL();
    Tensor A = placeholder({20, 8}, DataType::float32(), "A");
    IterVar k = reduceAxis(Range(0, 8), "k");
    Tensor B = compute(
        {20},
        [&](const std::vector<Var>& v) {
            return sum(A({v[0], k->var}), {k});
        },
        "B");
    Schedule s = createSchedule(B.op);
    auto [xo, xi] = s[B].split(opOf(B)->axis[0], 16);
    s[B].reorder({xo, k, xi}); // the init nest then has a loop of its own over i.inner
    std::string ir = lowered(s, {A, B}, LowerPass::ScheduleOps);
    EXPECT_EQ(ir.find("likely"), std::string::npos) << ir;
    EXPECT_NE(ir.find("for (i.inner.init, 0, min(16, (20 - (i.outer*16))))"), std::string::npos)
        << ir;
    EXPECT_NE(ir.find("for (i.inner, 0, min(16, (20 - (i.outer*16))))"), std::string::npos) << ir;
}

TEST(ScheduleOpsTight, FuseExamplesAllocateTheirStaticRectangles) {
    REQUIRE_ISL();
    for (auto [nparts, n, expected] : {std::tuple{true, 512, "allocate B[int32 * 8]"},
                                       std::tuple{false, 48, "allocate B[int32 * 128]"}}) {
        Tensor B = compute({64, 64}, [](const std::vector<Var>& v) { return v[0] + v[1]; }, "B", "",
                           {"i", "j"});
        Tensor C = compute({64, 64},
                           [&](const std::vector<Var>& v) {
                               return B({v[0], v[1]});
                           },
                           "C", "", {"i", "j"});
        Schedule s = createSchedule(C.op);
        IterVar fused = s[C].fuse(opOf(C)->axis[0], opOf(C)->axis[1]);
        auto parts = nparts ? s[C].splitByNParts(fused, n) : s[C].split(fused, n);
        s[B].computeAt(s[C], parts.first);
        std::string ir = lowered(s, {C}, LowerPass::Simplify);
        EXPECT_EQ(allocateLine(ir), expected) << ir;
        EXPECT_EQ(ir.find("likely"), std::string::npos) << ir;
    }
}

TEST(ScheduleOpsTight, SeedListingsDoNotChange) {
    REQUIRE_ISL();
    for (bool shared : {true, false}) {
        Tensor A = placeholder({200, 400}, DataType::float32(), "A");
        Tensor B = compute({200, 400},
                           [&](const std::vector<Var>& v) {
                               return f32(3.14) * A({v[0], v[1]});
                           },
                           "B", "", {"i", "j"});
        Tensor C = compute({100, 200},
                           [&](const std::vector<Var>& v) {
                               return f32(2.72) * B({v[0], v[1]});
                           },
                           "C", "", {"i", "j"});
        Schedule s = createSchedule(C.op);
        IterVar threadX = threadAxis("threadIdx.x");
        s[C].bind(opOf(C)->axis[0], threadAxis("blockIdx.x"));
        s[C].bind(opOf(C)->axis[1], threadX);
        if (shared)
            s[B].setScope("shared");
        s[B].computeAt(s[C], opOf(C)->axis[0]);
        s[B].bind(opOf(B)->axis[1], threadX);
        std::string tight = lowered(s, {A, C}, LowerPass::ScheduleOps);
        EXPECT_EQ(tight, lowered(s, {A, C}, LowerPass::ScheduleOps, BoundRules::Tvm));
        EXPECT_NE(tight.find("realize B([blockIdx.x, 1], [0, 200])"), std::string::npos) << tight;
    }
}

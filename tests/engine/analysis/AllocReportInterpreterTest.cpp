// The tight rules' programs run in the reference interpreter: every access stays inside its
// static realize region (the interpreter throws on any other), the outputs equal those of the
// tvm rules, and without bound checks no element is stored twice. This is what makes the
// report's tight column trustworthy.
#include "analysis/AllocReport.h"
#include "ir/Op.h"
#include "lower/Lower.h"
#include "runtime/Interpreter.h"
#include "schedule/InferBoundTight.h"
#include "te/Compute.h"
#include "te/Reduce.h"

#include <gtest/gtest.h>

using namespace bs;

namespace {

Expr f32(double v) { return makeConst(DataType::float32(), v); }
const ComputeOpNode* opOf(const Tensor& t) { return t.op.as<ComputeOpNode>(); }

struct Outcome {
    std::vector<Buffer> buffers;
    int64_t stores = 0;
};

/// Lowers under `rules`, runs on pseudo-random inputs (symbolic shapes bound by `scalars`).
Outcome run(const Schedule& s, const std::vector<Tensor>& args, BoundRules rules,
            const std::vector<std::pair<Var, int64_t>>& scalars = {}) {
    LowerOptions options;
    options.rules = rules;
    LowerResult lowered = lower(s, args, options);
    Outcome out;
    for (size_t i = 0; i < args.size(); ++i) {
        std::vector<int64_t> shape;
        for (const Expr& e : args[i].shape()) {
            int64_t extent = 0;
            if (auto c = asConstInt(e))
                extent = *c;
            for (const auto& [v, value] : scalars)
                if (e.same_as(v))
                    extent = value;
            shape.push_back(extent);
        }
        out.buffers.emplace_back(args[i].name(), args[i].dtype(), shape);
        out.buffers.back().fillRandom(i + 7);
    }
    Interpreter interpreter;
    for (size_t i = 0; i < args.size(); ++i)
        interpreter.bindBuffer(lowered.func.argBuffers[i], out.buffers[i]);
    for (const auto& [v, value] : scalars)
        interpreter.bindScalar(v, value);
    out.stores = interpreter.run(lowered.func.final).stores;
    return out;
}

/// Tight and tvm agree on every output; returns (tvm stores, tight stores).
std::pair<int64_t, int64_t> compare(const Schedule& s, const std::vector<Tensor>& args,
                                    const std::vector<std::pair<Var, int64_t>>& scalars = {}) {
    Outcome tvm = run(s, args, BoundRules::Tvm, scalars);
    Outcome tight = run(s, args, BoundRules::Tight, scalars);
    for (size_t i = 0; i < args.size(); ++i) {
        std::string mismatch;
        EXPECT_TRUE(Buffer::allClose(tight.buffers[i], tvm.buffers[i], 1e-5, 1e-6, &mismatch))
            << args[i].name() << ": " << mismatch;
    }
    return {tvm.stores, tight.stores};
}

} // namespace

TEST(TightRulesRun, SplitRemaindersComputeLessAndTheSame) {
    if (!hasIsl())
        GTEST_SKIP() << "built without ISL";
    Tensor A = placeholder({20, 7}, DataType::float32(), "A");
    Tensor B = compute(
        {20, 7},
        [&](const std::vector<Var>& v) {
            return A({v[0], v[1]}) * f32(2);
        },
        "B");
    Tensor C = compute(
        {20, 7},
        [&](const std::vector<Var>& v) {
            return B({v[0], v[1]}) + f32(1);
        },
        "C");
    Schedule s = createSchedule(C.op);
    auto [xo, xi] = s[C].split(opOf(C)->axis[0], 16);
    auto [yo, yi] = s[C].split(opOf(C)->axis[1], 3);
    s[C].reorder({xo, yo, xi, yi});
    s[B].computeAt(s[C], yo);
    auto [tvm, tight] = compare(s, {A, C});
    // Without a single bound check, exactly one store per element of B and of C; TVM's checks
    // skip the same stores at the cost of the extra iterations.
    EXPECT_EQ(tight, 2 * 20 * 7);
    EXPECT_EQ(tvm, tight);
}

TEST(TightRulesRun, UnalignedFuseStaysInsideItsStaticRealize) {
    if (!hasIsl())
        GTEST_SKIP() << "built without ISL";
    Tensor A = placeholder({64, 64}, DataType::float32(), "A");
    Tensor B = compute(
        {64, 64},
        [&](const std::vector<Var>& v) {
            return A({v[0], v[1]}) + f32(1);
        },
        "B");
    Tensor C = compute(
        {64, 64},
        [&](const std::vector<Var>& v) {
            return B({v[0], v[1]}) * f32(3);
        },
        "C");
    Schedule s = createSchedule(C.op);
    IterVar fused = s[C].fuse(opOf(C)->axis[0], opOf(C)->axis[1]);
    auto [outer, inner] = s[C].split(fused, 48);
    s[B].computeAt(s[C], outer);
    compare(s, {A, C});
}

TEST(TightRulesRun, StencilWithReductionAndNestedSplits) {
    if (!hasIsl())
        GTEST_SKIP() << "built without ISL";
    Tensor A = placeholder({30}, DataType::float32(), "A");
    Tensor B = compute(
        {30}, [&](const std::vector<Var>& v) { return A({v[0]}) * f32(2); }, "B");
    IterVar k = reduceAxis(Range(0, 3), "k");
    Tensor C = compute(
        {28}, [&](const std::vector<Var>& v) { return sum(B({v[0] + k->var}), {k}); }, "C");
    Schedule s = createSchedule(C.op);
    auto [xo, xi] = s[C].split(opOf(C)->axis[0], 12);
    auto [xio, xii] = s[C].split(xi, 5);
    s[B].computeAt(s[C], xio);
    auto [tvm, tight] = compare(s, {A, C});
    EXPECT_LT(tight, tvm);
}

TEST(TightRulesRun, SymbolicShapeRunsItsRemainder) {
    if (!hasIsl())
        GTEST_SKIP() << "built without ISL";
    Var n = var("n");
    Tensor A = placeholder({n}, DataType::float32(), "A");
    Tensor B = compute(
        {n}, [&](const std::vector<Var>& v) { return A({v[0]}) * f32(2); }, "B");
    Tensor C = compute(
        {n}, [&](const std::vector<Var>& v) { return B({v[0]}) + f32(1); }, "C");
    Schedule s = createSchedule(C.op);
    auto [xo, xi] = s[C].split(opOf(C)->axis[0], 8);
    s[B].computeAt(s[C], xo);
    auto [tvm, tight] = compare(s, {A, C}, {{n, 21}});
    EXPECT_EQ(tight, 42);
    EXPECT_EQ(tvm, 42);
}

TEST(TightRulesRun, ThreadBoundSplitsKeepTheirChecks) {
    if (!hasIsl())
        GTEST_SKIP() << "built without ISL";
    Tensor A = placeholder({100}, DataType::float32(), "A");
    Tensor B = compute(
        {100}, [&](const std::vector<Var>& v) { return A({v[0]}) * f32(2); }, "B");
    Tensor C = compute(
        {100}, [&](const std::vector<Var>& v) { return B({v[0]}) + f32(1); }, "C");
    Schedule s = createSchedule(C.op);
    auto [bx, tx] = s[C].split(opOf(C)->axis[0], 32);
    s[C].bind(bx, threadAxis("blockIdx.x"));
    s[C].bind(tx, threadAxis("threadIdx.x"));
    s[B].computeAt(s[C], bx);
    s[B].setScope("shared");
    auto [bo, bi] = s[B].split(opOf(B)->axis[0], 32);
    s[B].bind(bi, threadAxis("threadIdx.x"));
    compare(s, {A, C});
}

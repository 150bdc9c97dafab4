// Reductions with an init value (TVM's `te.sum(..., init=...)`, tests/python/unittest/
// test_reduction.py: test_init_imm, test_init, test_rfactor_init): the reduction's init
// statement stores the init instead of the reducer's identity, in the plain schedule, after
// rfactor (the rf stage starts from the identity, the repl stage from the init) and with a
// `where` condition (the init is stored unconditionally); lowered and run in the interpreter
// against a reference computed here.
#include "DiffTestUtil.h"

#include "ir/Op.h"
#include "ir/Printer.h"
#include "support/Diagnostic.h"
#include "te/Compute.h"
#include "te/Reduce.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace bs;
using namespace bs::test;

namespace {

constexpr int kRows = 6;
constexpr int kCols = 10;

/// B[i] = I[i] + sum_k A[i, k] (where k < limit), as TVM's test_init.
struct RowSumWithInit {
    Tensor A = placeholder({kRows, kCols}, DataType::float32(), "A");
    Tensor I = placeholder({kRows}, DataType::float32(), "I");
    IterVar k = reduceAxis(Range(0, kCols), "k");
    Tensor B;

    explicit RowSumWithInit(int limit = kCols) {
        B = compute(
            {kRows},
            [&](const std::vector<Var>& v) {
                Expr where = limit < kCols ? Expr(k->var) < Expr(limit) : Expr();
                return sum(A({v[0], k}), {k}, where, I({v[0]}));
            },
            "B");
    }

    /// The expected B for the inputs `in` (A, I, B).
    static Buffer expected(const std::vector<Buffer>& in, int limit) {
        Buffer out = in[2];
        for (int64_t i = 0; i < kRows; ++i) {
            double acc = in[1].at({i});
            for (int64_t c = 0; c < limit; ++c)
                acc += in[0].at({i, c});
            out.set({i}, acc);
        }
        return out;
    }
};

void expectRunMatches(const Schedule& s, const RowSumWithInit& p, int limit) {
    std::vector<Tensor> args{p.A, p.I, p.B};
    std::vector<Buffer> inputs = randomArguments(args, {}, 11);
    std::vector<Buffer> out = lowerAndRun(s, args, {}, inputs);
    std::string mismatch;
    EXPECT_TRUE(Buffer::allClose(out.back(), RowSumWithInit::expected(inputs, limit), 1e-5, 1e-5,
                                 &mismatch))
        << mismatch;
}

} // namespace

TEST(ReduceInit, InitIsCarriedAndPrinted) {
    RowSumWithInit p;
    const auto* r = p.B.op.as<ComputeOpNode>()->body[0].as<ReduceNode>();
    ASSERT_NE(r, nullptr);
    ASSERT_EQ(r->init.size(), 1u);
    EXPECT_EQ(toString(r->init[0]), "I(i)");
    EXPECT_NE(toString(p.B.op.as<ComputeOpNode>()->body[0]).find("init=[I(i)]"), std::string::npos);
    // The init's tensor is an input of the compute, so InferBound and the lowering see it.
    bool readsI = false;
    for (const Tensor& t : p.B.op->inputTensors())
        readsI = readsI || t.same_as(p.I);
    EXPECT_TRUE(readsI);
}

TEST(ReduceInit, InitStatementStoresTheInit) {
    RowSumWithInit p;
    expectRunMatches(createSchedule(p.B.op), p, kCols);
}

TEST(ReduceInit, ConditionGuardsOnlyTheUpdate) {
    RowSumWithInit p(4);
    expectRunMatches(createSchedule(p.B.op), p, 4);
}

TEST(ReduceInit, RFactorStartsTheRepliedReductionFromTheInit) {
    RowSumWithInit p;
    Schedule s = createSchedule(p.B.op);
    IterVar outer = s[p.B].splitByNParts(p.k, 4).first;
    std::vector<Tensor> rf = s.rfactor(p.B, outer, 1);
    ASSERT_EQ(rf.size(), 1u);
    EXPECT_TRUE(rf[0].op.as<ComputeOpNode>()->body[0].as<ReduceNode>()->init.empty());
    expectRunMatches(s, p, kCols);
}

TEST(ReduceInit, ConstantInitOfMax) {
    Tensor A = placeholder({kRows, kCols}, DataType::float32(), "A");
    IterVar k = reduceAxis(Range(0, kCols), "k");
    Tensor B = compute(
        {kRows},
        [&](const std::vector<Var>& v) {
            return max(A({v[0], k}), {k}, Expr(), makeConst(DataType::float32(), 2.0));
        },
        "B");
    std::vector<Tensor> args{A, B};
    std::vector<Buffer> inputs = randomArguments(args, {}, 3);
    Buffer out = lowerAndRun(createSchedule(B.op), args, {}, inputs).back();
    for (int64_t i = 0; i < kRows; ++i) {
        double m = 2.0;
        for (int64_t c = 0; c < kCols; ++c)
            m = std::max(m, inputs[0].at({i, c}));
        EXPECT_DOUBLE_EQ(out.at({i}), m);
    }
}

TEST(ReduceInit, BadInitsAreRejected) {
    Tensor A = placeholder({kRows, kCols}, DataType::float32(), "A");
    IterVar k = reduceAxis(Range(0, kCols), "k");
    Expr source = A({Expr(0), k});
    EXPECT_THROW(sum(source, {k}, Expr(), IntImmNode::make(DataType::int32(), 1)), UserError);
    EXPECT_THROW(sum(source, {k}, Expr(), source + Expr(1.0f)), UserError);
}

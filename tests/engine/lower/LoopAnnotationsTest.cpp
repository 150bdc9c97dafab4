#include "LowerTestUtil.h"

#include "ir/Op.h"
#include "ir/Printer.h"
#include "lower/LoopAnnotations.h"

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::test;

namespace {

Var buffer(const std::string& name) { return Var(name, DataType::handle()); }

Expr load(const Var& buf, const Expr& index, DataType type = DataType::float32()) {
    return LoadNode::make(type, buf, index);
}

/// Runs both programs on the same input buffer `a` (values k % 13 - 6) and compares `out`.
void expectSameResults(const Stmt& before, const Stmt& after, const Var& a, const Var& out,
                       size_t size) {
    std::vector<double> results[2];
    const Stmt* programs[2] = {&before, &after};
    for (int k = 0; k < 2; ++k) {
        MiniInterpreter interp;
        std::vector<double> input(size);
        for (size_t e = 0; e < size; ++e)
            input[e] = double(e % 13) - 6.0;
        interp.setBuffer(a, input);
        interp.setBuffer(out, std::vector<double>(size, 0.0));
        interp.run(*programs[k]);
        results[k] = interp.buffer(out);
    }
    EXPECT_EQ(results[0], results[1]) << "before:\n"
                                      << toString(before) << "after:\n"
                                      << toString(after);
}

} // namespace

// ---------------------------------------------------------------------------------------------
// unrollLoops

TEST(UnrollLoops, ReplacesLoopByBodyCopies) {
    // Substitution does not fold (as in TVM, the Simplify pass after it does).
    Var k("k"), a = buffer("A");
    Stmt s = ForNode::make(k, 0, 3, ForKind::Unrolled, StoreNode::make(a, k * 2, k));
    EXPECT_EQ(toString(unrollLoops(s)), R"(A[0] = (0*2)
A[1] = (1*2)
A[2] = (2*2)
)");
}

TEST(UnrollLoops, SubstitutesMinPlusIterationAndKeepsInnerLoops) {
    Var i("i"), k("k"), n("n"), a = buffer("A");
    Stmt inner = ForNode::make(i, 0, n, ForKind::Serial, StoreNode::make(a, i, k * n + i));
    Stmt s = ForNode::make(k, n, 2, ForKind::Unrolled, inner);
    EXPECT_EQ(toString(unrollLoops(s)), R"(for (i, 0, n) {
  A[((n*n) + i)] = i
}
for (i, 0, n) {
  A[(((n + 1)*n) + i)] = i
}
)");
}

TEST(UnrollLoops, UnrollsNestedLoopsAndLeavesOthers) {
    Var i("i"), j("j"), k("k"), a = buffer("A");
    Stmt inner = ForNode::make(j, 0, 2, ForKind::Unrolled, StoreNode::make(a, i + j, i * 2 + j));
    Stmt s = ForNode::make(i, 0, 4, ForKind::Parallel, inner);
    EXPECT_EQ(toString(unrollLoops(s)), R"(parallel (i, 0, 4) {
  A[((i*2) + 0)] = (i + 0)
  A[((i*2) + 1)] = (i + 1)
}
)");
    Stmt serial = ForNode::make(k, 0, 4, ForKind::Serial, StoreNode::make(a, k, k));
    EXPECT_TRUE(unrollLoops(serial).same_as(serial));
}

TEST(UnrollLoops, ZeroExtentBecomesNoOp) {
    Var k("k"), a = buffer("A");
    EXPECT_EQ(
        toString(unrollLoops(ForNode::make(k, 0, 0, ForKind::Unrolled, StoreNode::make(a, k, k)))),
        "0\n");
}

TEST(UnrollLoops, NonConstantExtentIsAUserError) {
    Var k("k"), n("n"), a = buffer("A");
    Stmt s = ForNode::make(k, 0, n, ForKind::Unrolled, StoreNode::make(a, k, k));
    try {
        unrollLoops(s);
        FAIL() << "expected a UserError";
    } catch (const UserError& e) {
        EXPECT_EQ(std::string(e.what()), "unroll of loop 'k': extent must be a constant, got n");
    }
}

TEST(UnrollLoops, KeepsValues) {
    Var i("i"), j("j"), a = buffer("A"), c = buffer("C");
    Stmt body =
        StoreNode::make(c, load(a, i * 4 + j) * 2.0f + cast(DataType::float32(), j), i * 4 + j);
    Stmt s =
        ForNode::make(i, 0, 4, ForKind::Serial, ForNode::make(j, 0, 4, ForKind::Unrolled, body));
    expectSameResults(s, unrollLoops(s), a, c, 16);
}

// ---------------------------------------------------------------------------------------------
// vectorizeLoops

TEST(VectorizeLoops, ContiguousAccessesBecomeRamps) {
    Var i("i"), j("j"), a = buffer("A"), c = buffer("C");
    Expr idx = i * 4 + j;
    Stmt body = StoreNode::make(c, load(a, idx) + 1.0f, idx);
    Stmt s =
        ForNode::make(i, 0, 4, ForKind::Serial, ForNode::make(j, 0, 4, ForKind::Vectorized, body));
    Stmt out = vectorizeLoops(s);
    EXPECT_EQ(toString(out), R"(for (i, 0, 4) {
  C[ramp((i*4), 1, 4)] = (A[ramp((i*4), 1, 4)] + x4(1.000000f))
}
)");
    expectSameResults(s, out, a, c, 16);
}

TEST(VectorizeLoops, StridedAndScalarOperandsAreHandled) {
    Var j("j"), a = buffer("A"), c = buffer("C");
    Stmt body = StoreNode::make(c, load(a, j * 2 + 1) * load(a, 0), j + 4);
    Stmt out = vectorizeLoops(ForNode::make(j, 2, 4, ForKind::Vectorized, body));
    EXPECT_EQ(toString(out), "C[ramp(6, 1, 4)] = (A[ramp(5, 2, 4)]*x4(A[0]))\n");
}

TEST(VectorizeLoops, InnerLoopWithInvariantExtentKeepsVectorBody) {
    // C[j] += A[j*8 + k]: the reduction loop over k stays, its body works on 4 lanes.
    Var j("j"), k("k"), a = buffer("A"), c = buffer("C");
    Stmt update = StoreNode::make(c, load(c, j) + load(a, j * 8 + k), j);
    Stmt s = ForNode::make(j, 0, 4, ForKind::Vectorized,
                           ForNode::make(k, 0, 8, ForKind::Serial, update));
    Stmt out = vectorizeLoops(s);
    EXPECT_EQ(toString(out), R"(for (k, 0, 8) {
  C[ramp(0, 1, 4)] = (C[ramp(0, 1, 4)] + A[ramp(k, 8, 4)])
}
)");
    expectSameResults(s, out, a, c, 32);
}

TEST(VectorizeLoops, LaneDependentIfFallsBackToSerialLoop) {
    // The if on the lane becomes `for (j.s, 0, 4)`; the store before it stays vectorized.
    Var j("j"), a = buffer("A"), c = buffer("C");
    Stmt first = StoreNode::make(c, load(a, j), j);
    Stmt branch = IfThenElseNode::make(j < 2, StoreNode::make(c, load(a, j) * 2.0f, j));
    Stmt s = ForNode::make(j, 0, 4, ForKind::Vectorized, SeqNode::make({first, branch}));
    Stmt out = vectorizeLoops(s);
    EXPECT_EQ(toString(out), R"(C[ramp(0, 1, 4)] = A[ramp(0, 1, 4)]
for (j.s, 0, 4) {
  if ((j.s < 2)) {
    C[j.s] = (A[j.s]*2.000000f)
  }
}
)");
    expectSameResults(s, out, a, c, 8);
}

TEST(VectorizeLoops, LaneInvariantIfStaysAnIf) {
    Var j("j"), n("n"), a = buffer("A"), c = buffer("C");
    Stmt s = ForNode::make(j, 0, 4, ForKind::Vectorized,
                           IfThenElseNode::make(n > 2, StoreNode::make(c, load(a, j), j)));
    EXPECT_EQ(toString(vectorizeLoops(s)), R"(if ((n > 2)) {
  C[ramp(0, 1, 4)] = A[ramp(0, 1, 4)]
}
)");
}

TEST(VectorizeLoops, LaneDependentInnerExtentFallsBack) {
    Var j("j"), k("k"), a = buffer("A"), c = buffer("C");
    Stmt s =
        ForNode::make(j, 0, 4, ForKind::Vectorized,
                      ForNode::make(k, 0, j, ForKind::Serial, StoreNode::make(c, load(a, k), j)));
    EXPECT_EQ(toString(vectorizeLoops(s)), R"(for (j.s, 0, 4) {
  for (k, 0, j.s) {
    C[j.s] = A[k]
  }
}
)");
}

TEST(VectorizeLoops, VectorValueToOneAddressFallsBack) {
    // Every lane would write C[0]: keep the serial order instead of a racy vector store.
    Var j("j"), a = buffer("A"), c = buffer("C");
    Stmt s =
        ForNode::make(j, 0, 4, ForKind::Vectorized, StoreNode::make(c, load(c, 0) + load(a, j), 0));
    Stmt out = vectorizeLoops(s);
    EXPECT_EQ(toString(out), R"(for (j.s, 0, 4) {
  C[0] = (C[0] + A[j.s])
}
)");
    expectSameResults(s, out, a, c, 4);
}

TEST(VectorizeLoops, LetBecomesVectorLet) {
    Var j("j"), t("t"), a = buffer("A"), c = buffer("C");
    Stmt s = ForNode::make(j, 0, 4, ForKind::Vectorized,
                           LetStmtNode::make(t, j * 2, StoreNode::make(c, load(a, t), j)));
    Stmt out = vectorizeLoops(s);
    EXPECT_EQ(toString(out), R"(let t = ramp(0, 2, 4)
C[ramp(0, 1, 4)] = A[t]
)");
    expectSameResults(s, out, a, c, 8);
}

TEST(VectorizeLoops, VectorLetWhoseBodyFallsBackFallsBackWhole) {
    // The serial loop would need the scalar t, so the let goes into it too.
    Var j("j"), t("t"), a = buffer("A"), c = buffer("C");
    Stmt body = IfThenElseNode::make(t < 3, StoreNode::make(c, load(a, t), j));
    Stmt s = ForNode::make(j, 0, 4, ForKind::Vectorized, LetStmtNode::make(t, j * 2, body));
    Stmt out = vectorizeLoops(s);
    EXPECT_EQ(toString(out), R"(for (j.s, 0, 4) {
  let t = (j.s*2)
  if ((t < 3)) {
    C[j.s] = A[t]
  }
}
)");
    expectSameResults(s, out, a, c, 8);
}

TEST(VectorizeLoops, ImpureCallOnLaneFallsBack) {
    Var j("j"), c = buffer("C");
    Expr call = CallNode::make(DataType::float32(), "rand_at", {j}, CallKind::Extern);
    Stmt s = ForNode::make(j, 0, 4, ForKind::Vectorized, StoreNode::make(c, call, j));
    EXPECT_EQ(toString(vectorizeLoops(s)), R"(for (j.s, 0, 4) {
  C[j.s] = rand_at(j.s)
}
)");
}

TEST(VectorizeLoops, InnerVectorizedLoopGoesFirst) {
    // The inner loop becomes vectors; the outer one then meets vectors it cannot widen and
    // runs serially.
    Var i("i"), j("j"), a = buffer("A"), c = buffer("C");
    Stmt body = StoreNode::make(c, load(a, i * 4 + j), i * 4 + j);
    Stmt s = ForNode::make(i, 0, 2, ForKind::Vectorized,
                           ForNode::make(j, 0, 4, ForKind::Vectorized, body));
    Stmt out = vectorizeLoops(s);
    EXPECT_EQ(toString(out), R"(for (i.s, 0, 2) {
  C[ramp((i.s*4), 1, 4)] = A[ramp((i.s*4), 1, 4)]
}
)");
    expectSameResults(s, out, a, c, 8);
}

TEST(VectorizeLoops, LaneDependentRealizeFallsBack) {
    Var j("j");
    Tensor t = makeTensor("T", {8}, DataType::int32());
    Stmt realize =
        ProducerRealizeNode::make(t, {Range(j, 1)}, Expr(), ProducerStoreNode::make(t, j, {j}));
    Stmt out = vectorizeLoops(ForNode::make(j, 0, 4, ForKind::Vectorized, realize));
    EXPECT_EQ(toString(out), R"(for (j.s, 0, 4) {
  realize T([j.s, 1]) {
    T(j.s) =j.s
  }
}
)");
}

TEST(VectorizeLoops, SelectCastAndMathCallsWorkLaneByLane) {
    Var j("j"), a = buffer("A"), c = buffer("C");
    Expr x = load(a, j);
    Expr value = select(j < 2, mathCall("sqrt", {x * x}), cast(DataType::float32(), j));
    Stmt s = ForNode::make(j, 0, 4, ForKind::Vectorized, StoreNode::make(c, value, j));
    Stmt out = vectorizeLoops(s);
    EXPECT_EQ(toString(out), "C[ramp(0, 1, 4)] = select((ramp(0, 1, 4) < x4(2)), sqrt((A[ramp(0, "
                             "1, 4)]*A[ramp(0, 1, 4)])), "
                             "float32x4(ramp(0, 1, 4)))\n");
    expectSameResults(s, out, a, c, 4);
}

TEST(VectorizeLoops, ExtentOneSubstitutesTheMin) {
    Var j("j"), a = buffer("A");
    EXPECT_EQ(toString(vectorizeLoops(
                  ForNode::make(j, 3, 1, ForKind::Vectorized, StoreNode::make(a, j, j)))),
              "A[3] = 3\n");
}

TEST(VectorizeLoops, NonConstantExtentIsAUserError) {
    Var j("j"), n("n"), a = buffer("A");
    Stmt s = ForNode::make(j, 0, n, ForKind::Vectorized, StoreNode::make(a, j, j));
    EXPECT_THROW(vectorizeLoops(s), UserError);
}

TEST(VectorizeLoops, ParallelLoopsAreKept) {
    Var i("i"), j("j"), a = buffer("A"), c = buffer("C");
    Stmt body = StoreNode::make(c, load(a, i * 4 + j), i * 4 + j);
    Stmt s = ForNode::make(i, 0, 8, ForKind::Parallel,
                           ForNode::make(j, 0, 4, ForKind::Vectorized, body));
    EXPECT_EQ(toString(vectorizeLoops(s)), R"(parallel (i, 0, 8) {
  C[ramp((i*4), 1, 4)] = A[ramp((i*4), 1, 4)]
}
)");
    Stmt plain = ForNode::make(i, 0, 8, ForKind::Parallel, StoreNode::make(c, load(a, i), i));
    EXPECT_TRUE(vectorizeLoops(plain).same_as(plain));
}

/// Unflattened IR (ScheduleOps output): realize regions are flat allocations indexed relative
/// to their mins, tensors bound by the caller are indexed over their shape, and N-d accesses are
/// checked per dimension.
#include "RuntimeTestUtil.h"

#include "runtime/Interpreter.h"

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::test;

namespace {

Stmt produce(const Tensor& t, Stmt body) {
    return ProducerConsumerNode::make(t.op, true, std::move(body));
}

std::string errorOf(Interpreter& interp, const Stmt& body) {
    try {
        interp.run(body);
    } catch (const UserError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST(InterpreterProducer, RunsSeedExample6AsScheduleOpsPrintsIt) {
    // Seed 002, Ex. 6: B realized per block as B([blockIdx.x, 1], [0, 200]) in shared memory.
    Tensor a = makeTensor("A", {200, 400}), b = makeTensor("B", {200, 400}),
           c = makeTensor("C", {100, 200});
    IterVar bx = threadAxis("blockIdx.x"), tx = threadAxis("threadIdx.x");
    Expr i = bx->var, j = tx->var;
    Stmt storeB = ProducerStoreNode::make(b, Expr(3.14f) * a({i, j}), {i, j});
    Stmt storeC = ProducerStoreNode::make(c, Expr(2.72f) * b({i, j}), {i, j});
    Stmt body = seq({produce(b, threadExtent(tx, 200, storeB)), threadExtent(tx, 200, storeC)});
    Stmt realizeB = ProducerRealizeNode::make(b, {Range(i, 1), Range(0, 200)}, Expr(), body);
    Stmt blocks = threadExtent(
        bx, 100,
        AttrStmtNode::make(b.op, attr::kRealizeScope, StringImmNode::make("shared"), realizeB));
    Stmt program =
        ProducerRealizeNode::make(c, {Range(0, 100), Range(0, 200)}, Expr(), produce(c, blocks));

    Buffer bufA("A", DataType::float32(), {200, 400}), bufC("C", DataType::float32(), {100, 200});
    bufA.fillRandom(11);
    InterpreterOptions options;
    options.traceAccesses = true;
    Interpreter interp(options);
    interp.bindTensor(a, bufA);
    interp.bindTensor(c, bufC);
    RunResult result = interp.run(program);
    for (int64_t r = 0; r < 100; ++r) {
        for (int64_t s = 0; s < 200; ++s) {
            float expected = 2.72f * (3.14f * float(bufA.at({r, s})));
            ASSERT_EQ(bufC.at({r, s}), double(expected)) << r << "," << s;
        }
    }
    const BufferTrace* tb = result.find(b);
    ASSERT_NE(tb, nullptr);
    EXPECT_EQ(tb->scope, "shared");
    EXPECT_EQ(tb->allocatedElements, 200);
    EXPECT_EQ(tb->shape, (std::vector<int64_t>{1, 200}));
    EXPECT_EQ(tb->entries, 100);
    EXPECT_EQ(tb->peakTouched, 200);
    const BufferTrace* ta = result.find(a);
    ASSERT_NE(ta, nullptr);
    EXPECT_EQ(ta->shape, (std::vector<int64_t>{200, 400}));
    EXPECT_EQ(ta->readElements(), 100 * 200); // only the top-left 100x200 of A is read
    EXPECT_TRUE(ta->wasRead(1 * 400 + 5));
    EXPECT_FALSE(ta->wasRead(1 * 400 + 300));
}

TEST(InterpreterProducer, RealizeRegionIsIndexedFromItsMin) {
    // for (i, 0, 4): realize B([i*2, 2]) { B(i*2 + j) = A(i*2 + j) + 1; C(i*2 + j) = B(i*2 + j)*2 }
    Tensor a = makeTensor("A", {8}), b = makeTensor("B", {8}), c = makeTensor("C", {8});
    Var i("i"), j("j");
    Expr k = i * 2 + j;
    Stmt body = seq({loop(j, 2, ProducerStoreNode::make(b, a({k}) + Expr(1.0f), {k})),
                     loop(j, 2, ProducerStoreNode::make(c, b({k}) * Expr(2.0f), {k}))});
    Stmt program = loop(i, 4, ProducerRealizeNode::make(b, {Range(i * 2, 2)}, Expr(), body));
    Buffer bufA = iotaBuffer("A", 8);
    Buffer bufC("C", DataType::float32(), {8});
    InterpreterOptions options;
    options.traceAccesses = true;
    Interpreter interp(options);
    interp.bindTensor(a, bufA);
    interp.bindTensor(c, bufC);
    RunResult result = interp.run(program);
    EXPECT_EQ(bufC.getDouble(7), 16.0);
    const BufferTrace* tb = result.find(b);
    ASSERT_NE(tb, nullptr);
    EXPECT_EQ(tb->allocatedElements, 2);
    EXPECT_EQ(tb->entries, 4);
    EXPECT_EQ(tb->totalTouched(), 2); // offsets within the region, not tensor indices
    EXPECT_EQ(tb->scope, "global");
}

TEST(InterpreterProducer, DefaultScopesFollowTheThreadNest) {
    // No realize_scope: shared directly under blockIdx, local under threadIdx (StorageFlatten's
    // rule), and the traces say so.
    Tensor b = makeTensor("B", {4}), l = makeTensor("L", {1}), c = makeTensor("C", {4});
    IterVar bx = threadAxis("blockIdx.x"), tx = threadAxis("threadIdx.x");
    Expr t = tx->var;
    Stmt local = ProducerRealizeNode::make(
        l, {Range(0, 1)}, Expr(),
        seq({ProducerStoreNode::make(l, b({t}), {0}), ProducerStoreNode::make(c, l({0}), {t})}));
    Stmt threads = threadExtent(tx, 4, seq({ProducerStoreNode::make(b, Expr(5.0f), {t}), local}));
    Stmt program =
        threadExtent(bx, 1, ProducerRealizeNode::make(b, {Range(0, 4)}, Expr(), threads));
    Buffer bufC("C", DataType::float32(), {4});
    Interpreter interp;
    interp.bindTensor(c, bufC);
    RunResult result = interp.run(program);
    EXPECT_EQ(bufC.getDouble(3), 5.0);
    EXPECT_EQ(result.find(b)->scope, "shared");
    EXPECT_EQ(result.find(l)->scope, "local");
    EXPECT_EQ(result.find(l)->entries, 4);
    EXPECT_EQ(result.find(b)->entries, 1);
}

TEST(InterpreterProducer, OutOfBoundsReadOfARealizeNamesTheRegion) {
    Tensor b = makeTensor("B", {8}), c = makeTensor("C", {1});
    Var j("j");
    Stmt fill = loop(j, 4, ProducerStoreNode::make(b, Expr(1.0f), {j + 1}));
    Stmt program = ProducerRealizeNode::make(b, {Range(1, 4)}, Expr(),
                                             seq({fill, ProducerStoreNode::make(c, b({0}), {0})}));
    Buffer bufC("C", DataType::float32(), {1});
    Interpreter interp;
    interp.bindTensor(c, bufC);
    EXPECT_EQ(errorOf(interp, program),
              "out-of-bounds read of B(0) in realize of region ([1, 4]) at: C(0) =B(0)");
}

TEST(InterpreterProducer, OutOfBoundsAccessOfATensorArgumentNamesItsShape) {
    Tensor a = makeTensor("A", {4, 3}), c = makeTensor("C", {4, 3});
    Var i("i"), j("j");
    Stmt program = loop(i, 4, loop(j, 3, ProducerStoreNode::make(c, a({i, j + 1}), {i, j})));
    Buffer bufA("A", DataType::float32(), {4, 3}), bufC("C", DataType::float32(), {4, 3});
    Interpreter interp;
    interp.bindTensor(a, bufA);
    interp.bindTensor(c, bufC);
    EXPECT_EQ(
        errorOf(interp, program),
        "out-of-bounds read of A(0, 3) in argument of shape (4, 3) at: C(i, j) =A(i, (j + 1))");
}

TEST(InterpreterProducer, BoundBufferMustMatchTheTensorShape) {
    Var n("n");
    Tensor a = makeTensor("A", {n, 3});
    Buffer wrong("A", DataType::float32(), {5, 3});
    Interpreter interp;
    interp.bindTensor(a, wrong);
    interp.bindScalar(n, 4);
    EXPECT_EQ(errorOf(interp, EvaluateNode::make(Expr(0))),
              "buffer 'A' bound to tensor 'A': extent 5 in dimension 0, the tensor has 4");
    interp.bindScalar(n, 5);
    EXPECT_EQ(errorOf(interp, EvaluateNode::make(Expr(0))), "");
    Buffer flat("A", DataType::float32(), {15});
    interp.bindTensor(a, flat);
    EXPECT_EQ(errorOf(interp, EvaluateNode::make(Expr(0))),
              "buffer 'A' bound to tensor 'A': rank 1, the tensor has rank 2");
}

TEST(InterpreterProducer, TensorOutsideItsRealizeIsAnError) {
    Tensor b = makeTensor("B", {1}), c = makeTensor("C", {1});
    Stmt program = seq({ProducerRealizeNode::make(b, {Range(0, 1)}, Expr(),
                                                  ProducerStoreNode::make(b, Expr(1.0f), {0})),
                        ProducerStoreNode::make(c, b({0}), {0})});
    Buffer bufC("C", DataType::float32(), {1});
    Interpreter interp;
    interp.bindTensor(c, bufC);
    EXPECT_EQ(errorOf(interp, program),
              "tensor 'B' is neither realized here nor bound as an argument at: C(0) =B(0)");
}

TEST(InterpreterProducer, SymbolicShapesAndIntegerTensors) {
    Var n("n"), i("i");
    Tensor a = makeTensor("A", {n}, DataType::int32()), c = makeTensor("C", {n}, DataType::int32());
    Stmt program =
        loop(i, n, ProducerStoreNode::make(c, floordiv(a({i}), 2) + floormod(a({i}), 2), {i}));
    Buffer bufA("A", DataType::int32(), {6}), bufC("C", DataType::int32(), {6});
    for (int64_t k = 0; k < 6; ++k)
        bufA.setInt(k, k - 3); // -3 .. 2
    Interpreter interp;
    interp.bindTensor(a, bufA);
    interp.bindTensor(c, bufC);
    interp.bindScalar(n, 6);
    interp.run(program);
    EXPECT_EQ(bufC.getInt(0), -2 + 1); // floordiv(-3, 2) = -2, floormod(-3, 2) = 1
    EXPECT_EQ(bufC.getInt(5), 1 + 0);
}

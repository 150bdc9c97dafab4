/// Vector values run lane by lane: ramps, broadcasts, vector loads and stores with predicates,
/// and vector lets, as the vectorize pass leaves them.
#include "RuntimeTestUtil.h"

#include "runtime/Interpreter.h"

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::test;

namespace {

Expr ramp(Expr base, int stride, int lanes) {
    return RampNode::make(std::move(base), Expr(stride), lanes);
}
Expr broadcast(Expr value, int lanes) { return BroadcastNode::make(std::move(value), lanes); }
Expr vload(const Var& buffer, Expr index, Expr predicate = Expr()) {
    int lanes = index.type().lanes();
    return LoadNode::make(DataType::float32().withLanes(lanes), buffer, std::move(index),
                          std::move(predicate));
}

} // namespace

TEST(InterpreterVector, RampLoadsAndStoresCoverEveryLane) {
    // for (i, 0, 4): C[ramp(i*4, 1, 4)] = A[ramp(i*4, 1, 4)] + x4(1f)
    Var a = bufferVar("A"), c = bufferVar("C"), i("i");
    Expr index = ramp(i * 4, 1, 4);
    Stmt body = loop(i, 4, store(c, vload(a, index) + broadcast(Expr(1.0f), 4), index));
    Buffer bufA = iotaBuffer("A", 16);
    Buffer bufC("C", DataType::float32(), {16});
    Interpreter interp;
    interp.bindBuffer(a, bufA);
    interp.bindBuffer(c, bufC);
    RunResult result = interp.run(body);
    for (int64_t k = 0; k < 16; ++k)
        EXPECT_EQ(bufC.getDouble(k), double(k + 1)) << k;
    EXPECT_EQ(result.stores, 16); // every lane is a store
}

TEST(InterpreterVector, StridedRampsGatherAndScatter) {
    Var a = bufferVar("A"), c = bufferVar("C");
    Stmt body = store(c, vload(a, ramp(Expr(1), 2, 4)), ramp(Expr(7), -2, 4));
    Buffer bufA = iotaBuffer("A", 8);
    Buffer bufC("C", DataType::float32(), {8});
    Interpreter interp;
    interp.bindBuffer(a, bufA);
    interp.bindBuffer(c, bufC);
    interp.run(body);
    // C[7] = A[1], C[5] = A[3], C[3] = A[5], C[1] = A[7]
    EXPECT_EQ(bufC.getDouble(7), 1.0);
    EXPECT_EQ(bufC.getDouble(1), 7.0);
    EXPECT_EQ(bufC.getDouble(0), 0.0);
}

TEST(InterpreterVector, PredicatesMaskLanesOfLoadsAndStores) {
    // 10 elements in vectors of 4: the last vector's lanes 10 and 11 are masked off.
    Var a = bufferVar("A"), c = bufferVar("C"), i("i");
    Expr index = ramp(i * 4, 1, 4);
    Expr inside = index < broadcast(Expr(10), 4);
    Stmt body =
        loop(i, 3,
             StoreNode::make(c, vload(a, index, inside) * broadcast(Expr(3.0f), 4), index, inside));
    Buffer bufA = iotaBuffer("A", 10);
    Buffer bufC("C", DataType::float32(), {10});
    Interpreter interp;
    interp.bindBuffer(a, bufA);
    interp.bindBuffer(c, bufC);
    RunResult result = interp.run(body);
    EXPECT_EQ(bufC.getDouble(9), 27.0);
    EXPECT_EQ(result.stores, 10);
    EXPECT_EQ(result.loads, 10);
}

TEST(InterpreterVector, VectorLetAndSelectWorkLaneWise) {
    // let v = A[ramp(0, 1, 4)] in C[ramp(0, 1, 4)] = select(v < x4(2f), v * v, -v)
    Var a = bufferVar("A"), c = bufferVar("C");
    Var v("v", DataType::float32().withLanes(4));
    Expr value = select(v < broadcast(Expr(2.0f), 4), v * v, Expr(0.0f) - v);
    Stmt body =
        LetStmtNode::make(v, vload(a, ramp(Expr(0), 1, 4)), store(c, value, ramp(Expr(0), 1, 4)));
    Buffer bufA = iotaBuffer("A", 4);
    Buffer bufC("C", DataType::float32(), {4});
    Interpreter interp;
    interp.bindBuffer(a, bufA);
    interp.bindBuffer(c, bufC);
    interp.run(body);
    EXPECT_EQ(bufC.getDouble(1), 1.0);
    EXPECT_EQ(bufC.getDouble(3), -3.0);
}

TEST(InterpreterVector, OutOfBoundsLaneNamesItsIndex) {
    Var c = bufferVar("C");
    Stmt body = store(c, broadcast(Expr(1.0f), 4), ramp(Expr(8), 1, 4));
    Buffer bufC("C", DataType::float32(), {10});
    Interpreter interp;
    interp.bindBuffer(c, bufC);
    try {
        interp.run(body);
        FAIL() << "expected an error";
    } catch (const UserError& e) {
        EXPECT_STREQ(e.what(), "out-of-bounds write of C[10] in argument buffer of 10 elements at: "
                               "C[ramp(8, 1, 4)] = x4(1.000000f)");
    }
}

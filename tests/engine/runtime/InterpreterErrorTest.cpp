/// Every error the interpreter reports, with its exact message: the buffer, the index and the
/// statement (the first line of its text).
#include "RuntimeTestUtil.h"

#include "runtime/Interpreter.h"

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::test;

namespace {

/// Runs `body` with `setup` applied and returns the error message ("" when none).
template <typename Setup> std::string errorOf(const Stmt& body, Setup setup) {
    Interpreter interp;
    setup(interp);
    try {
        interp.run(body);
    } catch (const UserError& e) {
        return e.what();
    }
    return "";
}

std::string errorOf(const Stmt& body) {
    return errorOf(body, [](Interpreter&) {});
}

} // namespace

TEST(InterpreterError, OutOfBoundsReadNamesBufferIndexAndStatement) {
    // for (i, 0, 200): C[i] = B[i + 1], B allocated with 200 elements.
    Var b = bufferVar("B"), c = bufferVar("C"), i("i"), j("j");
    Stmt fill = loop(j, 200, store(b, Expr(1.0f), j));
    Stmt body = allocate(b, DataType::float32(), 200,
                         seq({fill, loop(i, 200, store(c, load(b, i + 1), i))}));
    Buffer bufC("C", DataType::float32(), {200});
    EXPECT_EQ(errorOf(body, [&](Interpreter& in) { in.bindBuffer(c, bufC); }),
              "out-of-bounds read of B[200] in allocation of 200 elements at: C[i] = B[(i + 1)]");
}

TEST(InterpreterError, OutOfBoundsWriteOfAnArgument) {
    Var a = bufferVar("A"), c = bufferVar("C"), i("i");
    Stmt body = loop(i, 10, store(c, load(a, i), i - 1));
    Buffer bufA("A", DataType::float32(), {10}), bufC("C", DataType::float32(), {10});
    EXPECT_EQ(
        errorOf(body,
                [&](Interpreter& in) {
                    in.bindBuffer(a, bufA);
                    in.bindBuffer(c, bufC);
                }),
        "out-of-bounds write of C[-1] in argument buffer of 10 elements at: C[(i - 1)] = A[i]");
}

TEST(InterpreterError, OutOfBoundsInAConditionNamesTheIf) {
    Var a = bufferVar("A"), c = bufferVar("C");
    Stmt body = IfThenElseNode::make(load(a, 5) > Expr(0.0f), store(c, Expr(1.0f), 0));
    Buffer bufA("A", DataType::float32(), {5}), bufC("C", DataType::float32(), {1});
    EXPECT_EQ(errorOf(body,
                      [&](Interpreter& in) {
                          in.bindBuffer(a, bufA);
                          in.bindBuffer(c, bufC);
                      }),
              "out-of-bounds read of A[5] in argument buffer of 5 elements at: if ((A[5] > "
              "0.000000f)) {");
}

TEST(InterpreterError, UnboundVariable) {
    Var n("n"), c = bufferVar("C"), i("i");
    Stmt body = loop(i, n, store(c, Expr(1.0f), i));
    Buffer bufC("C", DataType::float32(), {4});
    EXPECT_EQ(errorOf(body, [&](Interpreter& in) { in.bindBuffer(c, bufC); }),
              "unbound variable 'n' at: for (i, 0, n) {");
}

TEST(InterpreterError, LoopVariableUsedAfterItsLoop) {
    Var c = bufferVar("C"), i("i");
    Stmt body = seq({loop(i, 4, store(c, Expr(1.0f), i)), store(c, Expr(2.0f), i)});
    Buffer bufC("C", DataType::float32(), {4});
    EXPECT_EQ(errorOf(body, [&](Interpreter& in) { in.bindBuffer(c, bufC); }),
              "unbound variable 'i' at: C[i] = 2.000000f");
}

TEST(InterpreterError, BufferNeitherAllocatedNorBound) {
    Var b = bufferVar("B"), c = bufferVar("C");
    Stmt body = store(c, load(b, 0), 0);
    Buffer bufC("C", DataType::float32(), {1});
    EXPECT_EQ(errorOf(body, [&](Interpreter& in) { in.bindBuffer(c, bufC); }),
              "buffer 'B' is neither allocated here nor bound as an argument at: C[0] = B[0]");
}

TEST(InterpreterError, NegativeAllocationExtent) {
    Var b = bufferVar("B"), n("n");
    Stmt body = allocate(b, DataType::float32(), n, store(b, Expr(1.0f), 0));
    EXPECT_EQ(errorOf(body, [&](Interpreter& in) { in.bindScalar(n, -2); }),
              "allocation of B with negative extent -2 at: allocate B[float32 * n]");
}

TEST(InterpreterError, UnsupportedCalls) {
    Var c = bufferVar("C");
    Buffer bufC("C", DataType::float32(), {1});
    auto bind = [&](Interpreter& in) { in.bindBuffer(c, bufC); };
    Stmt intrinsic = store(
        c, CallNode::make(DataType::float32(), "tvm_mystery", {Expr(1.0f)}, CallKind::Intrinsic),
        0);
    EXPECT_EQ(errorOf(intrinsic, bind),
              "unsupported intrinsic 'tvm_mystery' at: C[0] = tvm_mystery(1.000000f)");
    Stmt function = store(c, mathCall("frobnicate", {Expr(1.0f)}), 0);
    EXPECT_EQ(
        errorOf(function, bind),
        "unsupported function 'frobnicate' with 1 arguments at: C[0] = frobnicate(1.000000f)");
}

TEST(InterpreterError, ThreadBindingLoopsAreRejected) {
    Var c = bufferVar("C"), i("i");
    IterVar tx = threadAxis("threadIdx.x");
    Stmt body = ForNode::make(i, 0, 4, ForKind::ThreadBinding, store(c, Expr(1.0f), i), tx);
    Buffer bufC("C", DataType::float32(), {4});
    std::string message = errorOf(body, [&](Interpreter& in) { in.bindBuffer(c, bufC); });
    EXPECT_EQ(message.rfind("thread bindings must be thread_extent attributes", 0), 0u) << message;
}

TEST(InterpreterError, UndefinedStatement) {
    EXPECT_EQ(errorOf(Stmt()), "nothing to run: the statement is undefined");
}

/// Access tracing: per-element read/write maps, stores, and the peak number of distinct
/// elements touched per entry of an allocation next to the total over all entries (the
/// "really touched" counts of the allocation report).
#include "RuntimeTestUtil.h"

#include "runtime/Interpreter.h"

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::test;

namespace {

InterpreterOptions traced() {
    InterpreterOptions options;
    options.traceAccesses = true;
    return options;
}

} // namespace

TEST(InterpreterTrace, AllocationInALoopHasPeakPerEntryAndTotal) {
    // for (i, 0, 512): allocate B[8] { B[j] = A[i*8 + j]; C[i*8 + j] = B[j]*2 }
    Var a = bufferVar("A"), b = bufferVar("B"), c = bufferVar("C"), i("i"), j("j");
    Stmt produce = loop(j, 8, store(b, load(a, i * 8 + j), j));
    Stmt consume = loop(j, 8, store(c, load(b, j) * Expr(2.0f), i * 8 + j));
    Stmt body = loop(i, 512, allocate(b, DataType::float32(), 8, seq({produce, consume})));
    Buffer bufA("A", DataType::float32(), {4096}), bufC("C", DataType::float32(), {4096});
    bufA.fillRandom(3);
    Interpreter interp(traced());
    interp.bindBuffer(a, bufA);
    interp.bindBuffer(c, bufC);
    RunResult result = interp.run(body);

    const BufferTrace* tb = result.find(b);
    ASSERT_NE(tb, nullptr);
    EXPECT_FALSE(tb->isArgument);
    EXPECT_EQ(tb->scope, "global");
    EXPECT_EQ(tb->allocatedElements, 8);
    EXPECT_EQ(tb->entries, 512);
    EXPECT_EQ(tb->peakTouched, 8);
    EXPECT_EQ(tb->peakRead, 8);
    EXPECT_EQ(tb->peakWritten, 8);
    EXPECT_EQ(tb->totalTouched(), 8);
    EXPECT_EQ(tb->stores, 4096);
    EXPECT_EQ(tb->loads, 4096);

    const BufferTrace* ta = result.find(a);
    ASSERT_NE(ta, nullptr);
    EXPECT_TRUE(ta->isArgument);
    EXPECT_EQ(ta->entries, 1);
    EXPECT_EQ(ta->readElements(), 4096);
    EXPECT_EQ(ta->writtenElements(), 0);
    EXPECT_EQ(ta->peakTouched, 4096);
    const BufferTrace* tc = result.find("C");
    ASSERT_NE(tc, nullptr);
    EXPECT_EQ(tc->writtenElements(), 4096);
    EXPECT_EQ(tc->stores, 4096);
}

TEST(InterpreterTrace, TotalIsTheUnionOfEntriesByIndex) {
    // Each entry of B[16] touches one half, alternating: the peak is 8, the total 16.
    Var b = bufferVar("B"), c = bufferVar("C"), i("i"), j("j");
    Expr offset = floormod(i, 2) * 8 + j;
    Stmt body = loop(i, 4,
                     allocate(b, DataType::float32(), 16,
                              seq({loop(j, 8, store(b, Expr(1.0f), offset)),
                                   loop(j, 8, store(c, load(b, offset), i * 8 + j))})));
    Buffer bufC("C", DataType::float32(), {32});
    Interpreter interp(traced());
    interp.bindBuffer(c, bufC);
    RunResult result = interp.run(body);
    const BufferTrace* tb = result.find(b);
    ASSERT_NE(tb, nullptr);
    EXPECT_EQ(tb->allocatedElements, 16);
    EXPECT_EQ(tb->peakTouched, 8);
    EXPECT_EQ(tb->totalTouched(), 16);
    EXPECT_EQ(tb->entries, 4);
}

TEST(InterpreterTrace, PeaksSeparateWhatIsComputedFromWhatIsNeeded) {
    // Each entry computes a whole 16-element B but its consumer reads only 8 of them (what a
    // fused segment inside whole rows looks like): computed 16, needed 8.
    Var b = bufferVar("B"), c = bufferVar("C"), i("i"), j("j");
    Stmt body = loop(i, 4,
                     allocate(b, DataType::float32(), 16,
                              seq({loop(j, 16, store(b, Expr(1.0f), j)),
                                   loop(j, 8, store(c, load(b, j + 4), i * 8 + j))})));
    Buffer bufC("C", DataType::float32(), {32});
    Interpreter interp(traced());
    interp.bindBuffer(c, bufC);
    RunResult result = interp.run(body);
    const BufferTrace* tb = result.find(b);
    ASSERT_NE(tb, nullptr);
    EXPECT_EQ(tb->peakWritten, 16);
    EXPECT_EQ(tb->peakRead, 8);
    EXPECT_EQ(tb->peakTouched, 16);
    const BufferTrace* tc = result.find(c);
    EXPECT_EQ(tc->peakWritten, 32); // an argument's one entry is the whole run
    EXPECT_EQ(tc->peakRead, 0);
}

TEST(InterpreterTrace, PerElementMapSeparatesReadsAndWrites) {
    // B[0..4) written, B[2..6) read: 0, 1 written only; 2, 3 both; 4, 5 read only.
    Var b = bufferVar("B"), c = bufferVar("C"), j("j");
    Stmt body = allocate(
        b, DataType::float32(), 6,
        seq({loop(j, 4, store(b, Expr(0.0f), j)), loop(j, 4, store(c, load(b, j + 2), j))}));
    Buffer bufC("C", DataType::float32(), {4});
    Interpreter interp(traced());
    interp.bindBuffer(c, bufC);
    RunResult result = interp.run(body);
    const BufferTrace* tb = result.find("B");
    ASSERT_NE(tb, nullptr);
    ASSERT_EQ(tb->flags.size(), 6u);
    EXPECT_TRUE(tb->wasWritten(0) && !tb->wasRead(0));
    EXPECT_TRUE(tb->wasWritten(3) && tb->wasRead(3));
    EXPECT_TRUE(!tb->wasWritten(5) && tb->wasRead(5));
    EXPECT_EQ(tb->flags[2], kElementRead | kElementWritten);
    EXPECT_EQ(tb->readElements(), 4);
    EXPECT_EQ(tb->writtenElements(), 4);
    EXPECT_EQ(tb->totalTouched(), 6);
    EXPECT_FALSE(tb->wasTouched(6)); // outside the allocation
}

TEST(InterpreterTrace, SymbolicSizesKeepTheLargestEntry) {
    // for (i, 0, 4): allocate B[i + 1], every element written.
    Var b = bufferVar("B"), i("i"), j("j");
    Stmt body = loop(i, 4, allocate(b, DataType::int32(), i + 1, loop(j, i + 1, store(b, j, j))));
    Interpreter interp(traced());
    RunResult result = interp.run(body);
    const BufferTrace* tb = result.find(b);
    ASSERT_NE(tb, nullptr);
    EXPECT_EQ(tb->allocatedElements, 4);
    EXPECT_EQ(tb->shape, (std::vector<int64_t>{4}));
    EXPECT_EQ(tb->peakTouched, 4);
    EXPECT_EQ(tb->stores, 1 + 2 + 3 + 4);
    EXPECT_EQ(tb->dtype, DataType::int32());
}

TEST(InterpreterTrace, UntracedRunsRecordNoElements) {
    Var b = bufferVar("B"), i("i");
    Stmt body = loop(i, 3, allocate(b, DataType::float32(), 2, store(b, Expr(1.0f), 0)));
    Interpreter interp;
    RunResult result = interp.run(body);
    const BufferTrace* tb = result.find(b);
    ASSERT_NE(tb, nullptr);
    EXPECT_TRUE(tb->flags.empty());
    EXPECT_EQ(tb->peakTouched, 0);
    EXPECT_EQ(tb->entries, 3); // entries and sizes are cheap and always kept
    EXPECT_EQ(tb->allocatedElements, 2);
    EXPECT_EQ(result.stores, 3);
}

TEST(InterpreterTrace, SitesAreListedInOrderOfFirstEntry) {
    Var x = bufferVar("X"), y = bufferVar("Y"), z = bufferVar("Z"), i("i");
    // Z is compiled first but never entered; Y is entered before X.
    Stmt never = loop(i, 0, allocate(z, DataType::float32(), 1, store(z, Expr(0.0f), 0)));
    Stmt body = seq({never, allocate(y, DataType::float32(), 1, store(y, Expr(0.0f), 0)),
                     allocate(x, DataType::float32(), 1, store(x, Expr(0.0f), 0))});
    RunResult result = Interpreter().run(body);
    ASSERT_EQ(result.buffers.size(), 3u);
    EXPECT_EQ(result.buffers[0].name, "Y");
    EXPECT_EQ(result.buffers[1].name, "X");
    EXPECT_EQ(result.buffers[2].name, "Z");
    EXPECT_EQ(result.buffers[2].entries, 0);
}

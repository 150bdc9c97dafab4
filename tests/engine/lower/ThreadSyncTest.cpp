#include "LowerTestUtil.h"

#include "ir/Op.h"
#include "ir/Printer.h"
#include "lower/ThreadSync.h"

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::test;

namespace {

Var buffer(const std::string& name) { return Var(name, DataType::handle()); }

IterVar threadAxis(const std::string& tag) {
    return IterVar(Range(), Var(tag), IterVarType::ThreadIndex, tag);
}

Stmt threadExtent(const IterVar& iv, Expr extent, Stmt body) {
    return AttrStmtNode::make(iv, attr::kThreadExtent, std::move(extent), std::move(body));
}

Stmt allocate(const Var& buf, const std::string& scope, int size, Stmt body) {
    Stmt alloc =
        AllocateNode::make(buf, DataType::float32(), {Expr(size)}, Expr(), std::move(body));
    return AttrStmtNode::make(buf, attr::kStorageScope, StringImmNode::make(scope), alloc);
}

Expr load(const Var& buf, Expr index) {
    return LoadNode::make(DataType::float32(), buf, std::move(index));
}

/// A block of 32 threads with a 32-element buffer S of `scope` around `body`.
struct Block {
    Var a = buffer("A"), c = buffer("C"), s = buffer("S");
    IterVar bx = threadAxis("blockIdx.x"), tx = threadAxis("threadIdx.x");
    Expr t = tx->var;

    Stmt kernel(Stmt body, const std::string& scope = "shared") const {
        return threadExtent(bx, 4, allocate(s, scope, 32, threadExtent(tx, 32, std::move(body))));
    }
    Stmt fill(Expr index) const { return StoreNode::make(s, load(a, bx->var * 32 + t), index); }
    Stmt drain(Expr index) const { return StoreNode::make(c, load(s, index), bx->var * 32 + t); }
};

/// The statements of the kernel below its thread_extent attributes and allocation.
std::string innerListing(const Stmt& kernel) {
    std::string text = toString(kernel);
    size_t pos = text.find("thread_extent = 32\n");
    return pos == std::string::npos ? text : text.substr(pos + 19);
}

} // namespace

TEST(ThreadSync, SameThreadElementNeedsNoBarrierAsInSeedExample6) {
    Block b;
    Stmt kernel = b.kernel(SeqNode::make({b.fill(b.t), b.drain(b.t)}));
    EXPECT_TRUE(threadSync(kernel).same_as(kernel)) << toString(threadSync(kernel));
}

TEST(ThreadSync, BarrierSeparatesWriteFromAnotherThreadsRead) {
    Block b;
    Stmt kernel = b.kernel(SeqNode::make({b.fill(b.t), b.drain(31 - b.t)}));
    EXPECT_EQ(innerListing(threadSync(kernel)),
              R"(S[threadIdx.x] = A[((blockIdx.x*32) + threadIdx.x)]
tvm_storage_sync("shared")
C[((blockIdx.x*32) + threadIdx.x)] = S[(31 - threadIdx.x)]
)");
}

TEST(ThreadSync, BarrierSeparatesReadFromALaterOverwrite) {
    Block b;
    Stmt kernel = b.kernel(SeqNode::make({b.drain(31 - b.t), b.fill(b.t)}));
    EXPECT_EQ(innerListing(threadSync(kernel)),
              R"(C[((blockIdx.x*32) + threadIdx.x)] = S[(31 - threadIdx.x)]
tvm_storage_sync("shared")
S[threadIdx.x] = A[((blockIdx.x*32) + threadIdx.x)]
)");
}

TEST(ThreadSync, SameIndexWithoutTheThreadIndexStillConflicts) {
    Block b;
    // Every thread writes S[0] and reads it back: another thread's write may land in between.
    Stmt kernel = b.kernel(SeqNode::make({b.fill(Expr(0)), b.drain(Expr(0))}));
    EXPECT_NE(toString(threadSync(kernel)).find("tvm_storage_sync"), std::string::npos);
}

TEST(ThreadSync, GlobalAndLocalBuffersAreNotSynchronised) {
    Block b;
    for (const char* scope : {"global", "local"}) {
        Stmt kernel = b.kernel(SeqNode::make({b.fill(b.t), b.drain(31 - b.t)}), scope);
        EXPECT_TRUE(threadSync(kernel).same_as(kernel)) << scope;
    }
}

TEST(ThreadSync, ExistingBarrierIsRespected) {
    Block b;
    Stmt kernel = b.kernel(SeqNode::make({b.fill(b.t), makeStorageSync(), b.drain(31 - b.t)}));
    EXPECT_TRUE(threadSync(kernel).same_as(kernel));
    EXPECT_TRUE(isStorageSync(makeStorageSync()));
    EXPECT_FALSE(isStorageSync(b.fill(b.t)));
}

TEST(ThreadSync, TiledLoopGetsBarriersBeforeTheTileLoadAndBeforeItsUse) {
    Block b;
    Var ko("k.outer"), ki("k.inner");
    Var acc = buffer("acc");
    Stmt loadTile = StoreNode::make(b.s, load(b.a, ko * 32 + b.t), b.t);
    Stmt use = StoreNode::make(acc, load(acc, Expr(0)) + load(b.s, ki), Expr(0));
    Stmt inner = ForNode::make(ki, 0, 32, ForKind::Serial, use);
    Stmt outer = ForNode::make(ko, 0, 4, ForKind::Serial, SeqNode::make({loadTile, inner}));
    EXPECT_EQ(innerListing(threadSync(b.kernel(outer))), R"(for (k.outer, 0, 4) {
  tvm_storage_sync("shared")
  S[threadIdx.x] = A[((k.outer*32) + threadIdx.x)]
  tvm_storage_sync("shared")
  for (k.inner, 0, 32) {
    acc[0] = (acc[0] + S[k.inner])
  }
}
)");
}

TEST(ThreadSync, LoopCarriedReadBeforeWriteGetsABarrierAtTheTop) {
    Block b;
    Var k("k");
    // Each iteration reads a neighbour's element, then overwrites its own.
    Stmt read = b.drain(floormod(b.t + 1, 32));
    Stmt write = StoreNode::make(b.s, load(b.a, k), b.t);
    Stmt loop = ForNode::make(k, 0, 4, ForKind::Serial, SeqNode::make({read, write}));
    EXPECT_EQ(innerListing(threadSync(b.kernel(loop))), R"(for (k, 0, 4) {
  tvm_storage_sync("shared")
  C[((blockIdx.x*32) + threadIdx.x)] = S[floormod((threadIdx.x + 1), 32)]
  tvm_storage_sync("shared")
  S[threadIdx.x] = A[k]
}
)");
}

TEST(ThreadSync, IndexUsingALoopVariableCoversTheLoopFromOutside) {
    Block b;
    Var k("k");
    // The loop writes S[k] for every k; the read after it conflicts even at the same index k.
    Stmt write = ForNode::make(k, 0, 32, ForKind::Serial, StoreNode::make(b.s, load(b.a, k), k));
    Stmt kernel = b.kernel(SeqNode::make({write, b.drain(b.t)}));
    EXPECT_EQ(innerListing(threadSync(kernel)), R"(for (k, 0, 32) {
  S[k] = A[k]
}
tvm_storage_sync("shared")
C[((blockIdx.x*32) + threadIdx.x)] = S[threadIdx.x]
)");
}

TEST(ThreadSync, BarrierInsideAThreadDependentConditionIsAnError) {
    Block b;
    Stmt branch = SeqNode::make({b.fill(b.t), b.drain(15 - b.t)});
    Stmt kernel = b.kernel(IfThenElseNode::make(b.t < 16, branch));
    try {
        threadSync(kernel);
        FAIL() << "expected a UserError";
    } catch (const UserError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "shared buffer 'S' needs a barrier inside a condition that depends on the thread "
                  "index; threads that skip it would never reach the barrier");
    }
}

TEST(ThreadSync, BarrierInsideABlockUniformConditionIsAllowed) {
    Block b;
    Stmt branch = SeqNode::make({b.fill(b.t), b.drain(31 - b.t)});
    Stmt kernel = b.kernel(IfThenElseNode::make(b.bx->var < 2, branch));
    EXPECT_EQ(innerListing(threadSync(kernel)), R"(if ((blockIdx.x < 2)) {
  S[threadIdx.x] = A[((blockIdx.x*32) + threadIdx.x)]
  tvm_storage_sync("shared")
  C[((blockIdx.x*32) + threadIdx.x)] = S[(31 - threadIdx.x)]
}
)");
}

TEST(ThreadSync, WritesInsideAConditionConflictWithReadsAfterIt) {
    Block b;
    Stmt guarded = IfThenElseNode::make(b.t < 16, b.fill(b.t));
    Stmt kernel = b.kernel(SeqNode::make({guarded, b.drain(31 - b.t)}));
    EXPECT_EQ(innerListing(threadSync(kernel)), R"(if ((threadIdx.x < 16)) {
  S[threadIdx.x] = A[((blockIdx.x*32) + threadIdx.x)]
}
tvm_storage_sync("shared")
C[((blockIdx.x*32) + threadIdx.x)] = S[(31 - threadIdx.x)]
)");
}

TEST(ThreadSync, BarrierInsideASmallerThreadNestIsAnError) {
    // The launch has 32 threads along x (the largest nest); the nest of 16 runs on half of
    // them (SplitHostDevice guards it), so a barrier inside it would hang the other half.
    Block b;
    Stmt exchange = threadExtent(b.tx, 16, SeqNode::make({b.fill(b.t), b.drain(15 - b.t)}));
    Stmt kernel =
        threadExtent(b.bx, 4,
                     allocate(b.s, "shared", 32,
                              SeqNode::make({threadExtent(b.tx, 32, b.fill(b.t)), exchange})));
    try {
        threadSync(kernel);
        FAIL() << "expected a UserError";
    } catch (const UserError& e) {
        EXPECT_EQ(
            std::string(e.what()),
            "shared buffer 'S' needs a barrier inside a thread nest smaller than the block (two "
            "stages bind one thread axis with different extents); the threads outside it would "
            "never reach the barrier");
    }
}

TEST(ThreadSync, BarrierBeforeASmallerThreadNestGoesOutsideIt) {
    // The smaller nest reads what the full nest wrote: the barrier goes in front of the nest,
    // where all 32 threads pass.
    Block b;
    Stmt drain = threadExtent(b.tx, 16, b.drain(31 - b.t));
    Stmt kernel = threadExtent(
        b.bx, 4,
        allocate(b.s, "shared", 32, SeqNode::make({threadExtent(b.tx, 32, b.fill(b.t)), drain})));
    EXPECT_EQ(innerListing(threadSync(kernel)),
              R"(S[threadIdx.x] = A[((blockIdx.x*32) + threadIdx.x)]
tvm_storage_sync("shared")
// attr [iter_var(threadIdx.x, , threadIdx.x)] thread_extent = 16
C[((blockIdx.x*32) + threadIdx.x)] = S[(31 - threadIdx.x)]
)");
}

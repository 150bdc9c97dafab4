#include "LowerTestUtil.h"

#include "ir/Op.h"
#include "ir/Printer.h"
#include "lower/Lower.h"
#include "lower/StorageFlatten.h"
#include "te/Compute.h"

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::test;

namespace {

Stmt realizeScope(const Tensor& t, const std::string& scope, Stmt body) {
    return AttrStmtNode::make(t.op, attr::kRealizeScope, StringImmNode::make(scope),
                              std::move(body));
}

Stmt produce(const Tensor& t, Stmt body) {
    return ProducerConsumerNode::make(t.op, true, std::move(body));
}

Stmt threadExtent(const IterVar& iv, int extent, Stmt body) {
    return AttrStmtNode::make(iv, attr::kThreadExtent, Expr(extent), std::move(body));
}

/// Seed 002, Ex. 6 (Ex. 8 when `scopeB` is empty) as ScheduleOps produces it.
struct SharedStageProgram {
    Tensor a = makeTensor("A", {200, 400});
    Tensor b = makeTensor("B", {200, 400});
    Tensor c = makeTensor("C", {100, 200});
    IterVar bx{Range(), Var("blockIdx.x"), IterVarType::ThreadIndex, "blockIdx.x"};
    IterVar tx{Range(), Var("threadIdx.x"), IterVarType::ThreadIndex, "threadIdx.x"};

    Stmt build(const std::string& scopeB) const {
        Expr i = bx->var, j = tx->var;
        Stmt storeB = ProducerStoreNode::make(b, Expr(3.14f) * a({i, j}), {i, j});
        Stmt storeC = ProducerStoreNode::make(c, Expr(2.72f) * b({i, j}), {i, j});
        Stmt body = SeqNode::make(
            {produce(b, threadExtent(tx, 200, storeB)), threadExtent(tx, 200, storeC)});
        Stmt realizeB = ProducerRealizeNode::make(b, {Range(i, 1), Range(0, 200)}, Expr(), body);
        Stmt blocks = threadExtent(bx, 100, realizeScope(b, scopeB, realizeB));
        return ProducerRealizeNode::make(c, {Range(0, 100), Range(0, 200)}, Expr(),
                                         produce(c, blocks));
    }
};

} // namespace

TEST(StorageFlatten, TestProgramMatchesSeedListing) {
    SharedStageProgram p;
    EXPECT_EQ(toString(p.build("shared")), R"(realize C([0, 100], [0, 200]) {
  produce C {
    // attr [iter_var(blockIdx.x, , blockIdx.x)] thread_extent = 100
    // attr [compute(B)] realize_scope = "shared"
    realize B([blockIdx.x, 1], [0, 200]) {
      produce B {
        // attr [iter_var(threadIdx.x, , threadIdx.x)] thread_extent = 200
        B(blockIdx.x, threadIdx.x) =(3.140000f*A(blockIdx.x, threadIdx.x))
      }
      // attr [iter_var(threadIdx.x, , threadIdx.x)] thread_extent = 200
      C(blockIdx.x, threadIdx.x) =(2.720000f*B(blockIdx.x, threadIdx.x))
    }
  }
}
)");
}

TEST(StorageFlatten, SharedStageOfSeedExample6) {
    SharedStageProgram p;
    FlattenResult r = storageFlatten(p.build("shared"), {p.a, p.c});
    EXPECT_EQ(toString(r.body), R"(produce C {
  // attr [iter_var(blockIdx.x, , blockIdx.x)] thread_extent = 100
  // attr [B] storage_scope = "shared"
  allocate B[float32 * 200]
  produce B {
    // attr [iter_var(threadIdx.x, , threadIdx.x)] thread_extent = 200
    B[threadIdx.x] = (3.140000f*A[((blockIdx.x*400) + threadIdx.x)])
  }
  // attr [iter_var(threadIdx.x, , threadIdx.x)] thread_extent = 200
  C[((blockIdx.x*200) + threadIdx.x)] = (2.720000f*B[threadIdx.x])
}
)");
}

TEST(StorageFlatten, EmptyScopeUnderBlockIdxIsSharedAsInSeedExample8) {
    SharedStageProgram p;
    std::string listing = toString(storageFlatten(p.build(""), {p.a, p.c}).body);
    EXPECT_NE(listing.find(R"(// attr [B] storage_scope = "shared")"), std::string::npos)
        << listing;
}

TEST(StorageFlatten, EmptyScopeIsGlobalOutsideThreadsAndLocalUnderThreadIdx) {
    Tensor t = makeTensor("T", {4}, DataType::int32());
    IterVar tx(Range(), Var("threadIdx.x"), IterVarType::ThreadIndex, "threadIdx.x");
    Stmt store = ProducerStoreNode::make(t, Expr(1), {Expr(0)});
    Stmt realize = realizeScope(t, "", ProducerRealizeNode::make(t, {Range(0, 4)}, Expr(), store));
    EXPECT_EQ(toString(storageFlatten(realize).body), R"(// attr [T] storage_scope = "global"
allocate T[int32 * 4]
T[0] = 1
)");
    EXPECT_EQ(toString(storageFlatten(threadExtent(tx, 8, realize)).body),
              R"(// attr [iter_var(threadIdx.x, , threadIdx.x)] thread_extent = 8
// attr [T] storage_scope = "local"
allocate T[int32 * 4]
T[0] = 1
)");
}

TEST(StorageFlatten, RealizeFieldGivesTheScopeWhenNoAttrDoes) {
    Tensor t = makeTensor("T", {4}, DataType::int32());
    Stmt store = ProducerStoreNode::make(t, Expr(1), {Expr(2)});
    Stmt realize = ProducerRealizeNode::make(t, {Range(0, 4)}, Expr(), store, "warp");
    EXPECT_EQ(toString(storageFlatten(realize).body), R"(// attr [T] storage_scope = "warp"
allocate T[int32 * 4]
T[2] = 1
)");
}

TEST(StorageFlatten, PointRegionsOfSeedExample4IndexFromTheirMins) {
    // realize C([dj, 1], [dk, 1]) with and without the trivial loops kept.
    Tensor c = makeTensor("C", {5, 16}, DataType::int32());
    Var dj("dj"), dk("dk"), i("i"), j("j");
    Region region{Range(dj, 1), Range(dk, 1)};
    Stmt plain =
        ProducerRealizeNode::make(c, region, Expr(), ProducerStoreNode::make(c, Expr(5), {dj, dk}));
    EXPECT_EQ(toString(storageFlatten(plain).body), R"(// attr [C] storage_scope = "global"
allocate C[int32 * 1]
C[0] = 5
)");
    Stmt store = ProducerStoreNode::make(c, Expr(5), {i + dj, j + dk});
    Stmt loops =
        ForNode::make(i, 0, 1, ForKind::Serial, ForNode::make(j, 0, 1, ForKind::Serial, store));
    Stmt kept = ProducerRealizeNode::make(c, region, Expr(), loops);
    EXPECT_EQ(toString(storageFlatten(kept).body), R"(// attr [C] storage_scope = "global"
allocate C[int32 * 1]
for (i, 0, 1) {
  for (j, 0, 1) {
    C[(((i + dj) - dj) + ((j + dk) - dk))] = 5
  }
}
)");
}

TEST(StorageFlatten, SymbolicRegionGivesProductExtentAndRowMajorIndex) {
    Var n("n"), m("m"), x("x"), y("y");
    Tensor t = makeTensor("T", {n, m});
    Stmt store = ProducerStoreNode::make(t, Expr(0.0f), {x, y});
    Stmt realize = ProducerRealizeNode::make(t, {Range(1, n), Range(x, m)}, Expr(), store);
    EXPECT_EQ(toString(storageFlatten(realize).body), R"(// attr [T] storage_scope = "global"
allocate T[float32 * (n*m)]
T[(((x - 1)*m) + (y - x))] = 0.000000f
)");
}

TEST(StorageFlatten, ArgumentsGetStableBuffersAndOutputRealizeIsDropped) {
    Var n("n");
    Tensor a = makeTensor("A", {n, 8});
    Tensor c = makeTensor("C", {n, 8});
    Var i("i"), j("j");
    Stmt store = ProducerStoreNode::make(c, a({i, j}) * Expr(2.0f), {i, j});
    Stmt loops =
        ForNode::make(i, 0, n, ForKind::Serial, ForNode::make(j, 0, 8, ForKind::Serial, store));
    Stmt program =
        ProducerRealizeNode::make(c, {Range(0, n), Range(0, 8)}, Expr(), produce(c, loops));
    FlattenResult r = storageFlatten(program, {a, c});
    EXPECT_EQ(toString(r.body), R"(produce C {
  for (i, 0, n) {
    for (j, 0, 8) {
      C[((i*8) + j)] = (A[((i*8) + j)]*2.000000f)
    }
  }
}
)");
    ASSERT_EQ(r.buffers.size(), 2u);
    EXPECT_TRUE(r.buffers[0].first.same_as(a));
    EXPECT_TRUE(r.buffers[1].first.same_as(c));
    EXPECT_EQ(r.buffers[0].second.name(), "A");
    EXPECT_TRUE(r.buffers[0].second.type().isHandle());
    EXPECT_TRUE(r.bufferOf(c).same_as(r.buffers[1].second));
    EXPECT_FALSE(r.bufferOf(makeTensor("Z", {1})).defined());
    EXPECT_TRUE(r.allocations.empty());
    // The Vars in the body are the ones returned.
    const auto* produceC = r.body.as<ProducerConsumerNode>();
    const auto* store2 = produceC->body.as<ForNode>()->body.as<ForNode>()->body.as<StoreNode>();
    EXPECT_TRUE(store2->bufferVar.same_as(r.bufferOf(c)));
}

TEST(StorageFlatten, MultiOutputRealizeNamesBuffersLikeTvm) {
    Operation op = makeOp("T", {{Expr(4)}, {Expr(4)}}, DataType::int32());
    Tensor t0 = op.output(0), t1 = op.output(1);
    Var i("i");
    Stmt stores = SeqNode::make(
        {ProducerStoreNode::make(t0, i, {i}), ProducerStoreNode::make(t1, t0({i}) + 1, {i})});
    Stmt loop = ForNode::make(i, 0, 4, ForKind::Serial, stores);
    Stmt program = realizeScope(
        t0, "",
        ProducerRealizeNode::make(t0, {Range(0, 4)}, Expr(),
                                  ProducerRealizeNode::make(t1, {Range(0, 4)}, Expr(), loop)));
    FlattenResult r = storageFlatten(program);
    EXPECT_EQ(toString(r.body), R"(// attr [T.v0] storage_scope = "global"
allocate T.v0[int32 * 4]
// attr [T.v1] storage_scope = "global"
allocate T.v1[int32 * 4]
for (i, 0, 4) {
  T.v0[i] = i
  T.v1[i] = (T.v0[i] + 1)
}
)");
    ASSERT_EQ(r.allocations.size(), 2u);
    EXPECT_EQ(r.allocations[1].second.name(), "T.v1");
    EXPECT_EQ(bufferName(t1), "T.v1");
}

TEST(StorageFlatten, FusedComputeAtExampleAllocatesWholeBuffer) {
    // The PassUpDomain limitation of seed 002: B (64 x 64) realized whole inside the fused
    // outer loop of C gives `allocate B[int32 * 4096]`.
    Tensor b = makeTensor("B", {64, 64}, DataType::int32());
    Tensor c = makeTensor("C", {64, 64}, DataType::int32());
    Var outer("i.j.fused.outer"), inner("i.j.fused.inner"), i("i"), j("j");
    Stmt storeB = ProducerStoreNode::make(b, i + j, {i, j});
    Stmt produceB = produce(b, ForNode::make(i, 0, 64, ForKind::Serial,
                                             ForNode::make(j, 0, 64, ForKind::Serial, storeB)));
    Expr fused = outer * 8 + inner;
    Expr ci = floordiv(fused, 64), cj = floormod(fused, 64);
    Stmt storeC = ForNode::make(inner, 0, 8, ForKind::Serial,
                                ProducerStoreNode::make(c, b({ci, cj}), {ci, cj}));
    Stmt realizeB = realizeScope(b, "",
                                 ProducerRealizeNode::make(b, {Range(0, 64), Range(0, 64)}, Expr(),
                                                           SeqNode::make({produceB, storeC})));
    Stmt program = produce(c, ForNode::make(outer, 0, 512, ForKind::Serial, realizeB));
    EXPECT_EQ(toString(storageFlatten(program, {c}).body), R"(produce C {
  for (i.j.fused.outer, 0, 512) {
    // attr [B] storage_scope = "global"
    allocate B[int32 * 4096]
    produce B {
      for (i, 0, 64) {
        for (j, 0, 64) {
          B[((i*64) + j)] = (i + j)
        }
      }
    }
    for (i.j.fused.inner, 0, 8) {
      C[((floordiv(((i.j.fused.outer*8) + i.j.fused.inner), 64)*64) + floormod(((i.j.fused.outer*8) + i.j.fused.inner), 64))] = B[((floordiv(((i.j.fused.outer*8) + i.j.fused.inner), 64)*64) + floormod(((i.j.fused.outer*8) + i.j.fused.inner), 64))]
    }
  }
}
)");
}

TEST(StorageFlatten, SequentialRealizesOfOneTensorUseTheirOwnRegions) {
    Tensor t = makeTensor("T", {10}, DataType::int32());
    Stmt first = ProducerRealizeNode::make(t, {Range(2, 3)}, Expr(),
                                           ProducerStoreNode::make(t, Expr(1), {Expr(3)}));
    Stmt second = ProducerRealizeNode::make(t, {Range(5, 1)}, Expr(),
                                            ProducerStoreNode::make(t, Expr(2), {Expr(5)}));
    FlattenResult r = storageFlatten(SeqNode::make({first, second}));
    EXPECT_EQ(toString(r.body), R"(// attr [T] storage_scope = "global"
allocate T[int32 * 3]
T[1] = 1
// attr [T] storage_scope = "global"
allocate T[int32 * 1]
T[0] = 2
)");
    ASSERT_EQ(r.allocations.size(), 2u);
    EXPECT_FALSE(r.allocations[0].second.same_as(r.allocations[1].second));
}

TEST(StorageFlatten, AccessToUnknownTensorIsAUserError) {
    Tensor a = makeTensor("A", {4});
    Tensor c = makeTensor("C", {4});
    Stmt store = ProducerStoreNode::make(c, a({Expr(0)}), {Expr(0)});
    try {
        storageFlatten(store, {c});
        FAIL() << "expected a UserError";
    } catch (const UserError& e) {
        EXPECT_EQ(
            std::string(e.what()),
            "lowering: tensor 'A' is accessed but neither realized nor passed as an argument");
    }
}

TEST(StorageFlatten, FlattenedSharedStageComputesTheSeedValues) {
    SharedStageProgram p;
    FlattenResult r = storageFlatten(p.build("shared"), {p.a, p.c});
    MiniInterpreter interp;
    std::vector<double> a(200 * 400);
    for (size_t k = 0; k < a.size(); ++k)
        a[k] = double(k % 97) - 40.0;
    interp.setBuffer(r.bufferOf(p.a), a);
    interp.setBuffer(r.bufferOf(p.c), std::vector<double>(100 * 200, -1.0));
    interp.run(r.body);
    const std::vector<double>& c = interp.buffer(r.bufferOf(p.c));
    for (size_t i = 0; i < 100; ++i) {
        for (size_t j = 0; j < 200; ++j)
            ASSERT_DOUBLE_EQ(c[i * 200 + j], 2.72f * (3.14f * a[i * 400 + j])) << i << ", " << j;
    }
}

namespace {

TEST(StorageFlattenAlign, StridesArePaddedInnermostFirstAsTvmPadsThem) {
    auto text = [](const std::vector<Expr>& strides) {
        std::string out;
        for (const Expr& s : strides)
            out += (out.empty() ? "" : ",") + toString(s);
        return out;
    };
    Expr elements;
    // 8 rows of 16, rows aligned to 16k + 8: a stride of 24, 192 elements.
    EXPECT_EQ(text(alignedStrides({Expr(8), Expr(16)}, {DimAlign{16, 8}, DimAlign{}}, &elements)),
              "24,1");
    EXPECT_EQ(toString(elements), "192");
    // Already aligned: nothing added; no alignment: row-major.
    EXPECT_EQ(text(alignedStrides({Expr(4), Expr(33)}, {DimAlign{32, 1}}, &elements)), "33,1");
    EXPECT_EQ(text(alignedStrides({Expr(2), Expr(3), Expr(5)}, {}, &elements)), "15,5,1");
    EXPECT_EQ(toString(elements), "30");
    // Two aligned dimensions: the inner one first, the outer over the padded inner.
    EXPECT_EQ(text(alignedStrides({Expr(2), Expr(3), Expr(5)}, {DimAlign{8, 0}, DimAlign{4, 3}},
                                  &elements)),
              "24,7,1"); // 5 -> 7 (4k + 3), then 21 -> 24 (8k)
    EXPECT_EQ(toString(elements), "48");
}

TEST(StorageFlattenAlign, ABufferDimAlignAttrPadsTheAllocationAndTheIndices) {
    Tensor a = makeTensor("A", {8, 16});
    Tensor b = makeTensor("B", {8, 16});
    Tensor c = makeTensor("C", {8, 16});
    Var i("i"), j("j");
    Stmt storeB = ProducerStoreNode::make(b, a({i, j}), {i, j});
    Stmt storeC = ProducerStoreNode::make(c, b({i, j}), {i, j});
    Stmt loops =
        ForNode::make(i, 0, 8, ForKind::Serial, ForNode::make(j, 0, 16, ForKind::Serial, storeB));
    Stmt useLoops =
        ForNode::make(i, 0, 8, ForKind::Serial, ForNode::make(j, 0, 16, ForKind::Serial, storeC));
    Stmt realize = ProducerRealizeNode::make(b, {Range(0, 8), Range(0, 16)}, Expr(),
                                             SeqNode::make({loops, useLoops}), "");
    Expr tuple = CallNode::make(DataType::handle(), "tvm_tuple", {Expr(0), Expr(16), Expr(8)},
                                CallKind::Intrinsic);
    Stmt program = AttrStmtNode::make(b.op, attr::kBufferDimAlign, tuple, realize);
    std::string flat = toString(storageFlatten(program, {a, c}).body);
    EXPECT_NE(flat.find("allocate B[float32 * 192]"), std::string::npos) << flat;
    EXPECT_NE(flat.find("B[((i*24) + j)]"), std::string::npos) << flat;
    EXPECT_EQ(flat.find("buffer_dim_align"), std::string::npos) << flat;
}

} // namespace

TEST(StorageFlatten, ABufferPastItsIndexTypeIsAUserErrorNotAWrappedSize) {
    // 65536 x 65536 elements in int32: the size folded to 0 (`allocate B[float32 * 0]`) and
    // the flat index wrapped. In int64 the same program lowers.
    for (DataType type : {DataType::int32(), DataType::int64()}) {
        const Expr n = makeConst(type, int64_t(65536));
        Tensor a = placeholder({n, n}, DataType::float32(), "A");
        Tensor b = compute(
            {n, n},
            [&](const std::vector<Var>& v) {
                return a({v[0], v[1]}) * Expr(2.0f);
            },
            "B");
        Tensor c = compute(
            {n, n},
            [&](const std::vector<Var>& v) {
                return b({v[0], v[1]}) + Expr(1.0f);
            },
            "C");
        Schedule s = createSchedule(c.op);
        if (type.bits() == 64) {
            EXPECT_NE(toString(lower(s, {a, c}).func.final)
                          .find("allocate B[float32 * (int64)4294967296]"),
                      std::string::npos);
            continue;
        }
        try {
            lower(s, {a, c});
            ADD_FAILURE() << "lowered";
        } catch (const UserError& e) {
            EXPECT_EQ(std::string(e.what()),
                      "'A' has 4294967296 elements (65536 x 65536), more than its int32 index "
                      "reaches: give its shape in int64 (tvm.tir.const(65536, \"int64\"))");
        }
    }
}

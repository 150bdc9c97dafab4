// ScheduleOps golden listings: the seed's Ex. 4 and Ex. 6/7/8 IR after schedule_ops, line by line
// (TVM prints `compute(C, 0x...)`; we print `compute(C)`).
#include "engine/WarpPair.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "lower/Lower.h"
#include "te/Compute.h"
#include "te/Reduce.h"

#include <gtest/gtest.h>

using namespace bs;

namespace {

Expr f32(double v) { return makeConst(DataType::float32(), v); }

std::string lowered(const Schedule& s, const std::vector<Tensor>& args, LowerPass pass,
                    BoundRules rules = BoundRules::Tvm, bool keepTrivialLoops = false) {
    LowerOptions options;
    options.rules = rules;
    options.keepTrivialLoops = keepTrivialLoops;
    return toString(lower(s, args, options).func.after(pass));
}

struct Ex4 {
    Tensor C =
        compute({5, 16}, [](const std::vector<Var>&) { return Expr(5); }, "C", "", {"i", "j"});
    Tensor D = compute({4, 5, 16},
                       [this](const std::vector<Var>& v) {
                           return C({v[1], v[2]}) * 2;
                       },
                       "D", "", {"di", "dj", "dk"});
    Schedule s = createSchedule(D.op);
    Ex4() { s[C].computeAt(s[D], D.op.as<ComputeOpNode>()->axis[2]); }
};

struct SharedExample {
    Tensor A = placeholder({200, 400}, DataType::float32(), "A");
    Tensor B = compute({200, 400},
                       [this](const std::vector<Var>& v) {
                           return f32(3.14) * A({v[0], v[1]});
                       },
                       "B", "", {"i", "j"});
    Tensor C = compute({100, 200},
                       [this](const std::vector<Var>& v) {
                           return f32(2.72) * B({v[0], v[1]});
                       },
                       "C", "", {"i", "j"});
    Schedule s = createSchedule(C.op);
    SharedExample(bool setShared, bool attachAtJ) {
        IterVar blockX = threadAxis("blockIdx.x"), threadX = threadAxis("threadIdx.x");
        const auto* c = C.op.as<ComputeOpNode>();
        s[C].bind(c->axis[0], blockX);
        s[C].bind(c->axis[1], threadX);
        if (setShared)
            s[B].setScope("shared");
        s[B].computeAt(s[C], attachAtJ ? c->axis[1] : c->axis[0]);
        s[B].bind(B.op.as<ComputeOpNode>()->axis[1], threadX);
    }
};

} // namespace

TEST(ScheduleOps, Ex4RealizesOnePointOfC) {
    Ex4 ex;
    EXPECT_EQ(lowered(ex.s, {ex.D}, LowerPass::ScheduleOps),
              R"(// attr [compute(D)] realize_scope = ""
realize D([0, 4], [0, 5], [0, 16]) {
  produce D {
    for (di, 0, 4) {
      for (dj, 0, 5) {
        for (dk, 0, 16) {
          // attr [compute(C)] realize_scope = ""
          realize C([dj, 1], [dk, 1]) {
            produce C {
              C(dj, dk) =5
            }
            D(di, dj, dk) =(C(dj, dk)*2)
          }
        }
      }
    }
  }
}
)");
}

TEST(ScheduleOps, Ex4KeepsTrivialLoopsWhenAsked) {
    Ex4 ex;
    EXPECT_EQ(lowered(ex.s, {ex.D}, LowerPass::ScheduleOps, BoundRules::Tvm, true),
              R"(// attr [compute(D)] realize_scope = ""
realize D([0, 4], [0, 5], [0, 16]) {
  produce D {
    for (di, 0, 4) {
      for (dj, 0, 5) {
        for (dk, 0, 16) {
          // attr [compute(C)] realize_scope = ""
          realize C([dj, 1], [dk, 1]) {
            produce C {
              for (i, 0, 1) {
                for (j, 0, 1) {
                  C((i + dj), (j + dk)) =5
                }
              }
            }
            D(di, dj, dk) =(C(dj, dk)*2)
          }
        }
      }
    }
  }
}
)");
}

TEST(ScheduleOps, Ex6RealizesSharedRowPerBlock) {
    SharedExample ex(true, false);
    EXPECT_EQ(lowered(ex.s, {ex.A, ex.C}, LowerPass::ScheduleOps),
              R"(// attr [compute(C)] realize_scope = ""
realize C([0, 100], [0, 200]) {
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

TEST(ScheduleOps, WarpStorageIsSharedByThreadIdxXOnly) {
    // TVM's MakeLoopNest (and NeedRelax): the lanes of a warp are threadIdx.x; threadIdx.y and
    // .z are different warps (TVM warns), blockIdx different blocks. A warp stage's loop bound
    // to threadIdx.y stands at its min, as InferBound's region assumes.
    test::WarpPair w;
    w.s[w.B].setScope("warp");
    w.s[w.B].bind(w.axis(w.B)[0], threadAxis("threadIdx.y"));
    w.s[w.B].bind(w.axis(w.B)[1], threadAxis("threadIdx.x"));
    std::string ir = lowered(w.s, {w.A, w.C}, LowerPass::ScheduleOps);
    EXPECT_NE(ir.find("B(0, threadIdx.x) =("), std::string::npos) << ir;
}

TEST(ScheduleOps, Ex7DropsTheNestedDuplicateThreadExtent) {
    SharedExample ex(true, true);
    EXPECT_EQ(lowered(ex.s, {ex.A, ex.C}, LowerPass::ScheduleOps),
              R"(// attr [compute(C)] realize_scope = ""
realize C([0, 100], [0, 200]) {
  produce C {
    // attr [iter_var(blockIdx.x, , blockIdx.x)] thread_extent = 100
    // attr [iter_var(threadIdx.x, , threadIdx.x)] thread_extent = 200
    // attr [compute(B)] realize_scope = "shared"
    realize B([blockIdx.x, 1], [0, 200]) {
      produce B {
        B(blockIdx.x, threadIdx.x) =(3.140000f*A(blockIdx.x, threadIdx.x))
      }
      C(blockIdx.x, threadIdx.x) =(2.720000f*B(blockIdx.x, threadIdx.x))
    }
  }
}
)");
}

TEST(ScheduleOps, Ex8LeavesTheInferredScopeEmpty) {
    SharedExample ex(false, false);
    EXPECT_EQ(lowered(ex.s, {ex.A, ex.C}, LowerPass::ScheduleOps),
              R"(// attr [compute(C)] realize_scope = ""
realize C([0, 100], [0, 200]) {
  produce C {
    // attr [iter_var(blockIdx.x, , blockIdx.x)] thread_extent = 100
    // attr [compute(B)] realize_scope = ""
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

namespace {
struct FuseExample {
    Tensor B = compute({64, 64}, [](const std::vector<Var>& v) { return v[0] + v[1]; }, "B", "",
                       {"i", "j"});
    Tensor C = compute({64, 64},
                       [this](const std::vector<Var>& v) {
                           return B({v[0], v[1]});
                       },
                       "C", "", {"i", "j"});
    Schedule s = createSchedule(C.op);
    FuseExample() {
        const auto* c = C.op.as<ComputeOpNode>();
        IterVar fused = s[C].fuse(c->axis[0], c->axis[1]);
        auto [outer, inner] = s[C].splitByNParts(fused, 512);
        s[B].computeAt(s[C], outer);
    }
};

std::string allocateLine(const std::string& listing) {
    auto pos = listing.find("allocate ");
    return pos == std::string::npos ? "" : listing.substr(pos, listing.find('\n', pos) - pos);
}
} // namespace

TEST(ScheduleOps, FuseExampleAllocatesTheWholeProducerUnderTvm05) {
    FuseExample ex;
    std::string ir = lowered(ex.s, {ex.C}, LowerPass::Simplify, BoundRules::Tvm05);
    EXPECT_EQ(allocateLine(ir), "allocate B[int32 * 4096]");
    EXPECT_NE(ir.find("B[((i*64) + j)] = (i + j)"), std::string::npos) << ir;
    EXPECT_NE(ir.find("C[((i.j.fused.outer*8) + i.j.fused.inner)] = B[((i.j.fused.outer*8) + "
                      "i.j.fused.inner)]"),
              std::string::npos)
        << ir;
}

TEST(ScheduleOps, FuseExampleAllocatesOneRowSegmentUnderTvm) {
    FuseExample ex;
    std::string ir = lowered(ex.s, {ex.C}, LowerPass::Simplify, BoundRules::Tvm);
    EXPECT_EQ(allocateLine(ir), "allocate B[int32 * 8]") << ir;
}

TEST(ScheduleOps, ReductionInitIsPlacedBeforeTheReduceLoop) {
    Tensor A = placeholder({4, 8}, DataType::float32(), "A");
    IterVar k = reduceAxis(Range(0, 8), "k");
    Tensor B = compute({4},
                       [&](const std::vector<Var>& v) {
                           return sum(A({v[0], k->var}), k);
                       },
                       "B", "", {"i"});
    Schedule s = createSchedule(B.op);
    EXPECT_EQ(lowered(s, {A, B}, LowerPass::ScheduleOps), R"(// attr [compute(B)] realize_scope = ""
realize B([0, 4]) {
  produce B {
    for (i, 0, 4) {
      B(i) =0.000000f
      for (k, 0, 8) {
        B(i) =(B(i) + A(i, k))
      }
    }
  }
}
)");
}

TEST(ScheduleOps, SplitThatDoesNotDivideGetsOneLikelyCheck) {
    Tensor A = placeholder({20}, DataType::float32(), "A");
    Tensor B = compute({20}, [&](const std::vector<Var>& v) { return A({v[0]}) * f32(2); }, "B", "",
                       {"i"});
    Schedule s = createSchedule(B.op);
    s[B].split(B.op.as<ComputeOpNode>()->axis[0], 16);
    EXPECT_EQ(lowered(s, {A, B}, LowerPass::ScheduleOps), R"(// attr [compute(B)] realize_scope = ""
realize B([0, 20]) {
  produce B {
    for (i.outer, 0, 2) {
      for (i.inner, 0, 16) {
        if (likely(((i.inner + (i.outer*16)) < 20))) {
          B((i.inner + (i.outer*16))) =(A((i.inner + (i.outer*16)))*2.000000f)
        }
      }
    }
  }
}
)");
}

TEST(ScheduleOps, ANestOfAttachedStagesPutsEachInsideItsConsumer) {
    // 40 stages, each computed at its consumer's row loop: one walk injects them all (issue 19),
    // each inside the loop of the stage that reads it, and a step names a path that deep by its
    // ends.
    constexpr int kStages = 40;
    std::vector<Tensor> ts = {placeholder({8, 8}, DataType::float32(), "s0")};
    for (int k = 1; k <= kStages; ++k) {
        const Tensor in = ts.back();
        ts.push_back(compute(
            {8, 8},
            [in](const std::vector<Var>& v) {
                return in({v[0], v[1]}) + f32(1);
            },
            "s" + std::to_string(k)));
    }
    Schedule s = createSchedule(ts.back().op);
    for (int k = 1; k < kStages; ++k)
        s[ts[size_t(k)]].computeAt(s[ts[size_t(k) + 1]],
                                   ts[size_t(k) + 1].op.as<ComputeOpNode>()->axis[0]);
    const LowerResult r = lower(s, {ts.front(), ts.back()});
    const std::string ir = toString(r.func.afterScheduleOps);
    // Each producer's `produce` block is indented deeper than its consumer's.
    auto indentOf = [&](int k) {
        const std::string mark = "produce s" + std::to_string(k) + " {";
        const size_t at = ir.find(mark);
        EXPECT_NE(at, std::string::npos) << mark;
        const size_t lineStart = ir.rfind('\n', at);
        return at - (lineStart == std::string::npos ? 0 : lineStart + 1);
    };
    for (int k = 1; k < kStages; ++k)
        EXPECT_GT(indentOf(k), indentOf(k + 1)) << k;
    // s1's consumer s2 runs inside 38 loops of the stages around it.
    bool named = false;
    for (const BoundStep& step : r.bounds.steps.all())
        if (step.phase == StepPhase::Consumer && step.stage.defined() && step.stage->name == "s1")
            named |= step.text.find("… (") != std::string::npos &&
                     step.text.find(" more)") != std::string::npos;
    EXPECT_TRUE(named);
}

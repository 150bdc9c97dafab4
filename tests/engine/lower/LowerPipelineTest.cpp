// The lowering pipeline pass by pass (issue 4, items 1 and 2): golden listings after each of
// schedule_ops, flatten, simplify, cse and final for one program, the pass names, bound checks
// of nested splits that do not divide (each once), and reduction inits placed as TVM places
// them when the schedule moves reduce loops around.
#include "ir/Op.h"
#include "ir/Printer.h"
#include "lower/Lower.h"
#include "te/Compute.h"
#include "te/Reduce.h"

#include <gtest/gtest.h>

using namespace bs;

namespace {

Expr f32(double v) { return makeConst(DataType::float32(), v); }
const ComputeOpNode* opOf(const Tensor& t) { return t.op.as<ComputeOpNode>(); }

/// B = A * 2 computed at C's outer loop of a split by 3 that does not divide 10, the inner
/// loop unrolled; C reads B(i + 1) twice, so CSE has an index to share.
struct Pipeline {
    Tensor A = placeholder({11}, DataType::float32(), "A");
    Tensor B = compute({11}, [this](const std::vector<Var>& v) { return A({v[0]}) * f32(2); }, "B",
                       "", {"i"});
    Tensor C = compute(
        {10},
        [this](const std::vector<Var>& v) { return B({v[0]}) + B({v[0] + 1}) * B({v[0] + 1}); },
        "C", "", {"i"});
    Schedule s = createSchedule(C.op);
    LowerResult result;
    Pipeline() {
        auto [outer, inner] = s[C].split(opOf(C)->axis[0], 3);
        s[B].computeAt(s[C], outer);
        s[C].unroll(inner);
        result = lower(s, {A, C});
    }
    std::string after(LowerPass pass) const { return toString(result.func.after(pass)); }
};

} // namespace

TEST(LowerPipeline, PassNamesRoundTrip) {
    for (LowerPass p : {LowerPass::ScheduleOps, LowerPass::Flatten, LowerPass::Simplify,
                        LowerPass::Cse, LowerPass::Final})
        EXPECT_EQ(parseLowerPass(lowerPassName(p)), p);
    EXPECT_EQ(std::string(lowerPassName(LowerPass::ScheduleOps)), "schedule_ops");
    EXPECT_EQ(parseLowerPass("storage_flatten"), std::nullopt);
}

TEST(LowerPipeline, ScheduleOpsListing) {
    EXPECT_EQ(Pipeline().after(LowerPass::ScheduleOps), R"(// attr [compute(C)] realize_scope = ""
realize C([0, 10]) {
  produce C {
    for (i.outer, 0, 4) {
      // attr [compute(B)] realize_scope = ""
      realize B([(i.outer*3), 4]) {
        produce B {
          for (i, 0, 4) {
            if (likely(((i + (i.outer*3)) < 11))) {
              B((i + (i.outer*3))) =(A((i + (i.outer*3)))*2.000000f)
            }
          }
        }
        unrolled (i.inner, 0, 3) {
          if (likely(((i.inner + (i.outer*3)) < 10))) {
            C((i.inner + (i.outer*3))) =(B((i.inner + (i.outer*3))) + (B(((i.inner + (i.outer*3)) + 1))*B(((i.inner + (i.outer*3)) + 1))))
          }
        }
      }
    }
  }
}
)");
}

TEST(LowerPipeline, FlattenListing) {
    EXPECT_EQ(Pipeline().after(LowerPass::Flatten), R"(produce C {
  for (i.outer, 0, 4) {
    // attr [B] storage_scope = "global"
    allocate B[float32 * 4]
    produce B {
      for (i, 0, 4) {
        if (likely(((i + (i.outer*3)) < 11))) {
          B[((i + (i.outer*3)) - (i.outer*3))] = (A[(i + (i.outer*3))]*2.000000f)
        }
      }
    }
    unrolled (i.inner, 0, 3) {
      if (likely(((i.inner + (i.outer*3)) < 10))) {
        C[(i.inner + (i.outer*3))] = (B[((i.inner + (i.outer*3)) - (i.outer*3))] + (B[(((i.inner + (i.outer*3)) + 1) - (i.outer*3))]*B[(((i.inner + (i.outer*3)) + 1) - (i.outer*3))]))
      }
    }
  }
}
)");
}

TEST(LowerPipeline, SimplifyListing) {
    EXPECT_EQ(Pipeline().after(LowerPass::Simplify), R"(produce C {
  for (i.outer, 0, 4) {
    // attr [B] storage_scope = "global"
    allocate B[float32 * 4]
    produce B {
      for (i, 0, 4) {
        if (likely((((i.outer*3) + i) < 11))) {
          B[i] = (A[((i.outer*3) + i)]*2.000000f)
        }
      }
    }
    unrolled (i.inner, 0, 3) {
      if (likely((((i.outer*3) + i.inner) < 10))) {
        C[((i.outer*3) + i.inner)] = (B[i.inner] + (B[(i.inner + 1)]*B[(i.inner + 1)]))
      }
    }
  }
}
)");
}

TEST(LowerPipeline, CseListing) {
    EXPECT_EQ(Pipeline().after(LowerPass::Cse), R"(produce C {
  for (i.outer, 0, 4) {
    // attr [B] storage_scope = "global"
    allocate B[float32 * 4]
    produce B {
      for (i, 0, 4) {
        if (likely((((i.outer*3) + i) < 11))) {
          B[i] = (A[((i.outer*3) + i)]*2.000000f)
        }
      }
    }
    unrolled (i.inner, 0, 3) {
      if (likely((((i.outer*3) + i.inner) < 10))) {
        let cse_var_1 = (i.inner + 1)
        C[((i.outer*3) + i.inner)] = (B[i.inner] + (B[cse_var_1]*B[cse_var_1]))
      }
    }
  }
}
)");
}

TEST(LowerPipeline, FinalListing) {
    EXPECT_EQ(Pipeline().after(LowerPass::Final), R"(produce C {
  for (i.outer, 0, 4) {
    // attr [B] storage_scope = "global"
    allocate B[float32 * 4]
    produce B {
      for (i, 0, 4) {
        if (likely((((i.outer*3) + i) < 11))) {
          B[i] = (A[((i.outer*3) + i)]*2.000000f)
        }
      }
    }
    C[(i.outer*3)] = (B[0] + (B[1]*B[1]))
    if (likely((i.outer < 3))) {
      C[((i.outer*3) + 1)] = (B[1] + (B[2]*B[2]))
    }
    if (likely((i.outer < 3))) {
      C[((i.outer*3) + 2)] = (B[2] + (B[3]*B[3]))
    }
  }
}
)");
}

TEST(LowerPipeline, NestedSplitsThatDoNotDivideGetOneCheckEach) {
    Tensor A = placeholder({10}, DataType::float32(), "A");
    Tensor B = compute({10}, [&](const std::vector<Var>& v) { return A({v[0]}) + f32(1); }, "B", "",
                       {"i"});
    Schedule s = createSchedule(B.op);
    auto [outer, inner] = s[B].split(opOf(B)->axis[0], 4);
    s[B].split(outer, 2);
    EXPECT_EQ(toString(lower(s, {A, B}).func.afterScheduleOps),
              R"(// attr [compute(B)] realize_scope = ""
realize B([0, 10]) {
  produce B {
    for (i.outer.outer, 0, 2) {
      for (i.outer.inner, 0, 2) {
        for (i.inner, 0, 4) {
          if (likely(((i.inner + ((i.outer.inner + (i.outer.outer*2))*4)) < 10))) {
            if (likely(((i.outer.inner + (i.outer.outer*2)) < 3))) {
              B((i.inner + ((i.outer.inner + (i.outer.outer*2))*4))) =(A((i.inner + ((i.outer.inner + (i.outer.outer*2))*4))) + 1.000000f)
            }
          }
        }
      }
    }
  }
}
)");
}

TEST(LowerPipeline, ReductionInitGoesBeforeTheFirstLoopOverAReduceAxis) {
    Tensor A = placeholder({8, 6}, DataType::float32(), "A");
    IterVar k = reduceAxis(Range(0, 6), "k");
    Tensor B = compute({8},
                       [&](const std::vector<Var>& v) {
                           return sum(A({v[0], k->var}), k);
                       },
                       "B", "", {"i"});
    Schedule s = createSchedule(B.op);
    auto [outer, inner] = s[B].split(opOf(B)->axis[0], 4);
    auto [ko, ki] = s[B].split(k, 4);
    s[B].reorder({outer, ko, inner, ki});
    EXPECT_EQ(toString(lower(s, {A, B}).func.afterScheduleOps),
              R"(// attr [compute(B)] realize_scope = ""
realize B([0, 8]) {
  produce B {
    for (i.outer, 0, 2) {
      for (i.inner.init, 0, 4) {
        B((i.inner.init + (i.outer*4))) =0.000000f
      }
      for (k.outer, 0, 2) {
        for (i.inner, 0, 4) {
          for (k.inner, 0, 4) {
            if (likely(((k.inner + (k.outer*4)) < 6))) {
              B((i.inner + (i.outer*4))) =(B((i.inner + (i.outer*4))) + A((i.inner + (i.outer*4)), (k.inner + (k.outer*4))))
            }
          }
        }
      }
    }
  }
}
)");
}

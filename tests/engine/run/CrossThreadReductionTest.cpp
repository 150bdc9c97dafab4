// Cross-thread reductions (issue 14, item 1): a reduce axis bound to a thread lowers to
// tvm_thread_allreduce, whose device code (warp shuffles or a shared-memory tree) the GPU
// emulation runs and the CUDA code generator prints. Each schedule is checked in emulation
// against the unscheduled program, and on the GPU where there is one.
#include "run/RunKernel.h"

#include "ir/Op.h"
#include "ir/Printer.h"
#include "runtime/CudaRuntime.h"
#include "te/Compute.h"
#include "te/Operation.h"
#include "te/Reduce.h"

#include <gtest/gtest.h>

using namespace bs;

namespace {

const ComputeOpNode* computeOf(const Stage& stage) { return stage->op.as<ComputeOpNode>(); }

/// A schedule to lower, with the sizes of its symbolic shapes.
struct Program {
    Schedule s;
    std::vector<Tensor> args;
    std::map<std::string, int64_t> sizes;
    LowerResult lowered() const { return lower(s, args); }
};

/// TVM's reduction tutorial: B[i] = sum_k A[i, k] for symbolic n x m, k split by 16 and
/// rfactored, the partial sums reduced across threadIdx.x, the rows on threadIdx.y, and only
/// thread 0 storing (set_store_predicate).
Program tutorial() {
    Var n = sizeVar("n"), m = sizeVar("m");
    Tensor a = placeholder({n, m}, DataType::float32(), "A");
    IterVar k = reduceAxis(Range(0, m), "k");
    Tensor b = compute(
        {n},
        [&](const std::vector<Var>& v) {
            return sum(a({v[0], k}), k);
        },
        "B");
    Schedule s = createSchedule(b.op);
    IterVar ki = s[b].split(k, 16).second;
    Tensor bf = s.rfactor(b, ki).at(0);
    auto [xo, xi] = s[b].split(computeOf(s[b])->axis[0], 32);
    s[b].bind(xo, threadAxis("blockIdx.x"));
    s[b].bind(xi, threadAxis("threadIdx.y"));
    IterVar tx = threadAxis("threadIdx.x");
    IterVar reduceLeaf = computeOf(s[b])->reduceAxis[0];
    s[b].bind(reduceLeaf, tx);
    s[bf].computeAt(s[b], reduceLeaf);
    s[b].setStorePredicate(eq(tx->var, 0));
    return {s, {a, b}, {{"n", 70}, {"m", 37}}};
}

/// Repro 01b: one row of 64 split by 16, the inner part on threadIdx.x, no rfactor.
Program splitBind() {
    Tensor a = placeholder({1, 64}, DataType::float32(), "A");
    IterVar k = reduceAxis(Range(0, 64), "k");
    Tensor b = compute(
        {1},
        [&](const std::vector<Var>& v) {
            return sum(a({v[0], k}), k);
        },
        "B");
    Schedule s = createSchedule(b.op);
    IterVar ki = s[b].split(k, 16).second;
    s[b].bind(ki, threadAxis("threadIdx.x"));
    s[b].bind(computeOf(s[b])->axis[0], threadAxis("blockIdx.x"));
    return {s, {a, b}, {}};
}

/// A two-value reducer (argmax over index and value pairs) across 32 threads.
Program argmax() {
    Reducer reducer = commReducer(
        [](const std::vector<Var>& x, const std::vector<Var>& y) {
            Expr keep = x[1] >= y[1];
            return std::vector<Expr>{select(keep, x[0], y[0]), select(keep, x[1], y[1])};
        },
        [](const std::vector<DataType>& t) {
            return std::vector<Expr>{makeConst(t[0], int64_t(-1)), minValue(t[1])};
        },
        "argmax");
    Tensor idx = placeholder({12, 100}, DataType::int32(), "idx");
    Tensor val = placeholder({12, 100}, DataType::float32(), "val");
    IterVar k = reduceAxis(Range(0, 100), "k");
    std::vector<Tensor> t = computeMulti(
        {12},
        [&](const std::vector<Var>& v) {
            return reducer({idx({v[0], k}), val({v[0], k})}, {k});
        },
        "T");
    Schedule s = createSchedule(t[0].op);
    IterVar ki = s[t[0]].split(k, 32).second;
    s[t[0]].bind(ki, threadAxis("threadIdx.x"));
    s[t[0]].bind(computeOf(s[t[0]])->axis[0], threadAxis("blockIdx.x"));
    return {s, {idx, val, t[0], t[1]}, {}};
}

/// A max over 100 elements on 24 threads (not a power of two: the shared-memory tree), each
/// folding 5 elements first, the last threads past the end of the row.
Program sharedTree() {
    Tensor a = placeholder({6, 100}, DataType::float32(), "A");
    IterVar k = reduceAxis(Range(0, 100), "k");
    Tensor b = compute(
        {6},
        [&](const std::vector<Var>& v) {
            return max(a({v[0], k}), k);
        },
        "B");
    Schedule s = createSchedule(b.op);
    IterVar ko = s[b].splitByNParts(k, 24).first;
    s[b].bind(ko, threadAxis("threadIdx.x"));
    s[b].bind(computeOf(s[b])->axis[0], threadAxis("blockIdx.x"));
    return {s, {a, b}, {}};
}

/// A sum over two reduce axes bound to threadIdx.y (64) and threadIdx.x (8): a tree over
/// 512 threads.
Program twoThreadAxes() {
    Tensor c = placeholder({5, 64, 8}, DataType::float32(), "C");
    IterVar r = reduceAxis(Range(0, 64), "r"), q = reduceAxis(Range(0, 8), "q");
    Tensor d = compute(
        {5},
        [&](const std::vector<Var>& v) {
            return sum(c({v[0], r, q}), {r, q});
        },
        "D");
    Schedule s = createSchedule(d.op);
    s[d].bind(r, threadAxis("threadIdx.y"));
    s[d].bind(q, threadAxis("threadIdx.x"));
    s[d].bind(computeOf(s[d])->axis[0], threadAxis("blockIdx.x"));
    return {s, {c, d}, {}};
}

/// float64, a split that does not divide (50 over 16 threads), a where= condition on the
/// reduce axis, an init= value, and two rows per warp (threadIdx.y beside a 16-lane reduction).
Program whereAndInit() {
    Tensor a = placeholder({8, 50}, DataType::float64(), "A");
    Tensor init = placeholder({8}, DataType::float64(), "S");
    IterVar k = reduceAxis(Range(0, 50), "k");
    Tensor b = compute(
        {8},
        [&](const std::vector<Var>& v) {
            return sum(a({v[0], k}), {k}, ne(floormod(k->var, 3), 1), init({v[0]}));
        },
        "B");
    Schedule s = createSchedule(b.op);
    auto [ko, ki] = s[b].split(k, 16);
    auto [io, ii] = s[b].split(computeOf(s[b])->axis[0], 4);
    s[b].reorder({io, ii, ki, ko});
    s[b].bind(io, threadAxis("blockIdx.x"));
    s[b].bind(ii, threadAxis("threadIdx.y"));
    s[b].bind(ki, threadAxis("threadIdx.x"));
    return {s, {a, init, b}, {}};
}

RunReport runOn(const Program& p, RunTarget target) {
    RunRequest request;
    request.target = target;
    request.repeat = 1;
    request.sizes = p.sizes;
    // Against the unscheduled program, not the interpreter running the same device code.
    request.interpreterCheckLimit = 0;
    return runKernel(p.lowered(), request);
}

struct Case {
    const char* name;
    Program (*make)();
    /// What the CUDA source must hold: the shuffles or the shared tree.
    const char* deviceCode;
};

const Case kCases[] = {
    {"tutorial", tutorial, "__shfl_down_sync(mask[0], red_buf0[0], 8, 16)"},
    {"split-bind", splitBind, "__shfl_down_sync(mask[0], red_buf0[0], 8, 16)"},
    {"argmax", argmax, "t1[0] = __shfl_down_sync(mask[0], red_buf1[0], 16, 32)"},
    {"shared-tree", sharedTree, "__shared__ float red_buf0[24];"},
    {"two-thread-axes", twoThreadAxes, "__shared__ float red_buf0[512];"},
    {"where-and-init", whereAndInit, "__shfl_down_sync(mask[0], red_buf0[0], 8, 16)"},
};

} // namespace

TEST(CrossThreadReduction, LowersToTvmThreadAllreduceAsTvmPrintsIt) {
    std::string ir = toString(tutorial().lowered().func.final);
    EXPECT_NE(ir.find("// attr [comm_reducer(result=[(x + y)], lhs=[x], rhs=[y], "
                      "identity_element=[0.000000f])] reduce_scope = reinterpret((uint64)0)"),
              std::string::npos)
        << ir;
    EXPECT_NE(
        ir.find("tvm_thread_allreduce((uint32)1, B.rf[0], (((blockIdx.x*32) + threadIdx.y) < n), "
                "reduce_temp0, threadIdx.x)"),
        std::string::npos)
        << ir;
    // The store: the rows in range (TVM leaves this guard out), then the store predicate.
    EXPECT_NE(ir.find("if (likely((((blockIdx.x*32) + threadIdx.y) < n))) {\n"
                      "    if ((threadIdx.x == 0)) {\n"
                      "      B[((blockIdx.x*32) + threadIdx.y)] = reduce_temp0[0]"),
              std::string::npos)
        << ir;
}

TEST(CrossThreadReduction, EveryCaseIsRightInEmulation) {
    for (const Case& c : kCases) {
        RunReport report = runOn(c.make(), RunTarget::Emulate);
        EXPECT_TRUE(report.passed) << c.name << ": " << report.checkDetail;
        EXPECT_EQ(report.reference.rfind("unscheduled program", 0), 0u) << report.reference;
    }
}

TEST(CrossThreadReduction, EveryCaseCompiledForTheCpuMatchesTheInterpreter) {
    if (!runHasLlvm())
        GTEST_SKIP() << "built without LLVM: the emulation interprets";
    for (const Case& c : kCases) {
        const Program p = c.make();
        RunRequest request;
        request.target = RunTarget::Emulate;
        request.repeat = 1;
        request.sizes = p.sizes;
        RunReport report = runKernel(p.lowered(), request);
        // Shuffles meet through exchange buffers, the tree at its barriers (lower/GpuOnCpu.h).
        EXPECT_NE(report.device.find("GPU emulation compiled by LLVM"), std::string::npos)
            << c.name << ": " << report.device;
        EXPECT_EQ(report.reference, "interpreter") << c.name;
        EXPECT_TRUE(report.passed) << c.name << ": " << report.checkDetail;
    }
}

TEST(CrossThreadReduction, CudaSourceHasTheShufflesOrTheTreeAndNoAllreduceCall) {
    for (const Case& c : kCases) {
        std::string source = printKernelCudaSource(c.make().lowered());
        EXPECT_NE(source.find(c.deviceCode), std::string::npos) << c.name << "\n" << source;
        EXPECT_EQ(source.find("tvm_thread_allreduce"), std::string::npos) << c.name;
    }
    // Every step of the tree ends with a barrier outside the condition: none in the warp.
    std::string tree = printKernelCudaSource(sharedTree().lowered());
    EXPECT_NE(tree.find("  if (((int)threadIdx.x) < 8) {\n"
                        "    red_buf0[((int)threadIdx.x)] = max(red_buf0[((int)threadIdx.x)], "
                        "red_buf0[(((int)threadIdx.x) + 16)]);\n"
                        "  }\n"
                        "  __syncthreads();"),
              std::string::npos)
        << tree;
}

TEST(CrossThreadReduction, EveryCaseIsRightOnTheGpu) {
    std::string reason;
    if (!CudaRuntime::isAvailable(&reason))
        GTEST_SKIP() << "no usable GPU: " << reason;
    for (const Case& c : kCases) {
        RunReport report = runOn(c.make(), RunTarget::Cuda);
        EXPECT_TRUE(report.passed) << c.name << ": " << report.checkDetail;
    }
}

TEST(CrossThreadReduction, TheCpuTargetRefusesIt) {
    try {
        runOn(splitBind(), RunTarget::Cpu);
        FAIL() << "expected an error";
    } catch (const UserError& e) {
        EXPECT_NE(std::string(e.what()).find("binds loops to GPU threads"), std::string::npos)
            << e.what();
    }
}

TEST(CrossThreadReduction, ADataAxisInsideTheThreadReductionIsRefusedAtTheBind) {
    Tensor a = placeholder({4, 64}, DataType::float32(), "A");
    IterVar k = reduceAxis(Range(0, 64), "k");
    Tensor b = compute(
        {4},
        [&](const std::vector<Var>& v) {
            return sum(a({v[0], k}), k);
        },
        "B");
    Schedule s = createSchedule(b.op);
    IterVar i = computeOf(s[b])->axis[0];
    s[b].reorder({k, i});
    s[b].bind(k, threadAxis("threadIdx.x"));
    try {
        lower(s, {a, b});
        FAIL() << "expected an error";
    } catch (const UserError& e) {
        EXPECT_NE(std::string(e.what()).find("the data axis 'i' comes after the reduce axis 'k' "
                                             "bound to threadIdx.x"),
                  std::string::npos)
            << e.what();
    }
}

// Extern stages (TVM's ExternOp, issue 15 item 2): bound inference asks an extern's inputs
// whole, ScheduleOps binds its buffers to the tensors (buffer_bind_scope) and StorageFlatten
// puts the tensors' buffers in its body; its tvm_call_packed runs a function from the packed
// registry on the CPU (LLVM JIT) and in the interpreter, checked like every other kernel.
#include "run/RunKernel.h"

#include "ir/Op.h"
#include "ir/Printer.h"
#include "runtime/PackedFunctions.h"
#include "te/Compute.h"
#include "te/Operation.h"

#include <gtest/gtest.h>

using namespace bs;

namespace {

Expr f32(double v) { return makeConst(DataType::float32(), v); }

ExternBuffer bufferFor(const std::string& name, const std::vector<Expr>& shape) {
    return ExternBuffer{
        name, Var(name, DataType::handle()), DataType::float32(), shape, {}, Expr(0), ""};
}

/// E = twice P, by the packed function "test.extern.twice"; P = A + 1; D reads E's first rows.
struct Pipeline {
    Tensor a = placeholder({16, 8}, DataType::float32(), "A");
    Tensor p = compute(
        {16, 8},
        [this](const std::vector<Var>& v) {
            return a({v[0], v[1]}) + f32(1.0);
        },
        "P");
    Tensor e;
    Tensor d;

    Pipeline() {
        ExternBuffer in = bufferFor("P", p.shape()), out = bufferFor("E", p.shape());
        auto array = [](const ExternBuffer& b) {
            Expr shape = CallNode::make(DataType::handle(), "tvm_stack_make_shape", b.shape,
                                        CallKind::Intrinsic);
            return CallNode::make(DataType::handle(), "tvm_stack_make_array",
                                  {b.data, shape, Expr(0), Expr(int(b.shape.size())),
                                   makeZero(b.dtype), b.elemOffset},
                                  CallKind::Intrinsic);
        };
        Expr call = CallNode::make(
            DataType::int32(), "tvm_call_packed",
            {StringImmNode::make("test.extern.twice"), array(in), array(out)}, CallKind::Intrinsic);
        e = ExternOpNode::make("E", "", {p}, {in}, {out}, EvaluateNode::make(call)).output(0);
        d = compute(
            {4, 8},
            [this](const std::vector<Var>& v) {
                return e({v[0], v[1]});
            },
            "D");
        registerPacked(
            "test.extern.twice",
            [](const std::vector<PackedArg>& args) {
                const PackedArray& from = args.at(0).asArray();
                const PackedArray& to = args.at(1).asArray();
                for (int64_t k = 0; k < from.size(); ++k)
                    static_cast<float*>(to.elements())[k] =
                        2 * static_cast<const float*>(from.elements())[k];
            },
            /*override=*/true);
    }
};

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

TEST(ExternRun, TheProducerOfAnExternIsComputedWholeWithAStepThatSaysWhy) {
    Pipeline pl;
    LowerResult lowered = lower(createSchedule(pl.d.op), {pl.a, pl.d});
    const IterVar& row = pl.p.op.as<ComputeOpNode>()->axis[0];
    EXPECT_EQ(toString(lowered.bounds.bounds.at(row)), "range(min=0, ext=16)");
    bool explained = false;
    for (const BoundStep& s : lowered.bounds.steps.all())
        explained = explained || (s.rule == "extern-input" && s.tensor.same_as(pl.p) &&
                                  contains(s.text, "needs P axis 0 whole"));
    EXPECT_TRUE(explained);
}

TEST(ExternRun, LoweringBindsTheBuffersToTheTensors) {
    Pipeline pl;
    LowerResult lowered = lower(createSchedule(pl.d.op), {pl.a, pl.d});
    std::string ops = toString(lowered.func.afterScheduleOps);
    EXPECT_TRUE(contains(ops, "buffer_bind_scope")) << ops;
    EXPECT_TRUE(contains(ops, "extern_scope")) << ops;
    EXPECT_TRUE(contains(ops, "realize E([0, 16], [0, 8])")) << ops;
    std::string body = toString(lowered.func.final);
    EXPECT_FALSE(contains(body, "buffer_bind_scope")) << body;
    EXPECT_TRUE(contains(body, "tvm_call_packed(\"test.extern.twice\", tvm_stack_make_array(P, "))
        << body;
}

TEST(ExternRun, ThePackedFunctionRunsOnTheCpuAndInTheInterpreter) {
    Pipeline pl;
    LowerResult lowered = lower(createSchedule(pl.d.op), {pl.a, pl.d});
    RunRequest request;
    request.repeat = 1;
    for (RunTarget target : {RunTarget::Cpu, RunTarget::Emulate}) {
        if (target == RunTarget::Cpu && !runHasLlvm())
            continue;
        request.target = target;
        RunReport report = runKernel(lowered, request);
        EXPECT_TRUE(report.checked) << runTargetName(target);
        EXPECT_TRUE(report.passed) << runTargetName(target) << ": " << report.checkDetail;
    }
}

TEST(ExternRun, AFailingOrMissingPackedFunctionStopsTheKernelWithItsReason) {
    Pipeline pl;
    registerPacked(
        "test.extern.twice", [](const std::vector<PackedArg>&) { throw UserError("out of paper"); },
        /*override=*/true);
    LowerResult lowered = lower(createSchedule(pl.d.op), {pl.a, pl.d});
    RunRequest request;
    request.repeat = 1;
    request.check = false;
    for (RunTarget target : {RunTarget::Cpu, RunTarget::Emulate}) {
        if (target == RunTarget::Cpu && !runHasLlvm())
            continue;
        request.target = target;
        try {
            runKernel(lowered, request);
            ADD_FAILURE() << "ran on " << runTargetName(target);
        } catch (const UserError& e) {
            EXPECT_TRUE(contains(e.what(), "out of paper")) << e.what();
        }
    }
    EXPECT_THROW(callPacked("test.extern.nobody", {}), UserError);
    EXPECT_THROW(registerPacked(
                     "test.extern.twice", [](const std::vector<PackedArg>&) {}, false),
                 UserError);
}

TEST(ExternRun, AScriptsOverrideShadowsABuiltInFunctionUntilTheScriptEnds) {
    registerPacked(
        "test.extern.builtin", [](const std::vector<PackedArg>&) {}, false, /*owner=*/0);
    int calls = 0;
    registerPacked(
        "test.extern.builtin", [&](const std::vector<PackedArg>&) { ++calls; }, true,
        /*owner=*/7);
    callPacked("test.extern.builtin", {});
    EXPECT_EQ(calls, 1);
    removePackedOwnedBy(7);
    ASSERT_TRUE(hasPacked("test.extern.builtin"));
    callPacked("test.extern.builtin", {}); // the built-in again
    EXPECT_EQ(calls, 1);
    registerPacked(
        "test.extern.script", [](const std::vector<PackedArg>&) {}, false, 7);
    removePackedOwnedBy(7);
    EXPECT_FALSE(hasPacked("test.extern.script"));
}

TEST(ExternRun, AnExternBufferMustMatchItsTensor) {
    Tensor a = placeholder({16}, DataType::float32(), "A");
    ExternBuffer wrong = bufferFor("A", {Expr(15)});
    try {
        ExternOpNode::make("E", "", {a}, {wrong}, {bufferFor("E", {Expr(16)})},
                           EvaluateNode::make(0));
        FAIL() << "accepted";
    } catch (const UserError& e) {
        EXPECT_TRUE(contains(e.what(), "extern 'E': input buffer 'A' has extent 15 in dimension 0"))
            << e.what();
    }
}

} // namespace

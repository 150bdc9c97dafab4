// reverse_compute_inline (seed 004) in the reference interpreter: the inlined program computes
// the same values as the original for the epilogue cases. (Here rather than in the schedule
// tests because this suite links the lowering and the interpreter.)

#include "TcTestUtil.h"

#include "schedule/ReverseComputeInline.h"
#include "te/Compute.h"

namespace bs::test {
namespace {

Expr readAt(const Tensor& t, const std::vector<Var>& v) {
    return t(std::vector<Expr>(v.begin(), v.end()));
}

/// Runs `make()`'s schedule as built and after reverse_compute_inline of `consumer`, with the
/// producer's stage optionally scheduled first; returns (before, after) buffers of `args`.
struct Program {
    Schedule sch;
    std::vector<Tensor> args;
    Tensor producer;
    Tensor consumer;
};

void expectSameBeforeAndAfter(const std::function<Program()>& make,
                              const std::function<void(const Program&)>& scheduleProducer = {}) {
    Program original = make();
    std::vector<Buffer> before = runSchedule(original.sch, original.args);
    Program inlined = make();
    if (scheduleProducer)
        scheduleProducer(inlined);
    inlined.sch[inlined.consumer].reverseComputeInline(inlined.sch);
    std::vector<Buffer> after = runSchedule(inlined.sch, inlined.args);
    ASSERT_EQ(before.size(), after.size());
    for (size_t k = 0; k < before.size(); ++k)
        expectSameValues(before[k], after[k]);
}

Program biasEpilogue() {
    Program p;
    Tensor a = placeholder({8, 6}, DataType::float32(), "A");
    Tensor bias = placeholder({6}, DataType::float32(), "bias");
    p.producer = compute(
        {8, 6}, [&](const std::vector<Var>& v) { return readAt(a, v) * 2.0f; }, "B");
    p.consumer = compute(
        {8, 6},
        [&](const std::vector<Var>& v) { return readAt(p.producer, v) * 0.5f + bias({v[1]}); },
        "C");
    p.sch = createSchedule(p.consumer.op);
    p.args = {a, bias, p.consumer};
    return p;
}

TEST(ReverseComputeInlineRun, BiasEpilogueComputesTheSameValues) {
    expectSameBeforeAndAfter(biasEpilogue);
}

TEST(ReverseComputeInlineRun, ScheduledProducerComputesTheSameValues) {
    expectSameBeforeAndAfter(biasEpilogue, [](const Program& p) {
        const auto* b = p.producer.op.as<ComputeOpNode>();
        auto [io, ii] = p.sch[p.producer].split(b->axis[0], Expr(4));
        p.sch[p.producer].reorder({io, b->axis[1], ii});
    });
}

TEST(ReverseComputeInlineRun, TransposeComputesTheSameValues) {
    expectSameBeforeAndAfter([] {
        Program p;
        Tensor a = placeholder({4, 6}, DataType::float32(), "A");
        p.producer = compute(
            {4, 6}, [&](const std::vector<Var>& v) { return readAt(a, v) + 1.0f; }, "B");
        p.consumer = compute(
            {6, 4},
            [&](const std::vector<Var>& v) {
                return p.producer({v[1], v[0]}) * 3.0f;
            },
            "C");
        p.sch = createSchedule(p.consumer.op);
        p.args = {a, p.consumer};
        return p;
    });
}

TEST(ReverseComputeInlineRun, ReshapeComputesTheSameValues) {
    expectSameBeforeAndAfter([] {
        Program p;
        Tensor a = placeholder({24}, DataType::float32(), "A");
        p.producer = compute(
            {24}, [&](const std::vector<Var>& v) { return a({v[0]}) - 1.0f; }, "B");
        p.consumer = compute(
            {4, 6}, [&](const std::vector<Var>& v) { return p.producer({v[0] * 6 + v[1]}) * 2.0f; },
            "C");
        Tensor d = compute(
            {4, 6}, [&](const std::vector<Var>& v) { return readAt(p.consumer, v) + 5.0f; }, "D");
        p.sch = createSchedule(d.op);
        p.args = {a, d};
        return p;
    });
}

} // namespace
} // namespace bs::test

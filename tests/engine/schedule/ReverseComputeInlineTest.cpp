// reverse_compute_inline (seed 004): what the fused stage computes for the epilogue cases
// (scale, bias add, transpose, reshape), that the producer's schedule is kept, and one test per
// failure case of the seed, each leaving the schedule unchanged.

#include "ScheduleTestUtil.h"

#include "ir/Printer.h"
#include "schedule/ReverseComputeInline.h"

#include <gtest/gtest.h>

namespace bs::test {
namespace {

Expr readAt(const Tensor& t, const std::vector<Var>& v) {
    return t(std::vector<Expr>(v.begin(), v.end()));
}

/// A(4, 6) -> B = A * 2 -> C = consumer(B); the consumer body is given.
struct Epilogue {
    Tensor a = placeholder({4, 6}, DataType::float32(), "A");
    Tensor bias = placeholder({6}, DataType::float32(), "bias");
    Tensor b = compute(
        {4, 6}, [this](const std::vector<Var>& v) { return readAt(a, v) * 2.0f; }, "B");
};

std::string refusal(const Schedule& s, const Tensor& consumer) {
    size_t before = s.stages().size();
    try {
        s[consumer].reverseComputeInline(s);
    } catch (const UserError& e) {
        EXPECT_EQ(s.stages().size(), before) << "a refusal changed the schedule";
        return e.what();
    }
    ADD_FAILURE() << "reverse_compute_inline of " << consumer.name() << " was accepted";
    return "";
}

TEST(ReverseComputeInline, ScaleEpilogueRunsInTheProducersLoops) {
    Epilogue p;
    Tensor c = compute(
        {4, 6}, [&](const std::vector<Var>& v) { return readAt(p.b, v) * 3.0f + 1.0f; }, "C");
    Schedule s = createSchedule(c.op);
    Stage producer = s[p.b];
    s[c].reverseComputeInline(s);
    EXPECT_EQ(stageNames(s), (Names{"A", "C"}));
    EXPECT_TRUE(s[c].same_as(producer));
    EXPECT_TRUE(s[p.b].same_as(producer));
    EXPECT_TRUE(producer->isOutput);
    const auto* fused = producer->op.as<ComputeOpNode>();
    ASSERT_TRUE(fused);
    EXPECT_EQ(toString(fused->body[0]), "(((A(i, j)*2.000000f)*3.000000f) + 1.000000f)");
    const auto* b = p.b.op.as<ComputeOpNode>();
    EXPECT_TRUE(fused->axis[0].same_as(b->axis[0]));
    EXPECT_TRUE(s.outputs()[0].same_as(producer->op));
    EXPECT_TRUE(producer->originOp.same_as(c.op));
}

TEST(ReverseComputeInline, BiasAddReadsTheBiasWithTheProducersAxis) {
    Epilogue p;
    Tensor c = compute(
        {4, 6}, [&](const std::vector<Var>& v) { return readAt(p.b, v) + p.bias({v[1]}); }, "C");
    Schedule s = createSchedule(c.op);
    s[c].reverseComputeInline(s);
    EXPECT_EQ(toString(s[c]->op.as<ComputeOpNode>()->body[0]), "((A(i, j)*2.000000f) + bias(j))");
}

TEST(ReverseComputeInline, ProducerScheduleIsKept) {
    Epilogue p;
    Tensor c = compute(
        {4, 6}, [&](const std::vector<Var>& v) { return readAt(p.b, v) + 1.0f; }, "C");
    Schedule s = createSchedule(c.op);
    auto [jo, ji] = s[p.b].split(p.b.op.as<ComputeOpNode>()->axis[1], Expr(2));
    s[c].reverseComputeInline(s);
    EXPECT_EQ(names(s[c]->leafIterVars), (Names{"i", "j.outer", "j.inner"}));
    EXPECT_EQ(relationStrings(s[c]).size(), 1u);
}

TEST(ReverseComputeInline, TransposeKeepsTheConsumersLayout) {
    Epilogue p;
    Tensor c = compute(
        {6, 4},
        [&](const std::vector<Var>& v) {
            return p.b({v[1], v[0]}) + 1.0f;
        },
        "C");
    Schedule s = createSchedule(c.op);
    s[c].reverseComputeInline(s);
    const auto* fused = s[c]->op.as<ComputeOpNode>();
    // The output has C's shape (6, 4); the loops stay in B's order (i, j).
    EXPECT_EQ(toString(fused->shape[0]), "6");
    EXPECT_EQ(fused->axis[0]->var.name(), "j");
    EXPECT_EQ(names(s[c]->leafIterVars), (Names{"i", "j"}));
    EXPECT_EQ(toString(fused->body[0]), "((A(i, j)*2.000000f) + 1.000000f)");
}

TEST(ReverseComputeInline, ReshapeKeepsTheProducersLayoutAndRewritesReaders) {
    Tensor a = placeholder({24}, DataType::float32(), "A");
    Tensor b = compute(
        {24}, [&](const std::vector<Var>& v) { return a({v[0]}) * 2.0f; }, "B");
    Tensor c = compute(
        {4, 6}, [&](const std::vector<Var>& v) { return b({v[0] * 6 + v[1]}) + 1.0f; }, "C");
    Tensor d = compute(
        {4, 6}, [&](const std::vector<Var>& v) { return readAt(c, v) * 5.0f; }, "D");
    Schedule s = createSchedule(d.op);
    s[c].reverseComputeInline(s);
    EXPECT_EQ(stageNames(s), (Names{"A", "C", "D"}));
    const auto* reader = s[d]->op.as<ComputeOpNode>();
    EXPECT_EQ(toString(reader->body[0]), "(C(((i*6) + j))*5.000000f)");
}

TEST(ReverseComputeInline, RefusesAConsumerWithoutProducer) {
    Epilogue p;
    Tensor c = compute(
        {4, 6}, [&](const std::vector<Var>& v) { return readAt(p.a, v) + 1.0f; }, "C");
    Schedule s = createSchedule(c.op);
    EXPECT_EQ(refusal(s, c), "reverse_compute_inline of stage 'C': it reads no computed tensor "
                             "(only placeholders A), so there is no producer to inline it into");
}

TEST(ReverseComputeInline, RefusesTwoProducers) {
    Epilogue p;
    Tensor e = compute(
        {4, 6}, [&](const std::vector<Var>& v) { return readAt(p.a, v) + 1.0f; }, "E");
    Tensor c = compute(
        {4, 6}, [&](const std::vector<Var>& v) { return readAt(p.b, v) + readAt(e, v); }, "C");
    Schedule s = createSchedule(c.op);
    EXPECT_NE(refusal(s, c).find("it reads 2 computed tensors ('B', 'E'); it must have exactly one "
                                 "producer"),
              std::string::npos);
}

TEST(ReverseComputeInline, RefusesInconsistentReadIndices) {
    Tensor a = placeholder({4, 4}, DataType::float32(), "A");
    Tensor b = compute(
        {4, 4}, [&](const std::vector<Var>& v) { return readAt(a, v) * 2.0f; }, "B");
    Tensor c = compute(
        {4, 4},
        [&](const std::vector<Var>& v) {
            return readAt(b, v) + b({v[1], v[0]});
        },
        "C");
    Schedule s = createSchedule(c.op);
    EXPECT_EQ(refusal(s, c), "reverse_compute_inline of stage 'C': it reads 'B' at different "
                             "indices (B(i, j) and B(j, i)); all reads of the producer must be the "
                             "same");
}

TEST(ReverseComputeInline, RefusesIndicesThatAreNotBijectiveAffine) {
    Tensor a = placeholder({8}, DataType::float32(), "A");
    Tensor b = compute(
        {8}, [&](const std::vector<Var>& v) { return a({v[0]}) * 2.0f; }, "B");
    Tensor c = compute(
        {4}, [&](const std::vector<Var>& v) { return b({v[0] * 2}); }, "C");
    Schedule s = createSchedule(c.op);
    EXPECT_EQ(refusal(s, c), "reverse_compute_inline of stage 'C': its read B((i*2)) is not a "
                             "bijective affine map of its axes: index '(i*2)' has stride 2, so the "
                             "map does not cover a dense box");
}

TEST(ReverseComputeInline, RefusesAReductionProducerSuggestingComputeAt) {
    Tensor a = placeholder({4, 8}, DataType::float32(), "A");
    Tensor w = placeholder({8, 6}, DataType::float32(), "W");
    Tensor bias = placeholder({6}, DataType::float32(), "bias");
    IterVar k = reduceAxis(Range(Expr(0), Expr(8)), "k");
    Tensor mm = compute(
        {4, 6},
        [&](const std::vector<Var>& v) {
            return sum(a({v[0], k->var}) * w({k->var, v[1]}), {k});
        },
        "MM");
    Tensor c = compute(
        {4, 6}, [&](const std::vector<Var>& v) { return readAt(mm, v) + bias({v[1]}); }, "C");
    Schedule s = createSchedule(c.op);
    EXPECT_EQ(refusal(s, c), "reverse_compute_inline of stage 'C': the producer 'MM' is a "
                             "reduction (over k), not a plain computation: its values are final "
                             "only after the whole reduction; use s['MM'].compute_at(s['C'], axis) "
                             "to compute it inside the consumer's loops instead");
}

TEST(ReverseComputeInline, RefusesAConsumerTheProducerDoesNotCover) {
    Tensor a = placeholder({8}, DataType::float32(), "A");
    Tensor b = compute(
        {8}, [&](const std::vector<Var>& v) { return a({v[0]}) * 2.0f; }, "B");
    Tensor c = compute(
        {10}, [&](const std::vector<Var>& v) { return b({v[0]}); }, "C");
    Schedule s = createSchedule(c.op);
    EXPECT_EQ(refusal(s, c), "reverse_compute_inline of stage 'C': it reads dimension 0 of 'B' "
                             "over [0, 10), which the producer, computing [0, 8), does not cover");
}

TEST(ReverseComputeInline, RefusesWhereTheInlinedStageNeedsAPredicate) {
    Tensor a = placeholder({12}, DataType::float32(), "A");
    Tensor b = compute(
        {12}, [&](const std::vector<Var>& v) { return a({v[0]}) * 2.0f; }, "B");
    Tensor c = compute(
        {10}, [&](const std::vector<Var>& v) { return b({v[0]}); }, "C");
    Schedule s = createSchedule(c.op);
    EXPECT_NE(refusal(s, c).find("computes dimension 0 over [0, 12) but the consumer reads only "
                                 "[0, 10); the inlined stage would need a predicate"),
              std::string::npos);
}

TEST(ReverseComputeInline, RefusesAConsumerWithALoopPredicate) {
    Tensor a = placeholder({10}, DataType::float32(), "A");
    Tensor b = compute(
        {10}, [&](const std::vector<Var>& v) { return a({v[0]}) * 2.0f; }, "B");
    Tensor c = compute(
        {10}, [&](const std::vector<Var>& v) { return b({v[0]}); }, "C");
    Schedule s = createSchedule(c.op);
    s[c].split(c.op.as<ComputeOpNode>()->axis[0], Expr(3));
    EXPECT_EQ(refusal(s, c),
              "reverse_compute_inline of stage 'C': its split of 'i' by 3 does not "
              "divide the extent 10, so its loops carry a predicate, which cannot be "
              "inlined");
}

TEST(ReverseComputeInline, RefusesAScheduledConsumer) {
    Tensor a = placeholder({10}, DataType::float32(), "A");
    Tensor b = compute(
        {10}, [&](const std::vector<Var>& v) { return a({v[0]}) * 2.0f; }, "B");
    Tensor c = compute(
        {10}, [&](const std::vector<Var>& v) { return b({v[0]}); }, "C");
    Schedule s = createSchedule(c.op);
    s[c].split(c.op.as<ComputeOpNode>()->axis[0], Expr(5));
    EXPECT_NE(refusal(s, c).find("its loops are already scheduled"), std::string::npos);
}

TEST(ReverseComputeInline, RefusesAProducerOthersRead) {
    Epilogue p;
    Tensor c = compute(
        {4, 6}, [&](const std::vector<Var>& v) { return readAt(p.b, v) + 1.0f; }, "C");
    Tensor d = compute(
        {4, 6}, [&](const std::vector<Var>& v) { return readAt(p.b, v) * readAt(c, v); }, "D");
    Schedule s = createSchedule(d.op);
    EXPECT_EQ(refusal(s, c), "reverse_compute_inline of stage 'C': the producer 'B' is also read "
                             "by stage 'D', so its tensor must stay");
}

TEST(ReverseComputeInline, RefusesAnOutputProducer) {
    Epilogue p;
    Tensor c = compute(
        {4, 6}, [&](const std::vector<Var>& v) { return readAt(p.b, v) + 1.0f; }, "C");
    Schedule s = createSchedule({p.b.op, c.op});
    EXPECT_NE(refusal(s, c).find("the producer 'B' is an output of the schedule"),
              std::string::npos);
}

TEST(ReverseComputeInline, RefusesAReductionConsumer) {
    Epilogue p;
    IterVar k = reduceAxis(Range(Expr(0), Expr(6)), "k");
    Tensor c = compute(
        {4},
        [&](const std::vector<Var>& v) {
            return sum(p.b({v[0], k->var}), {k});
        },
        "C");
    Schedule s = createSchedule(c.op);
    EXPECT_NE(refusal(s, c).find("it is a reduction"), std::string::npos);
}

TEST(ReverseComputeInline, RefusesALayoutChangeOfAnOutput) {
    Tensor a = placeholder({24}, DataType::float32(), "A");
    Tensor b = compute(
        {24}, [&](const std::vector<Var>& v) { return a({v[0]}) * 2.0f; }, "B");
    Tensor c = compute(
        {4, 6}, [&](const std::vector<Var>& v) { return b({v[0] * 6 + v[1]}); }, "C");
    Schedule s = createSchedule(c.op);
    EXPECT_NE(refusal(s, c).find("is not a permutation of its axes"), std::string::npos);
}

} // namespace
} // namespace bs::test

namespace bs::test {
namespace {

TEST(ReverseComputeInline, ConsumersInOrUnderGroupsAreRefused) {
    // A group computed at the consumer would lose its loops; a consumer in a group would leave
    // the group counting a stage that is gone.
    Epilogue e;
    Tensor c = compute(
        {4, 6}, [&](const std::vector<Var>& v) { return readAt(e.b, v) + 1.0f; }, "C");
    Tensor d = compute(
        {4, 6}, [&](const std::vector<Var>& v) { return readAt(c, v) * 3.0f; }, "D");
    Schedule s = createSchedule(d.op);
    Stage g = s.createGroup({c}, {e.b}, false); // C
    EXPECT_NE(refusal(s, c).find("it belongs to group0"), std::string::npos);

    Schedule t = createSchedule(d.op);
    Stage h = t.createGroup({e.b}, {e.a}, false); // B
    h.computeAt(t[c], c.op.as<ComputeOpNode>()->axis[0]);
    EXPECT_NE(refusal(t, c).find("group0 is computed at it"), std::string::npos);
}

} // namespace
} // namespace bs::test

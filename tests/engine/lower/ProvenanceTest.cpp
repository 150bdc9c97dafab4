// Issue 13, items 2 and 3: the bound inference as steps, the trace as a view of them, and the
// provenance of every loop extent, thread extent, realize, guard and allocate of the lowered IR.
#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "lower/Lower.h"
#include "schedule/InferBoundTight.h"
#include "te/Compute.h"

#include <gtest/gtest.h>

using namespace bs;

namespace {

/// The seed's PassUpDomain example: C (64, 64) fused, split into 512 parts, B at the outer loop.
Schedule fuseSplit(Tensor* B = nullptr) {
    Tensor b = compute(
        {64, 64}, [](const std::vector<Var>& v) { return v[0] + v[1]; }, "B");
    Tensor c = compute(
        {64, 64},
        [&](const std::vector<Var>& v) {
            return b({v[0], v[1]});
        },
        "C");
    Schedule s = createSchedule(c.op);
    const auto* op = c.op.as<ComputeOpNode>();
    IterVar fused = s[c].fuse(op->axis[0], op->axis[1]);
    auto [outer, inner] = s[c].splitByNParts(fused, 512);
    s[b].computeAt(s[c], outer);
    if (B)
        *B = b;
    return s;
}

/// Seed 002's split remainder: extent 20 by 16, B computed at the outer loop (guards).
Schedule splitRemainder() {
    Tensor a = placeholder({20}, DataType::float32(), "A");
    Tensor b = compute(
        {20}, [&](const std::vector<Var>& v) { return a({v[0]}) * 2.0f; }, "B");
    Tensor c = compute(
        {20}, [&](const std::vector<Var>& v) { return b({v[0]}) + 1.0f; }, "C");
    Schedule s = createSchedule(c.op);
    auto [outer, inner] = s[c].split(c.op.as<ComputeOpNode>()->axis[0], 16);
    s[b].computeAt(s[c], outer);
    return s;
}

/// Seed 002's Ex. 6: B shared at C's blockIdx loop, threads bound.
Schedule sharedScope() {
    Tensor a = placeholder({200, 400}, DataType::float32(), "A");
    Tensor b = compute(
        {200, 400},
        [&](const std::vector<Var>& v) {
            return a({v[0], v[1]}) * 3.14f;
        },
        "B");
    Tensor c = compute(
        {100, 200},
        [&](const std::vector<Var>& v) {
            return b({v[0], v[1]}) * 2.72f;
        },
        "C");
    Schedule s = createSchedule(c.op);
    IterVar bx(Range(), Var("blockIdx.x"), IterVarType::ThreadIndex, "blockIdx.x");
    IterVar tx(Range(), Var("threadIdx.x"), IterVarType::ThreadIndex, "threadIdx.x");
    const auto* cop = c.op.as<ComputeOpNode>();
    s[c].bind(cop->axis[0], bx);
    s[c].bind(cop->axis[1], tx);
    s[b].setScope("shared");
    s[b].computeAt(s[c], cop->axis[0]);
    s[b].bind(b.op.as<ComputeOpNode>()->axis[1], tx);
    return s;
}

/// The schedule's placeholders, then its outputs: the function's arguments.
std::vector<Tensor> argumentsOf(const Schedule& s) {
    std::vector<Tensor> args;
    for (const Stage& stage : s->stages)
        if (stage->op.as<PlaceholderOpNode>())
            args.push_back(stage->op.output(0));
    for (const Operation& op : s->outputs)
        args.push_back(op.output(0));
    return args;
}

LowerResult lowered(const Schedule& s, BoundRules rules = BoundRules::Tvm) {
    LowerOptions options;
    options.rules = rules;
    return lower(s, argumentsOf(s), options);
}

/// Every statement of `stmt` that carries numbers: loops, thread extents, realizes, allocates
/// and likely() guards, with the phase of the step each carries (or "none").
std::vector<std::pair<std::string, std::string>> provenance(const Stmt& stmt,
                                                            const BoundSteps& steps) {
    std::vector<std::pair<std::string, std::string>> out;
    auto phaseOf = [&](const StmtNode* n) {
        return n->stepId() < 0 ? std::string("none") : stepPhaseName(steps.at(n->stepId()).phase);
    };
    postOrderVisit(stmt, [&](const NodeRef& node) {
        if (const auto* f = node.as<ForNode>())
            out.emplace_back("for " + f->loopVar.name(), phaseOf(f));
        else if (const auto* a = node.as<AllocateNode>())
            out.emplace_back("allocate " + a->bufferVar.name(), phaseOf(a));
        else if (const auto* r = node.as<ProducerRealizeNode>())
            out.emplace_back("realize " + r->tensor.name(), phaseOf(r));
        else if (const auto* i = node.as<IfThenElseNode>();
                 i && toString(i->condition).find("likely") == 0)
            out.emplace_back("if " + toString(i->condition), phaseOf(i));
        else if (const auto* t = node.as<AttrStmtNode>(); t && t->key == attr::kThreadExtent)
            out.emplace_back("thread " + nodeToString(t->node), phaseOf(t));
    });
    return out;
}

void expectEveryNumberHasItsStep(const LowerResult& r, LowerPass pass) {
    for (const auto& [what, phase] : provenance(r.func.after(pass), r.bounds.steps)) {
        SCOPED_TRACE(what + " after " + lowerPassName(pass));
        if (what.rfind("allocate", 0) == 0)
            EXPECT_EQ(phase, "allocate");
        else if (what.rfind("realize", 0) == 0)
            EXPECT_EQ(phase, "realize");
        else if (what.rfind("if ", 0) == 0)
            EXPECT_EQ(phase, "bound-check");
        else
            EXPECT_TRUE(phase == "pass-down" || phase == "union" || phase == "tight") << phase;
    }
}

} // namespace

TEST(Provenance, EveryLoopRealizeGuardAndAllocateOfTheSeedsListingsHasItsStep) {
    for (BoundRules rules : {BoundRules::Tvm, BoundRules::Tvm05})
        for (const Schedule& s : {fuseSplit(), splitRemainder(), sharedScope()}) {
            LowerResult r = lowered(s, rules);
            for (LowerPass pass : {LowerPass::ScheduleOps, LowerPass::Flatten, LowerPass::Simplify,
                                   LowerPass::Cse, LowerPass::Final})
                expectEveryNumberHasItsStep(r, pass);
        }
}

TEST(Provenance, TheAllocateOfTheFuseExampleComesFromItsRealizeAndTheUnions) {
    for (BoundRules rules : {BoundRules::Tvm, BoundRules::Tvm05}) {
        LowerResult r = lowered(fuseSplit(), rules);
        std::vector<StepMark> marks;
        std::string text = printWithSteps(r.func.final, &marks);
        const std::string expected =
            rules == BoundRules::Tvm ? "allocate B[int32 * 8]" : "allocate B[int32 * 4096]";
        ASSERT_NE(text.find(expected), std::string::npos) << text;
        int line = 0;
        for (size_t p = 0; p < text.find(expected); ++p)
            line += text[p] == '\n';
        auto mark = std::find_if(marks.begin(), marks.end(),
                                 [&](const StepMark& m) { return m.line == line; });
        ASSERT_NE(mark, marks.end());
        const BoundStep& allocate = r.bounds.steps.at(mark->stepId);
        EXPECT_EQ(allocate.phase, StepPhase::Allocate);
        ASSERT_EQ(allocate.from.size(), 1u);
        const BoundStep& realize = r.bounds.steps.at(allocate.from[0]);
        EXPECT_EQ(realize.phase, StepPhase::Realize);
        ASSERT_EQ(realize.from.size(), 2u);
        for (int id : realize.from)
            EXPECT_EQ(r.bounds.steps.at(id).phase, StepPhase::Union);
    }
}

TEST(Provenance, FusePassUpIsTheSeedsFallbackOrTheRowSegment) {
    Tensor b;
    LowerResult seed = lowered(fuseSplit(&b), BoundRules::Tvm05);
    LowerResult tvm = lowered(fuseSplit(), BoundRules::Tvm);
    auto fuseStep = [](const LowerResult& r) -> const BoundStep* {
        for (const BoundStep& s : r.bounds.steps.all())
            if (s.phase == StepPhase::PassUp && s.relation.as<FuseNode>())
                return &s;
        return nullptr;
    };
    ASSERT_TRUE(fuseStep(seed) && fuseStep(tvm));
    EXPECT_EQ(fuseStep(seed)->rule, "fuse-fallback");
    EXPECT_NE(fuseStep(seed)->text.find("fall back to the whole ranges"), std::string::npos)
        << fuseStep(seed)->text;
    EXPECT_EQ(fuseStep(tvm)->rule, "fuse-one-row");
    EXPECT_NE(fuseStep(tvm)->text.find("stays in one row"), std::string::npos)
        << fuseStep(tvm)->text;
    EXPECT_EQ(fuseStep(tvm)->consumer->name, "C");
    EXPECT_EQ(fuseStep(tvm)->stage->name, "B");
}

TEST(Provenance, GuardsOfASplitRemainderNameTheirIterVar) {
    LowerResult r = lowered(splitRemainder());
    std::vector<std::string> guards;
    for (const BoundStep& s : r.bounds.steps.all())
        if (s.phase == StepPhase::BoundCheck)
            guards.push_back(s.stage->name + ":" + s.rule + ":" + s.iterVars.at(0)->var.name());
    EXPECT_EQ(guards, (std::vector<std::string>{"C:extent:i", "B:dom-upper:i"}));
    // The tight rules run the remainder: no guard, and the loop's step is the tight one.
    if (!hasIsl())
        return; // built without ISL (the GPU machine's build): no tight rules
    LowerResult tight = lowered(splitRemainder(), BoundRules::Tight);
    for (const BoundStep& s : tight.bounds.steps.all())
        EXPECT_NE(s.phase, StepPhase::BoundCheck) << s.text;
    bool remainder = false;
    for (const auto& [what, phase] : provenance(tight.func.final, tight.bounds.steps))
        remainder |= what == "for i.inner" && phase == "tight";
    EXPECT_TRUE(remainder);
}

TEST(Provenance, TheTraceIsAViewOfTheSteps) {
    LowerResult r = lowered(sharedScope());
    size_t leafSteps = 0, requestSteps = 0, visits = 0;
    for (const BoundStep& s : r.bounds.steps.all()) {
        leafSteps += s.phase == StepPhase::LeafSet;
        requestSteps += s.phase == StepPhase::Request;
        visits += s.phase == StepPhase::Visit;
    }
    size_t leafRows = 0, requestRows = 0;
    for (const StageTrace& st : r.bounds.trace.stages)
        for (const ConsumerTrace& ct : st.consumers) {
            leafRows += ct.leafSets.size();
            requestRows += ct.requests.size();
        }
    EXPECT_EQ(visits, r.bounds.trace.stages.size());
    EXPECT_EQ(leafSteps, leafRows);
    EXPECT_EQ(requestSteps, requestRows);
    EXPECT_GT(leafRows, 0u);
}

TEST(Provenance, EveryInferredRangeKnowsTheStepThatSetIt) {
    for (const Schedule& s : {fuseSplit(), splitRemainder(), sharedScope()}) {
        LowerResult r = lowered(s);
        for (const auto& [iv, range] : r.bounds.bounds) {
            int id = r.bounds.steps.rangeStep(iv);
            ASSERT_GE(id, 0) << iv->var.name();
            const BoundStep& step = r.bounds.steps.at(id);
            bool names = std::any_of(step.outputs.begin(), step.outputs.end(),
                                     [&](const StepValue& v) { return v.iv.same_as(iv); });
            EXPECT_TRUE(names) << iv->var.name() << ": " << step.text;
        }
    }
}

TEST(Provenance, StepIdsArePositionsAndFromPointsBackwards) {
    LowerResult r = lowered(sharedScope());
    const auto& all = r.bounds.steps.all();
    for (size_t i = 0; i < all.size(); ++i) {
        EXPECT_EQ(all[i].id, int(i));
        EXPECT_FALSE(all[i].text.empty()) << i;
        for (int from : all[i].from)
            EXPECT_LT(from, int(i)) << all[i].text;
    }
}

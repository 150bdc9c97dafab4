// te.scan (ScanOpNode): the op's checks, the scan body group the schedule makes, TVM's bound
// rules for a scan (its requests on the inits and updates, the scan axis's union, the spatial
// axes sliced only at a fix point) with the steps that explain them (lowering:
// tests/engine/lower/ScheduleOpsScanTest.cpp).
#include "ScheduleTestUtil.h"

#include "ir/Printer.h"
#include "schedule/Graph.h"
#include "schedule/InferBound.h"
#include "te/Scan.h"

#include <gtest/gtest.h>

#include <functional>

namespace bs {
namespace {

/// res[t, i] = res[t - 1, i] + X[t, i], res[0, i] = X[0, i]; optionally read by Y = res * 2.
struct CumSum {
    Tensor x;
    Tensor state;
    Tensor init;
    Tensor update;
    Tensor res;

    explicit CumSum(Expr m = 10, Expr n = 6) {
        x = placeholder({m, n}, DataType::float32(), "X");
        state = placeholder({m, n}, DataType::float32(), "state");
        init = compute(
            {1, n},
            [this](const std::vector<Var>& v) {
                return x({0, v[1]});
            },
            "init");
        update = compute(
            {m, n},
            [this](const std::vector<Var>& v) {
                return state({v[0] - 1, v[1]}) + x({v[0], v[1]});
            },
            "update");
        res = scan({init}, {update}, {state}, {x}, "scan")[0];
    }
    const ScanOpNode* op() const { return res.op.as<ScanOpNode>(); }
    IterVar axis(const Tensor& t, size_t i) const { return t.op.as<ComputeOpNode>()->axis[i]; }
};

const BoundStep* findStep(const BoundSteps& steps, const std::string& rule,
                          const Tensor& tensor = Tensor()) {
    for (const BoundStep& s : steps.all())
        if (s.rule == rule && (!tensor.defined() || s.tensor.same_as(tensor)))
            return &s;
    return nullptr;
}

TEST(Scan, TheOpHasTheScanAxisAndOneOpaqueSpatialAxisPerDimension) {
    CumSum p;
    const ScanOpNode* op = p.op();
    EXPECT_EQ(op->scanAxis->var.name(), "scan.idx");
    EXPECT_EQ(op->scanAxis->iterType, IterVarType::Ordered);
    EXPECT_EQ(toString(op->scanAxis->dom), "range(min=1, ext=9)");
    ASSERT_EQ(op->spatialAxis.size(), 1u);
    EXPECT_EQ(op->spatialAxis[0]->var.name(), "scan.out0.i1");
    EXPECT_EQ(op->spatialAxis[0]->iterType, IterVarType::Opaque);
    EXPECT_EQ(toString(p.res.shape()[0]), "10");
    // Its stage loops over the scan axis only.
    Schedule sch = createSchedule(p.res.op);
    EXPECT_EQ(test::names(sch[p.res]->leafIterVars), test::Names{"scan.idx"});
}

TEST(Scan, ShapesThatDoNotAgreeAreRefusedNamingTheTensors) {
    CumSum p;
    Tensor wide = placeholder({10, 7}, DataType::float32(), "wide");
    try {
        scan({p.init}, {p.update}, {wide}, {}, "bad");
        FAIL() << "accepted";
    } catch (const UserError& e) {
        EXPECT_NE(std::string(e.what()).find("scan 'bad': dimension 1 of init 'init'"),
                  std::string::npos)
            << e.what();
    }
    Tensor twoRows = compute(
        {2, 6},
        [&](const std::vector<Var>& v) {
            return p.x({v[0], v[1]});
        },
        "init2");
    EXPECT_THROW(scan({p.init, twoRows}, {p.update, p.update}, {p.state, p.state}), UserError);
    EXPECT_THROW(scan({p.update}, {p.update}, {p.init}), UserError); // the state is no placeholder
    auto expectRefused = [](const std::function<void()>& f, const std::string& what) {
        try {
            f();
            FAIL() << "accepted: " << what;
        } catch (const UserError& e) {
            EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
        }
    };
    // More init rows than the state has (a negative number of steps).
    Tensor eightRows = compute(
        {12, 6},
        [&](const std::vector<Var>& v) {
            return p.x({0, v[1]});
        },
        "init8");
    expectRefused([&] { scan({eightRows}, {p.update}, {p.state}); },
                  "the inits have 12 rows but the states only 10");
    // A placeholder cannot be an init or an update, nor a state an input.
    expectRefused([&] { scan({p.x}, {p.update}, {p.state}); }, "the init 'X' is a placeholder");
    expectRefused([&] { scan({p.init}, {p.update}, {p.state}, {p.state}); },
                  "state 'state' is also among the inputs");
    // An update that never reads the state.
    Tensor doubled = compute(
        {10, 6},
        [&](const std::vector<Var>& v) {
            return p.x({v[0], v[1]}) * 2.0f;
        },
        "doubled");
    expectRefused([&] { scan({p.init}, {doubled}, {p.state}); }, "no update reads state 'state'");
    // Shapes written in another order are the same shape.
    Var k("k");
    Tensor s2 = placeholder({10, k * 2}, DataType::float32(), "s2");
    Tensor i2 = compute(
        {1, 2 * k},
        [&](const std::vector<Var>& v) {
            return s2({0, v[1]}) * 0.0f;
        },
        "i2");
    Tensor u2 = compute(
        {10, 2 * k},
        [&](const std::vector<Var>& v) {
            return s2({v[0] - 1, v[1]});
        },
        "u2");
    EXPECT_NO_THROW(scan({i2}, {u2}, {s2}));
}

TEST(Scan, TheBodyIsAGroupComputedInTheScanAndTheUpdateCannotMove) {
    CumSum p;
    Schedule sch = createSchedule(p.res.op);
    Stage update = sch[p.update];
    EXPECT_EQ(update->attachType, AttachType::ScanUpdate);
    EXPECT_TRUE(update->attachStage.same_as(sch[p.res]));
    ASSERT_TRUE(update->group.defined());
    EXPECT_EQ(update->group.name(), "scan.body");
    EXPECT_EQ(update->group->attachType, AttachType::ScanUpdate);
    EXPECT_EQ(sch[p.init]->attachType, AttachType::GroupRoot);
    EXPECT_FALSE(sch[p.init]->group.defined());
    EXPECT_THROW(update.computeRoot(), UserError);
    // The init can be marked inline, but the scan stores it into its state: refused by normalize.
    sch[p.init].computeInline();
    try {
        sch.normalize();
        ADD_FAILURE() << "accepted";
    } catch (const UserError& e) {
        EXPECT_NE(std::string(e.what()).find("'init' is the init of scan 'scan'"),
                  std::string::npos)
            << e.what();
    }
    sch[p.init].computeRoot();
    EXPECT_THROW(update.computeInline(), UserError);
    EXPECT_EQ(update->attachType, AttachType::ScanUpdate);
    // The update's attach path is the scan's loop.
    AttachPathMap paths = createAttachPath(sch);
    EXPECT_EQ(test::names(paths.at(p.update.op)), test::Names{"scan.idx"});
    EXPECT_TRUE(paths.at(p.init.op).empty());
    std::vector<Operation> body = scanGetBody(p.res.op);
    ASSERT_EQ(body.size(), 1u);
    EXPECT_TRUE(body[0].same_as(p.update.op));
}

TEST(Scan, InferBoundGivesTheUpdateOneRowPerStepAndTheInitItsRows) {
    CumSum p;
    Schedule n = createSchedule(p.res.op).normalize();
    InferBoundResult r = inferBound(n);
    EXPECT_EQ(toString(r.bounds.at(p.op()->scanAxis)), "range(min=1, ext=9)");
    EXPECT_EQ(toString(r.bounds.at(p.axis(p.update, 0))), "range(min=(scan.idx + 1), ext=1)");
    EXPECT_EQ(toString(r.bounds.at(p.axis(p.update, 1))), "range(min=0, ext=6)");
    EXPECT_EQ(toString(r.bounds.at(p.axis(p.init, 0))), "range(min=0, ext=1)");
    const BoundStep* row = findStep(r.steps, "scan-update", p.update);
    ASSERT_NE(row, nullptr);
    EXPECT_NE(
        row->text.find("each step of the scan computes the update's rows at its index scan.idx"),
        std::string::npos)
        << row->text;
    EXPECT_NE(findStep(r.steps, "scan-init", p.init), nullptr);
    EXPECT_NE(findStep(r.steps, "scan-spatial", p.update), nullptr);
    for (const BoundStep& s : r.steps.all())
        if (s.phase == StepPhase::Visit && s.stage.same_as(p.update.op)) {
            EXPECT_NE(s.text.find("computed in every step of scan 'scan' (its update)"),
                      std::string::npos)
                << s.text;
        }
}

TEST(Scan, AScanReadByAComputeCoversItsRowsAndSlicesAFixPointAxis) {
    CumSum p;
    Tensor y = compute(
        {6, 3},
        [&](const std::vector<Var>& v) {
            return p.res({v[0] + 2, v[1] + 1});
        },
        "Y");
    InferBoundResult r = inferBound(createSchedule(y.op).normalize());
    // Rows: from the scan's start to the last row Y reads (7).
    EXPECT_EQ(toString(r.bounds.at(p.op()->scanAxis)), "range(min=1, ext=7)");
    // The spatial axis is a fix point: only Y's columns 1..3.
    EXPECT_TRUE(scanFixPointAnalysis(p.res.op).at(p.op()->spatialAxis[0]));
    EXPECT_EQ(toString(r.bounds.at(p.op()->spatialAxis[0])), "range(min=1, ext=3)");
    // The init and update compute those columns only: the scan realizes no more (TVM asks
    // them for every column, past the state it realizes).
    EXPECT_EQ(toString(r.bounds.at(p.axis(p.update, 1))), "range(min=1, ext=3)");
    EXPECT_EQ(toString(r.bounds.at(p.axis(p.init, 1))), "range(min=1, ext=3)");
    EXPECT_NE(findStep(r.steps, "scan-axis"), nullptr);
    EXPECT_NE(findStep(r.steps, "scan-fix-point"), nullptr);
}

TEST(Scan, AnAxisThatIsNotAFixPointIsComputedWhole) {
    // The update reads the state transposed: row t needs other columns of row t - 1.
    Tensor x = placeholder({8, 8}, DataType::float32(), "X");
    Tensor state = placeholder({8, 8}, DataType::float32(), "state");
    Tensor init = compute(
        {1, 8},
        [&](const std::vector<Var>& v) {
            return x({0, v[1]});
        },
        "init");
    Tensor update = compute(
        {8, 8},
        [&](const std::vector<Var>& v) {
            return state({v[0] - 1, 7 - v[1]}) + x({v[0], v[1]});
        },
        "update");
    Tensor res = scan({init}, {update}, {state})[0];
    Tensor y = compute(
        {8, 2},
        [&](const std::vector<Var>& v) {
            return res({v[0], v[1]});
        },
        "Y");
    const IterVar spatial = res.op.as<ScanOpNode>()->spatialAxis[0];
    EXPECT_FALSE(scanFixPointAnalysis(res.op).at(spatial));
    InferBoundResult r = inferBound(createSchedule(y.op).normalize());
    EXPECT_EQ(toString(r.bounds.at(spatial)), "range(min=0, ext=8)");
    const BoundStep* step = findStep(r.steps, "scan-not-fix-point");
    ASSERT_NE(step, nullptr);
    EXPECT_NE(step->text.find("not a fix point"), std::string::npos) << step->text;
}

TEST(Scan, AScanComputedAtItsOwnUpdateIsACycleTheUserIsTold) {
    // The update runs inside the scan's loops, so computing the scan inside the update's loop
    // closes a cycle that the compute_at check (which follows compute_at only) cannot see:
    // creating the attach paths says so as a user error, not an internal one.
    CumSum p;
    Tensor y = compute(
        {10, 6},
        [&](const std::vector<Var>& v) {
            return p.res({v[0], v[1]}) * 2;
        },
        "Y");
    Schedule s = createSchedule(y.op);
    try {
        s[p.res].computeAt(s[p.update], p.axis(p.update, 0));
        createAttachPath(s.normalize());
        FAIL() << "the cycle was not refused";
    } catch (const UserError& e) {
        EXPECT_NE(std::string(e.what()).find("cycle"), std::string::npos) << e.what();
    }
}

} // namespace
} // namespace bs

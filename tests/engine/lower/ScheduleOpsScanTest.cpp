// ScheduleOps with a scan (TVM's ScanOpNode::BuildProvide/BuildRealize and InjectScanStep): the
// inits go before the scan's loop, the updates inside it, and the inits, updates and states all
// store into and read from the scan's one buffer.
#include "ir/Op.h"
#include "ir/Printer.h"
#include "lower/Lower.h"
#include "te/Compute.h"
#include "te/Scan.h"

#include <gtest/gtest.h>

using namespace bs;

namespace {

/// res[t, i] = res[t - 1, i] + X[t, i], res[0, i] = X[0, i].
struct CumSum {
    Tensor x = placeholder({10, 6}, DataType::float32(), "X");
    Tensor state = placeholder({10, 6}, DataType::float32(), "state");
    Tensor init = compute(
        {1, 6},
        [this](const std::vector<Var>& v) {
            return x({0, v[1]});
        },
        "init");
    Tensor update = compute(
        {10, 6},
        [this](const std::vector<Var>& v) {
            return state({v[0] - 1, v[1]}) + x({v[0], v[1]});
        },
        "update");
    Tensor res = scan({init}, {update}, {state}, {x}, "scan")[0];
};

TEST(ScheduleOpsScan, LoweringPutsTheInitBeforeTheLoopAndTheUpdateInsideIt) {
    CumSum p;
    LowerResult lowered = lower(createSchedule(p.res.op), {p.x, p.res});
    std::string text = toString(lowered.func.afterScheduleOps);
    size_t init = text.find("init");
    size_t loop = text.find("for (scan.idx, 0, 9)");
    size_t update = text.find(
        "scan((scan.idx + 1), j) =(scan(((scan.idx + 1) - 1), j) + X((scan.idx + 1), j))");
    ASSERT_NE(loop, std::string::npos) << text;
    ASSERT_NE(update, std::string::npos) << text;
    EXPECT_LT(init, loop) << text;
    EXPECT_NE(text.find("scan(0, j) =X(0, j)"), std::string::npos) << text;
    EXPECT_NE(text.find("realize scan([0, 10], [0, 6])"), std::string::npos) << text;
    // The init and update store into the scan; the state is the scan's buffer.
    EXPECT_EQ(text.find("state"), std::string::npos) << text;
    EXPECT_EQ(text.find("realize update"), std::string::npos) << text;
}

TEST(ScheduleOpsScan, TheScanIsRealizedFromRowZeroToItsLastRow) {
    CumSum p;
    Tensor y = compute(
        {4, 6},
        [&](const std::vector<Var>& v) {
            return p.res({v[0] + 3, v[1]});
        },
        "Y");
    LowerResult lowered = lower(createSchedule(y.op), {p.x, y});
    std::string text = toString(lowered.func.afterScheduleOps);
    // Y reads rows 3..6: the scan runs steps 1..6 and its buffer holds rows 0..6.
    EXPECT_NE(text.find("realize scan([0, 7], [0, 6])"), std::string::npos) << text;
    EXPECT_NE(text.find("for (scan.idx, 0, 6)"), std::string::npos) << text;
}

} // namespace

// The loop nest animated (analysis/LoopAnimation.h, issue 18 item 3): a run recorded access by
// access and played back one store at a time, with each buffer's live window.
#include "AllocReportTestUtil.h"

#include "analysis/LoopAnimation.h"

#include <nlohmann/json.hpp>

using namespace bs;
using namespace bs::test;

namespace {

/// B = 2A computed at C's rows, C = B + 1, all 4 x 4: each row of C needs one row of B.
Schedule rowsAttached() {
    Tensor A = placeholder({4, 4}, DataType::float32(), "A");
    Tensor B = compute(
        {4, 4},
        [&](const std::vector<Var>& v) {
            return A({v[0], v[1]}) * f32(2);
        },
        "B");
    Tensor C = compute(
        {4, 4},
        [&](const std::vector<Var>& v) {
            return B({v[0], v[1]}) + f32(1);
        },
        "C");
    Schedule s = createSchedule(C.op);
    s[B].computeAt(s[C], opOf(C)->axis[0]);
    return s;
}

std::shared_ptr<const LoopAnimation> record(const Schedule& s, AnimationOptions options = {}) {
    return std::make_shared<const LoopAnimation>(LoopAnimation::record(s, options));
}

size_t bufferIndex(const LoopAnimation& a, const std::string& name) {
    for (size_t b = 0; b < a.buffers().size(); ++b)
        if (a.buffers()[b].name == name)
            return b;
    ADD_FAILURE() << "no buffer " << name;
    return 0;
}

/// The cells of buffer `name` with `bit` set, as row-major offsets.
std::vector<int64_t> cellsWith(const AnimationPlayer& player, const std::string& name,
                               uint8_t bit) {
    const std::vector<uint8_t>& cells = player.cells(bufferIndex(player.animation(), name));
    std::vector<int64_t> out;
    for (size_t c = 0; c < cells.size(); ++c)
        if (cells[c] & bit)
            out.push_back(int64_t(c));
    return out;
}

} // namespace

TEST(LoopAnimation, StepsAreStoresAndTheProducersWindowMovesWithItsAttachLoop) {
    const auto animation = record(rowsAttached());
    // 16 stores of B and 16 of C, row by row: four of B, then four of C.
    ASSERT_EQ(animation->steps(), 32);
    EXPECT_FALSE(animation->truncated());
    EXPECT_FALSE(animation->flat());
    const auto& buffers = animation->buffers();
    ASSERT_EQ(buffers.size(), 3u);
    EXPECT_EQ(buffers[0].name, "C");
    EXPECT_EQ(buffers[0].role, AnimatedRole::Output);
    EXPECT_EQ(buffers[1].name, "B");
    EXPECT_EQ(buffers[1].role, AnimatedRole::Intermediate);
    EXPECT_EQ(buffers[1].shape, (std::vector<int64_t>{4, 4}));
    EXPECT_EQ(buffers[2].name, "A");
    EXPECT_EQ(buffers[2].role, AnimatedRole::Input);

    AnimationPlayer player(animation);
    player.seek(3); // B's row 0 computed, nothing of C yet
    const size_t b = bufferIndex(*animation, "B");
    EXPECT_EQ(player.allocatedNow(b), 4);
    EXPECT_EQ(player.liveNow(b), 4);
    EXPECT_EQ(cellsWith(player, "B", kCellLive), (std::vector<int64_t>{0, 1, 2, 3}));
    EXPECT_EQ(cellsWith(player, "B", kCellWrittenNow), (std::vector<int64_t>{3}));
    EXPECT_EQ(cellsWith(player, "A", kCellReadNow), (std::vector<int64_t>{3}));
    EXPECT_TRUE(cellsWith(player, "C", kCellComputed).empty());
    EXPECT_EQ(animation->describeStep(3), "step 4 of 32: computes B[0, 3] from A[0, 3]");

    player.seek(7); // C's row 0 computed from B's row 0
    EXPECT_EQ(cellsWith(player, "C", kCellComputed), (std::vector<int64_t>{0, 1, 2, 3}));
    EXPECT_EQ(cellsWith(player, "B", kCellReadNow), (std::vector<int64_t>{3}));

    player.seek(8); // the next row: B's window has moved to row 1, row 0 is freed
    EXPECT_EQ(player.allocatedNow(b), 4);
    EXPECT_EQ(cellsWith(player, "B", kCellAllocated), (std::vector<int64_t>{4, 5, 6, 7}));
    EXPECT_EQ(cellsWith(player, "B", kCellLive), (std::vector<int64_t>{4}));
    EXPECT_EQ(player.peakAllocated(b), 4);
    const std::vector<uint8_t> forward = player.cells(b);

    // The last frame is the program as its last store leaves it: B's last row still live.
    player.seek(31);
    EXPECT_EQ(player.allocatedNow(b), 4);
    EXPECT_EQ(player.liveNow(b), 4);
    // Going back replays from the start to the same frame.
    EXPECT_EQ(cellsWith(player, "C", kCellComputed).size(), 16u);
    EXPECT_EQ(cellsWith(player, "A", kCellRead).size(), 16u);
    player.seek(8);
    EXPECT_EQ(player.cells(b), forward);
    player.seek(-1);
    EXPECT_TRUE(cellsWith(player, "B", kCellAllocated).empty());
    EXPECT_TRUE(cellsWith(player, "C", kCellComputed).empty());
}

TEST(LoopAnimation, UnderTheSeedsRulesEachIterationAllocatesTheWholeProducer) {
    // The fuse/split example: under tvm-0.5 every one of the 512 iterations allocates all of B
    // (4096) to compute it whole; under tvm only the 8 elements it needs.
    auto fuse = [] {
        Tensor B = compute({64, 64}, [](const std::vector<Var>& v) { return v[0] + v[1]; }, "B", "",
                           {"i", "j"});
        Tensor C = compute({64, 64},
                           [&](const std::vector<Var>& v) {
                               return B({v[0], v[1]});
                           },
                           "C", "", {"i", "j"});
        Schedule s = createSchedule(C.op);
        IterVar fused = s[C].fuse(opOf(C)->axis[0], opOf(C)->axis[1]);
        s[B].computeAt(s[C], s[C].splitByNParts(fused, 512).first);
        return s;
    };
    AnimationOptions tvm;
    const auto now = record(fuse(), tvm);
    AnimationPlayer nowPlayer(now);
    nowPlayer.seek(now->steps() - 1);
    EXPECT_EQ(nowPlayer.peakAllocated(bufferIndex(*now, "B")), 8);
    EXPECT_EQ(now->steps(), 2 * 4096);

    AnimationOptions seed;
    seed.rules = BoundRules::Tvm05;
    seed.maxEvents = 20'000; // the first few iterations are enough
    const auto old = record(fuse(), seed);
    EXPECT_TRUE(old->truncated());
    AnimationPlayer oldPlayer(old);
    oldPlayer.seek(old->steps() - 1);
    EXPECT_EQ(oldPlayer.peakAllocated(bufferIndex(*old, "B")), 4096);
    // The first iteration computes all of B before C's first 8 elements.
    oldPlayer.seek(4095);
    EXPECT_EQ(oldPlayer.liveNow(bufferIndex(*old, "B")), 4096);
}

TEST(LoopAnimation, TruncatesAtTheEventBudgetAndSaysSo) {
    AnimationOptions small;
    small.maxEvents = 10;
    const auto animation = record(rowsAttached(), small);
    EXPECT_TRUE(animation->truncated());
    EXPECT_LT(animation->steps(), 10);
    EXPECT_NE(animation->describeStep(0).find("of " + std::to_string(animation->steps()) + "+"),
              std::string::npos);
}

TEST(LoopAnimation, AProgramHoldingTooManyElementsIsRefusedBeforeItRuns) {
    // A and C (16 each) and one row of B (4): 36 elements.
    AnimationOptions options;
    options.maxElements = 35;
    try {
        LoopAnimation::record(rowsAttached(), options);
        FAIL() << "no error";
    } catch (const UserError& e) {
        EXPECT_EQ(e.diagnostic().message,
                  "the animation runs the program in the interpreter, which holds every element "
                  "of its arguments and buffers: 36 here, past the animation's limit of 35: try "
                  "it on smaller sizes, where the loops run the same way");
    }
    options.maxElements = 36;
    EXPECT_GT(record(rowsAttached(), options)->steps(), 0);
    options.maxElements = 0; // no limit
    EXPECT_GT(record(rowsAttached(), options)->steps(), 0);
}

TEST(LoopAnimation, EachOutputOfAStageCountsAsABuffer) {
    // M has two 4 x 4 outputs; Out reads both: A and Out (16 each) and M's two buffers, 64.
    Tensor A = placeholder({4, 4}, DataType::float32(), "A");
    std::vector<Tensor> m = computeMulti(
        {4, 4},
        [&](const std::vector<Var>& v) {
            return std::vector<Expr>{A({v[0], v[1]}) + f32(1), A({v[0], v[1]}) * f32(2)};
        },
        "M");
    Tensor Out = compute(
        {4, 4},
        [&](const std::vector<Var>& v) {
            return m[0]({v[0], v[1]}) + m[1]({v[0], v[1]});
        },
        "Out");
    AnimationOptions options;
    options.maxElements = 63;
    try {
        LoopAnimation::record(createSchedule(Out.op), options);
        FAIL() << "no error";
    } catch (const UserError& e) {
        EXPECT_NE(e.diagnostic().message.find("64 here, past the animation's limit of 63"),
                  std::string::npos)
            << e.diagnostic().message;
    }
    options.maxElements = 64;
    EXPECT_GT(record(createSchedule(Out.op), options)->steps(), 0);
}

TEST(LoopAnimation, GpuBlocksKeepTheirTiles) {
    Tensor A = placeholder({16}, DataType::float32(), "A");
    Tensor C = compute(
        {16}, [&](const std::vector<Var>& v) { return A({v[0]}) + f32(1); }, "C");
    Schedule s = createSchedule(C.op);
    auto [outer, inner] = s[C].split(opOf(C)->axis[0], 4);
    s[C].bind(outer, threadAxis("blockIdx.x"));
    s[C].bind(inner, threadAxis("threadIdx.x"));
    const auto animation = record(s);
    EXPECT_EQ(animation->blocks(), 4);
    AnimationPlayer player(animation);
    player.seek(animation->steps() - 1);
    const size_t c = bufferIndex(*animation, "C");
    for (int64_t cell = 0; cell < 16; ++cell)
        EXPECT_EQ(player.computedBy(c, cell), cell / 4) << cell;
    EXPECT_NE(AnimationPlayer::cellColor(AnimatedRole::Output, kCellComputed, 0),
              AnimationPlayer::cellColor(AnimatedRole::Output, kCellComputed, 1));
    EXPECT_NE(animation->describeStep(5).find("block 1 thread 1"), std::string::npos)
        << animation->describeStep(5);
    EXPECT_NE(player.describeCell(c, 6).find("by block 1"), std::string::npos);
}

TEST(LoopAnimation, FrameAsSvgAndJson) {
    const auto animation = record(rowsAttached());
    AnimationPlayer player(animation);
    player.seek(8);
    const std::string svg = player.toSvg();
    EXPECT_EQ(svg.rfind("<svg", 0), 0u);
    EXPECT_NE(svg.find("step 9 of 32"), std::string::npos);
    EXPECT_NE(svg.find("<title>B[1, 0]: computed at this step, live in its buffer</title>"),
              std::string::npos);
    EXPECT_NE(svg.find("<title>B[0, 0]: computed, then freed</title>"), std::string::npos);
    const auto json = nlohmann::json::parse(player.toJson());
    EXPECT_EQ(json["steps"], 32);
    EXPECT_EQ(json["step"], 9); // from 1, as the description
    EXPECT_EQ(json["cell_bits"]["live"], kCellLive);
    EXPECT_EQ(json["buffers"][1]["name"], "B");
    EXPECT_EQ(json["buffers"][1]["live_now"], 1);
    EXPECT_EQ(json["buffers"][1]["cells"].size(), 16u);
}

TEST(LoopAnimation, ScriptsThatCannotRunSayWhy) {
    Var n("n");
    Tensor A = placeholder({n}, DataType::float32(), "A");
    Tensor C = compute(
        {n}, [&](const std::vector<Var>& v) { return A({v[0]}) + f32(1); }, "C");
    EXPECT_THROW(LoopAnimation::record(createSchedule(C.op)), UserError);
}

TEST(LoopAnimation, BuffersOfMoreThanTwoDimensionsAreDrawnAsTiles) {
    AnimatedBuffer buffer;
    buffer.name = "T";
    buffer.mins = {0, 0, 0};
    buffer.shape = {4, 3, 5}; // four 3 x 5 tiles, laid out two by two
    EXPECT_EQ(buffer.drawSize(), (std::pair<int64_t, int64_t>{7, 11}));
    EXPECT_EQ(buffer.drawPosition(0), (std::pair<int64_t, int64_t>{0, 0}));
    EXPECT_EQ(buffer.drawPosition(15), (std::pair<int64_t, int64_t>{0, 6})); // tile 1
    EXPECT_EQ(buffer.drawPosition(30), (std::pair<int64_t, int64_t>{4, 0})); // tile 2
    for (int64_t cell = 0; cell < buffer.cells(); ++cell) {
        const auto [row, column] = buffer.drawPosition(cell);
        EXPECT_EQ(buffer.cellDrawnAt(row, column), cell);
    }
    EXPECT_EQ(buffer.cellDrawnAt(3, 0), -1); // the gap between tile rows
    EXPECT_EQ(buffer.cellDrawnAt(0, 5), -1); // and between tile columns
    EXPECT_EQ(buffer.cellName(15), "T[1, 0, 0]");
    buffer.shape = {3, 5};
    EXPECT_EQ(buffer.drawSize(), (std::pair<int64_t, int64_t>{3, 5}));
    EXPECT_EQ(buffer.cellDrawnAt(3, 0), -1);
}

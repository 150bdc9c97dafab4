// The heatmap of a buffer (analysis/Heatmap.h, issue 18 item 1): per element, the consumers
// that read it and whether it was computed, over one interpreter run; its counts are the
// allocation report's.
#include "AllocReportTestUtil.h"

#include "analysis/Heatmap.h"
#include "te/Reduce.h"

#include <nlohmann/json.hpp>

using namespace bs;
using namespace bs::test;

namespace {

/// The fuse example: C's axes fused and split into 512 parts, B computed at the outer loop.
Schedule fuseExample() {
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
}

/// Two consumers reading overlapping rows of T: row 1 is read by both.
Schedule overlapping() {
    Tensor A = placeholder({3, 4}, DataType::float32(), "A");
    Tensor T = compute(
        {3, 4},
        [&](const std::vector<Var>& v) {
            return A({v[0], v[1]}) * f32(2);
        },
        "T");
    Tensor P = compute(
        {2, 4},
        [&](const std::vector<Var>& v) {
            return T({v[0], v[1]}) + f32(1);
        },
        "P");
    Tensor Q = compute(
        {2, 4},
        [&](const std::vector<Var>& v) {
            return T({v[0] + 1, v[1]}) + f32(1);
        },
        "Q");
    Tensor Out = compute(
        {2, 4},
        [&](const std::vector<Var>& v) {
            return P({v[0], v[1]}) + Q({v[0], v[1]});
        },
        "Out");
    return createSchedule(Out.op);
}

} // namespace

TEST(Heatmap, GatherBoundShowsTheTwoRegionsAndTheEightElementsNoOneReads) {
    const Heatmap map = heatmapOf(gatherDisjoint(), "T");
    EXPECT_EQ(map.shape, (std::vector<int64_t>{4, 4}));
    EXPECT_EQ(map.consumers, (std::vector<std::string>{"CA", "CB"}));
    EXPECT_EQ(map.allocated, 16);
    EXPECT_EQ(map.computed, 16);
    EXPECT_EQ(map.read, 8);
    EXPECT_EQ(map.unread, 8);
    EXPECT_EQ(map.readBy, (std::vector<int64_t>{4, 4}));
    EXPECT_EQ(map.readByMany, 0);
    const std::string text = map.toText();
    EXPECT_NE(text.find("  aa..\n  aa..\n  ..bb\n  ..bb\n"), std::string::npos) << text;
}

TEST(Heatmap, UnderCompactTheBoxesArePackedAndEveryCellIsRead) {
    REQUIRE_ISL();
    // Issue 20: compact storage packs GatherBound's two corners, box after box.
    HeatmapOptions options;
    options.rules = BoundRules::Compact;
    const Heatmap map = heatmapOf(gatherDisjoint(), "T", options);
    EXPECT_EQ(map.allocated, 8);
    EXPECT_EQ(map.computed, 8);
    EXPECT_EQ(map.read, 8);
    EXPECT_EQ(map.unread, 0);
    EXPECT_EQ(map.readBy, (std::vector<int64_t>{4, 4}));
    const std::string text = map.toText();
    EXPECT_NE(text.find("  aaaabbbb\n"), std::string::npos) << text;
    EXPECT_NE(text.find("realized by InferBound step " + std::to_string(map.realizeStep)),
              std::string::npos);
}

TEST(Heatmap, CountsAreTheAllocationReports) {
    REQUIRE_ISL();
    for (const auto& [schedule, stage] :
         {std::pair{gatherDisjoint(), std::string("T")}, std::pair{fuseExample(), std::string("B")},
          std::pair{overlapping(), std::string("T")}}) {
        const AllocReport report = allocReport(schedule);
        const BufferReport& b = buffer(report, stage);
        const Heatmap map = heatmapOf(schedule, stage);
        // The cells are the allocation; those read or computed are the interpreter's touched
        // total; one entry's reads are its touched peak's reads.
        EXPECT_EQ(map.allocated, allocated(b, BoundRules::Tvm)) << stage;
        ASSERT_TRUE(b.touchedTotal.has_value()) << stage;
        int64_t touched = 0;
        for (size_t c = 0; c < map.readers.size(); ++c)
            touched += (map.readers[c] != 0 || map.written[c] != 0) ? 1 : 0;
        EXPECT_EQ(touched, *b.touchedTotal) << stage;
        EXPECT_EQ(map.touched, *b.touchedTotal) << stage;
        EXPECT_LE(map.entryRead, *b.touchedPeak) << stage;
    }
}

TEST(Heatmap, AStageRfactorRewroteIsFoundUnderItsName) {
    // B = sum_k A[i, k] factored over k.inner: B's stage runs `B.repl`, which lowering realizes
    // as B. The heatmap said B was never stored, and the report named the buffer B.repl, with
    // no touched counts.
    using namespace bs;
    Tensor a = placeholder({8, 12}, DataType::float32(), "A");
    IterVar k = reduceAxis(Range(0, 12), "k");
    Tensor b = compute(
        {8},
        [&](const std::vector<Var>& v) {
            return sum(a({v[0], k->var}), {k});
        },
        "B");
    Tensor c = compute(
        {8},
        [&](const std::vector<Var>& v) { return b({v[0]}) * makeConst(DataType::float32(), 2.0); },
        "C");
    Schedule s = createSchedule(c.op);
    IterVar inner = s[b].split(k, 4).second;
    s.rfactor(b, inner);
    const AllocReport report = allocReport(s);
    const BufferReport* buffer = report.find("B");
    ASSERT_NE(buffer, nullptr) << report.toText();
    EXPECT_EQ(buffer->stage, "B");
    ASSERT_TRUE(buffer->touchedTotal.has_value());
    EXPECT_EQ(*buffer->touchedTotal, 8);
    const Heatmap map = heatmapOf(s, "B");
    EXPECT_EQ(map.touched, 8);
    EXPECT_EQ(map.consumers, std::vector<std::string>{"C"});
}

TEST(Heatmap, UnderTheSeedsRulesEachIterationComputesTheWholeBufferForEight) {
    HeatmapOptions seed;
    seed.rules = BoundRules::Tvm05;
    const Heatmap old = heatmapOf(fuseExample(), "B", seed);
    EXPECT_EQ(old.shape, (std::vector<int64_t>{64, 64}));
    EXPECT_EQ(old.allocated, 4096);
    EXPECT_EQ(old.entries, 512);
    EXPECT_EQ(old.entryComputed, 4096);
    EXPECT_EQ(old.entryRead, 8);
    const Heatmap now = heatmapOf(fuseExample(), "B");
    EXPECT_EQ(now.allocated, 8);
    EXPECT_EQ(now.entryComputed, 8);
    EXPECT_EQ(now.entryRead, 8);
}

TEST(Heatmap, ElementsReadByTwoConsumersAreMarked) {
    const Heatmap map = heatmapOf(overlapping(), "T");
    EXPECT_EQ(map.consumers, (std::vector<std::string>{"P", "Q"}));
    EXPECT_EQ(map.readByMany, 4); // row 1
    EXPECT_EQ(map.read, 12);
    EXPECT_EQ(map.unread, 0);
    EXPECT_NE(map.toText().find("  aaaa\n  ****\n  bbbb\n"), std::string::npos) << map.toText();
    // The SVG has a cell per element, each saying who read it, and the legend's counts.
    const std::string svg = map.toSvg();
    EXPECT_EQ(svg.rfind("<svg", 0), 0u);
    EXPECT_NE(svg.find("<title>T[1, 2]: read by P, Q (2 reads); computed</title>"),
              std::string::npos);
    EXPECT_NE(svg.find("read by several consumers: 4"), std::string::npos);
    size_t cells = 0;
    for (size_t at = svg.find("<title>T["); at != std::string::npos;
         at = svg.find("<title>T[", at + 1))
        ++cells;
    EXPECT_EQ(cells, 12u);
    const nlohmann::json json = nlohmann::json::parse(map.toJson());
    EXPECT_EQ(json["legend"]["read_by_several"], 4);
    EXPECT_EQ(json["cells"].size(), 12u);
    EXPECT_EQ(json["cells"][4]["read_by"], (nlohmann::json{0, 1}));
}

TEST(Heatmap, ReadersAreNumberedPerBufferInAProgramOfManyStages) {
    // 40 stages hold produce blocks: each buffer still names its one reader.
    Tensor t = placeholder({16}, DataType::float32(), "A");
    for (int k = 1; k <= 40; ++k) {
        const Tensor in = t;
        t = compute(
            {16}, [in](const std::vector<Var>& v) { return in({v[0]}) + f32(1); },
            "S" + std::to_string(k));
    }
    const Schedule s = createSchedule(t.op);
    for (const char* stage : {"S2", "S35"}) {
        const Heatmap map = heatmapOf(s, stage);
        const int next = std::stoi(std::string(stage).substr(1)) + 1;
        EXPECT_EQ(map.consumers, std::vector<std::string>{"S" + std::to_string(next)}) << stage;
        EXPECT_EQ(map.read, 16) << stage;
        EXPECT_EQ(map.unread, 0) << stage;
    }
    // The input is an argument of the kernel: read, never computed by it.
    const Heatmap input = heatmapOf(s, "A");
    EXPECT_TRUE(input.isArgument);
    EXPECT_EQ(input.consumers, std::vector<std::string>{"S1"});
    EXPECT_EQ(input.computed, 0);
    EXPECT_NE(input.toText().find("an argument of the kernel"), std::string::npos);
}

TEST(Heatmap, OneRunServesEveryBuffer) {
    const HeatmapRun run(gatherDisjoint(), HeatmapOptions{});
    const Heatmap t = run.heatmap("T");
    EXPECT_EQ(t.unread, heatmapOf(gatherDisjoint(), "T").unread);
    EXPECT_EQ(t.readBy, (std::vector<int64_t>{4, 4}));
    const Heatmap ca = run.heatmap("CA");
    EXPECT_EQ(ca.consumers, std::vector<std::string>{"Out"});
    EXPECT_EQ(ca.read, 4);
    EXPECT_THROW(run.heatmap("Nope"), UserError);
}

TEST(Heatmap, AnArgumentsOneEntryIsItsWholeRun) {
    // `--iteration 1` of an output said "iteration 1 of Out is past its 1 entry": the run does
    // not enter an argument, so the one entry was never recorded.
    HeatmapOptions options;
    options.iteration = 0;
    const Heatmap whole = heatmapOf(gatherDisjoint(), "Out");
    const Heatmap entry = heatmapOf(gatherDisjoint(), "Out", options);
    EXPECT_TRUE(entry.isArgument);
    EXPECT_EQ(entry.iteration, 0);
    EXPECT_EQ(entry.entries, 1);
    EXPECT_EQ(entry.computed, whole.computed);
    EXPECT_EQ(entry.computed, 4);
    EXPECT_EQ(entry.written, whole.written);
    EXPECT_EQ(entry.entryComputed, 4);
    options.iteration = 1;
    EXPECT_THROW(heatmapOf(gatherDisjoint(), "Out", options), UserError);
}

TEST(Heatmap, TwoStagesOfTheDefaultNameAreShownApart) {
    // te.compute's default name: the heatmap showed the first stage called "compute" with the
    // output's buffer, found by that name. The schedule now names the second `compute_1`.
    Tensor A = placeholder({8, 8}, DataType::float32(), "A");
    Tensor B = compute(
        {8, 4},
        [&](const std::vector<Var>& v) {
            return A({v[0], v[1]}) * makeConst(DataType::float32(), 2.0);
        },
        "compute");
    Tensor C = compute(
        {8, 2},
        [&](const std::vector<Var>& v) {
            return B({v[0], v[1]}) + B({v[0], v[1] + 2});
        },
        "compute");
    const Schedule s = createSchedule(C.op);
    EXPECT_EQ(heatmapOf(s, "compute").shape, (std::vector<int64_t>{8, 4}));
    EXPECT_EQ(heatmapOf(s, "compute_1").shape, (std::vector<int64_t>{8, 2}));
}

TEST(Heatmap, AStageNameTwoStagesKeepIsRefused) {
    // Each `compute` was named by a schedule of its own first, so a schedule of both has two.
    Tensor A = placeholder({8}, DataType::float32(), "A");
    Tensor B = compute({8}, [&](const std::vector<Var>& v) { return A({v[0]}) + 1.0f; });
    Tensor C = compute({8}, [&](const std::vector<Var>& v) { return A({v[0]}) * 2.0f; });
    createSchedule(B.op);
    createSchedule(C.op);
    try {
        heatmapOf(createSchedule(std::vector<Operation>{B.op, C.op}), "compute");
        FAIL() << "no error";
    } catch (const UserError& e) {
        EXPECT_EQ(e.diagnostic().message, "stage name 'compute' is ambiguous: 2 stages have it; "
                                          "give the tensors distinct names");
    }
}

TEST(Heatmap, AStageWithoutABufferIsNamed) {
    Schedule s = gatherDisjoint();
    try {
        heatmapOf(s, "Nope");
        FAIL() << "no error";
    } catch (const UserError& e) {
        EXPECT_EQ(e.diagnostic().message,
                  "no stage 'Nope' in the schedule (its stages: A, T, CA, CB, Out)");
    }
    s[s.stages()[1]->op.output(0)].computeInline();
    try {
        heatmapOf(s, "T");
        FAIL() << "no error";
    } catch (const UserError& e) {
        EXPECT_EQ(e.diagnostic().message, "stage 'T' is computed inline: it has no buffer");
    }
}

TEST(Heatmap, AProgramPastTheBudgetIsRefusedBeforeItRuns) {
    // gatherDisjoint's kernel stores T (16), CA, CB and Out (4 each), with A (16) and Out (4)
    // its arguments: 28 stores over 20 argument elements.
    HeatmapOptions options;
    options.budget = 47;
    try {
        heatmapOf(gatherDisjoint(), "T", options);
        FAIL() << "no error";
    } catch (const UserError& e) {
        EXPECT_EQ(e.diagnostic().message,
                  "the heatmap runs the program in the interpreter, and this one makes up to 28 "
                  "stores "
                  "over 20 argument elements, past the heatmap's limit of 47 in all: try it on "
                  "smaller sizes, where the reads follow the same pattern (`boundscope alloc` "
                  "counts the touched elements of large programs from their access sets)");
    }
    // The same run for all of the program's buffers is refused the same way.
    EXPECT_THROW(HeatmapRun(gatherDisjoint(), options), UserError);
    options.budget = 48;
    EXPECT_EQ(heatmapOf(gatherDisjoint(), "T", options).unread, 8);
    options.budget = 0; // no limit
    EXPECT_EQ(heatmapOf(gatherDisjoint(), "T", options).unread, 8);
}

TEST(Heatmap, ALoopWhoseExtentIsNotConstantCountsItsMostStores) {
    // Under the tight rules B's split by 3 of 10 runs min(3, 10 - i.outer*3): at most 3 times
    // for each of 4 outer iterations, 12 stores (10 made) over A's and B's 20 elements.
    Tensor A = placeholder({10}, DataType::float32(), "A");
    Tensor B = compute(
        {10}, [&](const std::vector<Var>& v) { return A({v[0]}) * f32(2); }, "B");
    Schedule s = createSchedule(B.op);
    s[B].split(opOf(B)->axis[0], 3);
    HeatmapOptions options;
    options.rules = BoundRules::Tight;
    options.budget = 31;
    try {
        heatmapOf(s, "B", options);
        FAIL() << "no error";
    } catch (const UserError& e) {
        EXPECT_NE(e.diagnostic().message.find(
                      "and this one makes up to 12 stores over 20 argument elements, past the "
                      "heatmap's limit of 31 in all"),
                  std::string::npos)
            << e.diagnostic().message;
    }
    options.budget = 32;
    EXPECT_EQ(heatmapOf(s, "B", options).computed, 10);
}

TEST(Heatmap, CountsReadsPerElementAndTheIterationsThatReadIt) {
    // A 3-point stencil: C[i] reads B[i], B[i+1] and B[i+2]; B is computed at C's outer loop of
    // a split by 4, so each entry computes a window of 6 and its cells are read 1 to 3 times.
    Tensor A = placeholder({18}, DataType::float32(), "A");
    Tensor B = compute(
        {18}, [&](const std::vector<Var>& v) { return A({v[0]}) * f32(2); }, "B");
    Tensor C = compute(
        {16}, [&](const std::vector<Var>& v) { return B({v[0]}) + B({v[0] + 1}) + B({v[0] + 2}); },
        "C");
    Schedule s = createSchedule(C.op);
    auto [outer, inner] = s[C].split(opOf(C)->axis[0], 4);
    (void)inner;
    s[B].computeAt(s[C], outer);
    const Heatmap whole = heatmapOf(s, "B");
    EXPECT_EQ(whole.entries, 4);
    ASSERT_EQ(whole.shape, (std::vector<int64_t>{6}));
    // Within one window of 6: the ends are read once, the next twice, the middle three times.
    EXPECT_EQ(whole.describeCell(0),
              "B[0]: read by C (4 reads, in iterations 1-4); computed (4 stores)");
    EXPECT_EQ(whole.reads, (std::vector<uint32_t>{4, 8, 12, 12, 8, 4}));
    EXPECT_EQ(whole.writes, (std::vector<uint32_t>{4, 4, 4, 4, 4, 4}));
    EXPECT_GE(whole.realizeStep, 0);
    EXPECT_NE(
        whole.toText().find("realized by InferBound step " + std::to_string(whole.realizeStep)),
        std::string::npos);

    // One iteration alone: each element of the window computed once and read 1 to 3 times.
    HeatmapOptions third;
    third.iteration = 2;
    const Heatmap one = heatmapOf(s, "B", third);
    EXPECT_EQ(one.iteration, 2);
    EXPECT_EQ(one.entries, 4);
    EXPECT_EQ(one.reads, (std::vector<uint32_t>{1, 2, 3, 3, 2, 1}));
    EXPECT_EQ(one.computed, 6);
    EXPECT_EQ(one.entryRead, 6);
    EXPECT_EQ(one.describeCell(2), "B[2]: read by C (3 reads); computed");
    EXPECT_NE(one.toText().find("iteration 3 of 4 alone"), std::string::npos) << one.toText();
    const nlohmann::json json = nlohmann::json::parse(one.toJson());
    EXPECT_EQ(json["iteration"], 3);
    EXPECT_EQ(json["cells"][2]["reads"], 3);

    HeatmapOptions past;
    past.iteration = 4;
    try {
        heatmapOf(s, "B", past);
        FAIL() << "no error";
    } catch (const UserError& e) {
        EXPECT_EQ(e.diagnostic().message, "iteration 5 of B is past its 4 entries");
    }
}

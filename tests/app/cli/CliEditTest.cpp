// `boundscope edit FILE.py "STAGE.PRIMITIVE(ARGS)"` (issue 17, item 4): golden tests of where
// each edit lands (tests/app/cli/golden/edit: NAME.py starts with `# edit: CALL`, and
// NAME.expected.py is the script the command prints), every edited script checked to run and
// lower, `-i`, and the refusals.
#include "CliRun.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace bs::test {
namespace {

namespace fs = std::filesystem;

const fs::path kGolden = fs::path(BOUNDSCOPE_CLI_GOLDEN) / "edit";

std::string quoted(const std::string& text) {
    std::string out = "'";
    for (char c : text)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

/// The call in the script's first line, `# edit: CALL`.
std::string callOf(const fs::path& script) {
    std::string first = readAll(script);
    first = first.substr(0, first.find('\n'));
    const std::string prefix = "# edit: ";
    return first.rfind(prefix, 0) == 0 ? first.substr(prefix.size()) : std::string();
}

std::vector<fs::path> goldenScripts() {
    std::vector<fs::path> scripts;
    for (const auto& entry : fs::directory_iterator(kGolden)) {
        const std::string name = entry.path().filename().string();
        if (entry.path().extension() == ".py" && name.find(".expected.") == std::string::npos)
            scripts.push_back(entry.path());
    }
    std::sort(scripts.begin(), scripts.end());
    return scripts;
}

#ifdef BOUNDSCOPE_WITH_PYTHON

TEST(CliEdit, EachEditLandsWhereTheGoldenScriptHasIt) {
    const std::vector<fs::path> scripts = goldenScripts();
    ASSERT_GE(scripts.size(), 17u);
    for (const fs::path& script : scripts) {
        SCOPED_TRACE(script.filename().string());
        const std::string call = callOf(script);
        ASSERT_FALSE(call.empty()) << "the first line must be `# edit: CALL`";
        const CommandResult edited = runCli("edit " + quoted(script) + " " + quoted(call));
        EXPECT_EQ(edited.exitCode, 0) << edited.err;
        fs::path expected = script;
        expected.replace_extension(".expected.py");
        EXPECT_EQ(edited.out, readAll(expected));
        EXPECT_NE(edited.err.find(": note: "), std::string::npos) << edited.err;
        // The edited script runs and its program lowers.
        const CommandResult lowered = runCli("lower " + quoted(expected.string()));
        EXPECT_EQ(lowered.exitCode, 0) << lowered.err;
    }
}

TEST(CliEdit, InPlaceWritesTheFileAndSaysWhere) {
    const fs::path copy = fs::temp_directory_path() / "bs_cli_edit_in_place.py";
    fs::copy_file(kGolden / "set_scope_replaces.py", copy, fs::copy_options::overwrite_existing);
    const CommandResult result =
        runCli("edit -i " + quoted(copy.string()) + " \"B.set_scope('local')\"");
    EXPECT_EQ(result.exitCode, 0) << result.err;
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(readAll(copy), readAll(kGolden / "set_scope_replaces.expected.py"));
    EXPECT_NE(result.err.find("bs_cli_edit_in_place.py:10: note: replaced "
                              "`s[B].set_scope(\"global\")` by `s[B].set_scope(\"local\")`"),
              std::string::npos)
        << result.err;
    fs::remove(copy);
}

TEST(CliEdit, AnEditPastTheTimeLimitSaysSoAndLeavesTheFileAlone) {
    // The script takes 1.2 s; the edit runs it again to check the edit, past the 2 s limit.
    // That check was cancelled as "no place in the script gives the schedule", or, in a race,
    // compared two cancelled lowerings as equal and wrote an edit it had not checked.
    const fs::path copy = fs::temp_directory_path() / "bs_cli_edit_timeout.py";
    fs::copy_file(fs::path(BOUNDSCOPE_CLI_SCRIPTS) / "slow_script.py", copy,
                  fs::copy_options::overwrite_existing);
    const std::string before = readAll(copy);
    const CommandResult result =
        runCli("edit --timeout 2 -i " + quoted(copy.string()) + " 'B.split(B.op.axis[0], 8)'");
    EXPECT_EQ(result.exitCode, 1) << result.err;
    EXPECT_EQ(result.err, "boundscope: error: " + copy.string() +
                              ": stopped after 2 s: the command ran past its time limit "
                              "(--timeout SECONDS sets it; 0: none; the default is 300 s)\n");
    EXPECT_EQ(readAll(copy), before);
    fs::remove(copy);
}

TEST(CliEdit, AnEditOfOneOfTwoStagesOfOneNameIsRefusedNotMadeOnTheOther) {
    // P and Q are both `compute` in the schedule (each was named by a schedule of its own
    // first). `Q.compute_inline()` was written as `s[P].compute_inline()`, over P's compute_at.
    const CommandResult r = runCli("edit names_fixed_apart.py 'Q.compute_inline()'");
    EXPECT_EQ(r.exitCode, 1) << r.out;
    EXPECT_NE(r.err.find("2 stages are named 'compute': give them names of their own"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.out, "");
}

TEST(CliEdit, RefusalsNameTheProblemAndLeaveTheFileAlone) {
    const fs::path copy = fs::temp_directory_path() / "bs_cli_edit_refused.py";
    const fs::path original = kGolden / "split_after_readers_of_its_loop.py";
    fs::copy_file(original, copy, fs::copy_options::overwrite_existing);
    const std::string file = quoted(copy.string());
    const struct {
        std::string call;
        std::string message;
    } cases[] = {
        {"C.spilt(xo, factor=2)", "error: 'spilt' is not a primitive an edit can make"},
        {"D.compute_inline()", "error: no stage 'D' in the schedule (its stages: A, B, C)"},
        {"C.split(k, factor=2)", "error: 'k' is not a loop of stage 'C' (its loops: i.outer, "
                                 "i.inner)"},
        {"C.split(xo, factor=n)", "error: split: factor must be an integer constant, got 'n'"},
        {"C.split(xo, factor=-3)", "error: split: factor must be a positive integer, got -3"},
        {"C.split(xo, factor='8')", "error: split: factor must be an integer constant, got '8'"},
        {"C.fuse(xo)", "error: fuse takes two loops of stage 'C' (a loop and the next one), "
                       "got 1"},
        {"C.split(xo, factor=2", "error: 'C.split(xo, factor=2' is not Python"},
        {"C.set_scope(local)", "error: set_scope: the scope must be a string, got 'local'"},
        // the engine's own refusal, met on the dry run
        {"C.compute_at(B, i)", "error: compute_at of stage 'B' at 'i.outer' of stage 'C': it "
                               "makes an attach cycle B -> C -> B"},
        {"B.fuse(i, i)", "error: "},
        {"split(xo)", "error: 'split(xo)': expected STAGE.PRIMITIVE(ARGS)"},
        {"C.split(xo, factor=2, nparts=2)", "error: split takes factor or nparts, not both"},
        {"C.split(xo, 4, factor=8)", "error: split got its argument 'factor' twice"},
        {"C.unroll(xo, xi)", "error: unroll takes at most 1 arguments, got 2"},
        {"C.bind(xo, 'blockIdx.x', 3)", "error: bind takes at most 2 arguments, got 3"},
        {"C.vectorize(xi, axis=1)", "error: vectorize has no argument 'axis'"},
        {"C.vectorize(B.op.axis[0])", "error: 'B.op.axis[0]' is an axis of stage 'B', not of 'C'"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.call);
        const CommandResult result = runCli("edit -i " + file + " " + quoted(c.call));
        EXPECT_EQ(result.exitCode, 1);
        EXPECT_NE(result.err.find(copy.string() + ": " + c.message), std::string::npos)
            << result.err;
        EXPECT_EQ(result.out, "");
        EXPECT_EQ(readAll(copy), readAll(original));
    }
    fs::remove(copy);
    const CommandResult missing = runCli("edit missing.py \"C.compute_root()\"");
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("cannot open 'missing.py'"), std::string::npos) << missing.err;
}

TEST(CliDiff, TheSeedsRulesAgainstTvmSideBySide) {
    // Issue 18's example: under the seed's rules B is allocated whole, under TVM's 8 elements.
    const std::string example = std::string(BOUNDSCOPE_EXAMPLES) + "/fuse_split_attach.py";
    const CommandResult r = runCli("diff " + quoted(example) + " --rules tvm-0.5,tvm");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("lowered IR: 7 of 17 lines differ"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("~     allocate B[int32 * 4096]"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("|     allocate B[int32 * 8]\n"), std::string::npos) << r.out;
    EXPECT_NE(
        r.out.find("~ B.j (root)  min=0, ext=64 | min=(floormod(i.j.fused.outer, 8)*8), ext=8"),
        std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("~ B  4096 (needed 8) | 8 (needed 8)\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("= C  4096 (needed 4096) | 4096 (needed 4096)\n"), std::string::npos);
    const CommandResult json = runCli("diff " + quoted(example) + " --rules tvm-0.5,tvm --json");
    ASSERT_EQ(json.exitCode, 0) << json.err;
    EXPECT_NE(json.out.find("\"buffer\": \"B\",\n      \"a\": \"4096\",\n      \"b\": \"8\""),
              std::string::npos)
        << json.out;
}

TEST(CliDiff, TheSecondScriptGetsWhatTheFirstLeftOfTheTimeLimit) {
    // Each script takes 1.2 s, and --timeout covers the whole command: the second stops at the
    // command's 2 s. Each script had the whole limit, so `diff` ran for up to twice it.
    const std::string slow = "slow_script.py";
    const CommandResult r = runCli("diff --timeout 2 " + slow + " " + slow);
    EXPECT_EQ(r.exitCode, 1) << r.out;
    EXPECT_EQ(r.err.rfind("slow_script.py:8: error: timed out after 2 s\n", 0), 0u) << r.err;
}

TEST(CliDiff, TwoScriptsAndUsageErrors) {
    const std::string ex2 = std::string(BOUNDSCOPE_EXAMPLES) + "/ex2_attach_inner.py";
    const std::string ex3 = std::string(BOUNDSCOPE_EXAMPLES) + "/ex3_attach_outer.py";
    const CommandResult r = runCli("diff " + quoted(ex2) + " " + quoted(ex3));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("A: " + ex2 + ", rules tvm\nB: " + ex3 + ", rules tvm\n"),
              std::string::npos)
        << r.out;
    const CommandResult same = runCli("diff " + quoted(ex2));
    EXPECT_EQ(same.exitCode, 2);
    EXPECT_NE(same.err.find("give a second script, or two rule sets"), std::string::npos);
    const CommandResult bad = runCli("diff " + quoted(ex2) + " --rules tvm,nope");
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("--rules takes one rule set or two separated by a comma"),
              std::string::npos)
        << bad.err;
}

TEST(CliReport, OneSelfContainedHtmlFileWithEveryGraph) {
    const std::string example = std::string(BOUNDSCOPE_EXAMPLES) + "/ex6_shared_scope.py";
    const fs::path out = fs::temp_directory_path() / "bs_cli_report.html";
    fs::remove(out);
    const CommandResult r = runCli("report " + quoted(example) + " -o " + quoted(out.string()));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string html = readAll(out);
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_NE(html.find("<title>ex6_shared_scope.py - Boundscope report</title>"),
              std::string::npos);
    // The script (escaped), the IR, the allocations and the steps.
    EXPECT_NE(html.find("s[B].set_scope(&quot;shared&quot;)"), std::string::npos);
    EXPECT_NE(html.find("produce C {\n"), std::string::npos) << "line breaks kept";
    EXPECT_NE(html.find("InferBound visits output &#39;C&#39;"), std::string::npos) << "the steps";
    // Every graph inline: the DAG, the attach tree, IterVars of B and C, requests of B.
    size_t svgs = 0;
    for (size_t at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1))
        ++svgs;
    EXPECT_EQ(svgs, 5u);
    // Self-contained: nothing fetched (namespaces in the SVG are names, not requests).
    for (const char* external :
         {"src=", "<link", "<script", "href=\"http", "url(http", "<!DOCTYPE svg"})
        EXPECT_EQ(html.find(external), std::string::npos) << external;
    // Well formed enough for a browser: every <pre>, <figure> and <details> closed.
    for (const char* tag : {"pre", "figure", "details", "svg"}) {
        const auto count = [&](const std::string& what) {
            size_t n = 0;
            for (size_t at = html.find(what); at != std::string::npos; at = html.find(what, at + 1))
                ++n;
            return n;
        };
        EXPECT_EQ(count(std::string("<") + tag), count(std::string("</") + tag + ">")) << tag;
    }
    fs::remove(out);
}

TEST(CliEdit, AnEditThatBreaksTheScheduleIsRefusedWithTheFix) {
    // B computed at a loop of D, which does not read it: no iteration of that loop can compute
    // what C reads. The edit is refused with lowering's reason and the change that works.
    const fs::path script = fs::temp_directory_path() / "bs_cli_edit_breaks.py";
    {
        std::ofstream out(script);
        out << "import tvm\nfrom tvm import te\n"
               "A = te.placeholder((64,), name=\"A\")\n"
               "B = te.compute((64,), lambda i: A[i] + 1, name=\"B\")\n"
               "C = te.compute((64,), lambda i: B[i] * 2, name=\"C\")\n"
               "D = te.compute((64,), lambda i: C[i] - 1, name=\"D\")\n"
               "s = te.create_schedule(D.op)\n";
    }
    const std::string before = readAll(script);
    const CommandResult result =
        runCli("edit -i " + quoted(script.string()) + " 'B.compute_at(D, i)'");
    EXPECT_EQ(result.exitCode, 1);
    EXPECT_NE(result.err.find("compute_at B \u2192 D.i would break the schedule: invalid schedule: "
                              "'B' is computed at loop 'i' of 'D', but its consumer 'C' does not "
                              "run inside that loop"),
              std::string::npos)
        << result.err;
    EXPECT_NE(result.err.find("(fix: s[B].compute_at(s[C], C.op.axis[0])"), std::string::npos)
        << result.err;
    EXPECT_EQ(readAll(script), before);
    fs::remove(script);
}

TEST(CliEdit, AnEditNoPlaceGivesTheScheduleItWasTriedOnIsRefused) {
    // The loops are split inside a block the placement does not enter: at the top level the
    // edit would name i.inner by a position that means another loop there, and after the block
    // it would follow the lower; the check run of the edited script sees both.
    const fs::path script = fs::temp_directory_path() / "bs_cli_edit_in_block.py";
    {
        std::ofstream out(script);
        out << "import tvm\nfrom tvm import te\n\n"
               "A = te.placeholder((64, 64), name=\"A\")\n"
               "C = te.compute((64, 64), lambda i, j: A[i, j] + 1, name=\"C\")\n"
               "s = te.create_schedule(C.op)\n"
               "if __name__ == \"__main__\":\n"
               "    xo, xi = s[C].split(C.op.axis[0], factor=8)\n"
               "    print(tvm.lower(s, [A, C], simple_mode=True))\n";
    }
    const std::string before = readAll(script);
    const CommandResult result =
        runCli("edit -i " + quoted(script.string()) + " 'C.unroll(i.inner)'");
    EXPECT_EQ(result.exitCode, 1);
    EXPECT_NE(result.err.find(": error: no place in the script gives the schedule the edit was "
                              "tried on"),
              std::string::npos)
        << result.err;
    EXPECT_EQ(readAll(script), before);
    fs::remove(script);
}

TEST(CliHeatmap, GatherBoundTheTwoRegionsAndTheEightElementsNoOneReads) {
    // Issue 18's example: T is computed whole, 16 elements, for two 2x2 requests.
    const std::string example = std::string(BOUNDSCOPE_EXAMPLES) + "/gather_disjoint.py";
    const CommandResult r = runCli("heatmap " + quoted(example) + " --buffer T");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "T: 16 elements allocated under tvm (shape 4 4, 1 entry)\n"
                     "  its region was realized by InferBound step 68 (boundscope steps)\n"
                     "  computed 16, read 8, read by no consumer 8, read by several 0\n"
                     "  a = read by CA: 4\n"
                     "  b = read by CB: 4\n"
                     "  aa..\n  aa..\n  ..bb\n  ..bb\n");
    const fs::path svg = fs::temp_directory_path() / "bs_cli_heatmap.svg";
    fs::remove(svg);
    ASSERT_EQ(
        runCli("heatmap " + quoted(example) + " --buffer T -o " + quoted(svg.string())).exitCode,
        0);
    const std::string picture = readAll(svg);
    EXPECT_EQ(picture.rfind("<svg", 0), 0u);
    EXPECT_NE(picture.find("read by no consumer: 8 of 16"), std::string::npos) << picture;
    // A PNG of the grid: 4 x 4 cells of 16 pixels inside a margin of 4.
    const fs::path png = fs::temp_directory_path() / "bs_cli_heatmap.png";
    ASSERT_EQ(
        runCli("heatmap " + quoted(example) + " --buffer T -o " + quoted(png.string())).exitCode,
        0);
    const std::string image = readAll(png);
    ASSERT_GT(image.size(), 33u);
    EXPECT_EQ(image.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    EXPECT_EQ(image.substr(12, 4), "IHDR");
    auto big32 = [&](size_t at) {
        return (uint32_t(uint8_t(image[at])) << 24) | (uint32_t(uint8_t(image[at + 1])) << 16) |
               (uint32_t(uint8_t(image[at + 2])) << 8) | uint32_t(uint8_t(image[at + 3]));
    };
    EXPECT_EQ(big32(16), 72u); // width
    EXPECT_EQ(big32(20), 72u); // height
    fs::remove(png);
    fs::remove(svg);
}

TEST(CliHeatmap, TheSeedsRulesComputeTheWholeBufferForEight) {
    const std::string example = std::string(BOUNDSCOPE_EXAMPLES) + "/fuse_split_attach.py";
    const CommandResult seed = runCli("heatmap " + quoted(example) + " --buffer B --rules tvm-0.5");
    ASSERT_EQ(seed.exitCode, 0) << seed.err;
    EXPECT_NE(seed.out.find("B: 4096 elements allocated under tvm-0.5 (shape 64 64, 512 entries)"),
              std::string::npos)
        << seed.out;
    EXPECT_NE(seed.out.find("one entry computes up to 4096 and reads up to 8"), std::string::npos);
    const CommandResult tvm = runCli("heatmap " + quoted(example) + " --buffer B");
    EXPECT_NE(tvm.out.find("one entry computes up to 8 and reads up to 8"), std::string::npos);
    // One iteration alone: under the seed's rules its entry computes all 4096 for one row of 8.
    const CommandResult one =
        runCli("heatmap " + quoted(example) + " --buffer B --rules tvm-0.5 --iteration 3");
    ASSERT_EQ(one.exitCode, 0) << one.err;
    EXPECT_NE(one.out.find("iteration 3 of 512 alone"), std::string::npos) << one.out;
    EXPECT_NE(one.out.find("computed 4096, read 8, read by no consumer 4088"), std::string::npos)
        << one.out;
    const CommandResult past = runCli("heatmap " + quoted(example) + " --buffer B --iteration 513");
    EXPECT_EQ(past.exitCode, 1);
    EXPECT_NE(past.err.find("iteration 513 of B is past its 512 entries"), std::string::npos);
}

TEST(CliReport, AWastefulBufferGetsItsHeatmap) {
    // Issue 18's example: the report of GatherBound shows who reads T, and the 8 no one reads.
    const std::string example = std::string(BOUNDSCOPE_EXAMPLES) + "/gather_disjoint.py";
    const fs::path out = fs::temp_directory_path() / "bs_cli_report_gather.html";
    fs::remove(out);
    ASSERT_EQ(runCli("report " + quoted(example) + " -o " + quoted(out.string())).exitCode, 0);
    const std::string html = readAll(out);
    EXPECT_NE(html.find("<figcaption>Who reads the elements of T</figcaption>"), std::string::npos);
    EXPECT_NE(html.find("read by no consumer: 8 of 16"), std::string::npos);
    EXPECT_NE(html.find("<title>T[3, 3]: read by CB (1 read); computed</title>"),
              std::string::npos);
    fs::remove(out);
}

TEST(CliAnimate, PlaysTheLoopNestOneStoreAtATime) {
    // Ex. 3: C computed at D's row loop; one row of C is allocated and live while D reads it.
    const std::string example = std::string(BOUNDSCOPE_EXAMPLES) + "/ex3_attach_outer.py";
    const CommandResult r = runCli("animate " + quoted(example) + " --step 18");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "step 18 of 160: computes D[0, 1] from C[0, 1]\n"
                     "  D: output, 2 of 80 computed\n"
                     "  C: allocated 16 now (at most 16), live 16, 16 of its 80 computed so far\n");
    const fs::path svg = fs::temp_directory_path() / "bs_cli_animate.svg";
    fs::remove(svg);
    ASSERT_EQ(
        runCli("animate " + quoted(example) + " --step 17 -o " + quoted(svg.string())).exitCode, 0);
    const std::string picture = readAll(svg);
    EXPECT_EQ(picture.rfind("<svg", 0), 0u);
    EXPECT_NE(picture.find("<title>D[0, 0]: computed at this step</title>"), std::string::npos);
    EXPECT_NE(picture.find("<title>C[0, 0]: read at this step, live in its buffer</title>"),
              std::string::npos);
    fs::remove(svg);

    const CommandResult past = runCli("animate " + quoted(example) + " --step 161");
    EXPECT_EQ(past.exitCode, 2);
    EXPECT_NE(past.err.find("--step 161 is past the 160 steps recorded"), std::string::npos)
        << past.err;
    const CommandResult format = runCli("animate " + quoted(example) + " -o frame.gif");
    EXPECT_EQ(format.exitCode, 2);
    for (const char* bad : {"0", "-1", "abc"}) {
        const CommandResult step = runCli("animate " + quoted(example) + " --step " + bad);
        EXPECT_EQ(step.exitCode, 2) << bad;
        EXPECT_NE(step.err.find(std::string("a whole number from 1 is wanted, got '") + bad + "'"),
                  std::string::npos)
            << step.err;
    }
    // A recording cut before the first store says how to get one.
    const CommandResult early = runCli("animate " + quoted(example) + " --max-events 1");
    EXPECT_EQ(early.exitCode, 1);
    EXPECT_NE(early.err.find("hold no store yet; raise --max-events"), std::string::npos)
        << early.err;
}

TEST(CliAnimate, AKernelWithBarriersLoadsItsSharedTilesBeforeAnyThreadReadsThem) {
    // The threads of a block wait at the barrier as on a GPU: all 256 elements of both shared
    // tiles are live before the first multiply-add reads them.
    const std::string example = std::string(BOUNDSCOPE_EXAMPLES) + "/gpu_matmul_shared.py";
    const CommandResult r = runCli("animate " + quoted(example) + " --step 769 --max-events 5000");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("step 769 of 1570+: computes C[0, 0] from C[0, 0], A.shared[0, 0], "
                         "B.shared[0, 0], block 0 thread 0\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("A.shared: allocated 256 now (at most 256), live 256"), std::string::npos);
    EXPECT_NE(r.out.find("B.shared: allocated 256 now (at most 256), live 256"), std::string::npos);
}

TEST(CliHeatmap, AProgramTooLargeToRunIsRefusedAndNothingIsWritten) {
    // 134 million stores: the interpreter would take minutes and gigabytes.
    const fs::path svg = fs::temp_directory_path() / "bs_cli_heatmap_large.svg";
    fs::remove(svg);
    const CommandResult r =
        runCli("heatmap heatmap_too_large.py --buffer B -o " + quoted(svg.string()));
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("heatmap_too_large.py: error: the heatmap runs the program in the "
                         "interpreter, and this one makes up to 134.2 million stores over 134.2 "
                         "million "
                         "argument elements, past the heatmap's limit of 32.0 million in all"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(svg));
    // The animation of the same program holds 134 million elements (A, C and 8 rows of B).
    const CommandResult animate = runCli("animate heatmap_too_large.py -o " + quoted(svg.string()));
    EXPECT_EQ(animate.exitCode, 1);
    EXPECT_NE(animate.err.find("heatmap_too_large.py: error: the animation runs the program in "
                               "the interpreter, which holds every element of its arguments and "
                               "buffers: 134.3 million here, past the animation's limit of 32.0 "
                               "million"),
              std::string::npos)
        << animate.err;
    EXPECT_FALSE(fs::exists(svg));
}

TEST(CliHeatmap, MistakesAreNamed) {
    const std::string example = std::string(BOUNDSCOPE_EXAMPLES) + "/gather_disjoint.py";
    const CommandResult missing = runCli("heatmap " + quoted(example) + " --buffer Q");
    EXPECT_EQ(missing.exitCode, 1);
    EXPECT_NE(missing.err.find("no stage 'Q' in the schedule (its stages: A, T, CA, CB, Out)"),
              std::string::npos)
        << missing.err;
    const CommandResult format = runCli("heatmap " + quoted(example) + " --buffer T -o t.gif");
    EXPECT_EQ(format.exitCode, 2);
    EXPECT_NE(format.err.find("the output must end in .svg, .png or .json, got 't.gif'"),
              std::string::npos)
        << format.err;
}

#endif

} // namespace
} // namespace bs::test

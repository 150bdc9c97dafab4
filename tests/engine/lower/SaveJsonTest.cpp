// save_json / load_json (schedule/SaveJson.h): a saved and loaded schedule lowers to the same
// program as the original, its parts refer to each other as the saved ones did, and text that is
// not a saved graph is one UserError.
#include "schedule/SaveJson.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "lower/Lower.h"
#include "support/DeepStack.h"
#include "te/Compute.h"
#include "te/Reduce.h"
#include "te/Scan.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace bs;

namespace {

/// A schedule and the arguments it is lowered with, saved and loaded as one array.
struct Program {
    Schedule sch;
    std::vector<Tensor> args;
};

Program roundTrip(const Program& p) {
    std::vector<SavedValue> args;
    for (const Tensor& t : p.args)
        args.push_back(SavedValue::of(t));
    SavedValue saved = SavedValue::array({SavedValue::of(p.sch), SavedValue::array(args)});
    SavedValue loaded = loadJson(saveJson(saved));
    EXPECT_EQ(loaded.kind, SavedValue::Kind::Array);
    Program out{loaded.items.at(0).schedule, {}};
    for (const SavedValue& t : loaded.items.at(1).items)
        out.args.push_back(t.tensor);
    return out;
}

std::string lowered(const Program& p, LowerPass pass) {
    return toString(lower(p.sch, p.args).func.after(pass));
}

void expectSameLowering(const Program& original) {
    Program loaded = roundTrip(original);
    ASSERT_TRUE(loaded.sch.defined());
    EXPECT_FALSE(loaded.sch.same_as(original.sch));
    for (LowerPass pass : {LowerPass::ScheduleOps, LowerPass::Final})
        EXPECT_EQ(lowered(loaded, pass), lowered(original, pass));
}

std::string loadError(const std::string& text) {
    try {
        loadJson(text);
    } catch (const UserError& e) {
        return e.what();
    }
    return "loaded";
}

/// C = A * 2 through a shared cache of A, D = sum over k of C, split, bound to threads,
/// computed at, rfactored and grouped.
Program scheduled() {
    Tensor a = placeholder({64, 32}, DataType::float32(), "A");
    Tensor c = compute(
        {64, 32},
        [&](const std::vector<Var>& v) {
            return a({v[0], v[1]}) * 2.0f;
        },
        "C");
    IterVar k = reduceAxis(Range(0, 32), "k");
    Tensor d = compute(
        {64},
        [&](const std::vector<Var>& v) {
            return sum(c({v[0], k}), {k});
        },
        "D");
    Schedule sch = createSchedule(d.op);
    Tensor shared = sch.cacheRead(a, "shared", {c.op});
    auto [ko, ki] = sch[d].split(k, 8);
    std::vector<Tensor> rf = sch.rfactor(d, ki);
    const auto* dop = sch[d]->op.as<ComputeOpNode>();
    auto [xo, xi] = sch[d].split(dop->axis[0], 16);
    sch[d].bind(xo, threadAxis("blockIdx.x"));
    sch[rf[0]].computeAt(sch[d], xi);
    sch[c].computeAt(sch[rf[0]], rf[0].op.as<ComputeOpNode>()->axis[0]);
    sch[shared].computeAt(sch[c], c.op.as<ComputeOpNode>()->axis[0]);
    sch[c].pragma(c.op.as<ComputeOpNode>()->axis[1], "unroll_explicit", Expr(1));
    return {sch, {a, d}};
}

} // namespace

TEST(SaveJson, AScheduledProgramLowersToTheSameTextAfterLoading) {
    expectSameLowering(scheduled());
}

TEST(SaveJson, TheLoadedPartsReferToEachOtherAsTheSavedOnesDid) {
    Program original = scheduled();
    Program loaded = roundTrip(original);
    // rfactor replaced D's operation: the stage of the argument D computes the schedule's output.
    ASSERT_TRUE(original.sch[original.args[1]]->op.same_as(original.sch->outputs.at(0)));
    const Tensor& d = loaded.args[1];
    ASSERT_EQ(loaded.sch->outputs.size(), 1u);
    Stage stage = loaded.sch[d];
    EXPECT_TRUE(stage->op.same_as(loaded.sch->outputs[0]));
    EXPECT_FALSE(stage->op.same_as(d.op));
    // The loops of the stage are the IterVars its relations made, and its body reads the
    // variables of its own axes.
    ASSERT_FALSE(stage->relations.empty());
    for (const IterVar& leaf : stage->leafIterVars)
        EXPECT_TRUE(stage.hasIterVar(leaf)) << leaf->var.name();
    const auto* rf = loaded.sch.stages()[3]->op.as<ComputeOpNode>();
    ASSERT_NE(rf, nullptr);
    EXPECT_TRUE(loaded.sch[loaded.sch.stages()[3]->op]->attachStage.same_as(stage));
}

TEST(SaveJson, AScheduleSavedWithTwoStagesOfOneNameLoadsWithNamesOfTheirOwn) {
    // create_schedule names stages apart (`compute`, `compute_1`); a schedule saved before it
    // did holds two `compute`s, and loads as create_schedule would have made it.
    Tensor a = placeholder({8}, DataType::float32(), "A");
    Tensor b = compute(
        {8}, [&](const std::vector<Var>& v) { return a({v[0]}) * 2.0f; }, "compute");
    Tensor c = compute(
        {8}, [&](const std::vector<Var>& v) { return b({v[0]}) + 1.0f; }, "compute");
    std::string text = saveJson(SavedValue::of(createSchedule(c.op)));
    const std::string renamed = "\"compute_1\"";
    const size_t at = text.find(renamed);
    ASSERT_NE(at, std::string::npos);
    ASSERT_EQ(text.find(renamed, at + 1), std::string::npos);
    text.replace(at, renamed.size(), "\"compute\"");
    const Schedule loaded = loadJson(text).schedule;
    ASSERT_EQ(loaded.stages().size(), 3u);
    EXPECT_EQ(loaded.stages()[1]->op->name, "compute");
    EXPECT_EQ(loaded.stages()[2]->op->name, "compute_1");
}

TEST(SaveJson, AProgramWithAScanAndSymbolicShapesLowersTheSame) {
    Var n = Var::sizeVar("n");
    Tensor x = placeholder({n, 6}, DataType::float32(), "X");
    Tensor state = placeholder({n, 6}, DataType::float32(), "state");
    Tensor init = compute(
        {1, 6},
        [&](const std::vector<Var>& v) {
            return x({0, v[1]});
        },
        "init");
    Tensor update = compute(
        {n, 6},
        [&](const std::vector<Var>& v) {
            return state({v[0] - 1, v[1]}) + x({v[0], v[1]});
        },
        "update");
    Tensor res = scan({init}, {update}, {state}, {x}, "scan")[0];
    Schedule sch = createSchedule(res.op);
    sch[update].split(update.op.as<ComputeOpNode>()->axis[1], 4);
    expectSameLowering({sch, {x, res}});
}

TEST(SaveJson, ExpressionsKeepTheirTypesAndConstantsExactly) {
    Var i("i");
    Expr tenth = FloatImmNode::make(DataType::float64(), 0.1);
    Expr infinity = FloatImmNode::make(DataType::float64(), HUGE_VAL);
    Expr e = select(i < 3, cast(DataType::float64(), i) * tenth, infinity);
    SavedValue loaded = loadJson(saveJson(SavedValue::of(NodeRef(e))));
    Expr back(static_cast<const ExprNode*>(loaded.node.get()));
    EXPECT_EQ(toString(back), toString(e));
    EXPECT_EQ(back.type(), DataType::float64());
    const auto* sel = back.as<SelectNode>();
    ASSERT_NE(sel, nullptr);
    EXPECT_EQ(sel->trueValue.as<MulNode>()->b.as<FloatImmNode>()->value, 0.1);
    EXPECT_EQ(sel->falseValue.as<FloatImmNode>()->value, HUGE_VAL);
}

TEST(SaveJson, TextThatIsNotASavedGraphIsOneUserError) {
    EXPECT_EQ(loadError("{"), "load_json: the text is not JSON");
    EXPECT_EQ(loadError("[1, 2]"), "load_json: not a saved IR graph (no 'root' and 'nodes')");
    EXPECT_NE(loadError(R"({"root": 1, "nodes": [{}], "attrs": {"tvm_version": "0.8"}})")
                  .find("TVM's own JSON does not load here"),
              std::string::npos);
    const std::string header =
        R"({"attrs": {"format": "boundscope-ir 1"}, "root": 1, "nodes": [{"type_key": ""}, )";
    EXPECT_EQ(
        loadError(header +
                  R"({"type_key": "tir.Add", "attrs": {"dtype": "int32", "a": 7, "b": 7}}]})"),
        "load_json: node 1 (tir.Add): a reference refers to node 7, which does not exist");
    EXPECT_EQ(
        loadError(header +
                  R"({"type_key": "tir.Add", "attrs": {"dtype": "int32", "a": 1, "b": 1}}]})"),
        "load_json: node 1 (tir.Add): node 1 contains itself");
    EXPECT_EQ(loadError(header + R"({"type_key": "tir.Not", "attrs": {"dtype": "bool"}}]})"),
              "load_json: node 1 (tir.Not): has no 'a'");
    EXPECT_NE(
        loadError(header +
                  R"({"type_key": "tir.Add", "attrs": {"dtype": "int32", "a": 2, "b": 3}}, )"
                  R"({"type_key": "IntImm", "attrs": {"dtype": "int32", "value": 1}}, )"
                  R"({"type_key": "FloatImm", "attrs": {"dtype": "float32", "value": "1"}}]})")
            .find("load_json: node 1 (tir.Add): an invalid node"),
        std::string::npos);
}

// Review findings: malformed graphs that crashed or hung the loader are now UserErrors.
TEST(SaveJson, MalformedGraphsThatCrashedAreUserErrors) {
    const std::string header =
        R"({"attrs": {"format": "boundscope-ir 1"}, "root": 1, "nodes": [{"type_key": ""}, )";
    // an array that contains itself
    EXPECT_EQ(loadError(header + R"({"type_key": "Array", "attrs": {"items": [1]}}]})"),
              "load_json: array 1 contains itself");
    // a reference of the wrong kind to a node already loaded
    EXPECT_EQ(loadError(header +
                        R"({"type_key": "Array", "attrs": {"items": [2, 3]}}, )"
                        R"({"type_key": "Array", "attrs": {"items": []}}, )"
                        R"({"type_key": "tir.Not", "attrs": {"dtype": "bool", "a": 2}}]})"),
              "load_json: node 3 (tir.Not): node 2 is a Array where a node is expected");
    // a null among the items of a list
    EXPECT_EQ(loadError(header + R"({"type_key": "tir.SeqStmt", "attrs": {"seq": [null]}}]})"),
              "load_json: node 1 (tir.SeqStmt): 'seq' has a null item");
    // attributes that are not an object
    EXPECT_NE(
        loadError(R"({"root": 1, "nodes": [{"type_key": ""}], "attrs": 5})").find("TVM's own JSON"),
        std::string::npos);
    // a stage computed at another without its loop, and a stage in its own group
    Program p = scheduled();
    std::string text = saveJson(SavedValue::of(p.sch));
    const std::string attached = "\"attach_ivar\": ";
    size_t at = text.find("\"attach_type\": 4");
    ASSERT_NE(at, std::string::npos) << text;
    size_t ivar = text.find(attached, at) != std::string::npos ? text.find(attached, at)
                                                               : text.rfind(attached, at);
    ASSERT_NE(ivar, std::string::npos);
    size_t end = text.find_first_of(",\n", ivar + attached.size());
    std::string broken = text.substr(0, ivar + attached.size()) + "null" + text.substr(end);
    EXPECT_NE(loadError(broken).find("a stage computed at another has no attach stage or loop"),
              std::string::npos);
}

TEST(SaveJson, ANoneInAListComesBackAsNone) {
    SavedValue loaded = loadJson(
        saveJson(SavedValue::array({SavedValue::of(NodeRef(Expr(3))), SavedValue::of(NodeRef())})));
    ASSERT_EQ(loaded.items.size(), 2u);
    EXPECT_TRUE(loaded.items[0].node.defined());
    EXPECT_FALSE(loaded.items[1].node.defined());
}

TEST(SaveJson, NestingPastTheLimitIsRefusedNotACrash) {
    // 100,001 nested `not`s: more than save_json and load_json walk.
    std::string nodes =
        R"({"type_key": ""}, {"type_key": "IntImm", "attrs": {"dtype": "bool", "value": 1}})";
    const int depth = 100001;
    for (int i = 0; i < depth; ++i)
        nodes += R"(, {"type_key": "tir.Not", "attrs": {"dtype": "bool", "a": )" +
                 std::to_string(i + 1) + "}}";
    std::string text = R"({"attrs": {"format": "boundscope-ir 1"}, "root": )" +
                       std::to_string(depth + 1) + R"(, "nodes": [)" + nodes + "]}";
    std::string error = callOnDeepStack([&] { return loadError(text); });
    EXPECT_NE(error.find("the program nests more than 100000 levels deep"), std::string::npos)
        << error;
}

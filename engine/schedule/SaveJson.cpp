/// TVM's save_json / load_json (src/node/serialization.cc): a graph of nodes, each stored once
/// under an index, children referred to by index, `null` for an undefined handle.

#include "schedule/SaveJson.h"

#include "ir/BufferDecl.h"
#include "ir/TypeKey.h"
#include "schedule/ScheduleRewrite.h"
#include "support/Check.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace bs {

namespace {

using json = nlohmann::json;

constexpr const char* kFormat = "boundscope-ir 1";

/// How deeply nodes may nest, saving or loading: deeper programs are refused with a message
/// rather than overflowing the stack.
constexpr int kMaxDepth = 100000;

/// Counts the nesting of a recursive walk; throws UserError past kMaxDepth.
class DepthGuard {
public:
    DepthGuard(int& depth, const char* what) : m_depth(depth) {
        if (++m_depth > kMaxDepth) {
            --m_depth;
            throw UserError(std::string(what) + ": the program nests more than " +
                            std::to_string(kMaxDepth) + " levels deep");
        }
    }
    ~DepthGuard() { --m_depth; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;

private:
    int& m_depth;
};

// The value types that are not nodes.
constexpr const char* kTensorKey = "te.Tensor";
constexpr const char* kRangeKey = "Range";
constexpr const char* kStageKey = "te.Stage";
constexpr const char* kScheduleKey = "te.Schedule";
constexpr const char* kArrayKey = "Array";
constexpr const char* kExternBufferKey = "te.ExternBuffer";
constexpr const char* kSplitKey = "te.Split";
constexpr const char* kFuseKey = "te.Fuse";
constexpr const char* kRebaseKey = "te.Rebase";
constexpr const char* kSingletonKey = "te.Singleton";

/// `%.17g` keeps every double; infinities and NaN as C's strtod reads them back.
std::string floatText(double value) {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.17g", value);
    return buffer;
}

json locationJson(const SourceLocation& location) {
    if (!location.known())
        return nullptr;
    return json::array({location.file, location.line});
}

// ---------------------------------------------------------------------------------------------
// Saving

class Writer {
public:
    json nodes = json::array({json{{"type_key", ""}}}); // index 0 is TVM's null node

    json save(const SavedValue& v) {
        switch (v.kind) {
        case SavedValue::Kind::Node:
            return ref(v.node);
        case SavedValue::Kind::Tensor:
            return ref(v.tensor);
        case SavedValue::Kind::Range:
            return ref(v.range);
        case SavedValue::Kind::Stage:
            return ref(v.stage);
        case SavedValue::Kind::Schedule:
            return ref(v.schedule);
        case SavedValue::Kind::Array: {
            json items = json::array();
            for (const SavedValue& item : v.items)
                items.push_back(save(item));
            return add(kArrayKey, {{"items", std::move(items)}});
        }
        }
        BS_UNREACHABLE("a saved value of no kind");
        return nullptr;
    }

private:
    std::unordered_map<const void*, int> m_ids;
    int m_depth = 0;

    int add(const char* typeKey, json attrs) {
        nodes.push_back(json{{"type_key", typeKey}, {"attrs", std::move(attrs)}});
        return int(nodes.size()) - 1;
    }

    /// Stores the object at `key` once: its index is taken before `fill` saves its children,
    /// so objects that refer to each other (stages attached to stages) find it.
    template <typename Fill> json once(const void* key, const char* typeKey, Fill&& fill) {
        if (key == nullptr)
            return nullptr;
        if (auto it = m_ids.find(key); it != m_ids.end())
            return it->second;
        DepthGuard guard(m_depth, "save_json");
        const int id = int(nodes.size());
        nodes.push_back(nullptr);
        m_ids.emplace(key, id);
        json attrs = fill();
        nodes[size_t(id)] = json{{"type_key", typeKey}, {"attrs", std::move(attrs)}};
        return id;
    }

    template <typename T> json refs(const std::vector<T>& items) {
        json out = json::array();
        for (const T& item : items)
            out.push_back(ref(item));
        return out;
    }

    json ref(const NodeRef& n) {
        if (!n.defined())
            return nullptr;
        return once(n.get(), typeKeyOf(n), [&] { return nodeAttrs(n); });
    }
    json ref(const Tensor& t) {
        if (!t.defined())
            return nullptr;
        return add(kTensorKey, {{"op", ref(t.op)}, {"value_index", t.valueIndex}});
    }
    json ref(const Range& r) {
        if (!r.defined())
            return nullptr;
        return add(kRangeKey, {{"min", ref(r.min)}, {"extent", ref(r.extent)}});
    }
    json ref(const Region& region) { return refs(region); }
    json ref(const ExternBuffer& b) {
        return add(kExternBufferKey, {{"name", b.name},
                                      {"data", ref(b.data)},
                                      {"dtype", b.dtype.toString()},
                                      {"shape", refs(b.shape)},
                                      {"strides", refs(b.strides)},
                                      {"elem_offset", ref(b.elemOffset)},
                                      {"scope", b.scope}});
    }
    json ref(const IterVarRelation& rel);
    json ref(const Stage& s);
    json ref(const Schedule& s);

    json nodeAttrs(const NodeRef& n);
    json exprAttrs(const NodeRef& n);
    json stmtAttrs(const NodeRef& n);
    json opAttrs(const OperationNode& op);
    json iterVarAttr(const IterVarAttr& attr);
};

json Writer::nodeAttrs(const NodeRef& n) {
    if (isExprKind(n.kind()))
        return exprAttrs(n);
    if (isStmtKind(n.kind()))
        return stmtAttrs(n);
    switch (n.kind()) {
    case NodeKind::IterVar: {
        const auto* iv = n.as<IterVarNode>();
        return {{"dom", ref(iv->dom)},
                {"var", ref(iv->var)},
                {"iter_type", int(iv->iterType)},
                {"thread_tag", iv->threadTag},
                {"span", locationJson(iv->location)}};
    }
    case NodeKind::CommReducer: {
        const auto* r = n.as<CommReducerNode>();
        return {{"lhs", refs(r->lhs)},
                {"rhs", refs(r->rhs)},
                {"result", refs(r->result)},
                {"identity_element", refs(r->identityElement)}};
    }
    case NodeKind::BufferDecl: {
        const auto* b = n.as<BufferDeclNode>();
        return {{"name", b->name},
                {"data", ref(b->data)},
                {"dtype", b->dtype.toString()},
                {"shape", refs(b->shape)},
                {"strides", refs(b->strides)},
                {"elem_offset", ref(b->elemOffset)},
                {"scope", b->scope},
                {"offset_factor", b->offsetFactor}};
    }
    case NodeKind::TensorIntrin: {
        const auto* t = n.as<TensorIntrinNode>();
        return {{"name", t->name},
                {"op", ref(t->op)},
                {"inputs", refs(t->inputs)},
                {"buffers", refs(t->buffers)},
                {"scalar_params", refs(t->scalarParams)},
                {"body", ref(t->body)},
                {"reduce_init", ref(t->reduceInit)},
                {"reduce_update", ref(t->reduceUpdate)},
                {"span", locationJson(t->location)}};
    }
    default:
        return opAttrs(*static_cast<const OperationNode*>(n.get()));
    }
}

json Writer::exprAttrs(const NodeRef& n) {
    json a = {{"dtype", static_cast<const ExprNode*>(n.get())->type.toString()}};
    auto operands = [&](const Expr& x, const Expr& y) {
        a["a"] = ref(x);
        a["b"] = ref(y);
    };
    switch (n.kind()) {
    case NodeKind::IntImm:
        a["value"] = n.as<IntImmNode>()->value;
        break;
    case NodeKind::FloatImm:
        a["value"] = floatText(n.as<FloatImmNode>()->value);
        break;
    case NodeKind::StringImm:
        a["value"] = n.as<StringImmNode>()->value;
        break;
    case NodeKind::Var:
        a["name"] = n.as<VarNode>()->name;
        break;
    case NodeKind::Add:
        operands(n.as<AddNode>()->a, n.as<AddNode>()->b);
        break;
    case NodeKind::Sub:
        operands(n.as<SubNode>()->a, n.as<SubNode>()->b);
        break;
    case NodeKind::Mul:
        operands(n.as<MulNode>()->a, n.as<MulNode>()->b);
        break;
    case NodeKind::Div:
        operands(n.as<DivNode>()->a, n.as<DivNode>()->b);
        break;
    case NodeKind::Mod:
        operands(n.as<ModNode>()->a, n.as<ModNode>()->b);
        break;
    case NodeKind::FloorDiv:
        operands(n.as<FloorDivNode>()->a, n.as<FloorDivNode>()->b);
        break;
    case NodeKind::FloorMod:
        operands(n.as<FloorModNode>()->a, n.as<FloorModNode>()->b);
        break;
    case NodeKind::Min:
        operands(n.as<MinNode>()->a, n.as<MinNode>()->b);
        break;
    case NodeKind::Max:
        operands(n.as<MaxNode>()->a, n.as<MaxNode>()->b);
        break;
    case NodeKind::EQ:
        operands(n.as<EQNode>()->a, n.as<EQNode>()->b);
        break;
    case NodeKind::NE:
        operands(n.as<NENode>()->a, n.as<NENode>()->b);
        break;
    case NodeKind::LT:
        operands(n.as<LTNode>()->a, n.as<LTNode>()->b);
        break;
    case NodeKind::LE:
        operands(n.as<LENode>()->a, n.as<LENode>()->b);
        break;
    case NodeKind::GT:
        operands(n.as<GTNode>()->a, n.as<GTNode>()->b);
        break;
    case NodeKind::GE:
        operands(n.as<GENode>()->a, n.as<GENode>()->b);
        break;
    case NodeKind::And:
        operands(n.as<AndNode>()->a, n.as<AndNode>()->b);
        break;
    case NodeKind::Or:
        operands(n.as<OrNode>()->a, n.as<OrNode>()->b);
        break;
    case NodeKind::Not:
        a["a"] = ref(n.as<NotNode>()->a);
        break;
    case NodeKind::Select: {
        const auto* s = n.as<SelectNode>();
        a["condition"] = ref(s->condition);
        a["true_value"] = ref(s->trueValue);
        a["false_value"] = ref(s->falseValue);
        break;
    }
    case NodeKind::Cast:
        a["value"] = ref(n.as<CastNode>()->value);
        break;
    case NodeKind::Call: {
        const auto* c = n.as<CallNode>();
        a["op"] = c->name;
        a["args"] = refs(c->args);
        a["call_kind"] = int(c->callKind);
        break;
    }
    case NodeKind::ProducerLoad: {
        const auto* l = n.as<ProducerLoadNode>();
        a["producer"] = ref(l->tensor);
        a["indices"] = refs(l->indices);
        break;
    }
    case NodeKind::Load: {
        const auto* l = n.as<LoadNode>();
        a["buffer_var"] = ref(l->bufferVar);
        a["index"] = ref(l->index);
        a["predicate"] = ref(l->predicate);
        break;
    }
    case NodeKind::Ramp: {
        const auto* r = n.as<RampNode>();
        a["base"] = ref(r->base);
        a["stride"] = ref(r->stride);
        a["lanes"] = r->lanes;
        break;
    }
    case NodeKind::Broadcast:
        a["value"] = ref(n.as<BroadcastNode>()->value);
        a["lanes"] = n.as<BroadcastNode>()->lanes;
        break;
    case NodeKind::Let: {
        const auto* l = n.as<LetNode>();
        a["var"] = ref(l->var);
        a["value"] = ref(l->value);
        a["body"] = ref(l->body);
        break;
    }
    case NodeKind::Reduce: {
        const auto* r = n.as<ReduceNode>();
        a["combiner"] = ref(r->combiner);
        a["source"] = refs(r->source);
        a["axis"] = refs(r->axis);
        a["condition"] = ref(r->condition);
        a["value_index"] = r->valueIndex;
        a["init"] = refs(r->init);
        break;
    }
    default:
        BS_UNREACHABLE("an expression kind the saver does not know");
    }
    return a;
}

json Writer::stmtAttrs(const NodeRef& n) {
    switch (n.kind()) {
    case NodeKind::LetStmt: {
        const auto* s = n.as<LetStmtNode>();
        return {{"var", ref(s->var)}, {"value", ref(s->value)}, {"body", ref(s->body)}};
    }
    case NodeKind::AttrStmt: {
        const auto* s = n.as<AttrStmtNode>();
        return {{"node", ref(s->node)},
                {"attr_key", s->key},
                {"value", ref(s->value)},
                {"body", ref(s->body)}};
    }
    case NodeKind::AssertStmt: {
        const auto* s = n.as<AssertStmtNode>();
        return {
            {"condition", ref(s->condition)}, {"message", ref(s->message)}, {"body", ref(s->body)}};
    }
    case NodeKind::For: {
        const auto* s = n.as<ForNode>();
        return {{"loop_var", ref(s->loopVar)}, {"min", ref(s->min)},
                {"extent", ref(s->extent)},    {"kind", int(s->kind)},
                {"body", ref(s->body)},        {"thread_binding", ref(s->threadBinding)}};
    }
    case NodeKind::ProducerRealize: {
        const auto* s = n.as<ProducerRealizeNode>();
        return {{"producer", ref(s->tensor)},
                {"bounds", refs(s->bounds)},
                {"condition", ref(s->condition)},
                {"body", ref(s->body)},
                {"storage_scope", s->storageScope}};
    }
    case NodeKind::ProducerStore: {
        const auto* s = n.as<ProducerStoreNode>();
        return {
            {"producer", ref(s->tensor)}, {"value", ref(s->value)}, {"indices", refs(s->indices)}};
    }
    case NodeKind::ProducerConsumer: {
        const auto* s = n.as<ProducerConsumerNode>();
        return {{"op", ref(s->op)}, {"is_producer", s->isProducer}, {"body", ref(s->body)}};
    }
    case NodeKind::Allocate: {
        const auto* s = n.as<AllocateNode>();
        return {{"buffer_var", ref(s->bufferVar)},
                {"dtype", s->type.toString()},
                {"extents", refs(s->extents)},
                {"condition", ref(s->condition)},
                {"body", ref(s->body)}};
    }
    case NodeKind::Store: {
        const auto* s = n.as<StoreNode>();
        return {{"buffer_var", ref(s->bufferVar)},
                {"value", ref(s->value)},
                {"index", ref(s->index)},
                {"predicate", ref(s->predicate)}};
    }
    case NodeKind::Seq:
        return {{"seq", refs(n.as<SeqNode>()->seq)}};
    case NodeKind::IfThenElse: {
        const auto* s = n.as<IfThenElseNode>();
        return {{"condition", ref(s->condition)},
                {"then_case", ref(s->thenCase)},
                {"else_case", ref(s->elseCase)}};
    }
    case NodeKind::Evaluate:
        return {{"value", ref(n.as<EvaluateNode>()->value)}};
    default:
        BS_UNREACHABLE("a statement kind the saver does not know");
    }
    return nullptr;
}

json Writer::opAttrs(const OperationNode& op) {
    json a = {{"name", op.name}, {"tag", op.tag}, {"span", locationJson(op.location)}};
    switch (op.nodeKind) {
    case NodeKind::PlaceholderOp: {
        const auto& p = static_cast<const PlaceholderOpNode&>(op);
        a["shape"] = refs(p.shape);
        a["dtype"] = p.dtype.toString();
        break;
    }
    case NodeKind::ComputeOp: {
        const auto& c = static_cast<const ComputeOpNode&>(op);
        a["axis"] = refs(c.axis);
        a["body"] = refs(c.body);
        break;
    }
    case NodeKind::ScanOp: {
        const auto& s = static_cast<const ScanOpNode&>(op);
        a["scan_axis"] = ref(s.scanAxis);
        a["spatial_axis"] = refs(s.spatialAxis);
        a["init"] = refs(s.init);
        a["update"] = refs(s.update);
        a["state_placeholder"] = refs(s.statePlaceholder);
        a["inputs"] = refs(s.inputs);
        break;
    }
    case NodeKind::ExternOp: {
        const auto& e = static_cast<const ExternOpNode&>(op);
        a["inputs"] = refs(e.inputs);
        a["input_placeholders"] = refs(e.inputPlaceholders);
        a["output_placeholders"] = refs(e.outputPlaceholders);
        a["body"] = ref(e.body);
        break;
    }
    case NodeKind::TensorComputeOp: {
        const auto& t = static_cast<const TensorComputeOpNode&>(op);
        a["axis"] = refs(t.axis);
        a["reduce_axis"] = refs(t.reduceAxis);
        a["schedulable_ndim"] = t.schedulableNdim;
        a["intrin"] = ref(t.intrin);
        a["inputs"] = refs(t.inputs);
        a["input_regions"] = refs(t.inputRegions);
        a["scalar_inputs"] = refs(t.scalarInputs);
        break;
    }
    default:
        BS_UNREACHABLE("a node kind the saver does not know");
    }
    return a;
}

json Writer::ref(const IterVarRelation& rel) {
    if (!rel.defined())
        return nullptr;
    auto fill = [&](json a) {
        a["span"] = locationJson(rel->location);
        return a;
    };
    return visitRelation(
        rel, Overloaded{
                 [&](const SplitNode* s) {
                     return once(s, kSplitKey, [&] {
                         return fill({{"parent", ref(s->parent)},
                                      {"outer", ref(s->outer)},
                                      {"inner", ref(s->inner)},
                                      {"factor", ref(s->factor)},
                                      {"nparts", ref(s->nparts)},
                                      {"disable_predication", s->disablePredication}});
                     });
                 },
                 [&](const FuseNode* f) {
                     return once(f, kFuseKey, [&] {
                         return fill({{"outer", ref(f->outer)},
                                      {"inner", ref(f->inner)},
                                      {"fused", ref(f->fused)}});
                     });
                 },
                 [&](const RebaseNode* r) {
                     return once(r, kRebaseKey, [&] {
                         return fill({{"parent", ref(r->parent)}, {"rebased", ref(r->rebased)}});
                     });
                 },
                 [&](const SingletonNode* s) {
                     return once(s, kSingletonKey, [&] { return fill({{"iter", ref(s->iter)}}); });
                 }});
}

json Writer::iterVarAttr(const IterVarAttr& attr) {
    json pragmas = json::array();
    for (const auto& [key, value] : attr.pragmas)
        pragmas.push_back(json::array({key, ref(value)}));
    json prefetches = json::array();
    for (const auto& [tensor, offset] : attr.prefetches)
        prefetches.push_back(json::array({ref(tensor), ref(offset)}));
    return {{"iter_type", int(attr.iterType)},         {"bind_thread", ref(attr.bindThread)},
            {"pragmas", std::move(pragmas)},           {"dim_align_factor", attr.dimAlignFactor},
            {"dim_align_offset", attr.dimAlignOffset}, {"tensor_intrin", ref(attr.tensorIntrin)},
            {"prefetches", std::move(prefetches)},     {"span", locationJson(attr.location)}};
}

json Writer::ref(const Stage& s) {
    if (!s.defined())
        return nullptr;
    return once(s.get(), kStageKey, [&] {
        const StageNode& n = *s.get();
        // In creation order, so a stage saved twice saves the same text.
        json attrs = json::array();
        std::unordered_set<const Node*> saved;
        for (const IterVar& iv : n.allIterVars)
            if (auto it = n.iterVarAttrs.find(iv);
                it != n.iterVarAttrs.end() && saved.insert(iv.get()).second)
                attrs.push_back(json::array({ref(iv), iterVarAttr(it->second)}));
        std::vector<IterVar> others; // IterVars of other stages (threads), by name
        for (const auto& [iv, attr] : n.iterVarAttrs)
            if (!saved.count(iv.get()))
                others.push_back(iv);
        std::sort(others.begin(), others.end(),
                  [](const IterVar& x, const IterVar& y) { return x->var.name() < y->var.name(); });
        for (const IterVar& iv : others)
            attrs.push_back(json::array({ref(iv), iterVarAttr(n.iterVarAttrs.at(iv))}));
        return json{{"op", ref(n.op)},
                    {"origin_op", ref(n.originOp)},
                    {"all_iter_vars", refs(n.allIterVars)},
                    {"leaf_iter_vars", refs(n.leafIterVars)},
                    {"relations", refs(n.relations)},
                    {"iter_var_attrs", std::move(attrs)},
                    {"attach_type", int(n.attachType)},
                    {"attach_ivar", ref(n.attachIVar)},
                    {"attach_stage", ref(n.attachStage)},
                    {"scope", n.scope},
                    {"store_predicate", ref(n.storePredicate)},
                    {"double_buffer", n.doubleBuffer},
                    {"is_output", n.isOutput},
                    {"group", ref(n.group)},
                    {"num_child_stages", n.numChildStages},
                    {"group_name", n.groupName},
                    {"span", locationJson(n.location)},
                    {"attach_span", locationJson(n.attachLocation)}};
    });
}

json Writer::ref(const Schedule& s) {
    if (!s.defined())
        return nullptr;
    return once(s.get(), kScheduleKey, [&] {
        const ScheduleNode& n = *s.get();
        json stageMap = json::array();
        for (const Stage& stage : n.stages) {
            // The operations a rewrite replaced that still find the stage, by name.
            std::vector<Operation> replaced;
            for (const auto& [op, mapped] : n.stageMap)
                if (mapped.same_as(stage) && !op.same_as(stage->op))
                    replaced.push_back(op);
            std::sort(replaced.begin(), replaced.end(),
                      [](const Operation& x, const Operation& y) { return x->name < y->name; });
            for (const Operation& op : replaced)
                stageMap.push_back(json::array({ref(op), ref(stage)}));
        }
        return json{{"outputs", refs(n.outputs)},
                    {"stages", refs(n.stages)},
                    {"stage_map", std::move(stageMap)},
                    {"groups", refs(n.groups)},
                    {"span", locationJson(n.location)},
                    {"keep_schedule_record", n.keepScheduleRecord},
                    {"schedule_record", refs(n.scheduleRecord)},
                    {"primitive_record", n.primitiveRecord}};
    });
}

// ---------------------------------------------------------------------------------------------
// Loading

class Reader {
public:
    explicit Reader(const json& nodes) : m_nodes(nodes), m_slots(nodes.size()) {}

    SavedValue value(const json& r) {
        if (r.is_null())
            return SavedValue::of(NodeRef());
        const int i = index(r, "an item");
        const std::string& key = typeKey(i);
        if (key == kTensorKey)
            return SavedValue::of(tensor(r));
        if (key == kRangeKey)
            return SavedValue::of(range(r));
        if (key == kStageKey)
            return SavedValue::of(stage(r));
        if (key == kScheduleKey)
            return SavedValue::of(schedule(r));
        if (key == kArrayKey) {
            Slot& slot = m_slots[size_t(i)];
            if (slot.done)
                return *slot.array;
            if (slot.busy)
                fail("array " + std::to_string(i) + " contains itself");
            slot.busy = true;
            DepthGuard guard(m_depth, "load_json");
            std::vector<SavedValue> items;
            for (const json& item : list(attrs(i), "items"))
                items.push_back(value(item));
            m_slots[size_t(i)].array =
                std::make_shared<SavedValue>(SavedValue::array(std::move(items)));
            m_slots[size_t(i)].done = true;
            return *m_slots[size_t(i)].array;
        }
        return SavedValue::of(node(r));
    }

    /// What is being read, for messages: `node 12 (tir.Add)`.
    std::string context() const {
        if (m_current < 0)
            return "";
        return "node " + std::to_string(m_current) + " (" + typeKey(m_current) + "): ";
    }

private:
    struct Slot {
        bool busy = false;
        bool done = false;
        NodeRef node;
        Stage stage;
        Schedule schedule;
        IterVarRelation relation;
        std::shared_ptr<SavedValue> array;
    };

    const json& m_nodes;
    std::vector<Slot> m_slots;
    int m_current = -1;
    int m_depth = 0;

    [[noreturn]] void fail(const std::string& why) const { throw UserError(context() + why); }

    int index(const json& r, const char* what) const {
        if (!r.is_number_integer())
            fail(std::string(what) + " is not a node index");
        const int64_t i = r.get<int64_t>();
        if (i <= 0 || size_t(i) >= m_nodes.size())
            fail(std::string(what) + " refers to node " + std::to_string(i) +
                 ", which does not exist");
        return int(i);
    }
    const std::string& typeKey(int i) const {
        return m_nodes[size_t(i)].at("type_key").get_ref<const std::string&>();
    }
    const json& attrs(int i) const { return m_nodes[size_t(i)].at("attrs"); }

    const json& field(const json& a, const char* name) const {
        auto it = a.find(name);
        if (it == a.end())
            fail(std::string("has no '") + name + "'");
        return *it;
    }
    const json& list(const json& a, const char* name) const {
        const json& v = field(a, name);
        if (!v.is_array())
            fail(std::string("'") + name + "' is not a list");
        return v;
    }
    std::string text(const json& a, const char* name) const {
        return field(a, name).get<std::string>();
    }
    int64_t integer(const json& a, const char* name) const { return field(a, name).get<int64_t>(); }
    int smallInt(const json& a, const char* name) const {
        const int64_t v = integer(a, name);
        if (v < INT32_MIN || v > INT32_MAX)
            fail(std::string("'") + name + "' is out of range");
        return int(v);
    }
    bool flag(const json& a, const char* name) const { return field(a, name).get<bool>(); }
    DataType dtype(const json& a, const char* name = "dtype") const {
        const std::string t = text(a, name);
        auto parsed = DataType::parse(t);
        if (!parsed)
            fail("'" + t + "' is not a dtype");
        return *parsed;
    }
    template <typename E>
    E enumeration(const json& a, const char* name, E last, E first = E(0)) const {
        const int64_t v = integer(a, name);
        if (v < int64_t(first) || v > int64_t(last))
            fail(std::string("'") + name + "' is out of range");
        return E(v);
    }
    SourceLocation location(const json& a, const char* name = "span") const {
        auto it = a.find(name);
        if (it == a.end() || it->is_null())
            return {};
        return SourceLocation{it->at(0).get<std::string>(), it->at(1).get<int>()};
    }

    /// Runs `read` on node `i` with `i` as the context of messages.
    template <typename Read> auto within(int i, Read&& read) {
        const int outer = m_current;
        m_current = i;
        auto result = read(attrs(i));
        m_current = outer;
        return result;
    }

    template <typename T, typename Read>
    std::vector<T> items(const json& a, const char* name, Read read) {
        std::vector<T> out;
        for (const json& item : list(a, name)) {
            if (item.is_null())
                fail(std::string("'") + name + "' has a null item");
            out.push_back(read(item));
        }
        return out;
    }

    NodeRef node(const json& r) {
        if (r.is_null())
            return NodeRef();
        const int i = index(r, "a reference");
        const std::optional<NodeKind> kind = nodeKindOfTypeKey(typeKey(i));
        if (!kind)
            fail("node " + std::to_string(i) + " is a " + typeKey(i) + " where a node is expected");
        Slot& slot = m_slots[size_t(i)];
        if (slot.done)
            return slot.node;
        if (slot.busy)
            fail("node " + std::to_string(i) + " contains itself");
        DepthGuard guard(m_depth, "load_json");
        slot.busy = true;
        NodeRef built = within(i, [&](const json& a) { return build(*kind, typeKey(i), a); });
        m_slots[size_t(i)].node = built;
        m_slots[size_t(i)].done = true;
        return built;
    }

    template <typename Handle, typename Check>
    Handle typed(const json& r, const char* what, Check matches) {
        NodeRef n = node(r);
        if (n.defined() && !matches(n.kind()))
            fail(std::string("a ") + typeKeyOf(n) + " where " + what + " is expected");
        return Handle(static_cast<decltype(Handle().get())>(n.get()));
    }
    Expr expr(const json& r) { return typed<Expr>(r, "an expression", isExprKind); }
    Expr requiredExpr(const json& a, const char* name) {
        Expr e = expr(field(a, name));
        if (!e.defined())
            fail(std::string("'") + name + "' is missing");
        return e;
    }
    Stmt stmt(const json& r) { return typed<Stmt>(r, "a statement", isStmtKind); }
    Var var(const json& r) {
        return typed<Var>(r, "a variable", [](NodeKind k) { return k == NodeKind::Var; });
    }
    IterVar iterVar(const json& r) {
        return typed<IterVar>(r, "an IterVar", [](NodeKind k) { return k == NodeKind::IterVar; });
    }
    IterVar requiredIterVar(const json& a, const char* name) {
        IterVar iv = iterVar(field(a, name));
        if (!iv.defined())
            fail(std::string("'") + name + "' is missing");
        return iv;
    }
    Operation op(const json& r) {
        return typed<Operation>(r, "an operation", OperationNode::matches);
    }
    CommReducer reducer(const json& r) {
        return typed<CommReducer>(r, "a reducer",
                                  [](NodeKind k) { return k == NodeKind::CommReducer; });
    }
    BufferDecl buffer(const json& r) {
        return typed<BufferDecl>(r, "a buffer",
                                 [](NodeKind k) { return k == NodeKind::BufferDecl; });
    }
    TensorIntrin intrin(const json& r) {
        return typed<TensorIntrin>(r, "a tensor intrinsic",
                                   [](NodeKind k) { return k == NodeKind::TensorIntrin; });
    }

    /// Node `r` of type `key`, its attributes read by `read`.
    template <typename Read> auto valueNode(const json& r, const char* key, Read&& read) {
        const int i = index(r, "a reference");
        if (typeKey(i) != key)
            fail("node " + std::to_string(i) + " is a " + typeKey(i) + " where a " + key +
                 " is expected");
        return within(i, read);
    }

    Tensor tensor(const json& r) {
        if (r.is_null())
            return Tensor();
        return valueNode(r, kTensorKey, [&](const json& a) {
            Operation o = op(field(a, "op"));
            const int64_t k = integer(a, "value_index");
            if (!o.defined() || k < 0 || k >= o->numOutputs())
                fail("a tensor of no output of its operation");
            return Tensor(o, int(k));
        });
    }
    Range range(const json& r) {
        if (r.is_null())
            return Range();
        return valueNode(r, kRangeKey, [&](const json& a) {
            return Range(requiredExpr(a, "min"), requiredExpr(a, "extent"));
        });
    }
    Region region(const json& r) {
        if (!r.is_array())
            fail("a region is not a list");
        Region out;
        for (const json& item : r)
            out.push_back(range(item));
        return out;
    }
    ExternBuffer externBuffer(const json& r) {
        return valueNode(r, kExternBufferKey, [&](const json& a) {
            ExternBuffer b;
            b.name = text(a, "name");
            b.data = var(field(a, "data"));
            b.dtype = dtype(a);
            b.shape = exprs(a, "shape");
            b.strides = exprs(a, "strides");
            b.elemOffset = expr(field(a, "elem_offset"));
            b.scope = text(a, "scope");
            return b;
        });
    }

    std::vector<Expr> exprs(const json& a, const char* name) {
        return items<Expr>(a, name, [&](const json& r) { return expr(r); });
    }
    std::vector<Var> vars(const json& a, const char* name) {
        return items<Var>(a, name, [&](const json& r) { return var(r); });
    }
    std::vector<IterVar> iterVars(const json& a, const char* name) {
        return items<IterVar>(a, name, [&](const json& r) { return iterVar(r); });
    }
    std::vector<Tensor> tensors(const json& a, const char* name) {
        return items<Tensor>(a, name, [&](const json& r) { return tensor(r); });
    }

    NodeRef build(NodeKind kind, const std::string& key, const json& a);
    Expr buildExpr(NodeKind kind, const std::string& key, const json& a);
    Stmt buildStmt(NodeKind kind, const json& a);
    Operation buildOp(NodeKind kind, const json& a);

public:
    Stage stage(const json& r);
    Schedule schedule(const json& r);

private:
    IterVarRelation relation(const json& r);
    IterVarAttr iterVarAttr(const json& a);
};

template <NodeKind K> Expr binary(Expr a, Expr b) {
    return BinaryNode<K>::make(std::move(a), std::move(b));
}

Expr Reader::buildExpr(NodeKind kind, const std::string& key, const json& a) {
    const DataType t = dtype(a);
    auto operands = [&](Expr (*make)(Expr, Expr)) {
        return make(requiredExpr(a, "a"), requiredExpr(a, "b"));
    };
    switch (kind) {
    case NodeKind::IntImm:
        return IntImmNode::make(t, integer(a, "value"));
    case NodeKind::FloatImm: {
        const json& v = field(a, "value");
        return FloatImmNode::make(t, v.is_string()
                                         ? std::strtod(v.get<std::string>().c_str(), nullptr)
                                         : v.get<double>());
    }
    case NodeKind::StringImm:
        return StringImmNode::make(text(a, "value"));
    case NodeKind::Var:
        return key == "tir.SizeVar" ? Var::sizeVar(text(a, "name"), t) : Var(text(a, "name"), t);
    case NodeKind::Add:
        return operands(binary<NodeKind::Add>);
    case NodeKind::Sub:
        return operands(binary<NodeKind::Sub>);
    case NodeKind::Mul:
        return operands(binary<NodeKind::Mul>);
    case NodeKind::Div:
        return operands(binary<NodeKind::Div>);
    case NodeKind::Mod:
        return operands(binary<NodeKind::Mod>);
    case NodeKind::FloorDiv:
        return operands(binary<NodeKind::FloorDiv>);
    case NodeKind::FloorMod:
        return operands(binary<NodeKind::FloorMod>);
    case NodeKind::Min:
        return operands(binary<NodeKind::Min>);
    case NodeKind::Max:
        return operands(binary<NodeKind::Max>);
    case NodeKind::EQ:
        return operands(binary<NodeKind::EQ>);
    case NodeKind::NE:
        return operands(binary<NodeKind::NE>);
    case NodeKind::LT:
        return operands(binary<NodeKind::LT>);
    case NodeKind::LE:
        return operands(binary<NodeKind::LE>);
    case NodeKind::GT:
        return operands(binary<NodeKind::GT>);
    case NodeKind::GE:
        return operands(binary<NodeKind::GE>);
    case NodeKind::And:
        return operands(binary<NodeKind::And>);
    case NodeKind::Or:
        return operands(binary<NodeKind::Or>);
    case NodeKind::Not:
        return NotNode::make(requiredExpr(a, "a"));
    case NodeKind::Select:
        return SelectNode::make(requiredExpr(a, "condition"), requiredExpr(a, "true_value"),
                                requiredExpr(a, "false_value"));
    case NodeKind::Cast:
        return CastNode::make(t, requiredExpr(a, "value"));
    case NodeKind::Call:
        return CallNode::make(t, text(a, "op"), exprs(a, "args"),
                              enumeration(a, "call_kind", CallKind::Extern));
    case NodeKind::ProducerLoad:
        return ProducerLoadNode::make(tensor(field(a, "producer")), exprs(a, "indices"));
    case NodeKind::Load:
        return LoadNode::make(t, var(field(a, "buffer_var")), requiredExpr(a, "index"),
                              expr(field(a, "predicate")));
    case NodeKind::Ramp:
        return RampNode::make(requiredExpr(a, "base"), requiredExpr(a, "stride"),
                              smallInt(a, "lanes"));
    case NodeKind::Broadcast:
        return BroadcastNode::make(requiredExpr(a, "value"), smallInt(a, "lanes"));
    case NodeKind::Let:
        return LetNode::make(var(field(a, "var")), requiredExpr(a, "value"),
                             requiredExpr(a, "body"));
    case NodeKind::Reduce:
        return ReduceNode::make(reducer(field(a, "combiner")), exprs(a, "source"),
                                iterVars(a, "axis"), expr(field(a, "condition")),
                                smallInt(a, "value_index"), exprs(a, "init"));
    default:
        BS_UNREACHABLE("an expression kind the loader does not know");
    }
    return Expr();
}

Stmt Reader::buildStmt(NodeKind kind, const json& a) {
    switch (kind) {
    case NodeKind::LetStmt:
        return LetStmtNode::make(var(field(a, "var")), requiredExpr(a, "value"),
                                 stmt(field(a, "body")));
    case NodeKind::AttrStmt:
        return AttrStmtNode::make(node(field(a, "node")), text(a, "attr_key"),
                                  expr(field(a, "value")), stmt(field(a, "body")));
    case NodeKind::AssertStmt:
        return AssertStmtNode::make(requiredExpr(a, "condition"), expr(field(a, "message")),
                                    stmt(field(a, "body")));
    case NodeKind::For:
        return ForNode::make(var(field(a, "loop_var")), requiredExpr(a, "min"),
                             requiredExpr(a, "extent"),
                             enumeration(a, "kind", ForKind::ThreadBinding), stmt(field(a, "body")),
                             iterVar(field(a, "thread_binding")));
    case NodeKind::ProducerRealize: {
        Region bounds = region(field(a, "bounds"));
        return ProducerRealizeNode::make(tensor(field(a, "producer")), std::move(bounds),
                                         expr(field(a, "condition")), stmt(field(a, "body")),
                                         text(a, "storage_scope"));
    }
    case NodeKind::ProducerStore:
        return ProducerStoreNode::make(tensor(field(a, "producer")), requiredExpr(a, "value"),
                                       exprs(a, "indices"));
    case NodeKind::ProducerConsumer:
        return ProducerConsumerNode::make(op(field(a, "op")), flag(a, "is_producer"),
                                          stmt(field(a, "body")));
    case NodeKind::Allocate:
        return AllocateNode::make(var(field(a, "buffer_var")), dtype(a), exprs(a, "extents"),
                                  expr(field(a, "condition")), stmt(field(a, "body")));
    case NodeKind::Store:
        return StoreNode::make(var(field(a, "buffer_var")), requiredExpr(a, "value"),
                               requiredExpr(a, "index"), expr(field(a, "predicate")));
    case NodeKind::Seq:
        return SeqNode::make(items<Stmt>(a, "seq", [&](const json& r) { return stmt(r); }));
    case NodeKind::IfThenElse:
        return IfThenElseNode::make(requiredExpr(a, "condition"), stmt(field(a, "then_case")),
                                    stmt(field(a, "else_case")));
    case NodeKind::Evaluate:
        return EvaluateNode::make(requiredExpr(a, "value"));
    default:
        BS_UNREACHABLE("a statement kind the loader does not know");
    }
    return Stmt();
}

Operation Reader::buildOp(NodeKind kind, const json& a) {
    const std::string name = text(a, "name");
    const std::string tag = text(a, "tag");
    Operation built;
    switch (kind) {
    case NodeKind::PlaceholderOp:
        built = PlaceholderOpNode::make(name, exprs(a, "shape"), dtype(a));
        break;
    case NodeKind::ComputeOp:
        built = ComputeOpNode::make(name, tag, iterVars(a, "axis"), exprs(a, "body"));
        break;
    case NodeKind::ScanOp: {
        std::vector<IterVar> spatial = iterVars(a, "spatial_axis");
        built = ScanOpNode::make(name, tag, requiredIterVar(a, "scan_axis"), tensors(a, "init"),
                                 tensors(a, "update"), tensors(a, "state_placeholder"),
                                 tensors(a, "inputs"));
        // The axes the scan made are new; the saved ones are what its stage and body refer to.
        auto* scan = const_cast<ScanOpNode*>(built.as<ScanOpNode>());
        if (spatial.size() != scan->spatialAxis.size())
            fail("the scan has " + std::to_string(spatial.size()) + " spatial axes, its tensors " +
                 std::to_string(scan->spatialAxis.size()));
        scan->spatialAxis = std::move(spatial);
        break;
    }
    case NodeKind::ExternOp:
        built =
            ExternOpNode::make(name, tag, tensors(a, "inputs"),
                               items<ExternBuffer>(a, "input_placeholders",
                                                   [&](const json& r) { return externBuffer(r); }),
                               items<ExternBuffer>(a, "output_placeholders",
                                                   [&](const json& r) { return externBuffer(r); }),
                               stmt(field(a, "body")));
        break;
    case NodeKind::TensorComputeOp:
        built = TensorComputeOpNode::make(
            name, tag, iterVars(a, "axis"), iterVars(a, "reduce_axis"),
            smallInt(a, "schedulable_ndim"), intrin(field(a, "intrin")), tensors(a, "inputs"),
            items<Region>(a, "input_regions", [&](const json& r) { return region(r); }),
            exprs(a, "scalar_inputs"));
        break;
    default:
        BS_UNREACHABLE("an operation kind the loader does not know");
    }
    const_cast<OperationNode*>(built.get())->tag = tag;
    const_cast<OperationNode*>(built.get())->location = location(a);
    return built;
}

NodeRef Reader::build(NodeKind kind, const std::string& key, const json& a) {
    if (isExprKind(kind))
        return buildExpr(kind, key, a);
    if (isStmtKind(kind))
        return buildStmt(kind, a);
    switch (kind) {
    case NodeKind::IterVar: {
        IterVar iv(range(field(a, "dom")), var(field(a, "var")),
                   enumeration(a, "iter_type", IterVarType::Tensorized), text(a, "thread_tag"));
        const_cast<IterVarNode*>(iv.get())->location = location(a);
        return iv;
    }
    case NodeKind::CommReducer:
        return CommReducer(vars(a, "lhs"), vars(a, "rhs"), exprs(a, "result"),
                           exprs(a, "identity_element"));
    case NodeKind::BufferDecl:
        return BufferDecl::make(text(a, "name"), var(field(a, "data")), dtype(a), exprs(a, "shape"),
                                exprs(a, "strides"), expr(field(a, "elem_offset")),
                                text(a, "scope"), smallInt(a, "offset_factor"));
    case NodeKind::TensorIntrin: {
        TensorIntrin t = TensorIntrin::make(
            text(a, "name"), op(field(a, "op")), tensors(a, "inputs"),
            items<BufferDecl>(a, "buffers", [&](const json& r) { return buffer(r); }),
            vars(a, "scalar_params"), stmt(field(a, "body")), stmt(field(a, "reduce_init")),
            stmt(field(a, "reduce_update")));
        const_cast<TensorIntrinNode*>(t.get())->location = location(a);
        return t;
    }
    default:
        return buildOp(kind, a);
    }
}

IterVarRelation Reader::relation(const json& r) {
    const int i = index(r, "a relation");
    const std::string& key = typeKey(i);
    if (key != kSplitKey && key != kFuseKey && key != kRebaseKey && key != kSingletonKey)
        fail("node " + std::to_string(i) + " is a " + key + " where a relation is expected");
    Slot& slot = m_slots[size_t(i)];
    if (slot.done)
        return slot.relation;
    IterVarRelation rel = within(i, [&](const json& a) {
        if (key == kSplitKey)
            return IterVarRelation::split(requiredIterVar(a, "parent"), requiredIterVar(a, "outer"),
                                          requiredIterVar(a, "inner"), expr(field(a, "factor")),
                                          expr(field(a, "nparts")), flag(a, "disable_predication"));
        if (key == kFuseKey)
            return IterVarRelation::fuse(requiredIterVar(a, "outer"), requiredIterVar(a, "inner"),
                                         requiredIterVar(a, "fused"));
        if (key == kRebaseKey)
            return IterVarRelation::rebase(requiredIterVar(a, "parent"),
                                           requiredIterVar(a, "rebased"));
        if (key == kSingletonKey)
            return IterVarRelation::singleton(requiredIterVar(a, "iter"));
        fail("a " + key + " where a relation is expected");
    });
    const_cast<IterVarRelationNode*>(rel.get())->location =
        within(i, [&](const json& a) { return location(a); });
    m_slots[size_t(i)].relation = rel;
    m_slots[size_t(i)].done = true;
    return rel;
}

IterVarAttr Reader::iterVarAttr(const json& a) {
    IterVarAttr attr;
    attr.iterType = enumeration(a, "iter_type", IterVarType::Tensorized);
    attr.bindThread = iterVar(field(a, "bind_thread"));
    for (const json& p : list(a, "pragmas"))
        attr.pragmas.emplace_back(p.at(0).get<std::string>(), expr(p.at(1)));
    attr.dimAlignFactor = smallInt(a, "dim_align_factor");
    attr.dimAlignOffset = smallInt(a, "dim_align_offset");
    attr.tensorIntrin = intrin(field(a, "tensor_intrin"));
    for (const json& p : list(a, "prefetches"))
        attr.prefetches.emplace_back(tensor(p.at(0)), expr(p.at(1)));
    attr.location = location(a);
    return attr;
}

Stage Reader::stage(const json& r) {
    if (r.is_null())
        return Stage();
    const int i = index(r, "a stage");
    if (typeKey(i) != kStageKey)
        fail("node " + std::to_string(i) + " is a " + typeKey(i) + " where a stage is expected");
    Slot& slot = m_slots[size_t(i)];
    if (slot.busy || slot.done)
        return slot
            .stage; // stages may refer to each other (attach cycles are legal until lowering)
    slot.busy = true;
    Stage s = Stage::makeGroup("");
    slot.stage = s;
    within(i, [&](const json& a) {
        StageNode& n = *s.mutableNode();
        n.op = op(field(a, "op"));
        n.originOp = op(field(a, "origin_op"));
        n.allIterVars = iterVars(a, "all_iter_vars");
        n.leafIterVars = iterVars(a, "leaf_iter_vars");
        n.relations =
            items<IterVarRelation>(a, "relations", [&](const json& x) { return relation(x); });
        for (const json& entry : list(a, "iter_var_attrs"))
            n.iterVarAttrs[iterVar(entry.at(0))] = iterVarAttr(entry.at(1));
        n.attachType = enumeration(a, "attach_type", AttachType::ScanUpdate, AttachType::GroupRoot);
        n.attachIVar = iterVar(field(a, "attach_ivar"));
        n.attachStage = stage(field(a, "attach_stage"));
        n.scope = text(a, "scope");
        n.storePredicate = expr(field(a, "store_predicate"));
        n.doubleBuffer = flag(a, "double_buffer");
        n.isOutput = flag(a, "is_output");
        n.group = stage(field(a, "group"));
        n.numChildStages = smallInt(a, "num_child_stages");
        n.groupName = text(a, "group_name");
        n.location = location(a);
        n.attachLocation = location(a, "attach_span");
        if (n.op.defined() != n.originOp.defined())
            fail("a stage with an operation but no origin, or the reverse");
        if (n.attachType == AttachType::Scope &&
            (!n.attachIVar.defined() || !n.attachStage.defined()))
            fail("a stage computed at another has no attach stage or loop");
        if (n.attachType == AttachType::ScanUpdate && !n.attachStage.defined())
            fail("a scan's update has no scan stage to be computed in");
        size_t steps = 0;
        for (Stage g = n.group; g.defined(); g = g->group)
            if (++steps > m_slots.size() || g.same_as(s))
                fail("a stage's groups contain it");
        return 0;
    });
    m_slots[size_t(i)].done = true;
    return s;
}

Schedule Reader::schedule(const json& r) {
    if (r.is_null())
        return Schedule();
    const int i = index(r, "a schedule");
    if (typeKey(i) != kScheduleKey)
        fail("node " + std::to_string(i) + " is a " + typeKey(i) + " where a schedule is expected");
    Slot& slot = m_slots[size_t(i)];
    if (slot.done)
        return slot.schedule;
    if (slot.busy)
        fail("schedule " + std::to_string(i) + " contains itself");
    slot.busy = true;
    Schedule built = within(i, [&](const json& a) {
        auto n = makeIntrusive<ScheduleNode>();
        n->outputs = items<Operation>(a, "outputs", [&](const json& x) { return op(x); });
        n->stages = items<Stage>(a, "stages", [&](const json& x) { return stage(x); });
        n->groups = items<Stage>(a, "groups", [&](const json& x) { return stage(x); });
        for (const Stage& s : n->stages) {
            if (!s->op.defined())
                fail("a group among the stages");
            n->stageMap.emplace(s->op, s);
        }
        for (const json& entry : list(a, "stage_map"))
            n->stageMap[op(entry.at(0))] = stage(entry.at(1));
        // What lowering takes for granted of the attachments.
        std::unordered_set<const StageNode*> members;
        for (const std::vector<Stage>* list : {&n->stages, &n->groups})
            for (const Stage& s : *list)
                members.insert(s.get());
        for (const std::vector<Stage>* list : {&n->stages, &n->groups}) {
            for (const Stage& s : *list) {
                const std::string what = "stage '" + s.name() + "' ";
                if (s->attachStage.defined() && !members.count(s->attachStage.get()))
                    fail(what + "is attached to a stage outside the schedule");
                if (s->group.defined() && !members.count(s->group.get()))
                    fail(what + "is in a group outside the schedule");
                if (s->attachType == AttachType::ScanUpdate && !s->attachStage->op.as<ScanOpNode>())
                    fail(what + "is a scan's update, attached to a stage that is not a scan");
                if (s->attachType == AttachType::Scope && !s->attachStage.hasIterVar(s->attachIVar))
                    fail(what + "is computed at a loop its attach stage does not have");
            }
        }
        n->location = location(a);
        n->keepScheduleRecord = flag(a, "keep_schedule_record");
        n->scheduleRecord =
            items<Schedule>(a, "schedule_record", [&](const json& x) { return schedule(x); });
        n->primitiveRecord = field(a, "primitive_record").get<std::vector<std::string>>();
        if (n->keepScheduleRecord) {
            // Recording goes on in the loaded schedule, as in the saved one.
            n->recordLog = std::make_shared<ScheduleRecordLog>();
            n->recordLog->owner = n.get();
            for (const std::vector<Stage>* list : {&n->stages, &n->groups})
                for (const Stage& s : *list)
                    s.mutableNode()->recordLog = n->recordLog;
        }
        // A schedule saved before create_schedule named its stages apart loads with them so.
        nameStagesApart(n->stages);
        fixNames(*n);
        return Schedule(n);
    });
    m_slots[size_t(i)].schedule = built;
    m_slots[size_t(i)].done = true;
    return built;
}

} // namespace

SavedValue SavedValue::of(NodeRef node) {
    SavedValue v;
    v.kind = Kind::Node;
    v.node = std::move(node);
    return v;
}
SavedValue SavedValue::of(Tensor tensor) {
    SavedValue v;
    v.kind = Kind::Tensor;
    v.tensor = std::move(tensor);
    return v;
}
SavedValue SavedValue::of(Range range) {
    SavedValue v;
    v.kind = Kind::Range;
    v.range = std::move(range);
    return v;
}
SavedValue SavedValue::of(Stage stage) {
    SavedValue v;
    v.kind = Kind::Stage;
    v.stage = std::move(stage);
    return v;
}
SavedValue SavedValue::of(Schedule schedule) {
    SavedValue v;
    v.kind = Kind::Schedule;
    v.schedule = std::move(schedule);
    return v;
}
SavedValue SavedValue::array(std::vector<SavedValue> items) {
    SavedValue v;
    v.kind = Kind::Array;
    v.items = std::move(items);
    return v;
}

std::string saveJson(const SavedValue& value) {
    Writer writer;
    json root = writer.save(value);
    json doc = {{"root", root.is_null() ? json(0) : root},
                {"nodes", std::move(writer.nodes)},
                {"b64ndarrays", json::array()},
                {"attrs", {{"format", kFormat}}}};
    return doc.dump(2);
}

SavedValue loadJson(const std::string& text) {
    json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded())
        throw UserError("load_json: the text is not JSON");
    if (!doc.is_object() || !doc.contains("nodes") || !doc["nodes"].is_array() ||
        !doc.contains("root"))
        throw UserError("load_json: not a saved IR graph (no 'root' and 'nodes')");
    std::optional<Reader> reader;
    try {
        const json attrs = doc.value("attrs", json::object());
        const json format = attrs.is_object() ? attrs.value("format", json()) : json();
        if (format != kFormat)
            throw UserError("not Boundscope's JSON (format " +
                            (format.is_null() ? "none" : format.dump()) + ", expected '" + kFormat +
                            "'); TVM's own JSON does not load here");
        reader.emplace(doc["nodes"]);
        if (doc["root"] == 0)
            return SavedValue::of(NodeRef());
        return reader->value(doc["root"]);
    } catch (const UserError& e) {
        throw UserError(std::string("load_json: ") + e.what());
    } catch (const InternalError& e) {
        throw UserError("load_json: " + (reader ? reader->context() : "") +
                        "an invalid node: " + e.what());
    } catch (const json::exception& e) {
        throw UserError("load_json: " + (reader ? reader->context() : "") +
                        "a malformed attribute: " + e.what());
    }
}

} // namespace bs

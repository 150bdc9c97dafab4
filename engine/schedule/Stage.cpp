#include "schedule/Stage.h"

#include "ir/StorageScope.h"
#include "schedule/ScheduleErrors.h"
#include "schedule/ScheduleRewrite.h"
#include "support/Check.h"

#include <algorithm>
#include <functional>
#include <unordered_map>
#include <unordered_set>

namespace bs {

namespace {

bool contains(const std::vector<IterVar>& ivs, const IterVar& iv) {
    return std::any_of(ivs.begin(), ivs.end(), [&](const IterVar& x) { return x.same_as(iv); });
}

/// Requires `iv` to be a leaf of `stage`; the message says why it is not.
void requireLeaf(const Stage& stage, const IterVar& iv, const std::string& context) {
    if (!iv.defined())
        failPrimitive(context, "no iter var given");
    if (!stage.isLeaf(iv)) {
        DiagnosticSubject subject = leafSubject(iv, stage->allIterVars, stage.name());
        failPrimitive(context,
                      notLeafReason(iv, stage->allIterVars, stage->relations, stage.name()),
                      subject, leafFix(subject, stage->leafIterVars, stage->relations, iv));
    }
}

std::string contextOf(const char* primitive, const Stage& stage, const IterVar& iv) {
    if (!iv.defined())
        return std::string(primitive) + " in stage '" + stage.name() + "'";
    return primitiveContext(primitive, iv, stage.name());
}

/// TVM's UpdateIterVarAttr: `iv` must be a leaf; the attribute is copied, changed, stored.
void updateAttr(const Stage& stage, const char* primitive, const IterVar& iv,
                const std::function<void(IterVarAttr&)>& change) {
    requireLeaf(stage, iv, contextOf(primitive, stage, iv));
    StageNode* node = stage.mutableNode();
    IterVarAttr attr;
    if (auto it = node->iterVarAttrs.find(iv); it != node->iterVarAttrs.end())
        attr = it->second;
    change(attr);
    attr.location = currentSourceLocation();
    node->iterVarAttrs[iv] = std::move(attr);
}

/// The bindings TVM cannot lower: a reduce axis over blocks or virtual threads (they cannot
/// combine their partial results: TVM lowers a reduction across threads only over threadIdx),
/// and two loops of one stage over one thread index (both would take its value).
void refuseIllegalBinding(const Stage& stage, const IterVar& iv, const IterVar& thread,
                          const std::string& context) {
    const std::string& tag = thread->threadTag;
    DiagnosticSubject subject = loopSubject("", stage, iv);
    if (iv->iterType == IterVarType::CommReduce && tag.rfind("threadIdx.", 0) != 0) {
        subject.kind = "bind-reduce-axis";
        failPrimitive(context,
                      "a reduce axis can be bound only to threadIdx (a reduction across the "
                      "threads of a block); '" +
                          tag + "' would leave each of its " +
                          (tag.rfind("blockIdx.", 0) == 0 ? "blocks" : "virtual threads") +
                          " with a partial result that nothing combines",
                      subject,
                      "bind a data-parallel loop of '" + stage.name() + "' to " + tag +
                          ", or factor the reduction out first (s.rfactor) and bind the factored "
                          "stage's loop");
    }
    if (tag == "vthread" || tag == "cthread")
        return;
    for (const IterVar& other : stage->leafIterVars) {
        const IterVarAttr* attr = stage.attrOf(other);
        if (other.same_as(iv) || !attr || !attr->bindThread.defined() ||
            attr->bindThread->threadTag != tag)
            continue;
        subject.kind = "thread-bound-twice";
        const std::string line =
            attr->location.known() ? " (line " + std::to_string(attr->location.line) + ")" : "";
        failPrimitive(context,
                      "'" + other->var.name() + "' of stage '" + stage.name() +
                          "' is already bound to " + tag + line +
                          ": two loops of one stage cannot both run over " + tag,
                      subject,
                      "bind '" + iv->var.name() +
                          "' to another thread index, or fuse the two loops "
                          "(s[" +
                          stage.name() + "].fuse) and bind the fused loop to " + tag);
    }
}

/// `C -> D -> C`: the attach chain from `parent` back to `stage`, if there is one (a chain
/// that runs into a cycle `stage` is not part of is not its cycle). The text is built only for
/// a cycle: normalize checks every stage's chain.
std::string attachCycle(const Stage& stage, const Stage& parent) {
    std::vector<Stage> chain; // the stages walked, then the group each went through (or none)
    std::vector<Stage> through;
    std::unordered_set<const StageNode*> seen;
    bool inGroup = false;
    bool closed = false;
    for (Stage s = parent; s.defined() && seen.insert(s.get()).second;) {
        chain.push_back(s);
        through.emplace_back();
        if (s.same_as(stage)) {
            closed = true;
            break;
        }
        if (s.isInGroup(stage)) {
            closed = inGroup = true;
            break;
        }
        Stage spec = s.attachSpec();
        if (spec->attachType != AttachType::Scope)
            break;
        if (!spec.same_as(s))
            through.back() = spec;
        s = spec->attachStage;
    }
    if (!closed)
        return "";
    std::string text = stage.name();
    for (size_t i = 0; i < chain.size(); ++i) {
        text += " -> " + chain[i].name();
        if (through[i].defined())
            text += " (as group " + through[i].name() + ")";
    }
    return inGroup ? text + " (in group " + stage.name() + ")" : text;
}

/// A scan's update (or its body's group) is computed inside the scan's loop, where the scan puts
/// it; no compute_* primitive may move it (TVM: "Cannot specify compute_at for scan updates").
void refuseScanUpdate(const Stage& stage, const std::string& context) {
    if (stage->attachType != AttachType::ScanUpdate)
        return;
    failPrimitive(context,
                  "'" + stage.name() + "' is " + (stage.isGroup() ? "the body" : "an update") +
                      " of scan '" + stage->attachStage.name() +
                      "', which computes it inside its own loop; it cannot be moved",
                  {}, "schedule its loops, or the stages it reads, instead");
}

} // namespace

const char* attachTypeName(AttachType type) {
    switch (type) {
    case AttachType::GroupRoot:
        return "kGroupRoot";
    case AttachType::Inline:
        return "kInline";
    case AttachType::InlinedAlready:
        return "kInlinedAlready";
    case AttachType::Scope:
        return "kScope";
    case AttachType::ScanUpdate:
        return "kScanUpdate";
    }
    return "kUnknown";
}

Stage::Stage(const Operation& op) {
    BS_CHECK(op.defined()) << "a stage needs an operation";
    auto* node = new StageNode();
    m_ptr = IntrusivePtr<StageNode>(node);
    node->op = op;
    node->originOp = op;
    node->allIterVars = op->rootIterVars();
    for (const IterVar& iv : node->allIterVars)
        if (iv->iterType != IterVarType::Opaque)
            node->leafIterVars.push_back(iv);
    node->location = currentSourceLocation();
}

Stage Stage::makeGroup(std::string name) {
    Stage group;
    auto* node = new StageNode();
    group.m_ptr = IntrusivePtr<StageNode>(node);
    node->groupName = std::move(name);
    node->location = currentSourceLocation();
    return group;
}

const std::string& Stage::name() const {
    return get()->originOp.defined() ? get()->originOp->name : get()->groupName;
}

bool Stage::isGroup() const { return !get()->op.defined(); }

Stage Stage::attachSpec() const {
    Stage spec = *this;
    while (spec->attachType == AttachType::GroupRoot && spec->group.defined())
        spec = spec->group;
    return spec;
}

bool Stage::isInGroup(const Stage& group) const {
    for (Stage g = get()->group; g.defined(); g = g->group)
        if (g.same_as(group))
            return true;
    return false;
}

int Stage::leafIndex(const IterVar& iv) const {
    const auto& leaves = get()->leafIterVars;
    for (size_t i = 0; i < leaves.size(); ++i)
        if (leaves[i].same_as(iv))
            return int(i);
    return -1;
}

bool Stage::hasIterVar(const IterVar& iv) const { return contains(get()->allIterVars, iv); }

const IterVarAttr* Stage::attrOf(const IterVar& iv) const {
    auto it = get()->iterVarAttrs.find(iv);
    return it == get()->iterVarAttrs.end() ? nullptr : &it->second;
}

void Stage::computeAt(const Stage& parent, const IterVar& scope) const {
    PrimitiveRecord record(*this, "compute_at");
    std::string context = "compute_at of stage '" + name() + "'";
    if (!parent.defined())
        failPrimitive(context, "no stage given to compute it at");
    if (scope.defined())
        context += " at '" + scope->var.name() + "' of stage '" + parent.name() + "'";
    if (!isGroup() && get()->op.as<PlaceholderOpNode>())
        failPrimitive(context, "a placeholder is not computed, so it cannot be attached");
    refuseScanUpdate(*this, context);
    if (parent.isGroup())
        failPrimitive(context, "'" + parent.name() +
                                   "' is a group, which has no loops to compute "
                                   "inside; compute it at one of the group's stages");
    if (get()->group.defined() && !parent.isInGroup(get()->group)) {
        const std::string group = get()->group.name();
        failPrimitive(context,
                      "'" + name() + "' belongs to group " + group + " and '" + parent.name() +
                          "' does not: a stage of a group can only be computed at a stage of the "
                          "same group",
                      {}, "compute the group instead: g.compute_at(s[" + parent.name() + "], ...)");
    }
    DiagnosticSubject subject;
    subject.stage = name();
    subject.otherStage = parent.name();
    if (scope.defined()) {
        subject.iterVar = scope->var.name();
        subject.iterVarId = scope.get();
    }
    if (!scope.defined())
        failPrimitive(context, "no iter var given");
    if (!parent.isLeaf(scope)) {
        DiagnosticSubject leaf = leafSubject(scope, parent->allIterVars, parent.name());
        subject.kind = leaf.kind == "not-a-leaf" ? "attach-not-leaf" : "itervar-of-other-stage";
        leaf.kind = subject.kind;
        failPrimitive(context,
                      notLeafReason(scope, parent->allIterVars, parent->relations, parent.name()),
                      subject, leafFix(leaf, parent->leafIterVars, parent->relations, scope));
    }
    // An output attached, or an attach cycle, is refused when the schedule is lowered
    // (checkAttachment), as TVM does.
    StageNode* node = mutableNode();
    node->attachType = AttachType::Scope;
    node->attachIVar = scope;
    node->attachStage = parent;
    node->attachLocation = currentSourceLocation();
}

namespace {

std::string computeAtContext(const Stage& stage) {
    return "compute_at of stage '" + stage.name() + "' at '" + stage->attachIVar->var.name() +
           "' of stage '" + stage->attachStage.name() + "'";
}

/// The member of the attach cycle through `stage` whose compute_at came last in the script:
/// the call that closed the cycle.
Stage closingMember(const Stage& stage) {
    Stage last = stage;
    std::unordered_set<const StageNode*> seen;
    for (Stage s = stage; s.defined() && seen.insert(s.get()).second;) {
        const Stage spec = s.attachSpec();
        if (spec->attachType != AttachType::Scope)
            break;
        if (spec->attachLocation.line > last->attachLocation.line)
            last = spec;
        s = spec->attachStage;
    }
    return last;
}

} // namespace

namespace {

/// Whether following the attachments from some stage comes back to it: each stage is walked
/// from once (a stage finished on an earlier walk ends the walk).
bool attachmentsCycle(const std::vector<Stage>& stages) {
    std::unordered_map<const StageNode*, int> state; // 1: on the current walk, 2: finished
    std::vector<const StageNode*> walk;
    for (const Stage& start : stages) {
        walk.clear();
        bool cycle = false;
        for (Stage s = start; s.defined();) {
            int& seen = state[s.get()];
            if (seen == 2)
                break;
            if (seen == 1) {
                cycle = true;
                break;
            }
            seen = 1;
            walk.push_back(s.get());
            if (s->attachType != AttachType::Scope || !s->attachStage.defined())
                break;
            s = s->attachStage;
        }
        if (cycle)
            return true;
        for (const StageNode* done : walk)
            state[done] = 2;
    }
    return false;
}

/// checkAttachment() without the cycle: an output attached anywhere.
void checkOutputAttachment(const Stage& stage) {
    if (stage->isOutput && stage->attachType == AttachType::Scope && stage->attachStage.defined() &&
        stage->attachIVar.defined())
        checkAttachment(stage);
}

} // namespace

void checkAttachments(const std::vector<Stage>& stages, const std::vector<Stage>& groups) {
    if (groups.empty() && !attachmentsCycle(stages)) {
        for (const Stage& s : stages)
            checkOutputAttachment(s);
        return;
    }
    for (const std::vector<Stage>* list : {&stages, &groups})
        for (const Stage& s : *list)
            checkAttachment(s);
}

void checkAttachment(const Stage& given) {
    if (given->attachType != AttachType::Scope || !given->attachStage.defined() ||
        !given->attachIVar.defined())
        return;
    Stage stage = given;
    std::string cycle = stage->isOutput ? std::string() : attachCycle(stage, stage->attachStage);
    if (!cycle.empty()) {
        // Reported as the compute_at that closed it, from that stage's side.
        stage = closingMember(stage);
        if (!stage.same_as(given))
            cycle = attachCycle(stage, stage->attachStage);
    }
    const Stage& parent = stage->attachStage;
    ScopedSourceLocation where(stage->attachLocation);
    const std::string context = computeAtContext(stage);
    DiagnosticSubject subject;
    subject.stage = stage.name();
    subject.otherStage = parent.name();
    subject.iterVar = stage->attachIVar->var.name();
    subject.iterVarId = stage->attachIVar.get();
    if (stage->isOutput) {
        subject.kind = "output-attached";
        // At its own loop, "the other way round" would be the same call.
        failPrimitive(context,
                      "'" + stage.name() + "' is an output and must be computed at the root",
                      subject,
                      parent.same_as(stage)
                          ? "remove this compute_at: no stage is computed inside its own loops"
                          : "attach the other way round, the stage that computes for the output "
                            "inside the output's loops: s[" +
                                parent.name() + "].compute_at(s[" + stage.name() + "], " +
                                stage.name() + ".op.axis[0])");
    }
    if (!cycle.empty()) {
        subject.kind = "attach-cycle";
        failPrimitive(
            context, "it makes an attach cycle " + cycle, subject,
            parent.same_as(stage)
                ? "remove this compute_at: no stage is computed inside its own loops"
                : "compute one of them at the root (compute_root) or at a stage outside the "
                  "cycle");
    }
}

void Stage::computeRoot() const {
    PrimitiveRecord record(*this, "compute_root");
    refuseScanUpdate(*this, "compute_root of stage '" + name() + "'");
    StageNode* node = mutableNode();
    node->attachType = AttachType::GroupRoot;
    node->attachIVar = IterVar();
    node->attachStage = Stage();
    node->attachLocation = currentSourceLocation();
}

void Stage::computeInline() const {
    PrimitiveRecord record(*this, "compute_inline");
    const std::string context = "compute_inline of stage '" + name() + "'";
    if (isGroup())
        failPrimitive(context, "a group cannot be inlined; inline its stages one by one");
    refuseScanUpdate(*this, context);
    const auto* compute = get()->op.as<ComputeOpNode>();
    if (!compute)
        failPrimitive(context, "only a compute can be inlined, '" + name() + "' is a " +
                                   get()->op->typeKey());
    if (get()->isOutput)
        failPrimitive(context, "an output stage cannot be inlined");
    if (compute->isReduction())
        failPrimitive(context, "a reduction cannot be inlined; compute it at the root or with "
                               "compute_at instead");
    if (compute->numOutputs() != 1)
        failPrimitive(context, "only a single-output compute can be inlined, '" + name() +
                                   "' has " + std::to_string(compute->numOutputs()) + " outputs");
    StageNode* node = mutableNode();
    node->attachType = AttachType::Inline;
    node->attachIVar = IterVar();
    node->attachStage = Stage();
    node->attachLocation = currentSourceLocation();
}

void Stage::bind(const IterVar& iv, const IterVar& thread) const {
    PrimitiveRecord record(*this, "bind");
    const std::string context = contextOf("bind", *this, iv);
    requireLeaf(*this, iv, context);
    if (iv->iterType != IterVarType::DataPar && iv->iterType != IterVarType::CommReduce)
        failPrimitive(context, std::string("cannot bind an iter var of kind ") +
                                   iterVarTypeName(iv->iterType) + " to a thread");
    if (!thread.defined() || thread->iterType != IterVarType::ThreadIndex)
        failPrimitive(context, "can only bind to a thread axis created by thread_axis" +
                                   (thread.defined() ? ", but '" + thread->var.name() + "' is " +
                                                           iterVarTypeName(thread->iterType)
                                                     : std::string()));
    if (!isValidThreadTag(thread->threadTag))
        failPrimitive(context,
                      "unknown thread tag '" + thread->threadTag +
                          "': expected blockIdx.x/y/z, threadIdx.x/y/z, vthread or cthread");
    refuseIllegalBinding(*this, iv, thread, context);
    updateAttr(*this, "bind", iv, [&](IterVarAttr& attr) { attr.bindThread = thread; });
}

namespace {

/// Levenshtein distance, for "did you mean".
size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
            diagonal = above;
        }
    }
    return row[b.size()];
}

} // namespace

void Stage::setScope(const std::string& scope) const {
    PrimitiveRecord record(*this, "set_scope");
    if (isGroup())
        failPrimitive("set_scope of " + name(),
                      "a group stores nothing; set the scope of its stages");
    // Checked here, at the script's set_scope line, rather than when InferBound first uses it.
    if (!scope.empty()) {
        try {
            StorageScope::create(scope);
        } catch (const UserError& e) {
            Diagnostic d = e.diagnostic();
            std::string closest;
            size_t best = 3; // a typo is at most two edits away
            for (const char* known : kStorageScopeNames) {
                if (size_t distance = editDistance(scope, known); distance < best) {
                    best = distance;
                    closest = known;
                }
            }
            if (!closest.empty())
                d.fix = "s[" + name() + "].set_scope(\"" + closest + "\")";
            throw UserError(std::move(d));
        }
    }
    mutableNode()->scope = scope;
}

void Stage::vectorize(const IterVar& iv) const {
    PrimitiveRecord record(*this, "vectorize");
    if (iv.defined()) {
        IterVarType t = iv->iterType;
        if (t == IterVarType::CommReduce || t == IterVarType::Ordered ||
            t == IterVarType::ThreadIndex)
            failPrimitive(contextOf("vectorize", *this, iv),
                          std::string("cannot vectorize an iter var of kind ") +
                              iterVarTypeName(t));
    }
    updateAttr(*this, "vectorize", iv,
               [](IterVarAttr& attr) { attr.iterType = IterVarType::Vectorized; });
}

void Stage::unroll(const IterVar& iv) const {
    PrimitiveRecord record(*this, "unroll");
    updateAttr(*this, "unroll", iv,
               [](IterVarAttr& attr) { attr.iterType = IterVarType::Unrolled; });
}

void Stage::parallel(const IterVar& iv) const {
    PrimitiveRecord record(*this, "parallel");
    updateAttr(*this, "parallel", iv,
               [](IterVarAttr& attr) { attr.iterType = IterVarType::Parallelized; });
}

void Stage::pragma(const IterVar& iv, const std::string& key, const Expr& value) const {
    if (key == "unroll")
        return unroll(iv);
    if (key == "vectorize")
        return vectorize(iv);
    PrimitiveRecord record(*this, "pragma");
    if (key.empty())
        failPrimitive(contextOf("pragma", *this, iv), "the pragma needs a name");
    updateAttr(*this, "pragma", iv,
               [&](IterVarAttr& attr) { attr.pragmas.emplace_back(key, value); });
}

void Stage::prefetch(const Tensor& tensor, const IterVar& iv, const Expr& offset) const {
    PrimitiveRecord record(*this, "prefetch");
    const std::string context = contextOf("prefetch", *this, iv);
    if (!tensor.defined())
        failPrimitive(context, "the tensor to prefetch is undefined");
    if (tensor.op->numOutputs() > 1)
        failPrimitive(context, "'" + tensor.op->name +
                                   "' has several outputs; prefetching one of "
                                   "them is not supported");
    if (!offset.defined() || !offset.type().isInt())
        failPrimitive(context, "the offset must be an integer number of iterations");
    updateAttr(*this, "prefetch", iv,
               [&](IterVarAttr& attr) { attr.prefetches.emplace_back(tensor, offset); });
}

void Stage::storageAlign(const IterVar& axis, int factor, int offset) const {
    PrimitiveRecord record(*this, "storage_align");
    const std::string context = "storage_align of stage '" + name() + "'";
    const auto* compute = isGroup() ? nullptr : (*this)->op.as<ComputeOpNode>();
    if (!compute)
        failPrimitive(context, "only a compute stage has a buffer layout to align");
    if (!axis.defined() || std::none_of(compute->axis.begin(), compute->axis.end(),
                                        [&](const IterVar& a) { return a.same_as(axis); }))
        failPrimitive(context, "'" + (axis.defined() ? axis->var.name() : std::string("None")) +
                                   "' is not a data axis of " + name() + " (use " + name() +
                                   ".op.axis[i]: the alignment is of the buffer's dimension i)");
    if (factor <= 0 || offset < 0)
        failPrimitive(context, "the factor must be positive and the offset not negative, got "
                               "factor " +
                                   std::to_string(factor) + " and offset " +
                                   std::to_string(offset));
    StageNode* node = mutableNode();
    IterVarAttr& attr = node->iterVarAttrs[axis];
    attr.dimAlignFactor = factor;
    attr.dimAlignOffset = offset;
    attr.location = currentSourceLocation();
}

void Stage::doubleBuffer() const {
    PrimitiveRecord record(*this, "double_buffer");
    if (isGroup())
        failPrimitive("double_buffer of " + name(), "a group has no buffer of its own");
    if ((*this)->isOutput)
        failPrimitive("double_buffer of stage '" + name() + "'",
                      "Cannot apply double buffer on output: its buffer is the caller's");
    if ((*this)->op->numOutputs() > 1)
        failPrimitive("double_buffer of stage '" + name() + "'",
                      "a stage with several outputs cannot be double-buffered (one producer fills "
                      "all its buffers)");
    mutableNode()->doubleBuffer = true;
}

void Stage::tensorize(const IterVar& iv, const TensorIntrin& intrin) const {
    PrimitiveRecord record(*this, "tensorize");
    if (!intrin.defined())
        failPrimitive(contextOf("tensorize", *this, iv), "the tensor intrinsic is undefined");
    // A tensor compute stage accepts it, and it changes nothing (as in TVM: the stage already
    // calls an intrinsic).
    if (isGroup() || !computeAxesOf((*this)->op))
        failPrimitive(contextOf("tensorize", *this, iv),
                      "only the loops of a te.compute stage can be tensorized");
    updateAttr(*this, "tensorize", iv, [&](IterVarAttr& attr) {
        attr.iterType = IterVarType::Tensorized;
        attr.tensorIntrin = intrin;
    });
}

void Stage::setStorePredicate(const Expr& predicate) const {
    PrimitiveRecord record(*this, "set_store_predicate");
    if (isGroup())
        failPrimitive("set_store_predicate of " + name(), "a group stores nothing");
    if (!predicate.defined() || !predicate.type().isBool())
        throw UserError(Diagnostic{"set_store_predicate of stage '" + name() +
                                       "': the predicate must be a boolean expression",
                                   currentSourceLocation()});
    mutableNode()->storePredicate = predicate;
}

} // namespace bs

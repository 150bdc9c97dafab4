// The loop primitives of a Stage: split, fuse, reorder and tile (TVM's schedule_lang.cc, notes
// section 0). Each works on a copy of the stage's loop state (LoopEdit) and commits it only
// when every step succeeded, so a failing primitive, including one step of a composite such as
// tile or fuse(list), leaves the stage unchanged.

#include "schedule/ScheduleErrors.h"
#include "schedule/ScheduleRewrite.h"
#include "schedule/Stage.h"

#include "ir/Printer.h"
#include "support/Check.h"

#include <algorithm>
#include <unordered_set>

namespace bs {

namespace {

/// The loop state a primitive edits: all IterVars, leaves and relations of one stage.
struct LoopEdit {
    std::vector<IterVar> all;
    std::vector<IterVar> leaves;
    std::vector<IterVarRelation> relations;
    std::string stageName;

    explicit LoopEdit(const Stage& stage)
        : all(stage->allIterVars), leaves(stage->leafIterVars), relations(stage->relations),
          stageName(stage.name()) {
        if (stage.isGroup())
            failPrimitive("loop primitive on " + stageName,
                          "a group has no loops of its own; schedule its stages");
    }

    void commit(const Stage& stage) {
        StageNode* node = stage.mutableNode();
        node->allIterVars = std::move(all);
        node->leafIterVars = std::move(leaves);
        node->relations = std::move(relations);
    }

    /// TVM's FindLeafVar: the position of `iv` among the leaves; else why it is not one.
    size_t findLeaf(const IterVar& iv, const std::string& context) const {
        if (!iv.defined())
            failPrimitive(context, "no iter var given");
        for (size_t i = 0; i < leaves.size(); ++i)
            if (leaves[i].same_as(iv))
                return i;
        DiagnosticSubject subject = leafSubject(iv, all, stageName);
        failPrimitive(context, notLeafReason(iv, all, relations, stageName), subject,
                      leafFix(subject, leaves, relations, iv));
    }
};

bool isSplittable(IterVarType t) {
    return t == IterVarType::DataPar || t == IterVarType::CommReduce || t == IterVarType::Ordered;
}

/// A split factor or nparts: an integer expression, positive when constant.
void checkSplitSize(const Expr& size, const char* what, const std::string& context) {
    if (!size.defined())
        failPrimitive(context, std::string(what) + " must be given");
    if (!size.type().isIntegral() || !size.type().isScalar())
        failPrimitive(context,
                      std::string(what) + " must be a positive integer, got " + toString(size));
    if (const auto* imm = size.as<IntImmNode>(); imm && imm->value <= 0)
        failPrimitive(context, std::string(what) + " must be a positive integer, got " +
                                   std::to_string(imm->value));
}

/// TVM's Split: `parent` -> (`parent.outer`, `parent.inner`) in the leaves, in place.
std::pair<IterVar, IterVar> splitIn(LoopEdit& edit, const IterVar& parent, const Expr& factor,
                                    const Expr& nparts, bool disablePredication = false) {
    const std::string context = primitiveContext("split", parent, edit.stageName);
    const bool byFactor = factor.defined();
    checkSplitSize(byFactor ? factor : nparts, byFactor ? "factor" : "nparts", context);
    size_t pos = edit.findLeaf(parent, context);
    if (!isSplittable(parent->iterType))
        failPrimitive(context, std::string("cannot split an iter var of kind ") +
                                   iterVarTypeName(parent->iterType));
    IterVar outer(Range(), copyWithSuffix(parent->var, ".outer"), parent->iterType);
    IterVar inner(Range(), copyWithSuffix(parent->var, ".inner"), parent->iterType);
    edit.relations.push_back(
        IterVarRelation::split(parent, outer, inner, factor, nparts, disablePredication));
    edit.all.push_back(outer);
    edit.all.push_back(inner);
    edit.leaves[pos] = inner;
    edit.leaves.insert(edit.leaves.begin() + long(pos), outer);
    return {outer, inner};
}

/// TVM's Fuse: two adjacent leaves (swapped when given inner first) -> `a.b.fused`, named in
/// the order given, of the larger kind.
IterVar fuseIn(LoopEdit& edit, IterVar outer, IterVar inner) {
    std::string context = "fuse of '" + (outer.defined() ? outer->var.name() : "?") + "' and '" +
                          (inner.defined() ? inner->var.name() : "?") + "' in stage '" +
                          edit.stageName + "'";
    size_t posOuter = edit.findLeaf(outer, context);
    size_t posInner = edit.findLeaf(inner, context);
    for (const IterVar& iv : {outer, inner})
        if (!isSplittable(iv->iterType))
            failPrimitive(context, "cannot fuse '" + iv->var.name() + "' of kind " +
                                       iterVarTypeName(iv->iterType));
    IterVarType type = std::max(outer->iterType, inner->iterType);
    std::string fusedName = outer->var.name() + "." + inner->var.name() + ".fused";
    Var fusedVar(fusedName, outer->var.type());
    if (posInner + 1 == posOuter) {
        std::swap(outer, inner);
        std::swap(posOuter, posInner);
    }
    if (posInner != posOuter + 1)
        failPrimitive(context, "only adjacent leaves can be fused, but '" + outer->var.name() +
                                   "' is leaf " + std::to_string(posOuter) + " and '" +
                                   inner->var.name() + "' is leaf " + std::to_string(posInner) +
                                   " of " + iterVarList(edit.leaves));
    IterVar fused(Range(), fusedVar, type);
    edit.relations.push_back(IterVarRelation::fuse(outer, inner, fused));
    edit.all.push_back(fused);
    edit.leaves.erase(edit.leaves.begin() + long(posOuter),
                      edit.leaves.begin() + long(posInner) + 1);
    edit.leaves.insert(edit.leaves.begin() + long(posOuter), fused);
    return fused;
}

/// TVM's reorder: the listed leaves take, in list order, the sorted positions they occupy.
void reorderIn(LoopEdit& edit, const std::vector<IterVar>& order) {
    std::unordered_set<IterVar, NodeHash, NodeEqual> seen;
    std::vector<size_t> positions;
    for (const IterVar& iv : order) {
        const std::string context = iv.defined() ? primitiveContext("reorder", iv, edit.stageName)
                                                 : "reorder in stage '" + edit.stageName + "'";
        if (iv.defined() && !seen.insert(iv).second)
            failPrimitive(context, "'" + iv->var.name() + "' appears more than once in " +
                                       iterVarList(order));
        positions.push_back(edit.findLeaf(iv, context));
        IterVarType t = iv->iterType;
        if (t != IterVarType::DataPar && t != IterVarType::CommReduce &&
            t != IterVarType::ThreadIndex)
            failPrimitive(context,
                          std::string("cannot reorder an iter var of kind ") + iterVarTypeName(t));
    }
    std::vector<size_t> sorted = positions;
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < sorted.size(); ++i)
        edit.leaves[sorted[i]] = order[i];
}

} // namespace

std::pair<IterVar, IterVar> Stage::split(const IterVar& parent, const Expr& factor,
                                         bool disablePredication) const {
    PrimitiveRecord record(*this, "split");
    LoopEdit edit(*this);
    if (!factor.defined())
        failPrimitive(primitiveContext("split", parent, name()), "factor must be given");
    auto result = splitIn(edit, parent, factor, Expr(), disablePredication);
    edit.commit(*this);
    return result;
}

std::pair<IterVar, IterVar> Stage::splitByNParts(const IterVar& parent, const Expr& nparts,
                                                 bool disablePredication) const {
    PrimitiveRecord record(*this, "split_by_nparts");
    LoopEdit edit(*this);
    if (!nparts.defined())
        failPrimitive(primitiveContext("split", parent, name()), "nparts must be given");
    auto result = splitIn(edit, parent, Expr(), nparts, disablePredication);
    edit.commit(*this);
    return result;
}

IterVar Stage::fuse(const IterVar& outer, const IterVar& inner) const {
    PrimitiveRecord record(*this, "fuse");
    LoopEdit edit(*this);
    IterVar fused = fuseIn(edit, outer, inner);
    edit.commit(*this);
    return fused;
}

IterVar Stage::fuse(const std::vector<IterVar>& axes) const {
    PrimitiveRecord record(*this, "fuse");
    LoopEdit edit(*this);
    if (axes.empty()) {
        // fuse() with nothing to fuse: a new outermost loop of extent 1.
        IterVar singleton(Range(0, 1), Var("singleton"), IterVarType::DataPar);
        edit.relations.push_back(IterVarRelation::singleton(singleton));
        edit.all.push_back(singleton);
        edit.leaves.insert(edit.leaves.begin(), singleton);
        edit.commit(*this);
        return singleton;
    }
    IterVar fused = axes[0];
    for (size_t i = 1; i < axes.size(); ++i)
        fused = fuseIn(edit, fused, axes[i]);
    if (axes.size() == 1)
        edit.findLeaf(fused, primitiveContext("fuse", fused, name()));
    edit.commit(*this);
    return fused;
}

void Stage::reorder(const std::vector<IterVar>& order) const {
    PrimitiveRecord record(*this, "reorder");
    LoopEdit edit(*this);
    reorderIn(edit, order);
    edit.commit(*this);
}

TileResult Stage::tile(const IterVar& x, const IterVar& y, const Expr& xFactor,
                       const Expr& yFactor) const {
    LoopEdit edit(*this);
    if (!xFactor.defined() || !yFactor.defined())
        failPrimitive("tile in stage '" + name() + "'", "both factors must be given");
    if (get()->recordLog && get()->recordLog->owner) {
        // TVM's tile is its two splits and its reorder, each recorded (and kept when a later
        // one fails); only a schedule keeping its record sees the difference.
        auto [xo, xi] = split(x, xFactor);
        auto [yo, yi] = split(y, yFactor);
        reorder({xo, yo, xi, yi});
        return TileResult{xo, yo, xi, yi};
    }
    auto [xOuter, xInner] = splitIn(edit, x, xFactor, Expr());
    auto [yOuter, yInner] = splitIn(edit, y, yFactor, Expr());
    reorderIn(edit, {xOuter, yOuter, xInner, yInner});
    edit.commit(*this);
    return TileResult{xOuter, yOuter, xInner, yInner};
}

} // namespace bs

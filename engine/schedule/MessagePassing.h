/// \file
/// Message passing over a stage's IterVar relations (TVM's message_passing.cc), the one home
/// of: PassUpDomain (consumer leaves -> roots, relations in reverse order), PassDownDomain
/// (roots -> leaves, relations in order), PassUpThreadBinding, PassUpIndex and PassDownIndex
/// (loop values <-> root values), the bit-mask passes, and PassUpBoundCheck / MakeBoundCheck
/// (the guards of splits that do not divide their parent). InferBound, the tight rules, the
/// dataflow rewrites (cache_write, rfactor) and ScheduleOps' loop nests all call these.
///
/// Each pass is one small function per relation kind, dispatched by `visitRelation` (one
/// exhaustive switch: a new relation kind is a compile error in every pass). PassUpDomain and
/// PassDownDomain report what each relation did, and by which rule, to an optional sink; the
/// bound-inference steps (schedule/BoundSteps.h) are made from these reports.
#pragma once

#include "arith/Analyzer.h"
#include "arith/IntSet.h"
#include "schedule/BoundRules.h"
#include "schedule/Stage.h"

#include <functional>
#include <unordered_map>
#include <unordered_set>

namespace bs {

using IterVarSet = std::unordered_set<IterVar, NodeHash, NodeEqual>;

/// The rule a relation applied in PassUpDomain (notes section 6) or PassDownDomain (section 7).
enum class PassRule : uint8_t {
    // PassUpDomain
    SplitWholeParent, ///< both children cover their whole ranges: the parent's whole range
    SplitEvaluated,   ///< parent = outer*E + inner + parent.min evaluated over the children's sets
    FuseWhole,        ///< the fused set is its whole range: outer and inner whole
    FusePoint,        ///< one fused value v: outer = v / E, inner = v % E
    FuseOneRow,       ///< the fused interval never wraps a row: a tight inner interval
    FuseWholeRows,    ///< the fused interval may wrap a row: the rows it spans, whole inner rows
    FuseFallback,     ///< the seed's rules (TVM before PR #3073): whole outer and inner ranges
    RebaseWhole,      ///< the rebased set is its whole range: the parent's whole range
    RebaseShifted,    ///< parent = rebased + parent.min
    // PassDownDomain
    SplitByFactor, ///< inner = factor (maybe tightened), outer = ceil(parent / inner)
    SplitByNparts, ///< outer = nparts (maybe tightened), inner = ceil(parent / nparts)
    FuseProduct,   ///< fused = outer * inner
    RebaseCopy,    ///< rebased = (0, parent extent)
    SingletonUnit, ///< iter = (0, 1)
    ThreadBinding, ///< a thread IterVar takes the range of a leaf bound to it
};
/// A stable name for JSON and tests: `split-whole-parent`, `fuse-one-row`, `thread-binding`, ...
const char* passRuleName(PassRule rule);

/// Whether PassDownDomain tightened a split's factor (or nparts) to the parent's extent, or
/// why not (notes section 7, `tighten`).
enum class Tightening : uint8_t {
    NotApplicable,    ///< not a split, or not reported
    Tightened,        ///< the parent is provably smaller than the factor: its extent is used
    ParentNotSmaller, ///< the parent is not provably smaller than the factor
    ThreadBound,      ///< a leaf derived from it is bound to a thread
    SeedRules,        ///< the seed's rules never tighten
    EarlyPass,        ///< a dataflow rewrite's early pass (allow_missing) never tightens
    ZeroExtent,       ///< the parent's extent is literally 0
};
const char* tighteningName(Tightening t);

/// What one relation did in a pass.
struct PassEvent {
    PassEvent(IterVarRelation relation, PassRule rule)
        : relation(std::move(relation)), rule(rule) {}

    IterVarRelation relation; ///< undefined for ThreadBinding
    PassRule rule;
    /// PassUpDomain: the children's sets read and the parents' sets written.
    std::vector<std::pair<IterVar, IntSet>> setsIn, setsOut;
    /// PassDownDomain: the parents' ranges read and the children's ranges written.
    std::vector<std::pair<IterVar, Range>> rangesIn, rangesOut;
    /// Splits in PassDownDomain: what happened to the factor (or nparts).
    Tightening tightening = Tightening::NotApplicable;
    /// PassUpDomain of a split or a shifted rebase: the expression evaluated over the children's
    /// sets (`i.outer*8 + i.inner`); fuses: the inner extent E the fused value is divided by.
    Expr evaluated;
    /// The script line of the relation, or of the bind of a thread binding.
    SourceLocation location;
};

/// Receives one event per relation a pass visits; an empty sink costs nothing.
using PassSink = std::function<void(const PassEvent&)>;

/// PassUpDomain: propagates `state` (the IntSets of some leaves) up to the roots of `stage`,
/// with the rules of `rules` (the seed's rules: a fuse falls back to its whole ranges).
void passUpDomain(const Stage& stage, const IterVarMap<Range>& rmap, BoundRules rules,
                  IterVarMap<IntSet>* state, const PassSink& sink = {});

/// Why a split that does not divide its parent keeps its factor under the tight rules (its last
/// iterations then run past the parent's end, behind TVM's bound check).
enum class KeptFactor : uint8_t {
    NoPredicate,    ///< `disable_predication`: the program runs every iteration unguarded
    ThreadBound,    ///< a loop derived from it is bound to a thread: every thread runs the factor
    ConstantLoop,   ///< a vectorized or unrolled loop below it needs a constant extent
    NotExpressible, ///< a fuse or split below it needs rows of one length
    NotInLoopOrder, ///< a loop that would run the remainder is outside the loop it depends on
};

/// What PassDownDomain's remainder mode finds (the tight rules; seed 002, "PassDownDomain"): the
/// extent each IterVar of a stage really runs, where a split that does not divide its parent
/// runs `min(factor, parent - outer*factor)` on its inner loop. The ranges keep the factor.
struct LoopExtents {
    IterVarMap<Expr> extents;
    /// The splits that run a remainder.
    std::unordered_set<const SplitNode*> remainders;
    /// The splits that keep their factor for a reason other than dividing their parent.
    std::unordered_map<const SplitNode*, KeptFactor> kept;
    /// False when the remainders cannot be expressed relation by relation (a fuse whose inner
    /// rows would not be of one length, a split whose parent runs a remainder and which keeps
    /// its factor): the loops then run their ranges.
    bool expressible = true;
};

/// PassDownDomain: fills the range of every non-root IterVar of `stage` from its roots, then the
/// ranges of the thread IterVars its leaves are bound to (all leaves bound to one thread must
/// agree). `allowMissing` skips relations whose inputs have no range and never tightens
/// (rfactor and cache_write, before any bounds are known). Throws UserError when a range is set
/// twice with extents that cannot be proven equal.
/// With `loops` (the remainder mode, never with `allowMissing`), also the extents each IterVar
/// really runs: a split keeps its factor when it divides its parent, asks for no predicate
/// (`disable_predication`), is bound to a thread or has a vectorized or unrolled loop below it.
void passDownDomain(const Stage& stage, IterVarMap<Range>* rmap, Analyzer* analyzer,
                    BoundRules rules, bool allowMissing, const PassSink& sink = {},
                    LoopExtents* loops = nullptr);

/// PassUpThreadBinding: for each IterVar of `stage`, whether a leaf derived from it is bound to
/// a thread.
IterVarMap<bool> passUpThreadBinding(const Stage& stage);

/// PassUpIndex: the values of parents from the values of children (relations in reverse
/// order): split parent = inner + outer * E (+ min), fuse outer = fused / E and inner = fused % E
/// (+ mins, cast to the variables' types), rebase parent = rebased (+ min). Without
/// `allowMissing`, a relation whose children have no value is an internal error.
void passUpIndex(const Stage& stage, const IterVarMap<Range>& dom, IterVarMap<Expr>* values,
                 bool allowMissing = false);
/// PassUpIndex of one relation: the values of its parents (split: parent; fuse: outer and
/// inner; rebase: parent) written to `parents`, from the values of its children in `children`
/// (which may be `parents`). The ISL model of the tight rules writes each relation as the
/// equality `parent = value` with the children as their own variables.
void passUpIndexOf(const IterVarRelation& rel, const IterVarMap<Range>& dom,
                   const IterVarMap<Expr>& children, IterVarMap<Expr>* parents,
                   bool allowMissing = false);
/// PassDownIndex: the values of children from the values of parents (relations in order).
void passDownIndex(const Stage& stage, const IterVarMap<Range>& dom, IterVarMap<Expr>* values,
                   bool allowMissing = false);

/// OR-propagates bit masks from children to parents (PassUpBitMaskOr) and from parents to
/// children (PassDownBitMaskOr).
void passUpBitMaskOr(const Stage& stage, IterVarMap<int>* state, bool allowMissing = false);
void passDownBitMaskOr(const Stage& stage, IterVarMap<int>* state, bool allowMissing = false);

/// PassUpBoundCheck: which IterVars may take values past their range (a split parent whose
/// extent is not provably outer * inner, and everything above it). Splits in `exactSplits` run
/// their remainder exactly (the tight rules' `min(factor, extent - outer*factor)`) and need no
/// check of their own.
IterVarMap<bool>
passUpBoundCheck(const Stage& stage, const IterVarMap<Range>& dom, Analyzer& analyzer,
                 const std::unordered_set<const SplitNode*>* exactSplits = nullptr);

/// One predicate of MakeBoundCheck, with the IterVar it keeps in range.
struct BoundCheck {
    enum class Kind : uint8_t {
        Extent,   ///< `value - min < extent` of an IterVar that may overrun (PassUpBoundCheck)
        DomLower, ///< `value >= 0` of a root whose realized range is not its dom
        DomUpper, ///< `value < dom.extent` of such a root
    };
    Expr predicate; ///< not yet wrapped in likely()
    IterVar iv;
    Kind kind;
};
const char* boundCheckKindName(BoundCheck::Kind kind);

/// MakeBoundCheck: the predicates that keep `stage` inside its domain where splits do not
/// divide their parents and where a root's realized range differs from its dom (unless
/// `skipIterVarDomain`), without duplicates; IterVars in `skip` and opaque ones are left out,
/// and so are checks provable from the ranges. Only the ranges of the IterVars the stage's
/// values and ranges name (transitively) are used; `iterVarOfVar`, the IterVar of each loop
/// variable of `dom`, finds them without a walk over `dom` (which made lowering quadratic in
/// the number of stages); without it, one is built from `dom`.
std::vector<BoundCheck> makeBoundCheck(const Stage& stage, const IterVarMap<Range>& dom,
                                       const IterVarMap<Expr>& values, bool skipIterVarDomain,
                                       const IterVarSet& skip,
                                       const VarMap<IterVar>* iterVarOfVar = nullptr);

/// The IterVar of each variable of `dom`'s IterVars, for makeBoundCheck.
VarMap<IterVar> iterVarsByVar(const IterVarMap<Range>& dom);

/// `ceil(a / b)` for extents: `a / b` when `b` provably divides `a` (`8m / 8` is exactly `m`),
/// else `(a + b - 1) / b`, simplified with `analyzer`.
Expr ceilDivExtent(const Expr& a, const Expr& b, Analyzer& analyzer);

/// Whether `thread` is a virtual thread (`vthread`, `cthread`) that the region of `stage`
/// already holds: a root range in `rmap` uses its variable, because InferBound kept a
/// consumer's loop bound to it as a point (storage private to each virtual thread, such as a
/// "local" stage computed outside the consumer's vthread loop). A leaf of `stage` bound to
/// such a thread then adds nothing to the stage's indices: it stands at its min, both in the
/// loop nest (MakeLoopNest) and in what the stage asks of its producers (InferBound phase 1).
/// TVM takes the thread variable in both places and so counts the offset twice (its
/// test_local_stage_predicate, "local vs. vthread", stores B at `vthread + vthread`).
bool regionHoldsVirtualThread(const Stage& stage, const IterVarMap<Range>& rmap,
                              const IterVar& thread);

} // namespace bs

/// TVM's cross_thread_reduction.cc: a reduction whose reduce leaf is bound to a thread.
///
///     // one thread's share: the reduce leaves that are not bound (absent when all are)
///     normal_reduce_temp0[0] = identity
///     for (k.outer, ...) if (guards && condition) normal_reduce_temp0[0] =
///     f(normal_reduce_temp0[0], A[...])
///     // attr [comm_reducer(...)] reduce_scope = reinterpret((uint64)0)
///     tvm_thread_allreduce((uint32)1, normal_reduce_temp0[0], cond, reduce_temp0, threadIdx.x)
///     if (data axes in range && store predicate) B[i] = reduce_temp0[0]
///
/// Two departures from TVM, both for correctness: without a normal part the bound checks and
/// the reduction's `where=` condition become the allreduce's condition (TVM passes true, so a
/// thread past the end of a non-dividing split would read out of bounds), and the store is
/// guarded by the data axes' checks rather than by the `where=` condition (which may mention
/// the reduce axes). A reduction with `init=` combines the init value with the threads'
/// result, where TVM refuses it.
#include "lower/ComputeStmt.h"

#include "lower/BufferStmts.h"

#include "ir/Op.h"
#include "schedule/ScheduleErrors.h"
#include "support/Check.h"

#include <algorithm>

namespace bs {

namespace {

bool boundToThread(const Stage& stage, const IterVar& iv) {
    const IterVarAttr* attr = stage.attrOf(iv);
    return attr && attr->bindThread.defined();
}

bool isReduceLeaf(const IterVar& iv) { return iv->iterType == IterVarType::CommReduce; }

} // namespace

bool isCrossThreadReduction(const ComputeOpNode* op, const Stage& stage) {
    if (op->reduceAxis.empty())
        return false;
    IterVar threadReduce;
    for (const IterVar& iv : stage->leafIterVars) {
        if (isReduceLeaf(iv)) {
            if (!threadReduce.defined() && boundToThread(stage, iv))
                threadReduce = iv;
            continue;
        }
        if (!threadReduce.defined())
            continue;
        const IterVarAttr* attr = stage.attrOf(threadReduce);
        Diagnostic d{"stage '" + stage.name() + "': the data axis '" + iv->var.name() +
                         "' comes after the reduce axis '" + threadReduce->var.name() +
                         "' bound to " + attr->bindThread->threadTag +
                         "; a cross-thread reduction needs every data axis outside it (TVM: "
                         "\"Cross thread reduce cannot swap with normal data axis\")",
                     attr->location};
        d.subject = loopSubject("thread-reduce-order", stage, threadReduce);
        d.fix = "reorder the loops of '" + stage.name() + "' so that '" + iv->var.name() +
                "' comes before '" + threadReduce->var.name() + "'";
        throw UserError(std::move(d));
    }
    return threadReduce.defined();
}

Stmt makeCrossThreadReduction(const ComputeOpNode* op, const Stage& stage,
                              const IterVarMap<Range>& bounds, const ScheduleOpsOptions& options) {
    IterVarMap<Expr> values;
    LoopNest nest = makeLoopNest(stage, bounds, mainNestOptions(options), &values);
    static const IterVarSet kNone;
    const IterVarSet& proven = options.provenInRange ? *options.provenInRange : kNone;
    std::vector<BoundCheck> checks =
        makeBoundCheck(stage, bounds, values, false, proven, options.iterVarOfVar);
    std::vector<Stmt> guards = makeGuards(stage, checks, bounds, options.steps);
    std::vector<Stmt> dataGuards;
    Expr inRange = makeBool(true);
    for (size_t i = 0; i < checks.size(); ++i) {
        inRange = inRange && checks[i].predicate;
        if (std::any_of(op->axis.begin(), op->axis.end(),
                        [&](const IterVar& a) { return a.same_as(checks[i].iv); }))
            dataGuards.push_back(guards[i]);
    }

    // The leaves each thread runs itself (normal) and those it shares (data, thread-bound).
    LoopNest common{nest[0]}, normal;
    std::vector<Expr> threadVars;
    for (size_t i = 0; i < stage->leafIterVars.size(); ++i) {
        const IterVar& iv = stage->leafIterVars[i];
        const bool threadReduce = isReduceLeaf(iv) && boundToThread(stage, iv);
        if (isReduceLeaf(iv) && !threadReduce)
            normal.push_back(nest[i + 1]);
        else
            common.push_back(nest[i + 1]);
        if (threadReduce)
            threadVars.push_back(stage.attrOf(iv)->bindThread->var);
    }

    const auto* reduce = op->body[0].as<ReduceNode>();
    BS_CHECK(reduce) << "reduction body expected";
    const size_t size = op->body.size();
    std::vector<DataType> types;
    std::vector<Var> temps, normalTemps;
    for (size_t i = 0; i < size; ++i) {
        types.push_back(op->body[i].type());
        temps.emplace_back("reduce_temp" + std::to_string(i), DataType::handle());
        if (!normal.empty())
            normalTemps.emplace_back("normal_reduce_temp" + std::to_string(i), DataType::handle());
    }

    std::vector<Stmt> seq;
    std::vector<Expr> inputs = reduce->source;
    Expr condition = makeBool(true);
    if (!normal.empty()) {
        std::vector<Expr> partial = loadsAt(normalTemps, types, Expr(0));
        std::vector<Stmt> inits = storesAt(normalTemps, reduce->combiner->identityElement, Expr(0));
        seq.insert(seq.end(), inits.begin(), inits.end());
        Stmt update = SeqNode::make(
            storesAt(normalTemps, reduce->combiner.combine(partial, reduce->source), Expr(0)));
        if (!isOne(reduce->condition))
            update = IfThenElseNode::make(reduce->condition, update);
        seq.push_back(mergeNest(normal, mergeNest(guards, update)));
        inputs = partial;
    } else {
        condition = isOne(reduce->condition) ? inRange : inRange && reduce->condition;
    }

    std::vector<Expr> args{makeConst(DataType(DataType::Code::UInt, 32), int64_t(size))};
    args.insert(args.end(), inputs.begin(), inputs.end());
    args.push_back(condition);
    args.insert(args.end(), temps.begin(), temps.end());
    args.insert(args.end(), threadVars.begin(), threadVars.end());
    Stmt allreduce = EvaluateNode::make(
        CallNode::make(DataType::handle(), "tvm_thread_allreduce", args, CallKind::Intrinsic));
    Expr scopeValue = CallNode::make(DataType::handle(), "reinterpret",
                                     {makeConst(DataType(DataType::Code::UInt, 64), int64_t(0))},
                                     CallKind::Intrinsic);
    seq.push_back(AttrStmtNode::make(reduce->combiner, attr::kReduceScope, scopeValue, allreduce));

    std::vector<Expr> results = loadsAt(temps, types, Expr(0));
    if (!reduce->init.empty())
        results = reduce->combiner.combine(reduce->init, results);
    std::vector<Stmt> assigns;
    for (size_t i = 0; i < size; ++i)
        assigns.push_back(
            ProducerStoreNode::make(stage->op.output(int(i)), results[i], axisVars(op)));
    Stmt assign = SeqNode::make(assigns);
    if (stage->storePredicate.defined())
        assign = IfThenElseNode::make(stage->storePredicate, assign);
    seq.push_back(mergeNest(dataGuards, assign));

    Stmt body = SeqNode::make(seq);
    for (size_t i = size; i-- > 0;) {
        body = allocateInScope(temps[i], types[i], 1, "local", body);
        if (!normal.empty())
            body = allocateInScope(normalTemps[i], types[i], 1, "local", body);
    }
    return mergeNest(common, substituteValues(body, values));
}

} // namespace bs

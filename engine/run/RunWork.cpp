/// \file
/// The arithmetic of a run: symbolic sizes bound to values, the argument buffers, the work a
/// program does (FLOPs, bytes) and the comparison of its outputs with a reference.
#include "run/RunInternal.h"

#include "arith/ConstEval.h"
#include "ir/Functor.h"
#include "ir/Printer.h"
#include "lower/SplitHostDevice.h"
#include "schedule/Graph.h"
#include "te/Operation.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <set>
#include <sstream>
#include <unordered_set>

#include <unistd.h>

namespace bs {

namespace run_detail {

std::vector<int64_t> bindSizes(const LoweredFunc& func,
                               const std::map<std::string, int64_t>& sizes) {
    // A run binds integer sizes only: a float parameter would get an integer's bits.
    for (const Var& v : func.scalarParams)
        if (!v.type().isIntegral() && !v.type().isBool())
            throw UserError("'" + v.name() + "' is a " + v.type().toString() + " parameter of '" +
                            func.name +
                            "': a run gives scalar parameters integer sizes only; call the "
                            "built function from the script instead (f = tvm.build(s, args); "
                            "f(..., 2.5))");
    for (const auto& [name, value] : sizes) {
        bool known = std::any_of(func.scalarParams.begin(), func.scalarParams.end(),
                                 [&](const Var& v) { return v.name() == name; });
        if (!known) {
            std::string names;
            for (const Var& v : func.scalarParams)
                names += (names.empty() ? "" : ", ") + v.name();
            throw UserError("size '" + name + "' names no symbolic size of '" + func.name + "' (" +
                            (names.empty() ? std::string("it has none") : "it has " + names) + ")");
        }
        if (value <= 0)
            throw UserError("size '" + name + "' must be positive, got " + std::to_string(value));
        const Var& param = *std::find_if(func.scalarParams.begin(), func.scalarParams.end(),
                                         [&](const Var& v) { return v.name() == name; });
        int bits = param.type().bits();
        if (bits < 64 && value > (int64_t(1) << (bits - 1)) - 1)
            throw UserError("size '" + name + "' is " + param.type().toString() +
                            ", which cannot hold " + std::to_string(value));
    }
    std::vector<int64_t> values;
    for (const Var& v : func.scalarParams) {
        auto it = sizes.find(v.name());
        values.push_back(it == sizes.end() ? kDefaultSymbolicSize : it->second);
    }
    return values;
}

int64_t evaluateSize(const Expr& e, const LoweredFunc& func, const std::vector<int64_t>& sizes) {
    VarMap<int64_t> values;
    for (size_t i = 0; i < func.scalarParams.size() && i < sizes.size(); ++i)
        values[func.scalarParams[i]] = sizes[i];
    std::optional<int64_t> value = evaluateInt(e, values);
    if (!value)
        throw UserError("the size '" + toString(e) + "' of '" + func.name +
                        "' is not a constant once its symbolic sizes are bound");
    return *value;
}

namespace {

std::string byteText(double bytes) {
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int unit = 0;
    while (bytes >= 1024 && unit < 6) {
        bytes /= 1024;
        ++unit;
    }
    std::ostringstream text;
    text << std::setprecision(3) << bytes << " " << units[unit];
    return text.str();
}

/// `axis 0 of 'O0' is ((M + 1) - W) = -2 with M=2, W=5: ...`: which tensor, which extent, the
/// sizes that made it negative, and what to do.
std::string negativeExtentMessage(const Tensor& t, size_t axis, int64_t value,
                                  const LoweredFunc& func, const std::vector<int64_t>& sizes) {
    std::string with;
    for (size_t i = 0; i < func.scalarParams.size() && i < sizes.size(); ++i)
        with += (with.empty() ? " with " : ", ") + func.scalarParams[i].name() + "=" +
                std::to_string(sizes[i]);
    return "axis " + std::to_string(axis) + " of '" + t.name() + "' has extent " +
           toString(t.shape()[axis]) + " = " + std::to_string(value) + with +
           ": the range of its index is empty, so the tensor has no elements to compute; give "
           "sizes for which the extent is at least 0";
}

/// Refuses shapes whose buffers cannot be allocated: a run keeps three copies of every
/// argument (the inputs, the kernel's, the reference's), and they must fit in memory.
void checkArgumentsFit(const LoweredFunc& func, const std::vector<std::vector<int64_t>>& shapes) {
    double total = 0;
    std::string largest;
    double largestBytes = -1;
    for (size_t i = 0; i < func.args.size(); ++i) {
        double bytes = double(func.args[i].dtype().bytes());
        std::string dims;
        for (int64_t extent : shapes[i]) {
            bytes *= double(extent);
            dims += (dims.empty() ? "" : " x ") + std::to_string(extent);
        }
        total += bytes;
        if (bytes > largestBytes) {
            largestBytes = bytes;
            largest = func.args[i].name() + " (" + dims + " " + func.args[i].dtype().toString() +
                      ", " + byteText(bytes) + ")";
        }
    }
    double memory = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE));
    if (memory > 0 && 3 * total > memory)
        throw UserError("running '" + func.name + "' needs " + byteText(3 * total) +
                        " (the three copies of its arguments a run keeps; the largest is " +
                        largest + "), more than this machine's " + byteText(memory) +
                        ": run smaller shapes (give symbolic sizes smaller values)");
}

} // namespace

std::vector<Buffer> makeArgumentBuffers(const LoweredFunc& func, const std::vector<int64_t>& sizes,
                                        uint64_t seed) {
    std::vector<std::vector<int64_t>> shapes;
    for (const Tensor& t : func.args) {
        std::vector<int64_t> shape;
        for (const Expr& extent : t.shape()) {
            shape.push_back(evaluateSize(extent, func, sizes));
            if (shape.back() < 0)
                throw UserError(Diagnostic{
                    negativeExtentMessage(t, shape.size() - 1, shape.back(), func, sizes),
                    t.op->location});
        }
        shapes.push_back(std::move(shape));
    }
    checkArgumentsFit(func, shapes);
    std::vector<Buffer> buffers;
    for (size_t i = 0; i < func.args.size(); ++i) {
        const Tensor& t = func.args[i];
        buffers.emplace_back(t.name(), t.dtype(), shapes[i]);
        buffers.back().fillRandom(seed * 1000003 + i);
    }
    return buffers;
}

std::vector<Var> kernelArguments(const LoweredFunc& func) {
    std::vector<Var> arguments = func.argBuffers;
    arguments.insert(arguments.end(), func.scalarParams.begin(), func.scalarParams.end());
    return arguments;
}

namespace {

bool isKernelRoot(const AttrStmtNode* op) {
    const auto* iv = op->node.as<IterVarNode>();
    return op->key == attr::kThreadExtent && iv && threadTagIndex(iv->threadTag) >= 0;
}

/// Every ComputeOp the arguments depend on, each once (TVM's CreateReadGraph from them).
std::vector<const ComputeOpNode*> computeOps(const LoweredFunc& func) {
    std::vector<Operation> roots;
    for (const Tensor& t : func.args)
        roots.push_back(t.op);
    const ReadGraph graph = createReadGraph(roots);
    std::vector<const ComputeOpNode*> ops;
    for (const Operation& op : graph.ops())
        if (const auto* compute = op.as<ComputeOpNode>())
            ops.push_back(compute);
    return ops;
}

int64_t product(const std::vector<IterVar>& axes, const LoweredFunc& func,
                const std::vector<int64_t>& sizes) {
    int64_t n = 1;
    for (const IterVar& iv : axes)
        n *= evaluateSize(iv->dom.extent, func, sizes);
    return n;
}

/// Float arithmetic nodes of `e`: + - * / % min max and calls (math functions).
int64_t floatOps(const Expr& e) {
    int64_t count = 0;
    postOrderVisit(e, [&](const NodeRef& n) {
        if (!isExprKind(n.kind()) || !static_cast<const ExprNode*>(n.get())->type.isFloat())
            return;
        switch (n.kind()) {
        case NodeKind::Add:
        case NodeKind::Sub:
        case NodeKind::Mul:
        case NodeKind::Div:
        case NodeKind::Mod:
        case NodeKind::FloorDiv:
        case NodeKind::FloorMod:
        case NodeKind::Min:
        case NodeKind::Max:
        case NodeKind::Call:
            count += static_cast<const ExprNode*>(n.get())->type.lanes();
            break;
        default:
            break;
        }
    });
    return count;
}

/// Float operations of one iteration of a compute body: a reduction's sources and combiner
/// (shared by all of its outputs), or each output's expression.
int64_t bodyFloatOps(const ComputeOpNode* op) {
    int64_t count = 0;
    if (const auto* reduce = op->body[0].as<ReduceNode>()) {
        for (const Expr& source : reduce->source)
            count += floatOps(source);
        for (const Expr& result : reduce->combiner->result)
            count += floatOps(result);
        return count;
    }
    for (const Expr& e : op->body)
        count += floatOps(e);
    return count;
}

/// The float operations the lowered program executes: each store's (and let's) operations times
/// the iterations of the loops, threads and virtual threads around it. A guard `v < c` on a
/// loop or thread variable counts the iterations that pass it; other guards (a split's tail)
/// count every iteration, so a tail adds at most one extra iteration per split loop.
class ExecutedFlops : public IRVisitor {
public:
    ExecutedFlops(const LoweredFunc& func, const std::vector<int64_t>& sizes) {
        for (size_t i = 0; i < func.scalarParams.size() && i < sizes.size(); ++i)
            m_values[func.scalarParams[i]] = sizes[i];
    }

    /// The count, or nullopt when an extent is not known before the program runs.
    std::optional<int64_t> count(const Stmt& body) {
        visitStmt(body);
        return m_known ? std::optional<int64_t>(int64_t(m_total)) : std::nullopt;
    }

protected:
    using IRVisitor::visit;

    void visit(const ForNode* op) override {
        const std::optional<int64_t> extent = evaluateInt(op->extent, m_values);
        const std::optional<int64_t> min = evaluateInt(op->min, m_values);
        if (!extent || !min) {
            m_known = false;
            return;
        }
        within(op->loopVar, *min, *extent, op->body);
    }

    void visit(const AttrStmtNode* op) override {
        const auto* iv = op->node.as<IterVarNode>();
        const bool threads = op->key == attr::kThreadExtent || op->key == attr::kVirtualThread;
        if (!iv || !threads) {
            visitStmt(op->body);
            return;
        }
        // A thread index launched once per kernel; stages bound to it again run on the same
        // threads.
        const bool virtualThread =
            iv->threadTag.empty() || iv->threadTag == "vthread" || iv->threadTag == "cthread";
        const std::string tag = virtualThread ? iv->var.name() : iv->threadTag;
        const std::optional<int64_t> extent = evaluateInt(op->value, m_values);
        if (!extent) {
            m_known = false;
            return;
        }
        if (!m_activeThreads.insert(tag).second) {
            m_extents[iv->var.get()] = {0, *extent};
            visitStmt(op->body);
            m_extents.erase(iv->var.get());
            return;
        }
        within(iv->var, 0, *extent, op->body);
        m_activeThreads.erase(tag);
    }

    void visit(const IfThenElseNode* op) override {
        const double saved = m_multiplier;
        m_multiplier *= passing(op->condition);
        visitStmt(op->thenCase);
        m_multiplier = saved;
        if (op->elseCase.defined()) {
            m_multiplier *= 1.0 - passing(op->condition);
            visitStmt(op->elseCase);
            m_multiplier = saved;
        }
    }

    void visit(const StoreNode* op) override {
        m_total += m_multiplier * double(floatOps(op->value));
    }

    void visit(const LetStmtNode* op) override {
        m_total += m_multiplier * double(floatOps(op->value));
        visitStmt(op->body);
    }

    void visit(const EvaluateNode* op) override {
        m_total += m_multiplier * double(floatOps(op->value));
    }

private:
    void within(const Var& var, int64_t min, int64_t extent, const Stmt& body) {
        const double saved = m_multiplier;
        m_multiplier *= double(std::max<int64_t>(extent, 0));
        m_extents[var.get()] = {min, extent};
        visitStmt(body);
        m_extents.erase(var.get());
        m_multiplier = saved;
    }

    /// The share of the iterations around a guard that pass it: `v < c` on one loop or thread
    /// variable by its range, any other condition on loop variables by trying every
    /// combination of their values (up to kMaxCombinations), else 1.
    double passing(const Expr& condition) const {
        Expr c = condition;
        if (const auto* call = c.as<CallNode>();
            call && call->name == "likely" && call->args.size() == 1)
            c = call->args[0];
        if (const auto* both = c.as<AndNode>())
            return passing(both->a) * passing(both->b);
        if (std::optional<double> share = shareBelow(c))
            return *share;
        return enumerated(c).value_or(1.0);
    }

    /// `v < c`, `v <= c` or `c > v` for a variable with a known range.
    std::optional<double> shareBelow(const Expr& c) const {
        Expr var, bound;
        int64_t adjust = 0; // `v < c` passes v in [min, c); `v <= c` in [min, c]
        if (const auto* lt = c.as<LTNode>()) {
            var = lt->a;
            bound = lt->b;
        } else if (const auto* le = c.as<LENode>()) {
            var = le->a;
            bound = le->b;
            adjust = 1;
        } else if (const auto* gt = c.as<GTNode>()) {
            var = gt->b;
            bound = gt->a;
        } else {
            return std::nullopt;
        }
        const auto* v = var.as<VarNode>();
        const auto it = v ? m_extents.find(v) : m_extents.end();
        const std::optional<int64_t> limit = evaluateInt(bound, m_values);
        if (it == m_extents.end() || !limit || it->second.second <= 0)
            return std::nullopt;
        const auto [min, extent] = it->second;
        const int64_t passed = std::clamp<int64_t>(*limit + adjust - min, 0, extent);
        return double(passed) / double(extent);
    }

    /// The share of the combinations of the condition's loop variables that pass it.
    std::optional<double> enumerated(const Expr& c) const {
        static constexpr int64_t kMaxCombinations = 1 << 16;
        std::vector<std::pair<Var, std::pair<int64_t, int64_t>>> loops;
        bool known = true;
        postOrderVisit(c, [&](const NodeRef& n) {
            const auto* v = n.as<VarNode>();
            if (!v)
                return;
            const Var var(v);
            if (const auto it = m_extents.find(v); it != m_extents.end()) {
                if (std::none_of(loops.begin(), loops.end(),
                                 [&](const auto& l) { return l.first.same_as(var); }))
                    loops.emplace_back(var, it->second);
            } else if (!m_values.count(var)) {
                known = false; // a let-bound or unknown variable
            }
        });
        int64_t combinations = 1;
        for (const auto& loop : loops) {
            combinations *= std::max<int64_t>(loop.second.second, 1);
            if (combinations > kMaxCombinations)
                return std::nullopt;
        }
        if (!known || loops.empty())
            return std::nullopt;
        VarMap<int64_t> values = m_values;
        int64_t passed = 0;
        std::vector<int64_t> at(loops.size(), 0);
        for (int64_t k = 0; k < combinations; ++k) {
            int64_t rest = k;
            for (size_t i = 0; i < loops.size(); ++i) {
                const auto [min, extent] = loops[i].second;
                values[loops[i].first] = min + rest % std::max<int64_t>(extent, 1);
                rest /= std::max<int64_t>(extent, 1);
            }
            const std::optional<int64_t> value = evaluateInt(c, values);
            if (!value)
                return std::nullopt;
            passed += *value != 0;
        }
        return double(passed) / double(combinations);
    }

    VarMap<int64_t> m_values;
    std::unordered_map<const Node*, std::pair<int64_t, int64_t>> m_extents; ///< var -> min, extent
    std::set<std::string> m_activeThreads;
    double m_multiplier = 1;
    double m_total = 0;
    bool m_known = true;
};

} // namespace

int64_t longestReduction(const LoweredFunc& func, const std::vector<int64_t>& sizes) {
    int64_t longest = 1;
    for (const ComputeOpNode* op : computeOps(func))
        longest = std::max(longest, product(op->reduceAxis, func, sizes));
    return longest;
}

bool compareOutputs(const LoweredFunc& func, const std::vector<Buffer>& actual,
                    const std::vector<Buffer>& expected, int64_t reductionLength,
                    std::string* detail) {
    bool passed = true;
    std::ostringstream os;
    os.precision(3);
    std::string firstMismatch;
    for (size_t i = 0; i < func.args.size(); ++i) {
        if (func.args[i].op.as<PlaceholderOpNode>())
            continue;
        auto [rtol, atol] = checkTolerance(actual[i].dtype());
        if (actual[i].dtype().isFloat())
            atol *= std::sqrt(double(reductionLength));
        double maxAbs = 0, maxRel = 0;
        for (int64_t k = 0; k < actual[i].size(); ++k) {
            const double e = expected[i].getDouble(k);
            const double diff = Buffer::elementDifference(actual[i].getDouble(k), e);
            maxAbs = std::max(maxAbs, diff);
            if (diff > 0 && std::fabs(e) > atol)
                maxRel = std::max(maxRel, std::isinf(e) ? double(INFINITY) : diff / std::fabs(e));
        }
        std::string mismatch;
        bool close = Buffer::allClose(actual[i], expected[i], rtol, atol, &mismatch);
        passed = passed && close;
        if (!close && firstMismatch.empty())
            firstMismatch = mismatch;
        os << (os.tellp() > 0 ? "; " : "") << actual[i].name() << ": max abs error " << maxAbs
           << ", max rel error " << maxRel;
    }
    if (!firstMismatch.empty())
        os << "; first mismatch " << firstMismatch;
    *detail = os.str();
    return passed;
}

} // namespace run_detail

WorkCount countWork(const LoweredFunc& func, const std::vector<int64_t>& sizes) {
    WorkCount work;
    for (const ComputeOpNode* op : run_detail::computeOps(func)) {
        int64_t iterations = run_detail::product(op->axis, func, sizes) *
                             run_detail::product(op->reduceAxis, func, sizes);
        work.iterations += iterations;
        work.declaredFlops += iterations * run_detail::bodyFloatOps(op);
    }
    const std::optional<int64_t> executed =
        func.final.defined() ? run_detail::ExecutedFlops(func, sizes).count(func.final)
                             : std::nullopt;
    work.flopsExecuted = executed.has_value();
    work.flops = executed.value_or(work.declaredFlops);
    for (const Tensor& t : func.args) {
        int64_t elements = 1;
        for (const Expr& extent : t.shape())
            elements *= run_detail::evaluateSize(extent, func, sizes);
        work.bytes += elements * std::max(1, t.dtype().bits() / 8) * t.dtype().lanes();
    }
    return work;
}

std::pair<double, double> checkTolerance(DataType dtype) {
    if (!dtype.isFloat())
        return {0.0, 0.0};
    if (dtype.bits() == 64)
        return {1e-9, 1e-12};
    return {1e-4, 1e-5};
}

bool usesGpuThreads(const LoweredFunc& func) {
    bool found = false;
    postOrderVisit(func.final, [&](const NodeRef& n) {
        if (const auto* attr = n.as<AttrStmtNode>())
            found = found || run_detail::isKernelRoot(attr);
    });
    return found;
}

} // namespace bs

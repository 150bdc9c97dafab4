// Detection and inversion of affine index maps (TVM's iter_affine_map.cc, reduced to the forms
// reverse_compute_inline needs; seed 004: "DetectIterMap ... InverseAffineIterMap").
//
// Detection rewrites each index bottom-up into an IterSum; floordiv/floormod fuse their operand
// into one split first (TVM's TryFuseIters), so `floordiv(i*8 + j, 4)` becomes a split of the
// fused mark `i*8 + j`. Fusing pieces of one mark in order (`floordiv(x, 4)*4 + floormod(x, 4)`)
// gives that mark back. The bijectivity check then asks that every mark reachable from the
// indices is tiled exactly once by its splits.

#include "arith/IterMap.h"

#include "arith/Analyzer.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/Substitute.h"
#include "support/Check.h"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace bs {

namespace {

using MarkPtr = std::shared_ptr<const IterMark>;

/// Detection failure inside the detector; the entry point turns it into IterMapResult::error.
struct DetectFailure {
    std::string message;
};

[[noreturn]] void fail(const std::string& message) { throw DetectFailure{message}; }

std::string markName(const IterMark& mark) {
    return mark.var.defined() ? "'" + mark.var.name() + "'"
                              : "'" + toString(iterSumToExpr(*mark.sum)) + "'";
}

class IterMapDetector {
public:
    IterMapDetector(const VarMap<Range>& inputs, Analyzer& analyzer) : m_analyzer(analyzer) {
        for (const auto& [var, range] : inputs) {
            if (isOne(m_analyzer.simplify(range.extent))) {
                m_unitValues[var] = range.min;
                continue;
            }
            auto mark = std::make_shared<IterMark>();
            mark->var = var;
            mark->extent = range.extent;
            mark->min = range.min;
            mark->id = m_nextId++;
            m_inputMarks[var] = mark;
        }
    }

    IterSum toSum(const Expr& e) {
        if (!usesInput(e))
            return IterSum{{}, e};
        if (const auto* v = e.as<VarNode>())
            return inputSum(Var(v));
        if (const auto* add = e.as<AddNode>())
            return addSums(toSum(add->a), toSum(add->b), 1);
        if (const auto* sub = e.as<SubNode>())
            return addSums(toSum(sub->a), toSum(sub->b), -1);
        if (const auto* mul = e.as<MulNode>()) {
            if (!usesInput(mul->b))
                return scaleSum(toSum(mul->a), mul->b);
            if (!usesInput(mul->a))
                return scaleSum(toSum(mul->b), mul->a);
            fail("'" + toString(e) + "' multiplies two iterators");
        }
        if (const auto* div = e.as<FloorDivNode>())
            return divide(toSum(div->a), div->b, e, false);
        if (const auto* mod = e.as<FloorModNode>())
            return divide(toSum(mod->a), mod->b, e, true);
        fail("'" + toString(e) +
             "' is not an affine form of the iterators (only +, -, * by a "
             "constant, floordiv and floormod are)");
    }

    /// One split for a sum of several: its pieces ordered by scale must form a mixed radix.
    IterSplit fuse(const IterSum& sum) {
        BS_CHECK(!sum.args.empty()) << "fusing a constant";
        if (sum.args.size() == 1)
            return sum.args[0];
        std::vector<IterSplit> rest = sum.args;
        Expr baseScale = smallestConstantScale(rest);
        std::vector<IterSplit> chain;
        Expr expected = baseScale;
        while (!rest.empty()) {
            auto it = std::find_if(rest.begin(), rest.end(), [&](const IterSplit& s) {
                return m_analyzer.canProveEqual(s.scale, expected);
            });
            if (it == rest.end())
                fail("the terms of '" + toString(iterSumToExpr(sum)) +
                     "' do not fuse into one iterator (no term has scale " + toString(expected) +
                     ")");
            chain.push_back(*it);
            expected = m_analyzer.simplify(expected * it->extent);
            rest.erase(it);
        }
        Expr extent = productOfExtents(chain);
        if (arePiecesOfOneMark(chain))
            return IterSplit{chain[0].source, chain[0].lowerFactor, extent, baseScale};
        auto fused = std::make_shared<IterSum>();
        for (IterSplit piece : chain) {
            piece.scale = *quotient(piece.scale, baseScale);
            fused->args.push_back(piece);
        }
        fused->base = makeZero(extent.type());
        return IterSplit{fusedMark(fused, extent), makeOne(extent.type()), extent, baseScale};
    }

    /// Every reachable mark tiled exactly once, every input iterator used, unit strides.
    void checkBijective(const std::vector<IterSum>& indices, const std::vector<Expr>& exprs) {
        std::unordered_map<const IterMark*, std::vector<IterSplit>> uses;
        std::vector<MarkPtr> pending;
        for (size_t k = 0; k < indices.size(); ++k) {
            if (indices[k].args.empty())
                continue;
            const IterSplit& split = indices[k].args[0];
            if (!m_analyzer.canProveEqual(split.scale, 1))
                fail("index '" + toString(exprs[k]) + "' has stride " + toString(split.scale) +
                     ", so the map does not cover a dense box");
            uses[split.source.get()].push_back(split);
            pending.push_back(split.source);
        }
        std::unordered_set<const IterMark*> seen;
        while (!pending.empty()) {
            MarkPtr mark = pending.back();
            pending.pop_back();
            if (!seen.insert(mark.get()).second || !mark->sum)
                continue;
            for (const IterSplit& piece : mark->sum->args) {
                uses[piece.source.get()].push_back(piece);
                pending.push_back(piece.source);
            }
        }
        for (const auto& [mark, splits] : uses)
            checkTiled(*mark, splits);
        for (const auto& [var, mark] : m_inputMarks)
            if (!uses.count(mark.get()))
                fail("iterator '" + var.name() +
                     "' does not appear in the indices, so the map is not one-to-one");
    }

private:
    bool usesInput(const Expr& e) const {
        return usesVar(e, [this](const VarNode* v) {
            return m_inputMarks.count(Var(v)) > 0 || m_unitValues.count(Var(v)) > 0;
        });
    }

    IterSum inputSum(const Var& var) {
        if (auto it = m_unitValues.find(var); it != m_unitValues.end())
            return IterSum{{}, it->second};
        const MarkPtr& mark = m_inputMarks.at(var);
        DataType t = var.type();
        return IterSum{{IterSplit{mark, makeOne(t), mark->extent, makeOne(t)}}, mark->min};
    }

    IterSum addSums(IterSum a, const IterSum& b, int sign) {
        for (IterSplit split : b.args) {
            split.scale = m_analyzer.simplify(split.scale * sign);
            a.args.push_back(split);
        }
        a.base = m_analyzer.simplify(sign > 0 ? a.base + b.base : a.base - b.base);
        return a;
    }

    IterSum scaleSum(IterSum sum, const Expr& factor) {
        for (IterSplit& split : sum.args)
            split.scale = m_analyzer.simplify(split.scale * factor);
        sum.base = m_analyzer.simplify(sum.base * factor);
        return sum;
    }

    /// floordiv / floormod of a sum by a divisor free of iterators.
    IterSum divide(const IterSum& sum, const Expr& divisor, const Expr& e, bool isMod) {
        std::string where = "'" + toString(e) + "'";
        if (usesInput(divisor))
            fail(where + " divides by an iterator");
        if (sum.args.empty())
            return IterSum{{}, isMod ? floormod(sum.base, divisor) : floordiv(sum.base, divisor)};
        if (!m_analyzer.canProveEqual(sum.base, 0))
            fail(where + " has an offset inside the division, which is not supported");
        IterSplit s = fuse(sum);
        Expr zero = makeZero(divisor.type());
        if (auto q = quotient(divisor, s.scale)) {
            std::optional<Expr> outer = quotient(s.extent, *q);
            if (!outer)
                fail(where + ": the extent " + toString(s.extent) + " of " + markName(*s.source) +
                     " is not divisible by " + toString(*q));
            if (isMod)
                return IterSum{{IterSplit{s.source, s.lowerFactor, *q, s.scale}}, zero};
            Expr lower = m_analyzer.simplify(s.lowerFactor * *q);
            return IterSum{{IterSplit{s.source, lower, *outer, makeOne(divisor.type())}}, zero};
        }
        if (auto q = quotient(s.scale, divisor)) {
            if (isMod)
                return IterSum{{}, zero};
            return IterSum{{IterSplit{s.source, s.lowerFactor, s.extent, *q}}, zero};
        }
        fail(where + ": the stride " + toString(s.scale) + " and the divisor " + toString(divisor) +
             " do not divide one another");
    }

    /// The mark of a fused sum; the same sum fused twice (`floordiv(x, 3)` and `floormod(x, 3)`
    /// of one `x = i*6 + j`) is one mark, so that its pieces tile it.
    MarkPtr fusedMark(const std::shared_ptr<IterSum>& sum, const Expr& extent) {
        for (const MarkPtr& mark : m_fusedMarks)
            if (sameSplits(mark->sum->args, sum->args))
                return mark;
        auto mark = std::make_shared<IterMark>();
        mark->sum = sum;
        mark->extent = extent;
        mark->id = m_nextId++;
        m_fusedMarks.push_back(mark);
        return mark;
    }

    bool sameSplits(const std::vector<IterSplit>& a, const std::vector<IterSplit>& b) {
        if (a.size() != b.size())
            return false;
        for (size_t k = 0; k < a.size(); ++k) {
            if (a[k].source.get() != b[k].source.get() ||
                !m_analyzer.canProveEqual(a[k].lowerFactor, b[k].lowerFactor) ||
                !m_analyzer.canProveEqual(a[k].extent, b[k].extent) ||
                !m_analyzer.canProveEqual(a[k].scale, b[k].scale))
                return false;
        }
        return true;
    }

    /// `a / b` when b divides a exactly (constants, or provably).
    std::optional<Expr> quotient(const Expr& a, const Expr& b) {
        auto ca = asConstInt(a);
        auto cb = asConstInt(b);
        if (ca && cb) {
            if (*cb == 0 || truncModInt(*ca, *cb) != 0)
                return std::nullopt;
            return makeConst(a.type(), truncDivInt(*ca, *cb));
        }
        if (m_analyzer.canProveEqual(a, b))
            return makeOne(a.type());
        if (isZero(m_analyzer.simplify(floormod(a, b))))
            return m_analyzer.simplify(floordiv(a, b));
        return std::nullopt;
    }

    Expr smallestConstantScale(const std::vector<IterSplit>& splits) {
        std::optional<int64_t> best;
        for (const IterSplit& s : splits) {
            auto c = asConstInt(s.scale);
            if (c && *c > 0 && (!best || *c < *best))
                best = c;
        }
        if (!best)
            fail("no term of the sum has a positive constant stride");
        return makeConst(splits[0].scale.type(), *best);
    }

    Expr productOfExtents(const std::vector<IterSplit>& chain) {
        Expr product = chain[0].extent;
        for (size_t k = 1; k < chain.size(); ++k)
            product = product * chain[k].extent;
        return m_analyzer.simplify(product);
    }

    /// Consecutive pieces of one mark (lower factors chained) fuse back into that mark's split.
    bool arePiecesOfOneMark(const std::vector<IterSplit>& chain) {
        for (size_t k = 1; k < chain.size(); ++k) {
            if (chain[k].source.get() != chain[0].source.get())
                return false;
            Expr expected = chain[k - 1].lowerFactor * chain[k - 1].extent;
            if (!m_analyzer.canProveEqual(chain[k].lowerFactor, expected))
                return false;
        }
        return true;
    }

    /// The splits of `mark` have lower factors 1, e1, e1*e2, ... and end at its extent.
    void checkTiled(const IterMark& mark, std::vector<IterSplit> splits) {
        Expr expected = makeOne(mark.extent.type());
        while (!splits.empty()) {
            auto it = std::find_if(splits.begin(), splits.end(), [&](const IterSplit& s) {
                return m_analyzer.canProveEqual(s.lowerFactor, expected);
            });
            if (it == splits.end())
                fail("iterator " + markName(mark) +
                     " is used more than once or only in part, so the map is not one-to-one");
            expected = m_analyzer.simplify(expected * it->extent);
            splits.erase(it);
        }
        if (!m_analyzer.canProveEqual(expected, mark.extent))
            fail("the indices cover only " + toString(expected) + " of the " +
                 toString(mark.extent) + " values of iterator " + markName(mark));
    }

    Analyzer& m_analyzer;
    VarMap<MarkPtr> m_inputMarks;
    VarMap<Expr> m_unitValues;
    std::vector<MarkPtr> m_fusedMarks;
    int m_nextId = 0;
};

} // namespace

Expr iterSplitToExpr(const IterSplit& split) {
    Expr source =
        split.source->var.defined() ? Expr(split.source->var) : iterSumToExpr(*split.source->sum);
    Expr value = isOne(split.lowerFactor) ? source : floordiv(source, split.lowerFactor);
    if (!split.source->extent.same_as(split.extent) || !isOne(split.lowerFactor))
        value = floormod(value, split.extent);
    return value * split.scale;
}

Expr iterSumToExpr(const IterSum& sum) {
    Expr result;
    for (const IterSplit& split : sum.args)
        result = result.defined() ? result + iterSplitToExpr(split) : iterSplitToExpr(split);
    if (!result.defined())
        return sum.base;
    return isZero(sum.base) ? result : result + sum.base;
}

IterMapResult detectIterMap(const std::vector<Expr>& indices, const VarMap<Range>& inputIters,
                            Analyzer& analyzer) {
    IterMapDetector detector(inputIters, analyzer);
    IterMapResult result;
    try {
        for (const Expr& index : indices) {
            IterSum sum = detector.toSum(index);
            if (sum.args.size() > 1)
                sum.args = {detector.fuse(sum)};
            result.indices.push_back(std::move(sum));
        }
        detector.checkBijective(result.indices, indices);
    } catch (const DetectFailure& failure) {
        result.indices.clear();
        result.error = failure.message;
    }
    return result;
}

VarMap<Expr> inverseAffineIterMap(const std::vector<IterSum>& map, const std::vector<Expr>& outputs,
                                  Analyzer& analyzer) {
    BS_CHECK(map.size() == outputs.size()) << "one output per index of the map";
    // Mark id -> (mark, accumulated value). Fused marks have larger ids than the marks they
    // refer to, so walking ids downwards distributes a fused value before its pieces are read.
    std::map<int, std::pair<MarkPtr, Expr>> values;
    auto accumulate = [&values](const MarkPtr& mark, const Expr& value) {
        auto& slot = values[mark->id];
        slot.first = mark;
        slot.second = slot.second.defined() ? slot.second + value : value;
    };
    for (size_t k = 0; k < map.size(); ++k) {
        if (map[k].args.empty())
            continue;
        const IterSplit& split = map[k].args[0];
        Expr value = floordiv(outputs[k] - map[k].base, split.scale);
        accumulate(split.source, value * split.lowerFactor);
    }
    VarMap<Expr> result;
    for (auto it = values.rbegin(); it != values.rend(); ++it) {
        const auto& [mark, value] = it->second;
        if (mark->var.defined()) {
            result[mark->var] = analyzer.simplify(value + mark->min);
            continue;
        }
        for (const IterSplit& piece : mark->sum->args)
            accumulate(piece.source,
                       floormod(floordiv(value, piece.scale), piece.extent) * piece.lowerFactor);
    }
    return result;
}

} // namespace bs

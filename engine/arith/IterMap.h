/// \file
/// Affine index maps (TVM's DetectIterMap and InverseAffineIterMap, arith/iter_affine_map.cc):
/// recognises index expressions that are sums of `iter*scale`, floordiv/floormod splits of
/// iterators and fused forms (`i*8 + j` with j in [0, 8)) over a set of input iterators, checks
/// that the map is a bijection onto a dense box, and inverts it. reverse_compute_inline
/// (seed 004) uses it to turn the consumer's read indices into the consumer's iterators as
/// functions of the producer's axes.
///
/// The forms, as TVM names them:
/// - an IterMark is an iterator of `extent` values: an input variable (minus its min), or a
///   fused sum of splits of other marks;
/// - an IterSplit is `floormod(floordiv(mark, lowerFactor), extent) * scale`;
/// - an IterSum is `sum(splits) + base`, the base free of input iterators.
/// A bijective map has one IterSum per index, each a single split of scale 1, and the splits
/// of every mark tile it exactly (lower factors 1, e1, e1*e2, ... up to its extent).
#pragma once

#include "ir/Expr.h"

#include <memory>
#include <string>
#include <vector>

namespace bs {

class Analyzer;
struct IterSum;

/// An iterator over [0, extent): an input variable or a fused sum (exactly one is set).
struct IterMark {
    Var var;                            ///< input iterator (its value minus its min)
    std::shared_ptr<const IterSum> sum; ///< fused mark: the sum it stands for (scales normalized)
    Expr extent;
    Expr min;   ///< input iterator: its min (the mark counts from 0)
    int id = 0; ///< creation order: a fused mark only refers to marks created before it
};

/// `floormod(floordiv(source, lowerFactor), extent) * scale`.
struct IterSplit {
    std::shared_ptr<const IterMark> source;
    Expr lowerFactor;
    Expr extent;
    Expr scale;
};

/// `sum(args) + base`.
struct IterSum {
    std::vector<IterSplit> args;
    Expr base;
};

/// The result of detection: one IterSum per index, or an empty list and the reason.
struct IterMapResult {
    std::vector<IterSum> indices;
    std::string error;

    bool ok() const { return error.empty(); }
};

/// Detects `indices` as a bijective affine map of `inputIters` (each with its range; extent-1
/// iterators are constants). On failure `error` says which index and why, e.g.
/// `index 'floordiv(i, 3)': the extent 8 of 'i' is not divisible by 3`.
IterMapResult detectIterMap(const std::vector<Expr>& indices, const VarMap<Range>& inputIters,
                            Analyzer& analyzer);

/// Inverts a bijective map: given the value `outputs[k]` of each index k, the value of every
/// input iterator that the map uses (extent-1 iterators are absent), simplified with `analyzer`.
VarMap<Expr> inverseAffineIterMap(const std::vector<IterSum>& map, const std::vector<Expr>& outputs,
                                  Analyzer& analyzer);

/// The expression a split or a sum stands for (for messages and tests).
Expr iterSplitToExpr(const IterSplit& split);
Expr iterSumToExpr(const IterSum& sum);

} // namespace bs

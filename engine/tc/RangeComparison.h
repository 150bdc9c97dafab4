/// \file
/// TC's input-driven ranges next to InferBound's consumer-driven ones (issue 8, item 2): for
/// every variable of every statement of a TC program whose stages a schedule holds, the range
/// TC inferred from the inputs and the range InferBound gave the corresponding root IterVar,
/// in the variable's own coordinates, with whether they agree.
///
///     def conv1d(float(N) B, float(W) K) -> (A) { A(i) +=! B(i + k) * K(k) }
///     TC:         0 <= i < N - W + 1       (the largest range that reads B in bounds)
///     InferBound: i.outer*32 <= i < i.outer*32 + 32   after s[A].compute_at(s[D], i.outer)
///
/// A left-hand side variable is axis k of its stage, shifted so that index 0 holds the range's
/// min (tc/Tc.h): InferBound's range of the axis is shifted back by that min. A reduction
/// variable is a reduce axis of its statement's reduce stage, whose domain is TC's range.
#pragma once

#include "tc/Tc.h"

#include "schedule/InferBound.h"

#include <string>
#include <vector>

namespace bs::tc {

/// How InferBound's range of a variable relates to TC's, as far as it can be proven (the loops
/// around an attached stage taken over their own bounds).
enum class RangeAgreement {
    Equal,      ///< the same range
    Narrower,   ///< inside TC's: consumers need less than the inputs allow
    Wider,      ///< contains TC's: consumers need more
    Undecided,  ///< neither could be proven (symbolic sizes, partial overlap)
    NotCompared ///< the variable has no loop in the schedule (inlined, rewritten away)
};

/// `equal`, `narrower`, `wider`, `undecided`, `not compared`.
const char* rangeAgreementName(RangeAgreement agreement);

/// One variable of one statement.
struct RangeComparison {
    std::string statement; ///< `C(m, n) +=! A(m, r_k) * B(r_k, n)`
    int line = 0;          ///< the statement's line in the TC source
    std::string stage;     ///< the stage holding the variable's IterVar
    std::string variable;  ///< `m`
    std::string iterVar;   ///< the IterVar's name in `stage` (empty when not compared)
    std::string tcRange;   ///< `0 <= m < M`
    std::string tcOrigin;  ///< how TC found it: `round 1 from A(m, r_k)`, `where clause`
    /// InferBound's range in TC's notation and the variable's coordinates (`0 <= m < M`), or
    /// why there is none (`inlined into its consumers`).
    std::string inferBoundRange;
    RangeAgreement agreement = RangeAgreement::NotCompared;
};

/// The rows of every statement of `program` whose stage `normalized` holds (a stage whose
/// origin operation is the statement's), with `bounds` inferred on `normalized`. Statements of
/// another schedule give no rows; a stage that was inlined or rewritten gives NotCompared rows.
std::vector<RangeComparison> compareRanges(const TcProgram& program, const Schedule& normalized,
                                           const InferBoundResult& bounds);

} // namespace bs::tc

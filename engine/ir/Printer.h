/// \file
/// Prints IR in TVM's classic (0.6) text form, so the seed's listings compare line by line:
/// `realize C([0, 100], [0, 200]) {`, `produce C {`, `for (i, 0, 5) {`,
/// `// attr [iter_var(blockIdx.x, , blockIdx.x)] thread_extent = 100`, `allocate B[int32 * 8]`,
/// `B(i, j) =(3.140000f*A(i, j))`. Object addresses are never printed: an operation node
/// prints as `compute(C)` where TVM prints `compute(C, 0x2c29990)`.
#pragma once

#include "ir/Stmt.h"

#include <ostream>
#include <string>
#include <vector>

namespace bs {

std::string toString(const Expr& e);
std::string toString(const Stmt& s);

/// A printed statement line that carries a bound-inference step (StmtNode::stepId): a loop,
/// a thread extent, a realize, an allocate or a guard.
struct StepMark {
    int line; ///< 0-based line of the printed text
    int stepId;
};
/// `s` printed as toString does, with the step of each statement line that has one, in order.
std::string printWithSteps(const Stmt& s, std::vector<StepMark>* marks);
/// `range(min=0, ext=16)`.
std::string toString(const Range& r);
/// `iter_var(k, range(min=0, ext=16))`, `iter_var(blockIdx.x, , blockIdx.x)`.
std::string toString(const IterVar& iv);
/// The realize form of a region: `[0, 100], [0, 200]`.
std::string regionToString(const Region& region);
/// Any printable node: expressions, statements, IterVars, operations (`compute(C)`).
std::string nodeToString(const NodeRef& node);

std::ostream& operator<<(std::ostream& os, const Expr& e);
std::ostream& operator<<(std::ostream& os, const Stmt& s);
std::ostream& operator<<(std::ostream& os, const Range& r);
std::ostream& operator<<(std::ostream& os, const IterVar& iv);

} // namespace bs

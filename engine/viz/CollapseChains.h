/// \file
/// Long chains drawn as one node (issue 17, item 7: a 50-stage pipeline must stay readable
/// without shrinking its text). In a stage DAG a chain is a run of stages each with exactly one
/// edge in and one edge out, joined one to the next. A run long enough keeps its first and its
/// last stage; the stages between become one node of kind Chain ("46 stages, B2 … B47") that
/// the edges go through. The GUI expands a chain when it is clicked or when one of its stages is
/// selected (`expanded`), and never hides what must stay in sight (`keep`: the selection, what
/// the current step touches, what failed).
#pragma once

#include "viz/GraphModel.h"

#include <set>
#include <string>

namespace bs::viz {

struct ChainOptions {
    /// The fewest stages a collapsed node stands for; shorter runs are drawn whole.
    size_t minHidden = 3;
    /// Node ids never hidden (they split the runs they are in).
    std::set<std::string> keep;
    /// Chain node ids (as collapseChains names them) to draw whole.
    std::set<std::string> expanded;
};

/// The field of a Chain node that lists the ids of the nodes it stands for, space-separated.
inline constexpr const char* kChainMembersField = "members";

/// `graph` with its long chains collapsed (see the file comment). Stage nodes in clusters,
/// highlighted or marked as a problem are never hidden. A Chain node's id is
/// `chain_<first hidden id>_<last hidden id>`, stable for the same graph; its fields say how
/// many stages it stands for, the first and last names, and kChainMembersField.
Graph collapseChains(const Graph& graph, const ChainOptions& options = {});

/// The ids of the nodes a Chain node stands for (empty for any other node).
std::vector<std::string> chainMembers(const GraphNode& chain);

/// The Chain node of `graph` standing for node `id`, or nullptr.
const GraphNode* chainHolding(const Graph& graph, const std::string& id);

} // namespace bs::viz

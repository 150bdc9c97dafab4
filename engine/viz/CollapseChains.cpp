#include "viz/CollapseChains.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace bs::viz {

namespace {

/// The stage's name as its title's first line shows it.
std::string titleName(const GraphNode& node) { return node.title.substr(0, node.title.find('\n')); }

struct Degrees {
    std::map<std::string, int> in;
    std::map<std::string, int> out;
    std::map<std::string, const GraphEdge*> next; ///< the one edge out, when there is one
};

Degrees degreesOf(const Graph& graph) {
    Degrees d;
    for (const GraphEdge& edge : graph.edges) {
        ++d.out[edge.from];
        ++d.in[edge.to];
        d.next[edge.from] = &edge;
    }
    return d;
}

/// A stage that may be hidden: one edge in, one out, nothing about it that must stay in sight.
bool isChainable(const GraphNode& node, const Degrees& d, const ChainOptions& options) {
    const auto in = d.in.find(node.id);
    const auto out = d.out.find(node.id);
    return node.kind == GraphNodeKind::Stage && node.cluster.empty() && !node.highlighted &&
           !node.problem && !options.keep.count(node.id) && in != d.in.end() && in->second == 1 &&
           out != d.out.end() && out->second == 1;
}

std::string chainId(const std::vector<const GraphNode*>& hidden) {
    return "chain_" + hidden.front()->id + "_" + hidden.back()->id;
}

GraphNode chainNode(const std::vector<const GraphNode*>& hidden) {
    GraphNode node;
    node.id = chainId(hidden);
    node.kind = GraphNodeKind::Chain;
    node.style = NodeStyle::Chain;
    const std::string first = titleName(*hidden.front());
    const std::string last = titleName(*hidden.back());
    node.title = std::to_string(hidden.size()) + " stages\n" + first + " \u2026 " + last +
                 "\n(click to expand)";
    std::string members;
    for (const GraphNode* member : hidden)
        members += (members.empty() ? "" : " ") + member->id;
    node.fields = {{"stages", std::to_string(hidden.size())},
                   {"first", first},
                   {"last", last},
                   {kChainMembersField, members}};
    node.location = hidden.front()->location;
    return node;
}

} // namespace

Graph collapseChains(const Graph& graph, const ChainOptions& options) {
    const Degrees d = degreesOf(graph);
    std::map<std::string, const GraphNode*> byId;
    for (const GraphNode& node : graph.nodes)
        byId[node.id] = &node;
    // The runs, walked from each chainable node whose predecessor is not chainable.
    std::map<std::string, std::string> hiddenIn; ///< hidden node id -> its chain's id
    std::vector<std::vector<const GraphNode*>> chains;
    std::set<std::string> predecessorChainable;
    for (const GraphEdge& edge : graph.edges) {
        const auto from = byId.find(edge.from);
        if (from != byId.end() && isChainable(*from->second, d, options))
            predecessorChainable.insert(edge.to);
    }
    for (const GraphNode& node : graph.nodes) {
        if (!isChainable(node, d, options) || predecessorChainable.count(node.id))
            continue;
        std::vector<const GraphNode*> run{&node};
        std::set<std::string> seen{node.id};
        for (;;) {
            const GraphEdge* next = d.next.at(run.back()->id);
            const auto to = byId.find(next->to);
            if (to == byId.end() || !isChainable(*to->second, d, options) ||
                !seen.insert(to->first).second)
                break;
            run.push_back(to->second);
        }
        // The run's first and last stage stay; the ones between are hidden.
        if (run.size() < options.minHidden + 2)
            continue;
        std::vector<const GraphNode*> hidden(run.begin() + 1, run.end() - 1);
        if (options.expanded.count(chainId(hidden)))
            continue;
        for (const GraphNode* member : hidden)
            hiddenIn[member->id] = chainId(hidden);
        chains.push_back(std::move(hidden));
    }
    if (chains.empty())
        return graph;

    Graph result = graph;
    result.nodes.clear();
    std::set<std::string> placed;
    for (const GraphNode& node : graph.nodes) {
        const auto hidden = hiddenIn.find(node.id);
        if (hidden == hiddenIn.end()) {
            result.nodes.push_back(node);
            continue;
        }
        // The chain node goes where its first stage was.
        if (placed.insert(hidden->second).second) {
            for (const auto& chain : chains) {
                if (chainId(chain) == hidden->second)
                    result.nodes.push_back(chainNode(chain));
            }
        }
    }
    // Edges into the first hidden stage and out of the last go to the chain node; edges
    // between hidden stages go.
    result.edges.clear();
    for (const GraphEdge& edge : graph.edges) {
        const auto from = hiddenIn.find(edge.from);
        const auto to = hiddenIn.find(edge.to);
        if (from != hiddenIn.end() && to != hiddenIn.end())
            continue;
        GraphEdge kept = edge;
        if (from != hiddenIn.end()) {
            kept.from = from->second;
            kept.fromPort.clear();
        }
        if (to != hiddenIn.end()) {
            kept.to = to->second;
            kept.toPort.clear();
        }
        result.edges.push_back(std::move(kept));
    }
    for (RankGroup& group : result.rankGroups)
        std::erase_if(group.nodes, [&](const std::string& id) { return hiddenIn.count(id) > 0; });
    std::erase_if(result.rankGroups, [](const RankGroup& group) { return group.nodes.empty(); });
    return result;
}

std::vector<std::string> chainMembers(const GraphNode& chain) {
    std::vector<std::string> members;
    if (chain.kind != GraphNodeKind::Chain)
        return members;
    std::istringstream text(chain.field(kChainMembersField));
    for (std::string member; text >> member;)
        members.push_back(member);
    return members;
}

const GraphNode* chainHolding(const Graph& graph, const std::string& id) {
    for (const GraphNode& node : graph.nodes) {
        const std::vector<std::string> members = chainMembers(node);
        if (std::find(members.begin(), members.end(), id) != members.end())
            return &node;
    }
    return nullptr;
}

} // namespace bs::viz

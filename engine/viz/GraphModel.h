/// \file
/// The graph models of engine/viz: plain structs that describe one picture of a schedule (the
/// stage DAG, the IterVar relations of a stage, the attach tree, the consumer requests of a
/// stage) independently of any drawing library. Nodes have stable ids, labels as table rows of
/// cells (the fields a GUI needs to draw its own items) and as key/value fields (a properties
/// sidebar), a kind and a style; edges join nodes, optionally at ports (table cells). Every
/// node, row and edge carries the SourceLocation of the object it shows and an ObjectRef back
/// into the schedule, so the GUI can link graph items, script lines and IR.
///
/// The models are built by viz/ScheduleGraphs.h, written as DOT by viz/Dot.h and laid out or
/// rendered by Graphviz in viz/Layout.h. Everything here is deterministic: the same schedule
/// gives the same ids in the same order.
#pragma once

#include "support/Diagnostic.h"

#include <optional>
#include <string>
#include <vector>

namespace bs::viz {

/// Which picture a Graph is.
enum class GraphKind { StageDag, IterVarRelations, AttachTree, ConsumerRequests };
/// `dag`, `itervar`, `attach`, `requests` (the CLI's `--kind`).
const char* graphKindName(GraphKind kind);
/// Parses the names above; nullopt otherwise.
std::optional<GraphKind> parseGraphKind(const std::string& name);

/// What a node shows.
enum class GraphNodeKind {
    Stage,    ///< a stage (DAG, attach tree, the producer of a requests graph)
    IterVar,  ///< an IterVar of a stage (relation graph)
    Relation, ///< a Split, Fuse, Rebase or Singleton relation (relation graph)
    Root,     ///< the root of the loop nest (attach tree)
    Consumer, ///< one consumer's requests (requests graph)
    Bounds,   ///< the union of the requests and the final range per axis (requests graph)
    Note,     ///< explanatory text (requests graph: the relax decisions of one consumer)
    Chain,    ///< a run of stages drawn as one node (viz/CollapseChains.h)
};
const char* graphNodeKindName(GraphNodeKind kind);

/// How a node is drawn; the GUI and the DOT writer map these to colours and shapes.
enum class NodeStyle {
    Placeholder, ///< an input tensor
    Compute,     ///< an intermediate compute stage
    Output,      ///< an output stage
    Inlined,     ///< a stage inlined into its consumers (or marked compute_inline)
    IterVar,
    Relation,
    Root,
    Consumer,
    Bounds,
    Note,
    Chain,
};
const char* nodeStyleName(NodeStyle style);

/// What an edge shows.
enum class EdgeStyle {
    Dataflow,  ///< producer -> consumer, labelled with the tensor (DAG)
    Relation,  ///< IterVar <-> relation (relation graph)
    Attach,    ///< enclosing loop -> stage computed inside it (attach tree)
    Request,   ///< consumer request -> the axis it bounds (requests graph)
    Note,      ///< node -> its note
    ScanState, ///< scan -> the state placeholder its next step reads (DAG, a back edge)
};
const char* edgeStyleName(EdgeStyle style);

/// The schedule object a node, row or edge shows, by position in the schedule the graph was
/// built from: `stage` indexes `sch->stages`, `iterVar` that stage's `allIterVars`, `relation`
/// its `relations`; -1 when not applicable. Positions are stable for a given schedule.
struct ObjectRef {
    int stage = -1;
    int iterVar = -1;
    int relation = -1;

    bool operator==(const ObjectRef&) const = default;
};

/// A named value shown in a properties view, e.g. {"scope", "shared"}.
struct Field {
    std::string key;
    std::string value;

    bool operator==(const Field&) const = default;
};

/// One cell of a table label. `text` may hold '\n' for line breaks.
struct LabelCell {
    std::string text;
    std::string port; ///< a port name edges can attach to, or empty
    std::string fill; ///< background colour as `#RRGGBB`, or empty
    bool bold = false;
};

/// One row of a table label, with the object it shows (e.g. a leaf IterVar of a stage).
struct LabelRow {
    std::vector<LabelCell> cells;
    ObjectRef ref;
    SourceLocation location;
    bool highlighted = false;
    /// What a failed schedule's error is about (viz::markProblem): drawn as the error.
    bool problem = false;
};

struct GraphNode {
    std::string id; ///< stable and unique in the graph: letters, digits and '_'
    GraphNodeKind kind = GraphNodeKind::Stage;
    NodeStyle style = NodeStyle::Compute;
    std::string title;          ///< the bold header (or the whole label when `rows` is empty)
    std::vector<LabelRow> rows; ///< table rows under the title; empty for a plain node
    std::vector<Field> fields;  ///< everything the node shows, as key/value pairs
    std::string cluster;        ///< id of the enclosing cluster, or empty
    ObjectRef ref;
    SourceLocation location;
    bool highlighted = false;
    /// What a failed schedule's error is about (viz::markProblem): drawn as the error.
    bool problem = false;

    /// The value of field `key`, or an empty string.
    std::string field(const std::string& key) const;
    /// True when some row has a cell with `port`.
    bool hasPort(const std::string& port) const;
};

struct GraphEdge {
    std::string id; ///< stable and unique in the graph (`e0`, `e1`, ...)
    std::string from;
    std::string fromPort; ///< empty: the node itself
    std::string to;
    std::string toPort;
    std::string label;
    EdgeStyle style = EdgeStyle::Dataflow;
    ObjectRef ref;
    SourceLocation location;
    bool highlighted = false;
    /// What a failed schedule's error is about (viz::markProblem): drawn as the error.
    bool problem = false;
};

/// A labelled box around nodes (one per stage in the all-stages relation graph, one per schedule
/// group in the stage DAG). Clusters nest: a parent comes before its children in
/// Graph::clusters.
struct GraphCluster {
    std::string id; ///< starts with `cluster_`, as Graphviz requires
    std::string label;
    ObjectRef ref;
    SourceLocation location;
    std::string parent; ///< id of the enclosing cluster, or empty
};

/// Nodes to be placed on one rank; `ordered` keeps them left to right in the given order
/// (leaves in loop order). All nodes of a group are in `cluster` (empty: none).
struct RankGroup {
    std::vector<std::string> nodes;
    std::string cluster;
    bool ordered = false;
};

/// Direction of the ranks, as Graphviz's `rankdir`.
enum class RankDir { TopToBottom, LeftToRight, BottomToTop };

struct Graph {
    GraphKind kind = GraphKind::StageDag;
    std::string name; ///< e.g. `Stage DAG`, `IterVar relations of C`
    RankDir rankDir = RankDir::TopToBottom;
    std::vector<GraphNode> nodes;
    std::vector<GraphEdge> edges;
    std::vector<GraphCluster> clusters;
    std::vector<RankGroup> rankGroups;

    /// The node with `id`, or nullptr.
    const GraphNode* findNode(const std::string& id) const;
    /// The nodes of `kind`, in order.
    std::vector<const GraphNode*> nodesOfKind(GraphNodeKind kind) const;
    /// The edges leaving node `id` (any port), in order.
    std::vector<const GraphEdge*> edgesFrom(const std::string& id) const;
    /// The edges entering node `id` (any port), in order.
    std::vector<const GraphEdge*> edgesTo(const std::string& id) const;
};

/// Checks what a builder must guarantee (unique ids, edges between existing nodes and ports,
/// clusters and rank groups naming existing things); an internal error (BS_CHECK) otherwise.
void checkGraph(const Graph& graph);

} // namespace bs::viz

#include "viz/GraphExport.h"

namespace bs::viz {

void writeGraph(const Graph& graph, GraphFormat format, const std::string& path) {
    // Render first: a graph Graphviz rejects must not leave even an empty file.
    std::string bytes = render(graph, format);
    writeFileAtomically(path, bytes);
}

} // namespace bs::viz

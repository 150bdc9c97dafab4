#include "analysis/Heatmap.h"

#include "analysis/AllocReportInternal.h"
#include "analysis/Program.h"
#include "analysis/ScheduleFixes.h"
#include "ir/Op.h"
#include "lower/Lower.h"
#include "lower/StorageFlatten.h"
#include "runtime/Interpreter.h"
#include "support/Markup.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <sstream>

namespace bs {

namespace {

/// The trace of the buffer `name`: an allocation, or an argument bound by its tensor's name.
const BufferTrace* traceOf(const RunResult& run, const LowerResult& lowered,
                           const std::vector<Tensor>& args, const std::string& name) {
    if (const BufferTrace* trace = run.find(name))
        return trace;
    for (size_t i = 0; i < args.size(); ++i)
        if (args[i].name() == name)
            return run.find(lowered.func.argBuffers[i]);
    return nullptr;
}

/// Fills the legend's counts from the cells.
void count(Heatmap& map) {
    map.allocated = int64_t(map.readers.size());
    map.readBy.assign(map.consumers.size(), 0);
    for (size_t c = 0; c < map.readers.size(); ++c) {
        const uint32_t who = map.readers[c];
        map.computed += map.written[c];
        if (who == 0) {
            ++map.unread;
            continue;
        }
        ++map.read;
        if (std::popcount(who) > 1)
            ++map.readByMany;
        for (size_t k = 0; k < map.consumers.size() && k < 32; ++k)
            if (who & (uint32_t(1) << k))
                ++map.readBy[k];
    }
}

std::string stageList(const Schedule& schedule) {
    std::string names;
    for (const Stage& s : schedule.stages())
        names += (names.empty() ? "" : ", ") + s.name();
    return names;
}

} // namespace

HeatmapRun::HeatmapRun(const Schedule& schedule, const HeatmapOptions& options)
    : m_schedule(schedule), m_rules(options.rules),
      m_args(options.args.empty() ? defaultArguments(schedule) : options.args) {
    std::optional<std::vector<Buffer>> buffers = alloc::argumentBuffers(m_args);
    if (!buffers)
        throw UserError("the heatmap runs the program in the interpreter, which needs constant "
                        "shapes and supported types for its arguments");
    LowerOptions lowerOptions;
    lowerOptions.rules = options.rules;
    m_lowered = lower(schedule, m_args, lowerOptions);
    Interpreter interpreter(InterpreterOptions{.traceAccesses = true});
    for (size_t i = 0; i < m_args.size() && i < m_lowered.func.argBuffers.size(); ++i)
        interpreter.bindBuffer(m_lowered.func.argBuffers[i], (*buffers)[i]);
    m_run = interpreter.run(m_lowered.func.deviceCode());
}

Heatmap heatmapOf(const Schedule& schedule, const std::string& stageName,
                  const HeatmapOptions& options) {
    checkHeatmapStage(schedule, stageName); // before the run: a typo costs nothing
    return HeatmapRun(schedule, options).heatmap(stageName);
}

void checkHeatmapStage(const Schedule& schedule, const std::string& stageName) {
    const Stage stage = stageNamed(schedule, stageName);
    if (!stage.defined())
        throw UserError("no stage '" + stageName + "' in the schedule (its stages: " +
                        stageList(schedule) + ")");
    if (stage->attachType == AttachType::Inline || stage->attachType == AttachType::InlinedAlready)
        throw UserError("stage '" + stageName + "' is computed inline: it has no buffer");
}

Heatmap HeatmapRun::heatmap(const std::string& stageName) const {
    checkHeatmapStage(m_schedule, stageName);
    const Operation op = stageNamed(m_schedule, stageName)->op;
    const std::string name = op->name;
    // A multi-output stage shows its first value (`T.v0`), named as lowering names its buffers.
    const BufferTrace* trace = traceOf(m_run, m_lowered, m_args, bufferName(op.output(0)));
    if (!trace || trace->entries == 0)
        throw UserError("stage '" + stageName + "' has no buffer in the lowered program under " +
                        boundRulesName(m_rules) + " (its values are never stored)");

    Heatmap map;
    map.buffer = trace->name.empty() ? name : trace->name;
    map.isArgument = trace->isArgument;
    map.rules = m_rules;
    map.shape = trace->isArgument ? trace->shape
                                  : alloc::realizedShape(m_lowered, stageName, trace->allocatedElements);
    map.entries = trace->entries;
    const size_t cells = size_t(trace->allocatedElements);
    // The consumers: the stages that read it (the trace numbers them per buffer), renumbered
    // without the stage itself; a read no produce block holds is "another stage".
    std::vector<int> bitOf(trace->readerNames.size(), -1);
    for (size_t r = 0; r < trace->readerNames.size() && r < 32; ++r) {
        if (trace->readerNames[r] == name)
            continue;
        bitOf[r] = int(map.consumers.size());
        map.consumers.push_back(trace->readerNames[r]);
    }
    int unattributed = -1;
    map.readers.assign(cells, 0);
    map.written.assign(cells, 0);
    for (size_t c = 0; c < cells; ++c) {
        const uint32_t who = c < trace->readers.size() ? trace->readers[c] : 0;
        for (size_t r = 0; r < bitOf.size(); ++r)
            if (bitOf[r] >= 0 && (who & (uint32_t(1) << r)))
                map.readers[c] |= uint32_t(1) << bitOf[r];
        if (who == 0 && trace->wasRead(int64_t(c)) && map.consumers.size() < 32) {
            if (unattributed < 0) {
                unattributed = int(map.consumers.size());
                map.consumers.push_back("another stage (a read outside any produce block)");
            }
            map.readers[c] |= uint32_t(1) << unattributed;
        }
        map.written[c] = trace->wasWritten(int64_t(c)) ? 1 : 0;
    }
    count(map);
    map.entryRead = trace->peakRead;
    map.entryComputed = trace->peakWritten;
    return map;
}

std::string Heatmap::toJson(int indent) const {
    using Json = nlohmann::ordered_json;
    Json j;
    j["buffer"] = buffer;
    j["rules"] = boundRulesName(rules);
    j["shape"] = shape;
    j["entries"] = entries;
    j["consumers"] = consumers;
    Json legend;
    legend["allocated"] = allocated;
    legend["computed"] = computed;
    legend["read"] = read;
    legend["read_by_several"] = readByMany;
    legend["unread"] = unread;
    legend["entry_read"] = entryRead;
    legend["entry_computed"] = entryComputed;
    Json by = Json::object();
    for (size_t k = 0; k < consumers.size(); ++k)
        by[consumers[k]] = readBy[k];
    legend["read_by"] = by;
    j["legend"] = legend;
    // Per cell, row-major: the consumers' numbers that read it, and whether it was computed.
    Json cells = Json::array();
    for (size_t c = 0; c < readers.size(); ++c) {
        Json who = Json::array();
        for (size_t k = 0; k < consumers.size(); ++k)
            if (readers[c] & (uint32_t(1) << k))
                who.push_back(k);
        cells.push_back(Json{{"read_by", who}, {"computed", written[c] != 0}});
    }
    j["cells"] = cells;
    return j.dump(indent);
}

namespace {


/// `T[2, 3]` of the cell at row-major offset `c`.
std::string cellName(const std::string& buffer, const std::vector<int64_t>& shape, int64_t c) {
    std::vector<int64_t> index(shape.size(), 0);
    for (size_t d = shape.size(); d-- > 0;) {
        index[d] = shape[d] > 0 ? c % shape[d] : 0;
        c = shape[d] > 0 ? c / shape[d] : 0;
    }
    std::string text = buffer + "[";
    for (size_t d = 0; d < index.size(); ++d)
        text += (d ? ", " : "") + std::to_string(index[d]);
    return text + "]";
}

} // namespace

const char* Heatmap::consumerColor(size_t k) {
    // ColorBrewer's Set2: distinct, and readable with black text.
    static const char* const kColors[] = {"#66c2a5", "#fc8d62", "#8da0cb", "#e78ac3",
                                          "#a6d854", "#ffd92f", "#e5c494", "#b3b3b3"};
    return kColors[k % (sizeof(kColors) / sizeof(kColors[0]))];
}

std::string Heatmap::describeCell(int64_t cell) const {
    const uint32_t who = readers[size_t(cell)];
    std::string text = cellName(buffer, shape, cell) + ": ";
    if (who == 0)
        text += "read by no consumer";
    for (size_t k = 0; k < consumers.size(); ++k)
        if (who & (uint32_t(1) << k))
            text += (text.back() == ' ' ? "read by " : ", ") + consumers[k];
    return text + (written[size_t(cell)] ? "; computed" : "; never computed");
}

std::string Heatmap::toSvg(int maxSlices) const {
    constexpr int kCell = 14;
    constexpr int kGap = 28;
    const int64_t cols = shape.empty() ? 1 : shape.back();
    const int64_t rows = shape.size() >= 2 ? shape[shape.size() - 2] : 1;
    const int64_t perSlice = std::max<int64_t>(1, rows * cols);
    const int64_t slices = std::max<int64_t>(1, int64_t(readers.size()) / perSlice);
    const int64_t shown = std::min<int64_t>(slices, maxSlices);
    const int legendLines = int(consumers.size()) + 5;
    const int64_t width = std::max<int64_t>(cols * kCell + 20, 420);
    const int64_t height = 40 + shown * (rows * kCell + kGap) + legendLines * 18 + 20;
    std::ostringstream os;
    os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\""
       << height << "\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n";
    os << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    os << "<text x=\"10\" y=\"20\" font-weight=\"bold\">" << escapeHtml(buffer) << ": "
       << allocated << " elements allocated under " << boundRulesName(rules) << ", "
       << entries << (entries == 1 ? " entry" : " entries") << "</text>\n";
    int64_t y = 40;
    for (int64_t slice = 0; slice < shown; ++slice) {
        if (shape.size() > 2)
            os << "<text x=\"10\" y=\"" << (y - 4) << "\">"
               << escapeHtml(cellName(buffer, shape, slice * perSlice)) << " …</text>\n";
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < cols; ++c) {
                const int64_t cell = slice * perSlice + r * cols + c;
                const uint32_t who = readers[size_t(cell)];
                const char* fill = who == 0 ? kUnreadColor
                                   : std::popcount(who) > 1
                                       ? kSeveralColor
                                       : consumerColor(size_t(std::countr_zero(who)));
                const std::string tip = describeCell(cell);
                os << "<rect x=\"" << (10 + c * kCell) << "\" y=\"" << (y + r * kCell)
                   << "\" width=\"" << kCell << "\" height=\"" << kCell << "\" fill=\"" << fill
                   << "\" stroke=\"" << (written[size_t(cell)] ? "#555" : "#bbb")
                   << "\" stroke-dasharray=\"" << (written[size_t(cell)] ? "none" : "2,2")
                   << "\"><title>" << escapeHtml(tip) << "</title></rect>\n";
            }
        y += rows * kCell + kGap;
    }
    if (shown < slices)
        os << "<text x=\"10\" y=\"" << (y - kGap / 2) << "\">(" << (slices - shown)
           << " more slices not drawn)</text>\n";
    auto legend = [&](const char* fill, const std::string& text) {
        os << "<rect x=\"10\" y=\"" << (y - 11) << "\" width=\"12\" height=\"12\" fill=\"" << fill
           << "\" stroke=\"#555\"/><text x=\"28\" y=\"" << y << "\">" << escapeHtml(text)
           << "</text>\n";
        y += 18;
    };
    for (size_t k = 0; k < consumers.size(); ++k)
        legend(consumerColor(k), "read by " + consumers[k] + ": " + std::to_string(readBy[k]));
    legend(kSeveralColor, "read by several consumers: " + std::to_string(readByMany));
    legend(kUnreadColor, "read by no consumer: " + std::to_string(unread) + " of " +
                        std::to_string(allocated));
    os << "<text x=\"10\" y=\"" << y << "\">computed: " << computed
       << " (a dashed border: never computed)</text>\n";
    if (entries > 1) {
        y += 18;
        os << "<text x=\"10\" y=\"" << y << "\">one entry (one iteration around the "
           << "allocation) computes up to " << entryComputed << " and reads up to " << entryRead
           << "; the grid overlays all " << entries << "</text>\n";
    }
    os << "</svg>\n";
    return os.str();
}

std::string Heatmap::toText() const {
    std::ostringstream os;
    os << buffer << ": " << allocated << " elements allocated under " << boundRulesName(rules)
       << " (shape";
    for (int64_t extent : shape)
        os << " " << extent;
    os << ", " << entries << (entries == 1 ? " entry" : " entries") << ")\n";
    if (isArgument)
        os << "  an argument of the kernel: its elements come from the caller (or go back to it)\n";
    os << "  computed " << computed << ", read " << read << ", read by no consumer " << unread
       << ", read by several " << readByMany << "\n";
    if (entries > 1)
        os << "  one entry computes up to " << entryComputed << " and reads up to " << entryRead
           << " (the grid overlays all " << entries << " entries)\n";
    for (size_t k = 0; k < consumers.size(); ++k)
        os << "  " << char('a' + k % 26) << " = read by " << consumers[k] << ": " << readBy[k]
           << "\n";
    const int64_t cols = shape.empty() ? 1 : shape.back();
    if (shape.size() > 2 || cols > 64)
        return os.str();
    for (size_t c = 0; c < readers.size(); ++c) {
        const uint32_t who = readers[c];
        os << (c % size_t(cols) == 0 ? "  " : "")
           << (who == 0 ? '.' : std::popcount(who) > 1 ? '*' : char('a' + std::countr_zero(who) % 26));
        if ((c + 1) % size_t(cols) == 0)
            os << "\n";
    }
    return os.str();
}

} // namespace bs

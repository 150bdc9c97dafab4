#include "analysis/Heatmap.h"

#include "analysis/AllocReportInternal.h"
#include "analysis/Program.h"
#include "analysis/ScheduleFixes.h"
#include "ir/Op.h"
#include "lower/Lower.h"
#include "lower/StorageFlatten.h"
#include "runtime/Interpreter.h"
#include "support/Markup.h"
#include "support/Png.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <map>
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
    map.computed = map.read = map.readByMany = map.unread = 0;
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

/// An argument's tensor shape (the flat program binds it as {size}), when constant.
std::vector<int64_t> argumentShape(const std::vector<Tensor>& args, const Tensor& tensor,
                                   const std::vector<int64_t>& flat) {
    for (const Tensor& arg : args) {
        if (!arg.same_as(tensor) && arg.name() != tensor.name())
            continue;
        std::vector<int64_t> shape;
        int64_t size = 1;
        for (const Expr& extent : arg.shape()) {
            const std::optional<int64_t> value = asConstInt(extent);
            if (!value)
                return flat;
            shape.push_back(*value);
            size *= *value;
        }
        int64_t flatSize = 1;
        for (int64_t extent : flat)
            flatSize *= extent;
        return size == flatSize && !shape.empty() ? shape : flat;
    }
    return flat;
}

std::string stageList(const Schedule& schedule) {
    std::string names;
    for (const Stage& s : schedule.stages())
        names += (names.empty() ? "" : ", ") + s.name();
    return names;
}

} // namespace

/// Per buffer, over the whole run: how often each cell was read and written, and the first and
/// last entry that read it.
struct HeatmapRun::Cells {
    std::vector<uint32_t> reads, writes;
    std::vector<int32_t> firstRead, lastRead;
    int64_t entries = 0;

    void grow(size_t size) {
        if (reads.size() >= size)
            return;
        reads.resize(size, 0);
        writes.resize(size, 0);
        firstRead.resize(size, -1);
        lastRead.resize(size, -1);
    }
};

/// Records the per-cell counts of every buffer, and one entry of the focused buffer alone.
class HeatmapRun::Recorder final : public AccessObserver {
public:
    Recorder(std::string focus, int64_t iteration)
        : m_focus(std::move(focus)), m_iteration(iteration) {}

    /// The focused entry, as the run saw it: by cell, who read it and whether it was written.
    struct Entry {
        bool seen = false;
        bool open = false;
        std::vector<std::string> readerNames; ///< in order of first read; "" for no produce block
        std::vector<uint32_t> readers;        ///< bit k: readerNames[k]
        std::vector<uint8_t> written;
        std::vector<uint32_t> reads, writes;
    };

    void enter(const Region& region) override {
        Cells& c = cells(region);
        ++c.entries;
        if (*region.name == m_focus && c.entries - 1 == m_iteration) {
            int64_t size = 1;
            for (int d = 0; d < region.rank; ++d)
                size *= region.extents[d];
            m_entry.seen = m_entry.open = true;
            m_entry.readers.assign(size_t(size), 0);
            m_entry.written.assign(size_t(size), 0);
            m_entry.reads.assign(size_t(size), 0);
            m_entry.writes.assign(size_t(size), 0);
        }
    }

    void leave(const Region& region) override {
        if (m_entry.open && *region.name == m_focus)
            m_entry.open = false;
    }

    void access(const Region& region, int64_t offset, bool isWrite,
                const std::string* reader) override {
        Cells& c = cells(region);
        const auto at = size_t(offset);
        c.grow(at + 1);
        uint32_t& n = isWrite ? c.writes[at] : c.reads[at];
        n += n != UINT32_MAX;
        if (!isWrite) {
            const auto entry = int32_t(std::max<int64_t>(0, c.entries - 1));
            if (c.firstRead[at] < 0)
                c.firstRead[at] = entry;
            c.lastRead[at] = entry;
        }
        if (!m_entry.open || *region.name != m_focus || at >= m_entry.written.size())
            return;
        if (isWrite) {
            m_entry.written[at] = 1;
            m_entry.writes[at] += m_entry.writes[at] != UINT32_MAX;
            return;
        }
        m_entry.reads[at] += m_entry.reads[at] != UINT32_MAX;
        const std::string name = reader ? *reader : std::string();
        auto it = std::find(m_entry.readerNames.begin(), m_entry.readerNames.end(), name);
        if (it == m_entry.readerNames.end()) {
            if (m_entry.readerNames.size() == 32)
                return;
            it = m_entry.readerNames.insert(it, name);
        }
        m_entry.readers[at] |= uint32_t(1) << (it - m_entry.readerNames.begin());
    }

    const Cells* cellsOf(const std::string& name) const {
        const auto it = m_byName.find(name);
        return it == m_byName.end() ? nullptr : &it->second;
    }
    const Entry& entry() const { return m_entry; }

private:
    Cells& cells(const Region& region) {
        if (size_t(region.buffer) >= m_byTrace.size())
            m_byTrace.resize(size_t(region.buffer) + 1, nullptr);
        Cells*& c = m_byTrace[size_t(region.buffer)];
        if (!c)
            c = &m_byName[*region.name];
        return *c;
    }

    std::string m_focus;
    int64_t m_iteration;
    Entry m_entry;
    std::map<std::string, Cells> m_byName;
    std::vector<Cells*> m_byTrace;
};

namespace {

constexpr const char* kNeedsConstantShapes =
    "the heatmap runs the program in the interpreter, which needs constant shapes and supported "
    "types for its arguments";

/// Throws when the run's work, the most `stores` it can make (unknown where a loop's extent has
/// no constant bound) and the `elements` of its arguments, is past `budget`.
void checkWork(std::optional<double> stores, double elements, int64_t budget) {
    if (budget <= 0 || stores.value_or(0) + elements <= double(budget))
        return;
    const std::string work = stores
                                 ? "makes up to " + alloc::roughCount(*stores) + " stores over " +
                                       alloc::roughCount(elements) + " argument elements"
                                 : "holds " + alloc::roughCount(elements) + " argument elements";
    throw UserError("the heatmap runs the program in the interpreter, and this one " + work +
                    ", past the heatmap's limit of " + alloc::roughCount(double(budget)) +
                    " in all: try it on smaller sizes, where the reads follow the same pattern "
                    "(`boundscope alloc` counts the touched elements of large programs from "
                    "their access sets)");
}

} // namespace

HeatmapRun::HeatmapRun(const Schedule& schedule, const HeatmapOptions& options,
                       const std::string& focus)
    : m_schedule(schedule), m_rules(options.rules),
      m_args(options.args.empty() ? defaultArguments(schedule) : options.args), m_focus(focus),
      m_iteration(focus.empty() ? -1 : options.iteration) {
    const std::optional<double> elements = alloc::argumentElements(m_args);
    if (!elements)
        throw UserError(kNeedsConstantShapes);
    LowerOptions lowerOptions;
    lowerOptions.rules = options.rules;
    m_lowered = lower(schedule, m_args, lowerOptions);
    // Before any buffer is made: the arguments alone can be more than the machine holds.
    checkWork(alloc::countStores(m_lowered.func.deviceCode(), /*upperBounds=*/true), *elements,
              options.budget);
    std::optional<std::vector<Buffer>> buffers = alloc::argumentBuffers(m_args);
    if (!buffers)
        throw UserError(kNeedsConstantShapes);
    // The focus is named as the run names the stage's buffer (rfactor's B.repl computes the
    // argument B).
    std::string focusBuffer;
    if (!m_focus.empty()) {
        checkHeatmapStage(schedule, m_focus);
        const Stage focus = stageNamed(schedule, m_focus);
        const Var buffer = alloc::bufferVarOf(m_lowered, focus->originOp, 0);
        focusBuffer = buffer.defined() ? buffer.name() : bufferName(focus->originOp.output(0));
    }
    m_recorder = std::make_unique<Recorder>(focusBuffer, m_iteration);
    Interpreter interpreter(
        InterpreterOptions{.traceAccesses = true, .observer = m_recorder.get()});
    for (size_t i = 0; i < m_args.size() && i < m_lowered.func.argBuffers.size(); ++i)
        interpreter.bindBuffer(m_lowered.func.argBuffers[i], (*buffers)[i]);
    m_run = interpreter.run(m_lowered.func.deviceCode());
}

HeatmapRun::~HeatmapRun() = default;

Heatmap heatmapOf(const Schedule& schedule, const std::string& stageName,
                  const HeatmapOptions& options) {
    checkHeatmapStage(schedule, stageName); // before the run: a typo costs nothing
    return HeatmapRun(schedule, options, options.iteration >= 0 ? stageName : std::string())
        .heatmap(stageName);
}

void checkHeatmapStage(const Schedule& schedule, const std::string& stageName) {
    const Stage stage = stageNamed(schedule, stageName);
    if (!stage.defined()) {
        // Two stages of that name (earlier schedules each named one) are refused as --stage
        // refuses them: the first of them was shown, with the other's buffer.
        if (stagesNamed(schedule, stageName) > 1)
            findStageByName(schedule, stageName);
        throw UserError("no stage '" + stageName +
                        "' in the schedule (its stages: " + stageList(schedule) + ")");
    }
    if (stage->attachType == AttachType::Inline || stage->attachType == AttachType::InlinedAlready)
        throw UserError("stage '" + stageName + "' is computed inline: it has no buffer");
}

namespace {

/// Replaces `map`'s cells by those of its entry `iteration` (throws when the run never reached
/// it).
void showEntry(Heatmap& map, const HeatmapRun::Recorder::Entry& entry, int64_t iteration,
               const std::string& stageName) {
    if (!entry.seen)
        throw UserError("iteration " + std::to_string(iteration + 1) + " of " + map.buffer +
                        " is past its " + std::to_string(map.entries) +
                        (map.entries == 1 ? " entry" : " entries"));
    map.iteration = iteration;
    const size_t cells = map.readers.size();
    map.readers.assign(cells, 0);
    map.written.assign(cells, 0);
    map.reads.assign(cells, 0);
    map.writes.assign(cells, 0);
    map.firstReadEntry.clear();
    map.lastReadEntry.clear();
    // The entry's readers as the whole run's consumers, so each keeps its colour.
    std::vector<int> bitOf;
    for (const std::string& reader : entry.readerNames) {
        const std::string name =
            reader.empty() ? "another stage (a read outside any produce block)" : reader;
        auto it = std::find(map.consumers.begin(), map.consumers.end(), name);
        bitOf.push_back(reader == stageName || it == map.consumers.end()
                            ? -1
                            : int(it - map.consumers.begin()));
    }
    for (size_t c = 0; c < cells && c < entry.written.size(); ++c) {
        for (size_t r = 0; r < bitOf.size(); ++r)
            if (bitOf[r] >= 0 && (entry.readers[c] & (uint32_t(1) << r)))
                map.readers[c] |= uint32_t(1) << bitOf[r];
        map.written[c] = entry.written[c];
        map.reads[c] = entry.reads[c];
        map.writes[c] = entry.writes[c];
    }
    count(map);
    map.touched = 0;
    for (size_t c = 0; c < cells && c < entry.written.size(); ++c)
        map.touched += (entry.reads[c] > 0 || entry.written[c]) ? 1 : 0;
    map.entryRead = map.read;
    map.entryComputed = map.computed;
}

} // namespace

Heatmap HeatmapRun::heatmap(const std::string& stageName) const {
    checkHeatmapStage(m_schedule, stageName);
    const Stage stage = stageNamed(m_schedule, stageName);
    const Operation op = stage->op;
    // Lowering names a rewritten stage's buffer and produce block after its origin (rfactor's
    // `B.repl` is realized as B).
    const std::string name = stage->originOp->name;
    // A multi-output stage shows its first value (`T.v0`), named as lowering names its buffers.
    const BufferTrace* trace = alloc::traceOfBuffer(m_run, m_lowered, stage->originOp, 0);
    if (!trace) // a buffer lowering made under another Var (the stage's name is unique here)
        trace = traceOf(m_run, m_lowered, m_args, bufferName(stage->originOp.output(0)));
    if (!trace || trace->entries == 0)
        throw UserError("stage '" + stageName + "' has no buffer in the lowered program under " +
                        boundRulesName(m_rules) + " (its values are never stored)");

    Heatmap map;
    map.buffer = trace->name.empty() ? name : trace->name;
    map.isArgument = trace->isArgument;
    map.rules = m_rules;
    map.shape = trace->isArgument
                    ? argumentShape(m_args, stage->originOp.output(0), trace->shape)
                    : alloc::realizedShape(m_lowered, stage->originOp, trace->allocatedElements);
    map.entries = trace->entries;
    // A buffer whose region moves within one entry (a shared tile re-entered at each
    // iteration of a loop inside its block) is entered once per move.
    if (const Cells* counts = m_recorder->cellsOf(trace->name))
        map.entries = std::max(map.entries, counts->entries);
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
    map.realizeStep = trace->isArgument ? -1 : m_lowered.bounds.steps.realizeStep(op, 0);
    if (const Cells* counts = m_recorder->cellsOf(trace->name)) {
        map.reads.assign(cells, 0);
        map.writes.assign(cells, 0);
        for (size_t c = 0; c < cells && c < counts->reads.size(); ++c) {
            map.reads[c] = counts->reads[c];
            map.writes[c] = counts->writes[c];
        }
        if (map.entries > 1) {
            map.firstReadEntry.assign(cells, -1);
            map.lastReadEntry.assign(cells, -1);
            for (size_t c = 0; c < cells && c < counts->firstRead.size(); ++c) {
                map.firstReadEntry[c] = counts->firstRead[c];
                map.lastReadEntry[c] = counts->lastRead[c];
            }
        }
    }
    count(map);
    map.touched = trace->totalTouched();
    map.entryRead = trace->peakRead;
    map.entryComputed = trace->peakWritten;
    if (stageName == m_focus && m_iteration == 0 && trace->isArgument) {
        // An argument has one entry, the whole run, which the run does not enter: its cells are
        // that entry's already.
        map.iteration = 0;
        map.entryRead = map.read;
        map.entryComputed = map.computed;
    } else if (stageName == m_focus && m_iteration >= 0) {
        showEntry(map, m_recorder->entry(), m_iteration, name);
    }
    return map;
}

std::string Heatmap::toJson(int indent) const {
    using Json = nlohmann::ordered_json;
    Json j;
    j["buffer"] = buffer;
    j["rules"] = boundRulesName(rules);
    j["shape"] = shape;
    j["entries"] = entries;
    if (iteration >= 0)
        j["iteration"] = iteration + 1;
    if (realizeStep >= 0)
        j["realize_step"] = realizeStep;
    j["consumers"] = consumers;
    Json legend;
    legend["allocated"] = allocated;
    legend["computed"] = computed;
    legend["read"] = read;
    legend["read_by_several"] = readByMany;
    legend["unread"] = unread;
    legend["touched"] = touched;
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
        Json cell{{"read_by", who}, {"computed", written[c] != 0}};
        if (c < reads.size()) {
            cell["reads"] = reads[c];
            cell["writes"] = writes[c];
        }
        if (c < firstReadEntry.size() && firstReadEntry[c] >= 0)
            cell["read_in_iterations"] = Json::array({firstReadEntry[c] + 1, lastReadEntry[c] + 1});
        cells.push_back(std::move(cell));
    }
    j["cells"] = cells;
    return j.dump(indent);
}

namespace {

/// `T[2, 3]` of the cell at row-major offset `c`.
std::string cellName(const std::string& buffer, const std::vector<int64_t>& shape, int64_t c) {
    return alloc::elementName(buffer, shape, {}, c);
}

} // namespace

const char* Heatmap::consumerColor(size_t k) {
    // ColorBrewer's Set2: distinct, and readable with black text.
    static const char* const kColors[] = {"#66c2a5", "#fc8d62", "#8da0cb", "#e78ac3",
                                          "#a6d854", "#ffd92f", "#e5c494", "#b3b3b3"};
    return kColors[k % (sizeof(kColors) / sizeof(kColors[0]))];
}

const char* Heatmap::cellColor(int64_t cell) const {
    const uint32_t who = readers[size_t(cell)];
    return who == 0                 ? kUnreadColor
           : std::popcount(who) > 1 ? kSeveralColor
                                    : consumerColor(size_t(std::countr_zero(who)));
}

std::string Heatmap::describeCell(int64_t cell) const {
    const uint32_t who = readers[size_t(cell)];
    std::string text = cellName(buffer, shape, cell) + ": ";
    if (who == 0)
        text += "read by no consumer";
    for (size_t k = 0; k < consumers.size(); ++k)
        if (who & (uint32_t(1) << k))
            text += (text.back() == ' ' ? "read by " : ", ") + consumers[k];
    const auto at = size_t(cell);
    auto count = [](uint32_t n, const char* what) {
        return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
    };
    if (at < reads.size() && reads[at] > 0) {
        text += " (" + count(reads[at], "read");
        if (at < firstReadEntry.size() && firstReadEntry[at] >= 0)
            text += firstReadEntry[at] == lastReadEntry[at]
                        ? ", in iteration " + std::to_string(firstReadEntry[at] + 1)
                        : ", in iterations " + std::to_string(firstReadEntry[at] + 1) + "-" +
                              std::to_string(lastReadEntry[at] + 1);
        text += ")";
    }
    if (!written[at])
        return text + (iteration >= 0 ? "; not computed in this iteration" : "; never computed");
    text += "; computed";
    if (at < writes.size() && writes[at] > 1)
        text += " (" + count(writes[at], "store") + ")";
    return text;
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
    std::string title = buffer + ": " + std::to_string(allocated) + " elements allocated under " +
                        boundRulesName(rules) + ", " + std::to_string(entries) +
                        (entries == 1 ? " entry" : " entries");
    if (iteration >= 0)
        title += ", showing iteration " + std::to_string(iteration + 1) + " alone";
    if (realizeStep >= 0)
        title += " (its region: InferBound step " + std::to_string(realizeStep) + ")";
    const std::string footer = "one entry (one iteration around the allocation) computes up to " +
                               std::to_string(entryComputed) + " and reads up to " +
                               std::to_string(entryRead) + "; the grid overlays all " +
                               std::to_string(entries);
    // About 7 pixels a character at 12 px Helvetica: the title and footer fit.
    const int64_t textWidth =
        20 + 7 * int64_t(std::max(title.size(), entries > 1 && iteration < 0 ? footer.size() : 0));
    const int64_t width = std::max<int64_t>({cols * kCell + 20, 420, textWidth});
    const int64_t height = 40 + shown * (rows * kCell + kGap) + legendLines * 18 + 20;
    std::ostringstream os;
    os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
       << "\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n";
    os << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    os << "<text x=\"10\" y=\"20\" font-weight=\"bold\">" << escapeHtml(title) << "</text>\n";
    int64_t y = 40;
    for (int64_t slice = 0; slice < shown; ++slice) {
        if (shape.size() > 2)
            os << "<text x=\"10\" y=\"" << (y - 4) << "\">"
               << escapeHtml(cellName(buffer, shape, slice * perSlice)) << " …</text>\n";
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < cols; ++c) {
                const int64_t cell = slice * perSlice + r * cols + c;
                const char* fill = cellColor(cell);
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
    legend(kUnreadColor,
           "read by no consumer: " + std::to_string(unread) + " of " + std::to_string(allocated));
    os << "<text x=\"10\" y=\"" << y << "\">computed: " << computed
       << " (a dashed border: never computed)</text>\n";
    if (entries > 1 && iteration < 0) {
        y += 18;
        os << "<text x=\"10\" y=\"" << y << "\">" << escapeHtml(footer) << "</text>\n";
    }
    os << "</svg>\n";
    return os.str();
}

std::string Heatmap::toPng(int maxSlices) const {
    constexpr int kMargin = 4;
    constexpr int kGap = 8;
    const int64_t cols = shape.empty() ? 1 : shape.back();
    const int64_t rows = shape.size() >= 2 ? shape[shape.size() - 2] : 1;
    const int64_t perSlice = std::max<int64_t>(1, rows * cols);
    const int64_t slices =
        std::min<int64_t>(std::max<int64_t>(1, int64_t(readers.size()) / perSlice), maxSlices);
    const int cell =
        int(std::clamp<int64_t>(512 / std::max<int64_t>(1, std::max(rows, cols)), 2, 16));
    RgbImage image(int(cols) * cell + 2 * kMargin,
                   int(slices * rows) * cell + int(slices - 1) * kGap + 2 * kMargin);
    for (int64_t slice = 0; slice < slices; ++slice)
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < cols; ++c) {
                const int64_t at = slice * perSlice + r * cols + c;
                const char* fill = cellColor(at);
                const int x = kMargin + int(c) * cell;
                const int y = kMargin + int(slice * (rows * cell + kGap) + r * cell);
                image.fill(x, y, cell, cell, written[size_t(at)] ? 0x555555 : 0xbbbbbb);
                const int inset = cell >= 5 ? 1 : 0;
                image.fill(x + inset, y + inset, cell - 2 * inset, cell - 2 * inset,
                           parseHexColor(fill));
            }
    return encodePng(image);
}

std::string Heatmap::toText() const {
    std::ostringstream os;
    os << buffer << ": " << allocated << " elements allocated under " << boundRulesName(rules)
       << " (shape";
    for (int64_t extent : shape)
        os << " " << extent;
    os << ", " << entries << (entries == 1 ? " entry" : " entries") << ")\n";
    if (iteration >= 0)
        os << "  iteration " << (iteration + 1) << " of " << entries
           << " alone: what one entry of the allocation computes and reads\n";
    if (realizeStep >= 0)
        os << "  its region was realized by InferBound step " << realizeStep
           << " (boundscope steps)\n";
    if (isArgument)
        os << "  an argument of the kernel: its elements come from the caller (or go back to it)\n";
    os << "  computed " << computed << ", read " << read << ", read by no consumer " << unread
       << ", read by several " << readByMany << "\n";
    if (entries > 1 && iteration < 0)
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
           << (who == 0                 ? '.'
               : std::popcount(who) > 1 ? '*'
                                        : char('a' + std::countr_zero(who) % 26));
        if ((c + 1) % size_t(cols) == 0)
            os << "\n";
    }
    return os.str();
}

} // namespace bs

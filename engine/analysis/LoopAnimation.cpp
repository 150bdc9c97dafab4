#include "analysis/LoopAnimation.h"

#include "analysis/AllocReportInternal.h"
#include "analysis/Program.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "lower/Lower.h"
#include "lower/StorageFlatten.h"
#include "lower/ThreadSync.h"
#include "runtime/Interpreter.h"
#include "support/Markup.h"
#include "support/Png.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

namespace bs {

int64_t AnimatedBuffer::cells() const {
    int64_t n = 1;
    for (int64_t extent : shape)
        n *= extent;
    return n;
}

std::string AnimatedBuffer::cellName(int64_t cell) const {
    return alloc::elementName(name, shape, mins, cell);
}

AnimatedBuffer::Tiling AnimatedBuffer::tiling() const {
    const size_t rank = shape.size();
    Tiling t{1, 1, 1, 1};
    if (rank == 0)
        return t;
    t.width = std::max<int64_t>(1, shape[rank - 1]);
    t.height = rank >= 2 ? std::max<int64_t>(1, shape[rank - 2]) : 1;
    for (size_t d = 0; d + 2 < rank; ++d)
        t.tiles *= std::max<int64_t>(1, shape[d]);
    // Nearly square overall: as many tile columns as make the rows about as long as tall.
    const double columns = std::sqrt(double(t.tiles) * double(t.height) / double(t.width));
    t.tileColumns = std::clamp<int64_t>(int64_t(std::lround(columns)), 1, t.tiles);
    return t;
}

std::pair<int64_t, int64_t> AnimatedBuffer::drawSize() const {
    const Tiling t = tiling();
    if (t.tiles == 1)
        return {t.height, t.width};
    const int64_t tileRows = (t.tiles + t.tileColumns - 1) / t.tileColumns;
    return {tileRows * (t.height + 1) - 1, t.tileColumns * (t.width + 1) - 1};
}

std::pair<int64_t, int64_t> AnimatedBuffer::drawPosition(int64_t cell) const {
    const Tiling t = tiling();
    const int64_t tile = cell / (t.height * t.width);
    const int64_t within = cell % (t.height * t.width);
    return {(tile / t.tileColumns) * (t.height + 1) + within / t.width,
            (tile % t.tileColumns) * (t.width + 1) + within % t.width};
}

int64_t AnimatedBuffer::cellDrawnAt(int64_t row, int64_t column) const {
    const Tiling t = tiling();
    if (row < 0 || column < 0)
        return -1;
    const int64_t r = row % (t.height + 1), c = column % (t.width + 1);
    const int64_t tileRow = row / (t.height + 1), tileColumn = column / (t.width + 1);
    if ((t.tiles > 1 && (r == t.height || c == t.width)) || tileColumn >= t.tileColumns)
        return -1;
    if (t.tiles == 1 && (row >= t.height || column >= t.width))
        return -1;
    const int64_t tile = tileRow * t.tileColumns + tileColumn;
    if (tile >= t.tiles)
        return -1;
    return tile * t.height * t.width + r * t.width + c;
}

/// Records a run: events with tensor coordinates as they come, turned into cells of each
/// buffer's grid once the run has shown how far every buffer reaches.
namespace {

bool hasBarrier(const Stmt& program) {
    bool found = false;
    postOrderVisit(program, [&](const NodeRef& node) {
        if (const auto* call = node.as<CallNode>())
            found |= call->isIntrinsic(kStorageSyncIntrinsic);
    });
    return found;
}

} // namespace

class AnimationRecorder final : public AccessObserver {
public:
    /// `flatShapes`: the shapes of the buffers of a flat program, by name (an argument's tensor
    /// shape, an allocation's realized extents), drawn as grids rather than rows.
    /// `tensorShapes`: the tensors' shapes, by buffer name, that an allocation's grid spans.
    AnimationRecorder(int64_t budget, std::map<std::string, std::vector<int64_t>> flatShapes,
                      std::map<std::string, std::vector<int64_t>> tensorShapes)
        : m_budget(budget), m_flatShapes(std::move(flatShapes)),
          m_tensorShapes(std::move(tensorShapes)) {}

    /// Thrown from the observer to stop a run that has filled the budget.
    struct Full {};

    void enter(const Region& region) override { entry(region, AnimationEvent::Enter); }
    void leave(const Region& region) override { entry(region, AnimationEvent::Leave); }

    void access(const Region& region, int64_t offset, bool isWrite, const std::string*) override {
        Seen& seen = buffer(region);
        if (!drawable(seen, region))
            return;
        const size_t at = m_coords.size();
        const int64_t* mins = seen.unflat.empty() ? region.mins : m_zeros;
        const int64_t* extents = seen.unflat.empty() ? region.extents : seen.unflat.data();
        for (int d = seen.rank; d-- > 0;) {
            const int64_t extent = std::max<int64_t>(1, extents[d]);
            m_coords.push_back(mins[d] + offset % extent);
            offset /= extent;
        }
        std::reverse(m_coords.begin() + std::ptrdiff_t(at), m_coords.end());
        for (int d = 0; d < seen.rank; ++d) {
            seen.lo[size_t(d)] = std::min(seen.lo[size_t(d)], m_coords[at + size_t(d)]);
            seen.hi[size_t(d)] = std::max(seen.hi[size_t(d)], m_coords[at + size_t(d)] + 1);
        }
        seen.written |= isWrite;
        push(region, isWrite ? AnimationEvent::Write : AnimationEvent::Read, at, 1);
    }

    /// Builds the animation's buffers, events and regions from what was recorded.
    void finish(LoopAnimation& animation) {
        // Outputs, then the program's own buffers, then inputs, each in order of first access.
        std::vector<size_t> order(m_seen.size());
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        auto role = [&](const Seen& s) {
            return !s.isArgument ? AnimatedRole::Intermediate
                   : s.written   ? AnimatedRole::Output
                                 : AnimatedRole::Input;
        };
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return role(m_seen[a]) < role(m_seen[b]); });
        std::vector<uint16_t> index(m_seen.size());
        for (size_t k = 0; k < order.size(); ++k) {
            Seen& seen = m_seen[order[k]];
            index[order[k]] = uint16_t(k);
            AnimatedBuffer buffer;
            buffer.name = seen.name;
            buffer.role = role(seen);
            // An argument is drawn whole; an allocation as far as it reached.
            // An allocation of a tensor spans at least the tensor, so its grid does not grow
            // as more of the run is recorded.
            const auto tensor = m_tensorShapes.find(seen.name);
            if (!seen.isArgument && seen.unflat.empty() && tensor != m_tensorShapes.end() &&
                tensor->second.size() == seen.lo.size())
                for (size_t d = 0; d < seen.lo.size(); ++d) {
                    seen.lo[d] = std::min<int64_t>(seen.lo[d], 0);
                    seen.hi[d] = std::max(seen.hi[d], tensor->second[d]);
                }
            for (size_t d = 0; d < seen.lo.size(); ++d) {
                const bool reached = seen.lo[d] < seen.hi[d];
                buffer.mins.push_back(seen.isArgument || !reached ? 0 : seen.lo[d]);
                buffer.shape.push_back(seen.isArgument ? seen.extents[d]
                                       : reached       ? seen.hi[d] - seen.lo[d]
                                                       : 0);
            }
            animation.m_buffers.push_back(std::move(buffer));
        }

        std::map<std::vector<int64_t>, int64_t> regionIndex;
        animation.m_events.reserve(m_raw.size());
        for (const Raw& raw : m_raw) {
            const uint16_t b = index[size_t(raw.seen)];
            const AnimatedBuffer& buffer = animation.m_buffers[b];
            const int64_t* coords = m_coords.data() + raw.coords;
            const size_t rank = buffer.shape.size();
            AnimationEvent event;
            event.kind = raw.kind;
            event.buffer = b;
            event.block = raw.block;
            event.thread = raw.thread;
            if (raw.kind == AnimationEvent::Read || raw.kind == AnimationEvent::Write) {
                int64_t cell = 0;
                for (size_t d = 0; d < rank; ++d)
                    cell = cell * buffer.shape[d] + (coords[d] - buffer.mins[d]);
                event.target = cell;
            } else {
                std::vector<int64_t> key{int64_t(b)};
                for (size_t d = 0; d < rank; ++d)
                    key.push_back(coords[d] - buffer.mins[d]);
                key.insert(key.end(), coords + rank, coords + 2 * rank);
                auto [it, added] = regionIndex.emplace(key, int64_t(animation.m_regions.size()));
                if (added)
                    animation.m_regions.push_back(
                        {std::vector<int64_t>(key.begin() + 1,
                                              key.begin() + 1 + std::ptrdiff_t(rank)),
                         std::vector<int64_t>(key.begin() + 1 + std::ptrdiff_t(rank), key.end())});
                event.target = it->second;
            }
            animation.m_events.push_back(event);
            if (raw.kind == AnimationEvent::Write)
                animation.m_stepBegin.push_back(int64_t(animation.m_events.size()));
        }
        // Events after the last store (the allocations' ends) belong to no step: the last
        // frame shows the program as its last store leaves it.
        animation.m_blocks = m_blocks;
    }

private:
    struct Seen {
        std::string name;
        bool isArgument = false;
        bool written = false;
        int rank = 1;
        std::vector<int64_t> lo, hi, extents;
        /// A flat buffer drawn with this shape (its offsets unravelled over it); empty: as run.
        std::vector<int64_t> unflat;
    };

    /// Whether an access or entry of `region` can be drawn on `seen`'s grid: the same rank (a
    /// flat buffer drawn as a grid: its size is the grid's).
    static bool drawable(const Seen& seen, const Region& region) {
        if (seen.unflat.empty())
            return region.rank == seen.rank;
        int64_t size = 1;
        for (int64_t extent : seen.unflat)
            size *= extent;
        return region.rank == 1 && region.extents[0] == size;
    }
    struct Raw {
        int64_t coords = 0; ///< into m_coords: an access's coordinates, or a region's mins, extents
        int32_t seen = 0;
        int32_t block = -1;
        int32_t thread = -1;
        AnimationEvent::Kind kind = AnimationEvent::Read;
    };

    Seen& buffer(const Region& region) {
        if (size_t(region.buffer) >= m_local.size())
            m_local.resize(size_t(region.buffer) + 1, -1);
        int32_t& local = m_local[size_t(region.buffer)];
        if (local < 0) {
            if (m_seen.size() >= 0xffff)
                throw UserError("the program has too many buffers to animate");
            local = int32_t(m_seen.size());
            Seen seen;
            seen.name = region.name ? *region.name : "?";
            seen.isArgument = region.isArgument;
            seen.rank = region.rank;
            seen.extents.assign(region.extents, region.extents + region.rank);
            const auto flat = m_flatShapes.find(seen.name);
            if (region.rank == 1 && flat != m_flatShapes.end() && flat->second.size() > 1 &&
                flat->second.size() <= size_t(kMaxDrawnRank)) {
                int64_t size = 1;
                for (int64_t extent : flat->second)
                    size *= extent;
                if (size == region.extents[0]) {
                    seen.unflat = flat->second;
                    seen.rank = int(seen.unflat.size());
                    seen.extents = seen.unflat;
                }
            }
            seen.lo.assign(size_t(seen.rank), INT64_MAX);
            seen.hi.assign(size_t(seen.rank), INT64_MIN);
            m_seen.push_back(std::move(seen));
        }
        return m_seen[size_t(local)];
    }

    void entry(const Region& region, AnimationEvent::Kind kind) {
        Seen& seen = buffer(region);
        if (!drawable(seen, region))
            return;
        const int64_t* mins = seen.unflat.empty() ? region.mins : m_zeros;
        const int64_t* extents = seen.unflat.empty() ? region.extents : seen.unflat.data();
        const size_t at = m_coords.size();
        int64_t cells = 1;
        for (int d = 0; d < seen.rank; ++d) {
            m_coords.push_back(mins[d]);
            cells *= extents[d];
        }
        for (int d = 0; d < seen.rank; ++d) {
            m_coords.push_back(extents[d]);
            if (extents[d] > 0) {
                seen.lo[size_t(d)] = std::min(seen.lo[size_t(d)], mins[d]);
                seen.hi[size_t(d)] = std::max(seen.hi[size_t(d)], mins[d] + extents[d]);
            }
        }
        push(region, kind, at, cells);
    }

    void push(const Region& region, AnimationEvent::Kind kind, size_t coords, int64_t cost) {
        m_budget -= std::max<int64_t>(1, cost);
        if (m_budget < 0)
            throw Full{};
        Raw raw;
        raw.coords = int64_t(coords);
        raw.seen = m_local[size_t(region.buffer)];
        raw.block = int32_t(std::min<int64_t>(region.block, INT32_MAX));
        raw.thread = int32_t(std::min<int64_t>(region.thread, INT32_MAX));
        raw.kind = kind;
        m_blocks = std::max(m_blocks, region.block + 1);
        m_raw.push_back(raw);
    }

    static constexpr int kMaxDrawnRank = 8;
    const int64_t m_zeros[kMaxDrawnRank] = {};
    int64_t m_budget;
    std::map<std::string, std::vector<int64_t>> m_flatShapes;
    std::map<std::string, std::vector<int64_t>> m_tensorShapes;
    int64_t m_blocks = 0;
    std::vector<int32_t> m_local; ///< per trace id, its Seen (-1: not yet)
    std::vector<Seen> m_seen;
    std::vector<Raw> m_raw;
    std::vector<int64_t> m_coords;
};

namespace {

/// Throws when the arguments (`argumentElements` in all) and the buffers `lowered` realizes
/// hold more than `limit` elements.
void checkElements(const LowerResult& lowered, const std::vector<Tensor>& args,
                   double argumentElements, int64_t limit) {
    if (limit <= 0)
        return;
    double elements = argumentElements;
    for (const Stage& stage : lowered.normalized.stages()) {
        if (stage->op.as<PlaceholderOpNode>())
            continue;
        const auto extents = alloc::realizedExtents(lowered, stage->originOp);
        if (!extents)
            continue;
        // Each output not passed in as an argument is a buffer of the region's size.
        for (int k = 0; k < stage->op->numOutputs(); ++k) {
            const bool argument = std::any_of(args.begin(), args.end(), [&](const Tensor& t) {
                return alloc::isOutputOf(t, stage, k);
            });
            if (!argument)
                elements += alloc::elementCount(*extents);
        }
    }
    if (elements <= double(limit))
        return;
    throw UserError("the animation runs the program in the interpreter, which holds every "
                    "element of its arguments and buffers: " +
                    alloc::roughCount(elements) + " here, past the animation's limit of " +
                    alloc::roughCount(double(limit)) +
                    ": try it on smaller sizes, where the loops run the same way");
}

} // namespace

LoopAnimation LoopAnimation::record(const Schedule& schedule, const AnimationOptions& options) {
    const std::vector<Tensor> args =
        options.args.empty() ? defaultArguments(schedule) : options.args;
    const char* const needsConstantShapes =
        "the animation runs the program in the interpreter, which needs constant shapes and "
        "supported types for its arguments";
    const std::optional<double> argumentElements = alloc::argumentElements(args);
    if (!argumentElements)
        throw UserError(needsConstantShapes);
    LowerOptions lowerOptions;
    lowerOptions.rules = options.rules;
    const LowerResult lowered = lower(schedule, args, lowerOptions);
    // Before any buffer is made: the arguments alone can be more than the machine holds.
    checkElements(lowered, args, *argumentElements, options.maxElements);
    std::optional<std::vector<Buffer>> buffers = alloc::argumentBuffers(args);
    if (!buffers)
        throw UserError(needsConstantShapes);

    // The shapes a flat run draws its buffers with.
    std::map<std::string, std::vector<int64_t>> flatShapes;
    for (size_t i = 0; i < args.size() && i < lowered.func.argBuffers.size(); ++i) {
        std::vector<int64_t> shape;
        for (const Expr& extent : args[i].shape())
            if (const std::optional<int64_t> value = asConstInt(extent))
                shape.push_back(*value);
        flatShapes[lowered.func.argBuffers[i].name()] = shape;
    }
    std::map<std::string, std::vector<int64_t>> tensorShapes;
    for (const Stage& stage : lowered.normalized.stages()) {
        if (!stage->op.defined())
            continue;
        const auto extents = alloc::realizedExtents(lowered, stage->originOp);
        for (int k = 0; k < stage->op->numOutputs(); ++k) {
            const Tensor output = stage->op.output(k);
            if (extents)
                flatShapes.emplace(bufferName(output), *extents);
            std::vector<int64_t> shape;
            for (const Expr& extent : output.shape())
                if (const std::optional<int64_t> value = asConstInt(extent))
                    shape.push_back(*value);
            if (shape.size() == output.shape().size())
                tensorShapes.emplace(output.name(), shape);
        }
    }

    auto run = [&](bool flat) {
        LoopAnimation animation;
        animation.m_rules = options.rules;
        animation.m_flat = flat;
        AnimationRecorder recorder(options.maxEvents, flat ? flatShapes : decltype(flatShapes){},
                                   flat ? decltype(tensorShapes){} : tensorShapes);
        Interpreter interpreter(InterpreterOptions{.traceAccesses = true, .observer = &recorder});
        for (size_t i = 0; i < args.size(); ++i) {
            if (flat && i < lowered.func.argBuffers.size())
                interpreter.bindBuffer(lowered.func.argBuffers[i], (*buffers)[i]);
            else if (!flat)
                interpreter.bindTensor(args[i], (*buffers)[i]);
        }
        try {
            interpreter.run(flat ? lowered.func.deviceCode() : lowered.func.afterScheduleOps);
        } catch (const AnimationRecorder::Full&) {
            animation.m_truncated = true;
        }
        recorder.finish(animation);
        return animation;
    };
    // ScheduleOps' output keeps each realize's region in tensor coordinates, but has no
    // barriers: a kernel that needs them runs in its final form, where its threads wait at them
    // as on a GPU. So does a program the interpreter cannot run before its last passes.
    if (hasBarrier(lowered.func.deviceCode()))
        return run(true);
    try {
        return run(false);
    } catch (const UserError&) {
        return run(true);
    }
}

std::string LoopAnimation::describeStep(int64_t step) const {
    if (step < 0 || step >= steps())
        return "before the first step";
    std::string text = "step " + std::to_string(step + 1) + " of " + std::to_string(steps()) +
                       (m_truncated ? "+" : "") + ": ";
    std::string reads;
    std::string write;
    int64_t readCount = 0;
    const AnimationEvent* last = nullptr;
    for (int64_t e = stepBegin(step); e < stepBegin(step + 1); ++e) {
        const AnimationEvent& event = m_events[size_t(e)];
        const AnimatedBuffer& buffer = m_buffers[event.buffer];
        if (event.kind == AnimationEvent::Write) {
            write = buffer.cellName(event.target);
            last = &event;
        } else if (event.kind == AnimationEvent::Read && ++readCount <= 4) {
            reads += (reads.empty() ? "" : ", ") + buffer.cellName(event.target);
        }
    }
    if (readCount > 4)
        reads += ", … (" + std::to_string(readCount) + " reads)";
    text += write.empty() ? "reads " + reads
                          : "computes " + write + (reads.empty() ? "" : " from " + reads);
    if (last && last->block >= 0)
        text +=
            ", block " + std::to_string(last->block) + " thread " + std::to_string(last->thread);
    if (write.empty() && reads.empty())
        text += "nothing";
    return text;
}

// Playing ---------------------------------------------------------------------------------------

AnimationPlayer::AnimationPlayer(std::shared_ptr<const LoopAnimation> animation)
    : m_animation(std::move(animation)) {
    reset();
}

void AnimationPlayer::reset() {
    const auto& buffers = m_animation->buffers();
    m_step = -1;
    m_now.clear();
    m_cells.assign(buffers.size(), {});
    m_coverage.assign(buffers.size(), {});
    m_block.assign(buffers.size(), {});
    m_allocatedNow.assign(buffers.size(), 0);
    m_liveNow.assign(buffers.size(), 0);
    m_peakAllocated.assign(buffers.size(), 0);
    for (size_t b = 0; b < buffers.size(); ++b) {
        const bool argument = buffers[b].role != AnimatedRole::Intermediate;
        const auto cells = size_t(buffers[b].cells());
        m_cells[b].assign(cells, argument ? kCellAllocated : 0);
        if (!argument)
            m_coverage[b].assign(cells, 0);
        if (m_animation->blocks() > 0)
            m_block[b].assign(cells, -1);
        if (argument)
            m_allocatedNow[b] = m_peakAllocated[b] = int64_t(cells);
    }
}

int32_t AnimationPlayer::computedBy(size_t buffer, int64_t cell) const {
    return m_block[buffer].empty() ? -1 : m_block[buffer][size_t(cell)];
}

void AnimationPlayer::apply(const AnimationEvent& event) {
    const size_t b = event.buffer;
    std::vector<uint8_t>& cells = m_cells[b];
    switch (event.kind) {
    case AnimationEvent::Read:
        cells[size_t(event.target)] |= kCellRead;
        return;
    case AnimationEvent::Write: {
        uint8_t& cell = cells[size_t(event.target)];
        if ((cell & kCellAllocated) && !(cell & kCellLive)) {
            cell |= kCellLive;
            ++m_liveNow[b];
        }
        cell |= kCellComputed;
        if (!m_block[b].empty())
            m_block[b][size_t(event.target)] = event.block;
        return;
    }
    case AnimationEvent::Enter:
    case AnimationEvent::Leave: {
        const AnimatedBuffer& buffer = m_animation->buffers()[b];
        const AnimationRegion& region = m_animation->region(event.target);
        const bool enter = event.kind == AnimationEvent::Enter;
        const size_t rank = region.extents.size();
        int64_t count = 1;
        for (int64_t extent : region.extents)
            count *= extent;
        std::vector<int64_t> at(rank, 0);
        for (int64_t k = 0; k < count; ++k) {
            int64_t cell = 0;
            for (size_t d = 0; d < rank; ++d)
                cell = cell * buffer.shape[d] + region.mins[d] + at[d];
            for (size_t d = rank; d-- > 0;) // next index, the last dimension fastest
                if (++at[d] < region.extents[d] || d == 0)
                    break;
                else
                    at[d] = 0;
            uint16_t& cover = m_coverage[b][size_t(cell)];
            if (enter) {
                if (cover++ == 0) {
                    cells[size_t(cell)] |= kCellAllocated;
                    ++m_allocatedNow[b];
                }
            } else if (cover > 0 && --cover == 0) {
                if (cells[size_t(cell)] & kCellLive)
                    --m_liveNow[b];
                cells[size_t(cell)] &= uint8_t(~(kCellAllocated | kCellLive));
                --m_allocatedNow[b];
            }
        }
        m_peakAllocated[b] = std::max(m_peakAllocated[b], m_allocatedNow[b]);
        return;
    }
    }
}

void AnimationPlayer::markNow() {
    for (const auto& [b, cell] : m_now)
        m_cells[b][size_t(cell)] &= uint8_t(~(kCellReadNow | kCellWrittenNow));
    m_now.clear();
    if (m_step < 0)
        return;
    for (int64_t e = m_animation->stepBegin(m_step); e < m_animation->stepBegin(m_step + 1); ++e) {
        const AnimationEvent& event = m_animation->events()[size_t(e)];
        if (event.kind != AnimationEvent::Read && event.kind != AnimationEvent::Write)
            continue;
        m_cells[event.buffer][size_t(event.target)] |=
            event.kind == AnimationEvent::Read ? kCellReadNow : kCellWrittenNow;
        m_now.emplace_back(event.buffer, event.target);
    }
}

void AnimationPlayer::seek(int64_t step) {
    step = std::clamp<int64_t>(step, -1, m_animation->steps() - 1);
    if (step < m_step)
        reset();
    const auto& events = m_animation->events();
    const int64_t from = m_animation->stepBegin(m_step + 1);
    const int64_t to = m_animation->stepBegin(step + 1);
    for (int64_t e = from; e < to; ++e)
        apply(events[size_t(e)]);
    m_step = step;
    markNow();
}

std::string AnimationPlayer::cellColor(AnimatedRole role, uint8_t bits, int32_t block) {
    if (bits & kCellWrittenNow)
        return "#d94801"; // computed now: orange
    if (bits & kCellReadNow)
        return "#2171b5"; // read now: blue
    switch (role) {
    case AnimatedRole::Output:
        if (!(bits & kCellComputed))
            return "#ffffff";
        if (block >= 0) { // a GPU program: the tile of each block in its own colour
            static const char* const kBlocks[kBlockColors] = {"#a6cee3", "#b2df8a", "#fdbf6f",
                                                              "#cab2d6", "#fb9a99", "#ffff99",
                                                              "#8dd3c7", "#d9d9d9"};
            return kBlocks[size_t(block) % kBlockColors];
        }
        return "#9ecae1";
    case AnimatedRole::Intermediate:
        if (bits & kCellLive)
            return "#74c476"; // computed and still allocated
        if (bits & kCellAllocated)
            return "#ffffff";
        return (bits & kCellComputed) ? "#bdbdbd" : "#ececec"; // freed, or never allocated yet
    case AnimatedRole::Input:
        return (bits & kCellRead) ? "#fdd0a2" : "#ffffff";
    }
    return "#ffffff";
}

std::vector<std::pair<std::string, std::string>> AnimationPlayer::legend() {
    return {{cellColor(AnimatedRole::Output, kCellWrittenNow, -1), "computed at this step"},
            {cellColor(AnimatedRole::Input, kCellReadNow, -1), "read at this step"},
            {cellColor(AnimatedRole::Output, kCellComputed, -1),
             "output computed (on a GPU, each block's tile in its own colour)"},
            {cellColor(AnimatedRole::Intermediate, kCellAllocated | kCellLive, -1),
             "live: computed, still allocated"},
            {cellColor(AnimatedRole::Intermediate, kCellComputed, -1), "computed, then freed"},
            {cellColor(AnimatedRole::Intermediate, 0, -1), "not allocated"},
            {cellColor(AnimatedRole::Input, kCellRead, -1), "input read"}};
}

std::string AnimationPlayer::describeCell(size_t buffer, int64_t cell) const {
    const AnimatedBuffer& b = m_animation->buffers()[buffer];
    const uint8_t bits = m_cells[buffer][size_t(cell)];
    std::string text = b.cellName(cell) + ": ";
    std::vector<std::string> states;
    if (bits & kCellWrittenNow)
        states.push_back("computed at this step");
    if (bits & kCellReadNow)
        states.push_back("read at this step");
    if (b.role == AnimatedRole::Intermediate) {
        if (bits & kCellLive)
            states.push_back("live in its buffer");
        else if (bits & kCellAllocated)
            states.push_back("allocated, not yet computed in this entry");
        else
            states.push_back((bits & kCellComputed) ? "computed, then freed" : "not allocated now");
    } else if (b.role == AnimatedRole::Output) {
        if (!(bits & kCellWrittenNow))
            states.push_back((bits & kCellComputed) ? "computed" : "not yet computed");
    } else if (!(bits & kCellReadNow)) {
        states.push_back((bits & kCellRead) ? "read before" : "not read yet");
    }
    const int32_t block = computedBy(buffer, cell);
    if (block >= 0)
        states.push_back("by block " + std::to_string(block));
    for (size_t k = 0; k < states.size(); ++k)
        text += (k ? ", " : "") + states[k];
    return text;
}

namespace {

const char* roleName(AnimatedRole role) {
    switch (role) {
    case AnimatedRole::Output:
        return "output";
    case AnimatedRole::Intermediate:
        return "allocated by the program";
    case AnimatedRole::Input:
        return "input";
    }
    return "";
}

} // namespace

std::string AnimationPlayer::toSvg() const {
    constexpr int kMaxSide = 360;
    constexpr int kWidth = 760;
    const auto& buffers = m_animation->buffers();
    std::ostringstream body;
    int64_t y = 52;
    for (size_t b = 0; b < buffers.size(); ++b) {
        const AnimatedBuffer& buffer = buffers[b];
        const auto [rows, columns] = buffer.drawSize();
        const double cell =
            std::clamp(double(kMaxSide) / double(std::max(rows, columns)), 1.0, 16.0);
        std::string shape;
        for (int64_t extent : buffer.shape)
            shape += (shape.empty() ? "" : " × ") + std::to_string(extent);
        body << "<text x=\"10\" y=\"" << y << "\" font-weight=\"bold\">" << escapeHtml(buffer.name)
             << "</text><text x=\"" << (20 + 8 * buffer.name.size()) << "\" y=\"" << y << "\">("
             << roleName(buffer.role) << ", " << shape;
        if (buffer.role == AnimatedRole::Intermediate)
            body << "; allocated now " << m_allocatedNow[b] << ", live " << m_liveNow[b];
        body << ")</text>\n";
        y += 8;
        for (int64_t at = 0; at < buffer.cells(); ++at) {
            const auto [r, c] = buffer.drawPosition(at);
            const uint8_t bits = m_cells[b][size_t(at)];
            body << "<rect x=\"" << (10 + double(c) * cell) << "\" y=\""
                 << (double(y) + double(r) * cell) << "\" width=\"" << cell << "\" height=\""
                 << cell << "\" fill=\"" << cellColor(buffer.role, bits, computedBy(b, at)) << "\"";
            if (cell >= 4)
                body << " stroke=\"#999\" stroke-width=\"0.5\"";
            body << "><title>" << escapeHtml(describeCell(b, at)) << "</title></rect>\n";
        }
        // A cell too small to see is ringed where this step computes.
        for (const auto& [nowBuffer, at] : m_now)
            if (nowBuffer == b && cell < 6 && (m_cells[b][size_t(at)] & kCellWrittenNow)) {
                const auto [r, c] = buffer.drawPosition(at);
                body << "<circle cx=\"" << (10 + (double(c) + 0.5) * cell) << "\" cy=\""
                     << (double(y) + (double(r) + 0.5) * cell)
                     << "\" r=\"6\" fill=\"none\" stroke=\""
                     << cellColor(buffer.role, kCellWrittenNow, -1) << "\" stroke-width=\"2\"/>\n";
            }
        y += int64_t(double(rows) * cell) + 30;
    }
    const auto legend = AnimationPlayer::legend();
    std::ostringstream os;
    const int64_t height = y + 20 * int64_t(legend.size()) + 10;
    os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << height
       << "\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n"
       << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
       << "<text x=\"10\" y=\"20\" font-weight=\"bold\">Loop nest under "
       << boundRulesName(m_animation->rules()) << "</text>\n"
       << "<text x=\"10\" y=\"38\">" << escapeHtml(m_animation->describeStep(m_step)) << "</text>\n"
       << body.str();
    for (size_t k = 0; k < legend.size(); ++k) {
        os << "<rect x=\"10\" y=\"" << (y + 20 * int64_t(k))
           << "\" width=\"14\" height=\"14\" fill=\"" << legend[k].first
           << "\" stroke=\"#999\"/><text x=\"30\" y=\"" << (y + 20 * int64_t(k) + 12) << "\">"
           << escapeHtml(legend[k].second) << "</text>\n";
    }
    os << "</svg>\n";
    return os.str();
}

std::string AnimationPlayer::toPng() const {
    constexpr int kMaxSide = 360;
    constexpr int kMargin = 4;
    constexpr int kGap = 12;
    const auto& buffers = m_animation->buffers();
    struct Placed {
        int64_t rows, columns;
        int cell;
    };
    std::vector<Placed> placed;
    int width = 0;
    int height = kMargin;
    for (const AnimatedBuffer& buffer : buffers) {
        const auto [rows, columns] = buffer.drawSize();
        const int cell = int(
            std::clamp<int64_t>(kMaxSide / std::max<int64_t>(1, std::max(rows, columns)), 1, 16));
        placed.push_back({rows, columns, cell});
        width = std::max(width, int(columns) * cell + 2 * kMargin);
        height += int(rows) * cell + kGap;
    }
    RgbImage image(width, height);
    int y = kMargin;
    for (size_t b = 0; b < buffers.size(); ++b) {
        const Placed& p = placed[b];
        for (int64_t at = 0; at < buffers[b].cells(); ++at) {
            const auto [r, c] = buffers[b].drawPosition(at);
            const int x = kMargin + int(c) * p.cell;
            const int top = y + int(r) * p.cell;
            const int inset = p.cell >= 5 ? 1 : 0;
            if (inset)
                image.fill(x, top, p.cell, p.cell, 0x999999);
            image.fill(x + inset, top + inset, p.cell - 2 * inset, p.cell - 2 * inset,
                       parseHexColor(
                           cellColor(buffers[b].role, m_cells[b][size_t(at)], computedBy(b, at))));
        }
        // A cell too small to see is framed where this step computes.
        for (const auto& [nowBuffer, at] : m_now)
            if (nowBuffer == b && p.cell < 6 && (m_cells[b][size_t(at)] & kCellWrittenNow)) {
                const auto [r, c] = buffers[b].drawPosition(at);
                const int cx = kMargin + int(c) * p.cell + p.cell / 2;
                const int cy = y + int(r) * p.cell + p.cell / 2;
                const uint32_t ring =
                    parseHexColor(cellColor(buffers[b].role, kCellWrittenNow, -1));
                image.fill(cx - 6, cy - 6, 13, 2, ring);
                image.fill(cx - 6, cy + 5, 13, 2, ring);
                image.fill(cx - 6, cy - 6, 2, 13, ring);
                image.fill(cx + 5, cy - 6, 2, 13, ring);
            }
        y += int(p.rows) * p.cell + kGap;
    }
    return encodePng(image);
}

std::string AnimationPlayer::toJson(int indent) const {
    using Json = nlohmann::ordered_json;
    const LoopAnimation& a = *m_animation;
    Json j;
    j["rules"] = boundRulesName(a.rules());
    j["steps"] = a.steps();
    j["truncated"] = a.truncated();
    j["flat"] = a.flat();
    j["blocks"] = a.blocks();
    j["step"] = m_step + 1; // from 1, as the description
    j["cell_bits"] = {{"allocated", kCellAllocated}, {"live", kCellLive},
                      {"computed", kCellComputed},   {"read", kCellRead},
                      {"read_now", kCellReadNow},    {"computed_now", kCellWrittenNow}};
    j["description"] = a.describeStep(m_step);
    Json buffers = Json::array();
    for (size_t b = 0; b < a.buffers().size(); ++b) {
        const AnimatedBuffer& buffer = a.buffers()[b];
        Json jb;
        jb["name"] = buffer.name;
        jb["role"] = roleName(buffer.role);
        jb["mins"] = buffer.mins;
        jb["shape"] = buffer.shape;
        jb["allocated_now"] = m_allocatedNow[b];
        jb["live_now"] = m_liveNow[b];
        jb["peak_allocated"] = m_peakAllocated[b];
        // Per cell, row-major: AnimationCell bits (1 allocated, 2 live, 4 computed, 8 read,
        // 16 read now, 32 computed now).
        jb["cells"] = m_cells[b];
        buffers.push_back(std::move(jb));
    }
    j["buffers"] = buffers;
    return j.dump(indent);
}

} // namespace bs

/// \file
/// The loop nest animated (issue 18, item 3): one run of the lowered program in the reference
/// interpreter, recorded access by access (runtime/Interpreter.h, AccessObserver), then played
/// back one step at a time. A step is one store, the element a statement computes, together
/// with the loads that fed it; a frame is what every buffer looks like after a step: which
/// elements of the output are computed, which input elements are read, and which elements of
/// each buffer the program allocates are live, computed in an entry of their allocation that is
/// still open (a buffer computed at a loop shows its window moving over the tensor). GPU
/// schedules run block by block as the interpreter emulates them, and each computed element
/// remembers its block, so the blocks' tiles show side by side.
///
/// The run is of ScheduleOps' output, whose realize regions are in tensor coordinates. A kernel
/// with barriers runs in its final flat form instead, so that its threads wait at them as on a
/// GPU (a block's threads load a shared tile together before any reads it); so does a program
/// the interpreter cannot run before its last passes. There each allocation is drawn as
/// allocated, over its realized extents from 0, not over its tensor (LoopAnimation::flat).
///
///     LoopAnimation animation = LoopAnimation::record(schedule, {});
///     AnimationPlayer player(animation);
///     player.seek(animation.steps() - 1);             // the last frame
///     player.cells(0)[cell] & kCellComputed;
#pragma once

#include "analysis/Analysis.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bs {

struct AnimationOptions {
    BoundRules rules = BoundRules::Tvm;
    /// The kernel's arguments (the program's); empty: the schedule's placeholders and outputs.
    std::vector<Tensor> args;
    /// The most events recorded (accesses, plus the elements of every allocation entry); the
    /// run stops there and the animation is marked truncated.
    int64_t maxEvents = 1'000'000;
    /// The most elements the program's arguments and realized buffers may hold in all: the
    /// interpreter holds every one and the player keeps a cell for each, whatever part of the run
    /// is recorded. Past it the animation is refused with a UserError that gives the count.
    /// 0: no limit.
    int64_t maxElements = 32'000'000;
};

enum class AnimatedRole : uint8_t { Output, Intermediate, Input };

/// One buffer of the animation, drawn as a grid over its tensor's coordinates.
struct AnimatedBuffer {
    std::string name;
    AnimatedRole role = AnimatedRole::Intermediate;
    /// The grid: the bounding box of every element accessed and every region allocated, in the
    /// tensor's coordinates (an output's or input's shape; an allocation's may reach past its
    /// tensor where the rules over-compute).
    std::vector<int64_t> mins;
    std::vector<int64_t> shape;
    int64_t cells() const;
    /// `B[3, 7]`: the element of cell `cell` (row-major over `shape`), in tensor coordinates.
    std::string cellName(int64_t cell) const;

    /// How the grid is drawn: rows and columns of cells. One or two dimensions as they are; of
    /// more, one tile per index of the leading dimensions (each tile the last two), tiles laid
    /// out nearly square with a one-cell gap between them.
    std::pair<int64_t, int64_t> drawSize() const;
    /// Where cell `cell` is drawn: its row and column in drawSize().
    std::pair<int64_t, int64_t> drawPosition(int64_t cell) const;
    /// The cell drawn at (`row`, `column`), or -1 for a gap or outside.
    int64_t cellDrawnAt(int64_t row, int64_t column) const;

private:
    struct Tiling {
        int64_t height, width, tiles, tileColumns;
    };
    Tiling tiling() const;
};

struct AnimationEvent {
    enum Kind : uint8_t { Read, Write, Enter, Leave };
    /// Read, Write: the cell (row-major over the buffer's grid); Enter, Leave: the region
    /// (LoopAnimation::region).
    int64_t target = 0;
    int32_t block = -1;  ///< the GPU block, linear over the grid; -1 on the host
    int32_t thread = -1; ///< the thread within its block
    uint16_t buffer = 0;
    Kind kind = Read;
};

/// An allocation entry's region, in cells of its buffer's grid.
struct AnimationRegion {
    std::vector<int64_t> mins;
    std::vector<int64_t> extents;
};

class LoopAnimation {
public:
    /// Lowers `schedule` under the options' rules and records its run. Throws a UserError when
    /// the program cannot run in the interpreter (symbolic shapes, unsupported types).
    static LoopAnimation record(const Schedule& schedule, const AnimationOptions& options = {});
    /// The events recorded (at most AnimationOptions::maxEvents).
    int64_t eventsRecorded() const { return int64_t(m_events.size()); }

    BoundRules rules() const { return m_rules; }
    /// Outputs first, then the program's own buffers, then the inputs, each in order of first
    /// access.
    const std::vector<AnimatedBuffer>& buffers() const { return m_buffers; }
    const std::vector<AnimationEvent>& events() const { return m_events; }
    const AnimationRegion& region(int64_t index) const { return m_regions[size_t(index)]; }
    /// Steps recorded; step s is events [stepBegin(s), stepBegin(s + 1)), ending with its store
    /// (what follows the last store, an allocation's end, belongs to no step).
    int64_t steps() const { return int64_t(m_stepBegin.size()) - 1; }
    int64_t stepBegin(int64_t step) const { return m_stepBegin[size_t(step)]; }
    /// The run went on past options.maxEvents: the steps are its beginning.
    bool truncated() const { return m_truncated; }
    /// Run in its final flat form: allocations are drawn from 0, not over their tensors (see the
    /// file comment).
    bool flat() const { return m_flat; }
    /// GPU blocks run before the recording ended (0 for a CPU program).
    int64_t blocks() const { return m_blocks; }

    /// `step 12 of 4096: computes C[0, 11] from A[0, 3], B[3, 11], block 0 thread 11` (steps
    /// from 1).
    std::string describeStep(int64_t step) const;

private:
    friend class AnimationRecorder;
    BoundRules m_rules = BoundRules::Tvm;
    std::vector<AnimatedBuffer> m_buffers;
    std::vector<AnimationEvent> m_events;
    std::vector<AnimationRegion> m_regions;
    std::vector<int64_t> m_stepBegin{0};
    bool m_truncated = false;
    bool m_flat = false;
    int64_t m_blocks = 0;
};

/// Bits of a frame's cells.
enum AnimationCell : uint8_t {
    /// Inside an entry of its allocation open now (an argument's cells always are).
    kCellAllocated = 1,
    /// Computed in an entry of its allocation that is still open: the value is there to read.
    kCellLive = 2,
    kCellComputed = 4, ///< computed at this step or before
    kCellRead = 8,     ///< read at this step or before
    kCellReadNow = 16,
    kCellWrittenNow = 32,
};

/// The frames of an animation, one at a time: seek() replays the steps (from the start when it
/// goes back), so moving forward costs the steps passed.
class AnimationPlayer {
public:
    explicit AnimationPlayer(std::shared_ptr<const LoopAnimation> animation);

    const LoopAnimation& animation() const { return *m_animation; }
    /// Shows the frame after step `step` (-1: before the first).
    void seek(int64_t step);
    int64_t step() const { return m_step; }

    /// Per cell of buffer `buffer`: AnimationCell bits.
    const std::vector<uint8_t>& cells(size_t buffer) const { return m_cells[buffer]; }
    /// The block that last computed each cell (-1: none, or the host).
    int32_t computedBy(size_t buffer, int64_t cell) const;
    /// Cells of a buffer allocated now, and live now.
    int64_t allocatedNow(size_t buffer) const { return m_allocatedNow[buffer]; }
    int64_t liveNow(size_t buffer) const { return m_liveNow[buffer]; }
    /// The most cells of a buffer allocated at once, up to this step.
    int64_t peakAllocated(size_t buffer) const { return m_peakAllocated[buffer]; }

    /// A cell's colour (`#rrggbb`) for its bits, its buffer's role and the block that computed
    /// it: the SVG's and the app's.
    static std::string cellColor(AnimatedRole role, uint8_t bits, int32_t block);
    /// Blocks' colours repeat after this many (cellColor of block b is that of b % kBlockColors).
    static constexpr int kBlockColors = 8;
    /// What the colours mean: (colour, words), for the SVG's legend and the app's.
    static std::vector<std::pair<std::string, std::string>> legend();
    /// `B[3, 7]: live (computed at this step)`: the cell's state in words.
    std::string describeCell(size_t buffer, int64_t cell) const;

    /// The frame as SVG: a grid per buffer (its cells coloured, a tooltip each), the step in
    /// words and a legend.
    std::string toSvg() const;
    /// The frame as a PNG image: the SVG's grids, one above the other, without text.
    std::string toPng() const;
    /// The frame as JSON: the step (from 1, as describeStep), and per buffer its grid and each
    /// cell's state (AnimationCell bits, named in `cell_bits`).
    std::string toJson(int indent = 2) const;

private:
    void reset();
    void apply(const AnimationEvent& event);
    void markNow();

    std::shared_ptr<const LoopAnimation> m_animation;
    int64_t m_step = -1;
    std::vector<std::vector<uint8_t>> m_cells;
    std::vector<std::vector<uint16_t>> m_coverage; ///< open entries holding each cell
    std::vector<std::vector<int32_t>> m_block;     ///< per computed cell (GPU programs only)
    std::vector<int64_t> m_allocatedNow;
    std::vector<int64_t> m_liveNow;
    std::vector<int64_t> m_peakAllocated;
    /// The cells marked ReadNow or WrittenNow, cleared before the next frame's.
    std::vector<std::pair<size_t, int64_t>> m_now;
};

} // namespace bs

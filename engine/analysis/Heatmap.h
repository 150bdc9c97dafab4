/// \file
/// The heatmap of one buffer (issue 18, item 1): every element of its realized region, with
/// who read it and whether it was computed, over the whole run. The program is lowered under the
/// chosen rules and run once in the reference interpreter with access tracing; each load is
/// attributed to the stage whose `produce` block holds it (runtime/Interpreter.h,
/// BufferTrace::readers). Elements are those of the buffer's largest allocation entry, by
/// offset from the region's mins, so a buffer computed at a loop shows the union of its entries
/// (one iteration's window, all iterations overlaid). The counts match the allocation report's:
/// `allocated` is its allocation, `touched` its touched total (the report counts touched
/// elements under the tvm rules only). The kernel is lowered without the script's own lowering
/// passes and scalar parameters.
#pragma once

#include "analysis/Analysis.h"
#include "runtime/Interpreter.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bs {

struct HeatmapOptions {
    BoundRules rules = BoundRules::Tvm;
    /// The kernel's arguments (the program's); empty: the schedule's placeholders and outputs.
    std::vector<Tensor> args;
    /// One entry of the buffer's allocation (one iteration of the loops around it, from 0) for
    /// heatmapOf() to show; -1: the whole run, every entry overlaid.
    int64_t iteration = -1;
    /// The most work the run may take, as the stores the program makes plus its arguments'
    /// elements (the interpreter traces about 4 million stores a second, with some 40 bytes
    /// for each); a larger program's heatmap is refused with a UserError that gives the
    /// figures. 0: no limit.
    int64_t budget = 32'000'000;
};

struct Heatmap {
    std::string buffer; ///< as lowering allocates it (`T`)
    BoundRules rules = BoundRules::Tvm;
    std::vector<int64_t> shape; ///< the realized region's extents (row-major cells)
    int64_t entries = 0;        ///< times the allocation was entered (attach iterations)
    /// An argument of the kernel (a placeholder, an output): not allocated by the program, an
    /// input's elements not computed by it.
    bool isArgument = false;
    /// The stages that read the buffer; bit k of a cell's `readers` is consumers[k]. The stage
    /// that computes the buffer is not among them (a reduction reads its own partial values).
    std::vector<std::string> consumers;
    std::vector<uint32_t> readers; ///< per cell
    std::vector<uint8_t> written;  ///< per cell: 1 when computed
    /// Per cell: its loads and stores (each vector lane; a reduction stores once per update),
    /// saturating at UINT32_MAX.
    std::vector<uint32_t> reads;
    std::vector<uint32_t> writes;
    /// Per cell, over the whole run of a buffer entered more than once: the first and the last
    /// entry (attach iteration, from 0) that read it; -1 when none did. Empty otherwise.
    std::vector<int32_t> firstReadEntry;
    std::vector<int32_t> lastReadEntry;
    /// The entry shown (from 0), or -1 for the whole run with every entry overlaid.
    int64_t iteration = -1;
    /// The InferBound step that realized the region (BoundSteps::realizeStep, `boundscope
    /// steps`); -1 when there is none (an argument).
    int realizeStep = -1;
    // The legend's counts.
    int64_t allocated = 0;  ///< cells
    int64_t computed = 0;   ///< cells written
    int64_t read = 0;       ///< cells read by some consumer
    int64_t readByMany = 0; ///< cells read by more than one consumer
    int64_t unread = 0;     ///< cells allocated that no consumer reads
    /// Cells read or written by anyone, the stage itself and packed calls included: the
    /// allocation report's touched total (whole run) or the entry's touched count.
    int64_t touched = 0;
    std::vector<int64_t> readBy; ///< cells read by each consumer
    /// The most cells read, and computed, in one entry (one iteration of the loops around the
    /// allocation): what one iteration needs against what it computes.
    int64_t entryRead = 0;
    int64_t entryComputed = 0;

    /// The colour of consumer `k` (`#rrggbb`, readable with black text), of cells read by
    /// several consumers and of cells read by none: the SVG's and the app's.
    static const char* consumerColor(size_t k);
    static constexpr const char* kSeveralColor = "#6a3d9a";
    static constexpr const char* kUnreadColor = "#f4f4f4";
    /// The colour of cell `cell`: its one consumer's, kSeveralColor or kUnreadColor.
    const char* cellColor(int64_t cell) const;
    /// `T[2, 3]: read by CA, CB (3 reads, in iterations 2-4); computed`: what the cell at
    /// row-major offset `cell` is (iterations from 1, for a buffer entered more than once).
    std::string describeCell(int64_t cell) const;

    std::string toJson(int indent = 2) const;
    /// The grid as SVG: one table of cells per 2-D slice (the leading dimensions enumerated,
    /// at most `maxSlices`), coloured by reader, with the legend and its counts.
    std::string toSvg(int maxSlices = 16) const;
    /// The grid as a PNG image: the slices of the SVG, one above the other, each cell in its
    /// colour with a grey border (light where never computed); no text (the SVG has the legend).
    std::string toPng(int maxSlices = 16) const;
    /// A few lines for a terminal: the counts, and for a 1-D or 2-D buffer of at most 64 columns
    /// the grid as characters (a consumer's letter, `*` read by several, `.` never read).
    std::string toText() const;
};

/// One traced run of a program, from which the heatmap of each of its buffers is read: the
/// app keeps one per analysis, the report draws several from one.
class HeatmapRun {
public:
    /// Lowers `schedule` under the options' rules and runs it traced. Throws a UserError when
    /// the program cannot run in the interpreter, or its work is past options.budget. With `focus`
    /// (a stage) and options.iteration, the run also records that entry of the stage's buffer
    /// alone.
    HeatmapRun(const Schedule& schedule, const HeatmapOptions& options,
               const std::string& focus = {});
    ~HeatmapRun();
    /// The heatmap of stage `stage`'s buffer over the whole run, or the focused entry's when
    /// `stage` is the focus; throws as heatmapOf().
    Heatmap heatmap(const std::string& stage) const;

    /// What the run records besides the trace (Heatmap.cpp).
    struct Cells;
    class Recorder;

private:
    Schedule m_schedule;
    BoundRules m_rules;
    std::vector<Tensor> m_args;
    LowerResult m_lowered;
    RunResult m_run;
    std::string m_focus;
    int64_t m_iteration = -1;
    std::unique_ptr<Recorder> m_recorder;
};

/// Throws the UserError heatmapOf() gives for a stage that is not there or has no buffer.
void checkHeatmapStage(const Schedule& schedule, const std::string& stage);

/// The heatmap of the buffer computed by stage `stage` of `schedule`. Throws a UserError that
/// names the problem when there is no such stage, it has no buffer (inlined), or the program
/// cannot run in the interpreter (symbolic shapes, unsupported types) or its work is past
/// options.budget. The run takes as long as the program's interpreter run (a cancellation
/// point every 65,536 iterations).
Heatmap heatmapOf(const Schedule& schedule, const std::string& stage,
                  const HeatmapOptions& options = {});

} // namespace bs

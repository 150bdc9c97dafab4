/// \file
/// The interpreter's compact form of a statement (private to engine/runtime). Before running,
/// the IR is compiled once into flat arrays of small nodes: every Var becomes a slot in a frame
/// array and every buffer a slot in a buffer table, operators are specialised by value class
/// (int64 or double) and width, and vector expressions are split into one scalar tree per lane.
/// Running then hashes nothing and allocates nothing on the scalar path.
#pragma once

#include "ir/Stmt.h"
#include "ir/ThreadTag.h"
#include "runtime/ElementType.h"
#include "support/Check.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bs {

class Buffer;

namespace interp {

/// A scalar value; the compiled node that produced it knows which member is meant. Bools are
/// 0/1 in `i`; unsigned values narrower than 64 bits are kept zero-extended.
union Value {
    int64_t i;
    double f;
};

inline Value intValue(int64_t v) {
    Value r;
    r.i = v;
    return r;
}
inline Value floatValue(double v) {
    Value r;
    r.f = v;
    return r;
}

/// How a result is brought back to its type after an operation computed in int64 / double.
enum class Wrap : uint8_t { None, S8, S16, S32, U8, U16, U32, Bool, F32 };

/// Expression opcodes. `I` ops work on int64 (signed; also unsigned narrower than 64 bits,
/// which are zero-extended), `U` ops on uint64, `F` ops on double. `>` and `>=` are compiled as
/// `<` and `<=` with swapped operands.
enum class XOp : uint8_t {
    ConstI,
    ConstF,
    Slot,
    Let,
    AddI,
    SubI,
    MulI,
    DivI,
    ModI,
    FloorDivI,
    FloorModI,
    MinI,
    MaxI,
    DivU,
    ModU,
    MinU,
    MaxU,
    AddF,
    SubF,
    MulF,
    DivF,
    ModF,
    FloorDivF,
    FloorModF,
    MinF,
    MaxF,
    EqI,
    NeI,
    LtI,
    LeI,
    LtU,
    LeU,
    EqF,
    NeF,
    LtF,
    LeF,
    And,
    Or,
    Not,
    Select,
    IfThenElse,
    IntToFloat,
    UIntToFloat,
    FloatToInt,
    IntToInt,
    FloatToFloat,
    IntToBool,
    FloatToBool,
    Load,
    LoadND,
    Math1,
    Math2,
    Math3,
    AbsI,
    BitAnd,
    BitOr,
    BitXor,
    BitNot,
    Shl,
    ShrS,
    ShrU,
    Popcount,
    IsNan,
    IsInf,
    IsFinite,
    /// A warp shuffle (CUDA's __shfl_down_sync / __shfl_sync): a = the value, b = the lane
    /// offset (down) or source lane (idx), c = the width; imm: 1 for down, 0 for idx.
    WarpShuffle,
};

using MathFn1 = double (*)(double);
using MathFn2 = double (*)(double, double);
using MathFn3 = double (*)(double, double, double);

struct XNode {
    XOp op = XOp::ConstI;
    Wrap wrap = Wrap::None;
    /// Load: the result is a double (else an int64).
    bool floatResult = false;
    /// Children (expression ids), -1 when absent. Load: a = index, b = predicate, c = the
    /// reader (Program::readers, the enclosing `produce` block; -1 outside any). LoadND:
    /// a = first index in Program::lists, b = rank, c = the reader. Let: a = value, b = body.
    int32_t a = -1;
    int32_t b = -1;
    int32_t c = -1;
    /// Slot, Let: the frame slot; Load, LoadND: the buffer slot.
    int32_t slot = -1;
    /// ConstI / ConstF: the constant; Math1/2/3: the function.
    union {
        int64_t imm = 0;
        double fimm;
        MathFn1 fn1;
        MathFn2 fn2;
        MathFn3 fn3;
    };
    /// For messages: the expression this node computes.
    const ExprNode* source = nullptr;
};

enum class SOp : uint8_t {
    NoOp,
    Seq,
    For,
    Let,
    If,
    Assert,
    Evaluate,
    Barrier,
    Store,
    StoreND,
    Allocate,
    Launch,
    BindThread,
    /// `tvm_call_packed(...)` as a statement: aux = the call in Program::packedCalls.
    CallPacked,
};

struct SNode {
    SOp op = SOp::NoOp;
    /// Store/StoreND: the value is a double.
    bool floatValue = false;
    /// For, BindThread: the loop or thread Var's slot; Let: the first slot of the Var;
    /// Store, StoreND: the buffer slot.
    int32_t slot = -1;
    /// Expressions. For: a = min, b = extent. Let: a = first lane value in `lists`, b = lanes.
    /// If, Assert: a = condition. Evaluate: a. Store: a = index, b = value, c = predicate.
    /// StoreND: a = first index in `lists`, b = rank, c = value. BindThread: a = extent.
    /// Seq: a = first child in `lists`, b = count.
    int32_t a = -1;
    int32_t b = -1;
    int32_t c = -1;
    /// Child statements: the body (If: then), and If's else (-1 when absent).
    int32_t body = -1;
    int32_t other = -1;
    /// Allocate: the site; Launch: the kernel; BindThread: the axis (0..5, kThreadAxes order);
    /// Assert: the message in Program::strings.
    int32_t aux = -1;
    const StmtNode* source = nullptr;
};

/// Where an allocation lives when it is inside a kernel.
/// Warp memory is per warp (32 consecutive threads of the block), as TVM's LowerWarpMemory
/// makes it.
enum class ScopeKind : uint8_t { PerLaunch, PerBlock, PerWarp, PerThread };

/// One `allocate` or `realize` of a tensor that is not an argument.
struct AllocSite {
    std::string name;
    Var bufferVar;
    Tensor tensor;
    DataType dtype;
    ElemType elem = ElemType::F32;
    std::string scope;
    ScopeKind kind = ScopeKind::PerLaunch;
    bool inKernel = false;
    /// Realize: one min and extent per dimension; allocate: the extents, whose product is
    /// the flat size (mins empty).
    std::vector<int32_t> mins;
    std::vector<int32_t> extents;
    int32_t bufferSlot = -1;
    const StmtNode* source = nullptr;
};

/// A buffer bound by the caller, by Var (flat) or by Tensor (rank > 1 possible).
struct ArgBinding {
    Var bufferVar;
    Tensor tensor;
    Buffer* buffer = nullptr;
    int32_t bufferSlot = -1;
};

/// The block/thread axes in launch order (SplitHostDevice's kThreadTags).
/// The launch axes, in ir/ThreadTag.h's kThreadTags order.
inline constexpr int kThreadAxes = int(kThreadTags.size());

/// One outermost thread_extent nest.
struct Kernel {
    /// Every extent given to each axis in the nest, compiled in the launching scope; the
    /// launch uses the largest (SplitHostDevice's rule), 1 when none.
    std::vector<int32_t> extents[kThreadAxes];
    /// The slot of every thread variable of the nest with its axis: as CUDA's builtins, a
    /// thread index is defined throughout its kernel, also outside its own thread_extent
    /// (a local stage attached at threadIdx.y may use threadIdx.x in its region).
    std::vector<std::pair<int, int32_t>> threadSlots;
    int32_t body = -1;
    bool hasBarrier = false;
    /// Sites that live per block / per launch inside this kernel.
    std::vector<int32_t> perBlockSites;
    std::vector<int32_t> perLaunchSites;
    const StmtNode* source = nullptr;
};

/// One argument of a packed call: a value (an int, a float, a string) or a buffer, as an
/// opaque handle or as an array (`tvm_stack_make_array`: shape and element offset compiled).
struct PackedCallArg {
    enum class Kind : uint8_t { Int, Float, String, Handle, Array } kind = Kind::Int;
    int32_t expr = -1;            ///< Int, Float: the value
    std::string text;             ///< String
    int32_t bufferSlot = -1;      ///< Handle, Array
    std::vector<int32_t> shape;   ///< Array: one expression per dimension
    std::vector<int32_t> strides; ///< Array: one expression per dimension, or none (row-major)
    int32_t elemOffset = -1;      ///< Array
    DataType dtype;               ///< Array: the element type
};

struct PackedCall {
    std::string name;
    std::vector<PackedCallArg> args;
    /// The reader of its array arguments (Program::readers; -1 outside any produce block).
    int32_t reader = -1;
};

/// A scalar bound by the caller.
struct ScalarInit {
    int32_t slot;
    Value value;
};

struct Program {
    std::vector<XNode> exprs;
    std::vector<SNode> stmts;
    /// Id lists referred to by nodes (Seq children, N-d indices, vector Let lanes).
    std::vector<int32_t> lists;
    std::vector<std::string> strings;
    std::vector<AllocSite> sites;
    std::vector<ArgBinding> args;
    std::vector<Kernel> kernels;
    std::vector<ScalarInit> scalars;
    std::vector<PackedCall> packedCalls;
    /// The stages of the `produce` blocks that hold loads (BufferTrace::readers' bits).
    std::vector<std::string> readers;
    int32_t numSlots = 0;
    int32_t numBufferSlots = 0;
    int32_t root = -1;
};

/// The largest rank of a realize or tensor argument the interpreter handles.
inline constexpr int kMaxRank = 8;

/// The first line of a statement's text, for messages (`C[i] = B[i]`, `for (i, 0, 10) {`).
std::string describeStmt(const StmtNode* stmt);

} // namespace interp
} // namespace bs

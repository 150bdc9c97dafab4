/// Evaluating compiled expressions. Integer operations compute in int64 with wrap-around
/// (unsigned arithmetic, so overflow is defined) and then wrap to the type's width, as the
/// code generators' fixed-width instructions do; float32 results are rounded after every
/// operation.
#include "runtime/InterpreterExecutor.h"

#include "ir/Op.h"

#include <bit>
#include <cmath>

namespace bs::interp {

namespace {

inline int64_t wrapInt(Wrap w, int64_t v) {
    switch (w) {
    case Wrap::S8:
        return int8_t(uint8_t(v));
    case Wrap::S16:
        return int16_t(uint16_t(v));
    case Wrap::S32:
        return int32_t(uint32_t(v));
    case Wrap::U8:
        return v & 0xFF;
    case Wrap::U16:
        return v & 0xFFFF;
    case Wrap::U32:
        return v & 0xFFFFFFFFll;
    case Wrap::Bool:
        return v != 0;
    default:
        return v;
    }
}

inline double wrapFloat(Wrap w, double v) { return w == Wrap::F32 ? double(float(v)) : v; }

/// The bits of a value of the node's width, for popcount.
inline uint64_t widthBits(Wrap w, int64_t v) {
    switch (w) {
    case Wrap::S8:
    case Wrap::U8:
        return uint64_t(v) & 0xFF;
    case Wrap::S16:
    case Wrap::U16:
        return uint64_t(v) & 0xFFFF;
    case Wrap::S32:
    case Wrap::U32:
        return uint64_t(v) & 0xFFFFFFFFull;
    default:
        return uint64_t(v);
    }
}

inline int64_t add(int64_t a, int64_t b) { return int64_t(uint64_t(a) + uint64_t(b)); }
inline int64_t sub(int64_t a, int64_t b) { return int64_t(uint64_t(a) - uint64_t(b)); }
inline int64_t mul(int64_t a, int64_t b) { return int64_t(uint64_t(a) * uint64_t(b)); }

// Division and remainder: ir/Op.h's truncDivInt, truncModInt, floorDivInt, floorModInt.

inline int shiftAmount(int64_t b) { return int(uint64_t(b) & 63); }

} // namespace

// One switch over every opcode, longer than a function should be, so that evaluating a node
// costs one indirect jump: this is the interpreter's hot loop, and the differential tests run
// hundreds of schedules through it, so it must do tens of millions of operations per second.
Value Executor::eval(int32_t id) {
    const XNode& n = m_x[id];
    switch (n.op) {
    case XOp::ConstI:
        return intValue(n.imm);
    case XOp::ConstF:
        return floatValue(n.fimm);
    case XOp::Slot:
        return m_slots[n.slot];
    case XOp::Let:
        m_slots[n.slot] = eval(n.a);
        return eval(n.b);

    case XOp::AddI:
        return intValue(wrapInt(n.wrap, add(eval(n.a).i, eval(n.b).i)));
    case XOp::SubI:
        return intValue(wrapInt(n.wrap, sub(eval(n.a).i, eval(n.b).i)));
    case XOp::MulI:
        return intValue(wrapInt(n.wrap, mul(eval(n.a).i, eval(n.b).i)));
    case XOp::DivI:
    case XOp::ModI:
    case XOp::FloorDivI:
    case XOp::FloorModI: {
        int64_t a = eval(n.a).i;
        int64_t b = eval(n.b).i;
        if (b == 0)
            divisionByZero(n);
        int64_t r = n.op == XOp::DivI        ? truncDivInt(a, b)
                    : n.op == XOp::ModI      ? truncModInt(a, b)
                    : n.op == XOp::FloorDivI ? floorDivInt(a, b)
                                             : floorModInt(a, b);
        return intValue(wrapInt(n.wrap, r));
    }
    case XOp::MinI:
        return intValue(std::min(eval(n.a).i, eval(n.b).i));
    case XOp::MaxI:
        return intValue(std::max(eval(n.a).i, eval(n.b).i));
    case XOp::DivU:
    case XOp::ModU: {
        uint64_t a = uint64_t(eval(n.a).i);
        uint64_t b = uint64_t(eval(n.b).i);
        if (b == 0)
            divisionByZero(n);
        return intValue(int64_t(n.op == XOp::DivU ? a / b : a % b));
    }
    case XOp::MinU:
        return intValue(int64_t(std::min(uint64_t(eval(n.a).i), uint64_t(eval(n.b).i))));
    case XOp::MaxU:
        return intValue(int64_t(std::max(uint64_t(eval(n.a).i), uint64_t(eval(n.b).i))));

    case XOp::AddF:
        return floatValue(wrapFloat(n.wrap, eval(n.a).f + eval(n.b).f));
    case XOp::SubF:
        return floatValue(wrapFloat(n.wrap, eval(n.a).f - eval(n.b).f));
    case XOp::MulF:
        return floatValue(wrapFloat(n.wrap, eval(n.a).f * eval(n.b).f));
    case XOp::DivF:
        return floatValue(wrapFloat(n.wrap, eval(n.a).f / eval(n.b).f));
    case XOp::ModF:
        return floatValue(wrapFloat(n.wrap, std::fmod(eval(n.a).f, eval(n.b).f)));
    case XOp::FloorDivF:
        return floatValue(wrapFloat(n.wrap, std::floor(eval(n.a).f / eval(n.b).f)));
    case XOp::FloorModF: {
        double a = eval(n.a).f;
        double b = eval(n.b).f;
        return floatValue(wrapFloat(n.wrap, a - std::floor(a / b) * b));
    }
    case XOp::MinF: {
        double a = eval(n.a).f;
        double b = eval(n.b).f;
        return floatValue(b < a ? b : a);
    }
    case XOp::MaxF: {
        double a = eval(n.a).f;
        double b = eval(n.b).f;
        return floatValue(a < b ? b : a);
    }

    case XOp::EqI:
        return intValue(eval(n.a).i == eval(n.b).i);
    case XOp::NeI:
        return intValue(eval(n.a).i != eval(n.b).i);
    case XOp::LtI:
        return intValue(eval(n.a).i < eval(n.b).i);
    case XOp::LeI:
        return intValue(eval(n.a).i <= eval(n.b).i);
    case XOp::LtU:
        return intValue(uint64_t(eval(n.a).i) < uint64_t(eval(n.b).i));
    case XOp::LeU:
        return intValue(uint64_t(eval(n.a).i) <= uint64_t(eval(n.b).i));
    case XOp::EqF:
        return intValue(eval(n.a).f == eval(n.b).f);
    case XOp::NeF:
        return intValue(eval(n.a).f != eval(n.b).f);
    case XOp::LtF:
        return intValue(eval(n.a).f < eval(n.b).f);
    case XOp::LeF:
        return intValue(eval(n.a).f <= eval(n.b).f);

    // Both operands of && and || are evaluated, as TVM's code generators emit them; select
    // (see InterpreterOptions::strictSelect) and if_then_else evaluate the chosen value only.
    case XOp::And: {
        int64_t a = eval(n.a).i;
        int64_t b = eval(n.b).i;
        return intValue(a != 0 && b != 0);
    }
    case XOp::Or: {
        int64_t a = eval(n.a).i;
        int64_t b = eval(n.b).i;
        return intValue(a != 0 || b != 0);
    }
    case XOp::Not:
        return intValue(eval(n.a).i == 0);
    case XOp::Select: {
        int64_t c = eval(n.a).i;
        if (!m_options.strictSelect)
            return c ? eval(n.b) : eval(n.c);
        Value t = eval(n.b);
        Value f = eval(n.c);
        return c ? t : f;
    }
    case XOp::IfThenElse:
        return eval(n.a).i ? eval(n.b) : eval(n.c);

    case XOp::IntToFloat:
        return floatValue(wrapFloat(n.wrap, double(eval(n.a).i)));
    case XOp::UIntToFloat:
        return floatValue(wrapFloat(n.wrap, double(uint64_t(eval(n.a).i))));
    case XOp::FloatToInt:
        return intValue(wrapInt(n.wrap, doubleToInt(eval(n.a).f)));
    case XOp::IntToInt:
        return intValue(wrapInt(n.wrap, eval(n.a).i));
    case XOp::FloatToFloat:
        return floatValue(wrapFloat(n.wrap, eval(n.a).f));
    case XOp::IntToBool:
        return intValue(eval(n.a).i != 0);
    case XOp::FloatToBool:
        return intValue(eval(n.a).f != 0.0);

    case XOp::Load:
        return load(n);
    case XOp::LoadND:
        return loadND(n);

    case XOp::Math1:
        return floatValue(wrapFloat(n.wrap, n.fn1(eval(n.a).f)));
    case XOp::Math2: {
        double a = eval(n.a).f;
        double b = eval(n.b).f;
        return floatValue(wrapFloat(n.wrap, n.fn2(a, b)));
    }
    case XOp::Math3: {
        double a = eval(n.a).f;
        double b = eval(n.b).f;
        double c = eval(n.c).f;
        return floatValue(wrapFloat(n.wrap, n.fn3(a, b, c)));
    }
    case XOp::AbsI: {
        int64_t a = eval(n.a).i;
        return intValue(wrapInt(n.wrap, a < 0 ? sub(0, a) : a));
    }
    case XOp::BitAnd:
        return intValue(wrapInt(n.wrap, eval(n.a).i & eval(n.b).i));
    case XOp::BitOr:
        return intValue(wrapInt(n.wrap, eval(n.a).i | eval(n.b).i));
    case XOp::BitXor:
        return intValue(wrapInt(n.wrap, eval(n.a).i ^ eval(n.b).i));
    case XOp::BitNot:
        return intValue(wrapInt(n.wrap, ~eval(n.a).i));
    case XOp::Shl: {
        int64_t a = eval(n.a).i;
        return intValue(wrapInt(n.wrap, int64_t(uint64_t(a) << shiftAmount(eval(n.b).i))));
    }
    case XOp::ShrS: {
        int64_t a = eval(n.a).i;
        return intValue(wrapInt(n.wrap, a >> shiftAmount(eval(n.b).i)));
    }
    case XOp::ShrU: {
        int64_t a = eval(n.a).i;
        return intValue(wrapInt(n.wrap, int64_t(uint64_t(a) >> shiftAmount(eval(n.b).i))));
    }
    case XOp::Popcount:
        return intValue(std::popcount(widthBits(n.wrap, eval(n.a).i)));
    case XOp::WarpShuffle:
        return warpShuffle(n, id);
    case XOp::IsNan:
        return intValue(std::isnan(eval(n.a).f));
    case XOp::IsInf:
        return intValue(std::isinf(eval(n.a).f));
    case XOp::IsFinite:
        return intValue(std::isfinite(eval(n.a).f));
    }
    BS_UNREACHABLE("unknown expression opcode " << int(n.op));
}

Value Executor::load(const XNode& n) {
    // A masked-off lane reads nothing (its value is unspecified; 0 here).
    if (n.b >= 0 && eval(n.b).i == 0)
        return intValue(0);
    int64_t index = eval(n.a).i;
    Storage& s = *m_bufs[n.slot];
    if (uint64_t(index) >= uint64_t(s.size))
        outOfBounds(s, &index, 1, false);
    ++m_loads;
    if (m_trace)
        touch(s, index, kElementRead, n.c);
    if (n.floatResult)
        return floatValue(readElemDouble(s.data, s.elem, index));
    return intValue(readElemInt(s.data, s.elem, index));
}

Value Executor::loadND(const XNode& n) {
    Storage& s = *m_bufs[n.slot];
    int64_t index = flatIndex(s, n.a, n.b, false);
    ++m_loads;
    if (m_trace)
        touch(s, index, kElementRead, n.c);
    if (n.floatResult)
        return floatValue(readElemDouble(s.data, s.elem, index));
    return intValue(readElemInt(s.data, s.elem, index));
}

int64_t Executor::flatIndex(const Storage& s, int32_t first, int32_t rank, bool isWrite) {
    if (rank != s.rank)
        fail("access to " + *s.name + " with " + std::to_string(rank) + " indices, but it has " +
             std::to_string(s.rank) + " dimensions");
    int64_t indices[kMaxRank];
    int64_t flat = 0;
    bool inside = true;
    for (int d = 0; d < rank; ++d) {
        indices[d] = eval(m_lists[first + d]).i;
        int64_t relative = indices[d] - s.mins[d];
        inside = inside && relative >= 0 && relative < s.extents[d];
        flat = flat * s.extents[d] + relative;
    }
    if (!inside)
        outOfBounds(s, indices, rank, isWrite);
    return flat;
}

} // namespace bs::interp

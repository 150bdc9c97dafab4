#include "ir/Op.h"

#include "support/Check.h"

#include <cmath>
#include <limits>

namespace bs {

Expr makeConst(DataType type, int64_t value) {
    if (type.isVector())
        return BroadcastNode::make(makeConst(type.element(), value), type.lanes());
    if (type.isFloat())
        return FloatImmNode::make(type, double(value));
    if (type.isBool())
        return IntImmNode::make(type, value != 0);
    return IntImmNode::make(type, value);
}

Expr makeConst(DataType type, double value) {
    if (type.isVector())
        return BroadcastNode::make(makeConst(type.element(), value), type.lanes());
    if (type.isFloat())
        return FloatImmNode::make(type, value);
    return makeConst(type, int64_t(value));
}

Expr makeZero(DataType type) { return makeConst(type, int64_t(0)); }
Expr makeOne(DataType type) { return makeConst(type, int64_t(1)); }
Expr makeBool(bool value) { return IntImmNode::make(DataType::boolean(), value ? 1 : 0); }

std::optional<int64_t> asConstInt(const Expr& e) {
    if (const auto* imm = e.as<IntImmNode>())
        return imm->value;
    return std::nullopt;
}

bool isConstInt(const Expr& e, int64_t value) {
    auto v = asConstInt(e);
    return v && *v == value;
}

namespace {
std::optional<double> asConstFloat(const Expr& e) {
    if (const auto* imm = e.as<FloatImmNode>())
        return imm->value;
    return std::nullopt;
}
bool isConstValue(const Expr& e, int64_t value) {
    if (auto v = asConstInt(e))
        return *v == value;
    if (auto f = asConstFloat(e))
        return *f == double(value);
    return false;
}
} // namespace

bool isZero(const Expr& e) { return isConstValue(e, 0); }
bool isOne(const Expr& e) { return isConstValue(e, 1); }
bool isConst(const Expr& e) { return e.as<IntImmNode>() || e.as<FloatImmNode>(); }

Expr minValue(DataType type) {
    if (type.isInt())
        return makeConst(type, type.bits() == 64 ? std::numeric_limits<int64_t>::min()
                                                 : -(int64_t(1) << (type.bits() - 1)));
    if (type.isUInt())
        return makeConst(type, int64_t(0));
    return makeConst(type, -std::numeric_limits<double>::infinity());
}

Expr maxValue(DataType type) {
    if (type.isInt())
        return makeConst(type, type.bits() == 64 ? std::numeric_limits<int64_t>::max()
                                                 : (int64_t(1) << (type.bits() - 1)) - 1);
    if (type.isUInt())
        return makeConst(type, type.bits() >= 63 ? std::numeric_limits<int64_t>::max()
                                                 : (int64_t(1) << type.bits()) - 1);
    return makeConst(type, std::numeric_limits<double>::infinity());
}

Expr cast(DataType type, Expr value) {
    BS_CHECK(value.defined()) << "cast of an undefined value";
    if (value.type() == type)
        return value;
    if (type.isScalar()) {
        if (auto i = asConstInt(value))
            return makeConst(type, *i);
        if (auto f = asConstFloat(value)) {
            if (type.isFloat())
                return makeConst(type, *f);
            return makeConst(type, int64_t(std::trunc(*f)));
        }
    }
    if (type.isVector() && value.type().isScalar())
        return BroadcastNode::make(cast(type.element(), value), type.lanes());
    return CastNode::make(type, value);
}

int64_t wrapToType(DataType t, int64_t v) {
    if (t.isBool())
        return v != 0;
    if (t.bits() >= 64)
        return v;
    uint64_t mask = (uint64_t(1) << t.bits()) - 1;
    uint64_t u = uint64_t(v) & mask;
    if (t.isInt() && (u >> (t.bits() - 1)))
        return int64_t(u | ~mask);
    return int64_t(u);
}

namespace {

/// TVM's BinaryOpMatchTypes: bring both operands to one type.
void matchTypes(Expr& a, Expr& b) {
    BS_CHECK(a.defined() && b.defined()) << "operator on an undefined expression";
    DataType ta = a.type();
    DataType tb = b.type();
    if (ta == tb)
        return;
    if (ta.lanes() != tb.lanes()) {
        if (ta.isScalar())
            a = BroadcastNode::make(a, tb.lanes());
        else if (tb.isScalar())
            b = BroadcastNode::make(b, ta.lanes());
        else
            throw UserError("operands have different vector lanes: " + ta.toString() + " and " +
                            tb.toString());
        ta = a.type();
        tb = b.type();
        if (ta == tb)
            return;
    }
    if (ta.isFloat() && !tb.isFloat()) {
        b = cast(ta, b);
        return;
    }
    if (!ta.isFloat() && tb.isFloat()) {
        a = cast(tb, a);
        return;
    }
    // Same category, different width or signedness: a constant adopts the other side's type,
    // otherwise the narrower side is widened.
    if (isConst(a) && !isConst(b)) {
        a = cast(tb, a);
        return;
    }
    if (isConst(b) && !isConst(a)) {
        b = cast(ta, b);
        return;
    }
    if (ta.bits() < tb.bits() || (ta.bits() == tb.bits() && tb.isInt()))
        a = cast(tb, a);
    else
        b = cast(ta, b);
}

void requireNonZero(const Expr& b, const char* what) {
    if (isZero(b))
        throw UserError(std::string(what) + " by zero");
}

/// Folds `op` when both sides are constants of a scalar type.
template <typename IntOp, typename FloatOp>
std::optional<Expr> foldBoth(const Expr& a, const Expr& b, IntOp intOp, FloatOp floatOp) {
    if (!a.type().isScalar())
        return std::nullopt;
    auto ia = asConstInt(a), ib = asConstInt(b);
    if (ia && ib)
        return makeConst(a.type(), wrapToType(a.type(), intOp(*ia, *ib)));
    auto fa = asConstFloat(a), fb = asConstFloat(b);
    if (fa && fb)
        return makeConst(a.type(), floatOp(*fa, *fb));
    return std::nullopt;
}

template <typename Cmp> std::optional<Expr> foldCompare(const Expr& a, const Expr& b, Cmp cmp) {
    if (!a.type().isScalar())
        return std::nullopt;
    auto ia = asConstInt(a), ib = asConstInt(b);
    if (ia && ib)
        return makeBool(cmp(double(*ia), double(*ib)) && cmp(*ia, *ib));
    auto fa = asConstFloat(a), fb = asConstFloat(b);
    if (fa && fb)
        return makeBool(cmp(*fa, *fb));
    return std::nullopt;
}

} // namespace

Expr operator+(Expr a, Expr b) {
    matchTypes(a, b);
    if (auto f = foldBoth(
            a, b, [](int64_t x, int64_t y) { return x + y; },
            [](double x, double y) { return x + y; }))
        return *f;
    if (isZero(a))
        return b;
    if (isZero(b))
        return a;
    return AddNode::make(a, b);
}

Expr operator-(Expr a, Expr b) {
    matchTypes(a, b);
    if (auto f = foldBoth(
            a, b, [](int64_t x, int64_t y) { return x - y; },
            [](double x, double y) { return x - y; }))
        return *f;
    if (isZero(b))
        return a;
    return SubNode::make(a, b);
}

Expr operator-(Expr a) {
    if (auto i = asConstInt(a))
        return makeConst(a.type(), wrapToType(a.type(), -*i));
    if (auto f = asConstFloat(a))
        return makeConst(a.type(), -*f);
    return makeZero(a.type()) - a;
}

Expr operator*(Expr a, Expr b) {
    matchTypes(a, b);
    if (auto f = foldBoth(
            a, b, [](int64_t x, int64_t y) { return x * y; },
            [](double x, double y) { return x * y; }))
        return *f;
    if (isOne(a))
        return b;
    if (isOne(b))
        return a;
    if (isZero(a) && a.type().isIntegral())
        return a;
    if (isZero(b) && b.type().isIntegral())
        return b;
    return MulNode::make(a, b);
}

Expr truncdiv(Expr a, Expr b) {
    matchTypes(a, b);
    requireNonZero(b, "division");
    if (auto f = foldBoth(a, b, truncDivInt, [](double x, double y) { return x / y; }))
        return *f;
    if (isZero(a) && a.type().isIntegral())
        return a;
    if (isOne(b))
        return a;
    return DivNode::make(a, b);
}

Expr truncmod(Expr a, Expr b) {
    matchTypes(a, b);
    requireNonZero(b, "modulo");
    if (a.type().isFloat())
        throw UserError("modulo of floating-point values of type " + a.type().toString());
    if (auto f = foldBoth(a, b, truncModInt, [](double x, double y) { return std::fmod(x, y); }))
        return *f;
    if (isZero(a))
        return a;
    if (isOne(b))
        return makeZero(a.type());
    return ModNode::make(a, b);
}

Expr operator/(Expr a, Expr b) { return truncdiv(std::move(a), std::move(b)); }
Expr operator%(Expr a, Expr b) { return truncmod(std::move(a), std::move(b)); }

Expr floordiv(Expr a, Expr b) {
    matchTypes(a, b);
    requireNonZero(b, "floor division");
    if (a.type().isFloat())
        return mathCall("floor", {truncdiv(a, b)});
    if (auto f = foldBoth(a, b, floorDivInt, [](double x, double y) { return std::floor(x / y); }))
        return *f;
    if (isZero(a))
        return a;
    if (isOne(b))
        return a;
    return FloorDivNode::make(a, b);
}

Expr floormod(Expr a, Expr b) {
    matchTypes(a, b);
    requireNonZero(b, "floor modulo");
    if (a.type().isFloat())
        throw UserError("floor modulo of floating-point values of type " + a.type().toString());
    if (auto f = foldBoth(a, b, floorModInt,
                          [](double x, double y) { return x - std::floor(x / y) * y; }))
        return *f;
    if (isZero(a))
        return a;
    if (isOne(b))
        return makeZero(a.type());
    return FloorModNode::make(a, b);
}

Expr min(Expr a, Expr b) {
    matchTypes(a, b);
    if (auto f = foldBoth(
            a, b, [](int64_t x, int64_t y) { return std::min(x, y); },
            [](double x, double y) { return std::min(x, y); }))
        return *f;
    return MinNode::make(a, b);
}

Expr max(Expr a, Expr b) {
    matchTypes(a, b);
    if (auto f = foldBoth(
            a, b, [](int64_t x, int64_t y) { return std::max(x, y); },
            [](double x, double y) { return std::max(x, y); }))
        return *f;
    return MaxNode::make(a, b);
}

#define BS_DEFINE_COMPARE(fn, Node, op)                                                            \
    Expr fn(Expr a, Expr b) {                                                                      \
        matchTypes(a, b);                                                                          \
        if (auto f = foldCompare(a, b, [](auto x, auto y) { return x op y; }))                     \
            return *f;                                                                             \
        return Node::make(a, b);                                                                   \
    }
BS_DEFINE_COMPARE(operator<, LTNode, <)
BS_DEFINE_COMPARE(operator<=, LENode, <=)
BS_DEFINE_COMPARE(operator>, GTNode, >)
BS_DEFINE_COMPARE(operator>=, GENode, >=)
BS_DEFINE_COMPARE(eq, EQNode, ==)
BS_DEFINE_COMPARE(ne, NENode, !=)
#undef BS_DEFINE_COMPARE

namespace {
Expr toBool(Expr e) {
    if (e.type().isBool())
        return e;
    return ne(e, makeZero(e.type()));
}
} // namespace

Expr operator&&(Expr a, Expr b) {
    a = toBool(a);
    b = toBool(b);
    auto ca = asConstInt(a), cb = asConstInt(b);
    if (ca)
        return *ca ? b : a;
    if (cb)
        return *cb ? a : b;
    return AndNode::make(a, b);
}

Expr operator||(Expr a, Expr b) {
    a = toBool(a);
    b = toBool(b);
    auto ca = asConstInt(a), cb = asConstInt(b);
    if (ca)
        return *ca ? a : b;
    if (cb)
        return *cb ? b : a;
    return OrNode::make(a, b);
}

Expr operator!(Expr a) {
    a = toBool(a);
    if (auto c = asConstInt(a))
        return makeBool(*c == 0);
    return NotNode::make(a);
}

Expr select(Expr condition, Expr trueValue, Expr falseValue) {
    condition = toBool(condition);
    matchTypes(trueValue, falseValue);
    if (auto c = asConstInt(condition))
        return *c ? trueValue : falseValue;
    return SelectNode::make(condition, trueValue, falseValue);
}

Expr likely(Expr condition) {
    condition = toBool(condition);
    if (isConst(condition))
        return condition;
    return CallNode::make(DataType::boolean(), "likely", {condition}, CallKind::Intrinsic);
}

Expr vscale() { return CallNode::make(DataType::int32(), "vscale", {}, CallKind::Intrinsic); }

Expr mathCall(const std::string& name, std::vector<Expr> args) {
    if (args.empty())
        throw UserError("math function " + name + " needs an argument");
    DataType t = args[0].type();
    if (!t.isFloat()) {
        t = DataType::float32().withLanes(t.lanes());
        for (Expr& a : args)
            a = cast(t, a);
    }
    return CallNode::make(t, name, std::move(args), CallKind::PureExtern);
}

} // namespace bs

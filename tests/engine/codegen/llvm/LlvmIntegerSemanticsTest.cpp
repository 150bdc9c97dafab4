// Every integer operator of the IR, compiled by the LLVM code generator, against C++ on
// negative and positive operands of each integer type: `/` and `%` truncate, floordiv and
// floormod round towards minus infinity on signed types, comparisons and shifts follow the
// signedness of the type. Scalar and 8-lane vector code are both checked.
#include "LlvmTestUtil.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <type_traits>

using namespace bs;
using namespace bs::test;

namespace {

template <typename T> DataType dtypeOf() {
    return DataType(std::is_signed_v<T> ? DataType::Code::Int : DataType::Code::UInt,
                    int(sizeof(T) * 8));
}

template <typename T> T floorDivRef(T a, T b) {
    T q = T(a / b);
    return (a % b != 0 && ((a < 0) != (b < 0))) ? T(q - 1) : q;
}

template <typename T> T floorModRef(T a, T b) {
    T r = T(a % b);
    return (r != 0 && ((r < 0) != (b < 0))) ? T(r + b) : r;
}

/// One operator: how to build it from (a, b, s) and what C++ gives. `s` is a valid shift
/// amount (0 <= s < bits).
template <typename T> struct IntOp {
    std::string name;
    std::function<Expr(Expr, Expr, Expr)> build;
    std::function<T(T, T, T)> reference;
};

Expr intrinsic(const char* name, std::vector<Expr> args) {
    DataType type = args[0].type();
    return CallNode::make(type, name, std::move(args), CallKind::Intrinsic);
}

template <typename T> std::vector<IntOp<T>> integerOps() {
    DataType t = dtypeOf<T>();
    auto asT = [t](Expr boolean) {
        return CastNode::make(t.withLanes(boolean.type().lanes()), boolean);
    };
    return {
        {"add", [](Expr a, Expr b, Expr) { return AddNode::make(a, b); },
         [](T a, T b, T) { return T(a + b); }},
        {"sub", [](Expr a, Expr b, Expr) { return SubNode::make(a, b); },
         [](T a, T b, T) { return T(a - b); }},
        {"mul", [](Expr a, Expr b, Expr) { return MulNode::make(a, b); },
         [](T a, T b, T) { return T(a * b); }},
        {"div", [](Expr a, Expr b, Expr) { return DivNode::make(a, b); },
         [](T a, T b, T) { return T(a / b); }},
        {"mod", [](Expr a, Expr b, Expr) { return ModNode::make(a, b); },
         [](T a, T b, T) { return T(a % b); }},
        {"floordiv", [](Expr a, Expr b, Expr) { return FloorDivNode::make(a, b); },
         [](T a, T b, T) { return floorDivRef(a, b); }},
        {"floormod", [](Expr a, Expr b, Expr) { return FloorModNode::make(a, b); },
         [](T a, T b, T) { return floorModRef(a, b); }},
        {"min", [](Expr a, Expr b, Expr) { return MinNode::make(a, b); },
         [](T a, T b, T) { return std::min(a, b); }},
        {"max", [](Expr a, Expr b, Expr) { return MaxNode::make(a, b); },
         [](T a, T b, T) { return std::max(a, b); }},
        {"eq", [=](Expr a, Expr b, Expr) { return asT(EQNode::make(a, b)); },
         [](T a, T b, T) { return T(a == b); }},
        {"ne", [=](Expr a, Expr b, Expr) { return asT(NENode::make(a, b)); },
         [](T a, T b, T) { return T(a != b); }},
        {"lt", [=](Expr a, Expr b, Expr) { return asT(LTNode::make(a, b)); },
         [](T a, T b, T) { return T(a < b); }},
        {"le", [=](Expr a, Expr b, Expr) { return asT(LENode::make(a, b)); },
         [](T a, T b, T) { return T(a <= b); }},
        {"gt", [=](Expr a, Expr b, Expr) { return asT(GTNode::make(a, b)); },
         [](T a, T b, T) { return T(a > b); }},
        {"ge", [=](Expr a, Expr b, Expr) { return asT(GENode::make(a, b)); },
         [](T a, T b, T) { return T(a >= b); }},
        {"and_or_not",
         [=](Expr a, Expr b, Expr) {
             Expr zero = makeZero(a.type());
             Expr x = LTNode::make(a, b), y = NENode::make(a, zero);
             return asT(OrNode::make(AndNode::make(x, NotNode::make(y)), AndNode::make(y, x)));
         },
         [](T a, T b, T) { return T((a < b && !(a != 0)) || (a != 0 && a < b)); }},
        {"shift_left",
         [](Expr a, Expr, Expr s) {
             return intrinsic("shift_left", {a, s});
         },
         [](T a, T, T s) { return T(a << s); }},
        {"shift_right",
         [](Expr a, Expr, Expr s) {
             return intrinsic("shift_right", {a, s});
         },
         [](T a, T, T s) { return T(a >> s); }},
        {"bitwise_and",
         [](Expr a, Expr b, Expr) {
             return intrinsic("bitwise_and", {a, b});
         },
         [](T a, T b, T) { return T(a & b); }},
        {"bitwise_or",
         [](Expr a, Expr b, Expr) {
             return intrinsic("bitwise_or", {a, b});
         },
         [](T a, T b, T) { return T(a | b); }},
        {"bitwise_xor",
         [](Expr a, Expr b, Expr) {
             return intrinsic("bitwise_xor", {a, b});
         },
         [](T a, T b, T) { return T(a ^ b); }},
        {"bitwise_not", [](Expr a, Expr, Expr) { return intrinsic("bitwise_not", {a}); },
         [](T a, T, T) { return T(~a); }},
    };
}

/// Operand pairs: every sign combination, exact and inexact divisions, no division by zero
/// and no signed overflow of 32/64-bit arithmetic (which is undefined, as in TVM).
template <typename T> void makeOperands(std::vector<T>& a, std::vector<T>& b, std::vector<T>& s) {
    std::vector<T> lhs, rhs;
    if constexpr (std::is_signed_v<T>)
        lhs = {T(-9), T(-7), T(-6), T(-1), T(0), T(1), T(5), T(6), T(8), T(13)},
        rhs = {T(-4), T(-3), T(-1), T(1), T(2), T(3), T(7)};
    else
        lhs = {T(0), T(1), T(5), T(6), T(8), T(13), T(std::numeric_limits<T>::max() - 2)},
        rhs = {T(1), T(2), T(3), T(7), T(std::numeric_limits<T>::max() / 3)};
    for (T x : lhs)
        for (T y : rhs) {
            a.push_back(x);
            b.push_back(y);
            s.push_back(T(a.size() % (sizeof(T) * 8 - 1)));
        }
    while (a.size() % 8 != 0) { // whole vectors
        a.push_back(T(-3));
        b.push_back(T(2));
        s.push_back(T(1));
    }
}

template <typename T> void checkIntegerOps(int lanes) {
    DataType t = dtypeOf<T>().withLanes(lanes);
    std::vector<T> av, bv, sv;
    makeOperands(av, bv, sv);
    const int count = int(av.size());
    std::vector<IntOp<T>> ops = integerOps<T>();

    Var a = bufferVar("A"), b = bufferVar("B"), s = bufferVar("S"), out = bufferVar("Out");
    Var i("i");
    Expr index = lanes == 1 ? Expr(i) : RampNode::make(i * lanes, 1, lanes);
    std::vector<Stmt> stores;
    for (size_t k = 0; k < ops.size(); ++k) {
        Expr value = ops[k].build(load(a, index, t), load(b, index, t), load(s, index, t));
        Expr offset =
            lanes == 1 ? Expr(int(k) * count) : BroadcastNode::make(int(k) * count, lanes);
        stores.push_back(store(out, value, AddNode::make(offset, index)));
    }
    Stmt body = loop(i, 0, count / lanes, seq(stores));
    JitKernel kernel = compileKernel("int_ops", {a, b, s, out}, {}, body);
    std::vector<T> outv(ops.size() * size_t(count));
    kernel.run(pointers(av, bv, sv, outv));
    for (size_t k = 0; k < ops.size(); ++k)
        for (int x = 0; x < count; ++x)
            ASSERT_EQ(int64_t(outv[k * size_t(count) + size_t(x)]),
                      int64_t(ops[k].reference(av[x], bv[x], sv[x])))
                << t.toString() << " " << ops[k].name << "(" << int64_t(av[x]) << ", "
                << int64_t(bv[x]) << ") shift " << int64_t(sv[x]);
}

template <typename T> class LlvmIntegerSemantics : public ::testing::Test {};
using IntegerTypes =
    ::testing::Types<int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t>;
TYPED_TEST_SUITE(LlvmIntegerSemantics, IntegerTypes);

} // namespace

TYPED_TEST(LlvmIntegerSemantics, ScalarOperatorsMatchCpp) { checkIntegerOps<TypeParam>(1); }

TYPED_TEST(LlvmIntegerSemantics, VectorOperatorsMatchCpp) { checkIntegerOps<TypeParam>(8); }

TEST(LlvmIntegerSemantics, CastsExtendTruncateAndRoundTowardsZero) {
    // Out[0..] = int32(int8 A), int32(uint8 reinterpretation), int8(int32), int32(float), ...
    Var a8 = bufferVar("A8"), a32 = bufferVar("A32"), f = bufferVar("F"), out = bufferVar("Out");
    Var outF = bufferVar("OutF"), i("i");
    DataType i8 = DataType(DataType::Code::Int, 8), u8 = DataType(DataType::Code::UInt, 8);
    DataType i32 = DataType::int32(), f32 = DataType::float32();
    Stmt body = loop(
        i, 0, 4,
        seq({
            store(out, CastNode::make(i32, load(a8, i, i8)), i),
            store(out, CastNode::make(i32, load(a8, i, u8)), 4 + i),
            store(out, CastNode::make(i32, CastNode::make(i8, load(a32, i, i32))), 8 + i),
            store(out, CastNode::make(i32, load(f, i, f32)), 12 + i),
            store(out, CastNode::make(i32, CastNode::make(DataType::boolean(), load(a32, i, i32))),
                  16 + i),
            store(outF, CastNode::make(f32, load(a32, i, i32)), i),
        }));
    JitKernel kernel = compileKernel("casts", {a8, a32, f, out, outF}, {}, body);
    std::vector<int8_t> a8v = {-1, -128, 127, 5};
    std::vector<int32_t> a32v = {-1, 300, -129, 0};
    std::vector<float> fv = {-2.7f, 2.7f, -0.5f, 7.0f}, outFv(4);
    std::vector<int32_t> outv(20);
    kernel.run(pointers(a8v, a32v, fv, outv, outFv));
    EXPECT_EQ(outv, (std::vector<int32_t>{-1,  -128, 127, 5, 255, 128, 127, 5, -1, 44,
                                          127, 0,    -2,  2, 0,   7,   1,   1, 1,  0}));
    EXPECT_EQ(outFv, (std::vector<float>{-1.0f, 300.0f, -129.0f, 0.0f}));
}

#include "runtime/Buffer.h"

#include "support/Diagnostic.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace bs;

TEST(Buffer, HasNameTypeShapeAndZeroedStorage) {
    Buffer b("A", DataType::float32(), {4, 3});
    EXPECT_EQ(b.name(), "A");
    EXPECT_EQ(b.dtype(), DataType::float32());
    EXPECT_EQ(b.shape(), (std::vector<int64_t>{4, 3}));
    EXPECT_EQ(b.size(), 12);
    EXPECT_EQ(b.bytes(), 48u);
    for (int64_t i = 0; i < b.size(); ++i)
        EXPECT_EQ(b.getDouble(i), 0.0);
}

TEST(Buffer, RankZeroBufferHoldsOneElement) {
    Buffer b("s", DataType::int32(), {});
    EXPECT_EQ(b.size(), 1);
    b.set({}, 7);
    EXPECT_EQ(b.getInt(0), 7);
}

TEST(Buffer, EveryIntegerWidthWrapsLikeACast) {
    struct Case {
        DataType type;
        int64_t stored;
        int64_t expected;
    };
    const Case cases[] = {
        {DataType(DataType::Code::Int, 8), 200, -56},
        {DataType(DataType::Code::Int, 16), 40000, -25536},
        {DataType::int32(), int64_t(1) << 32 | 5, 5},
        {DataType::int64(), -3, -3},
        {DataType(DataType::Code::UInt, 8), -1, 255},
        {DataType(DataType::Code::UInt, 16), 65537, 1},
        {DataType(DataType::Code::UInt, 32), -1, 4294967295ll},
        {DataType::boolean(), 5, 1},
    };
    for (const Case& c : cases) {
        Buffer b("B", c.type, {1});
        b.setInt(0, c.stored);
        EXPECT_EQ(b.getInt(0), c.expected) << c.type.toString();
    }
}

TEST(Buffer, FloatElementsRoundAndTruncateWhenReadAsInt) {
    Buffer f("F", DataType::float32(), {2});
    f.setDouble(0, 0.1);
    EXPECT_EQ(f.getDouble(0), double(0.1f));
    f.setDouble(1, -2.75);
    EXPECT_EQ(f.getInt(1), -2);
    Buffer d("D", DataType::float64(), {1});
    d.setDouble(0, 0.1);
    EXPECT_EQ(d.getDouble(0), 0.1);
    Buffer i("I", DataType::int32(), {1});
    i.setDouble(0, -7.9);
    EXPECT_EQ(i.getInt(0), -7);
}

TEST(Buffer, OffsetOfIsRowMajorAndChecksIndices) {
    Buffer b("A", DataType::float32(), {4, 3});
    EXPECT_EQ(b.offsetOf({2, 1}), 7);
    b.set({3, 2}, 5.5);
    EXPECT_EQ(b.getDouble(11), 5.5);
    EXPECT_EQ(b.at({3, 2}), 5.5);
    try {
        b.offsetOf({4, 0});
        FAIL() << "expected an error";
    } catch (const UserError& e) {
        EXPECT_STREQ(e.what(), "buffer 'A': index 4 of dimension 0 is outside [0, 4)");
    }
    EXPECT_THROW(b.offsetOf({1}), UserError);
}

TEST(Buffer, RejectsUnsupportedTypesAndNegativeExtents) {
    try {
        Buffer b("H", DataType(DataType::Code::Float, 16), {2});
        FAIL() << "expected an error";
    } catch (const UserError& e) {
        EXPECT_STREQ(e.what(), "buffer 'H': element type float16 is not supported (int8..int64, "
                               "uint8..uint64, float32, float64, bool)");
    }
    EXPECT_THROW(Buffer("V", DataType::float32().withLanes(4), {2}), UserError);
    EXPECT_THROW(Buffer("N", DataType::float32(), {2, -1}), UserError);
    EXPECT_FALSE(Buffer::isSupportedType(DataType::handle()));
    EXPECT_TRUE(Buffer::isSupportedType(DataType(DataType::Code::UInt, 64)));
}

TEST(Buffer, FillRandomIsDeterministicAndInRange) {
    Buffer a("A", DataType::float32(), {1000});
    Buffer b("B", DataType::float32(), {1000});
    a.fillRandom(42);
    b.fillRandom(42);
    EXPECT_EQ(Buffer::maxAbsDifference(a, b), 0.0);
    b.fillRandom(43);
    EXPECT_GT(Buffer::maxAbsDifference(a, b), 0.0);
    double lo = 1, hi = -1;
    for (int64_t i = 0; i < a.size(); ++i) {
        lo = std::min(lo, a.getDouble(i));
        hi = std::max(hi, a.getDouble(i));
    }
    EXPECT_GE(lo, -1.0);
    EXPECT_LT(hi, 1.0);
    EXPECT_LT(lo, -0.9); // spread over the whole range
    EXPECT_GT(hi, 0.9);

    Buffer ints("I", DataType::int32(), {1000});
    ints.fillRandom(7);
    int64_t imin = 100, imax = -100;
    for (int64_t i = 0; i < ints.size(); ++i) {
        imin = std::min(imin, ints.getInt(i));
        imax = std::max(imax, ints.getInt(i));
    }
    EXPECT_EQ(imin, -8);
    EXPECT_EQ(imax, 8);
}

TEST(Buffer, AllCloseNamesTheFirstMismatch) {
    Buffer a("C", DataType::float32(), {3});
    Buffer e("C_ref", DataType::float32(), {3});
    a.fill(1.0);
    e.fill(1.0);
    std::string why;
    EXPECT_TRUE(Buffer::allClose(a, e, 1e-5, 1e-6, &why));
    a.setDouble(1, 3.5);
    e.setDouble(1, 3.0);
    EXPECT_FALSE(Buffer::allClose(a, e, 1e-5, 1e-6, &why));
    EXPECT_EQ(why, "C[1] = 3.5, expected 3");
    a.setDouble(1, std::nan(""));
    EXPECT_FALSE(Buffer::allClose(a, e));
    EXPECT_THROW(Buffer::allClose(a, Buffer("X", DataType::float32(), {2})), UserError);
}

TEST(Buffer, IdenticalInfinitiesAndNansAreEqualAsNumpyAllcloseSeesThem) {
    Buffer a("A", DataType::float32(), {4});
    Buffer b("B", DataType::float32(), {4});
    for (Buffer* buffer : {&a, &b}) {
        buffer->setDouble(0, -INFINITY);
        buffer->setDouble(1, INFINITY);
        buffer->setDouble(2, NAN);
        buffer->setDouble(3, 1.5);
    }
    std::string mismatch;
    EXPECT_TRUE(Buffer::allClose(a, b, 1e-5, 1e-8, &mismatch)) << mismatch;
    EXPECT_EQ(Buffer::maxAbsDifference(a, b), 0.0);
    // A NaN against a number, or an infinity against another value, is a mismatch.
    b.setDouble(2, 0.0);
    EXPECT_FALSE(Buffer::allClose(a, b, 1e-5, 1e-8, &mismatch));
    EXPECT_EQ(mismatch, "A[2] = nan, expected 0");
    EXPECT_TRUE(std::isinf(Buffer::maxAbsDifference(a, b)));
    b.setDouble(2, NAN);
    b.setDouble(0, INFINITY);
    EXPECT_FALSE(Buffer::allClose(a, b, 1e-5, 1e-8, &mismatch));
    EXPECT_EQ(Buffer::elementDifference(-INFINITY, -INFINITY), 0.0);
    EXPECT_TRUE(std::isinf(Buffer::elementDifference(INFINITY, 1e30)));
    EXPECT_EQ(Buffer::elementDifference(2.0, 1.5), 0.5);
}

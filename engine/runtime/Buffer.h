/// \file
/// Host buffers that kernels and the reference interpreter read and write: a name, an element
/// type, a shape and contiguous row-major storage. Elements are read and written as double or
/// int64 whatever the storage type, so tests and the allocation report need no per-type code.
#pragma once

#include "ir/Type.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bs {

class Buffer {
public:
    /// An empty buffer of no elements (float32, shape {0}).
    Buffer();
    /// A zero-filled buffer. `dtype` must be a scalar int8/16/32/64, uint8/16/32/64,
    /// float32/64 or bool; every extent of `shape` must be non-negative. Throws UserError
    /// otherwise, naming the buffer.
    Buffer(std::string name, DataType dtype, std::vector<int64_t> shape);

    /// True when `dtype` can be stored in a Buffer (see the constructor).
    static bool isSupportedType(DataType dtype);

    const std::string& name() const { return m_name; }
    DataType dtype() const { return m_dtype; }
    const std::vector<int64_t>& shape() const { return m_shape; }
    /// The number of elements (the product of the shape; 1 for a rank-0 buffer).
    int64_t size() const { return m_size; }
    /// Bytes of one element (1 for bool).
    int elementBytes() const { return m_elementBytes; }
    size_t bytes() const { return size_t(m_size) * size_t(m_elementBytes); }

    /// The storage, 8-byte aligned, `bytes()` long.
    void* data() { return m_storage.data(); }
    const void* data() const { return m_storage.data(); }

    /// The row-major offset of `indices`; throws UserError when the rank is wrong or an index
    /// is outside the shape.
    int64_t offsetOf(const std::vector<int64_t>& indices) const;

    /// Element `offset` (row-major) converted to double / to int64 (floats truncate toward
    /// zero). Out-of-range offsets are internal errors (BS_CHECK).
    double getDouble(int64_t offset) const;
    int64_t getInt(int64_t offset) const;
    /// Stores `value` at `offset`, converted to the element type as a C cast would (integers
    /// wrap to their width, floats round to float32 for a float32 buffer, bool is value != 0).
    void setDouble(int64_t offset, double value);
    void setInt(int64_t offset, int64_t value);

    /// N-d conveniences over offsetOf.
    double at(const std::vector<int64_t>& indices) const { return getDouble(offsetOf(indices)); }
    void set(const std::vector<int64_t>& indices, double value) {
        setDouble(offsetOf(indices), value);
    }

    /// Sets every element to `value`.
    void fill(double value);
    /// Deterministic pseudo-random contents from `seed` (the same on every platform): floats
    /// uniform in [-1, 1), signed integers in [-8, 8], unsigned integers in [0, 16], bools 0/1.
    /// Small integers keep sums and products of test programs far from overflow.
    void fillRandom(uint64_t seed);

    /// How far apart two element values are, as numpy's assert_allclose sees them: 0 when they
    /// are the same (NaN and NaN, or infinities of one sign, included), infinite when one is
    /// NaN or infinite and the other is not the same, else |a - b|.
    static double elementDifference(double a, double b);
    /// The largest elementDifference over all elements of two buffers of the same size;
    /// throws UserError when the sizes differ.
    static double maxAbsDifference(const Buffer& a, const Buffer& b);
    /// True when every element of `actual` is within `atol + rtol * |expected|` of
    /// `expected` (by elementDifference: NaN matches NaN, an infinity the same infinity);
    /// otherwise false, with `firstMismatch` (when given) describing the first element that is
    /// not, e.g. `C[17] = 3.5, expected 3`.
    static bool allClose(const Buffer& actual, const Buffer& expected, double rtol = 1e-5,
                         double atol = 1e-6, std::string* firstMismatch = nullptr);

private:
    std::string m_name;
    DataType m_dtype;
    std::vector<int64_t> m_shape;
    int64_t m_size = 0;
    int m_elementBytes = 4;
    std::vector<uint64_t> m_storage;
};

} // namespace bs

#include "runtime/Buffer.h"

#include "runtime/ElementType.h"
#include "support/Check.h"
#include "support/Diagnostic.h"

#include <cmath>
#include <sstream>

namespace bs {

namespace {

ElemType requireElemType(const std::string& name, DataType dtype) {
    ElemType elem;
    if (!elemTypeOf(dtype, &elem))
        throw UserError("buffer '" + name + "': element type " + dtype.toString() +
                        " is not supported (int8..int64, uint8..uint64, float32, float64, bool)");
    return elem;
}

/// SplitMix64: a tiny generator whose output is fixed by its definition, unlike the
/// distributions of <random>, so random test inputs are the same everywhere.
uint64_t splitMix64(uint64_t& state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

} // namespace

Buffer::Buffer() : Buffer("", DataType::float32(), {0}) {}

Buffer::Buffer(std::string name, DataType dtype, std::vector<int64_t> shape)
    : m_name(std::move(name)), m_dtype(dtype), m_shape(std::move(shape)) {
    m_elementBytes = elemBytes(requireElemType(m_name, dtype));
    m_size = 1;
    for (int64_t extent : m_shape) {
        if (extent < 0)
            throw UserError("buffer '" + m_name + "': negative extent " + std::to_string(extent));
        m_size *= extent;
    }
    m_storage.assign((bytes() + 7) / 8, 0);
}

bool Buffer::isSupportedType(DataType dtype) {
    ElemType elem;
    return elemTypeOf(dtype, &elem);
}

int64_t Buffer::offsetOf(const std::vector<int64_t>& indices) const {
    if (indices.size() != m_shape.size())
        throw UserError("buffer '" + m_name + "' has rank " + std::to_string(m_shape.size()) +
                        ", indexed with " + std::to_string(indices.size()) + " indices");
    int64_t offset = 0;
    for (size_t d = 0; d < indices.size(); ++d) {
        if (indices[d] < 0 || indices[d] >= m_shape[d])
            throw UserError("buffer '" + m_name + "': index " + std::to_string(indices[d]) +
                            " of dimension " + std::to_string(d) + " is outside [0, " +
                            std::to_string(m_shape[d]) + ")");
        offset = offset * m_shape[d] + indices[d];
    }
    return offset;
}

double Buffer::getDouble(int64_t offset) const {
    BS_CHECK(offset >= 0 && offset < m_size) << "element " << offset << " of " << m_name;
    ElemType elem;
    elemTypeOf(m_dtype, &elem);
    return readElemDouble(static_cast<const uint8_t*>(data()), elem, offset);
}

int64_t Buffer::getInt(int64_t offset) const {
    BS_CHECK(offset >= 0 && offset < m_size) << "element " << offset << " of " << m_name;
    ElemType elem;
    elemTypeOf(m_dtype, &elem);
    return readElemInt(static_cast<const uint8_t*>(data()), elem, offset);
}

void Buffer::setDouble(int64_t offset, double value) {
    BS_CHECK(offset >= 0 && offset < m_size) << "element " << offset << " of " << m_name;
    ElemType elem;
    elemTypeOf(m_dtype, &elem);
    writeElemDouble(static_cast<uint8_t*>(data()), elem, offset, value);
}

void Buffer::setInt(int64_t offset, int64_t value) {
    BS_CHECK(offset >= 0 && offset < m_size) << "element " << offset << " of " << m_name;
    ElemType elem;
    elemTypeOf(m_dtype, &elem);
    writeElemInt(static_cast<uint8_t*>(data()), elem, offset, value);
}

void Buffer::fill(double value) {
    for (int64_t i = 0; i < m_size; ++i)
        setDouble(i, value);
}

void Buffer::fillRandom(uint64_t seed) {
    uint64_t state = seed;
    for (int64_t i = 0; i < m_size; ++i) {
        uint64_t bits = splitMix64(state);
        if (m_dtype.isFloat())
            setDouble(i, double(bits >> 11) * 0x1.0p-52 - 1.0); // 53 random bits in [-1, 1)
        else if (m_dtype.isBool())
            setInt(i, int64_t(bits >> 63));
        else if (m_dtype.isUInt())
            setInt(i, int64_t(bits % 17));
        else
            setInt(i, int64_t(bits % 17) - 8);
    }
}

double Buffer::maxAbsDifference(const Buffer& a, const Buffer& b) {
    if (a.size() != b.size())
        throw UserError("cannot compare buffer '" + a.name() + "' of " + std::to_string(a.size()) +
                        " elements with '" + b.name() + "' of " + std::to_string(b.size()));
    double worst = 0;
    for (int64_t i = 0; i < a.size(); ++i)
        worst = std::max(worst, elementDifference(a.getDouble(i), b.getDouble(i)));
    return worst;
}

double Buffer::elementDifference(double a, double b) {
    if (a == b || (std::isnan(a) && std::isnan(b)))
        return 0;
    if (std::isnan(a) || std::isnan(b) || std::isinf(a) || std::isinf(b))
        return INFINITY;
    return std::fabs(a - b);
}

bool Buffer::allClose(const Buffer& actual, const Buffer& expected, double rtol, double atol,
                      std::string* firstMismatch) {
    if (actual.size() != expected.size())
        throw UserError("cannot compare buffer '" + actual.name() + "' of " +
                        std::to_string(actual.size()) + " elements with '" + expected.name() +
                        "' of " + std::to_string(expected.size()));
    for (int64_t i = 0; i < actual.size(); ++i) {
        double a = actual.getDouble(i);
        double e = expected.getDouble(i);
        const double difference = elementDifference(a, e);
        if (difference == 0 ||
            (std::isfinite(difference) && difference <= atol + rtol * std::fabs(e)))
            continue;
        if (firstMismatch) {
            std::ostringstream os;
            os << actual.name() << "[" << i << "] = " << a << ", expected " << e;
            *firstMismatch = os.str();
        }
        return false;
    }
    return true;
}

} // namespace bs

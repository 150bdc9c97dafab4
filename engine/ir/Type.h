/// \file
/// Scalar and vector data types of IR values: int8..int64, uint, float16/32/64, bool and handles,
/// each with a lane count (lanes > 1 is a vector, as produced by vectorize).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace bs {

class DataType {
public:
    enum class Code : uint8_t { Int, UInt, Float, Bool, Handle };

    constexpr DataType() = default;
    constexpr DataType(Code code, int bits, int lanes = 1)
        : m_code(code), m_bits(bits), m_lanes(lanes) {}

    static constexpr DataType int32() { return {Code::Int, 32}; }
    static constexpr DataType int64() { return {Code::Int, 64}; }
    static constexpr DataType float32() { return {Code::Float, 32}; }
    static constexpr DataType float64() { return {Code::Float, 64}; }
    static constexpr DataType boolean() { return {Code::Bool, 1}; }
    static constexpr DataType handle() { return {Code::Handle, 64}; }

    constexpr Code code() const { return m_code; }
    constexpr int bits() const { return m_bits; }
    constexpr int lanes() const { return m_lanes; }
    constexpr int bytes() const { return (m_bits + 7) / 8 * m_lanes; }

    constexpr bool isInt() const { return m_code == Code::Int; }
    constexpr bool isUInt() const { return m_code == Code::UInt; }
    /// Int or UInt (not bool).
    constexpr bool isIntegral() const { return m_code == Code::Int || m_code == Code::UInt; }
    constexpr bool isFloat() const { return m_code == Code::Float; }
    constexpr bool isBool() const { return m_code == Code::Bool; }
    constexpr bool isHandle() const { return m_code == Code::Handle; }
    constexpr bool isScalar() const { return m_lanes == 1; }
    constexpr bool isVector() const { return m_lanes > 1; }

    constexpr DataType withLanes(int lanes) const { return {m_code, m_bits, lanes}; }
    constexpr DataType element() const { return withLanes(1); }
    constexpr DataType withBits(int bits) const { return {m_code, bits, m_lanes}; }

    constexpr bool operator==(const DataType& o) const {
        return m_code == o.m_code && m_bits == o.m_bits && m_lanes == o.m_lanes;
    }
    constexpr bool operator!=(const DataType& o) const { return !(*this == o); }

    /// TVM's spelling: `int32`, `float32`, `bool`, `float32x4`, `handle`.
    std::string toString() const;
    /// Parses TVM's spelling (`int32`, `float`, `float32x8`, `uint8`, `bool`); nullopt if invalid.
    static std::optional<DataType> parse(const std::string& text);

private:
    Code m_code = Code::Int;
    int m_bits = 32;
    int m_lanes = 1;
};

} // namespace bs

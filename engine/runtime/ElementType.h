/// \file
/// The element types a Buffer or an interpreter allocation stores, and the conversions between
/// stored elements and the two value classes the interpreter computes with (int64 and double).
/// Shared by Buffer and the interpreter so that both convert exactly alike: integers wrap to
/// their width, float32 rounds, bool is `value != 0` (what a C cast does).
#pragma once

#include "ir/Type.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace bs {

enum class ElemType : uint8_t { I8, I16, I32, I64, U8, U16, U32, U64, F32, F64, Bool };

/// The storage type of scalar `type`, or false when it has none (float16, handles, vectors).
inline bool elemTypeOf(DataType type, ElemType* out) {
    if (type.isVector())
        return false;
    const int bits = type.bits();
    switch (type.code()) {
    case DataType::Code::Bool:
        *out = ElemType::Bool;
        return true;
    case DataType::Code::Float:
        if (bits != 32 && bits != 64)
            return false;
        *out = bits == 32 ? ElemType::F32 : ElemType::F64;
        return true;
    case DataType::Code::Int:
    case DataType::Code::UInt: {
        const bool isSigned = type.isInt();
        switch (bits) {
        case 8:
            *out = isSigned ? ElemType::I8 : ElemType::U8;
            return true;
        case 16:
            *out = isSigned ? ElemType::I16 : ElemType::U16;
            return true;
        case 32:
            *out = isSigned ? ElemType::I32 : ElemType::U32;
            return true;
        case 64:
            *out = isSigned ? ElemType::I64 : ElemType::U64;
            return true;
        default:
            return false;
        }
    }
    default:
        return false;
    }
}

inline int elemBytes(ElemType t) {
    switch (t) {
    case ElemType::I8:
    case ElemType::U8:
    case ElemType::Bool:
        return 1;
    case ElemType::I16:
    case ElemType::U16:
        return 2;
    case ElemType::I32:
    case ElemType::U32:
    case ElemType::F32:
        return 4;
    default:
        return 8;
    }
}

inline bool isFloatElem(ElemType t) { return t == ElemType::F32 || t == ElemType::F64; }

/// A double converted to an integer as C does, except that NaN and values out of the int64
/// range (undefined behaviour in C) saturate instead of trapping.
inline int64_t doubleToInt(double v) {
    if (std::isnan(v))
        return 0;
    if (v >= 9.2233720368547758e18)
        return INT64_MAX;
    if (v <= -9.2233720368547758e18)
        return INT64_MIN;
    return int64_t(v);
}

template <typename T> inline T readRaw(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}

template <typename T> inline void writeRaw(uint8_t* p, T v) { std::memcpy(p, &v, sizeof(T)); }

/// Element `i` of `data` as an integer (floats truncate toward zero).
inline int64_t readElemInt(const uint8_t* data, ElemType t, int64_t i) {
    switch (t) {
    case ElemType::I8:
        return readRaw<int8_t>(data + i);
    case ElemType::I16:
        return readRaw<int16_t>(data + 2 * i);
    case ElemType::I32:
        return readRaw<int32_t>(data + 4 * i);
    case ElemType::I64:
        return readRaw<int64_t>(data + 8 * i);
    case ElemType::U8:
        return readRaw<uint8_t>(data + i);
    case ElemType::U16:
        return readRaw<uint16_t>(data + 2 * i);
    case ElemType::U32:
        return readRaw<uint32_t>(data + 4 * i);
    case ElemType::U64:
        return int64_t(readRaw<uint64_t>(data + 8 * i));
    case ElemType::F32:
        return doubleToInt(readRaw<float>(data + 4 * i));
    case ElemType::F64:
        return doubleToInt(readRaw<double>(data + 8 * i));
    case ElemType::Bool:
        return readRaw<uint8_t>(data + i) != 0;
    }
    return 0;
}

/// Element `i` of `data` as a double (uint64 read as unsigned).
inline double readElemDouble(const uint8_t* data, ElemType t, int64_t i) {
    switch (t) {
    case ElemType::F32:
        return readRaw<float>(data + 4 * i);
    case ElemType::F64:
        return readRaw<double>(data + 8 * i);
    case ElemType::U64:
        return double(readRaw<uint64_t>(data + 8 * i));
    default:
        return double(readElemInt(data, t, i));
    }
}

/// Stores integer `v` as element `i`, wrapping to the element's width.
inline void writeElemInt(uint8_t* data, ElemType t, int64_t i, int64_t v) {
    switch (t) {
    case ElemType::I8:
        writeRaw(data + i, int8_t(uint8_t(v)));
        return;
    case ElemType::I16:
        writeRaw(data + 2 * i, int16_t(uint16_t(v)));
        return;
    case ElemType::I32:
        writeRaw(data + 4 * i, int32_t(uint32_t(v)));
        return;
    case ElemType::I64:
        writeRaw(data + 8 * i, v);
        return;
    case ElemType::U8:
        writeRaw(data + i, uint8_t(v));
        return;
    case ElemType::U16:
        writeRaw(data + 2 * i, uint16_t(v));
        return;
    case ElemType::U32:
        writeRaw(data + 4 * i, uint32_t(v));
        return;
    case ElemType::U64:
        writeRaw(data + 8 * i, uint64_t(v));
        return;
    case ElemType::F32:
        writeRaw(data + 4 * i, float(v));
        return;
    case ElemType::F64:
        writeRaw(data + 8 * i, double(v));
        return;
    case ElemType::Bool:
        writeRaw(data + i, uint8_t(v != 0));
        return;
    }
}

/// Stores double `v` as element `i` (integers truncate toward zero, then wrap).
inline void writeElemDouble(uint8_t* data, ElemType t, int64_t i, double v) {
    switch (t) {
    case ElemType::F32:
        writeRaw(data + 4 * i, float(v));
        return;
    case ElemType::F64:
        writeRaw(data + 8 * i, v);
        return;
    case ElemType::Bool:
        writeRaw(data + i, uint8_t(v != 0.0));
        return;
    case ElemType::U64:
        writeRaw(data + 8 * i, v >= 9.2233720368547758e18 ? uint64_t(v) : uint64_t(doubleToInt(v)));
        return;
    default:
        writeElemInt(data, t, i, doubleToInt(v));
        return;
    }
}

} // namespace bs

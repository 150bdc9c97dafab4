/// \file
/// CUDA C spelling: type names, literals, identifiers and helper functions.

#include "codegen/CudaCodegenInternal.h"

#include "ir/Op.h"

#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string_view>

namespace bs::cuda {

std::string typeName(DataType type) {
    BS_CHECK(type.isScalar()) << "vector type " << type.toString() << " has no scalar C name";
    switch (type.code()) {
    case DataType::Code::Bool:
        return "bool";
    case DataType::Code::Handle:
        return "void*";
    case DataType::Code::Float:
        if (type.bits() == 32)
            return "float";
        if (type.bits() == 64)
            return "double";
        break;
    case DataType::Code::Int:
    case DataType::Code::UInt: {
        std::string prefix = type.isUInt() ? "unsigned " : "";
        switch (type.bits()) {
        case 8:
            return type.isUInt() ? "unsigned char" : "signed char";
        case 16:
            return prefix + "short";
        case 32:
            return prefix + "int";
        case 64:
            return prefix + "long long";
        }
        break;
    }
    }
    throw UserError("the CUDA backend does not support the type " + type.toString());
}

std::string typeName(DataType type, Dialect dialect) {
    std::string name = typeName(type);
    if (dialect == Dialect::Cuda)
        return name;
    // OpenCL C's spellings of the integer types (long is 64 bits there).
    if (name == "signed char")
        return "char";
    if (name == "unsigned char")
        return "uchar";
    if (name == "unsigned short")
        return "ushort";
    if (name == "unsigned int")
        return "uint";
    if (name == "long long")
        return "long";
    if (name == "unsigned long long")
        return "ulong";
    return name;
}

std::optional<std::string> vectorTypeName(DataType type) {
    // float3 and friends are left out: their alignment (4) is not their size (12).
    const int lanes = type.lanes();
    if (type.bits() == 32 && (lanes == 2 || lanes == 4)) {
        if (type.isFloat())
            return "float" + std::to_string(lanes);
        if (type.isInt())
            return "int" + std::to_string(lanes);
        if (type.isUInt())
            return "uint" + std::to_string(lanes);
    }
    if (type.bits() == 64 && lanes == 2 && type.isFloat())
        return std::string("double2");
    return std::nullopt;
}

namespace {

std::string formatScientific(double value, int digits) {
    char buffer[64];
    std::snprintf(buffer, sizeof(buffer), "%.*e", digits, value);
    return buffer;
}

std::string nonFiniteLiteral(DataType type, double value, Dialect dialect) {
    const bool single = type.bits() == 32;
    const bool openCl = dialect == Dialect::OpenCl;
    // The value from its bits: CUDA's reinterpreting intrinsics, OpenCL C's as_float/as_double.
    const std::string cast = single ? (openCl ? "as_float(" : "__int_as_float(")
                                    : (openCl ? "as_double(" : "__longlong_as_double(");
    const std::string suffix = single ? "" : openCl ? "L" : "LL";
    std::string bits = std::isnan(value) ? (single ? "0x7fc00000" : "0x7ff8000000000000")
                                         : (single ? "0x7f800000" : "0x7ff0000000000000");
    bits = cast + bits + suffix + ")";
    return value < 0 ? "(-" + bits + ")" : bits;
}

} // namespace

std::string floatLiteral(DataType type, double value, Dialect dialect) {
    if (type.bits() != 32 && type.bits() != 64)
        typeName(type); // throws: float16 is not supported
    if (!std::isfinite(value))
        return nonFiniteLiteral(type, value, dialect);
    // TVM prints `std::scientific` with six digits; where that loses the value (3.14159265f),
    // print enough digits to give it back exactly.
    const bool single = type.bits() == 32;
    std::string text = formatScientific(value, 6);
    bool exact = single ? std::strtof(text.c_str(), nullptr) == float(value)
                        : std::strtod(text.c_str(), nullptr) == value;
    if (!exact)
        text = formatScientific(value, single ? 8 : 16);
    return single ? text + "f" : text;
}

std::string intLiteral(DataType type, int64_t value, Dialect dialect) {
    if (type.isBool())
        return value ? "true" : "false";
    // OpenCL C has no long long: its 64-bit literals end in L and UL.
    const bool openCl = dialect == Dialect::OpenCl;
    if (type.isUInt()) {
        std::string digits = std::to_string(uint64_t(value));
        return type.bits() == 64   ? digits + (openCl ? "UL" : "ull")
               : type.bits() == 32 ? digits + "u"
                                   : "((" + typeName(type, dialect) + ")" + digits + ")";
    }
    // The most negative value has no literal: `-2147483648` is the negation of a long.
    const char* longSuffix = openCl ? "L" : "LL";
    if (type.bits() == 64) {
        if (value == std::numeric_limits<int64_t>::min())
            return std::string("(-9223372036854775807") + longSuffix + " - 1)";
        return std::to_string(value) + longSuffix;
    }
    if (type.bits() == 32) {
        if (value == std::numeric_limits<int32_t>::min())
            return "(-2147483647 - 1)";
        return std::to_string(value);
    }
    return "((" + typeName(type, dialect) + ")" + std::to_string(value) + ")";
}

bool isMultipleOf(const Expr& e, int64_t n, const VarMap<Expr>* lets) {
    if (n == 1)
        return true;
    if (std::optional<int64_t> value = asConstInt(e))
        return *value % n == 0;
    if (const auto* var = e.as<VarNode>()) {
        auto it = lets ? lets->find(Var(var)) : VarMap<Expr>::const_iterator();
        return lets && it != lets->end() && isMultipleOf(it->second, n, lets);
    }
    if (const auto* mul = e.as<MulNode>())
        return isMultipleOf(mul->a, n, lets) || isMultipleOf(mul->b, n, lets);
    if (const auto* add = e.as<AddNode>())
        return isMultipleOf(add->a, n, lets) && isMultipleOf(add->b, n, lets);
    if (const auto* sub = e.as<SubNode>())
        return isMultipleOf(sub->a, n, lets) && isMultipleOf(sub->b, n, lets);
    return false;
}

bool isWrapped(const std::string& text) {
    if (text.size() < 2 || text.front() != '(' || text.back() != ')')
        return false;
    int depth = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
        if (depth == 0 && i + 1 < text.size())
            return false;
    }
    return true;
}

namespace {

bool isReserved(std::string_view name) {
    static constexpr std::array<std::string_view, 62> kReserved = {
        "auto",      "bool",     "break",     "case",     "char",      "const",    "continue",
        "default",   "do",       "double",    "else",     "enum",      "extern",   "false",
        "float",     "for",      "goto",      "if",       "inline",    "int",      "long",
        "register",  "restrict", "return",    "short",    "signed",    "sizeof",   "static",
        "struct",    "switch",   "true",      "typedef",  "union",     "unsigned", "void",
        "volatile",  "while",    "class",     "new",      "delete",    "this",     "template",
        "namespace", "operator", "private",   "public",   "protected", "virtual",  "friend",
        "using",     "typename", "threadIdx", "blockIdx", "blockDim",  "gridDim",  "warpSize",
        "min",       "max",      "half",      "asm",      "try",       "catch"};
    for (std::string_view r : kReserved) {
        if (name == r)
            return true;
    }
    // Names of built-in vector types (float4, int2, ...) and of our helpers.
    return name.rfind("bs_", 0) == 0 || name.rfind("__", 0) == 0 ||
           (name.size() > 1 && std::isdigit(static_cast<unsigned char>(name.back())) &&
            (name.rfind("float", 0) == 0 || name.rfind("int", 0) == 0 ||
             name.rfind("uint", 0) == 0 || name.rfind("double", 0) == 0 ||
             name.rfind("char", 0) == 0 || name.rfind("short", 0) == 0 ||
             name.rfind("long", 0) == 0 || name.rfind("dim", 0) == 0));
}

} // namespace

std::string NameTable::allocate(const std::string& hint) {
    std::string base;
    for (char c : hint)
        base += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
    if (base.empty() || std::isdigit(static_cast<unsigned char>(base.front())))
        base = "v" + base;
    if (isReserved(base))
        base += '_';
    std::string name = base;
    for (int k = 1; !m_used.insert(name).second; ++k)
        name = base + std::to_string(k);
    return name;
}

namespace {

void replaceAll(std::string& text, const std::string& from, const std::string& to) {
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

const char* cudaHelperSource(Helper helper) {
    switch (helper) {
    case Helper::FloorDivMod:
        // Floor division and modulo (Python's // and %) from C's truncating ones.
        return R"(__device__ __forceinline__ int bs_floordiv(int a, int b) {
  int q = a / b;
  return ((a % b != 0) && ((a < 0) != (b < 0))) ? (q - 1) : q;
}
__device__ __forceinline__ long long bs_floordiv(long long a, long long b) {
  long long q = a / b;
  return ((a % b != 0) && ((a < 0) != (b < 0))) ? (q - 1) : q;
}
__device__ __forceinline__ int bs_floormod(int a, int b) {
  int r = a % b;
  return ((r != 0) && ((r < 0) != (b < 0))) ? (r + b) : r;
}
__device__ __forceinline__ long long bs_floormod(long long a, long long b) {
  long long r = a % b;
  return ((r != 0) && ((r < 0) != (b < 0))) ? (r + b) : r;
}
)";
    }
    BS_UNREACHABLE("unknown helper");
}

} // namespace

std::string helperSource(Helper helper, Dialect dialect) {
    std::string text = cudaHelperSource(helper);
    if (dialect == Dialect::OpenCl) {
        // OpenCL C overloads only functions marked overloadable (a clang extension every
        // clang-based OpenCL compiler has), and its 64-bit integer is `long`.
        replaceAll(text, "__device__ __forceinline__ ", "inline __attribute__((overloadable)) ");
        replaceAll(text, "long long", "long");
    }
    return text;
}

} // namespace bs::cuda

#include "ir/Type.h"

#include <cstdlib>

namespace bs {

std::string DataType::toString() const {
    std::string base;
    switch (m_code) {
    case Code::Int:
        base = "int" + std::to_string(m_bits);
        break;
    case Code::UInt:
        base = "uint" + std::to_string(m_bits);
        break;
    case Code::Float:
        base = "float" + std::to_string(m_bits);
        break;
    case Code::Bool:
        base = "bool";
        break;
    case Code::Handle:
        return "handle";
    }
    if (m_lanes > 1)
        base += "x" + std::to_string(m_lanes);
    return base;
}

std::optional<DataType> DataType::parse(const std::string& text) {
    auto parseNumber = [](const std::string& s, int& out) {
        if (s.empty() || s.size() > 4)
            return false;
        for (char c : s)
            if (c < '0' || c > '9')
                return false;
        out = std::atoi(s.c_str());
        return out > 0;
    };
    std::string body = text;
    int lanes = 1;
    if (auto x = body.find('x'); x != std::string::npos) {
        if (!parseNumber(body.substr(x + 1), lanes))
            return std::nullopt;
        body = body.substr(0, x);
    }
    if (body == "bool")
        return DataType(Code::Bool, 1, lanes);
    if (body == "handle")
        return DataType::handle();
    struct Prefix {
        const char* name;
        Code code;
        int defaultBits;
    };
    for (Prefix p : {Prefix{"uint", Code::UInt, 32}, Prefix{"int", Code::Int, 32},
                     Prefix{"float", Code::Float, 32}}) {
        std::string name = p.name;
        if (body.rfind(name, 0) != 0)
            continue;
        std::string bitsText = body.substr(name.size());
        int bits = p.defaultBits;
        if (!bitsText.empty() && !parseNumber(bitsText, bits))
            return std::nullopt;
        bool valid = p.code == Code::Float ? (bits == 16 || bits == 32 || bits == 64)
                                           : (bits == 8 || bits == 16 || bits == 32 || bits == 64);
        if (!valid)
            return std::nullopt;
        return DataType(p.code, bits, lanes);
    }
    return std::nullopt;
}

} // namespace bs

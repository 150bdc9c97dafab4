#include "support/Png.h"

#include <algorithm>
#include <array>

namespace bs {

RgbImage::RgbImage(int w, int h, uint32_t rgb)
    : width(std::max(1, w)), height(std::max(1, h)), pixels(size_t(width) * size_t(height) * 3) {
    fill(0, 0, width, height, rgb);
}

void RgbImage::fill(int x, int y, int w, int h, uint32_t rgb) {
    const int x0 = std::max(0, x), y0 = std::max(0, y);
    const int x1 = std::min(width, x + w), y1 = std::min(height, y + h);
    for (int row = y0; row < y1; ++row)
        for (int col = x0; col < x1; ++col) {
            uint8_t* p = &pixels[(size_t(row) * size_t(width) + size_t(col)) * 3];
            p[0] = uint8_t(rgb >> 16);
            p[1] = uint8_t(rgb >> 8);
            p[2] = uint8_t(rgb);
        }
}

uint32_t parseHexColor(const std::string& color) {
    if (color.size() != 7 || color[0] != '#')
        return 0;
    uint32_t rgb = 0;
    for (size_t i = 1; i < 7; ++i) {
        const char c = color[i];
        const int digit = c >= '0' && c <= '9'   ? c - '0'
                          : c >= 'a' && c <= 'f' ? c - 'a' + 10
                          : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                 : -1;
        if (digit < 0)
            return 0;
        rgb = rgb * 16 + uint32_t(digit);
    }
    return rgb;
}

namespace {

uint32_t crc32(const std::string& bytes, size_t from) {
    static const std::array<uint32_t, 256> table = [] {
        std::array<uint32_t, 256> t{};
        for (uint32_t n = 0; n < 256; ++n) {
            uint32_t c = n;
            for (int k = 0; k < 8; ++k)
                c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    uint32_t c = 0xffffffffu;
    for (size_t i = from; i < bytes.size(); ++i)
        c = table[(c ^ uint8_t(bytes[i])) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

void putBig32(std::string& out, uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8)
        out += char(uint8_t(v >> shift));
}

void chunk(std::string& out, const char* type, const std::string& data) {
    putBig32(out, uint32_t(data.size()));
    const size_t start = out.size();
    out += type;
    out += data;
    putBig32(out, crc32(out, start));
}

} // namespace

std::string encodePng(const RgbImage& image) {
    // The scanlines, each led by filter type 0 (none).
    std::string raw;
    const size_t stride = size_t(image.width) * 3;
    raw.reserve((stride + 1) * size_t(image.height));
    for (int row = 0; row < image.height; ++row) {
        raw += '\0';
        raw.append(reinterpret_cast<const char*>(&image.pixels[size_t(row) * stride]), stride);
    }
    // A zlib stream of stored deflate blocks (at most 65,535 bytes each).
    std::string z = "\x78\x01";
    for (size_t at = 0; at < raw.size() || at == 0;) {
        const size_t n = std::min<size_t>(65535, raw.size() - at);
        const bool last = at + n >= raw.size();
        z += char(last ? 1 : 0);
        z += char(uint8_t(n));
        z += char(uint8_t(n >> 8));
        z += char(uint8_t(~n));
        z += char(uint8_t(~n >> 8));
        z.append(raw, at, n);
        at += n;
        if (last)
            break;
    }
    uint32_t a = 1, b = 0; // Adler-32
    for (unsigned char c : raw) {
        a = (a + c) % 65521;
        b = (b + a) % 65521;
    }
    putBig32(z, (b << 16) | a);

    std::string png = "\x89PNG\r\n\x1a\n";
    std::string header;
    putBig32(header, uint32_t(image.width));
    putBig32(header, uint32_t(image.height));
    header += char(8);              // bit depth
    header += char(2);              // colour type: RGB
    header += std::string(3, '\0'); // deflate, adaptive filtering, no interlace
    chunk(png, "IHDR", header);
    chunk(png, "IDAT", z);
    chunk(png, "IEND", "");
    return png;
}

} // namespace bs

/// \file
/// PNG files without a compression library: `boundscope heatmap -o OUT.png` and
/// `boundscope animate -o OUT.png` draw their grids as pixels. The image data is stored in
/// uncompressed deflate blocks (a valid PNG any viewer opens; larger than a compressed one),
/// with the CRC-32 and Adler-32 checksums the format requires.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bs {

/// An RGB image, row-major from the top left, 3 bytes per pixel.
struct RgbImage {
    int width = 0;
    int height = 0;
    std::vector<uint8_t> pixels;

    RgbImage(int w, int h, uint32_t fill = 0xffffff);
    /// Fills the rectangle (clipped to the image) with `rgb` (0xRRGGBB).
    void fill(int x, int y, int w, int h, uint32_t rgb);
};

/// `#rrggbb` as 0xRRGGBB (0 for anything else).
uint32_t parseHexColor(const std::string& color);

/// The bytes of a PNG file of `image` (8-bit RGB).
std::string encodePng(const RgbImage& image);

} // namespace bs

// PNG files without a compression library (support/Png.h): the chunks, their CRC-32s and the
// stored deflate stream with its Adler-32, checked against values zlib computes.
#include "support/Png.h"

#include <gtest/gtest.h>

using namespace bs;

namespace {

uint32_t big32(const std::string& bytes, size_t at) {
    return (uint32_t(uint8_t(bytes[at])) << 24) | (uint32_t(uint8_t(bytes[at + 1])) << 16) |
           (uint32_t(uint8_t(bytes[at + 2])) << 8) | uint32_t(uint8_t(bytes[at + 3]));
}

} // namespace

TEST(Png, OneRedPixel) {
    RgbImage image(1, 1);
    image.fill(0, 0, 1, 1, parseHexColor("#ff0000"));
    const std::string png = encodePng(image);
    EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    // IHDR: 13 bytes, 1 x 1, 8-bit RGB; its CRC as zlib.crc32 gives it.
    EXPECT_EQ(big32(png, 8), 13u);
    EXPECT_EQ(png.substr(12, 4), "IHDR");
    EXPECT_EQ(big32(png, 16), 1u);
    EXPECT_EQ(big32(png, 20), 1u);
    EXPECT_EQ(big32(png, 29), 0x907753deu);
    // IDAT: a zlib header, one final stored block of the scanline (filter 0, then ff 00 00) and
    // the scanline's Adler-32.
    EXPECT_EQ(png.substr(37, 4), "IDAT");
    const std::string idat = png.substr(41, big32(png, 33));
    EXPECT_EQ(idat,
              std::string("\x78\x01\x01\x04\x00\xfb\xff\x00\xff\x00\x00\x03\x01\x01\x00", 15));
    // IEND, with the CRC every PNG ends with.
    EXPECT_EQ(png.substr(png.size() - 8), std::string("IEND\xae\x42\x60\x82", 8));
}

TEST(Png, LargeImagesSpanSeveralStoredBlocks) {
    RgbImage image(200, 200, 0x336699); // 120,200 bytes of scanlines: two blocks
    const std::string png = encodePng(image);
    const std::string idat = png.substr(41, big32(png, 33));
    EXPECT_EQ(uint8_t(idat[2]), 0u); // the first block is not the last
    EXPECT_EQ(idat.size(), 2u + 2 * 5 + 200u * 601 + 4);
    EXPECT_EQ(parseHexColor("#3366zz"), 0u);
    EXPECT_EQ(parseHexColor("336699"), 0u);
}

// Charts' pictures: the canvas draws what it is asked, and encode_png writes a PNG that libpng
// reads back to the same pixels.
#include <gtest/gtest.h>
#include <png.h>

#include "tanbo/core/error.hpp"
#include "tanbo/io/png.hpp"

namespace tanbo {
namespace {

// Decodes PNG bytes with libpng's reader into RGB rows; fails the test when it cannot.
std::vector<std::uint8_t> decode(const std::string& png, std::uint32_t& w, std::uint32_t& h) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  EXPECT_TRUE(png_image_begin_read_from_memory(&image, png.data(), png.size())) << image.message;
  image.format = PNG_FORMAT_RGB;
  std::vector<std::uint8_t> rgb(PNG_IMAGE_SIZE(image));
  EXPECT_TRUE(png_image_finish_read(&image, nullptr, rgb.data(), 0, nullptr)) << image.message;
  w = image.width;
  h = image.height;
  return rgb;
}

TEST(Png, CanvasPixelsRoundTripThroughLibpng) {
  Canvas c(3, 2, {255, 255, 255});
  c.set(0, 0, {255, 0, 0});
  c.set(2, 1, {0, 0, 255});
  c.set(5, 5, {1, 2, 3});  // outside: clipped
  EXPECT_EQ(c.at(0, 0).r, 255);
  EXPECT_EQ(c.at(0, 0).g, 0);
  EXPECT_EQ(c.at(9, 9).r, 0);  // outside reads black
  const std::string png = encode_png(c);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  std::uint32_t w = 0, h = 0;
  EXPECT_EQ(decode(png, w, h), c.pixels());
  EXPECT_EQ(w, 3u);
  EXPECT_EQ(h, 2u);
}

TEST(Png, ALargeChartOfFlatColoursIsCompressed) {
  Canvas c(640, 400);
  c.fill_rect(20, 20, 300, 380, {200, 40, 40});
  c.hline(0, 639, 200, {0, 0, 0});
  c.text(330, 30, "5x5x5: 52.0% (48.1 TO 55.9)", {0, 0, 0}, 2);
  const std::string png = encode_png(c);
  EXPECT_LT(png.size(), c.pixels().size() / 20);
  std::uint32_t w = 0, h = 0;
  EXPECT_EQ(decode(png, w, h), c.pixels());
}

TEST(Png, TextDrawsInItsColourAndWidth) {
  Canvas t(40, 10);
  t.text(1, 1, "5x5", {0, 0, 0});
  int dark = 0, right = 0;
  for (int y = 0; y < 10; ++y) {
    for (int x = 0; x < 40; ++x) {
      dark += t.at(x, y).r == 0;
      if (t.at(x, y).r == 0) right = std::max(right, x);
    }
  }
  EXPECT_GT(dark, 20);
  EXPECT_LT(right, 1 + Canvas::text_width("5x5"));
}

TEST(Png, MismatchedSizesAreRefused) {
  EXPECT_THROW(encode_png(4, 4, std::vector<std::uint8_t>(10)), Error);
  EXPECT_THROW(encode_png(0, 4, {}), Error);
}

}  // namespace
}  // namespace tanbo

// Pictures for charts: an RGB canvas with a few drawing primitives and a built-in 5x7 font,
// written as PNG by libpng.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tanbo {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
};

// An RGB raster with a few drawing primitives. Drawing outside the image is clipped.
class Canvas {
 public:
  Canvas(std::uint32_t width, std::uint32_t height, Rgb background = {255, 255, 255});
  std::uint32_t width() const { return w_; }
  std::uint32_t height() const { return h_; }
  Rgb at(int x, int y) const;                             // pixel (x right, y down); black outside
  void set(int x, int y, Rgb c);                          // one pixel
  void fill_rect(int x0, int y0, int x1, int y1, Rgb c);  // inclusive corners, any order
  void hline(int x0, int x1, int y, Rgb c) { fill_rect(x0, y, x1, y, c); }
  void vline(int x, int y0, int y1, Rgb c) { fill_rect(x, y0, x, y1, c); }
  // Text in a built-in 5x7 font (letters are drawn as capitals; characters without a glyph
  // as a box), each character `6 * scale` pixels wide, the top left corner at (x, y).
  void text(int x, int y, std::string_view s, Rgb c, int scale = 1);
  static int text_width(std::string_view s, int scale = 1) {
    return static_cast<int>(s.size()) * 6 * scale;
  }
  const std::vector<std::uint8_t>& pixels() const { return px_; }  // RGB rows, top first

 private:
  std::uint32_t w_, h_;
  std::vector<std::uint8_t> px_;
};

// The PNG file bytes (libpng, 8-bit RGB) of an RGB image: `rgb` holds width*height*3 bytes,
// rows top first. Throws tanbo::Error when the sizes do not match or libpng refuses.
std::string encode_png(std::uint32_t width, std::uint32_t height,
                       const std::vector<std::uint8_t>& rgb);
inline std::string encode_png(const Canvas& c) {
  return encode_png(c.width(), c.height(), c.pixels());
}

}  // namespace tanbo

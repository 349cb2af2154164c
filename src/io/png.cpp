#include "tanbo/png.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace tanbo {

namespace {

// 5x7 glyphs: 7 rows, bit 4 = leftmost column.
struct Glyph {
  char c;
  std::array<std::uint8_t, 7> rows;
};

constexpr Glyph kFont[] = {
    {'A', {0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11}},
    {'B', {0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E}},
    {'C', {0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E}},
    {'D', {0x1E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1E}},
    {'E', {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F}},
    {'F', {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10}},
    {'G', {0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F}},
    {'H', {0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11}},
    {'I', {0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E}},
    {'J', {0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C}},
    {'K', {0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11}},
    {'L', {0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F}},
    {'M', {0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11}},
    {'N', {0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11}},
    {'O', {0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E}},
    {'P', {0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10}},
    {'Q', {0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D}},
    {'R', {0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11}},
    {'S', {0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E}},
    {'T', {0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}},
    {'U', {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E}},
    {'V', {0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04}},
    {'W', {0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A}},
    {'X', {0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11}},
    {'Y', {0x11, 0x11, 0x0A, 0x04, 0x04, 0x04, 0x04}},
    {'Z', {0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F}},
    {'x', {0x00, 0x00, 0x11, 0x0A, 0x04, 0x0A, 0x11}},
    {'0', {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E}},
    {'1', {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E}},
    {'2', {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F}},
    {'3', {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E}},
    {'4', {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02}},
    {'5', {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E}},
    {'6', {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E}},
    {'7', {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08}},
    {'8', {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E}},
    {'9', {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C}},
    {' ', {0, 0, 0, 0, 0, 0, 0}},
    {'.', {0, 0, 0, 0, 0, 0x0C, 0x0C}},
    {',', {0, 0, 0, 0, 0x0C, 0x04, 0x08}},
    {'%', {0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03}},
    {'-', {0, 0, 0, 0x1F, 0, 0, 0}},
    {'/', {0, 0x01, 0x02, 0x04, 0x08, 0x10, 0}},
    {':', {0, 0x0C, 0x0C, 0, 0x0C, 0x0C, 0}},
    {'(', {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02}},
    {')', {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08}},
    {'_', {0, 0, 0, 0, 0, 0, 0x1F}},
    {'=', {0, 0, 0x1F, 0, 0x1F, 0, 0}},
    {'+', {0, 0x04, 0x04, 0x1F, 0x04, 0x04, 0}},
    {'[', {0x0E, 0x08, 0x08, 0x08, 0x08, 0x08, 0x0E}},
    {']', {0x0E, 0x02, 0x02, 0x02, 0x02, 0x02, 0x0E}},
    {'#', {0x0A, 0x0A, 0x1F, 0x0A, 0x1F, 0x0A, 0x0A}},
    {'|', {0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}},
    {'"', {0x0A, 0x0A, 0, 0, 0, 0, 0}},
    {'\'', {0x04, 0x04, 0, 0, 0, 0, 0}},
};

// `small_x`: the lower-case x of sizes like 5x5x5 (an x right after a digit).
const std::array<std::uint8_t, 7>& glyph(char c, bool small_x) {
  static const std::array<std::uint8_t, 7> box = {0x1F, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1F};
  if (!(c == 'x' && small_x)) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const auto& g : kFont) {
    if (g.c == c) return g.rows;
  }
  return box;
}

void put_u32(std::string& out, std::uint32_t x) {
  out += static_cast<char>(x >> 24);
  out += static_cast<char>(x >> 16);
  out += static_cast<char>(x >> 8);
  out += static_cast<char>(x);
}

void chunk(std::string& out, const char* type, const std::string& data) {
  put_u32(out, static_cast<std::uint32_t>(data.size()));
  const std::string body = std::string(type, 4) + data;
  out += body;
  put_u32(out, crc32(body));
}

}  // namespace

std::uint32_t crc32(std::string_view bytes, std::uint32_t crc) {
  static const auto table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t n = 0; n < 256; ++n) {
      std::uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  crc = ~crc;
  for (unsigned char b : bytes) crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

std::uint32_t adler32(std::string_view bytes, std::uint32_t adler) {
  std::uint32_t a = adler & 0xFFFF, b = adler >> 16;
  for (unsigned char c : bytes) {
    a = (a + c) % 65521u;
    b = (b + a) % 65521u;
  }
  return (b << 16) | a;
}

namespace {

// Deflate bit writer: bits go out least significant first.
class BitWriter {
 public:
  explicit BitWriter(std::string& out) : out_(out) {}
  void bits(std::uint32_t value, int count) {
    for (int i = 0; i < count; ++i) {
      acc_ |= ((value >> i) & 1u) << used_;
      if (++used_ == 8) flush_byte();
    }
  }
  // Huffman codes are sent most significant bit first.
  void code(std::uint32_t code, int length) {
    for (int i = length - 1; i >= 0; --i) bits((code >> i) & 1u, 1);
  }
  void finish() {
    if (used_) flush_byte();
  }

 private:
  void flush_byte() {
    out_ += static_cast<char>(acc_);
    acc_ = 0;
    used_ = 0;
  }
  std::string& out_;
  std::uint32_t acc_ = 0;
  int used_ = 0;
};

// A literal/length symbol in the fixed Huffman code of RFC 1951 section 3.2.6.
void fixed_symbol(BitWriter& w, std::uint32_t sym) {
  if (sym <= 143) {
    w.code(0x30 + sym, 8);
  } else if (sym <= 255) {
    w.code(0x190 + (sym - 144), 9);
  } else if (sym <= 279) {
    w.code(sym - 256, 7);
  } else {
    w.code(0xC0 + (sym - 280), 8);
  }
}

constexpr std::uint16_t kLenBase[29] = {3,  4,  5,  6,   7,   8,   9,   10,  11, 13,
                                        15, 17, 19, 23,  27,  31,  35,  43,  51, 59,
                                        67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr std::uint8_t kLenExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                        2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr std::uint16_t kDistBase[30] = {
    1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr std::uint8_t kDistExtra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                         6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

void fixed_match(BitWriter& w, std::uint32_t length, std::uint32_t distance) {
  int i = 28;
  while (kLenBase[i] > length) --i;
  fixed_symbol(w, 257 + i);
  w.bits(length - kLenBase[i], kLenExtra[i]);
  int j = 29;
  while (kDistBase[j] > distance) --j;
  w.code(static_cast<std::uint32_t>(j), 5);
  w.bits(distance - kDistBase[j], kDistExtra[j]);
}

// One final deflate block with the fixed Huffman code. Matches are looked for at two
// distances only, the previous pixel and the row above, which is what charts repeat.
void deflate_fixed(const std::string& raw, std::uint32_t stride, std::string& out) {
  BitWriter w(out);
  w.bits(1, 1);  // BFINAL
  w.bits(1, 2);  // BTYPE = 01, fixed Huffman codes
  const std::size_t n = raw.size();
  std::size_t i = 0;
  while (i < n) {
    std::uint32_t best_len = 0, best_dist = 0;
    for (std::uint32_t d : {3u, stride}) {
      if (d == 0 || d > 32768 || i < d) continue;
      std::uint32_t len = 0;
      while (len < 258 && i + len < n && raw[i + len] == raw[i + len - d]) ++len;
      if (len > best_len) best_len = len, best_dist = d;
    }
    if (best_len >= 3) {
      fixed_match(w, best_len, best_dist);
      i += best_len;
    } else {
      fixed_symbol(w, static_cast<unsigned char>(raw[i]));
      ++i;
    }
  }
  fixed_symbol(w, 256);  // end of block
  w.finish();
}

}  // namespace

std::string encode_png(std::uint32_t width, std::uint32_t height,
                       const std::vector<std::uint8_t>& rgb, bool compress) {
  // Raw scanlines: filter type 0 (none) then the row's bytes.
  std::string raw;
  raw.reserve(static_cast<std::size_t>(height) * (width * 3u + 1u));
  for (std::uint32_t y = 0; y < height; ++y) {
    raw += '\0';
    raw.append(reinterpret_cast<const char*>(rgb.data()) + std::size_t{y} * width * 3u, width * 3u);
  }
  // zlib stream: header, the deflate data, Adler-32 of the raw data.
  std::string z;
  z += '\x78';
  z += '\x01';
  if (compress) {
    deflate_fixed(raw, width * 3u + 1u, z);
  } else {
    // Stored blocks of at most 65535 bytes.
    std::size_t pos = 0;
    do {
      const std::size_t len = std::min<std::size_t>(65535, raw.size() - pos);
      const bool last = pos + len == raw.size();
      z += static_cast<char>(last ? 1 : 0);
      z += static_cast<char>(len & 0xFF);
      z += static_cast<char>(len >> 8);
      z += static_cast<char>(~len & 0xFF);
      z += static_cast<char>((~len >> 8) & 0xFF);
      z.append(raw, pos, len);
      pos += len;
    } while (pos < raw.size());
  }
  put_u32(z, adler32(raw));

  std::string out = "\x89PNG\r\n\x1a\n";
  std::string ihdr;
  put_u32(ihdr, width);
  put_u32(ihdr, height);
  ihdr += '\x08';                // bit depth
  ihdr += '\x02';                // colour type: RGB
  ihdr += std::string(3, '\0');  // deflate, adaptive filtering, no interlace
  chunk(out, "IHDR", ihdr);
  chunk(out, "IDAT", z);
  chunk(out, "IEND", "");
  return out;
}

Canvas::Canvas(std::uint32_t width, std::uint32_t height, Rgb bg)
    : w_(width), h_(height), px_(std::size_t{width} * height * 3u) {
  for (std::size_t i = 0; i < px_.size(); i += 3) {
    px_[i] = bg.r;
    px_[i + 1] = bg.g;
    px_[i + 2] = bg.b;
  }
}

Rgb Canvas::at(int x, int y) const {
  if (x < 0 || y < 0 || x >= static_cast<int>(w_) || y >= static_cast<int>(h_)) return {};
  const std::size_t i = (static_cast<std::size_t>(y) * w_ + x) * 3u;
  return {px_[i], px_[i + 1], px_[i + 2]};
}

void Canvas::set(int x, int y, Rgb c) {
  if (x < 0 || y < 0 || x >= static_cast<int>(w_) || y >= static_cast<int>(h_)) return;
  const std::size_t i = (static_cast<std::size_t>(y) * w_ + x) * 3u;
  px_[i] = c.r;
  px_[i + 1] = c.g;
  px_[i + 2] = c.b;
}

void Canvas::fill_rect(int x0, int y0, int x1, int y1, Rgb c) {
  if (x0 > x1) std::swap(x0, x1);
  if (y0 > y1) std::swap(y0, y1);
  x0 = std::max(x0, 0);
  y0 = std::max(y0, 0);
  x1 = std::min(x1, static_cast<int>(w_) - 1);
  y1 = std::min(y1, static_cast<int>(h_) - 1);
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) set(x, y, c);
  }
}

void Canvas::text(int x, int y, std::string_view s, Rgb c, int scale) {
  char prev = ' ';
  for (char ch : s) {
    const auto& rows = glyph(ch, prev >= '0' && prev <= '9');
    prev = ch;
    for (int r = 0; r < 7; ++r) {
      for (int col = 0; col < 5; ++col) {
        if (rows[r] & (0x10 >> col)) {
          fill_rect(x + col * scale, y + r * scale, x + (col + 1) * scale - 1,
                    y + (r + 1) * scale - 1, c);
        }
      }
    }
    x += 6 * scale;
  }
}

}  // namespace tanbo

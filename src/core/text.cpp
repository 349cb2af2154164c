#include "tanbo/core/text.hpp"

#include "tanbo/core/error.hpp"

#include <algorithm>
#include <cctype>
#include <istream>

namespace tanbo {

std::string to_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string trim(std::string_view s, std::string_view blanks) {
  const auto b = s.find_first_not_of(blanks);
  if (b == std::string_view::npos) return "";
  return std::string(s.substr(b, s.find_last_not_of(blanks) - b + 1));
}

void drop_carriage_returns(std::string& line) {
  while (!line.empty() && line.back() == '\r') line.pop_back();
}

bool read_line(std::istream& in, std::string& line, std::size_t max, std::size_t* length) {
  line.clear();
  const std::istream::sentry ok(in, true);  // true: leading blanks are part of the line
  if (!ok || !in.rdbuf()) return false;
  std::streambuf& buf = *in.rdbuf();
  std::size_t bytes = 0;
  bool ended = false;  // by a line feed
  for (int c = buf.sbumpc(); c != std::char_traits<char>::eof(); c = buf.sbumpc()) {
    if (c == '\n') {
      ended = true;
      break;
    }
    if (line.size() < max) line += static_cast<char>(c);
    ++bytes;
  }
  if (!ended) in.setstate(bytes == 0 ? std::ios::eofbit | std::ios::failbit : std::ios::eofbit);
  if (length) *length = bytes;
  return ended || bytes > 0;
}

namespace {

// The length of the valid UTF-8 sequence of two to four bytes at the start of `s`, 0 if none.
std::size_t utf8_sequence(std::string_view s) {
  const auto b0 = static_cast<unsigned char>(s[0]);
  const std::size_t n = b0 >= 0xF0 && b0 <= 0xF4 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC2 ? 2 : 0;
  if (n == 0 || b0 > 0xF4 || s.size() < n) return 0;
  for (std::size_t i = 1; i < n; ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) return 0;
  }
  return n;
}

}  // namespace

bool has_direction_controls(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    if (byte(i) == 0xD8 && byte(i + 1) == 0x9C) return true;  // U+061C
    if (i + 2 >= text.size()) continue;
    const unsigned char b0 = byte(i), b1 = byte(i + 1), b2 = byte(i + 2);
    if (b0 == 0xE2 && b1 == 0x80 && (b2 == 0x8E || b2 == 0x8F || (b2 >= 0xAA && b2 <= 0xAE)))
      return true;  // U+200E, U+200F, U+202A to U+202E
    if (b0 == 0xE2 && b1 == 0x81 && b2 >= 0xA6 && b2 <= 0xA9) return true;  // U+2066 to U+2069
  }
  return false;
}

namespace {

// Whether code point c shows nothing on its own: a space, or a character that joins, separates
// or changes others without a glyph (zero-width spaces and joiners, variation selectors, the
// byte-order mark, Hangul fillers, tags).
bool invisible(char32_t c) {
  return c == 0x20 || c == 0xA0 || c == 0xAD || c == 0x34F || c == 0x61C || c == 0x115F ||
         c == 0x1160 || c == 0x17B4 || c == 0x17B5 || (c >= 0x180B && c <= 0x180F) ||
         (c >= 0x2000 && c <= 0x200F) || (c >= 0x2028 && c <= 0x202F) ||
         (c >= 0x205F && c <= 0x206F) || c == 0x2800 || c == 0x3000 || c == 0x3164 ||
         (c >= 0xFE00 && c <= 0xFE0F) || c == 0xFEFF || c == 0xFFA0 ||
         (c >= 0x1D173 && c <= 0x1D17A) || (c >= 0xE0000 && c <= 0xE0FFF);
}

}  // namespace

bool has_visible_character(std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    const auto b0 = static_cast<unsigned char>(text[at]);
    const std::size_t n = b0 < 0x80 ? 1 : utf8_sequence(text.substr(at));
    if (n == 0) return true;  // (not UTF-8: shown as some replacement sign)
    char32_t c = n == 1 ? b0 : b0 & (0xFF >> (n + 1));
    for (std::size_t i = 1; i < n; ++i)
      c = (c << 6) | (static_cast<unsigned char>(text[at + i]) & 0x3F);
    if (control_character_at(text, at) == 0 && !invisible(c)) return true;
    at += n;
  }
  return false;
}

std::size_t control_character_at(std::string_view text, std::size_t i) {
  const auto u = static_cast<unsigned char>(text[i]);
  if (u < 32 || u == 127) return 1;
  if (u == 0xC2 && i + 1 < text.size()) {
    const auto next = static_cast<unsigned char>(text[i + 1]);
    if (next >= 0x80 && next <= 0x9F) return 2;  // C1: U+0080 to U+009F
  }
  return 0;
}

bool has_control_characters(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (control_character_at(text, i) != 0) return true;
  }
  return false;
}

namespace {

// Whether `text` starts as two ASCII characters in UTF-16 without a byte-order mark do: a NUL
// beside each (after it, little-endian; before it, big-endian).
bool ascii_in_utf16(std::string_view t) {
  if (t.size() < 4) return false;
  const auto ascii = [](char c) { return c > 0 && static_cast<unsigned char>(c) < 128; };
  return (ascii(t[0]) && t[1] == '\0' && ascii(t[2]) && t[3] == '\0') ||
         (t[0] == '\0' && ascii(t[1]) && t[2] == '\0' && ascii(t[3]));
}

}  // namespace

std::string_view without_byte_order_mark(std::string_view text, std::string_view origin) {
  const auto starts = [&](std::string_view mark) { return text.substr(0, mark.size()) == mark; };
  using namespace std::string_view_literals;
  const char* encoding = nullptr;
  if (starts("\x00\x00\xFE\xFF"sv) || starts("\xFF\xFE\x00\x00"sv)) {
    encoding = "UTF-32";
  } else if (starts("\xFE\xFF"sv) || starts("\xFF\xFE"sv) || ascii_in_utf16(text)) {
    encoding = "UTF-16";
  }
  if (encoding) {
    throw Error(std::string(origin) + ": the text is " + encoding +
                ", not UTF-8 (save it as UTF-8 and try again)");
  }
  return starts("\xEF\xBB\xBF"sv) ? text.substr(3) : text;
}

bool is_utf8(std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    if (static_cast<unsigned char>(text[at]) < 0x80) {
      ++at;
    } else if (const std::size_t n = utf8_sequence(text.substr(at))) {
      at += n;
    } else {
      return false;
    }
  }
  return true;
}

namespace {

// One byte as it appears in a message: itself when printable, else an escape.
void append_escaped(std::string& out, char c) {
  static const char* hex = "0123456789abcdef";
  const auto u = static_cast<unsigned char>(c);
  switch (c) {
    case '\n':
      out += "\\n";
      return;
    case '\t':
      out += "\\t";
      return;
    case '\r':
      out += "\\r";
      return;
    case '\0':
      out += "\\0";
      return;
    case '"':
      out += "\\\"";
      return;
    case '\\':
      out += "\\\\";
      return;
    default:
      if (u >= 32 && u < 127) {
        out += c;
      } else {
        out += "\\x";
        out += hex[u >> 4];
        out += hex[u & 15];
      }
  }
}

}  // namespace

std::string quote_input(std::string_view text, std::size_t max) {
  std::string out = "\"";
  std::size_t at = 0;
  for (std::size_t shown = 0; at < text.size() && shown < max; ++shown) {
    const std::size_t n = control_character_at(text, at) ? 0 : utf8_sequence(text.substr(at));
    if (n != 0) {  // a letter such as é stays
      out.append(text.substr(at, n));
      at += n;
    } else {
      append_escaped(out, text[at++]);
    }
  }
  if (at < text.size()) return out + "...\" (" + std::to_string(text.size()) + " bytes)";
  return out + '"';
}

std::string shown_name(std::string_view text, std::size_t max) {
  const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
    return static_cast<unsigned char>(c) >= 32 && static_cast<unsigned char>(c) < 127;
  });
  return plain && text.size() <= max ? std::string(text) : quote_input(text, max);
}

std::string clip_words(std::string_view message, std::size_t max) {
  std::string out;
  std::size_t at = 0;
  while (at < message.size()) {
    if (message[at] == ' ') {
      out += message[at++];
      continue;
    }
    const std::size_t end = std::min(message.find(' ', at), message.size());
    const std::string_view word = message.substr(at, end - at);
    const std::string_view kept = word.substr(0, max);
    for (char c : kept) {
      if (c == '"' || c == '\\') {
        out += c;  // quotes and backslashes of the message itself stay as they are
      } else {
        append_escaped(out, c);
      }
    }
    if (word.size() > max) out += "... (" + std::to_string(word.size()) + " bytes)";
    at = end;
  }
  return out;
}

}  // namespace tanbo

#include "tanbo/core/numbers.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace tanbo {

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

}  // namespace

std::optional<std::uint64_t> parse_whole(std::string_view text) {
  if (text.empty() || text.size() > 19 || !std::all_of(text.begin(), text.end(), is_digit)) {
    return std::nullopt;
  }
  std::uint64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);  // 19 digits always fit
  return value;
}

std::optional<std::uint64_t> parse_whole(std::string_view text, std::uint64_t max) {
  const auto value = parse_whole(text);
  if (!value || *value > max) return std::nullopt;
  return value;
}

std::optional<double> parse_decimal(std::string_view text) {
  const auto points = std::count(text.begin(), text.end(), '.');
  const bool plain =
      !text.empty() && text.size() <= 30 && text != "." && points <= 1 &&
      std::all_of(text.begin(), text.end(), [](char c) { return is_digit(c) || c == '.'; });
  if (!plain) return std::nullopt;
  // strtod reads exactly these characters: digits and one point are all it sees.
  const std::string copy(text);
  return std::strtod(copy.c_str(), nullptr);
}

std::optional<double> parse_number(std::string_view text, bool whole) {
  if (!whole) return parse_decimal(text);
  const auto n = parse_whole(text);
  if (!n) return std::nullopt;
  return static_cast<double>(*n);
}

std::string plain_number(double x) {
  char text[400];  // the longest fixed form of a double: 309 digits, a sign and a point, or
                   // 0. and 324 decimals of the smallest
  const auto r = std::to_chars(text, text + sizeof text, x, std::chars_format::fixed);
  return std::string(text, r.ec == std::errc() ? r.ptr : text);
}

}  // namespace tanbo

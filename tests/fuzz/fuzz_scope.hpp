// Shared by the fuzz targets: keeps inputs that would build very large boards out of reach.
// A board of a million points is valid input and takes real time and memory (tests/
// test_scale.cpp covers those); it tells nothing about the parsers, so the fuzzers skip it.
#pragma once

#include <string>
#include <string_view>

#include "tanbo/core/text.hpp"

namespace tanbo::fuzz {

// A generous bound on the points of the board spec on a (lower-case) line: the product of its
// numbers, squared when one number gives both sides (GTP's "boardsize N": N x N) and also
// tripled for a hex board (side N: 3N(N-1)+1 points; "hex 973" has 2.8 million).
inline double points_bound(std::string_view line) {
  double product = 1;
  double cur = -1;
  for (std::size_t i = 0; i <= line.size(); ++i) {
    const char c = i < line.size() ? line[i] : ' ';
    if (c >= '0' && c <= '9') {
      cur = (cur < 0 ? 0 : cur * 10) + (c - '0');
    } else if (cur >= 0) {
      product *= cur > 1 ? cur : 1;
      cur = -1;
    }
  }
  if (line.find("hex") != std::string_view::npos) return 3 * product * product;
  if (line.find("boardsize") != std::string_view::npos) return product * product;
  return product;
}

// True when any line mentioning `keyword` (case-insensitive) may build a board of more than
// `max_points` points (points_bound).
inline bool big_board(std::string_view text, std::string_view keyword, double max_points = 4096) {
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string line = to_lower(text.substr(start, end - start));
    if (line.find(keyword) != std::string::npos && points_bound(line) > max_points) return true;
    start = end + 1;
  }
  return false;
}

}  // namespace tanbo::fuzz

// What the SGF reader (sgf.cpp) and writer (sgf_write.cpp) share: SGF's point letters, the
// stones of a position and the date as DT carries it. Internal to tanbo_io.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tanbo/core/position.hpp"
#include "tanbo/core/topology.hpp"

namespace tanbo::sgf_detail {

constexpr int kMaxSgfSide = 52;  // a-z then A-Z

inline char sgf_char(std::uint32_t i) {
  return i < 26 ? static_cast<char>('a' + i) : static_cast<char>('A' + (i - 26));
}

inline int sgf_index(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return c - 'A' + 26;
  return -1;
}

// A point as SGF names it: its column letter, then its row letter counted from the top.
inline std::string point(const Topology& t, Vertex v) {
  const auto c = t.coords(v);
  return {sgf_char(c[0]), sgf_char(t.dims[1] - 1 - c[1])};
}

// The points that hold a stone, in order.
inline std::vector<Vertex> stones_on_board(const Position& pos) {
  std::vector<Vertex> out;
  for (Vertex v = 0; v < pos.num_vertices(); ++v) {
    if (pos.at(v) != kEmpty) out.push_back(v);
  }
  return out;
}

// The game's date as DT carries it: an ISO 8601 date-time ("2026-11-21T07:50:00Z", what this
// program writes) is cut to its date, as SGF's DT holds dates only; any other text is written
// whole, so that it is never cut inside a character. "" when there is no date.
inline std::string sgf_date(const std::string& date) {
  const auto digits = [&](std::size_t from, std::size_t n) {
    for (std::size_t i = from; i < from + n; ++i) {
      if (date[i] < '0' || date[i] > '9') return false;
    }
    return true;
  };
  const bool iso = date.size() > 10 && digits(0, 4) && date[4] == '-' && digits(5, 2) &&
                   date[7] == '-' && digits(8, 2) && date[10] == 'T';
  return iso ? date.substr(0, 10) : date;
}

}  // namespace tanbo::sgf_detail

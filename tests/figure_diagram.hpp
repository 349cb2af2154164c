// Reading the board diagrams of the rule documents (tests/data/figures/*.txt) into positions.
//
// A diagram is the 1995 post's layout: a line of column letters, then one line per row from
// the top, "19 |o . . # ...| 19", cells two characters apart after the first '|'. '#' is Black,
// 'o' or 'O' White, the symbols of players 3..8 ('x', '@', ...) stand for them, '.', '+' and
// ',' are empty points. A cell written ">x<" is the stone just placed. Lines starting with '#'
// before the board are comments.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <sstream>
#include <string>
#include <vector>

#include "tanbo/core/position.hpp"
#include "tanbo/platform/memory.hpp"
#include "test_support.hpp"

namespace tanbo::test {

struct Diagram {
  TopologyPtr topology;                           // grid WxH
  std::vector<Player> cells;                      // per vertex, kEmpty for none
  Vertex marked = kNoVertex;                      // the >x< stone, if any
  std::vector<std::pair<Vertex, Player>> stones;  // every stone, marked one included
  int players = 2;

  // The stones without the marked one: the position before the move was played.
  std::vector<std::pair<Vertex, Player>> before_move() const {
    std::vector<std::pair<Vertex, Player>> out;
    for (const auto& s : stones) {
      if (s.first != marked) out.push_back(s);
    }
    return out;
  }
  Vertex at(const std::string& name) const {
    auto v = topology->parse_vertex(name);
    EXPECT_TRUE(v.has_value()) << name;
    return v.value_or(0);
  }
};

inline Player diagram_symbol(char c) {
  if (c == '.' || c == '+' || c == ',') return kEmpty;
  if (c == '#') return kBlack;
  if (c == 'o' || c == 'O') return kWhite;
  for (int p = 3; p <= kMaxPlayers; ++p) {
    if (player_symbol(static_cast<Player>(p)) == c) return static_cast<Player>(p);
  }
  return kMaxPlayers + 1;  // not a board symbol
}

// Parses diagram text; ADD_FAILUREs (and returns what it could read) when malformed.
inline Diagram parse_diagram(const std::string& text) {
  Diagram d;
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> rows;
  std::vector<int> numbers;
  std::uint32_t width = 0;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] == '#') continue;
    std::size_t i = line.find_first_not_of(' ');
    if (i == std::string::npos) continue;
    if (std::isalpha(static_cast<unsigned char>(line[i]))) {  // column letters
      if (width == 0) {
        for (char c : line) width += std::isalpha(static_cast<unsigned char>(c)) ? 1 : 0;
      }
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(line[i]))) {
      ADD_FAILURE() << "diagram line not understood: " << line;
      continue;
    }
    int number = 0;
    while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) {
      number = number * 10 + (line[i++] - '0');
    }
    const std::size_t bar = line.find('|', i);
    if (bar == std::string::npos || bar > i + 1) {
      ADD_FAILURE() << "diagram row without '|': " << line;
      continue;
    }
    numbers.push_back(number);
    rows.push_back(line.substr(bar));  // starts with the '|' (or the '>' before a marked A)
  }
  const auto height = static_cast<std::uint32_t>(rows.size());
  if (width == 0 || height == 0) {
    ADD_FAILURE() << "no board in diagram";
    d.topology = parse_topology("grid 2x2");
    d.cells.assign(4, kEmpty);
    return d;
  }
  d.topology = parse_topology("grid " + std::to_string(width) + "x" + std::to_string(height));
  d.cells.assign(d.topology->num_vertices(), kEmpty);
  int top = 0;
  for (std::uint32_t j = 0; j < height; ++j) {
    const std::string& r = rows[j];
    EXPECT_EQ(numbers[j], static_cast<int>(height - j)) << "rows must run from the top down";
    for (std::uint32_t x = 0; x < width; ++x) {
      const std::size_t at = 1 + 2 * x;
      if (at >= r.size()) {
        ADD_FAILURE() << "row " << numbers[j] << " is too short";
        break;
      }
      const Player p = diagram_symbol(r[at]);
      if (p > kMaxPlayers) {
        ADD_FAILURE() << "unknown symbol '" << r[at] << "' in row " << numbers[j];
        continue;
      }
      const Vertex v = d.topology->vertex_at({x, height - 1 - j});
      d.cells[v] = p;
      if (p != kEmpty) {
        d.stones.emplace_back(v, p);
        top = std::max<int>(top, p);
      }
      if (r[at - 1] == '>' && at + 1 < r.size() && r[at + 1] == '<') {
        EXPECT_EQ(d.marked, kNoVertex) << "two marked stones";
        EXPECT_NE(p, kEmpty) << "the marked point holds no stone";
        d.marked = v;
      }
    }
  }
  d.players = std::max(2, top);
  return d;
}

inline Diagram load_diagram(const std::string& file) {
  return parse_diagram(read_file(std::string(TANBO_TEST_DATA) + "/figures/" + file));
}

// Compares the stones of a position with a diagram point by point; returns the differences.
inline std::string diff_against(const Position& pos, const Diagram& d) {
  std::string out;
  if (pos.num_vertices() != d.cells.size()) return "different board sizes";
  for (Vertex v = 0; v < pos.num_vertices(); ++v) {
    if (pos.at(v) != d.cells[v]) {
      out += pos.topology().name(v) + ": position has " +
             (pos.at(v) ? std::string(player_name(pos.at(v))) : "empty") + ", diagram has " +
             (d.cells[v] ? std::string(player_name(d.cells[v])) : "empty") + "\n";
    }
  }
  return out;
}

}  // namespace tanbo::test

// Vertex names (docs/notation.md): every board kind names each point uniquely, reads its own
// names back case-insensitively, and accepts comma coordinates on any lattice.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "tanbo/core/topology.hpp"
#include "tanbo/platform/memory.hpp"
#include "test_support.hpp"

using namespace tanbo;

namespace {

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}
std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

void round_trip(const Topology& t) {
  SCOPED_TRACE(t.spec);
  std::set<std::string> seen;
  for (Vertex v = 0; v < t.num_vertices(); ++v) {
    const std::string n = t.name(v);
    EXPECT_TRUE(seen.insert(n).second) << "name " << n << " used twice";
    EXPECT_EQ(t.parse_vertex(n), std::optional<Vertex>(v)) << n;
    EXPECT_EQ(t.parse_vertex(lower(n)), std::optional<Vertex>(v)) << n;
    EXPECT_EQ(t.parse_vertex(upper(n)), std::optional<Vertex>(v)) << n;
    EXPECT_EQ(t.parse_vertex(" " + n + " "), std::optional<Vertex>(v)) << n;
    if (t.kind == BoardKind::kLattice) {  // comma coordinates on every lattice
      const auto c = t.coords(v);
      std::string commas;
      for (std::size_t i = 0; i < c.size(); ++i)
        commas += (i ? "," : "") + std::to_string(c[i] + 1);
      EXPECT_EQ(t.parse_vertex(commas), std::optional<Vertex>(v)) << commas;
    }
  }
}

std::optional<Vertex> at(const Topology& t, const std::string& s) {
  return t.parse_vertex(s);
}

}  // namespace

TEST(Naming, RoundTripOnEveryBoardKind) {
  for (const char* spec :
       {"line 1", "line 31", "grid 2x2", "grid 9x9", "grid 19x19", "grid 25x25", "grid 26x3",
        "grid 7x30", "grid 19x19 wrap", "grid 5x5x5", "grid 9x9x9", "grid 10x2x2", "grid 5x5x5x5",
        "grid 3x3x3x3x3x3x3", "hex 2", "hex 5", "hex 13", "hex 14"}) {
    round_trip(*parse_topology(spec));
  }
  round_trip(*make_from_dot("graph { Alpha -- beta -- \"gamma.ray\" -- 42 -- Alpha }", "n.dot"));
}

TEST(Naming, GoCoordinatesOnTwoDimensionalBoards) {
  auto t = parse_topology("grid 19x19");
  EXPECT_EQ(t->name(0), "A1");  // lower left
  EXPECT_EQ(t->name(18), "T1");
  EXPECT_EQ(t->name(360), "T19");
  EXPECT_EQ(t->name(t->vertex_at({8, 0})), "J1");  // no I
  EXPECT_EQ(t->name(t->vertex_at({7, 9})), "H10");
  EXPECT_EQ(at(*t, "a1"), std::optional<Vertex>(0));
  EXPECT_EQ(at(*t, "j10"), std::optional<Vertex>(t->vertex_at({8, 9})));
  for (const char* bad : {"I5", "i5", "U1", "A20", "A0", "A", "1", "AA1", "A1x", "", "  ", "3,20",
                          "0,1", "1,2,3", "A-1", "A+1"}) {
    EXPECT_EQ(at(*t, bad), std::nullopt) << bad;
  }
  EXPECT_EQ(at(*t, "3,4"), at(*t, "C4"));
  // Z is the 25th letter: a 25-wide board still uses letters, a 26-wide one commas.
  auto w = parse_topology("grid 25x25");
  EXPECT_EQ(w->name(24), "Z1");
  auto c = parse_topology("grid 26x3");
  EXPECT_EQ(c->name(25), "26,1");
  EXPECT_EQ(at(*c, "A1"), std::nullopt);
  // Non-square boards: columns by letter, rows by number.
  auto r = parse_topology("grid 7x30");
  EXPECT_EQ(r->name(r->num_vertices() - 1), "G30");
  EXPECT_EQ(at(*r, "H1"), std::nullopt);
}

TEST(Naming, PbmservDigitsOnCubes) {
  auto t = parse_topology("grid 5x5x5");
  EXPECT_EQ(t->name(t->vertex_at({2, 2, 2})), "333");  // the centre
  EXPECT_EQ(t->name(t->vertex_at({0, 0, 4})), "115");  // X, Y, Z
  EXPECT_EQ(t->name(t->vertex_at({0, 1, 4})), "125");
  EXPECT_EQ(at(*t, "333"), std::optional<Vertex>(t->vertex_at({2, 2, 2})));
  EXPECT_EQ(at(*t, "3,3,3"), at(*t, "333"));
  for (const char* bad : {"336", "033", "33", "3333", "abc", "3,3", "6,1,1"}) {
    EXPECT_EQ(at(*t, bad), std::nullopt) << bad;
  }
  // Wider than 9: commas.
  auto big = parse_topology("grid 10x2x2");
  EXPECT_EQ(big->name(9), "10,1,1");
}

TEST(Naming, NumbersOnALineAndCommasElsewhere) {
  auto l = parse_topology("line 31");
  EXPECT_EQ(l->name(0), "1");
  EXPECT_EQ(l->name(30), "31");
  EXPECT_EQ(at(*l, "31"), std::optional<Vertex>(30));
  EXPECT_EQ(at(*l, "0"), std::nullopt);
  EXPECT_EQ(at(*l, "32"), std::nullopt);
  EXPECT_EQ(at(*l, "A1"), std::nullopt);
  auto t = parse_topology("grid 5x5x5x5");
  EXPECT_EQ(t->name(t->vertex_at({0, 1, 2, 3})), "1,2,3,4");
  EXPECT_EQ(at(*t, "1,2,3,4"), std::optional<Vertex>(t->vertex_at({0, 1, 2, 3})));
  EXPECT_EQ(at(*t, " 1, 2 ,3,4 "), at(*t, "1,2,3,4"));
  for (const char* bad : {"1,2,3", "1,2,3,4,5", "1,2,3,6", "0,1,1,1", "1,,1,1", "1,2,3,", "1234"}) {
    EXPECT_EQ(at(*t, bad), std::nullopt) << bad;
  }
  auto eleven = parse_topology("grid 3x3x3x3x3x3x3x3x3x3x3");
  EXPECT_EQ(eleven->name(eleven->num_vertices() - 1), "3,3,3,3,3,3,3,3,3,3,3");
}

TEST(Naming, HexRowsAndCells) {
  auto t = parse_topology("hex 5");
  // Rows A (bottom) .. J (top), Go letters without I; cells numbered from the left; row A has
  // 5 cells, E has 9.
  EXPECT_EQ(t->name(0), "A1");
  EXPECT_EQ(t->hex_axial[0], (std::array<int, 2>{0, -4}));
  EXPECT_TRUE(at(*t, "A5").has_value());
  EXPECT_EQ(at(*t, "A6"), std::nullopt);
  EXPECT_TRUE(at(*t, "E9").has_value());
  EXPECT_EQ(at(*t, "E10"), std::nullopt);
  EXPECT_EQ(t->hex_axial[*at(*t, "E5")], (std::array<int, 2>{0, 0}));  // the centre
  EXPECT_EQ(t->name(60), "J5");
  EXPECT_EQ(at(*t, "I1"), std::nullopt);  // no I
  EXPECT_EQ(at(*t, "K1"), std::nullopt);  // only 9 rows
  EXPECT_EQ(at(*t, "5,5"), at(*t, "E5"));
  EXPECT_EQ(at(*t, "e5"), at(*t, "E5"));
  EXPECT_EQ(at(*t, "0,1"), std::nullopt);
  // 27 rows do not fit in the letters: row,cell numbers.
  auto big = parse_topology("hex 14");
  EXPECT_EQ(big->name(0), "1,1");
  EXPECT_EQ(at(*big, "27,14"), std::optional<Vertex>(big->num_vertices() - 1));
  EXPECT_EQ(at(*big, "A1"), std::nullopt);
}

TEST(Naming, DotNodeIds) {
  auto t = make_from_dot("graph { Alpha -- alpha2 -- B; b -- Alpha }", "ids.dot");
  auto id = [&](const std::string& name) {
    const auto it = std::find(t->node_ids.begin(), t->node_ids.end(), name);
    EXPECT_NE(it, t->node_ids.end()) << name;
    return std::optional<Vertex>(static_cast<Vertex>(it - t->node_ids.begin()));
  };
  EXPECT_EQ(t->name(*id("Alpha")), "Alpha");
  EXPECT_EQ(at(*t, "alpha"), id("Alpha"));  // unique case-insensitive match
  EXPECT_EQ(at(*t, "B"), id("B"));          // exact match first
  EXPECT_EQ(at(*t, "b"), id("b"));
  EXPECT_EQ(at(*t, "ALPHA2"), id("alpha2"));
  EXPECT_EQ(at(*t, "gamma"), std::nullopt);
  auto twins = make_from_dot("graph { Ab -- aB -- c }", "twins.dot");
  EXPECT_EQ(at(*twins, "AB"), std::nullopt);  // ambiguous
}

TEST(Naming, NotationHints) {
  EXPECT_EQ(parse_topology("grid 19x19")->notation_hint(), "Go coordinates A1..T19 (no I; or x,y)");
  EXPECT_EQ(parse_topology("grid 5x5x5")->notation_hint(),
            "three digits XYZ from 111 to 555 (or x,y,z)");
  EXPECT_EQ(parse_topology("line 31")->notation_hint(), "points are numbered 1..31");
  EXPECT_EQ(parse_topology("grid 5x5x5x5")->notation_hint(),
            "comma coordinates 1,1,1,1 to 5,5,5,5");
  EXPECT_EQ(parse_topology("hex 5")->notation_hint(),
            "row letter A..J (bottom to top) and cell number from the left, e.g. A1 (or row,cell)");
  EXPECT_EQ(parse_topology("hex 14")->notation_hint(),
            "row,cell numbers from the bottom left, e.g. 1,1");
}

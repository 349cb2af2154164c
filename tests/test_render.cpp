// Golden-text tests of the board renderings (Figures A and O of the 1995 post, a 5x5x5
// position), the last-move marks of Figures G and I, and the words used for removals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <sstream>

#include "tanbo/core/error.hpp"
#include "tanbo/io/render.hpp"
#include "test_support.hpp"

namespace tanbo {
namespace {

std::string data(const std::string& name) {
  return test::read_file(std::string(TANBO_TEST_DATA) + "/render/" + name);
}

Vertex at(const Position& pos, const std::string& name) {
  auto v = pos.topology().parse_vertex(name);
  EXPECT_TRUE(v.has_value()) << name;
  return *v;
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream is(s);
  for (std::string l; std::getline(is, l);) out.push_back(l);
  return out;
}

TEST(Render, FigureA) {
  const Position pos = test::make("grid 19x19");
  EXPECT_EQ(render_board(pos), data("figure_a.txt"));
}

TEST(Render, FigureO) {
  const Position pos = test::make("grid 9x9");
  EXPECT_EQ(render_board(pos), data("figure_o.txt"));
}

// The mark of Figure I: '>' before the row, >x< around the point, '<' after the row.
TEST(Render, LastMoveMarkInsideRow) {
  Position pos = test::make("grid 9x9");
  pos.play_checked(kBlack, at(pos, "C2"));
  const auto l = lines(render_board(pos));
  EXPECT_EQ(l[8], " 2>|. #>#<. . . . o .|<2");
}

// On the last column the mark keeps the board's border: ">x|", and the row's ends are marked.
TEST(Render, LastMoveMarkOnEdgeKeepsTheBorder) {
  Position pos = test::make("grid 9x9");
  pos.play_checked(kBlack, at(pos, "J8"));
  const auto l = lines(render_board(pos));
  EXPECT_EQ(l[2], " 8>|. o . . . . . #>#|<8");
  RenderOptions plain;
  plain.mark_last = false;
  EXPECT_EQ(lines(render_board(pos, plain))[2], " 8 |. o . . . . . # #| 8");
  // The first column: "|x<".
  pos.play_checked(kWhite, at(pos, "A8"));
  EXPECT_EQ(lines(render_board(pos))[2], " 8>|o<o . . . . . # #|<8");
}

// Every row of every drawing keeps both borders, wherever the last move is: on 2D and 3D
// boards and on a line, each point in turn is made the last move.
TEST(Render, BordersKeptForEveryLastMove) {
  for (const std::string spec : {"grid 5x4", "grid 3x3x3", "line 7"}) {
    Position pos = test::make(spec);
    const std::string plain = render_board(pos);
    const auto moves = pos.legal_moves(kBlack);
    ASSERT_FALSE(moves.empty()) << spec;
    for (Vertex v : moves) {
      pos.play_checked(kBlack, v);
      const auto marked = lines(render_board(pos));
      const auto unmarked = lines(plain);
      ASSERT_EQ(marked.size(), unmarked.size()) << spec;
      int marks = 0;
      for (std::size_t i = 0; i < marked.size(); ++i) {
        const std::string& a = unmarked[i];
        const std::string& b = marked[i];
        ASSERT_EQ(a.size(), b.size()) << spec << " " << pos.topology().name(v) << "\n" << b;
        for (std::size_t c = 0; c < a.size(); ++c) {
          if (a[c] == '|') {
            EXPECT_EQ(b[c], '|') << spec << " " << pos.topology().name(v) << "\n" << b;
          }
        }
        marks += b.find('>') != std::string::npos;
      }
      EXPECT_EQ(marks, 1) << spec << " " << pos.topology().name(v);
      pos.undo();
    }
  }
}

// pbmserv's sample game opens with Black 125 and White 255; the rendering is pinned.
TEST(Render, Cube5x5x5) {
  Position pos = test::make("grid 5x5x5");
  pos.play_checked(kBlack, at(pos, "125"));
  pos.play_checked(kWhite, at(pos, "255"));
  EXPECT_EQ(render_board(pos), data("cube_5x5x5.txt"));
}

// 235 is found as: panel Z=5, row 3, column 2.
TEST(Render, CubePointFoundByName) {
  Position pos = test::make("grid 5x5x5");
  // White grows 255 then 245 then 235 from its seed 155 (Black plays elsewhere in between).
  pos.play_checked(kBlack, at(pos, "125"));
  pos.play_checked(kWhite, at(pos, "255"));
  pos.play_checked(kBlack, at(pos, "135"));
  pos.play_checked(kWhite, at(pos, "245"));
  pos.play_checked(kBlack, at(pos, "512"));
  pos.play_checked(kWhite, at(pos, "235"));
  const auto l = lines(render_board(pos));
  // Line 0 explains the names, line 1 is blank, line 2 holds the panel titles.
  const std::size_t panel = l[2].find("Z=5");
  ASSERT_NE(panel, std::string::npos);
  // Row 3 is the third row from the top of a 5-row panel: title, header, rows 5 4 3.
  const std::string row3 = l[2 + 2 + 2];
  // The panel whose title is Z=5 starts at the 5th panel; find its "3>|" mark.
  const std::size_t mark = row3.find(">o<");
  ASSERT_NE(mark, std::string::npos) << row3;
  EXPECT_GT(mark, panel - 8);
  // Exactly one point is marked.
  EXPECT_EQ(row3.find(">o<", mark + 1), std::string::npos);
}

TEST(Render, LineAsOneRow) {
  const Position pos = test::make("line 31");
  const auto l = lines(render_board(pos));
  ASSERT_EQ(l.size(), 3u);
  EXPECT_EQ(l[1], "  |# . . . . . o . . . . . # . . . . . o . . . . . # . . . . . o|");
  EXPECT_EQ(l[0].substr(0, 4), "   1");
}

TEST(Render, LongLineInSegments) {
  const Position pos = test::make("line 120");
  const auto l = lines(render_board(pos));
  ASSERT_EQ(l.size(), 11u);  // 3 segments of 3 lines, 2 blank lines between
  EXPECT_EQ(l[1].size(), 2u + 100u);
  EXPECT_EQ(l[0].substr(0, 4), "   1");
  EXPECT_EQ(l[4].substr(0, 5), "   51");
  EXPECT_EQ(l[8].substr(0, 6), "   101");
  EXPECT_EQ(l[9].back(), '|');
}

TEST(Render, HexIsAHexagon) {
  const Position pos = test::make("hex 3");
  const auto l = lines(render_board(pos));
  ASSERT_EQ(l.size(), 8u);               // note, numbers, 5 rows, numbers
  EXPECT_EQ(l[2].substr(0, 4), "E   ");  // top row indented 2 more than the middle row
  EXPECT_EQ(l[4].substr(0, 2), "C ");
  // Rows have 3, 4, 5, 4, 3 cells.
  auto cells = [](const std::string& s) {
    return static_cast<int>(
        std::count_if(s.begin(), s.end(), [](char c) { return c == '.' || c == '#' || c == 'o'; }));
  };
  EXPECT_EQ(cells(l[2]), 3);
  EXPECT_EQ(cells(l[4]), 5);
  EXPECT_EQ(cells(l[6]), 3);
}

// Hex 5 as docs/cli.md shows it: row letters on both sides, cell numbers at the edges.
TEST(Render, Hex5WithCoordinates) {
  Position pos = test::make("hex 5");
  pos.play_checked(kBlack, at(pos, "E7"));
  EXPECT_EQ(render_board(pos), data("hex_5.txt"));
}

bool is_stone_or_empty(char c) {
  return c == '.' || c == '#' || c == 'o' || c == 'x';
}

// Each cell is found from the labels: its row letter at both ends of its line, its number at
// the end of its diagonal: walking up and right from a cell of the upper half (down and right
// in the lower half) one line and one column a step, past the last cell of that number, one
// reaches the number (above or below the board, or on the right of a row).
TEST(Render, HexCellsFoundFromTheLabels) {
  for (const std::string spec : {"hex 3", "hex 4", "hex 11"}) {
    const Position pos = test::make(spec);
    const Topology& t = pos.topology();
    const int m = static_cast<int>(t.hex_side) - 1;
    const auto l = lines(render_board(pos));
    const std::size_t numbers = t.hex_side >= 10 ? 2 : 1;  // lines of numbers above and below
    const std::size_t first_row = 1 + numbers, last_row = first_row + 2 * m;
    ASSERT_EQ(l.size(), last_row + 1 + numbers) << spec;
    auto at_line = [&](std::size_t li, std::size_t col) {
      return col < l[li].size() ? l[li][col] : ' ';
    };
    // The number that starts at line li, column col: read across in a row, down the stacked
    // digits above the board (most significant first) and up them below it.
    auto number_at = [&](std::size_t li, std::size_t col) {
      std::string digits;
      if (li < first_row || li > last_row) {
        for (std::size_t k = 0; k < numbers; ++k) {
          const char c = at_line(li < first_row ? 1 + k : l.size() - 1 - k, col);
          if (c != ' ') digits += c;
        }
      } else {
        for (std::size_t c = col; std::isdigit(at_line(li, c)); ++c) digits += at_line(li, c);
      }
      return digits.empty() ? -1 : std::stoi(digits);
    };
    for (Vertex v = 0; v < t.num_vertices(); ++v) {
      const std::string name = t.name(v);
      const int number = std::stoi(name.substr(1));
      const std::size_t li = first_row + static_cast<std::size_t>(m - t.hex_axial[v][1]);
      const std::string& line = l[li];
      EXPECT_EQ(line.front(), name[0]) << spec << " " << name;
      EXPECT_EQ(line.back(), name[0]) << spec << " " << name;
      std::size_t col = 2;  // after the row letter and a space
      for (int seen = 0; col < line.size(); ++col) {
        if (is_stone_or_empty(line[col]) && ++seen == number) break;
      }
      ASSERT_LT(col, line.size()) << spec << " " << name;
      const bool upper = t.hex_axial[v][1] >= 0;
      std::size_t row = li;
      do {
        row = upper ? row - 1 : row + 1;
        ++col;
      } while (row >= first_row && row <= last_row && is_stone_or_empty(at_line(row, col)));
      EXPECT_EQ(number_at(row, col), number) << spec << " " << name << "\n" << l[row];
    }
  }
}

TEST(Render, FourDimensionsAsCrossSections) {
  const Position pos = test::make("grid 3x3x3x3");
  const std::string s = render_board(pos);
  EXPECT_NE(s.find("== 3D cross-section x,y,z,1 =="), std::string::npos);
  EXPECT_NE(s.find("== 3D cross-section x,y,z,3 =="), std::string::npos);
  EXPECT_NE(s.find("x,y,2,3"), std::string::npos);
}

TEST(Render, HugeBoardIsSummarised) {
  const Position pos = test::make("grid 300x300");
  const std::string s = render_board(pos);
  EXPECT_LT(s.size(), 20000u);
  EXPECT_NE(s.find("too many to draw"), std::string::npos);
  RenderOptions full;
  full.full = true;
  EXPECT_GT(render_board(pos, full).size(), 180000u);
}

TEST(Render, ColourOnlyWhenAsked) {
  const Position pos = test::make("grid 9x9");
  EXPECT_EQ(render_board(pos).find('\033'), std::string::npos);
  RenderOptions c;
  c.colour = true;
  EXPECT_NE(render_board(pos, c).find('\033'), std::string::npos);
}

TEST(Render, HintsShownAsStars) {
  const Position pos = test::make("grid 9x9");
  const auto moves = pos.legal_moves(kBlack);
  RenderOptions o;
  o.highlight = &moves;
  const auto l = lines(render_board(pos, o));
  EXPECT_EQ(l[7], " 3 |. * + . + . + . .| 3");
  EXPECT_EQ(l[8], " 2 |* # * . . . . o .| 2");
}

// Black's move at p bounds White's root w (its last space was p) and Black's other root y
// (its last space q now touches two Black stones); the expanded root keeps e.
constexpr const char* kTwoRoots =
    "graph { x [stone=1]; y [stone=1]; w [stone=2]; x -- p; p -- w; p -- q; q -- y; x -- e; }";

TEST(Render, RemovalInWords) {
  auto topo = make_from_dot(kTwoRoots, "two.dot");
  Position p2(topo, make_setup(*topo));
  const MoveRecord& rec = p2.play_checked(kBlack, *topo->parse_vertex("p"));
  EXPECT_EQ(
      describe_move(p2, rec),
      "Black's move at p bounded 2 roots: removed 2 stones (Black 1, White 1). White is out.");
  EXPECT_TRUE(p2.is_over());
  EXPECT_EQ(render_status(p2),
            "game over after 1 turn: Black wins | Black 2 stones 1 root | White out");
}

TEST(Render, OwnRootRemovedInWords) {
  auto topo = make_from_dot("graph { a [stone=1]; c [stone=2]; a -- b -- c; }", "path.dot");
  Position pos(topo, make_setup(*topo));
  const MoveRecord& rec = pos.play_checked(kBlack, *topo->parse_vertex("b"));
  EXPECT_EQ(describe_move(pos, rec),
            "Black's move at b bounded its own root: removed 2 stones. Black is out.");
}

TEST(Render, StatusAndRoots) {
  Position pos = test::make("grid 9x9");
  EXPECT_EQ(render_status(pos, {"alice", "bob"}),
            "start, Black (alice) to play | Black 2 stones 2 roots | White 2 stones 2 roots");
  pos.play_checked(kBlack, at(pos, "C2"));
  // Move 1 has been played: the same number as `tanbo show --move 1` and the viewer.
  EXPECT_EQ(render_status(pos).substr(0, 30), "after move 1, White to play | ");
  EXPECT_EQ(describe_move(pos, pos.last_move()), "Black plays C2.");
  const std::string roots = render_roots(pos);
  EXPECT_NE(roots.find("Black root B2: 2 stones, root space"), std::string::npos) << roots;
  EXPECT_NE(roots.find("| B2 C2"), std::string::npos) << roots;
}

TEST(Render, DotBoardAsRootList) {
  auto topo = make_from_dot(kTwoRoots, "two.dot");
  Position pos(topo, make_setup(*topo));
  const std::string s = render_board(pos);
  EXPECT_NE(s.find("6 points, 5 edges"), std::string::npos) << s;
  EXPECT_NE(s.find("White root w: 1 stone, root space 1 | w"), std::string::npos) << s;
}

}  // namespace
}  // namespace tanbo

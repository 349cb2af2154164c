// Golden-text tests of the board renderings (Figures A and O of the 1995 post, a 5x5x5
// position), the last-move marks of Figures G and I, and the words used for removals.
#include <gtest/gtest.h>

#include <sstream>

#include "tanbo/error.hpp"
#include "tanbo/render.hpp"
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

// The mark of Figure G on the last column: the closing '|' becomes '<'.
TEST(Render, LastMoveMarkOnEdge) {
  Position pos = test::make("grid 9x9");
  pos.play_checked(kBlack, at(pos, "J8"));
  const auto l = lines(render_board(pos));
  EXPECT_EQ(l[2], " 8>|. o . . . . . #>#<<8");
  RenderOptions plain;
  plain.mark_last = false;
  EXPECT_EQ(lines(render_board(pos, plain))[2], " 8 |. o . . . . . # #| 8");
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
  ASSERT_EQ(l.size(), 6u);               // note + 5 rows
  EXPECT_EQ(l[1].substr(0, 4), "E   ");  // top row indented 2 more than the middle row
  EXPECT_EQ(l[3].substr(0, 2), "C ");
  // Rows have 3, 4, 5, 4, 3 cells.
  auto cells = [](const std::string& s) {
    int n = 0;
    for (char c : s.substr(1, s.size() - 2)) n += c != ' ';
    return n;
  };
  EXPECT_EQ(cells(l[1]), 3);
  EXPECT_EQ(cells(l[3]), 5);
  EXPECT_EQ(cells(l[5]), 3);
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
            "move 1, Black (alice) to play | Black 2 stones 2 roots | White 2 stones 2 roots");
  pos.play_checked(kBlack, at(pos, "C2"));
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

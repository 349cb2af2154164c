// SGF export and import: a viewer that applies each node's move and AE sees the position the
// rules give after every move; reading the SGF back gives the same game; bad records refused.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>

#include "sgf_viewer.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/random.hpp"
#include "tanbo/io/sgf.hpp"
#include "tanbo/platform/memory.hpp"
#include "test_support.hpp"

namespace tanbo {
namespace {

std::map<std::string, char> board_of(const Position& pos) {
  std::map<std::string, char> b;
  const Topology& t = pos.topology();
  for (Vertex v = 0; v < pos.num_vertices(); ++v) {
    if (pos.at(v) == kEmpty) continue;
    const auto c = t.coords(v);
    const std::string key{static_cast<char>('a' + c[0]),
                          static_cast<char>('a' + (t.dims[1] - 1 - c[1]))};
    b[key] = pos.at(v) == kBlack ? 'B' : 'W';
  }
  return b;
}

TEST(Sgf, ViewerSeesTheRulesPositionAfterEveryMove) {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const Game g = test::random_game("grid 9x9", seed);
    const std::string sgf = write_sgf(g);
    const auto boards = test::view(sgf, 9, 9);
    ASSERT_EQ(boards.size(), g.position.ply() + 1);
    Position replay(g.position.topology_ptr(), g.position.setup());
    EXPECT_EQ(boards[0], board_of(replay));
    bool removal_seen = false;
    for (std::size_t m = 0; m < g.position.history().size(); ++m) {
      const MoveRecord& rec = replay.play(g.position.history()[m].vertex);
      removal_seen |= rec.removed_end > rec.removed_begin;
      EXPECT_EQ(boards[m + 1], board_of(replay)) << "seed " << seed << " after move " << m + 1;
    }
    EXPECT_TRUE(removal_seen) << "seed " << seed << " had no removal";
    EXPECT_NE(sgf.find("AE["), std::string::npos);
    test::expect_same_game(g, read_sgf(sgf));
  }
}

// Black 2 on a 5x1 board: Black's expanded root {1,2} is bounded and alone removed; White's
// stone 3, momentarily without liberties, stays. A Go viewer captures it when the stone is
// played, so the setup node after the move puts it back with AW.
TEST(Sgf, GoCaptureThatTanboDoesNotMakeIsPutBack) {
  auto topo = parse_topology("grid 5x1");
  tanbo::Setup s;
  s.name = "custom";
  s.players = 2;
  s.stones = {{topo->vertex_at({0, 0}), kBlack},
              {topo->vertex_at({2, 0}), kWhite},
              {topo->vertex_at({3, 0}), kBlack}};
  Game g(Position(topo, s));
  g.names = {"", ""};
  const MoveRecord& rec = g.position.play_checked(kBlack, topo->vertex_at({1, 0}));
  ASSERT_TRUE(rec.expanded_removed);
  ASSERT_EQ(g.position.at(topo->vertex_at({2, 0})), kWhite);
  const std::string sgf = write_sgf(g);
  EXPECT_NE(sgf.find(";B[ba];AW[ca]AE[aa][ba])"), std::string::npos) << sgf;
  const auto boards = test::view(sgf, 5, 1);
  ASSERT_EQ(boards.size(), 2u);
  EXPECT_EQ(boards[1], board_of(g.position));
  test::expect_same_game(g, read_sgf(sgf));
}

TEST(Sgf, HeaderProperties) {
  const Game g = test::random_game("grid 9x9", 1);
  const std::string sgf = write_sgf(g);
  EXPECT_EQ(sgf.rfind("(;GM[1]FF[4]", 0), 0u);
  EXPECT_NE(sgf.find("SZ[9]"), std::string::npos);
  EXPECT_NE(sgf.find("PB[alice]PW[bob]"), std::string::npos);
  EXPECT_NE(sgf.find("DT[2026-11-21]"), std::string::npos);
  EXPECT_NE(sgf.find(std::string("RE[") + (g.position.winner() == kBlack ? "B" : "W") + "+]"),
            std::string::npos);
  EXPECT_NE(sgf.find("AB[bh][hb]"), std::string::npos);  // Figure O: B2 and H8 Black
  EXPECT_NE(sgf.find("AW[hh][bb]"), std::string::npos);  // H2 and B8 White
}

// DT holds dates: this program's date-times are cut to their date, and any other text is
// written whole. Cut at ten bytes, "20b -11-\xef\x88\x88..." ended inside a character and the
// record written could not be read back.
TEST(Sgf, TheDateIsCutOnlyToADate) {
  Game g = test::random_game("grid 9x9", 1);
  for (const auto& [date, dt] : std::vector<std::pair<std::string, std::string>>{
           {"2026-11-21T07:50:00Z", "2026-11-21"},
           {"20b -11-\xef\x88\x88gri17", "20b -11-\xef\x88\x88gri17"},
           {"2026-11-21,22", "2026-11-21,22"},
           {"1996", "1996"}}) {
    g.date = date;
    const std::string sgf = write_sgf(g);
    EXPECT_NE(sgf.find("DT[" + dt + "]"), std::string::npos) << sgf;
    EXPECT_EQ(read_sgf(sgf, "x.sgf").date, dt);
  }
  g.date = "";
  EXPECT_EQ(write_sgf(g).find("DT["), std::string::npos);
}

TEST(Sgf, RoundTrip) {
  for (const char* spec : {"grid 9x9", "grid 19x19", "grid 13x13", "grid 7x5"}) {
    const Game g = test::random_game(spec, 4);
    const Game back = read_sgf(write_sgf(g), "x.sgf");
    test::expect_same_game(g, back);
    EXPECT_EQ(write_sgf(back), write_sgf(g));
  }
  EXPECT_NE(write_sgf(test::random_game("grid 7x5", 4)).find("SZ[7:5]"), std::string::npos);
}

TEST(Sgf, ResignationRoundTrip) {
  Game g = test::random_game("grid 9x9", 5, 10);
  g.position.resign(kBlack);
  const std::string sgf = write_sgf(g);
  EXPECT_NE(sgf.find("RE[W+R]"), std::string::npos);
  test::expect_same_game(g, read_sgf(sgf));
  Game h = test::random_game("grid 9x9", 5, 11);
  h.position.resign(kWhite);
  EXPECT_NE(write_sgf(h).find("RE[B+R]"), std::string::npos);
  test::expect_same_game(h, read_sgf(write_sgf(h)));
}

TEST(Sgf, UnfinishedGameHasNoResult) {
  const Game g = test::random_game("grid 9x9", 6, 8);
  const std::string sgf = write_sgf(g);
  EXPECT_EQ(sgf.find("RE["), std::string::npos);
  test::expect_same_game(g, read_sgf(sgf));
}

std::string refusal(const std::string& sgf) {
  try {
    read_sgf(sgf, "x.sgf");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Sgf, BoardSizesAreWholeNumbersGivenOnce) {
  EXPECT_EQ(refusal("(;GM[1]SZ[9.5])"),
            "x.sgf: node 1: SZ[9.5] is not a board size (SZ[9] or SZ[7:5])");
  EXPECT_EQ(refusal("(;GM[1]SZ[9:5.5])"),
            "x.sgf: node 1: SZ[9:5.5] is not a board size (SZ[9] or SZ[7:5])");
  for (const char* bad : {"(;GM[1]SZ[-9])", "(;GM[1]SZ[+9])", "(;GM[1]SZ[ 9])", "(;GM[1]SZ[9e0])",
                          "(;GM[1]SZ[])", "(;GM[1]SZ[9:])", "(;GM[1]SZ[0x9])"}) {
    EXPECT_NE(refusal(bad).find("is not a board size"), std::string::npos) << bad;
  }
  EXPECT_EQ(refusal("(;GM[1]SZ[9]SZ[19])"),
            "x.sgf:1: property SZ is given twice in one node (SGF allows one)");
  EXPECT_EQ(refusal("(;GM[1]PB[a]SZ[9]PB[b])"),
            "x.sgf:1: property PB is given twice in one node (SGF allows one)");
  EXPECT_EQ(refusal("(;GM[1]SZ[9][19])"), "x.sgf: node 1: SZ has 2 values, not one");
  // Repeats are found without comparing every pair: 100,000 properties in a node read at once
  // (a quadratic search would take minutes under the sanitizers).
  std::string many = "(;GM[1]SZ[9]";
  for (int i = 0; i < 100000; ++i) {
    for (int k = i, d = 0; d < 4; ++d, k /= 26) many += static_cast<char>('A' + k % 26);
    many += "[x]";
  }
  EXPECT_EQ(refusal(many + ")"), "");
  EXPECT_EQ(refusal(many + "ABCD[y])"),
            "x.sgf:1: property ABCD is given twice in one node (SGF allows one)");
  EXPECT_EQ(refusal("(;GM[1]SZ[53])"), "x.sgf: node 1: SZ[53] is outside 1..52");
  EXPECT_EQ(read_sgf("(;GM[1]SZ[7:5])").position.topology().spec, "grid 7x5");
}

// Old (FF[3]) names may hold lower-case letters, which are not part of them; a name of lower-case
// letters only is refused (it was passed over: "(;sz[9];b[ch])" read as an empty 19x19 game).
TEST(Sgf, PropertyNamesAreTheirCapitals) {
  EXPECT_EQ(read_sgf("(;GM[1]SiZe[9];B[ch])").position.topology().spec, "grid 9x9");
  EXPECT_EQ(refusal("(;GM[1]SZ[9]AB[aa]AE[bb])"),
            "x.sgf: node 1: AE in the root (stones taken off the start) is not read: give the "
            "start with AB and AW only");
  EXPECT_EQ(refusal("(;GM[1]SZ[9]PL[W])"), "x.sgf: node 1: PL[W]: Black moves first in Tanbo");
  EXPECT_EQ(read_sgf("(;GM[1]SZ[9]PL[B])").position.to_move(), kBlack);
  // Names are UTF-8 text, read from ISO-8859-1 when CA says so.
  EXPECT_EQ(read_sgf("(;GM[1]CA[ISO-8859-1]SZ[9]PB[Ren\xe9])").names[0], "Ren\u00e9");
  EXPECT_EQ(read_sgf("(;GM[1]SZ[9]PB[Ren\u00e9])").names[0], "Ren\u00e9");
  EXPECT_EQ(refusal("(;GM[1]SZ[9]PB[Ren\xe9])"),
            "x.sgf: node 1: PB is not UTF-8 text (a record "
            "in ISO-8859-1 says so with CA[ISO-8859-1])");
  EXPECT_EQ(refusal("(;sz[9];b[ch])"),
            "x.sgf:1: property \"sz\" has no capital letter: SGF "
            "names properties in capitals (SZ, B, W)");
}

TEST(Sgf, MessagesQuoteValuesShortAndEscaped) {
  const std::string huge(1000000, '9');
  const std::string sz = refusal("(;GM[1]SZ[" + huge + "])");
  EXPECT_LT(sz.size(), 120u) << sz.substr(0, 200);
  EXPECT_NE(sz.find("(1000000 bytes)"), std::string::npos) << sz;
  const std::string b = refusal("(;GM[1]SZ[9];B[" + std::string(1000000, 'c') + "])");
  EXPECT_LT(b.size(), 120u) << b.substr(0, 200);
  EXPECT_EQ(refusal(std::string("(;GM[1]SZ[9];B[c\0h])", 21)),
            "x.sgf: node 2: [\"c\\0h\"] is not a point of a 9x9 board");
  EXPECT_EQ(refusal(std::string("(;GM[1]SZ[9]\0)", 15)), "x.sgf:1: unexpected \"\\0\"");
  const std::string id = refusal("(;GM[1]SZ[9]" + std::string(100000, 'X') + ")");
  EXPECT_LT(id.size(), 140u) << id.substr(0, 200);
  EXPECT_EQ(refusal("(;GM[\x01\x02]SZ[9])").rfind("x.sgf: node 1: GM[\"\\x01\\x02\"]", 0), 0u);
}

TEST(Sgf, NamesAreReadAsOneLine) {
  // SGF's SimpleText: line breaks and other control characters become spaces.
  const Game g =
      read_sgf("(;GM[1]SZ[9]PB[ann\r\n\r\n]PW[bob\r\n\tsmith]EV[cup\n2026]DT[2026-11-21\r])");
  EXPECT_EQ(g.names[0], "ann");
  EXPECT_EQ(g.names[1], "bob   smith");
  EXPECT_EQ(g.event, "cup 2026");
  EXPECT_EQ(g.date, "2026-11-21");
  // The game file written from it keeps one line per name.
  EXPECT_EQ(read_game(write_game(g)).names, g.names);
  // C1 controls (U+0080 to U+009F) too: a game file refuses them in names.
  const Game c1 = read_sgf(
      "(;GM[1]SZ[9]PB[ann\xc2\x9b"
      "2Jx]PW[b\xc2\x85o\xc2\xa0"
      "b])");
  EXPECT_EQ(c1.names[0], "ann 2Jx");
  EXPECT_EQ(c1.names[1],
            "b o\xc2\xa0"
            "b");
  EXPECT_EQ(read_game(write_game(c1)).names, c1.names);
}

// A name is printed as it is: a character that turns text around (U+202E) would show
// "bob\u202Eecila" as "bobalice". Game files and the command line refuse them too.
TEST(Sgf, NamesThatTurnTextAroundAreRefused) {
  for (const char* id : {"PB", "PW", "EV", "DT"}) {
    EXPECT_EQ(refusal(std::string("(;GM[1]SZ[9]") + id +
                      "[bob\xe2\x80\xae"
                      "ecila])"),
              "x.sgf: node 1: " + std::string(id) +
                  " holds a character that changes the direction of text (U+202E and the like), "
                  "which would show it other than it is written");
  }
  EXPECT_EQ(refusal("(;GM[1]SZ[9]PB[Ren\xc3\xa9])"), "");
}

// What writing a record again (tanbo move on an SGF file) would drop of it.
TEST(Sgf, WhatWritingARecordAgainWouldLeaveOut) {
  const std::string start = "(;GM[1]FF[4]CA[UTF-8]AP[other:1]ST[2]SZ[9]AB[bh][hb]AW[hh][bb]";
  EXPECT_EQ(sgf_left_out_by_rewrite(start + ";B[ch])"), "");
  EXPECT_EQ(sgf_left_out_by_rewrite(start + ";B[ch](;W[hg])(;W[gh])(;W[hf]))"),
            "2 variations besides its main line");
  EXPECT_EQ(sgf_left_out_by_rewrite(start + ";B[ch]C[nice])"), "C[nice] in node 2");
  EXPECT_EQ(sgf_left_out_by_rewrite(start + "DT[2026-11-21T10:00:00Z];B[ch])"),
            "DT[2026-11-21T10:00:00Z] in node 1");
  EXPECT_EQ(sgf_left_out_by_rewrite(start + "DT[2026-11-21,22];B[ch])"), "");
  EXPECT_EQ(sgf_left_out_by_rewrite(start + "DT[2026-11-21];B[ch])"), "");
  const Game g = test::random_game("grid 9x9", 3, 6);
  EXPECT_EQ(sgf_left_out_by_rewrite(write_sgf(g)), "");
}

// The main line is counted against the memory limit as it is read: 64 MB of empty nodes take
// 512 MB, which a small machine may not have. Here 24 MB of them under a limit of 128 MB.
TEST(Sgf, AMainLineOverTheMemoryLimitIsRefused) {
  set_max_memory(128u << 20);
  const std::string text = "(;GM[1]SZ[9]" + std::string(24u << 20, ';') + ")";
  const std::string why = refusal(text);
  set_max_memory(0);
  EXPECT_EQ(why.rfind("x.sgf:1: the record's main line would need about ", 0), 0u) << why;
  EXPECT_NE(why.find("--max-memory"), std::string::npos) << why;
  EXPECT_EQ(read_sgf(text, "big.sgf").position.ply(), 0u);  // with the machine's own limit
}

// SGF lists a point once. Rectangles listed again and again ("[aa:ZZ]" is every point of 52x52)
// named billions of points in a record of a few megabytes: minutes and gigabytes of memory.
TEST(Sgf, APointListedTwiceIsRefused) {
  std::string rects;
  for (int i = 0; i < 20000; ++i) rects += "[aa:ZZ]";
  EXPECT_EQ(refusal("(;GM[1]SZ[52]AB" + rects + ")"),
            "x.sgf: node 1: AB lists 1,1 (aZ) more than once");
  EXPECT_EQ(refusal("(;GM[1]SZ[9]AB[bh][hb]AW[hh][bb][hh])"),
            "x.sgf: node 1: AW lists H2 (hh) more than once");
  EXPECT_EQ(refusal("(;GM[1]SZ[9]AB[bh][hb]AW[hh][bb];B[ch];AE[ch][ch])"),
            "x.sgf: node 3: AE lists C2 (ch) more than once");
  EXPECT_EQ(refusal("(;GM[1]SZ[9]AB[bh][hb]AW[hh:hh][bb];B[ch])"), "");
}

TEST(Sgf, BadRecordsRefused) {
  const std::string head = "(;GM[1]FF[4]SZ[9]AB[bh][hb]AW[hh][bb]";
  EXPECT_EQ(refusal(head + ";B[ch];W[gh])"), "");
  EXPECT_EQ(refusal(head + ";B[ch];W[cg])"),
            "x.sgf: node 3: W[cg] (C3): no White stone touches C3");
  EXPECT_EQ(refusal(head + ";W[gh])"),
            "x.sgf: node 2: W[gh] (G2): it is Black's turn, not White's");
  EXPECT_EQ(refusal(head + ";B[])"), "x.sgf: node 2: a pass: Tanbo has no passing");
  EXPECT_EQ(refusal(head + ";B[zz])"), "x.sgf: node 2: [zz] is not a point of a 9x9 board");
  EXPECT_EQ(refusal(head + ";B[ch"), "x.sgf:1: unterminated value of B (a ']' is missing)");
  EXPECT_EQ(refusal(head + ";B[ch]"), "x.sgf:1: unexpected end of the SGF text (a ')' is missing)");
  EXPECT_EQ(refusal(head + ";B[ch]AE[bh])"),
            "x.sgf: node 2: AE does not list the stones the rules remove after C2");
  EXPECT_EQ(
      refusal("(;GM[1]SZ[9]AB[aa][ab])").rfind("x.sgf: node 1: the starting stones are refused", 0),
      0u);
  EXPECT_EQ(refusal("(;GM[3]SZ[9])").rfind("x.sgf: node 1: GM[3]", 0), 0u);
  EXPECT_EQ(refusal("hello").rfind("x.sgf:1: SGF text must start with '('", 0), 0u);
  EXPECT_NE(refusal([] {
              std::string deep;
              for (int i = 0; i < 5000; ++i) deep += "(;";
              return deep;
            }())
                .find("nested more than 1000 deep"),
            std::string::npos);
  // Variations: only the main line (first child) counts.
  EXPECT_EQ(refusal(head + ";B[ch](;W[gh];B[ci])(;W[zz]))"), "");
}

// The root node holds the record's properties and the starting stones, no move; every move has
// a node of its own (B or W alone); the stones a move removed are on a setup node right after
// it (SGF FF[4] forbids setup and move properties in one node).
TEST(Sgf, RootHoldsTheStartAndEachMoveHasANodeOfItsOwn) {
  const std::set<std::string> setup_ids{"AB", "AW", "AE"};
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const Game g = test::random_game("grid 9x9", seed);
    const std::vector<std::string> nodes = test::split_nodes(write_sgf(g));
    const std::set<std::string> root = test::property_ids(nodes.at(0));
    for (const char* id : {"GM", "FF", "SZ", "PB", "PW", "RE", "AB", "AW"})
      EXPECT_TRUE(root.count(id)) << id;
    EXPECT_FALSE(root.count("B") || root.count("W") || root.count("AE")) << nodes[0];
    std::size_t moves = 0, setups = 0;
    for (std::size_t i = 1; i < nodes.size(); ++i) {
      const std::set<std::string> ids = test::property_ids(nodes[i]);
      if (ids == std::set<std::string>{"B"} || ids == std::set<std::string>{"W"}) {
        ++moves;
        continue;
      }
      ++setups;
      EXPECT_TRUE(std::includes(setup_ids.begin(), setup_ids.end(), ids.begin(), ids.end()))
          << "node " << i << ": " << nodes[i];
      const std::set<std::string> before = test::property_ids(nodes[i - 1]);
      EXPECT_TRUE(before.count("B") || before.count("W")) << "node " << i << " follows no move";
    }
    EXPECT_EQ(moves, g.position.ply());
    EXPECT_GT(setups, 0u);
  }
}

// Earlier versions wrote the removals (AE) and put-back stones (AB/AW) on the move's own node.
// Such records still load, to the same game.
TEST(Sgf, RecordsWithRemovalsOnTheMoveNodeStillLoad) {
  const std::regex joined(R"((;[BW]\[[a-zA-Z]{2}\]);)");
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const Game g = test::random_game("grid 9x9", seed);
    const std::string now = write_sgf(g);
    const std::string old = std::regex_replace(now, joined, "$1");
    ASSERT_NE(old, now);
    ASSERT_NE(old.find("]AE["), std::string::npos);
    test::expect_same_game(g, read_sgf(old, "old.sgf"));
  }
  // The 5x1 game of GoCaptureThatTanboDoesNotMakeIsPutBack as it used to be written.
  const Game g = read_sgf("(;GM[1]FF[4]SZ[5:1]AB[aa][da]AW[ca];B[ba]AW[ca]AE[aa][ba])");
  EXPECT_EQ(g.position.ply(), 1u);
  EXPECT_NE(write_sgf(g).find("\n;B[ba];AW[ca]AE[aa][ba])"), std::string::npos) << write_sgf(g);
}

// Stones set up after the root are taken only as the record of what the move before removed.
TEST(Sgf, SetupNodesOnlyRightAfterAMove) {
  const std::string head = "(;GM[1]FF[4]SZ[9]AB[bh][hb]AW[hh][bb]";
  EXPECT_EQ(refusal(head + ";AB[ch];B[ch])"),
            "x.sgf: node 2: stones added in the middle of the game (AB/AW) are not Tanbo moves");
  EXPECT_EQ(refusal(head + ";B[ch];C[a comment];AE[ch])"), "x.sgf: node 4: AE without a move");
  EXPECT_EQ(refusal(head + ";B[ch];AE[ch])"),
            "x.sgf: node 3: AE does not list the stones the rules remove after C2");
  EXPECT_EQ(refusal(head + ";B[ch];AW[ci])"),
            "x.sgf: node 3: AW puts a stone on C1 where the rules leave none");
  EXPECT_EQ(refusal(head + ";B[ch];W[gh];AW[ch])"),
            "x.sgf: node 4: AW puts a stone on C2 where the rules leave a Black stone");
  EXPECT_EQ(refusal(head + ";B[ch];C[fine];W[gh])"), "");
}

TEST(Sgf, VariationsLeftOutAreCounted) {
  const std::string head = "(;GM[1]FF[4]SZ[9]AB[bh][hb]AW[hh][bb]";
  auto left_out = [](const std::string& sgf) {
    std::size_t n = 99;
    read_sgf(sgf, "v.sgf", &n);
    return n;
  };
  EXPECT_EQ(left_out(head + ";B[ch];W[gh])"), 0u);
  EXPECT_EQ(left_out(head + ";B[ch](;W[gh];B[ci])(;W[zz]))"), 1u);
  EXPECT_EQ(left_out(head + "(;B[ch](;W[gh])(;W[gi]))(;B[ci])(;B[bi]))"), 3u);
  // A line off the main line that branches again counts once for each of its ends.
  EXPECT_EQ(left_out(head + ";B[ch](;W[gh])(;W[gi](;B[ci])(;B[bi])))"), 2u);
  const Game g = read_sgf(head + ";B[ch](;W[gh];B[ci])(;W[zz]))");
  EXPECT_EQ(g.position.ply(), 3u);  // the main line: C2, G2, C1
}

// tanbo import reads the main line and says on stderr what it left out.
TEST(SgfBinary, ImportSaysHowManyVariationsItLeftOut) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(testing::TempDir()) / ("tanbo_sgf_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string head = "(;GM[1]FF[4]SZ[9]AB[bh][hb]AW[hh][bb]";
  const fs::path with = dir / "variations.sgf", without = dir / "plain.sgf";
  std::ofstream(with) << head + ";B[ch](;W[gh](;B[ci])(;B[bi]))(;W[gi])(;W[hi]))\n";
  std::ofstream(without) << head + ";B[ch];W[gh])\n";
  const std::string bin = std::string(TANBO_BINARY) + " import ";
  auto r = test::run_command(bin + with.string());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "tanbo import: left out 3 variations (only the main line is imported)\n");
  EXPECT_NE(r.out.find("moves\nblack C2\nwhite G2\nblack C1\n"), std::string::npos) << r.out;
  r = test::run_command(bin + without.string());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  std::ofstream(without) << head + ";B[ch](;W[gh])(;W[gi]))\n";
  r = test::run_command(bin + without.string() + " -o " + (dir / "one.tanbo").string());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("tanbo import: left out 1 variation (only the main line is imported)\n"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(fs::exists(dir / "one.tanbo"));
  fs::remove_all(dir);
}

TEST(Sgf, OnlyTwoPlayer2DGames) {
  EXPECT_THROW(write_sgf(test::random_game("grid 5x5x5", 1, 4)), Error);
  EXPECT_THROW(write_sgf(new_game("grid 19x19", "four", 4, {})), Error);
  EXPECT_THROW(write_sgf(new_game("hex 5", "default", 0, {})), Error);
  // A torus would read back as a flat board, a different game.
  try {
    write_sgf(test::random_game("grid 7x7 wrap", 1, 4));
    ADD_FAILURE() << "a torus written as SGF";
  } catch (const Error& e) {
    EXPECT_EQ(
        std::string(e.what()).rfind("SGF records flat boards only; grid 7x7 wrap is a torus", 0),
        0u)
        << e.what();
  }
}

TEST(Sgf, ForeignSetupIsKeptAsCustom) {
  // Stones that match no named setup: read as a custom start and written back the same.
  const std::string sgf = "(;GM[1]FF[4]SZ[6]AB[aa][ff]AW[af][fa];B[ba])";
  const Game g = read_sgf(sgf);
  EXPECT_EQ(g.position.setup().name, "custom");
  EXPECT_EQ(g.position.ply(), 1u);
  test::expect_same_game(g, read_sgf(write_sgf(g)));
}

// Which names and texts count as SGF, the same for every command (new, save, view, edits).
TEST(Sgf, FileNamesAndTextsThatAreSgf) {
  EXPECT_TRUE(is_sgf_file_name("game.sgf"));
  EXPECT_TRUE(is_sgf_file_name("GAME.SGF"));
  EXPECT_TRUE(is_sgf_file_name("dir/x.Sgf"));
  EXPECT_TRUE(is_sgf_file_name(".sgf"));
  EXPECT_FALSE(is_sgf_file_name("game.tanbo"));
  EXPECT_FALSE(is_sgf_file_name("sgf"));
  EXPECT_FALSE(is_sgf_file_name("game.sgf.tanbo"));
  EXPECT_FALSE(is_sgf_file_name(""));
  EXPECT_TRUE(is_sgf_text("(;GM[1]SZ[9])"));
  EXPECT_TRUE(is_sgf_text(" \r\n\t(;GM[1])"));
  EXPECT_FALSE(is_sgf_text("tanbo game 1\n"));
  EXPECT_FALSE(is_sgf_text("  \n"));
  EXPECT_FALSE(is_sgf_text(""));
}

}  // namespace
}  // namespace tanbo

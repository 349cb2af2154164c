// Named starting setups (docs/rules.md): exact seeds where a document fixes them, the
// "spaced" rule everywhere else, and the refusal of unknown or unfitting names.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "figure_diagram.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/platform/memory.hpp"
#include "test_support.hpp"

using namespace tanbo;

namespace {

// Seeds by name: {"A1": 1, ...}.
std::map<std::string, Player> seeds_by_name(const Topology& t, const Setup& s) {
  std::map<std::string, Player> out;
  for (const auto& [v, p] : s.stones) out[t.name(v)] = p;
  return out;
}

std::vector<std::uint32_t> seeds_per_player(const Setup& s) {
  std::vector<std::uint32_t> out(s.players, 0);
  for (const auto& [v, p] : s.stones) ++out.at(p - 1);
  return out;
}

// The checks every setup must pass: it makes a consistent position (no bounded seed, no two
// seeds of a colour adjacent, every player seated), and seeds are distinct.
void check_valid(const TopologyPtr& t, const Setup& s) {
  SCOPED_TRACE(t->spec + " / " + s.name);
  std::set<Vertex> points;
  for (const auto& [v, p] : s.stones) {
    EXPECT_LT(v, t->num_vertices());
    EXPECT_TRUE(points.insert(v).second) << "two seeds on " << t->name(v);
    for (Vertex u : t->graph.neighbours(v)) {
      for (const auto& [w, q] : s.stones) {
        EXPECT_FALSE(w == u && q == p)
            << "seeds " << t->name(v) << " and " << t->name(u) << " touch";
      }
    }
  }
  Position pos(t, s);
  EXPECT_EQ(pos.check_consistency(), "");
  for (RootId r : pos.live_roots()) EXPECT_GT(pos.root_space(r), 0u) << t->name(pos.root_seed(r));
  EXPECT_EQ(pos.to_move(), kBlack);
}

void expect_equal_shares(const Setup& s) {
  const auto share = seeds_per_player(s);
  for (std::uint32_t c : share) EXPECT_EQ(c, share[0]) << s.name;
  EXPECT_GT(share[0], 0u);
}

std::string error_of(const Topology& t, const std::string& name, int players = 0) {
  try {
    make_setup(t, name, players);
  } catch (const Error& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

TEST(Setups, Steere1995On19x19IsFigureA) {
  auto t = parse_topology("grid 19x19");
  const tanbo::Setup s = make_setup(*t);
  EXPECT_EQ(s.name, "steere1995");
  EXPECT_EQ(s.players, 2);
  const test::Diagram a = test::load_diagram("steere1995_A.txt");
  Position pos(t, s);
  EXPECT_EQ(test::diff_against(pos, a), "");
  const auto by = seeds_by_name(*t, s);
  EXPECT_EQ(by.size(), 16u);
  EXPECT_EQ(by.at("A1"), kBlack);
  EXPECT_EQ(by.at("G1"), kWhite);
  EXPECT_EQ(by.at("T19"), kBlack);
  EXPECT_EQ(by.at("A19"), kWhite);
  for (const char* c : {"A", "G", "N", "T"}) {
    for (const char* r : {"1", "7", "13", "19"})
      EXPECT_TRUE(by.count(std::string(c) + r)) << c << r;
  }
  expect_equal_shares(s);
  check_valid(t, s);
}

TEST(Setups, Steere1995On9x9IsFigureO) {
  auto t = parse_topology("9x9");
  const tanbo::Setup s = make_setup(*t);
  EXPECT_EQ(s.name, "steere1995");
  Position pos(t, s);
  EXPECT_EQ(test::diff_against(pos, test::load_diagram("steere1995_O.txt")), "");
  EXPECT_EQ(seeds_by_name(*t, s),
            (std::map<std::string, Player>{
                {"B2", kBlack}, {"H8", kBlack}, {"H2", kWhite}, {"B8", kWhite}}));
  check_valid(t, s);
}

TEST(Setups, PbmservOn19x19IsItsFigureAWithColoursSwapped) {
  auto t = parse_topology("grid 19x19");
  const tanbo::Setup s = make_setup(*t, "pbmserv");
  Position pos(t, s);
  EXPECT_EQ(test::diff_against(pos, test::load_diagram("pbmserv_A.txt")), "");
  const tanbo::Setup a = make_setup(*t, "steere1995");
  ASSERT_EQ(a.stones.size(), s.stones.size());
  const auto sb = seeds_by_name(*t, s);
  for (const auto& [name, p] : seeds_by_name(*t, a)) EXPECT_EQ(sb.at(name), 3 - p) << name;
  EXPECT_EQ(sb.at("A1"), kWhite);
  check_valid(t, s);
}

TEST(Setups, PbmservOn5x5x5IsTheEightCorners) {
  auto t = parse_topology("grid 5x5x5");
  EXPECT_EQ(default_setup(*t), "pbmserv");
  const tanbo::Setup s = make_setup(*t);
  EXPECT_EQ(seeds_by_name(*t, s), (std::map<std::string, Player>{{"115", kBlack},
                                                                 {"151", kBlack},
                                                                 {"511", kBlack},
                                                                 {"555", kBlack},
                                                                 {"111", kWhite},
                                                                 {"155", kWhite},
                                                                 {"515", kWhite},
                                                                 {"551", kWhite}}));
  check_valid(t, s);
  // The pbmserv sample game: Black grows 125 from 115, White 255 from 155.
  Position pos(t, s);
  pos.play_checked(kBlack, *t->parse_vertex("125"));
  pos.play_checked(kWhite, *t->parse_vertex("255"));
  EXPECT_EQ(pos.check_consistency(), "");
}

TEST(Setups, Steere2005On13x13) {
  auto t = parse_topology("grid 13x13");
  const tanbo::Setup s = make_setup(*t);
  EXPECT_EQ(s.name, "steere2005");
  const auto by = seeds_by_name(*t, s);
  EXPECT_EQ(by.size(), 16u);
  const char* cols[] = {"A", "E", "J", "N"};
  const char* rows[] = {"1", "5", "9", "13"};
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      EXPECT_EQ(by.at(std::string(cols[i]) + rows[j]), (i + j) % 2 == 0 ? kBlack : kWhite)
          << cols[i] << rows[j];
    }
  }
  check_valid(t, s);
}

TEST(Setups, FourIsAFairLatinSquareForFourPlayers) {
  auto t = parse_topology("grid 19x19");
  const tanbo::Setup s = make_setup(*t, "four");
  EXPECT_EQ(s.players, 4);
  EXPECT_EQ(s.stones.size(), 16u);
  expect_equal_shares(s);
  check_valid(t, s);
  // Seed grid columns/rows A G N T x 1 7 13 19; each player once per seed row and column.
  std::map<std::pair<int, int>, Player> grid;
  for (const auto& [v, p] : s.stones) {
    const auto c = t->coords(v);
    ASSERT_EQ(c[0] % 6, 0u);
    ASSERT_EQ(c[1] % 6, 0u);
    grid[{static_cast<int>(c[0] / 6), static_cast<int>(c[1] / 6)}] = p;
  }
  for (int a = 0; a < 4; ++a) {
    std::set<Player> row, col;
    for (int b = 0; b < 4; ++b) {
      row.insert(grid.at({b, a}));
      col.insert(grid.at({a, b}));
    }
    EXPECT_EQ(row.size(), 4u);
    EXPECT_EQ(col.size(), 4u);
  }
  // A quarter turn of the board (counter-clockwise) maps the seeds of player p onto those of
  // player p+1 (4 onto 1): no player's seeds sit better than another's.
  for (const auto& [ij, p] : grid) {
    const std::pair<int, int> turned{3 - ij.second, ij.first};
    EXPECT_EQ(grid.at(turned), p % 4 + 1);
  }
  // It needs four players.
  EXPECT_NE(error_of(*t, "four", 2).find("does not fit"), std::string::npos);
}

TEST(Setups, DenseOnSquareBoards) {
  for (std::uint32_t n : {4u, 5u, 9u, 13u, 19u, 20u}) {
    auto t = parse_topology("grid " + std::to_string(n) + "x" + std::to_string(n));
    const tanbo::Setup s = make_setup(*t, "dense");
    EXPECT_EQ(s.stones.size(), std::size_t{n / 2} * (n / 2));
    for (const auto& [v, p] : s.stones) {
      const auto c = t->coords(v);
      EXPECT_EQ(c[0] % 2, 1u);  // 0-based odd = 1-based even
      EXPECT_EQ(c[1] % 2, 1u);
      EXPECT_EQ(p, (c[0] / 2 + c[1] / 2) % 2 + 1);
    }
    const auto share = seeds_per_player(s);
    EXPECT_LE(std::max(share[0], share[1]) - std::min(share[0], share[1]), 1u);
    check_valid(t, s);
  }
  // Not when it would leave a player without a stone; three players too; not on a
  // non-square board or a torus.
  EXPECT_NE(error_of(*parse_topology("grid 3x3"), "dense").find("does not fit"), std::string::npos);
  auto t = parse_topology("grid 19x19");
  check_valid(t, make_setup(*t, "dense", 3));
  EXPECT_NE(error_of(*parse_topology("grid 19x13"), "dense").find("does not fit"),
            std::string::npos);
  EXPECT_NE(error_of(*parse_topology("grid 19x19 wrap"), "dense").find("does not fit"),
            std::string::npos);
}

// The 2026 re-release: a stone on every point whose 0-based coordinates are both even,
// checkerboard colours with Black on A1 and on the opposite corner.
TEST(Setups, Steere2026OnOddSquareBoards) {
  const std::map<std::uint32_t, std::size_t> stones = {{3, 4},   {5, 9},   {7, 16},  {9, 25},
                                                       {11, 36}, {13, 49}, {15, 64}, {19, 100}};
  for (const auto& [n, count] : stones) {
    auto t = parse_topology("grid " + std::to_string(n) + "x" + std::to_string(n));
    SCOPED_TRACE(t->spec);
    const tanbo::Setup s = make_setup(*t, "steere2026");
    EXPECT_EQ(s.name, "steere2026");
    EXPECT_EQ(s.players, 2);
    EXPECT_EQ(s.stones.size(), count);
    for (const auto& [v, p] : s.stones) {
      const auto c = t->coords(v);
      EXPECT_EQ(c[0] % 2, 0u);
      EXPECT_EQ(c[1] % 2, 0u);
      EXPECT_EQ(p, (c[0] / 2 + c[1] / 2) % 2 + 1);
    }
    const auto by = seeds_by_name(*t, s);
    const std::string last(1, "ABCDEFGHJKLMNOPQRST"[n - 1]);
    EXPECT_EQ(by.at("A1"), kBlack);
    EXPECT_EQ(by.at(last + std::to_string(n)), kBlack);
    EXPECT_EQ(by.at("A" + std::to_string(n)), n % 4 == 1 ? kBlack : kWhite);
    check_valid(t, s);
  }
  // 7x7: 8 stones each, on A1 C1 E1 G1, A3 ..., G7.
  auto t7 = parse_topology("grid 7x7");
  const auto s7 = make_setup(*t7);
  EXPECT_EQ(s7.name, "steere2026");
  expect_equal_shares(s7);
  const auto by7 = seeds_by_name(*t7, s7);
  EXPECT_EQ(by7.at("C1"), kWhite);
  EXPECT_EQ(by7.at("C3"), kBlack);
  EXPECT_EQ(by7.at("G1"), kWhite);
  EXPECT_EQ(by7.count("B2"), 0u);
  // The default on odd square boards no seed document gives a start for; offered beside the
  // documented defaults of 9x9, 13x13 and 19x19; dense keeps its meaning.
  for (const char* spec : {"grid 3x3", "grid 5x5", "grid 7x7", "grid 11x11", "grid 15x15"}) {
    EXPECT_EQ(default_setup(*parse_topology(spec)), "steere2026") << spec;
  }
  EXPECT_EQ(setups_for(*parse_topology("grid 9x9")),
            (std::vector<std::string>{"steere1995", "steere2026", "dense", "spaced"}));
  EXPECT_EQ(setups_for(*parse_topology("grid 13x13")).front(), "steere2005");
  EXPECT_EQ(make_setup(*t7, "dense").stones.size(), 9u);
  // Two players only; odd square boards only.
  EXPECT_EQ(error_of(*t7, "steere2026", 3),
            "setup steere2026 does not fit grid 7x7 for 3 players; setups that fit: dense, spaced");
  EXPECT_EQ(error_of(*parse_topology("grid 8x8"), "steere2026"),
            "setup steere2026 does not fit grid 8x8; setups that fit: spaced, dense");
  EXPECT_NE(error_of(*parse_topology("grid 7x9"), "steere2026").find("does not fit"),
            std::string::npos);
  EXPECT_NE(error_of(*parse_topology("grid 7x7 wrap"), "steere2026").find("does not fit"),
            std::string::npos);
}

TEST(Setups, HexboForTwoThreeAndSixPlayers) {
  for (std::uint32_t side : {5u, 6u, 9u}) {
    auto t = parse_topology("hex " + std::to_string(side));
    EXPECT_EQ(default_setup(*t), "hexbo");
    for (int k : {2, 3, 6}) {
      const tanbo::Setup s = make_setup(*t, "hexbo", k);
      EXPECT_EQ(s.players, k);
      ASSERT_EQ(s.stones.size(), 6u);
      expect_equal_shares(s);
      check_valid(t, s);
      // One seed one cell in from each corner, colours in turn around the hexagon.
      const int d = static_cast<int>(side) - 2;
      std::set<std::pair<int, int>> seen;
      for (std::size_t i = 0; i < 6; ++i) {
        const auto [q, r] = t->hex_axial[s.stones[i].first];
        EXPECT_EQ((std::abs(q) + std::abs(r) + std::abs(q + r)) / 2, d);  // ring N-2
        EXPECT_TRUE(q == 0 || r == 0 || q + r == 0) << "on a line through a corner";
        seen.insert({q, r});
        EXPECT_EQ(s.stones[i].second, i % k + 1);
        if (i > 0) {  // neighbouring corners
          const auto [q0, r0] = t->hex_axial[s.stones[i - 1].first];
          EXPECT_EQ((std::abs(q - q0) + std::abs(r - r0) + std::abs(q + r - q0 - r0)) / 2, d);
        }
      }
      EXPECT_EQ(seen.size(), 6u);
    }
    EXPECT_NE(error_of(*t, "hexbo", 4).find("does not fit"), std::string::npos);
  }
  // The default is two players.
  EXPECT_EQ(make_setup(*parse_topology("hex 5")).players, 2);
}

TEST(Setups, SpacedOnTheLineOf31MatchesThePbmservPage) {
  auto t = parse_topology("line 31");
  const tanbo::Setup s = make_setup(*t);
  EXPECT_EQ(s.name, "spaced");
  // "# . . . . . O . . . . . # . . . . . O . . . . . # . . . . . O"
  EXPECT_EQ(seeds_by_name(*t, s), (std::map<std::string, Player>{{"1", kBlack},
                                                                 {"7", kWhite},
                                                                 {"13", kBlack},
                                                                 {"19", kWhite},
                                                                 {"25", kBlack},
                                                                 {"31", kWhite}}));
  check_valid(t, s);
}

TEST(Setups, SpacedGivesEveryPlayerTheSameNumberOfFreeSeeds) {
  const std::vector<std::string> specs = {
      "line 3",          "line 4",          "line 7",
      "line 30",         "line 100",        "grid 5x5",
      "grid 7x7",        "grid 8x11",       "grid 19x19",
      "grid 25x25",      "grid 30x30",      "grid 3x3x3",
      "grid 4x4x4",      "grid 5x5x5",      "grid 7x6x5",
      "grid 5x5x5x5",    "grid 3x4x5x6",    "grid 3x3x3x3x3x3x3x3x3x3x3",
      "grid 19x19 wrap", "grid 6x6 wrap",   "grid 5x5 wrap",
      "grid 9 wrap",     "grid 4x4x4 wrap", "grid 1x9",
      "grid 20x1x5"};
  for (const auto& spec : specs) {
    auto t = parse_topology(spec);
    for (int k : {2, 3, 4}) {
      const auto fits = setups_for(*t, k);
      if (std::find(fits.begin(), fits.end(), "spaced") == fits.end()) {
        EXPECT_NE(k, 2) << spec << " has no spaced setup for 2 players";
        EXPECT_NE(error_of(*t, "spaced", k).find("does not fit"), std::string::npos);
        continue;
      }
      const tanbo::Setup s = make_setup(*t, "spaced", k);
      EXPECT_EQ(s.players, k);
      expect_equal_shares(s);
      check_valid(t, s);
    }
  }
  // 11 dimensions: 2 seeds per axis, 2048 seeds, 1024 a side.
  auto t = parse_topology("grid 3x3x3x3x3x3x3x3x3x3x3");
  EXPECT_EQ(t->num_vertices(), 177147u);
  const tanbo::Setup s = make_setup(*t);
  EXPECT_EQ(s.stones.size(), 2048u);
  EXPECT_EQ(seeds_per_player(s), (std::vector<std::uint32_t>{1024, 1024}));
  // Colours alternate like a checkerboard: seeds next to each other along an axis differ.
  auto t4 = parse_topology("grid 5x5x5x5");
  const auto by = seeds_by_name(*t4, make_setup(*t4));
  EXPECT_EQ(by.size(), 16u);
  EXPECT_EQ(by.at("1,1,1,1"), kBlack);
  EXPECT_EQ(by.at("5,1,1,1"), kWhite);
  EXPECT_EQ(by.at("5,5,1,1"), kBlack);
  EXPECT_EQ(by.at("5,5,5,5"), kBlack);
}

TEST(Setups, TooSmallBoardsAreRefusedWithAReason) {
  // With at most one seed per axis (an axis of 1 or 2 points, or 3 around a torus) no player
  // could get the same number of free seeds.
  for (const char* spec :
       {"line 1", "line 2", "grid 2x2", "grid 2x2x2x2x2", "grid 3 wrap", "grid 1x1x1"}) {
    auto t = parse_topology(spec);
    EXPECT_EQ(error_of(*t, "default"), "setup spaced does not fit " + t->spec +
                                           " (the board is too small to give 2 players the same "
                                           "number of free seeds); setups that fit: none");
  }
}

TEST(Setups, FileSetupReadsTheStones) {
  auto t = make_from_dot(
      "graph g { players=3; a [stone=1]; b; c [stone=white]; d; e [stone=red]; f;"
      " a -- b -- c -- d -- e -- f -- a; }",
      "ring.dot");
  EXPECT_EQ(default_setup(*t), "file");
  const tanbo::Setup s = make_setup(*t);
  EXPECT_EQ(s.players, 3);
  EXPECT_EQ(seeds_by_name(*t, s), (std::map<std::string, Player>{{"a", 1}, {"c", 2}, {"e", 3}}));
  check_valid(t, s);
  // No stones: a specific message.
  auto bare = make_from_dot("graph { a -- b -- c }", "bare.dot");
  EXPECT_EQ(error_of(*bare, "file"),
            "the DOT file places no stones (give nodes a stone attribute)");
  // An isolated seed (a node without edges) has no root space: refused.
  auto isolated = make_from_dot("graph { a [stone=1]; b [stone=2]; b -- c; d -- c }", "iso.dot");
  try {
    Position pos(isolated, make_setup(*isolated));
    ADD_FAILURE() << "an isolated seed was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "the starting position has a bounded root: the Black seed at a has no root space");
  }
  // Stones that make a bounded root are refused by the position.
  auto boxed =
      make_from_dot("graph { a [stone=1]; b [stone=2]; c [stone=2]; b -- a -- c }", "boxed.dot");
  try {
    Position pos(boxed, make_setup(*boxed));
    ADD_FAILURE() << "a boxed-in seed was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "the starting position has a bounded root: the Black seed at a has no root space");
  }
}

TEST(Setups, UnknownAndUnfittingNamesAreRefusedWithTheListThatFits) {
  auto t = parse_topology("grid 19x19");
  EXPECT_EQ(setups_for(*t), (std::vector<std::string>{"steere1995", "pbmserv", "steere2026", "four",
                                                      "dense", "spaced"}));
  EXPECT_EQ(error_of(*t, "nonsense"),
            "unknown setup \"nonsense\"; setups that fit grid 19x19: steere1995, pbmserv, "
            "steere2026, four, dense, spaced");
  EXPECT_EQ(error_of(*t, "steere2005"),
            "setup steere2005 does not fit grid 19x19; setups that fit: steere1995, pbmserv, "
            "steere2026, four, dense, spaced");
  EXPECT_EQ(
      error_of(*t, "steere1995", 3),
      "setup steere1995 does not fit grid 19x19 for 3 players; setups that fit: dense, spaced");
  EXPECT_EQ(error_of(*t, "hexbo"),
            "setup hexbo does not fit grid 19x19; setups that fit: steere1995, pbmserv, "
            "steere2026, four, dense, spaced");
  EXPECT_EQ(error_of(*t, "spaced", 9), "a game needs 2 to 8 players, not 9");
  // Names are case-insensitive; "default" is the board's default.
  EXPECT_EQ(make_setup(*t, "PBMSERV").name, "pbmserv");
  EXPECT_EQ(make_setup(*t, "default").name, "steere1995");
  // With a player count the default cannot seat, "default" is the first setup that can.
  EXPECT_EQ(make_setup(*t, "default", 4).name, "four");
  EXPECT_EQ(make_setup(*t, "default", 3).name, "dense");
  EXPECT_EQ(make_setup(*t, "default", 2).name, "steere1995");
  EXPECT_EQ(make_setup(*parse_topology("hex 5"), "default", 6).name, "hexbo");
  EXPECT_EQ(error_of(*parse_topology("hex 5"), "default", 4),
            "setup hexbo does not fit hex 5 for 4 players; setups that fit: none");
  // Defaults per board.
  EXPECT_EQ(setups_for(*parse_topology("grid 13x13")).front(), "steere2005");
  EXPECT_EQ(setups_for(*parse_topology("grid 9x9")).front(), "steere1995");
  EXPECT_EQ(setups_for(*parse_topology("grid 5x5x5")).front(), "pbmserv");
  EXPECT_EQ(setups_for(*parse_topology("hex 5")), (std::vector<std::string>{"hexbo"}));
  EXPECT_EQ(setups_for(*parse_topology("line 31")), std::vector<std::string>{"spaced"});
  EXPECT_EQ(setups_for(*parse_topology("line 2")), std::vector<std::string>{});
  EXPECT_EQ(error_of(*parse_topology("grid 7x7"), "spaced", 8),
            "setup spaced does not fit grid 7x7 for 8 players (the board is too small to give 8 "
            "players the same number of free seeds); setups that fit: none");
  // Player counts filter the list.
  EXPECT_EQ(setups_for(*t, 4), (std::vector<std::string>{"four", "dense", "spaced"}));
  EXPECT_EQ(setups_for(*parse_topology("hex 5"), 4), std::vector<std::string>{});
}

// Whatever setups_for offers must build a valid starting position, for every player count.
TEST(Setups, EverySetupOfferedMakesAValidPosition) {
  const std::vector<std::string> specs = {
      "grid 19x19", "grid 9x9", "grid 13x13", "grid 5x5x5",    "grid 4x4",
      "grid 5x5",   "grid 7x7", "grid 8x8",   "line 31",       "line 5",
      "hex 3",      "hex 5",    "hex 7",      "grid 6x6 wrap", "grid 4x4x4x4"};
  for (const auto& spec : specs) {
    auto t = parse_topology(spec);
    for (int k = 0; k <= kMaxPlayers; ++k) {
      if (k == 1) continue;
      for (const auto& name : setups_for(*t, k)) {
        SCOPED_TRACE(spec + " " + name + " k=" + std::to_string(k));
        tanbo::Setup s;
        ASSERT_NO_THROW(s = make_setup(*t, name, k));
        if (k) {
          EXPECT_EQ(s.players, k);
        }
        ASSERT_NO_THROW(check_valid(t, s));
      }
    }
  }
}

// Random simulation in the spirit of OpenSpiel's random simulation test: thousands of uniformly
// random games on every kind of board, with the rule invariants checked as the games go and
// every move taken back again.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "tanbo/ai/playout.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/random.hpp"
#include "tanbo/platform/memory.hpp"
#include "test_support.hpp"

using namespace tanbo;

namespace {

// Position::read_board gives every point's stone, as at() does point by point.
void check_board_read(const Position& pos, const std::string& where) {
  std::vector<Player> whole(pos.num_vertices(), Player{200});  // (200: no player)
  pos.read_board(whole);
  for (Vertex v = 0; v < pos.num_vertices(); ++v) {
    ASSERT_EQ(whole[v], pos.at(v)) << where << ": read_board at point " << v;
  }
}

// Cheap per-move checks (O(roots)): no live root is bounded, counts add up.
void check_roots(const Position& pos, const std::string& where) {
  std::vector<std::uint32_t> stones(pos.num_players(), 0), roots(pos.num_players(), 0);
  for (RootId r : pos.live_roots()) {
    ASSERT_GT(pos.root_space(r), 0u) << where << ": root " << r << " is bounded";
    ASSERT_GT(pos.root_size(r), 0u) << where;
    ASSERT_EQ(pos.at(pos.root_seed(r)), pos.root_owner(r))
        << where << ": root " << r << " lost its seed";
    ASSERT_EQ(pos.root_of(pos.root_seed(r)), r) << where;
    stones[pos.root_owner(r) - 1] += pos.root_size(r);
    ++roots[pos.root_owner(r) - 1];
  }
  for (int p = 1; p <= pos.num_players(); ++p) {
    const auto pl = static_cast<Player>(p);
    ASSERT_EQ(pos.stones(pl), stones[p - 1]) << where;
    ASSERT_EQ(pos.roots_alive(pl), roots[p - 1]) << where;
  }
}

// The removal rule worked out from scratch: the roots that the move of the side to move at v
// bounds (before anything is removed), and the expanded root. O(board) per call.
struct Bounded {
  RootId expanded = kNoRoot;
  std::set<RootId> roots;
};
Bounded bounded_by(const Position& pos, Vertex v) {
  const Player p = pos.to_move();
  const Graph& g = pos.graph();
  Bounded out;
  for (Vertex u : g.neighbours(v)) {
    if (pos.at(u) == p) out.expanded = pos.root_of(u);
  }
  auto colour = [&](Vertex u) { return u == v ? p : pos.at(u); };
  auto root = [&](Vertex u) { return u == v ? out.expanded : pos.root_of(u); };
  std::map<RootId, std::uint32_t> space;
  for (RootId r : pos.live_roots()) space[r] = 0;
  std::vector<std::uint32_t> count(pos.num_players() + 1);
  std::vector<Vertex> only(pos.num_players() + 1);
  for (Vertex u = 0; u < pos.num_vertices(); ++u) {
    if (colour(u) != kEmpty) continue;
    std::fill(count.begin(), count.end(), 0);
    for (Vertex w : g.neighbours(u)) {
      const Player c = colour(w);
      if (c == kEmpty) continue;
      ++count[c];
      only[c] = w;
    }
    for (int c = 1; c <= pos.num_players(); ++c) {
      if (count[c] == 1) ++space[root(only[c])];
    }
  }
  for (const auto& [r, n] : space) {
    if (n == 0) out.roots.insert(r);
  }
  return out;
}

struct Board {
  std::string spec;
  std::string setup;
  int players;
  int games;
  int check_every;     // full check_consistency every this many moves (1 = every move)
  int snapshot_every;  // full snapshot for the undo comparison every this many moves
};

// A DOT board: a 6x6 triangular lattice (grid plus one diagonal), 3 stones a side.
std::string triangular_dot() {
  std::ostringstream os;
  os << "graph tri {\n  players=2;\n";
  auto id = [](int x, int y) { return "p" + std::to_string(x) + "_" + std::to_string(y); };
  const std::map<std::pair<int, int>, int> stones = {{{0, 0}, 1}, {{5, 5}, 1}, {{3, 2}, 1},
                                                     {{5, 0}, 2}, {{0, 5}, 2}, {{2, 3}, 2}};
  for (int y = 0; y < 6; ++y) {
    for (int x = 0; x < 6; ++x) {
      os << "  " << id(x, y);
      auto it = stones.find({x, y});
      if (it != stones.end()) os << " [stone=" << it->second << "]";
      os << ";\n";
      if (x + 1 < 6) os << "  " << id(x, y) << " -- " << id(x + 1, y) << ";\n";
      if (y + 1 < 6) os << "  " << id(x, y) << " -- " << id(x, y + 1) << ";\n";
      if (x + 1 < 6 && y + 1 < 6) os << "  " << id(x, y) << " -- " << id(x + 1, y + 1) << ";\n";
    }
  }
  os << "}\n";
  return os.str();
}

Position start_position(const Board& b) {
  if (b.spec == "dot") {
    auto t = make_from_dot(triangular_dot(), "tri.dot");
    return Position(t, make_setup(*t));
  }
  return test::make(b.spec, b.setup, b.players);
}

// Plays b.games random games, checking as it goes.
void run_games(const Board& b, std::uint64_t seed) {
  SCOPED_TRACE(b.spec + " " + b.setup + " players=" + std::to_string(b.players));
  Rng rng(seed);
  std::uint64_t total_moves = 0;
  std::uint64_t oracle_checks = 0;
  std::uint64_t multi_bounded = 0;  // moves that bounded two or more roots at once
  // Under AddressSanitizer, which multiplies the time by about five, half the games.
  const int games = TANBO_ASAN ? (b.games + 1) / 2 : b.games;
  for (int game = 0; game < games; ++game) {
    Position pos = start_position(b);
    EXPECT_EQ(pos.check_consistency(), "");
    const test::Snapshot start = test::snapshot(pos);
    std::vector<std::uint64_t> hashes{pos.hash()};
    std::map<std::uint32_t, test::Snapshot> saved;
    std::uint32_t roots = static_cast<std::uint32_t>(pos.live_roots().size());
    std::set<std::uint64_t> seen{pos.hash()};
    while (!pos.is_over()) {
      const Player mover = pos.to_move();
      const Vertex v = random_move(pos, rng);
      EXPECT_EQ(pos.check_move(mover, v), MoveStatus::kLegal);
      const std::uint32_t before_stones = pos.stones(mover);
      std::uint32_t all_before = 0;
      for (int p = 1; p <= pos.num_players(); ++p) all_before += pos.stones(static_cast<Player>(p));
      // The oracle costs one pass over the board: every move up to a few thousand points.
      const bool oracle = pos.num_vertices() <= 4096 || (pos.ply() + 1) % b.check_every == 0;
      const Bounded bounded = oracle ? bounded_by(pos, v) : Bounded{};
      // removes_stones reads, without playing, what the move takes off: on small boards every
      // legal move of every tenth position, then the move played.
      if (pos.num_vertices() <= 400 && pos.ply() % 10 == 0) {
        for (Vertex u : pos.legal_moves(mover)) {
          const bool predicted = pos.removes_stones(mover, u);
          const bool removed = pos.play(u).stones_removed != 0;
          pos.undo();
          ASSERT_EQ(predicted, removed) << "ply " << pos.ply() << ": a stone on " << u;
        }
      }
      const bool predicted = pos.removes_stones(mover, v);
      const MoveRecord& rec = pos.play(v);
      const std::string where =
          "game " + std::to_string(game) + " ply " + std::to_string(pos.ply());
      if (oracle) {
        // The removal rule: the expanded root alone if it is bounded, else every bounded root.
        std::set<RootId> removed;
        for (std::uint32_t i = rec.removed_begin; i < rec.removed_end; ++i) {
          removed.insert(pos.removed_roots()[i]);
        }
        EXPECT_EQ(rec.expanded, bounded.expanded) << where;
        if (bounded.roots.count(bounded.expanded)) {
          EXPECT_TRUE(rec.expanded_removed) << where;
          EXPECT_EQ(removed, std::set<RootId>{bounded.expanded}) << where;
        } else {
          EXPECT_FALSE(rec.expanded_removed) << where;
          EXPECT_EQ(removed, bounded.roots) << where;
        }
        ++oracle_checks;
        if (bounded.roots.size() > 1) ++multi_bounded;
      }
      EXPECT_EQ(predicted, rec.stones_removed != 0) << where;
      // The record adds up: one stone placed, rec.stones_removed taken off.
      std::uint32_t all_after = 0;
      for (int p = 1; p <= pos.num_players(); ++p) all_after += pos.stones(static_cast<Player>(p));
      EXPECT_EQ(all_after + rec.stones_removed, all_before + 1) << where;
      if (rec.expanded_removed) {
        EXPECT_EQ(rec.removed_end - rec.removed_begin, 1u)
            << where << ": only the expanded root goes";
        EXPECT_LT(pos.stones(mover), before_stones + 1);
      }
      // The root count never grows, and a position never repeats.
      const auto now = static_cast<std::uint32_t>(pos.live_roots().size());
      EXPECT_LE(now, roots) << where;
      roots = now;
      EXPECT_TRUE(seen.insert(pos.hash()).second) << where << ": a position repeated";
      check_roots(pos, where);
      if (::testing::Test::HasFatalFailure()) return;
      if (pos.ply() % b.check_every == 0) {
        ASSERT_EQ(pos.check_consistency(), "") << where;
        check_board_read(pos, where);
      }
      if (pos.ply() % b.snapshot_every == 0) saved[pos.ply()] = test::snapshot(pos);
      hashes.push_back(pos.hash());
      ++total_moves;
    }
    // The game ends with exactly one player holding stones.
    EXPECT_EQ(pos.check_consistency(), "");
    int with_stones = 0;
    for (int p = 1; p <= pos.num_players(); ++p)
      with_stones += pos.stones(static_cast<Player>(p)) > 0;
    EXPECT_EQ(with_stones, 1);
    EXPECT_NE(pos.winner(), kEmpty);
    EXPECT_GT(pos.stones(pos.winner()), 0u);
    EXPECT_EQ(pos.to_move(), kEmpty);
    EXPECT_EQ(pos.legal_count(pos.winner()) > 0, true);
    // Undo everything: hashes at every ply, full state where saved, and the start exactly.
    saved[pos.ply()] = test::snapshot(pos);
    while (pos.ply() > 0) {
      pos.undo();
      ASSERT_EQ(pos.hash(), hashes[pos.ply()]) << "undo to ply " << pos.ply();
      auto it = saved.find(pos.ply());
      if (it != saved.end()) {
        ASSERT_TRUE(test::snapshot(pos) == it->second) << "undo to ply " << pos.ply();
      }
      if (pos.ply() % b.check_every == 0) {
        ASSERT_EQ(pos.check_consistency(), "") << "undo to ply " << pos.ply();
      }
    }
    ASSERT_TRUE(test::snapshot(pos) == start) << "undo back to the start";
    ASSERT_EQ(pos.check_consistency(), "");
  }
  // "Thousands of random games": make sure the games were real ones, and that the removal
  // rule was checked, also on moves that bound several roots at once.
  EXPECT_GT(total_moves, static_cast<std::uint64_t>(games));
  EXPECT_GT(oracle_checks, 0u);
  if (b.games >= 200) {
    EXPECT_GT(multi_bounded, 0u);
  }
}

}  // namespace

TEST(RandomGames, LineOf31) {
  run_games({"line 31", "default", 0, 1500, 1, 1}, 1);
}
TEST(RandomGames, LineThreePlayers) {
  run_games({"line 31", "spaced", 3, 500, 1, 1}, 2);
}
TEST(RandomGames, Grid9x9) {
  run_games({"grid 9x9", "default", 0, 800, 1, 1}, 3);
}
TEST(RandomGames, Grid5x5Dense) {
  run_games({"grid 5x5", "dense", 0, 800, 1, 1}, 4);
}
TEST(RandomGames, Grid19x19) {
  run_games({"grid 19x19", "default", 0, 200, 37, 5}, 5);
}
TEST(RandomGames, Grid19x19Pbmserv) {
  run_games({"grid 19x19", "pbmserv", 0, 60, 37, 5}, 6);
}
TEST(RandomGames, Grid13x13) {
  run_games({"grid 13x13", "default", 0, 200, 11, 3}, 7);
}
TEST(RandomGames, Cube5x5x5) {
  run_games({"grid 5x5x5", "default", 0, 300, 7, 3}, 8);
}
TEST(RandomGames, FourDimensions) {
  run_games({"grid 5x5x5x5", "default", 0, 60, 53, 11}, 9);
}
TEST(RandomGames, FourDimensionsSmall) {
  run_games({"grid 3x3x3x3", "default", 0, 300, 1, 1}, 10);
}
TEST(RandomGames, Hex5) {
  run_games({"hex 5", "default", 0, 800, 1, 1}, 11);
}
TEST(RandomGames, Hex5ThreeAndSixPlayers) {
  run_games({"hex 5", "hexbo", 3, 400, 1, 1}, 12);
  run_games({"hex 5", "hexbo", 6, 400, 1, 1}, 13);
}
TEST(RandomGames, Torus) {
  run_games({"grid 9x9 wrap", "default", 0, 500, 1, 1}, 14);
  run_games({"grid 19x19 wrap", "default", 0, 60, 37, 5}, 15);
}
TEST(RandomGames, DotBoard) {
  run_games({"dot", "file", 0, 1000, 1, 1}, 16);
}
TEST(RandomGames, FourPlayers19x19) {
  run_games({"grid 19x19", "four", 4, 80, 37, 5}, 17);
}
TEST(RandomGames, ThreePlayersDense) {
  run_games({"grid 9x9", "dense", 3, 400, 1, 1}, 18);
}
TEST(RandomGames, ElevenDimensionsPlayAWhile) {
  // 3^11 = 177147 points: too long a game to finish here; play 3000 random moves and take them
  // back, checking the whole position twice.
  Position pos = test::make("grid 3x3x3x3x3x3x3x3x3x3x3");
  const std::uint64_t h0 = pos.hash();
  Rng rng(19);
  std::vector<std::uint64_t> hashes;
  for (int i = 0; i < 3000 && !pos.is_over(); ++i) {
    hashes.push_back(pos.hash());
    pos.play(random_move(pos, rng));
    check_roots(pos, "11D");
  }
  while (pos.ply() > 0) {
    pos.undo();
    ASSERT_EQ(pos.hash(), hashes[pos.ply()]);
  }
  EXPECT_EQ(pos.hash(), h0);
  EXPECT_EQ(pos.stones(kBlack), 1024u);
}

// removes_stones on a point with more neighbours than it keeps in place (32): a hub whose 40
// neighbours each touch a root of Black of its own, which a stone on the hub makes touch Black
// twice. Each root keeps a second point of space, so nothing goes; without that point one of
// them is bounded by the hub's stone.
TEST(RandomGames, RemovesStonesOnAPointOfManyNeighbours) {
  for (const int cut : {-1, 0, 17, 39}) {
    std::ostringstream os;
    os << "graph star {\n  players=2;\n  hub; a [stone=1]; a2; w [stone=2]; w2;\n"
       << "  hub -- a; a -- a2; w -- w2;\n";
    for (int i = 0; i < 40; ++i) {
      os << "  u" << i << "; s" << i << " [stone=1];\n"
         << "  hub -- u" << i << "; u" << i << " -- s" << i << ";\n";
      if (i != cut) os << "  t" << i << "; s" << i << " -- t" << i << ";\n";
    }
    os << "}\n";
    SCOPED_TRACE("cut " + std::to_string(cut));
    auto t = make_from_dot(os.str(), "star.dot");
    Position pos(t, make_setup(*t));
    const Vertex hub = t->need_vertex("hub");
    ASSERT_EQ(pos.check_move(kBlack, hub), MoveStatus::kLegal);
    const bool predicted = pos.removes_stones(kBlack, hub);
    const MoveRecord& rec = pos.play(hub);
    EXPECT_EQ(rec.stones_removed, cut >= 0 ? 1u : 0u);
    EXPECT_EQ(predicted, cut >= 0);
  }
}

// legal_move(p, i) is the i-th legal point of p in vertex order, for every i, on boards of one
// block (81 and 506 points: 8 words; 529 and 625: 16 words), of a few blocks of 512 points with
// plain counts (1600 and 4096 points: up to 8 blocks) and of more blocks counted also by groups
// of 8 and of 64 blocks (4225 and 10000 points: one group of 64; 40000: two, the last groups
// partly padding), as a random game changes the sets. The sizes straddle the boundaries
// between the kinds. The same for the portable search (legal_move_portable), which machines
// without BMI2 run.
TEST(RandomGames, LegalMoveIsTheIthLegalPointOnEveryKindOfBoard) {
  for (const char* spec : {"grid 9x9", "grid 22x23", "grid 23x23", "grid 5x5x5x5", "grid 40x40",
                           "grid 64x64", "grid 65x65", "grid 100x100", "grid 200x200"}) {
    Position pos = test::make(spec, "spaced");
    Rng rng(31);
    for (int move = 0; move < 400 && !pos.is_over(); ++move) {
      if (move % 40 == 0) {
        for (int p = 1; p <= pos.num_players(); ++p) {
          const auto pl = static_cast<Player>(p);
          const std::vector<Vertex> all = pos.legal_moves(pl);
          ASSERT_EQ(all.size(), pos.legal_count(pl)) << spec;
          for (std::uint32_t i = 0; i < all.size(); ++i) {
            ASSERT_EQ(pos.legal_move(pl, i), all[i]) << spec << " move " << move << " i " << i;
            ASSERT_EQ(pos.legal_move_portable(pl, i), all[i])
                << spec << " move " << move << " i " << i << " (without BMI2)";
          }
        }
      }
      pos.play(random_move(pos, rng));
    }
    ASSERT_EQ(pos.check_consistency(), "") << spec;
  }
}

// random_playout plays exactly the games of random_move from the same seed: on small boards it
// is that loop, on lattices of more than 32,768 points it finds each move before the one
// ahead of it is played (and again after a removal); the games here have hundreds of removals.
// Also with three players, where the next player skips one that is out.
TEST(RandomGames, RandomPlayoutPlaysRandomMovesGames) {
  struct Case {
    const char* spec;
    int players;
    bool looks_ahead;
  };
  for (const Case c : {Case{"grid 19x19", 2, false}, Case{"grid 200x200", 2, true},
                       Case{"grid 190x190 wrap", 2, true}, Case{"grid 33x33x33", 2, true},
                       Case{"grid 200x200", 3, true}}) {
    const Position start = test::make(c.spec, "spaced", c.players);
    ASSERT_EQ(start.prefetches(), c.looks_ahead) << c.spec;
    for (std::uint64_t seed : {1u, 2u}) {
      Position by_playout = start, by_move = start;
      Rng a(seed), b(seed);
      const std::uint32_t moves = random_playout(by_playout, a);
      while (!by_move.is_over()) by_move.play(random_move(by_move, b));
      ASSERT_EQ(moves, by_move.ply()) << c.spec << " seed " << seed;
      ASSERT_EQ(by_playout.ply(), by_move.ply()) << c.spec;
      for (std::uint32_t i = 0; i < moves; ++i) {
        ASSERT_EQ(by_playout.history()[i].vertex, by_move.history()[i].vertex)
            << c.spec << " seed " << seed << " move " << i;
      }
      EXPECT_EQ(a.next(), b.next()) << c.spec << ": both used the same random numbers";
      EXPECT_EQ(by_playout.check_consistency(), "") << c.spec;
      EXPECT_GT(by_playout.removed_roots().size(), c.looks_ahead ? 100u : 0u) << c.spec;
    }
  }
}

// On lattices of more than 32,768 points without wrap the position computes each point's
// neighbours instead of reading the graph: from the coordinates with the compact store (two
// players, up to 15 axes), else from a mask of the directions that stay on the board.
// check_consistency recomputes every count from the graph itself: lines, flat and tall boxes, an
// axis of size 1, 16 axes of size 2 (32 directions, the most computed) and 17 (read from the graph
// again), with the game taken back to the start.
TEST(RandomGames, ComputedLatticeNeighboursAgreeWithTheGraph) {
  for (const char* spec :
       {"line 40000", "grid 300x120", "grid 1x40000", "grid 40x40x25", "grid 15x15x15x15",
        "grid 2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2", "grid 2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2"}) {
    const TopologyPtr topo = parse_topology(spec);
    const Vertex last = topo->graph.num_vertices() - 1;
    // Hypercubes have no spaced setup: one seed each on opposite corners.
    Position pos = topo->dims[0] == 2
                       ? Position::from_stones(topo, 2, {{0, kBlack}, {last, kWhite}})
                       : test::make(spec, "spaced");
    ASSERT_TRUE(pos.prefetches()) << spec;
    const std::uint64_t start = pos.hash();
    Rng rng(41);
    for (int move = 1; move <= 3000 && !pos.is_over(); ++move) {
      pos.play(random_move(pos, rng));
      if (move % 1000 == 0) {
        ASSERT_EQ(pos.check_consistency(), "") << spec << " move " << move;
      }
    }
    ASSERT_EQ(pos.check_consistency(), "") << spec;
    while (pos.ply() > 0) pos.undo();
    EXPECT_EQ(pos.hash(), start) << spec;
    EXPECT_EQ(pos.check_consistency(), "") << spec;
  }
}

// Two-player lattices of more than 4,096 points and up to 15 axes keep the compact store (8 bytes a
// point, neighbours computed, no counts kept on occupied points, a removed root's list kept apart
// for undo). The same random game on compact and on the general store must agree on everything
// observable, move by move: the legal sets and their order (the random choice reads them), the
// removals, the roots, the neighbour counts of empty and occupied points; takebacks of single moves
// in the middle of the game and of the whole game must restore both exactly: lines, flat and tall
// boxes, a torus, 4 axes, boards with and without the look-ahead of random playouts (more than
// 32,768 points). Three players, 16 axes, a torus with an axis of two points, boards with more than
// a fifth of their directions off the board (11 axes of 3 points, an axis of one point) and boards
// of up to 4,096 points keep the general store.
TEST(RandomGames, CompactStorePlaysTheGamesOfGeneralStore) {
  for (const char* spec : {"grid 100x100", "grid 200x200", "grid 40x40x25", "line 40000",
                           "grid 300x120", "grid 190x190 wrap", "grid 15x15x15x15"}) {
    const TopologyPtr topo = parse_topology(spec);
    const tanbo::Setup setup = make_setup(*topo, "spaced", 2);
    Position compact(topo, setup), general(topo, setup, Position::Store::kGeneral);
    ASSERT_TRUE(compact.compact_store()) << spec;
    ASSERT_FALSE(general.compact_store()) << spec;
    const test::Snapshot start = test::snapshot(compact);
    ASSERT_EQ(start, test::snapshot(general)) << spec;
    Rng rng(53), probe(7);
    std::uint32_t removals = 0;
    for (int move = 1; !compact.is_over(); ++move) {  // whole games: removals come late
      const Player p = compact.to_move();
      ASSERT_EQ(compact.legal_count(p), general.legal_count(p)) << spec << " move " << move;
      const std::uint32_t i = rng.below(compact.legal_count(p));
      const Vertex v = compact.legal_move(p, i);
      ASSERT_EQ(v, general.legal_move(p, i)) << spec << " move " << move;
      if (move % 7 == 0) {  // play, take back, play again: the takeback is exact
        const bool full = move % 4999 == 0;
        const test::Snapshot before = full ? test::snapshot(compact) : test::Snapshot{};
        const std::uint64_t hash = compact.hash();
        const std::uint32_t black = compact.legal_count(kBlack),
                            white = compact.legal_count(kWhite);
        compact.play(v);
        compact.undo();
        ASSERT_EQ(compact.hash(), hash) << spec << " move " << move;
        ASSERT_EQ(compact.legal_count(kBlack), black) << spec << " move " << move;
        ASSERT_EQ(compact.legal_count(kWhite), white) << spec << " move " << move;
        if (full) {
          ASSERT_EQ(test::snapshot(compact), before) << spec << " move " << move;
        }
      }
      const MoveRecord a = compact.play(v), b = general.play(v);
      ASSERT_EQ(a.stones_removed, b.stones_removed) << spec << " move " << move;
      ASSERT_EQ(compact.hash(), general.hash()) << spec << " move " << move;
      removals += a.removed_end - a.removed_begin;
      for (int k = 0; k < (move % 16 == 0 ? 4 : 0); ++k) {  // anywhere, occupied or not
        const Vertex u = probe.below(compact.num_vertices());
        for (Player q : {kBlack, kWhite}) {
          ASSERT_EQ(compact.neighbours_of(u, q), general.neighbours_of(u, q)) << spec;
          ASSERT_EQ(compact.is_legal_point(q, u), general.is_legal_point(q, u)) << spec;
          ASSERT_EQ(compact.explain(q, u), general.explain(q, u)) << spec;
        }
        ASSERT_EQ(compact.root_of(u), general.root_of(u)) << spec;
      }
      if (move % 30000 == 0) {
        ASSERT_EQ(test::snapshot(compact), test::snapshot(general)) << spec << " move " << move;
        ASSERT_EQ(compact.check_consistency(), "") << spec << " move " << move;
        check_board_read(compact, spec);
        // A resignation takes every root of the player off; its takeback puts them back.
        const test::Snapshot before = test::snapshot(compact);
        compact.resign(compact.to_move());
        ASSERT_TRUE(compact.is_over()) << spec;
        ASSERT_EQ(compact.check_consistency(), "") << spec;
        compact.undo();
        ASSERT_EQ(test::snapshot(compact), before) << spec << " move " << move;
      }
    }
    EXPECT_TRUE(general.is_over()) << spec;
    EXPECT_EQ(compact.winner(), general.winner()) << spec;
    EXPECT_GT(removals, 100u) << spec;
    ASSERT_EQ(test::snapshot(compact), test::snapshot(general)) << spec;
    ASSERT_EQ(compact.check_consistency(), "") << spec;
    while (compact.ply() > 0) compact.undo();
    EXPECT_EQ(test::snapshot(compact), start) << spec;
    EXPECT_EQ(compact.check_consistency(), "") << spec;
  }
  const TopologyPtr big = parse_topology("grid 200x200");
  EXPECT_FALSE(Position(big, make_setup(*big, "spaced", 3)).compact_store());
  const TopologyPtr axes16 = parse_topology("grid 2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2");
  const Vertex last = axes16->graph.num_vertices() - 1;
  EXPECT_FALSE(Position::from_stones(axes16, 2, {{0, kBlack}, {last, kWhite}}).compact_store());
  for (const char* spec :
       {"grid 2x20000 wrap", "grid 3x3x3x3x3x3x3x3x3x3x3", "grid 1x40000", "grid 64x64"}) {
    const TopologyPtr topo = parse_topology(spec);
    EXPECT_FALSE(Position(topo, make_setup(*topo, "spaced", 2)).compact_store()) << spec;
  }
}

// A position loaded from a diagram (from_stones) on a big lattice keeps the compact store too:
// the same position as the one played there, and the game goes on the same.
TEST(RandomGames, CompactStoreLoadsAPositionInProgress) {
  const TopologyPtr topo = parse_topology("grid 250x250");
  Position played(topo, make_setup(*topo, "spaced", 2));
  Rng rng(5);
  for (int move = 0; move < 20000 && !played.is_over(); ++move) {
    played.play(random_move(played, rng));
  }
  ASSERT_FALSE(played.is_over());
  Position loaded = Position::from_stones(topo, 2, test::stones_of(played), played.to_move());
  ASSERT_TRUE(loaded.compact_store());
  ASSERT_EQ(loaded.check_consistency(), "");
  for (Player p : {kBlack, kWhite}) ASSERT_EQ(loaded.legal_moves(p), played.legal_moves(p));
  for (int move = 0; move < 3000 && !loaded.is_over(); ++move) {
    const Vertex v = random_move(loaded, rng);
    loaded.play(v);
    played.play(v);
    ASSERT_EQ(loaded.hash(), played.hash()) << move;
  }
  ASSERT_EQ(loaded.check_consistency(), "");
}

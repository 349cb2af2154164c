// Turns that are not plain moves, on random games: resignation (a player leaves, the game goes
// on or ends), clearing the history, playing without a record, and garbage moves, refused
// without a change.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "tanbo/core/error.hpp"
#include "tanbo/core/random.hpp"
#include "test_support.hpp"

using namespace tanbo;

// ---------------------------------------------------------------- resign / leave

TEST(RandomGames, MultiPlayerResignRemovesRootsAndPlayGoesOn) {
  Rng rng(21);
  int resigned_games = 0;
  for (int game = 0; game < 200; ++game) {
    Position pos = test::make(game % 2 ? "grid 19x19" : "hex 5", game % 2 ? "four" : "hexbo",
                              game % 2 ? 4 : 3);
    const int k = pos.num_players();
    const int moves = static_cast<int>(rng.below(60));
    for (int i = 0; i < moves && !pos.is_over(); ++i) pos.play(random_move(pos, rng));
    if (pos.is_over()) continue;
    // Pick a player still in; resign it.
    std::vector<Player> in;
    for (int p = 1; p <= k; ++p) {
      if (!pos.is_out(static_cast<Player>(p))) in.push_back(static_cast<Player>(p));
    }
    const Player quitter = in[rng.below(static_cast<std::uint32_t>(in.size()))];
    const Player mover = pos.to_move();
    const test::Snapshot before = test::snapshot(pos);
    const std::uint32_t its_stones = pos.stones(quitter);
    const MoveRecord rec = pos.resign(quitter);
    ++resigned_games;
    EXPECT_EQ(rec.kind, MoveRecord::Kind::kResign);
    EXPECT_EQ(rec.stones_removed, its_stones);
    EXPECT_EQ(pos.stones(quitter), 0u);
    EXPECT_EQ(pos.roots_alive(quitter), 0u);
    EXPECT_TRUE(pos.is_out(quitter));
    EXPECT_EQ(pos.check_consistency(), "");
    ASSERT_EQ(pos.check_consistency(), "") << "after resign";
    if (in.size() == 2) {
      EXPECT_TRUE(pos.is_over());
      EXPECT_EQ(pos.winner(), in[0] == quitter ? in[1] : in[0]);
    } else {
      ASSERT_FALSE(pos.is_over());
      if (quitter == mover) {
        EXPECT_NE(pos.to_move(), quitter);  // the turn passes on
      } else {
        EXPECT_EQ(pos.to_move(), mover);  // the side to move keeps the turn
      }
      // The quitter can do nothing any more; play goes on around it to the end.
      EXPECT_EQ(pos.check_move(quitter, 0), MoveStatus::kPlayerOut);
      EXPECT_THROW(pos.resign(quitter), Error);
      Position rest = pos;
      while (!rest.is_over()) {
        EXPECT_NE(rest.to_move(), quitter);
        rest.play(random_move(rest, rng));
      }
      EXPECT_NE(rest.winner(), quitter);
      EXPECT_EQ(rest.check_consistency(), "");
    }
    // Undo of the resignation restores everything.
    pos.undo();
    EXPECT_TRUE(test::snapshot(pos) == before);
    EXPECT_EQ(pos.check_consistency(), "");
  }
  EXPECT_GT(resigned_games, 150);
}

TEST(RandomGames, TwoPlayerResignEndsTheGame) {
  Position pos = test::make("grid 9x9");
  pos.play_checked(kBlack, *pos.topology().parse_vertex("B3"));
  const test::Snapshot before = test::snapshot(pos);
  pos.resign(kBlack);  // out of turn is allowed: a player may leave at any time
  EXPECT_TRUE(pos.is_over());
  EXPECT_EQ(pos.winner(), kWhite);
  EXPECT_EQ(pos.stones(kBlack), 0u);
  EXPECT_EQ(pos.check_consistency(), "");
  EXPECT_THROW(pos.resign(kWhite), Error);  // the game is over
  EXPECT_EQ(pos.check_move(kWhite, 0), MoveStatus::kGameOver);
  pos.undo();
  EXPECT_TRUE(test::snapshot(pos) == before);
  EXPECT_THROW(pos.resign(3), Error);
}

// clear_history keeps the position and forgets how it came about: the same stones, roots,
// legal moves and turn, ply 0 and nothing to undo; play goes on from there as it would have,
// and undo takes back only the moves played since. Removals before and after are included.
TEST(RandomGames, ClearHistoryKeepsThePositionAndForgetsTheTurns) {
  for (const char* spec : {"grid 13x13", "grid 200x200"}) {
    Position pos = test::make(spec, "default");
    Rng rng(11);
    while (pos.removed_roots().size() < 2 && !pos.is_over()) pos.play(random_move(pos, rng));
    ASSERT_FALSE(pos.is_over()) << spec;
    Position cleared = pos;
    cleared.clear_history();
    test::Snapshot want = test::snapshot(pos);
    want.ply = 0;
    EXPECT_TRUE(test::snapshot(cleared) == want) << spec;
    EXPECT_EQ(cleared.ply(), 0u);
    EXPECT_TRUE(cleared.removed_roots().empty());
    EXPECT_THROW(cleared.undo(), Error);
    EXPECT_TRUE(test::snapshot(cleared) == want) << spec << ": a refused undo changes nothing";
    EXPECT_EQ(cleared.check_consistency(), "") << spec;
    // The same moves from both, to the end of the game.
    Rng a(12), b(12);
    std::uint32_t moves = 0;
    while (!pos.is_over()) {
      const Vertex v = random_move(pos, a);
      ASSERT_EQ(random_move(cleared, b), v) << spec << " move " << moves;
      pos.play(v);
      cleared.play(v);
      ++moves;
    }
    EXPECT_EQ(cleared.winner(), pos.winner());
    EXPECT_EQ(cleared.ply(), moves);
    while (cleared.ply() > 0) cleared.undo();
    EXPECT_TRUE(test::snapshot(cleared) == want) << spec << ": undone back to where it was cleared";
    EXPECT_EQ(cleared.check_consistency(), "") << spec;
  }
}

// Without a game record a position plays exactly the same game: after every turn the same
// snapshot (but for the record), ply() counting every turn, the last turn's record and removed
// roots as the recorded game has them; undo() refuses and changes nothing. Resignations too
// (three players). Recording again starts a new record that undo() can take back, no further.
TEST(RandomGames, WithoutARecordTheGameIsTheSame) {
  for (const char* spec : {"grid 13x13", "grid 200x200"}) {
    for (int players : {2, 3}) {
      const Position start = test::make(spec, "spaced", players);
      Position kept = start, unkept = start;
      unkept.set_recording(false);
      EXPECT_FALSE(unkept.recording());
      Rng rng(21);
      std::uint32_t removals = 0;
      while (!kept.is_over()) {
        const Player p = kept.to_move();
        // With three players, the one after the side to move resigns at turn 60.
        if (players == 3 && kept.ply() == 60) {
          const Player q = kept.next_player();
          kept.resign(q);
          unkept.resign(q);
        } else {
          const Vertex v = random_move(kept, rng);
          kept.play(v);
          ASSERT_EQ(unkept.check_move(p, v), MoveStatus::kLegal) << spec;
          unkept.play(v);
        }
        const MoveRecord& a = kept.last_move();
        const MoveRecord& b = unkept.last_move();
        ASSERT_EQ(unkept.ply(), kept.ply());
        ASSERT_EQ(unkept.history().size(), 1u);
        ASSERT_EQ(b.vertex, a.vertex);
        ASSERT_EQ(b.stones_removed, a.stones_removed);
        ASSERT_EQ(b.removed_end - b.removed_begin, a.removed_end - a.removed_begin);
        for (std::uint32_t i = 0; i < a.removed_end - a.removed_begin; ++i) {
          ASSERT_EQ(unkept.removed_roots()[b.removed_begin + i],
                    kept.removed_roots()[a.removed_begin + i]);
        }
        removals += a.removed_end != a.removed_begin;
        ASSERT_EQ(unkept.hash(), kept.hash()) << spec << " ply " << kept.ply();
      }
      EXPECT_GT(removals, 0u) << spec;
      EXPECT_EQ(unkept.winner(), kept.winner());
      test::Snapshot want = test::snapshot(kept);
      EXPECT_TRUE(test::snapshot(unkept) == want) << spec;
      EXPECT_EQ(unkept.check_consistency(), "") << spec;
      EXPECT_THROW(unkept.undo(), Error);
      EXPECT_TRUE(test::snapshot(unkept) == want) << spec << ": a refused undo changes nothing";
    }
  }
  // Recording again: undo goes back to where it started, no further.
  Position pos = test::make("grid 9x9");
  pos.set_recording(false);
  Rng rng(22);
  for (int i = 0; i < 10; ++i) pos.play(random_move(pos, rng));
  pos.set_recording(true);
  const test::Snapshot at10 = test::snapshot(pos);
  EXPECT_EQ(pos.ply(), 10u);
  EXPECT_TRUE(pos.history().empty());
  for (int i = 0; i < 5; ++i) pos.play(random_move(pos, rng));
  EXPECT_EQ(pos.ply(), 15u);
  for (int i = 0; i < 5; ++i) pos.undo();
  EXPECT_TRUE(test::snapshot(pos) == at10);
  EXPECT_THROW(pos.undo(), Error);
  EXPECT_EQ(pos.check_consistency(), "");
}

// ---------------------------------------------------------------- garbage moves

namespace {

// check_move worked out from first principles, in the documented order.
MoveStatus expected_status(const Position& pos, Player p, Vertex v) {
  if (pos.is_over()) return MoveStatus::kGameOver;
  if (p < 1 || p > pos.num_players() || pos.is_out(p)) return MoveStatus::kPlayerOut;
  if (p != pos.to_move()) return MoveStatus::kNotYourTurn;
  if (v >= pos.num_vertices()) return MoveStatus::kOffBoard;
  if (pos.at(v) != kEmpty) return MoveStatus::kOccupied;
  int same = 0;
  for (Vertex u : pos.graph().neighbours(v)) same += pos.at(u) == p;
  if (same == 0) return MoveStatus::kNoConnection;
  if (same > 1) return MoveStatus::kTooMany;
  return MoveStatus::kLegal;
}

}  // namespace

TEST(RandomGames, GarbageMovesAreRefusedAndChangeNothing) {
  Rng rng(99);
  std::map<MoveStatus, int> seen;
  for (const char* spec : {"grid 9x9", "hex 5", "grid 5x5x5", "line 31"}) {
    for (int game = 0; game < 30; ++game) {
      Position pos =
          test::make(spec, game % 3 == 0 && std::string(spec) == "hex 5" ? "hexbo" : "default",
                     game % 3 == 0 && std::string(spec) == "hex 5" ? 3 : 0);
      while (true) {
        for (int attempt = 0; attempt < 12; ++attempt) {
          const Player p = static_cast<Player>(rng.below(pos.num_players() + 2));  // 0..k+1
          const Vertex v =
              rng.below(8) == 0 ? pos.num_vertices() + rng.below(5) : rng.below(pos.num_vertices());
          const MoveStatus want = expected_status(pos, p, v);
          ASSERT_EQ(pos.check_move(p, v), want) << spec << " player " << int(p) << " vertex " << v;
          ++seen[want];
          if (want == MoveStatus::kLegal) continue;
          EXPECT_NE(pos.explain(p, v), "");
          const std::uint64_t h = pos.hash();
          const std::uint32_t ply = pos.ply();
          const Player to_move = pos.to_move();
          const std::uint32_t lc = pos.is_over() ? 0 : pos.legal_count(pos.to_move());
          EXPECT_THROW(pos.play_checked(p, v), Error);
          ASSERT_EQ(pos.hash(), h);
          ASSERT_EQ(pos.ply(), ply);
          ASSERT_EQ(pos.to_move(), to_move);
          if (!pos.is_over()) {
            ASSERT_EQ(pos.legal_count(pos.to_move()), lc);
          }
        }
        if (pos.is_over()) break;
        pos.play(random_move(pos, rng));
      }
      ASSERT_EQ(pos.check_consistency(), "");
    }
  }
  // Every kind of refusal came up.
  for (MoveStatus s : {MoveStatus::kGameOver, MoveStatus::kPlayerOut, MoveStatus::kNotYourTurn,
                       MoveStatus::kOffBoard, MoveStatus::kOccupied, MoveStatus::kNoConnection,
                       MoveStatus::kTooMany}) {
    EXPECT_GT(seen[s], 0) << to_string(s);
  }
}

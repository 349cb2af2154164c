// The knowledge of the engine's search against the rules: the playout policy's cheap checks
// (a move that bounds a root, wins at once), the move model's features, the tactical and
// one-ply priors, the last-good-reply table, each compared with what playing the move does, and
// each keeping the search legal and reproducible. The search itself: test_mcts.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <utility>

#include "../src/ai/reply_table.hpp"
#include "tanbo/ai/agent.hpp"
#include "tanbo/ai/mcts.hpp"
#include "tanbo/ai/move_model.hpp"
#include "tanbo/core/random.hpp"
#include "test_support.hpp"

using namespace tanbo;

namespace {

// Plays `games` games of light playout moves on `board` (one random sequence from `seed`) and
// calls check(pos) on every position before its move is played; stops at a fatal failure.
template <class Check>
void for_each_playout_position(const std::string& board, std::uint64_t seed, int games,
                               Check&& check) {
  const Position start = test::make(board);
  Rng rng(seed);
  for (int game = 0; game < games && !::testing::Test::HasFatalFailure(); ++game) {
    Position pos = start;
    while (!pos.is_over() && !::testing::Test::HasFatalFailure()) {
      check(std::as_const(pos));
      const Vertex v = light_playout_move(pos, rng);
      ASSERT_TRUE(pos.is_legal_point(pos.to_move(), v)) << board;
      pos.play(v);
    }
  }
}

// The stones on the board of every player but p.
std::uint32_t stones_of_others(const Position& pos, Player p) {
  std::uint32_t n = 0;
  for (Player q = 1; q <= pos.num_players(); ++q) n += q != p ? pos.stones(q) : 0;
  return n;
}

}  // namespace

TEST(Mcts, KnowledgeChecksAgreeWithTheRules) {
  // For every legal move of random games: the cheap predictions of the playout policy equal
  // what playing the move does.
  for (const std::string board : {"grid 9x9", "hex 4", "grid 4x4x4", "line 25"}) {
    int bounded_own = 0, bounded_other = 0;
    for_each_playout_position(board, 17, 6, [&](const Position& pos) {
      const Player p = pos.to_move();
      Position probe = pos;
      for (Vertex v : pos.legal_moves(p)) {
        const bool own = move_bounds_own_root(pos, p, v);
        const bool other = move_bounds_other_root(pos, p, v);
        const bool wins = move_wins_at_once(pos, p, v);
        const MoveRecord& rec = probe.play(v);
        ASSERT_EQ(wins, probe.is_over() && probe.winner() == p) << board;
        ASSERT_EQ(own, rec.expanded_removed) << board << " " << pos.topology().name(v);
        if (!rec.expanded_removed) {
          bool removed_other = false;
          for (std::uint32_t i = rec.removed_begin; i < rec.removed_end; ++i) {
            removed_other |= probe.root_owner(probe.removed_roots()[i]) != p;
          }
          ASSERT_EQ(other, removed_other) << board << " " << pos.topology().name(v);
        }
        bounded_own += own;
        bounded_other += other && !own;
        probe.undo();
      }
    });
    if (HasFatalFailure()) return;
    EXPECT_GT(bounded_own, 0) << board;  // the checks were exercised both ways
    EXPECT_GT(bounded_other, 0) << board;
  }
}

TEST(MoveModel, FeaturesAgreeWithTheRules) {
  // For every legal move of random games, the features the move model reads equal what the
  // rules say, counted here from scratch on a copy with the move played; the position is
  // left as it was.
  for (const std::string board : {"grid 9x9", "hex 4", "grid 4x4x4", "line 25"}) {
    int taking = 0, losing = 0, near = 0;
    for_each_playout_position(board, 23, 4, [&](const Position& pos) {
      const Player p = pos.to_move();
      const Graph& g = pos.graph();
      const Vertex last = pos.ply() > 0 ? pos.last_move().vertex : kNoVertex;
      Position probe = pos;
      const PositionSummary summary = summarize(probe, last);
      // Sum of sqrt(space) and roots at one point, of p's roots (own) or the others'.
      const auto sides = [p](const Position& q, bool own, double& space, int& at_one) {
        space = 0;
        at_one = 0;
        for (RootId r : q.live_roots()) {
          if ((q.root_owner(r) == p) != own) continue;
          space += std::sqrt(static_cast<double>(q.root_space(r)));
          at_one += q.root_space(r) == 1;
        }
      };
      double own_before, other_before;
      int own_one_before, other_one_before;
      sides(pos, true, own_before, own_one_before);
      sides(pos, false, other_before, other_one_before);
      for (Vertex v : pos.legal_moves(p)) {
        MoveFeatures f;
        move_features(probe, summary, v, f);
        ASSERT_EQ(probe.hash(), pos.hash()) << board;
        ASSERT_EQ(probe.ply(), pos.ply()) << board;
        int others_adjacent = 0;
        bool touches_last = false;
        for (Vertex w : g.neighbours(v)) {
          others_adjacent += pos.at(w) != kEmpty && pos.at(w) != p;
          touches_last = touches_last || w == last;
        }
        EXPECT_EQ(f[2 + std::min(others_adjacent, 3)], 1.0f) << board;
        EXPECT_EQ(f[2] + f[3] + f[4] + f[5], 1.0f) << board;
        EXPECT_EQ(f[0], g.degree(v) < g.max_degree() ? 1.0f : 0.0f) << board;
        EXPECT_EQ(f[8], touches_last ? 1.0f : 0.0f) << board;
        near += f[9] > 0;
        Position after = pos;
        const MoveRecord& rec = after.play(v);
        const std::uint32_t taken = stones_of_others(pos, p) - stones_of_others(after, p);
        ASSERT_EQ(f[10], after.is_over() && after.winner() == p ? 1.0f : 0.0f) << board;
        ASSERT_EQ(f[11], taken > 0 ? 1.0f : 0.0f) << board;
        const std::uint32_t lost = pos.stones(p) + 1 - after.stones(p);
        ASSERT_EQ(f[13], lost > 0 ? 1.0f : 0.0f) << board;
        ASSERT_FLOAT_EQ(f[14], std::log1p(static_cast<float>(lost))) << board;
        if (rec.expanded_removed) ASSERT_GT(lost, 0u) << board;
        ASSERT_FLOAT_EQ(f[12], std::log1p(static_cast<float>(taken))) << board;
        const std::uint32_t space = pos.joined_space_after(p, v);
        const int bucket = space == 0 ? -1 : space <= 3 ? int(space) - 1 : space <= 5 ? 3 : 4;
        for (int b = 0; b < 5; ++b) EXPECT_EQ(f[15 + b], b == bucket ? 1.0f : 0.0f) << board;
        double own_after, other_after;
        int own_one_after, other_one_after;
        sides(after, true, own_after, own_one_after);
        sides(after, false, other_after, other_one_after);
        EXPECT_NEAR(f[20], own_after - own_before, 1e-4) << board;
        EXPECT_NEAR(f[21], other_after - other_before, 1e-4) << board;
        EXPECT_EQ(f[22], static_cast<float>(own_one_after - own_one_before)) << board;
        EXPECT_EQ(f[24], static_cast<float>(other_one_after - other_one_before)) << board;
        taking += taken > 0;
        losing += lost > 0;
      }
    });
    if (HasFatalFailure()) return;
    EXPECT_GT(taking, 0) << board;  // the features were exercised both ways
    EXPECT_GT(losing, 0) << board;
    EXPECT_GT(near, 0) << board;
  }
}

TEST(MoveModel, OnByDefaultOnGridsUpTo19x19Only) {
  const MctsConfig automatic;
  EXPECT_TRUE(model_priors(automatic, test::make("grid 9x9").graph()));
  EXPECT_TRUE(model_priors(automatic, test::make("grid 13x13").graph()));
  EXPECT_TRUE(model_priors(automatic, test::make("grid 19x19").graph()));
  EXPECT_FALSE(model_priors(automatic, test::make("grid 19x20").graph()));
  EXPECT_TRUE(model_priors(automatic, test::make("line 25").graph()));
  EXPECT_FALSE(model_priors(automatic, test::make("hex 5").graph()));
  EXPECT_FALSE(model_priors(automatic, test::make("grid 5x5x5").graph()));
  EXPECT_TRUE(model_priors(parse_mcts_options("model=1"), test::make("hex 5").graph()));
  EXPECT_FALSE(model_priors(parse_mcts_options("model=0"), test::make("grid 9x9").graph()));
}

TEST(MoveModel, EveryFeatureHasAName) {
  std::set<std::string> names;
  for (int i = 0; i < kMoveFeatures; ++i) names.insert(move_feature_name(i));
  EXPECT_EQ(names.size(), static_cast<std::size_t>(kMoveFeatures));
  EXPECT_EQ(names.count(""), 0u);
  EXPECT_STREQ(move_feature_name(kMoveFeatures), "");
}

TEST(Mcts, ModelPriorsAndGreedyPriorsSearchDifferentlyAndBothPlayLegally) {
  // The priors reach the search: with a few playouts, the move model's priors and greedy's
  // choose differently somewhere in a game, and both play legal, reproducible games on boards
  // of every kind (a three-player hex board included).
  for (const std::string board : {"grid 9x9", "hex 4", "grid 4x4x4", "hex 5:3"}) {
    bool differ = false;
    Position pos = board == "hex 5:3" ? test::make("hex 5", "default", 3) : test::make(board);
    Mcts model(parse_mcts_options("playouts=60,solver=0,model=1"), 5);
    Mcts greedy(parse_mcts_options("playouts=60,solver=0,model=0"), 5);
    Mcts again(parse_mcts_options("playouts=60,solver=0,model=1"), 5);
    while (!pos.is_over()) {
      const Vertex a = model.search(pos);
      const Vertex b = greedy.search(pos);
      ASSERT_EQ(again.search(pos), a) << board;
      ASSERT_TRUE(pos.is_legal_point(pos.to_move(), a)) << board;
      ASSERT_TRUE(pos.is_legal_point(pos.to_move(), b)) << board;
      differ = differ || a != b;
      pos.play(a);
    }
    EXPECT_TRUE(differ) << board;
  }
}

TEST(Mcts, TacticalMovesTakeAndSaveRootsAsTheRulesSay) {
  // On random games: root_space_point gives the root's space as root_space_points lists it,
  // and tactical_move finds a move exactly when brute force over the legal moves finds one
  // that takes a one-point root of another player or grows a one-point root of the mover's
  // own, preferring the first; the move it gives does what it claims.
  for (const std::string board : {"grid 9x9", "hex 4", "grid 4x4x4", "line 25"}) {
    int takes = 0, saves = 0;
    for_each_playout_position(board, 23, 8, [&](const Position& pos) {
      const Player p = pos.to_move();
      bool can_take = false, can_save = false;
      for (RootId r = 0; r < pos.num_root_ids(); ++r) {
        const std::vector<Vertex> space = pos.root_space_points(r);
        const Vertex u = pos.root_space_point(r);
        ASSERT_EQ(u == kNoVertex, space.empty());
        if (u != kNoVertex) ASSERT_TRUE(std::count(space.begin(), space.end(), u) == 1);
        if (space.size() != 1 || !pos.is_legal_point(p, u)) continue;
        Position probe = pos;
        const MoveRecord& rec = probe.play(u);
        if (rec.expanded_removed) continue;
        if (pos.root_owner(r) != p) {
          can_take |= !probe.root_alive(r);
        } else {
          can_save |= probe.root_alive(r) && probe.root_space(r) > 0;
        }
      }
      const Vertex t = tactical_move(pos, p);
      ASSERT_EQ(t != kNoVertex, can_take || can_save) << board;
      if (t == kNoVertex) {
        // Nothing to take: the light policy, told so, draws the same moves and plays the same.
        for (const int tries : {1, 3}) {
          Rng told(pos.ply() * 8 + tries), checked(pos.ply() * 8 + tries);
          ASSERT_EQ(light_playout_move(pos, told, tries, true),
                    light_playout_move(pos, checked, tries, false))
              << board;
        }
        return;
      }
      Position probe = pos;
      const MoveRecord& rec = probe.play(t);
      ASSERT_FALSE(rec.expanded_removed);
      // A take comes first: the move removes stones of others exactly when one was possible.
      ASSERT_EQ(stones_of_others(probe, p) < stones_of_others(pos, p), can_take) << board;
      takes += can_take;
      saves += !can_take;
    });
    if (HasFatalFailure()) return;
    EXPECT_GT(takes, 0) << board;  // both kinds were exercised
    EXPECT_GT(saves, 0) << board;
  }
}

TEST(Mcts, OnePlyPriorsKeepMovesLegalAndTheSearchDeterministic) {
  const Position start = test::make("grid 9x9");
  std::vector<Vertex> line[2];
  for (int run = 0; run < 2; ++run) {
    Mcts m(parse_mcts_options("playouts=200,prior=30"), 4);
    Position pos = start;
    for (int i = 0; i < 8 && !pos.is_over(); ++i) {
      const Vertex v = m.search(pos);
      ASSERT_EQ(pos.check_move(pos.to_move(), v), MoveStatus::kLegal);
      line[run].push_back(v);
      pos.play(v);
    }
  }
  EXPECT_EQ(line[0], line[1]);
}

TEST(Mcts, OnePlyScoreLeavesThePositionAsItWas) {
  Position pos = test::make("grid 9x9");
  Rng rng(2);
  for (int i = 0; i < 20; ++i) pos.play(random_move(pos, rng));
  const std::uint64_t hash = pos.hash();
  const std::uint32_t ply = pos.ply();
  for (Vertex v : pos.legal_moves(pos.to_move())) {
    const double s = one_ply_score(pos, v);
    EXPECT_TRUE(std::isfinite(s));
  }
  EXPECT_EQ(pos.hash(), hash);
  EXPECT_EQ(pos.ply(), ply);
  EXPECT_EQ(pos.check_consistency(), "");
}

// The last good reply with forgetting: the winner's replies are stored, a loser's stored reply
// is forgotten, another losing reply leaves the stored one, and players do not share replies.
TEST(ReplyTable, StoresTheWinnersRepliesAndForgetsTheLosers) {
  using detail::Step;
  detail::ReplyTable t(3, 10);
  for (Player p = 1; p <= 3; ++p) {
    for (Vertex u = 0; u < 10; ++u) EXPECT_EQ(t.reply(p, u), kNoVertex);
  }
  const std::vector<Step> a = {{1, 0}, {2, 1}, {1, 2}, {2, 3}, {1, 4}};
  t.learn(a, 2);
  EXPECT_EQ(t.reply(2, 0), 1u);  // White's moves, replies to Black's
  EXPECT_EQ(t.reply(2, 2), 3u);
  EXPECT_EQ(t.reply(1, 1), kNoVertex);  // Black lost: nothing stored
  EXPECT_EQ(t.reply(1, 3), kNoVertex);
  EXPECT_EQ(t.reply(1, 0), kNoVertex);  // replies are per player
  EXPECT_EQ(t.reply(3, 0), kNoVertex);

  const std::vector<Step> b = {{1, 0}, {2, 1}, {1, 2}, {2, 5}, {1, 6}};
  t.learn(b, 1);
  EXPECT_EQ(t.reply(2, 0), kNoVertex);  // White lost playing the stored reply 1: forgotten
  EXPECT_EQ(t.reply(2, 2), 3u);         // White lost playing 5, not the stored 3: kept
  EXPECT_EQ(t.reply(1, 1), 2u);         // Black won: its replies are stored
  EXPECT_EQ(t.reply(1, 5), 6u);

  const std::vector<Step> c = {{3, 2}, {2, 7}, {1, 8}};
  t.learn(c, 2);
  EXPECT_EQ(t.reply(2, 2), 7u);  // a newer winning reply replaces the old one
  EXPECT_EQ(t.reply(1, 7), kNoVertex);
  t.learn(std::vector<Step>{{1, 9}}, 1);  // one move: no reply to learn
  EXPECT_EQ(t.reply(1, 9), kNoVertex);
}

// reply=1 reaches the playouts: the same seed plays other playouts than without it, and the
// searches stay legal and reproducible on boards of every kind, with three players too.
TEST(Mcts, LastGoodReplyPlayoutsAreLegalAndReproducible) {
  for (const char* board : {"grid 9x9", "hex 4", "grid 4x4x4", "hex 5 (3 players)"}) {
    const bool three = board == std::string("hex 5 (3 players)");
    const Position pos = three ? test::make("hex 5", "default", 3) : test::make(board);
    std::uint64_t moves[2] = {};
    for (int run = 0; run < 2; ++run) {
      Mcts m(parse_mcts_options("playouts=400,reply=1,solver=0"), 5);
      const Vertex v = m.search(pos);
      EXPECT_EQ(pos.check_move(pos.to_move(), v), MoveStatus::kLegal) << board;
      moves[run] = m.last_stats().playout_moves;
    }
    EXPECT_EQ(moves[0], moves[1]) << board;
    Mcts plain(parse_mcts_options("playouts=400,solver=0"), 5);
    plain.search(pos);
    EXPECT_NE(plain.last_stats().playout_moves, moves[0]) << board;
  }
}

// tmoves reaches the playouts: the tactics in the first 30 moves of each playout only play
// other playouts than in all or in none, and a limit longer than any playout is no limit. (In
// the first 10 moves of a playout from the 9x9 start, no root is down to its last point yet:
// the tactics find nothing there, and the playouts are often those of none.)
TEST(Mcts, TacticsMovesLimitTheTacticsToTheStartOfEachPlayout) {
  const Position pos = test::make("grid 9x9");
  const auto playout_moves = [&](const char* options) {
    Mcts m(parse_mcts_options(options), 5);
    const Vertex v = m.search(pos);
    EXPECT_EQ(pos.check_move(pos.to_move(), v), MoveStatus::kLegal) << options;
    return m.last_stats().playout_moves;
  };
  const std::uint64_t all = playout_moves("playouts=300,solver=0,tactics=1,tmoves=0");
  const std::uint64_t first = playout_moves("playouts=300,solver=0,tactics=1,tmoves=30");
  const std::uint64_t none = playout_moves("playouts=300,solver=0,tactics=0");
  EXPECT_NE(first, all);
  EXPECT_NE(first, none);
  EXPECT_EQ(playout_moves("playouts=300,solver=0,tactics=1,tmoves=100000"), all);
  EXPECT_EQ(playout_moves("playouts=300,solver=0,tactics=1"), all);  // 9x9: every move
}

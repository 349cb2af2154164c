// Engine players: legal moves on every kind of board and player count; spec parsing.
#include <gtest/gtest.h>

#include "tanbo/ai/agent.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/random.hpp"
#include "tanbo/study/games.hpp"
#include "tanbo/study/seats.hpp"
#include "test_support.hpp"

using namespace tanbo;

namespace {

const char* kDot = R"(graph ring {
  players=3
  a [stone=1]; b; c; d [stone=2]; e; f; g [stone=3]; h; i;
  a -- b -- c -- d -- e -- f -- g -- h -- i -- a;
  b -- e; e -- h; h -- b;
})";

struct Board {
  std::string spec;
  std::string setup;
  int players;
  bool full_game;  // small enough to play to the end with every agent
};

// Plays `moves` moves (0 = to the end) with one agent per seat, checking each move against
// the rules before it is played.
void play_checked(Position& pos, const std::vector<Agent*>& seats, int moves) {
  for (int m = 0; (moves == 0 || m < moves) && !pos.is_over(); ++m) {
    const Player p = pos.to_move();
    const Vertex v = seats[p - 1]->choose(pos);
    ASSERT_LT(v, pos.num_vertices());
    ASSERT_EQ(pos.check_move(p, v), MoveStatus::kLegal)
        << seats[p - 1]->spec() << " on " << pos.topology().spec << ": " << pos.explain(p, v);
    pos.play(v);
  }
  if (moves == 0) {
    EXPECT_TRUE(pos.is_over());
  }
  EXPECT_EQ(pos.check_consistency(), "");
}

}  // namespace

TEST(Agents, LegalMovesOnEveryBoardKindAndPlayerCount) {
  const std::vector<Board> boards = {
      {"line 19", "default", 2, true},    {"grid 7x7", "default", 2, true},
      {"grid 9x9", "default", 2, true},   {"grid 6x6 wrap", "default", 2, true},
      {"grid 4x4x4", "default", 2, true}, {"grid 3x3x3x3", "default", 2, true},
      {"hex 3", "default", 2, true},      {"hex 5", "hexbo", 3, true},
      {"hex 5", "hexbo", 6, false},       {"grid 19x19", "four", 4, false},
      {"grid 9x9", "dense", 2, false},
  };
  // The exact solver runs before each MCTS move on boards of at most 64 empty points, with
  // 100,000 positions: it dominates the time of a 40-playout search there (a 4x4x4 game took
  // 15 s), so it plays here only on the small boards; it is tested in test_mcts and
  // test_solver.
  const std::vector<std::string> specs = {"random", "greedy", "mcts:playouts=40,solver=0",
                                          "mcts:playouts=40,threads=2,solver=0"};
  for (const auto& b : boards) {
    const Position start = test::make(b.spec, b.setup, b.players);
    ASSERT_EQ(start.num_players(), b.players) << b.spec;
    std::vector<std::string> these = specs;
    if (start.num_vertices() <= 30 && b.players == 2) these.push_back("mcts:playouts=40");
    for (const auto& spec : these) {
      SCOPED_TRACE(b.spec + " / " + spec);
      std::vector<std::unique_ptr<Agent>> agents;
      std::vector<Agent*> seats;
      for (int s = 0; s < b.players; ++s) {
        // Mixed tables: the agent under test against random players.
        agents.push_back(make_agent(s % 2 == 0 ? spec : "random", 11 + s));
        seats.push_back(agents.back().get());
      }
      Position pos = start;
      play_checked(pos, seats, b.full_game ? 0 : 12);
    }
  }
}

TEST(Agents, LegalMovesOnADotBoardWithThreePlayers) {
  auto topo = make_from_dot(kDot, "ring");
  const Position start(topo, make_setup(*topo, "default", 0));
  ASSERT_EQ(start.num_players(), 3);
  for (const std::string spec : {"random", "greedy", "mcts:playouts=30"}) {
    std::vector<std::unique_ptr<Agent>> agents;
    std::vector<Agent*> seats;
    for (int s = 0; s < 3; ++s) {
      agents.push_back(make_agent(spec, 5 + s));
      seats.push_back(agents.back().get());
    }
    Position pos = start;
    play_checked(pos, seats, 0);
  }
}

TEST(Agents, GreedyTakesAFreeRemovalOverAQuietMove) {
  // Greedy must never lose to random on a small board over a handful of games.
  const auto score = test::first_agent_score(test::make("grid 9x9"), {"greedy", "random"}, 3, 10);
  EXPECT_GE(score.wins, 9);
}

TEST(Agents, SpecsRoundTrip) {
  EXPECT_EQ(make_agent("random")->spec(), "random");
  EXPECT_EQ(make_agent("greedy")->spec(), "greedy");
  EXPECT_EQ(make_agent("mcts:playouts=2000")->spec(), "mcts:playouts=2000");
  EXPECT_EQ(make_agent("mcts:playouts=100,threads=2,parallel=root")->spec(),
            "mcts:playouts=100,threads=2,parallel=root");
  EXPECT_EQ(make_agent("mcts:time=0.5")->spec(), "mcts:time=0.5");
  EXPECT_EQ(make_agent("mcts:rave=0,policy=random,playouts=10")->spec(),
            "mcts:playouts=10,rave=0,policy=random");
}

TEST(Agents, BadSpecsAreRefusedWithTheReason) {
  auto message = [](const std::string& spec) {
    try {
      make_agent(spec);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message("alphago").find("unknown player \"alphago\""), std::string::npos);
  EXPECT_NE(message("alphago").find("random, greedy, mcts"), std::string::npos);
  EXPECT_NE(message("mcts:").find("no options"), std::string::npos);
  EXPECT_NE(message("mcts:playouts=abc").find("playouts=abc"), std::string::npos);
  EXPECT_NE(message("mcts:playouts=0").find("from 1"), std::string::npos);
  EXPECT_NE(message("mcts:time=-1").find("time=-1"), std::string::npos);
  EXPECT_NE(message("mcts:depth=3").find("unknown mcts option \"depth\""), std::string::npos);
  EXPECT_NE(message("mcts:parallel=both").find("tree or root"), std::string::npos);
  EXPECT_NE(message("mcts:playouts").find("key=value"), std::string::npos);
}

TEST(Agents, AgentListsSplitOnCommasBeforeAgentNames) {
  using V = std::vector<std::string>;
  EXPECT_EQ(split_agent_list("mcts:playouts=2000,random"), (V{"mcts:playouts=2000", "random"}));
  EXPECT_EQ(split_agent_list("mcts:playouts=2000,threads=2,random"),
            (V{"mcts:playouts=2000,threads=2", "random"}));
  EXPECT_EQ(split_agent_list("random,mcts:time=1,threads=4,greedy,mcts"),
            (V{"random", "mcts:time=1,threads=4", "greedy", "mcts"}));
  EXPECT_EQ(split_agent_list("mcts:playouts=500,mcts:playouts=500"),
            (V{"mcts:playouts=500", "mcts:playouts=500"}));
  EXPECT_THROW(split_agent_list(""), Error);
  EXPECT_THROW(split_agent_list("random,,greedy"), Error);
  EXPECT_THROW(split_agent_list("threads=2,random"), Error);
  EXPECT_THROW(split_agent_list("random,threads=2"), Error);  // random takes no options
  EXPECT_THROW(split_agent_list("random,alphago"), Error);
}

// --players of match and study: 2 to 8 seats, every spec checked before a game is played.
TEST(Agents, SeatListsNeedTwoToEightValidPlayers) {
  auto message = [](const std::string& list) {
    try {
      seat_specs(list, "match");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(seat_specs("random,mcts:playouts=5,threads=2", "match"),
            (std::vector<std::string>{"random", "mcts:playouts=5,threads=2"}));
  EXPECT_EQ(seat_specs("random,random,random,random,random,random,random,random", "study").size(),
            8u);
  EXPECT_EQ(message("random"), "--players: a match needs 2 to 8 engine players");
  EXPECT_EQ(message("random,random,random,random,random,random,random,random,random"),
            "--players: a match needs 2 to 8 engine players");
  EXPECT_NE(message("random,mcts:playouts=0").find("playouts=0"), std::string::npos);
  EXPECT_NE(message("random,,greedy").find("empty item"), std::string::npos);
}

TEST(Agents, GtpEngineOptionDrivesGenmove) {
  const std::string bin = TANBO_BINARY;
  // Same seed, same search: the answers repeat; every answer is a legal move of the board.
  const std::string input = "boardsize 9\ngenmove b\ngenmove w\nlegal_moves\nquit\n";
  const auto a = test::run_command(bin + " gtp --engine mcts:playouts=60 --seed 3", input);
  const auto b = test::run_command(bin + " gtp --engine mcts:playouts=60 --seed 3", input);
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(a.out.substr(0, 4), "=\n\n=");
  const auto t = test::run_command(bin + " gtp --engine greedy --threads 2", "genmove b\nquit\n");
  EXPECT_EQ(t.status, 0) << t.err;
  EXPECT_EQ(t.out.substr(0, 2), "= ");
  test::expect_refused(bin + " gtp --engine alphago", "unknown player \"alphago\"");
  test::expect_refused(bin + " gtp --threads 0", "--threads 0");
}

TEST(Agents, WithThreadsAddsTheOptionToMctsSpecsOnly) {
  EXPECT_EQ(with_threads("mcts", 4), "mcts:threads=4");
  EXPECT_EQ(with_threads("mcts:playouts=500", 2), "mcts:playouts=500,threads=2");
  EXPECT_EQ(with_threads("greedy", 2), "greedy");
  EXPECT_EQ(make_agent(with_threads("mcts:time=1", 3))->spec(), "mcts:time=1,threads=3");
  EXPECT_THROW(with_threads("mcts:threads=2", 4), Error);
  EXPECT_THROW(with_threads("mcts:time=1,threads=2", 4), Error);
}

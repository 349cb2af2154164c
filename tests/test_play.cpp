// `tanbo play` driven through its input stream (as piped stdin would): complete games on 9x9,
// 5x5x5 and a DOT board, human against human and against an engine player; the commands.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <regex>
#include <sstream>

#include "commands.hpp"
#include "tanbo/gamefile.hpp"
#include "test_support.hpp"

namespace tanbo {
namespace {

struct Outcome {
  int code = 0;
  std::string out, err;
};

Outcome play(const std::vector<std::string>& args, const std::string& input) {
  std::istringstream in(input);
  std::ostringstream out, err;
  Outcome o;
  o.code = cli::cmd_play(args, in, out, err);
  o.out = out.str();
  o.err = err.str();
  return o;
}

// Every point of the board, in vertex order, `rounds` times: a "human" who types each point
// in turn until one is accepted. Illegal ones are refused and the same player asked again.
std::string stubborn_human(const std::string& spec, int rounds) {
  const auto topo = spec.rfind("file ", 0) == 0 ? parse_topology(spec) : parse_topology(spec);
  std::string all;
  for (Vertex v = 0; v < topo->num_vertices(); ++v) all += topo->name(v) + "\n";
  std::string s;
  for (int i = 0; i < rounds; ++i) s += all;
  return s;
}

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

// The game ended with a winner; the number of turns in the final status line equals the
// number of turn reports; refused moves were reported with a reason.
void expect_complete(const Outcome& o) {
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.err, "");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(o.out, m, std::regex("game over after (\\d+) turns?: (\\w+)")))
      << o.out.substr(o.out.size() > 3000 ? o.out.size() - 3000 : 0);
  const int turns = std::stoi(m[1]);
  const int reports = count(o.out, " plays ") + count(o.out, "'s move at ");
  EXPECT_EQ(reports, turns);
  EXPECT_NE(o.out.find("Game over: " + std::string(m[2]) + " wins."), std::string::npos);
  EXPECT_EQ(o.out.find('\033'), std::string::npos);  // no colour when not a terminal
}

TEST(Play, HumanVsHuman9x9) {
  const Outcome o = play({"--topology", "grid 9x9"}, stubborn_human("grid 9x9", 400));
  expect_complete(o);
  EXPECT_NE(o.out.find("Illegal move A1: no Black stone touches A1. Black to play again."),
            std::string::npos);
  EXPECT_NE(o.out.find("Black> A1\n"), std::string::npos);  // piped input is echoed
}

TEST(Play, HumanVsEngine5x5x5) {
  const Outcome o = play({"--topology", "grid 5x5x5", "--white", "random", "--seed", "5"},
                         stubborn_human("grid 5x5x5", 400));
  expect_complete(o);
  EXPECT_NE(o.out.find("White [random]: "), std::string::npos);
  EXPECT_NE(o.out.find("Z=5 (xy5)"), std::string::npos);
  EXPECT_EQ(o.out.find("White> "), std::string::npos);  // the engine is never prompted
}

TEST(Play, EngineVsHumanOnDotBoard) {
  const std::string spec = "file " + std::string(TANBO_TEST_DATA) + "/render/wheel.dot";
  const Outcome o =
      play({"--topology", spec, "--black", "random", "--seed", "2"}, stubborn_human(spec, 200));
  expect_complete(o);
  EXPECT_NE(o.out.find("13 points, 17 edges"), std::string::npos);
}

TEST(Play, HumanVsHumanOnDotBoard) {
  const std::string spec = "file " + std::string(TANBO_TEST_DATA) + "/render/wheel.dot";
  expect_complete(play({"--topology", spec}, stubborn_human(spec, 200)));
}

TEST(Play, EnginesAlone) {
  const Outcome o = play({"--topology", "hex 3", "--black", "random", "--white", "random"}, "");
  expect_complete(o);
}

TEST(Play, Commands) {
  const std::string file =
      ::testing::TempDir() + "tanbo_play_" + std::to_string(::getpid()) + ".tanbo";
  const Outcome o =
      play({"--topology", "grid 9x9", "--players", "alice,bob"},
           "help\nhint\nroots\nmoves\nC2\nundo\nC2\nC3\nG2\nsave " + file + "\nquit\n");
  EXPECT_EQ(o.code, 0);
  EXPECT_NE(o.out.find("undo           take back"), std::string::npos);
  EXPECT_NE(o.out.find("8 legal moves for Black (shown as *)"), std::string::npos);
  EXPECT_NE(o.out.find(" 2 |* # * . . . . o .| 2"), std::string::npos);  // the hint board
  EXPECT_NE(o.out.find("Black root B2: 1 stone, root space 4 | B2"), std::string::npos);
  EXPECT_NE(o.out.find("8 legal moves for Black: B1 A2 C2 B3 H7 G8 J8 H9"), std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("took back 1 turn"), std::string::npos);
  EXPECT_NE(o.out.find("Illegal move C3: no White stone touches C3. White to play again."),
            std::string::npos);
  EXPECT_NE(o.out.find("saved to " + file), std::string::npos);
  const Game saved = load_game(file);
  EXPECT_EQ(saved.position.ply(), 2u);
  EXPECT_EQ(saved.names[0], "alice");

  // Load it again, resign: the game ends.
  const Outcome r = play({"--load", file}, "board\nresign\n");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("Black (alice) to play"), std::string::npos);
  EXPECT_NE(r.out.find("Black resigns: 2 roots removed (3 stones)."), std::string::npos);
  EXPECT_NE(r.out.find("Game over: White wins (Black resigned)."), std::string::npos);

  // load inside the game.
  const Outcome l = play({"--topology", "grid 5x5x5"}, "load " + file + "\nmoves\nquit\n");
  EXPECT_NE(l.out.find("loaded " + file + ": grid 9x9, 2 turns"), std::string::npos) << l.out;
  EXPECT_NE(l.out.find("legal moves for Black: "), std::string::npos);
  std::filesystem::remove(file);
}

TEST(Play, UndoTakesBackTheEngineReplyToo) {
  const Outcome o = play({"--topology", "grid 9x9", "--white", "random"}, "C2\nundo\nquit\n");
  EXPECT_NE(o.out.find("took back 2 turns"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("start, Black to play"), std::string::npos);
}

TEST(Play, BadOptionsRefusedInOneLine) {
  auto one_line = [](const Outcome& o) {
    EXPECT_EQ(o.code, 2);
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    return o.err;
  };
  EXPECT_NE(one_line(play({"--white", "nobody"}, "")).find("--white nobody: "), std::string::npos);
  EXPECT_NE(one_line(play({"--red", "human"}, "")).find("this game has only 2 players"),
            std::string::npos);
  EXPECT_NE(one_line(play({"--seat", "9=random"}, "")).find("--seat 9=random"), std::string::npos);
  EXPECT_NE(one_line(play({"--colour", "pink"}, "")).find("--colour"), std::string::npos);
  EXPECT_NE(one_line(play({"--topology", "grid 0x0"}, "")).find("tanbo play: "), std::string::npos);
  EXPECT_NE(one_line(play({"--load", "/nonexistent.tanbo"}, "")).find("/nonexistent.tanbo"),
            std::string::npos);
  EXPECT_NE(one_line(play({"--frobnicate"}, "")).find("frobnicate"), std::string::npos);
}

TEST(Play, HelpHasAnExample) {
  const Outcome o = play({"--help"}, "");
  EXPECT_EQ(o.code, 0);
  EXPECT_NE(o.out.find("tanbo play --topology \"grid 5x5x5\" --white engine"), std::string::npos);
}

TEST(Play, ThroughTheProgramWithPipedStdin) {
  const auto r = test::run_command(
      std::string(TANBO_BINARY) + " play --topology 'grid 9x9' --white random --seed 3",
      stubborn_human("grid 9x9", 400));
  expect_complete({r.status, r.out, r.err});
}

}  // namespace
}  // namespace tanbo

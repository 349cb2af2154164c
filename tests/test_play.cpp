// `tanbo play` driven through its input stream (as piped stdin would): complete games on 9x9,
// 5x5x5 and a DOT board, human against human and against an engine player; the commands; the
// menu of a finished game (review, undo and play on, save, new); the take-back rule.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <regex>
#include <sstream>

#include "commands.hpp"
#include "tanbo/io/gamefile.hpp"
#include "tanbo/platform/memory.hpp"
#include "tanbo/session/session.hpp"
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
  o.code = cli::run_subcommand(*cli::find_command("play"), args, in, out, err);
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
  EXPECT_NE(o.out.find("move 2 [random]: White "), std::string::npos);
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
  EXPECT_NE(o.out.find("undo [N]       take back"), std::string::npos);
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
  EXPECT_NE(r.out.find("move 3: Black resigns: 2 roots removed (3 stones)."), std::string::npos);
  EXPECT_NE(r.out.find("Game over: White wins (Black resigned)."), std::string::npos);

  // load inside the game.
  const Outcome l = play({"--topology", "grid 5x5x5"}, "load " + file + "\nmoves\nquit\n");
  EXPECT_NE(l.out.find("loaded " + file + ": grid 9x9, 2 turns"), std::string::npos) << l.out;
  EXPECT_NE(l.out.find("legal moves for Black: "), std::string::npos);
  std::filesystem::remove(file);
}

// "move N" is the N-th turn in the report of a move, the status line and `tanbo show --move N`.
TEST(Play, MoveNumbersAsInGameFiles) {
  const std::string file =
      ::testing::TempDir() + "tanbo_play_numbers_" + std::to_string(::getpid()) + ".tanbo";
  const Outcome o = play({"--topology", "grid 9x9"}, "C2\nG2\nsave " + file + "\nquit\n");
  EXPECT_NE(o.out.find("start, Black to play"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("move 1: Black plays C2.\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("after move 1, White to play"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("move 2: White plays G2.\n"), std::string::npos) << o.out;
  const auto show =
      test::run_command(std::string(TANBO_BINARY) + " show " + file + " --move 1 --colour never");
  EXPECT_EQ(show.status, 0) << show.err;
  EXPECT_NE(show.out.find("move 1: Black plays C2."), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("after move 1, White to play"), std::string::npos) << show.out;
  std::filesystem::remove(file);
}

TEST(Play, UndoTakesBackTheEngineReplyToo) {
  const Outcome o = play({"--topology", "grid 9x9", "--white", "random"}, "C2\nundo\nquit\n");
  EXPECT_NE(o.out.find("took back 2 turns"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("start, Black to play"), std::string::npos);
}

TEST(Play, UndoCountsTurns) {
  const Outcome o = play({"--topology", "grid 9x9", "--white", "random"},
                         "C2\nundo 1\nundo 5\nundo x\nundo 2\nundo\nquit\n");
  // undo 1 takes back White's reply; White, the engine, is to move and answers again.
  EXPECT_NE(o.out.find("Black> undo 1\ntook back 1 turn\n"), std::string::npos) << o.out;
  EXPECT_EQ(count(o.out, "move 2 [random]: White "), 2) << o.out;
  EXPECT_NE(o.out.find("cannot take back 5 turns: only 2 turns have been played"),
            std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("undo takes a number of turns: undo 2 (not \"x\")"), std::string::npos);
  EXPECT_NE(o.out.find("took back 2 turns\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("nothing to undo: the game is at its start"), std::string::npos) << o.out;
}

// The rule shared by `tanbo play` and the viewer: back to a person's turn.
TEST(TakeBack, ToAPersonsTurn) {
  Position pos = test::make("grid 9x9");
  const auto white_is_engine = [](Player p) { return p != kWhite; };
  EXPECT_EQ(take_back_to_person(pos, white_is_engine), 0u);  // nothing to take back
  for (int i = 0; i < 4; ++i) pos.play(pos.legal_move(pos.to_move(), 0));
  // Black, White, Black, White: White's reply and Black's move go.
  EXPECT_EQ(take_back_to_person(pos, white_is_engine), 2u);
  EXPECT_EQ(pos.ply(), 2u);
  EXPECT_EQ(pos.to_move(), kBlack);
  pos.play(pos.legal_move(kBlack, 0));  // White (the engine) to move: Black's move goes
  EXPECT_EQ(take_back_to_person(pos, white_is_engine), 1u);
  EXPECT_EQ(pos.to_move(), kBlack);
  // Everyone a person, or nobody: one turn.
  EXPECT_EQ(take_back_to_person(pos, [](Player) { return true; }), 1u);
  EXPECT_EQ(take_back_to_person(pos, [](Player) { return false; }), 1u);
  EXPECT_EQ(pos.ply(), 0u);
  // An engine that moved first and nobody after it: back to the start, the engine to move.
  pos.play(pos.legal_move(kBlack, 0));
  EXPECT_EQ(take_back_to_person(pos, [](Player p) { return p == kWhite; }), 1u);
  EXPECT_EQ(pos.ply(), 0u);
}

TEST(TakeBack, ResignationAndTheEndOfAGame) {
  // Three players, Red the only person: Black and White are engines.
  Position pos = test::make("hex 5", "default", 3);
  const auto red_is_person = [](Player p) { return p == Player{3}; };
  pos.play(pos.legal_move(kBlack, 0));
  pos.play(pos.legal_move(kWhite, 0));
  pos.resign(Player{3});
  pos.play(pos.legal_move(kBlack, 0));
  ASSERT_EQ(pos.to_move(), kWhite);
  EXPECT_EQ(take_back_to_person(pos, red_is_person), 2u);  // Black's move, Red's resignation
  EXPECT_EQ(pos.to_move(), Player{3});
  EXPECT_FALSE(pos.is_out(Player{3}));
  // A finished game: the winning move and the engines' before it, back to Red.
  Position g = test::make("hex 3");
  while (!g.is_over()) g.play(g.legal_move(g.to_move(), 0));
  const std::uint32_t end = g.ply();
  const auto white_person = [](Player p) { return p == kWhite; };
  const Player last = g.last_move().player;
  EXPECT_EQ(take_back_to_person(g, white_person), last == kWhite ? 1u : 2u);
  EXPECT_FALSE(g.is_over());
  EXPECT_EQ(g.to_move(), kWhite);
  EXPECT_LT(g.ply(), end);
}

// A game between two engines ends; the menu steps through it, lists and saves it, takes turns
// back (the engines then play on to a new end), starts a new game, and leaves.
TEST(PlayMenu, ReviewSaveUndoNewQuit) {
  const std::string file =
      ::testing::TempDir() + "tanbo_play_menu_" + std::to_string(::getpid()) + ".tanbo";
  const Outcome o = play({"--topology", "hex 3", "--black", "random", "--white", "random"},
                         "review\n\n\nback\ngoto 5\nlast\nforward\nfirst\nback\ngoto 999\n"
                         "moves\nE1\nsave " +
                             file + "\nundo 2\nnew\nquit\n");
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.err, "");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(o.out, m, std::regex("game over after (\\d+) turns")));
  const std::string n = m[1];
  EXPECT_NE(o.out.find("The game is over: review, back, forward, goto N"), std::string::npos);
  EXPECT_NE(o.out.find("game over> review\nstart of the game (" + n + " moves in all)"),
            std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("move 0 of " + n + "> \nmove 1 of " + n + ": Black plays "),
            std::string::npos);
  EXPECT_NE(o.out.find("move 1 of " + n + "> \nmove 2 of " + n + ": White "), std::string::npos);
  EXPECT_NE(o.out.find("move 2 of " + n + "> back\nmove 1 of " + n + ": Black "),
            std::string::npos);
  EXPECT_NE(o.out.find("> goto 5\nmove 5 of " + n + ": "), std::string::npos);
  EXPECT_NE(o.out.find("> last\nmove " + n + " of " + n + ": "), std::string::npos);
  EXPECT_NE(o.out.find("game over> forward\nthis is the end of the game (move " + n + ")"),
            std::string::npos);
  EXPECT_NE(o.out.find("move 0 of " + n + "> back\nthis is the start of the game"),
            std::string::npos);
  EXPECT_NE(o.out.find("goto takes a move number from 0 (the start) to " + n), std::string::npos);
  EXPECT_NE(o.out.find("1. Black "), std::string::npos);
  EXPECT_NE(o.out.find(n + ". "), std::string::npos);
  EXPECT_NE(o.out.find("\"E1\" is not a command here"), std::string::npos);
  EXPECT_NE(o.out.find("saved to " + file), std::string::npos);
  const Game saved = load_game(file);
  EXPECT_EQ(std::to_string(saved.position.ply()), n);
  EXPECT_TRUE(saved.position.is_over());
  // undo 2: the engines answer again and the game ends a second time; new: a third game.
  EXPECT_NE(o.out.find("took back 2 turns"), std::string::npos);
  EXPECT_NE(o.out.find("new game on hex 3 (setup hexbo)"), std::string::npos);
  EXPECT_EQ(count(o.out, "Game over: "), 3) << o.out;
  EXPECT_EQ(count(o.out, "start, Black to play"), 4);  // the start, review, first, new
  // --load of the finished game opens it in the menu; the end of the input leaves (status 0).
  const Outcome r = play({"--load", file}, "goto 1\n");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("Game over: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("game over> goto 1\nmove 1 of " + n + ": Black plays "), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("input ended; the game is not finished"), std::string::npos);
  std::filesystem::remove(file);
}

// Two people finish a game; undo takes the winning move back and the same person plays on,
// this time elsewhere if they can.
TEST(PlayMenu, UndoThenPlayOn) {
  Position g = test::make("hex 3");
  while (!g.is_over()) g.play(g.legal_move(g.to_move(), 0));
  Game finished(g);
  const std::string file =
      ::testing::TempDir() + "tanbo_play_finished_" + std::to_string(::getpid()) + ".tanbo";
  save_game(finished, file);
  const std::string last = g.topology().name(g.last_move().vertex);
  const std::string mover = player_title(g.last_move().player);
  const std::string n = std::to_string(g.ply());
  // The winning move again: the game is over again; then quit.
  const Outcome o = play({"--load", file}, "undo\n" + last + "\nquit\n");
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("game over> undo\ntook back 1 turn\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find(mover + "> " + last + "\nmove " + n + ": "), std::string::npos) << o.out;
  EXPECT_EQ(count(o.out, "Game over: "), 2);
  EXPECT_EQ(count(o.out, "game over> "), 2);
  std::filesystem::remove(file);
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
  // Two options for one seat: refused, neither taken over the other.
  EXPECT_NE(one_line(play({"--seat", "1=random", "--black", "greedy"}, ""))
                .find("--seat 1=random and --black greedy both name Black's player"),
            std::string::npos);
  EXPECT_NE(one_line(play({"--seat", "1="}, "")).find("--seat 1=: unknown player"),
            std::string::npos);
  EXPECT_NE(one_line(play({"--colour", "pink"}, "")).find("--colour"), std::string::npos);
  EXPECT_NE(one_line(play({"--topology", "grid 0x0"}, "")).find("tanbo play: "), std::string::npos);
  EXPECT_NE(one_line(play({"--load", "/nonexistent.tanbo"}, "")).find("/nonexistent.tanbo"),
            std::string::npos);
  EXPECT_NE(one_line(play({"--frobnicate"}, "")).find("frobnicate"), std::string::npos);
}

// Piped input is echoed after the prompt; a line with control characters is echoed escaped,
// so that a script cannot drive the terminal the transcript goes to.
TEST(Play, EchoedLinesWithControlCharactersAreEscaped) {
  const Outcome o = play({"--topology", "grid 5x5"}, "\x1b]0;title\x07\x1b[2J\nC2\r\nquit\n");
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out.find('\x1b'), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("Black> \"\\x1b]0;title\\x07\\x1b[2J\"\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("move 1: Black plays C2."), std::string::npos) << o.out;
}

// An empty seat or engine option is refused rather than read as "human" or as the default
// engine.
TEST(Play, EmptySeatAndEngineOptionsAreRefused) {
  Outcome o = play({"--white", ""}, "quit\n");
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("--white is empty"), std::string::npos) << o.err;
  o = play({"--white", "engine", "--engine", ""}, "quit\n");
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("--engine is empty"), std::string::npos) << o.err;
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

// GoGui's ruler commands (gogui-rules_*, docs/protocol.md section GoGui): the command sequences
// GoGui and gogui-twogtp send, as their source shows them, replayed through GtpEngine, every
// answer read the way GoGui reads it and checked against the rules (a Position of the test's
// own, playing the same moves).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../src/cli/gtp.hpp"
#include "gtp_state.hpp"
#include "tanbo/core/random.hpp"
#include "test_support.hpp"

using namespace tanbo;
using tanbo::cli::GtpEngine;

namespace {

const char* const kRulerCommands[] = {"gogui-rules_game_id",      "gogui-rules_board_size",
                                      "gogui-rules_board",        "gogui-rules_legal_moves",
                                      "gogui-rules_side_to_move", "gogui-rules_final_result"};

// The text of a successful answer (what GoGui's client hands on); fails the test on a refusal.
std::string text_of(const std::string& command, const std::string& reply) {
  EXPECT_TRUE(reply.size() >= 3 && reply[0] == '=' && reply.substr(reply.size() - 2) == "\n\n")
      << command << " -> " << reply;
  if (reply.size() < 3 || reply[0] != '=') return "";
  const std::string body = reply.substr(1, reply.size() - 3);
  return body.empty() ? body : body.substr(1);
}

std::vector<std::string> words_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> w;
  for (std::string s; in >> s;) w.push_back(s);
  return w;
}

// Reads a gogui-rules_board answer as GoGui does: only X, O, . and ? count, row by row from
// the top row down, each row from column A. Returns the stones by vertex (x + w*y) of a board of
// w columns and h rows (h = w: a square).
std::vector<Player> read_board(const std::string& text, std::uint32_t w, std::uint32_t h = 0) {
  if (h == 0) h = w;
  std::vector<char> cells;
  for (char c : text) {
    if (c == 'X' || c == 'O' || c == '.' || c == '?') cells.push_back(c);
  }
  EXPECT_EQ(cells.size(), std::size_t{w} * h) << text;
  std::vector<Player> stones(std::size_t{w} * h, kEmpty);
  for (std::size_t i = 0; i < cells.size() && i < stones.size(); ++i) {
    const std::size_t x = i % w, y = h - 1 - i / w;
    EXPECT_NE(cells[i], '?') << "no point of a grid is off the board";
    stones[x + w * y] = cells[i] == 'X' ? kBlack : cells[i] == 'O' ? kWhite : kEmpty;
  }
  return stones;
}

std::vector<Player> stones_of(const Position& pos) {
  std::vector<Player> s;
  for (Vertex v = 0; v < pos.num_vertices(); ++v) s.push_back(pos.at(v));
  return s;
}

// The side to move's legal points by the rules: every point checked on its own.
std::vector<std::string> legal_by_rules(const Position& pos) {
  std::vector<std::string> names;
  if (pos.is_over()) return names;
  for (Vertex v = 0; v < pos.num_vertices(); ++v) {
    if (pos.check_move(pos.to_move(), v) == MoveStatus::kLegal)
      names.push_back(pos.topology().name(v));
  }
  return names;
}

Player opponent(Player p) {
  return p == kBlack ? kWhite : kBlack;
}

// One GoGui window with tanbo attached as its ruler.
class GoGui : public ::testing::Test {
 protected:
  GtpEngine ruler{test::make("grid 7x7", "steere2026"), 5};
  std::string send(const std::string& line) { return ruler.handle_line(line); }
  std::string ask(const std::string& command) { return text_of(command, send(command)); }

  // GoGui's checks after a move (copyRulerBoardState, setToMove, gameFinished), against the
  // rules' position.
  void check_ruler_answers(const Position& rules) {
    EXPECT_EQ(ask("gogui-rules_board_size"), "7");
    EXPECT_EQ(read_board(ask("gogui-rules_board"), 7), stones_of(rules));
    EXPECT_EQ(words_of(ask("gogui-rules_legal_moves")), legal_by_rules(rules));
    const Player side = rules.is_over() ? opponent(rules.winner()) : rules.to_move();
    EXPECT_EQ(ask("gogui-rules_side_to_move"), player_name(side));
  }

  // Plays a whole game as a GoGui user clicking random legal points (one illegal click first
  // each turn, which GoGui refuses by the legal-move list and the engine by its rules).
  // Returns the number of turns that removed stones and let the game go on.
  int play_game(Position rules, std::uint64_t seed) {
    Rng rng(seed);
    int removals = 0;
    while (!rules.is_over()) {
      const std::vector<std::string> legal = words_of(ask("gogui-rules_legal_moves"));
      EXPECT_EQ(legal, legal_by_rules(rules));
      if (legal.empty()) return removals;
      refuse_illegal_click(rules);
      const std::string move = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
      const char colour = rules.to_move() == kBlack ? 'B' : 'W';  // GoGui's Move string
      EXPECT_EQ(send("play " + std::string(1, colour) + " " + move), "=\n\n") << move;
      const MoveRecord rec = rules.play(rules.topology().need_vertex(move));
      if (rec.stones_removed > 0 && !rules.is_over()) ++removals;
      check_ruler_answers(rules);
    }
    EXPECT_EQ(ask("gogui-rules_legal_moves"), "");  // how GoGui learns the game is over
    EXPECT_EQ(ask("gogui-rules_final_result"),
              player_title(rules.winner()) + " wins: " + player_title(opponent(rules.winner())) +
                  " has no stones left");
    return removals;
  }

  // A click on a stone: not in the legal list (GoGui's check is a whole-word match) and
  // refused by `play` without a change.
  void refuse_illegal_click(const Position& rules) {
    Vertex occupied = 0;
    while (rules.at(occupied) == kEmpty) ++occupied;
    const std::string name = rules.topology().name(occupied);
    const std::vector<std::string> legal = words_of(ask("gogui-rules_legal_moves"));
    EXPECT_EQ(std::count(legal.begin(), legal.end(), name), 0);
    const test::GtpState before = test::gtp_state(ruler);
    const char colour = rules.to_move() == kBlack ? 'B' : 'W';
    const std::string reply = send("play " + std::string(1, colour) + " " + name);
    EXPECT_EQ(reply.rfind("? illegal move: " + name + " is occupied", 0), 0u) << reply;
    EXPECT_TRUE(test::gtp_state(ruler) == before);
  }
};

}  // namespace

TEST_F(GoGui, ListsTheCommandsThatMakeItARuler) {
  const std::vector<std::string> listed = words_of(ask("list_commands"));
  for (const char* c : kRulerCommands) {
    EXPECT_EQ(std::count(listed.begin(), listed.end(), c), 1) << c;
    EXPECT_EQ(send(std::string("known_command ") + c), "= true\n\n");
  }
}

TEST_F(GoGui, AttachingShowsTheStartingPosition) {
  // GoGui starts the ruler, asks what it is, then starts a game (clear_board) and copies its
  // board (gogui-rules_board, then the size again) and the side to move.
  EXPECT_EQ(ask("protocol_version"), "2");
  EXPECT_EQ(ask("name"), "tanbo");
  EXPECT_EQ(ask("gogui-rules_game_id"), "Tanbo");
  EXPECT_EQ(ask("gogui-rules_board_size"), "7");
  EXPECT_EQ(ask("clear_board"), "");
  // steere2026: a stone on every point with both coordinates even, Black on A1 and G7.
  EXPECT_EQ(send("gogui-rules_board"),
            "= O . X . O . X\n"
            ". . . . . . .\n"
            "X . O . X . O\n"
            ". . . . . . .\n"
            "O . X . O . X\n"
            ". . . . . . .\n"
            "X . O . X . O\n\n");
  EXPECT_EQ(read_board(ask("gogui-rules_board"), 7), stones_of(test::make("grid 7x7")));
  EXPECT_EQ(ask("gogui-rules_side_to_move"), "black");
  EXPECT_EQ(send("gogui-rules_final_result"), "? the game is not over\n\n");
}

TEST_F(GoGui, WholeGamesWithRemovalsMatchTheRules) {
  int removals = 0;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    EXPECT_EQ(send("clear_board"), "=\n\n");  // GoGui's new game
    removals += play_game(test::make("grid 7x7", "steere2026"), seed);
  }
  EXPECT_GE(removals, 3);  // roots removed while the games went on, shown as empty points
}

TEST_F(GoGui, ResignationIsAResult) {
  EXPECT_EQ(send("resign white"), "=\n\n");
  EXPECT_EQ(ask("gogui-rules_legal_moves"), "");
  EXPECT_EQ(ask("gogui-rules_side_to_move"), "white");
  EXPECT_EQ(ask("gogui-rules_final_result"), "Black wins: White resigned");
  EXPECT_EQ(send("gogui-rules_board x"), "? usage: gogui-rules_board (it takes no arguments)\n\n");
}

TEST_F(GoGui, BoardsItCannotDrawAreRefused) {
  for (const std::string spec :
       {"grid 5x5x5", "grid 5x26", "hex 3", "line 9", "grid 7x7 wrap", "grid 26x26"}) {
    ASSERT_EQ(send("topology " + spec), "=\n\n") << spec;
    const test::GtpState before = test::gtp_state(ruler);
    for (const char* c : kRulerCommands) {
      EXPECT_EQ(send(c),
                "? GoGui shows grids of two axes without wrap, at most 25 points a side (grid "
                "NxN or boardsize N; grid WxH with GoGui 1.6); this game is on " +
                    spec + "\n\n")
          << c;
    }
    EXPECT_TRUE(test::gtp_state(ruler) == before) << spec;
  }
  send("topology grid 7x7");
  send("setup spaced 3");
  EXPECT_EQ(send("gogui-rules_board"),
            "? GoGui shows two players, Black and White; this game has 3\n\n");
  send("boardsize 25");
  EXPECT_EQ(ask("gogui-rules_board_size"), "25");
  EXPECT_EQ(read_board(ask("gogui-rules_board"), 25), stones_of(ruler.position()));
}

// GoGui 1.6 reads "W H" from gogui-rules_board_size and draws a rectangle, whose points it names
// with Go coordinates as tanbo does (columns A.., rows 1..).
TEST_F(GoGui, ARectangleIsShownByItsWidthAndHeight) {
  ASSERT_EQ(send("topology grid 5x7"), "=\n\n");
  EXPECT_EQ(ask("gogui-rules_board_size"), "5 7");
  EXPECT_EQ(read_board(ask("gogui-rules_board"), 5, 7), stones_of(ruler.position()));
  EXPECT_EQ(send("play b A2"), "=\n\n");
  EXPECT_EQ(read_board(ask("gogui-rules_board"), 5, 7), stones_of(ruler.position()));
  EXPECT_EQ(ask("gogui-rules_side_to_move"), "white");
  ASSERT_EQ(send("topology grid 25x3"), "=\n\n");
  EXPECT_EQ(ask("gogui-rules_board_size"), "25 3");
  EXPECT_EQ(read_board(ask("gogui-rules_board"), 25, 3), stones_of(ruler.position()));
}

TEST_F(GoGui, BoardsizeOfTheSameBoardKeepsTheSetup) {
  // GoGui's synchronizer (and twogtp) send boardsize N and clear_board before each game.
  send("setup spaced");
  send("play b " + words_of(ask("legal_moves"))[0]);
  EXPECT_EQ(send("boardsize 7"), "=\n\n");
  EXPECT_EQ(ruler.position().setup().name, "spaced");
  EXPECT_EQ(ruler.position().ply(), 0u);
  EXPECT_EQ(send("boardsize 9"), "=\n\n");
  EXPECT_EQ(ruler.position().setup().name, "steere1995");  // another size: its default
  // The same through the program, as GoGui starts it.
  const auto r =
      test::run_command(std::string(TANBO_BINARY) + " gtp --topology 'grid 7x7' --setup spaced",
                        "boardsize 7\nclear_board\nsetup\ngogui-rules_board_size\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "=\n\n=\n\n= spaced steere2026 dense\n\n= 7\n\n") << r.out;
}

TEST(GoGuiTwoGtp, TanboRefereesAMatchOfTwoEngines) {
  // gogui-twogtp -referee "tanbo gtp": each program gets boardsize, clear_board and komi,
  // then the genmove answers of one engine are played on the other engine and the referee.
  // twogtp ends a game only on a resignation (or two passes): once the game is over, the
  // loser's genmove answers resign and the winner's pass, which the others accept.
  int passes = 0;
  for (std::uint64_t game = 1; game <= 3; ++game) {
    GtpEngine black(game), white(game + 10), referee(1);
    for (GtpEngine* e : {&black, &white, &referee}) {
      for (const char* c : {"boardsize 7", "clear_board", "komi 6.5"})
        EXPECT_EQ(e->handle_line(c), "=\n\n") << c;
    }
    Position rules = test::make("grid 7x7");
    std::string resigned;
    for (int turn = 0; resigned.empty() && turn < 200; ++turn) {
      const bool b = turn % 2 == 0;
      GtpEngine& mover = b ? black : white;
      GtpEngine& other = b ? white : black;
      const std::string colour = b ? "b" : "w";
      const std::string move = text_of("genmove " + colour, mover.handle_line("genmove " + colour));
      if (move == "resign" || move == "pass") {
        EXPECT_TRUE(rules.is_over());
        EXPECT_EQ(rules.winner() == (b ? kBlack : kWhite), move == "pass");
      }
      if (move == "resign") {
        resigned = colour;
        break;
      }
      passes += move == "pass";
      EXPECT_EQ(other.handle_line("play " + colour + " " + move), "=\n\n");
      EXPECT_EQ(referee.handle_line("play " + colour + " " + move), "=\n\n");
      if (move != "pass") rules.play(rules.topology().need_vertex(move));
    }
    ASSERT_FALSE(resigned.empty()) << "game " << game;
    EXPECT_EQ(text_of("final_score", referee.handle_line("final_score")),
              resigned == "b" ? "W+" : "B+");
    // A move the rules refuse is refused by the referee: twogtp ends that game with an error.
    const std::string reply = referee.handle_line("play b A1");
    EXPECT_EQ(reply.rfind("? illegal move:", 0), 0u) << reply;
  }
  EXPECT_GE(passes, 1);  // a game the mover lost by bounding its own last root
}

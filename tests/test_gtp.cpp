// The engine protocol (docs/protocol.md): every command through GtpEngine::handle_line with
// exact responses and refusals that leave the position as it was. Sessions through the real
// `tanbo gtp` program: test_gtp_binary.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include "../src/cli/gtp.hpp"
#include "gtp_state.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/io/render.hpp"
#include "tanbo/platform/memory.hpp"
#include "test_support.hpp"

using namespace tanbo;
using tanbo::cli::GtpEngine;

namespace {

// The observable state, to check that a refused command changed nothing.
using State = test::GtpState;
State state(const GtpEngine& e) {
  return test::gtp_state(e);
}

class Gtp : public ::testing::Test {
 protected:
  GtpEngine engine{7};
  std::string send(const std::string& line) { return engine.handle_line(line); }
  // Sends a command that must be refused; checks the answer and that nothing changed.
  void refused(const std::string& line, const std::string& answer) {
    const State before = state(engine);
    EXPECT_EQ(send(line), answer) << line;
    EXPECT_TRUE(state(engine) == before) << line << " changed the position";
  }
};

}  // namespace

TEST_F(Gtp, FramingIdsCommentsAndBlankLines) {
  EXPECT_EQ(send("protocol_version"), "= 2\n\n");
  EXPECT_EQ(send("1 name"), "=1 tanbo\n\n");
  EXPECT_EQ(send("42 protocol_version"), "=42 2\n\n");
  EXPECT_EQ(send("version"), "= " TANBO_VERSION "\n\n");
  EXPECT_EQ(send(""), "");
  EXPECT_EQ(send("   "), "");
  EXPECT_EQ(send("# a comment"), "");
  EXPECT_EQ(send("name # trailing comment"), "= tanbo\n\n");
  EXPECT_EQ(send("\tname\t\r"), "= tanbo\n\n");  // tabs are spaces, control characters dropped
  EXPECT_EQ(send("7"), "?7 missing command\n\n");
  EXPECT_EQ(send("3 fly"), "?3 unknown command \"fly\" (list_commands shows them)\n\n");
  EXPECT_EQ(send("known_command play"), "= true\n\n");
  EXPECT_EQ(send("known_command fly"), "= false\n\n");
  EXPECT_EQ(send("known_command"), "? usage: known_command COMMAND\n\n");
  // A command without arguments refuses any (name, showboard, ... answered as if none came).
  for (const char* c : {"protocol_version", "name", "version", "list_commands", "side_to_move",
                        "winner", "roots", "showboard"}) {
    EXPECT_EQ(send(std::string("4 ") + c + " extra"),
              std::string("?4 usage: ") + c + " (it takes no arguments)\n\n");
  }
}

// An empty answer to a command with an id keeps a space after the id: GoGui reads an answer as
// what follows its first space, so "=7" alone would read as "7".
TEST_F(Gtp, AnEmptyAnswerWithAnIdEndsItsFirstLineWithASpace) {
  EXPECT_EQ(send("7 clear_board"), "=7 \n\n");
  EXPECT_EQ(send("clear_board"), "=\n\n");
  EXPECT_EQ(send("8 showboard").rfind("=8 \n", 0), 0u);
}

// The protocol's preprocessing comes before the length limit: a line of megabytes of blanks,
// or a command followed by megabytes of comment, is read as what is left of it.
TEST_F(Gtp, LongBlanksAndCommentsAreNoLineTooLong) {
  std::istringstream in(std::string(std::size_t{2} << 20, ' ') + "\n" +
                        std::string(std::size_t{2} << 20, '\t') + "\r\n6 name # " +
                        std::string(std::size_t{3} << 20, 'x') + "\n7 name " +
                        std::string(std::size_t{2} << 20, 'y') + "\n8 name\n");
  std::ostringstream out;
  engine.run(in, out);
  EXPECT_EQ(out.str(),
            "=6 tanbo\n\n?7 the line is longer than 1048576 bytes, the most a command may have"
            "\n\n=8 tanbo\n\n");
}

// GoGui and gogui-twogtp send boardsize before every game: on a lattice whose every axis has N
// points, boardsize N keeps the engine's board and setup (a torus, a cube); another N keeps
// the torus.
TEST_F(Gtp, BoardsizeKeepsTheBoardItNames) {
  ASSERT_EQ(send("topology grid 6x6 wrap"), "=\n\n");
  ASSERT_EQ(send("play b B1"), "=\n\n");
  EXPECT_EQ(send("boardsize 6"), "=\n\n");  // a new game on the same board
  EXPECT_EQ(send("topology"), "= grid 6x6 wrap\n\n");
  EXPECT_EQ(engine.position().ply(), 0u);
  EXPECT_EQ(send("boardsize 7"), "=\n\n");
  EXPECT_EQ(send("topology"), "= grid 7x7 wrap\n\n");
  ASSERT_EQ(send("topology grid 5x5x5"), "=\n\n");
  ASSERT_EQ(send("setup spaced"), "=\n\n");
  EXPECT_EQ(send("boardsize 5"), "=\n\n");
  EXPECT_EQ(send("topology"), "= grid 5x5x5\n\n");
  EXPECT_EQ(engine.position().setup().name, "spaced");
  EXPECT_EQ(send("boardsize 9"), "=\n\n");
  EXPECT_EQ(send("topology"), "= grid 9x9\n\n");
  EXPECT_EQ(engine.position().setup().name, "steere1995");
}

// A clock below 0 (GoGui sends what it counts after a loss on time) is a clock at 0.
TEST_F(Gtp, TimeLeftBelowZeroIsAClockAtZero) {
  EXPECT_EQ(send("time_left b -3.5 0"), "=\n\n");
  refused("time_left b -x 0", "? TIME must be a number of seconds from 0 to 10^7, not \"x\"\n\n");
}

// GoGui makes an engine that lists the gogui-rules_ commands the ruler of its board: they are
// listed only on the boards GoGui can show.
TEST_F(Gtp, RulesCommandsAreListedOnlyWhereGoGuiCanShowTheGame) {
  ASSERT_EQ(send("topology grid 3x3x3"), "=\n\n");
  EXPECT_EQ(send("known_command gogui-rules_board"), "= false\n\n");
  EXPECT_EQ(send("list_commands").find("gogui-rules_"), std::string::npos);
  EXPECT_EQ(send("gogui-rules_board").rfind("? GoGui shows grids of two axes", 0), 0u);
  ASSERT_EQ(send("boardsize 9"), "=\n\n");
  EXPECT_EQ(send("known_command gogui-rules_board"), "= true\n\n");
  EXPECT_NE(send("list_commands").find("\ngogui-rules_board\n"), std::string::npos);
}

TEST_F(Gtp, ListCommandsHasEveryCommandOfTheProtocol) {
  const std::string r = send("list_commands");
  ASSERT_EQ(r.substr(0, 2), "= ");
  ASSERT_EQ(r.substr(r.size() - 2), "\n\n");
  std::istringstream in(r.substr(2, r.size() - 4));
  std::set<std::string> listed;
  for (std::string line; std::getline(in, line);) {
    EXPECT_FALSE(line.empty()) << "blank line inside the answer";
    listed.insert(line);
  }
  for (const char* c : {"protocol_version",
                        "name",
                        "version",
                        "known_command",
                        "list_commands",
                        "quit",
                        "boardsize",
                        "clear_board",
                        "topology",
                        "setup",
                        "play",
                        "undo",
                        "legal_moves",
                        "list_stones",
                        "side_to_move",
                        "winner",
                        "roots",
                        "showboard",
                        "genmove",
                        "reg_genmove",
                        "time_settings",
                        "time_left",
                        "resign",
                        "komi",
                        "loadsgf",
                        "printsgf",
                        "final_score",
                        "gogui-analyze_commands",
                        "root_space"}) {
    EXPECT_TRUE(listed.count(c)) << c;
    EXPECT_EQ(send(std::string("known_command ") + c), "= true\n\n");
  }
}

TEST_F(Gtp, PlayAndTheQueries) {
  EXPECT_EQ(send("boardsize 9"), "=\n\n");
  EXPECT_EQ(engine.position().topology().spec, "grid 9x9");
  EXPECT_EQ(engine.position().setup().name, "steere1995");
  EXPECT_EQ(send("side_to_move"), "= black\n\n");
  EXPECT_EQ(send("winner"), "= none\n\n");
  EXPECT_EQ(send("list_stones black"), "= B2 H8\n\n");
  EXPECT_EQ(send("list_stones w"), "= H2 B8\n\n");
  EXPECT_EQ(send("legal_moves"), "= B1 A2 C2 B3 H7 G8 J8 H9\n\n");
  EXPECT_EQ(send("legal_moves white"), "= H1 G2 J2 H3 B7 A8 C8 B9\n\n");
  EXPECT_EQ(send("roots"), "= black 1 4 B2\nwhite 1 4 H2\nwhite 1 4 B8\nblack 1 4 H8\n\n");
  EXPECT_EQ(send("5 play black b3"), "=5 \n\n");  // case-insensitive vertex
  EXPECT_EQ(send("side_to_move"), "= white\n\n");
  EXPECT_EQ(send("play 2 H3"), "=\n\n");  // players by number
  EXPECT_EQ(send("play B C2"), "=\n\n");
  EXPECT_EQ(send("play W G2"), "=\n\n");
  EXPECT_EQ(send("list_stones black"), "= B2 C2 B3 H8\n\n");
  // Roots: player, size, root-space size, stones (in vertex order). Black B2-C2-B3 can grow
  // on B1 A2 C1 D2 A3 B4 (C3 touches two of its stones); White H2-H3-G2 on G1 H1 F2 J2 J3 H4.
  EXPECT_EQ(send("roots"),
            "= black 3 6 B2 C2 B3\nwhite 3 6 G2 H2 H3\nwhite 1 4 B8\nblack 1 4 H8\n\n");
  EXPECT_EQ(send("legal_moves"), "= B1 C1 A2 D2 A3 B4 H7 G8 J8 H9\n\n");
  EXPECT_EQ(send("legal_moves w"), "= G1 H1 F2 J2 J3 H4 B7 A8 C8 B9\n\n");
}

TEST_F(Gtp, RefusedMovesSayWhyAndChangeNothing) {
  send("boardsize 9");
  send("play b B3");
  send("play w H3");
  refused("play w G2", "? illegal move: it is Black's turn, not White's\n\n");
  refused("play b B2", "? illegal move: B2 is occupied by Black\n\n");
  refused("play b E5", "? illegal move: no Black stone touches E5\n\n");
  refused("play b C3 extra", "? usage: play PLAYER VERTEX\n\n");
  send("play b C2");  // B2 B3 C2 now: C3 touches B3 and C2
  send("play w G2");
  refused("play b C3",
          "? illegal move: C3 touches 2 Black stones: C2, B3 (a stone must touch exactly one of "
          "its own colour)\n\n");
  refused("play b Z99",
          "? \"Z99\" is not a point of this board (Go coordinates A1..J9 (no I; or x,y))\n\n");
  refused("play b I3",
          "? \"I3\" is not a point of this board (Go coordinates A1..J9 (no I; or x,y))\n\n");
  refused("play b pass", "? passing is not allowed in Tanbo\n\n");
  refused("play purple A1",
          "? unknown player \"purple\"; this game has 2 players: black, white (or 1..2)\n\n");
  refused("play 3 A1",
          "? unknown player \"3\"; this game has 2 players: black, white (or 1..2)\n\n");
  refused("play b", "? usage: play PLAYER VERTEX\n\n");
  refused("play", "? usage: play PLAYER VERTEX\n\n");
  refused("legal_moves red",
          "? unknown player \"red\"; this game has 2 players: black, white (or 1..2)\n\n");
  refused("list_stones", "? usage: list_stones PLAYER\n\n");
  refused("genmove white", "? it is Black's turn, not White's\n\n");
  refused("genmove", "? usage: genmove PLAYER\n\n");
  refused("boardsize x", "? unacceptable size: boardsize takes a whole number\n\n");
  refused("boardsize 0", "? unacceptable size: board size must be at least 1\n\n");
  refused("boardsize 1000000",
          "? unacceptable size: GTP names the points of boards up to 25x25 (the topology "
          "command takes larger ones)\n\n");
  refused("boardsize 26",
          "? unacceptable size: GTP names the points of boards up to 25x25 (the topology "
          "command takes larger ones)\n\n");
  refused(
      "boardsize 2",
      "? unacceptable size: setup spaced does not fit grid 2x2 (the board is too small to give 2 "
      "players the same number of free seeds); setups that fit: none\n\n");
  // The spec parser's own message, passed on as it is (its wording is test_topology's).
  const std::string bad_spec = [] {
    try {
      parse_topology("square 5");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("parse_topology accepted \"square 5\"");
  }();
  EXPECT_EQ(bad_spec.rfind("unknown topology \"square 5\"; topology specs: ", 0), 0u) << bad_spec;
  refused("topology square 5", "? " + bad_spec + "\n\n");
  refused("topology line 2",
          "? setup spaced does not fit line 2 (the board is too small to give 2 players the same "
          "number of free seeds); setups that fit: none\n\n");
  refused("setup nonsense",
          "? unknown setup \"nonsense\"; setups that fit grid 9x9: steere1995, steere2026, dense, "
          "spaced\n\n");
  refused("setup four",
          "? setup four does not fit grid 9x9; setups that fit: steere1995, steere2026, dense, "
          "spaced\n\n");
  refused("setup spaced 9", "? PLAYERS must be 2 to 8\n\n");
  refused("clear_board now", "? usage: clear_board (it takes no arguments)\n\n");
}

TEST_F(Gtp, UndoClearBoardAndWinner) {
  EXPECT_EQ(send("undo"), "? cannot undo: no move has been played\n\n");
  send("boardsize 9");
  const State start = state(engine);
  EXPECT_EQ(send("play b B3"), "=\n\n");
  EXPECT_EQ(send("undo"), "=\n\n");
  EXPECT_TRUE(state(engine) == start);
  send("play b B3");
  send("play w H3");
  EXPECT_EQ(send("clear_board"), "=\n\n");
  EXPECT_TRUE(state(engine) == start);
  // Resigning ends a two-player game.
  EXPECT_EQ(send("resign black"), "=\n\n");
  EXPECT_EQ(send("winner"), "= white\n\n");
  EXPECT_EQ(send("side_to_move"), "= none\n\n");
  EXPECT_EQ(send("legal_moves"), "=\n\n");
  EXPECT_EQ(send("list_stones black"), "=\n\n");
  EXPECT_EQ(send("play w H3"), "? illegal move: the game is over: White has won\n\n");
  // After the end genmove gives the endings controllers know: the winner passes, the loser
  // resigns; a pass (genmove's, which GTP adds to the history, or one relayed with play)
  // changes nothing, and undo takes the passes back first.
  EXPECT_EQ(send("genmove w"), "= pass\n\n");
  EXPECT_EQ(send("reg_genmove b"), "= resign\n\n");
  EXPECT_EQ(send("play w pass"), "=\n\n");
  EXPECT_EQ(send("undo"), "=\n\n");
  EXPECT_EQ(send("winner"), "= white\n\n");
  EXPECT_EQ(send("undo"), "=\n\n");
  EXPECT_EQ(send("winner"), "= white\n\n");
  EXPECT_EQ(send("undo"), "=\n\n");
  EXPECT_EQ(send("winner"), "= none\n\n");
  EXPECT_EQ(send("play b pass"), "? passing is not allowed in Tanbo\n\n");
  EXPECT_TRUE(state(engine) == start);
}

TEST_F(Gtp, PlayingAGameToTheEndWithGenmove) {
  send("topology line 7");
  EXPECT_EQ(send("topology"), "= line 7\n\n");
  EXPECT_EQ(send("list_stones b"), "= 1\n\n");
  EXPECT_EQ(send("list_stones w"), "= 7\n\n");
  int moves = 0;
  while (send("winner") == "= none\n\n" && moves < 100) {
    const std::string side = send("side_to_move");
    const std::string player = side.substr(2, side.size() - 4);
    const std::string legal = send("legal_moves");
    const std::string r = send("genmove " + player);
    ASSERT_EQ(r.substr(0, 2), "= ") << r;
    const std::string v = r.substr(2, r.size() - 4);
    EXPECT_NE((" " + legal.substr(2, legal.size() - 4) + " ").find(" " + v + " "),
              std::string::npos)
        << v << " not in " << legal;
    ++moves;
  }
  EXPECT_LT(moves, 100);
  const std::string w = send("winner");
  EXPECT_TRUE(w == "= black\n\n" || w == "= white\n\n") << w;
  EXPECT_EQ(send("side_to_move"), "= none\n\n");
}

TEST_F(Gtp, TopologiesAndSetups) {
  EXPECT_EQ(send("topology grid 5x5x5"), "=\n\n");
  EXPECT_EQ(send("setup"), "= pbmserv spaced\n\n");
  EXPECT_EQ(send("list_stones black"), "= 511 151 115 555\n\n");
  EXPECT_EQ(send("play b 125"), "=\n\n");
  EXPECT_EQ(send("play w 2,5,5"), "=\n\n");  // comma coordinates on any lattice
  EXPECT_EQ(send("list_stones w"), "= 111 551 515 155 255\n\n");
  EXPECT_EQ(send("setup spaced"), "=\n\n");
  EXPECT_EQ(send("setup"), "= spaced pbmserv\n\n");
  EXPECT_EQ(engine.position().ply(), 0u);
  // Four players on 19x19: colours by name and number.
  EXPECT_EQ(send("topology 19x19"), "=\n\n");
  EXPECT_EQ(send("setup FOUR"), "=\n\n");
  EXPECT_EQ(engine.position().num_players(), 4);
  // The Latin square of docs/rules.md: red on G1 A7 N13 T19, blue on N1 T7 G13 A19.
  EXPECT_EQ(send("list_stones red"), "= G1 A7 N13 T19\n\n");
  EXPECT_EQ(send("list_stones 4"), "= N1 T7 G13 A19\n\n");
  EXPECT_EQ(send("list_stones black"), "= A1 G7 T13 N19\n\n");
  EXPECT_EQ(send("play black A2"), "=\n\n");
  EXPECT_EQ(send("side_to_move"), "= white\n\n");
  EXPECT_EQ(send("play white T2"), "=\n\n");
  EXPECT_EQ(send("side_to_move"), "= red\n\n");
  EXPECT_EQ(send("play r G2"), "=\n\n");
  EXPECT_EQ(send("side_to_move"), "= blue\n\n");
  // A player who resigns leaves; play goes on without it.
  EXPECT_EQ(send("resign red"), "=\n\n");
  EXPECT_EQ(send("list_stones red"), "=\n\n");
  EXPECT_EQ(send("side_to_move"), "= blue\n\n");
  EXPECT_EQ(send("winner"), "= none\n\n");
  EXPECT_EQ(send("play u N2"), "=\n\n");
  EXPECT_EQ(send("side_to_move"), "= black\n\n");
  EXPECT_EQ(send("clear_board"), "=\n\n");  // the same board and setup again
  EXPECT_EQ(engine.position().num_players(), 4);
  EXPECT_EQ(send("list_stones red"), "= G1 A7 N13 T19\n\n");
  // Three players with a setup that seats them.
  EXPECT_EQ(send("setup dense 3"), "=\n\n");
  EXPECT_EQ(engine.position().num_players(), 3);
  // Hex and DOT boards.
  EXPECT_EQ(send("topology hex 5"), "=\n\n");
  EXPECT_EQ(send("setup"), "= hexbo\n\n");
  EXPECT_EQ(send("setup hexbo 6"), "=\n\n");
  // The sixth seed, (q, r) = (3, -3) in axial coordinates: row B, cell 5.
  EXPECT_EQ(send("list_stones yellow"), "= B5\n\n");
  refused("list_stones purple",
          "? unknown player \"purple\"; this game has 6 players: black, white, red, blue, green, "
          "yellow (or 1..6)\n\n");
  const auto dot = std::filesystem::temp_directory_path() / "tanbo_test_gtp_ring.dot";
  {
    std::ofstream out(dot);
    out << "graph ring { n1 [stone=black]; n5 [stone=white];\n"
           "  n1 -- n2 -- n3 -- n4 -- n5 -- n6 -- n7 -- n8 -- n1; }\n";
  }
  EXPECT_EQ(send("topology file " + dot.string()), "=\n\n");
  std::filesystem::remove(dot);
  EXPECT_EQ(send("list_stones black"), "= n1\n\n");
  EXPECT_EQ(send("legal_moves"), "= n2 n8\n\n");
  EXPECT_EQ(send("play black N2"), "=\n\n");  // node ids are case-insensitive when unique
  refused("topology file /nonexistent.dot",
          "? DOT file \"/nonexistent.dot\": cannot open (No such file or directory)\n\n");
}

// GTP reads "pass" wherever a point is named: a DOT board with a node so named is refused
// with the reason (by the DOT reader), and the session goes on on the board it had.
TEST_F(Gtp, TopologyFileWithANodeNamedPassIsRefusedAndTheSessionGoesOn) {
  EXPECT_EQ(send("boardsize 5"), "=\n\n");
  const auto dot = std::filesystem::temp_directory_path() / "tanbo_test_gtp_pass.dot";
  std::ofstream(dot) << "graph { a [stone=black]; b [stone=white]; a -- pass -- c -- b }\n";
  refused("topology file " + dot.string(),
          "? DOT board " + dot.string() +
              ": node id \"pass\" cannot name a point: the engine protocol (GTP) reads "
              "\"pass\", in any case, as a pass\n\n");
  std::filesystem::remove(dot);
  EXPECT_EQ(send("topology"), "= grid 5x5\n\n");
  EXPECT_EQ(send("genmove b").rfind("= ", 0), 0u);
}

// Each tanbo-analyze PLAYOUTS is a search of its own: the same command on the same position
// answers the same, whatever was searched before.
TEST_F(Gtp, AnalyzeAnswersTheSameCommandAlike) {
  EXPECT_EQ(send("boardsize 7"), "=\n\n");
  const std::string first = send("tanbo-analyze 300");
  ASSERT_EQ(first.rfind("= move ", 0), 0u) << first;
  EXPECT_EQ(send("tanbo-analyze 300"), first);
  EXPECT_EQ(send("tanbo-analyze 200").rfind("= move ", 0), 0u);
  EXPECT_EQ(send("genmove b").rfind("= ", 0), 0u);
  EXPECT_EQ(send("undo"), "=\n\n");
  EXPECT_EQ(send("tanbo-analyze 300"), first);
}

// Both forms read their numbers alike (digits only) and refuse a finished game alike; the
// streaming form is answered by tanbo gtp's input loop only (GtpBinary.StreamingAnalysis...).
TEST_F(Gtp, AnalyzeFormsRefuseAlike) {
  EXPECT_EQ(send("boardsize 7"), "=\n\n");
  const std::string playouts = "? PLAYOUTS must be a whole number from 1 to 1000000000, not ";
  for (const char* bad : {"1e2", "0x10", "100.0", "-5", "0", "+3"}) {
    const std::string why = playouts + "\"" + bad + "\"\n\n";
    refused(std::string("tanbo-analyze ") + bad, why);
    refused(std::string("tanbo-analyze ") + bad + " 1", why);
  }
  for (const char* bad : {"1e2", "0x10", "0.01", "inf", "nan", "5000"}) {
    refused(std::string("tanbo-analyze 100 ") + bad,
            std::string("? INTERVAL must be a number from 0.05 to 3600, not \"") + bad + "\"\n\n");
  }
  refused("tanbo-analyze 100 1 2", "? usage: tanbo-analyze PLAYOUTS [INTERVAL]\n\n");
  refused("tanbo-analyze 100 0.5",
          "? the streaming form tanbo-analyze PLAYOUTS INTERVAL is answered by tanbo gtp's "
          "input loop only\n\n");
  EXPECT_EQ(send("resign white"), "=\n\n");
  refused("tanbo-analyze 100", "? the game is over: Black has won\n\n");
  refused("tanbo-analyze 100 0.5", "? the game is over: Black has won\n\n");
}

TEST_F(Gtp, ShowboardAndQuit) {
  send("boardsize 9");
  send("play b B3");
  const std::string r = send("showboard");
  EXPECT_EQ(
      r, "=\n" + [&] {
        std::string b = render_board(engine.position());
        while (!b.empty() && b.back() == '\n') b.pop_back();
        return b;
      }() + "\n\n");
  EXPECT_EQ(r.find("\n\n"), r.size() - 2) << "a blank line inside the answer";
  EXPECT_FALSE(engine.quit());
  EXPECT_EQ(send("9 quit"), "=9 \n\n");
  EXPECT_TRUE(engine.quit());
}

// time_settings and time_left keep a clock per player (main time, then Canadian byo-yomi
// periods), handed to the engine before each genmove; refused input changes nothing.
TEST_F(Gtp, TimeControlClocksReachTheEngine) {
  std::vector<std::pair<double, int>> seen;  // what the clock hook got, genmove by genmove
  engine.on_clock([&](double seconds, int moves) { seen.emplace_back(seconds, moves); });
  ASSERT_EQ(send("boardsize 9"), "=\n\n");
  const std::string first = send("genmove b");  // sent before the position is read
  ASSERT_EQ(engine.position().ply(), 1u);
  EXPECT_EQ(first, "= " + engine.position().topology().name(engine.position().last_move().vertex) +
                       "\n\n");
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_LT(seen.back().first, 0) << "no clock before time_settings";

  // Absolute time: every player starts with the main time; genmove uses up a little of it.
  EXPECT_EQ(send("time_settings 30 0 0"), "=\n\n");
  ASSERT_EQ(send("genmove w").substr(0, 2), "= ");
  EXPECT_EQ(seen.back(), std::make_pair(30.0, 0));
  ASSERT_EQ(send("reg_genmove b").substr(0, 2), "= ");  // chooses without playing
  EXPECT_LE(seen.back().first, 30.0);
  EXPECT_GT(seen.back().first, 29.0);
  EXPECT_EQ(engine.position().to_move(), kBlack) << "reg_genmove played its move";

  // The controller's word counts: time_left for White, 7 s for 3 moves.
  EXPECT_EQ(send("time_left w 7 3"), "=\n\n");
  ASSERT_EQ(send("genmove b").substr(0, 2), "= ");
  ASSERT_EQ(send("genmove w").substr(0, 2), "= ");
  EXPECT_EQ(seen.back(), std::make_pair(7.0, 3));

  // Byo-yomi only: periods of 10 s for 2 moves; the third move starts a new period.
  EXPECT_EQ(send("time_settings 0 10 2"), "=\n\n");
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(send("genmove b").substr(0, 2), "= ");
    const auto black = seen.back();
    ASSERT_EQ(send("genmove w").substr(0, 2), "= ");
    EXPECT_EQ(black.second, i == 1 ? 1 : 2) << "move " << i;
    EXPECT_GT(black.first, i == 1 ? 9.0 : 9.999) << "move " << i;
    EXPECT_LE(black.first, 10.0) << "move " << i;
  }

  // Refused: malformed numbers, an unknown player, the wrong count of arguments. The clocks
  // stay as they were.
  refused("time_settings 10 x 0",
          "? BYO_YOMI_TIME must be a number of seconds from 0 to 10^7, not \"x\"\n\n");
  refused("time_settings -5 0 0",
          "? MAIN_TIME must be a number of seconds from 0 to 10^7, not \"-5\"\n\n");
  refused("time_settings 20000000 0 0",
          "? MAIN_TIME must be a number of seconds from 0 to 10^7, not \"20000000\"\n\n");
  refused("time_settings 10 0 1.5",
          "? BYO_YOMI_STONES must be a whole number of moves from 0 to 10^7, not \"1.5\"\n\n");
  refused("time_settings 10 0",
          "? usage: time_settings MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES\n\n");
  refused("time_left q 5 0",
          "? unknown player \"q\"; this game has 2 players: black, white (or 1..2)\n\n");
  refused("time_left b 5", "? usage: time_left PLAYER TIME STONES\n\n");
  refused("time_left b 5 x",
          "? STONES must be a whole number of moves from 0 to 10^7, not \"x\"\n\n");
  ASSERT_EQ(send("genmove b").substr(0, 2), "= ");
  EXPECT_GT(seen.back().first, 9.0);
  EXPECT_LE(seen.back().first, 10.0);

  // A new game starts every clock afresh; byo-yomi time without stones means no limit.
  EXPECT_EQ(send("time_left b 1 0"), "=\n\n");
  EXPECT_EQ(send("clear_board"), "=\n\n");
  ASSERT_EQ(send("genmove b").substr(0, 2), "= ");
  EXPECT_EQ(seen.back(), std::make_pair(10.0, 2));
  EXPECT_EQ(send("time_settings 0 5 0"), "=\n\n");
  ASSERT_EQ(send("genmove w").substr(0, 2), "= ");
  EXPECT_LT(seen.back().first, 0);
}

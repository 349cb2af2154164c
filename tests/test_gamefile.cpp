// Game files: round trips on every kind of board, refusal of illegal, garbled and truncated
// files (with the line number), comments, custom setups and players found by name. Their
// writes, atomic and locked: test_atomic_write.cpp.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tanbo/core/error.hpp"
#include "tanbo/core/random.hpp"
#include "tanbo/io/gamefile.hpp"
#include "tanbo/platform/memory.hpp"
#include "test_support.hpp"

namespace tanbo {
namespace {

namespace fs = std::filesystem;

// The same game (test::expect_same_game), on the same date.
void expect_same(const Game& a, const Game& b) {
  test::expect_same_game(a, b);
  EXPECT_EQ(a.date, b.date);
}

void round_trip(const Game& g) {
  const std::string text = write_game(g);
  const Game back = read_game(text, "t");
  expect_same(g, back);
  EXPECT_EQ(write_game(back), text);
}

TEST(GameFile, RoundTripFinished9x9) {
  const Game g = test::random_game("grid 9x9", 11);
  ASSERT_TRUE(g.position.is_over());
  const std::string text = write_game(g);
  EXPECT_NE(text.find("\nresult "), std::string::npos);
  round_trip(g);
}

TEST(GameFile, RoundTripOtherBoards) {
  round_trip(test::random_game("grid 5x5x5", 2));
  round_trip(test::random_game("grid 3x3x3x3", 3, 20));
  round_trip(test::random_game("hex 4", 4));
  round_trip(test::random_game("line 31", 5));
  round_trip(test::random_game("grid 7x7 wrap", 6, 30));
  round_trip(test::random_game("grid 19x19", 7, 40, "four"));
}

TEST(GameFile, RoundTripDotBoardCarriesTheGraph) {
  Game g = new_game("file " + std::string(TANBO_TEST_DATA) + "/render/wheel.dot", "default", 0, {});
  Rng rng(9);
  while (!g.position.is_over()) g.position.play(random_move(g.position, rng));
  const std::string text = write_game(g);
  EXPECT_NE(text.find("\ndot graph wheel {"), std::string::npos) << text;
  round_trip(g);
}

// Carriage returns at line ends, one (a file edited on Windows) or several (found by
// fuzz_gamefile in the DOT lines), are dropped: the game reads the same and is written back
// exactly as before.
TEST(GameFile, CarriageReturnsAtLineEndsAreDropped) {
  Game g = new_game("file " + std::string(TANBO_TEST_DATA) + "/render/wheel.dot", "default", 0, {});
  Rng rng(12);
  for (int i = 0; i < 6 && !g.position.is_over(); ++i)
    g.position.play(random_move(g.position, rng));
  const std::string text = write_game(g);
  for (const char* ends : {"\r", "\r\r\r"}) {
    std::string crlf;
    for (char c : text) {
      if (c == '\n') crlf += ends;
      crlf += c;
    }
    const Game again = read_game(crlf, "windows.game");
    EXPECT_EQ(again.position.hash(), g.position.hash());
    EXPECT_EQ(write_game(again), text) << ends;
  }
}

// A DOT board read from a file whose name holds a control character: the name is only a label,
// written with '?', so that the game file reads (the reader refuses such characters).
TEST(GameFile, ADotFileNameWithAControlCharacterIsWrittenReadably) {
  const fs::path dir = fs::temp_directory_path() / ("tanbo_dotname_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path dot = dir / "e\x1b[2Jb.dot";
  std::ofstream(dot) << "graph g { a [stone=black]; d [stone=white]; a -- b; b -- c; c -- d; "
                        "d -- e; e -- f; f -- a; b -- e; }\n";
  const Game g = new_game("file " + dot.string(), "default", 0, {});
  const std::string text = write_game(g);
  EXPECT_NE(text.find("e?[2Jb.dot\n"), std::string::npos) << text;
  const Game back = read_game(text, "t");
  EXPECT_EQ(back.position.num_vertices(), g.position.num_vertices());
  EXPECT_EQ(write_game(back), text);
  fs::remove_all(dir);
}

// The "file" keyword is read in any case, by the board's parser and by the check that DOT lines
// follow a DOT board; a DOT line after another board is refused with its line number.
TEST(GameFile, DotLinesFollowTheFileKeywordInAnyCase) {
  Game g = new_game("file " + std::string(TANBO_TEST_DATA) + "/render/wheel.dot", "default", 0, {});
  const std::string text = write_game(g);
  const std::size_t at = text.find("topology file ");
  ASSERT_NE(at, std::string::npos) << text;
  std::string upper = text;
  upper.replace(at, 14, "topology FILE ");
  EXPECT_EQ(read_game(upper, "upper.game").position.hash(), g.position.hash());
  std::string grid = text;
  grid.replace(at, text.find('\n', at) - at, "topology grid 5x5");
  try {
    read_game(grid, "grid.game");
    ADD_FAILURE() << "a dot line after a grid was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("belongs after \"topology file NAME\""), std::string::npos)
        << e.what();
  }
}

TEST(GameFile, ResignationsWithFourPlayers) {
  Game g = test::random_game("grid 19x19", 8, 12, "four", 4);
  g.position.resign(3);  // Red leaves: its roots go, play goes on
  ASSERT_FALSE(g.position.is_over());
  Rng rng(1);
  for (int i = 0; i < 10; ++i) g.position.play(random_move(g.position, rng));
  const std::string text = write_game(g);
  EXPECT_NE(text.find("\nred resigns\n"), std::string::npos);
  round_trip(g);
}

TEST(GameFile, TwoPlayerResignationEndsTheGame) {
  Game g = test::random_game("grid 9x9", 3, 6);
  g.position.resign(kWhite);
  EXPECT_EQ(result_text(g), "Black wins (White resigned)");
  const std::string text = write_game(g);
  EXPECT_NE(text.find("white resigns\nresult black\n"), std::string::npos) << text;
  round_trip(g);
}

// Returns the error message read_game gives for `text`, or "" when it is accepted.
std::string refusal(const std::string& text) {
  try {
    read_game(text, "g.tanbo");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

const std::string kHeader =
    "tanbo-game 1\n"       // 1
    "topology grid 9x9\n"  // 2
    "setup steere1995\n"   // 3
    "players 2\n"          // 4
    "moves\n";             // 5

TEST(GameFile, IllegalMoveRefusedWithLineNumber) {
  EXPECT_EQ(refusal(kHeader + "black C2\nwhite G2\n"), "");
  EXPECT_EQ(refusal(kHeader + "black C2\nwhite C3\n"),
            "g.tanbo:7: White C3: no White stone touches C3");
  EXPECT_EQ(refusal(kHeader + "black C2\n# a comment\nwhite B8\n"),
            "g.tanbo:8: White B8: B8 is occupied by White");
  EXPECT_EQ(refusal(kHeader + "white G2\n"),
            "g.tanbo:6: White G2: it is Black's turn, not White's");
  EXPECT_EQ(
      refusal(kHeader + "black Z9\n").rfind("g.tanbo:6: \"Z9\" is not a point of this board", 0),
      0u);
}

// Comments are the players' notes: writing the game again (tanbo move, undo, resign, play)
// keeps each one, those of the header in the header and those among the moves after the same
// move. The line this program writes first is not taken as a note.
TEST(GameFile, CommentsAreKeptWhereTheyStand) {
  const std::string text =
      "# Tanbo game file (format: docs/game-format.md)\n"
      "# club game, round 3\n" +
      kHeader +
      "# opening\n"
      "black C2\n"
      "   # a good reply  \n"
      "white G2\n"
      "# to be continued\n";
  const Game g = read_game(text, "g.tanbo");
  EXPECT_EQ(g.header_comments, "# club game, round 3\n");
  using Notes = std::vector<std::pair<std::size_t, std::string>>;
  EXPECT_EQ(g.move_comments,
            (Notes{{0, "# opening\n"}, {1, "# a good reply\n"}, {2, "# to be continued\n"}}));
  const std::string written = write_game(g);
  EXPECT_EQ(written.substr(written.find("moves\n")),
            "moves\n# opening\nblack C2\n# a good reply\nwhite G2\n# to be continued\n");
  EXPECT_EQ(written.find("# Tanbo game file"), 0u);
  EXPECT_EQ(written.find("# Tanbo game file", 1), std::string::npos);
  EXPECT_LT(written.find("# club game, round 3\n"), written.find("tanbo-game 1\n"));
  EXPECT_EQ(write_game(read_game(written, "again")), written);
  // A move undone leaves its notes after the last move; none is lost.
  Game undone = g;
  undone.position.undo();
  undone.position.undo();
  const std::string after_undo = write_game(undone);
  EXPECT_EQ(after_undo.substr(after_undo.find("moves\n")),
            "moves\n# opening\n# a good reply\n# to be continued\n");
}

// Comment lines that follow one another are kept as one text: a file of nothing but comment
// lines (64 MB of "#" lines is 32 million of them) takes its size in memory, not 40 bytes a line.
TEST(GameFile, CommentLinesInARowAreKeptTogether) {
  std::string lines;
  for (int i = 0; i < 1000000; ++i) lines += "#\n";
  const Game g = read_game(kHeader + lines + "black C2\n" + lines, "g.tanbo");
  ASSERT_EQ(g.move_comments.size(), 2u);
  EXPECT_EQ(g.move_comments[0], std::make_pair(std::size_t{0}, lines));
  EXPECT_EQ(g.move_comments[1], std::make_pair(std::size_t{1}, lines));
  EXPECT_EQ(write_game(read_game(write_game(g), "again")), write_game(g));
}

TEST(GameFile, GarbledAndTruncatedRefused) {
  EXPECT_EQ(refusal(kHeader + "black C2\nwhite\n"), "g.tanbo:7: \"white\": the point is missing");
  EXPECT_NE(refusal(kHeader + "black C2\nbla%%\n").find("g.tanbo:7: \"bla%%\" is not a move"),
            std::string::npos);
  EXPECT_EQ(refusal("tanbo-game 1\ntopology grid 9x9\nsetup steere1995\n"),
            "g.tanbo:3: the file ends before its \"moves\" line (truncated?)");
  EXPECT_EQ(refusal(""), "g.tanbo: empty: neither a Tanbo game file nor an SGF record");
  EXPECT_EQ(refusal("tanbo-game 1\ntopology grid 9x9\nplayer black Ren\xe9\n"),
            "g.tanbo:3: the line is not UTF-8 text (game files are)");
  EXPECT_EQ(refusal("(;GM[1]").rfind("g.tanbo:1: not a Tanbo game file", 0), 0u);
  EXPECT_EQ(refusal("tanbo-game 2\n"),
            "g.tanbo:1: format version \"2\" is not supported (this program reads version 1)");
  EXPECT_EQ(refusal("tanbo-game 1\ntopology grid 9x9\ncolour red\nmoves\n")
                .rfind("g.tanbo:3: unknown header line", 0),
            0u);
  EXPECT_EQ(refusal("tanbo-game 1\ntopology grid 0x9\nmoves\n").rfind("g.tanbo:2: ", 0), 0u);
  EXPECT_EQ(
      refusal("tanbo-game 1\ntopology grid 9x9\nsetup nonsense\nmoves\n").rfind("g.tanbo:4: ", 0),
      0u);
}

// A game file comes from the other player: what `tanbo show` prints of its header must not hold
// escape sequences for the reader's terminal, nor turn the text around.
TEST(GameFile, HeaderTextThatWouldDriveATerminalIsRefused) {
  const std::string head = "tanbo-game 1\ntopology grid 9x9\n";  // lines 1, 2
  EXPECT_EQ(refusal(head + "player black \x1b]0;x\x07\x1b[2Jalice\nmoves\n"),
            "g.tanbo:3: the name \"\\x1b]0;x\\x07\\x1b[2Jalice\" holds control characters "
            "(escape, tab, ...), which a file may not hold there");
  EXPECT_EQ(refusal(head + "player white bob\tby\nmoves\n").rfind("g.tanbo:3: the name ", 0), 0u);
  EXPECT_EQ(refusal(head + "date 2026\x1b[8m\nmoves\n").rfind("g.tanbo:3: the date ", 0), 0u);
  EXPECT_EQ(refusal(head + "event x\x7f\nmoves\n").rfind("g.tanbo:3: the event ", 0), 0u);
  EXPECT_EQ(refusal(head + "player black \xc2\x9b"
                           "2Jalice\nmoves\n"),  // C1: U+009B
            "g.tanbo:3: the name \"\\xc2\\x9b2Jalice\" holds control characters "
            "(escape, tab, ...), which a file may not hold there");
  EXPECT_EQ(refusal("tanbo-game 1\ntopology file \x1b[2Jb.dot\ndot graph g { a -- b }\nmoves\n")
                .rfind("g.tanbo:2: the topology ", 0),
            0u);
  EXPECT_EQ(refusal(head + "player black bob\xe2\x80\xae"
                           "ecila\nmoves\n"),
            "g.tanbo:3: the name holds a character that changes the direction of text (U+202E "
            "and the like), which would show it other than it is written");
  // What the command line writes still reads, carriage returns of Windows included.
  EXPECT_EQ(refusal(head + "player black Ren\xc3\xa9 Dupont\r\nevent club night\r\nmoves\n"), "");
}

// Players are found by name first: a second name for one colour is refused, and a name that two
// players share (tanbo match writes "random" for both engines) names neither of them, so that
// "--as bob" or "resign bob" cannot pick one (it picked Black).
TEST(GameFile, APlayerNamedTwiceIsRefusedAndASharedNameNamesNobody) {
  const std::string head = "tanbo-game 1\ntopology grid 9x9\n";
  EXPECT_EQ(refusal(head + "player black ann\nplayer black bob\nmoves\n"),
            "g.tanbo:4: Black is named twice in the header");
  const Game g = read_game(head + "player black bob\nplayer white BOB\nmoves\n");
  EXPECT_EQ(game_player(g, "bob"), std::nullopt);
  EXPECT_EQ(game_player(g, "white"), std::optional<Player>(kWhite));
  const Game b = read_game(head + "player black b\nplayer white B\nmoves\n");
  EXPECT_EQ(game_player(b, "b"), std::optional<Player>(kBlack));  // the colour's letter
}

TEST(GameFile, ResultMustAgreeWithTheMoves) {
  const Game g = test::random_game("grid 9x9", 11);
  std::string text = write_game(g);
  const std::string winner(player_name(g.position.winner()));
  const std::string loser(player_name(g.position.winner() == kBlack ? kWhite : kBlack));
  text.replace(text.rfind("result " + winner), 7 + winner.size(), "result " + loser);
  EXPECT_NE(refusal(text).find("the result says"), std::string::npos);
  EXPECT_NE(refusal(kHeader + "black C2\nresult black\n").find("the game is not over"),
            std::string::npos);
}

TEST(GameFile, NothingHalfLoadedOnError) {
  // The whole game is refused: no partial game escapes read_game.
  bool threw = false;
  try {
    const Game g = read_game(kHeader + "black C2\nwhite G2\nblack C2\n", "g");
    (void)g;
  } catch (const Error& e) {
    threw = true;
    EXPECT_EQ(std::string(e.what()), "g:8: Black C2: C2 is occupied by Black");
  }
  EXPECT_TRUE(threw);
}

TEST(GameFile, CustomSetupRoundTrip) {
  auto topo = parse_topology("grid 6x6");
  tanbo::Setup s;
  s.name = "mine";
  s.players = 2;
  s.stones = {{topo->vertex_at({0, 0}), kBlack},
              {topo->vertex_at({5, 5}), kWhite},
              {topo->vertex_at({5, 0}), kWhite},
              {topo->vertex_at({0, 5}), kBlack}};
  Game g(Position(topo, s));
  g.names = {"", ""};
  const std::string text = write_game(g);
  EXPECT_NE(text.find("setup custom\n"), std::string::npos);
  EXPECT_NE(text.find("seed black A1\n"), std::string::npos);
  round_trip(g);
}

TEST(GameFile, PlayersAreFoundByNameColourOrNumber) {
  const Game g = test::random_game("grid 9x9", 3, 1);  // alice and bob
  EXPECT_EQ(game_player(g, "alice"), std::optional<Player>(kBlack));
  EXPECT_EQ(game_player(g, "BOB"), std::optional<Player>(kWhite));
  EXPECT_EQ(game_player(g, "white"), std::optional<Player>(kWhite));
  EXPECT_EQ(game_player(g, "1"), std::optional<Player>(kBlack));
  EXPECT_EQ(game_player(g, "carol"), std::nullopt);
  EXPECT_EQ(game_player(g, "red"), std::nullopt);
  EXPECT_EQ(players_of(g), "black (alice), white (bob)");
}

TEST(GameFile, LoadGameNamesTheFile) {
  try {
    load_game("/nonexistent/game.tanbo");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("/nonexistent/game.tanbo: cannot open", 0), 0u);
  }
}

}  // namespace
}  // namespace tanbo

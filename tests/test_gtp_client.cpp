// The engine protocol's commands for clients (docs/protocol.md, "Commands for clients"): komi,
// loadsgf, printsgf, final_score, gogui-analyze_commands and root_space, through
// GtpEngine::handle_line with exact answers; refusals leave the position as it was; a printsgf
// file read by `tanbo import`.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "../src/cli/gtp.hpp"
#include "gtp_state.hpp"
#include "tanbo/io/gamefile.hpp"
#include "test_support.hpp"

using namespace tanbo;
using tanbo::cli::GtpEngine;
namespace fs = std::filesystem;

namespace {

// The observable state, to check that a refused command changed nothing.
using State = test::GtpState;
State state(const GtpEngine& e) {
  return test::gtp_state(e);
}

// The text of a success answer ("= text\n\n" -> "text"); fails the test on a refusal.
std::string result(const std::string& answer) {
  EXPECT_EQ(answer.substr(0, 1), "=") << answer;
  EXPECT_EQ(answer.substr(answer.size() - 2), "\n\n") << answer;
  const std::size_t from = answer.size() > 3 && answer[1] == ' ' ? 2 : 1;
  return answer.substr(from, answer.size() - 2 - from);
}

class GtpClient : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(testing::TempDir()) /
           ("tanbo_gtp_client_" + std::to_string(::getpid()) + "_" +
            testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string send(const std::string& line) { return engine.handle_line(line); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  // Sends a command that must be refused with an answer starting with `start`; checks that
  // nothing changed.
  void refused(const std::string& line, const std::string& start) {
    const State before = state(engine);
    const std::string names = send("printsgf");
    const std::string r = send(line);
    EXPECT_EQ(r.substr(0, start.size()), start) << line;
    EXPECT_EQ(r.substr(r.size() - 2), "\n\n") << line;
    EXPECT_TRUE(state(engine) == before) << line << " changed the position";
    EXPECT_EQ(send("printsgf"), names) << line << " changed the game";
  }
  // Plays `moves` moves chosen by genmove (a random legal move) unless the game ends first.
  void play_random(int moves) {
    for (int i = 0; i < moves && !engine.position().is_over(); ++i) {
      ASSERT_EQ(send("genmove " + result(send("side_to_move"))).substr(0, 2), "= ");
    }
  }
  // What a client compares after loading a game: the stones, the side to move, the turn.
  std::string seen(GtpEngine& e) {
    return e.handle_line("list_stones black") + e.handle_line("list_stones white") +
           e.handle_line("side_to_move") + std::to_string(e.position().ply());
  }

  GtpEngine engine{11};
  fs::path dir_;
};

}  // namespace

TEST_F(GtpClient, KomiIsAcceptedAndIgnored) {
  send("boardsize 9");
  send("play b C2");
  const State before = state(engine);
  for (const char* k : {"6.5", "0", "7", "-5.5", "+3", ".5", "100."}) {
    EXPECT_EQ(send(std::string("komi ") + k), "=\n\n") << k;
  }
  EXPECT_TRUE(state(engine) == before);
  refused("komi x", "? komi must be a number, not \"x\" (Tanbo has no komi");
  for (const char* bad : {"komi 6.5.5", "komi nan", "komi inf", "komi .", "komi -", "komi 1e3"}) {
    refused(bad, "? komi must be a number, not ");
  }
  refused("komi", "? usage: komi NUMBER\n\n");
  refused("komi 1 2", "? usage: komi NUMBER\n\n");
}

TEST_F(GtpClient, PrintsgfAnswersTheGameWithTheStartInTheRootNode) {
  send("boardsize 9");
  EXPECT_EQ(send("printsgf"),
            "= (;GM[1]FF[4]CA[UTF-8]AP[tanbo]SZ[9]\n"
            "GN[Tanbo]C[Tanbo on grid 9x9, setup steere1995. Rules: a stone must touch exactly one "
            "stone of its colour, bounded roots are removed (AE in the node after the move).]\n"
            "AB[bh][hb]\n"
            "AW[hh][bb])\n\n");
  send("play b C2");
  send("play w G2");
  const std::string r = send("printsgf");
  EXPECT_NE(r.find("AB[bh][hb]\nAW[hh][bb]\n;B[ch]\n;W[gh])\n\n"), std::string::npos) << r;
  EXPECT_EQ(r.find("RE["), std::string::npos);
}

// printsgf, then loadsgf of what it printed: the same stones, side to move and turn, on the
// boards GTP clients use.
TEST_F(GtpClient, PrintsgfThroughLoadsgfGivesTheSamePosition) {
  for (const char* size : {"19", "9"}) {
    for (int moves : {0, 1, 30, 1000}) {
      send(std::string("boardsize ") + size);
      play_random(moves);
      const std::string sgf = result(send("printsgf"));
      const std::string file = path(std::string("printed") + size + ".sgf");
      std::ofstream(file) << sgf << "\n";
      GtpEngine other(3);
      EXPECT_EQ(other.handle_line("loadsgf " + file), "=\n\n");
      EXPECT_EQ(seen(other), seen(engine)) << size << " after " << moves;
      EXPECT_EQ(other.position().hash(), engine.position().hash());
      EXPECT_EQ(other.handle_line("final_score"), send("final_score"));
      // The same through a file printsgf writes.
      EXPECT_EQ(send("printsgf " + file), "=\n\n");
      EXPECT_EQ(other.handle_line("boardsize 13"), "=\n\n");
      EXPECT_EQ(other.handle_line("loadsgf " + file), "=\n\n");
      EXPECT_EQ(seen(other), seen(engine));
      EXPECT_EQ(other.handle_line("printsgf"), send("printsgf"));
    }
  }
}

TEST_F(GtpClient, LoadsgfStopsBeforeTheMoveNumbered) {
  send("boardsize 9");
  play_random(12);
  ASSERT_EQ(engine.position().ply(), 12u);
  const std::string file = path("game.sgf");
  ASSERT_EQ(send("printsgf " + file), "=\n\n");
  const Position whole = engine.position();
  // MOVE n: the position before the n-th move, i.e. after n - 1 moves.
  for (std::uint32_t n : {1u, 2u, 5u, 12u, 13u}) {
    EXPECT_EQ(send("loadsgf " + file + " " + std::to_string(n)), "=\n\n") << n;
    Position expected(whole.topology_ptr(), whole.setup());
    for (std::uint32_t i = 0; i + 1 < n; ++i) expected.play(whole.history()[i].vertex);
    EXPECT_EQ(engine.position().ply(), n - 1);
    EXPECT_EQ(engine.position().hash(), expected.hash()) << n;
    EXPECT_EQ(engine.position().to_move(), expected.to_move()) << n;
  }
  // The moves before it can be taken back; the game goes on from there.
  EXPECT_EQ(send("loadsgf " + file + " 3"), "=\n\n");
  EXPECT_EQ(send("undo"), "=\n\n");
  EXPECT_EQ(send("undo"), "=\n\n");
  EXPECT_EQ(send("undo"), "? cannot undo: no move has been played\n\n");
  // A game file loads as well, a resignation counting as a turn.
  Game g = new_game("grid 7x7", "default", 0, {"ann", "bob"});
  g.position.play(g.position.legal_moves(kBlack).front());
  g.position.resign(kWhite);
  save_game(g, path("resigned.tanbo"));
  EXPECT_EQ(send("loadsgf " + path("resigned.tanbo")), "=\n\n");
  EXPECT_EQ(send("winner"), "= black\n\n");
  EXPECT_NE(send("printsgf").find("PB[ann]PW[bob]RE[B+R]"), std::string::npos);
  EXPECT_EQ(send("loadsgf " + path("resigned.tanbo") + " 2"), "=\n\n");
  EXPECT_EQ(send("side_to_move"), "= white\n\n");
  EXPECT_EQ(send("topology"), "= grid 7x7\n\n");
}

TEST_F(GtpClient, LoadsgfOfABadFileChangesNothing) {
  send("boardsize 9");
  play_random(4);
  const std::string good = path("good.sgf");
  ASSERT_EQ(send("printsgf " + good), "=\n\n");
  std::ofstream(path("garbage.sgf")) << "(;GM[1]SZ[9]AB[bh\n";
  std::ofstream(path("hello.txt")) << "hello\n";
  std::ofstream(path("illegal.sgf")) << "(;GM[1]FF[4]SZ[9]AB[bh][hb]AW[hh][bb];B[ch];W[cg])\n";
  std::ofstream(path("cube.sgf")) << "(;GM[1]SZ[99])\n";
  refused("loadsgf " + path("missing.sgf"),
          "? cannot load " + path("missing.sgf") + ": cannot open (No such file or directory)");
  refused("loadsgf " + path("garbage.sgf"), "? cannot load " + path("garbage.sgf") +
                                                ":2: unterminated value of AB (a ']' is missing)");
  refused("loadsgf " + path("hello.txt"),
          "? cannot load " + path("hello.txt") + ":1: not a Tanbo game file");
  refused("loadsgf " + path("illegal.sgf"),
          "? cannot load " + path("illegal.sgf") +
              ": node 3: W[cg] (C3): no White stone touches C3\n\n");
  refused("loadsgf " + path("cube.sgf"), "? cannot load " + path("cube.sgf") + ": node 1: SZ[99]");
  refused("loadsgf " + good + " 0",
          "? MOVE must be a move number from 1 (the start) to 5 (after "
          "the last of the game's 4 turns), not \"0\"\n\n");
  refused("loadsgf " + good + " 6", "? MOVE must be a move number from 1 (the start) to 5");
  refused("loadsgf " + good + " D4", "? MOVE must be a move number from 1");
  refused("loadsgf " + good + " -1", "? MOVE must be a move number from 1");
  refused("loadsgf", "? usage: loadsgf FILE [MOVE]\n\n");
  refused("loadsgf a b c", "? usage: loadsgf FILE [MOVE]\n\n");
}

TEST_F(GtpClient, LoadsgfOfHostileFiles) {
  send("boardsize 9");
  const std::string fifo = path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  fs::create_directories(path("folder"));
  std::ofstream(path("sparse.sgf")).put('(');
  ASSERT_EQ(::truncate(path("sparse.sgf").c_str(), std::int64_t{2} << 30), 0);
  std::ofstream(path("nul.sgf"), std::ios::binary) << std::string("(;GM[1]SZ[9];B[c\0h])", 21);
  std::ofstream(path("big.sgf")) << "(;GM[1]SZ[" << std::string(1000000, '9') << "])";
  // Without the input layer the FIFO blocks the session and /dev/zero fills memory.
  refused("loadsgf " + fifo, "? cannot load " + fifo + ": is not a regular file (a FIFO)");
  refused("loadsgf /dev/zero", "? cannot load /dev/zero: is not a regular file");
  refused("loadsgf " + path("folder"), "? cannot load " + path("folder") + ": is a directory");
  refused("loadsgf " + path("sparse.sgf"),
          "? cannot load " + path("sparse.sgf") + ": has 2147483648 bytes, over the 64 MB limit");
  refused("loadsgf " + path("nul.sgf"), "? cannot load " + path("nul.sgf") +
                                            ": node 2: [\"c\\0h\"] is not a point of a 9x9 board");
  const std::string big = send("loadsgf " + path("big.sgf"));
  EXPECT_LT(big.size(), 250u) << big.substr(0, 300);
  const std::string name = send("loadsgf " + std::string(200000, 'a') + ".sgf");
  EXPECT_LT(name.size(), 250u) << name.substr(0, 300);
  EXPECT_EQ(send("name"), "= tanbo\n\n");
}

TEST_F(GtpClient, SgfTextInAnswersKeepsTheFraming) {
  std::ofstream(path("names.sgf"))
      << "(;GM[1]FF[4]SZ[9]PB[ann\r\n]PW[bob\r\n\r\n]AB[bh][hb]AW[hh][bb];B[ch])";
  ASSERT_EQ(send("loadsgf " + path("names.sgf")), "=\n\n");
  const std::string sgf = send("printsgf");
  EXPECT_NE(sgf.find("PB[ann]PW[bob]"), std::string::npos) << sgf;
  // One empty line, at the end; no carriage return, no line of blanks.
  EXPECT_EQ(sgf.find("\n\n"), sgf.size() - 2) << sgf;
  EXPECT_EQ(sgf.find('\r'), std::string::npos) << sgf;
  EXPECT_EQ(sgf.find("\n \n"), std::string::npos) << sgf;
}

TEST(GtpFraming, ControlBytesInAnyAnswerCannotEndItEarly) {
  GtpEngine engine;
  // An answer holding a line of only a carriage return, a NUL and a bare CR: each would read
  // as an end of line or of the answer to some controller.
  engine.add_command("echo_raw", [](const std::vector<std::string>&) {
    return GtpEngine::Reply{true, std::string("a\r\n\r\n\nb\0c\rd\n \t\ne", 16)};
  });
  EXPECT_EQ(engine.handle_line("echo_raw"), "= a \nb c d\ne\n\n");
}

TEST_F(GtpClient, PrintsgfRefusesGamesSgfCannotHold) {
  send("topology grid 5x5x5");
  refused("printsgf",
          "? cannot write this game as SGF: SGF records 2D boards only; this game is "
          "on grid 5x5x5");
  send("boardsize 19");
  send("setup four");
  refused("printsgf", "? cannot write this game as SGF: SGF records two players; this game has 4");
  send("boardsize 9");
  refused("printsgf " + path("no/such/folder/x.sgf"), "? ");
  EXPECT_FALSE(fs::exists(path("no")));
  refused("printsgf a b", "? usage: printsgf [FILE]\n\n");
}

TEST_F(GtpClient, FinalScoreOnceTheGameIsOver) {
  send("topology line 7");
  EXPECT_EQ(send("final_score"), "? the game is not over\n\n");
  EXPECT_EQ(send("play b 2"), "=\n\n");
  EXPECT_EQ(send("final_score"), "? the game is not over\n\n");
  // The game to the end of docs/protocol.md: Black bounds its own root, White wins.
  for (const char* m : {"play w 6", "play b 3", "play w 5", "play b 4"}) send(m);
  ASSERT_EQ(send("winner"), "= white\n\n");
  EXPECT_EQ(send("final_score"), "= W+\n\n");
  // Random games to the end: the winner's letter.
  for (int game = 0; game < 5; ++game) {
    send("boardsize 9");
    play_random(1000);
    ASSERT_TRUE(engine.position().is_over());
    EXPECT_EQ(send("final_score"), engine.position().winner() == kBlack ? "= B+\n\n" : "= W+\n\n");
  }
  // Resignations.
  send("boardsize 9");
  send("play b C2");
  EXPECT_EQ(send("resign white"), "=\n\n");
  EXPECT_EQ(send("final_score"), "= B+\n\n");
  send("clear_board");
  EXPECT_EQ(send("resign b"), "=\n\n");
  EXPECT_EQ(send("final_score"), "= W+\n\n");
  // More than two players: the winner's colour.
  send("boardsize 19");
  send("setup dense 3");
  send("resign black");
  EXPECT_EQ(send("final_score"), "? the game is not over\n\n");
  send("resign white");
  EXPECT_EQ(send("final_score"), "= red\n\n");
  EXPECT_EQ(send("final_score now"), "? usage: final_score (it takes no arguments)\n\n");
}

TEST_F(GtpClient, RootSpaceOfTheRootAtAPoint) {
  send("boardsize 9");
  for (const char* m : {"play b B3", "play w H3", "play b C2"}) send(m);
  // Black B2-B3-C2 (docs/protocol.md's roots example): its legal points are its root space.
  EXPECT_EQ(send("root_space B3"), "= B1 C1 A2 D2 A3 B4\n\n");
  EXPECT_EQ(send("root_space c2"), "= B1 C1 A2 D2 A3 B4\n\n");
  EXPECT_EQ(send("root_space H8"), "= H7 G8 J8 H9\n\n");
  refused("root_space E5", "? no stone on E5 (root_space takes a point of a root)\n\n");
  refused("root_space Z99", "? \"Z99\" is not a point of this board");
  refused("root_space", "? usage: root_space VERTEX\n\n");
}

// GoGui's menu: every line is type/label/command with a type GoGui knows, and every command
// is one of this engine's, answering "=" (with a stone's point for %p).
TEST_F(GtpClient, GoguiAnalyzeCommandsAreRealCommands) {
  // The types GoGui's manual documents (chapter "Analyze Commands").
  const std::set<std::string> gogui_types{"bwboard", "cboard",   "dboard", "eplist", "gfx",
                                          "hstring", "hpstring", "none",   "param",  "plist",
                                          "pspairs", "pstring",  "sboard", "string", "var",
                                          "varb",    "varc",     "varp",   "varpo",  "varw"};
  send("boardsize 9");
  send("play b C2");
  const std::string stone = result(send("list_stones black")).substr(0, 2);
  std::istringstream lines(result(send("gogui-analyze_commands")));
  std::set<std::string> commands;
  for (std::string line; std::getline(lines, line);) {
    const auto a = line.find('/'), b = line.find('/', a + 1);
    ASSERT_NE(b, std::string::npos) << line;
    EXPECT_TRUE(gogui_types.count(line.substr(0, a))) << line;
    EXPECT_GT(b, a + 1) << "no label: " << line;
    std::string command = line.substr(b + 1);
    if (const auto p = command.find("%p"); p != std::string::npos) command.replace(p, 2, stone);
    const std::string name = command.substr(0, command.find(' '));
    commands.insert(name);
    EXPECT_EQ(send("known_command " + name), "= true\n\n") << line;
    const std::string r = send(command);
    EXPECT_EQ(r.substr(0, 1), "=") << command << ": " << r;
    EXPECT_NE(r, "=\n\n") << command << " answered nothing";
  }
  for (const char* c : {"roots", "legal_moves", "root_space"}) EXPECT_TRUE(commands.count(c)) << c;
}

TEST_F(GtpClient, ListedAndKnown) {
  const std::string listed = "\n" + result(send("list_commands")) + "\n";
  for (const char* c :
       {"komi", "loadsgf", "printsgf", "final_score", "gogui-analyze_commands", "root_space"}) {
    EXPECT_NE(listed.find(std::string("\n") + c + "\n"), std::string::npos) << c;
    EXPECT_EQ(send(std::string("known_command ") + c), "= true\n\n") << c;
  }
}

// A file printsgf wrote is a record `tanbo import` reads: the same moves.
TEST_F(GtpClient, PrintsgfFileReadByTanboImport) {
  const std::string file = path("from_gtp.sgf");
  const auto r = test::run_command(std::string(TANBO_BINARY) + " gtp --engine random --seed 5",
                                   "boardsize 9\nplay b C2\nplay w G2\nplay b C3\ngenmove w\n"
                                   "printsgf " +
                                       file + "\nquit\n");
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<std::string> answers;
  for (std::size_t at = 0, end; (end = r.out.find("\n\n", at)) != std::string::npos; at = end + 2)
    answers.push_back(r.out.substr(at, end - at));
  ASSERT_EQ(answers.size(), 7u) << r.out;
  EXPECT_EQ(answers[5], "=");                      // printsgf FILE
  const std::string white = answers[4].substr(2);  // genmove w
  const auto imported = test::run_command(std::string(TANBO_BINARY) + " import " + file);
  EXPECT_EQ(imported.status, 0) << imported.err;
  EXPECT_EQ(imported.err, "");
  EXPECT_NE(imported.out.find("moves\nblack C2\nwhite G2\nblack C3\nwhite " + white + "\n"),
            std::string::npos)
      << imported.out;
}

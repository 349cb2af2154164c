// Bad input to the programs: every refusal carries a specific message and changes nothing.
//
// Covers the engine protocol (a failed topology/setup/boardsize/play/undo leaves the previous
// game in place), the command line, and the inputs the fuzzers once crashed on
// (tests/fuzz/regressions/).
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "gtp.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/position.hpp"
#include "tanbo/core/setup.hpp"
#include "tanbo/core/topology.hpp"
#include "tanbo/io/gamefile.hpp"
#include "tanbo/io/sgf.hpp"
#include "tanbo/platform/memory.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using tanbo::Error;
using tanbo::test::temp_file;

namespace {

// Everything a refused command must leave alone.
struct State {
  std::string spec, setup, board;
  std::uint32_t ply;
  std::uint64_t hash;
  tanbo::Player to_move;
  int players;
  bool operator==(const State&) const = default;
};

State state_of(tanbo::cli::GtpEngine& e) {
  const tanbo::Position& p = e.position();
  return {p.topology().spec, p.setup().name, e.handle_line("showboard"), p.ply(), p.hash(),
          p.to_move(),       p.num_players()};
}

bool refused(const std::string& reply) {
  return !reply.empty() && reply[0] == '?';
}

// Each command is refused with an answer that contains its reason, and leaves the engine's
// state as it was and consistent.
void expect_refused_unchanged(tanbo::cli::GtpEngine& e,
                              const std::vector<std::pair<std::string, std::string>>& bad) {
  const State before = state_of(e);
  for (const auto& [cmd, why] : bad) {
    const std::string r = e.handle_line(cmd);
    EXPECT_TRUE(refused(r)) << cmd << " -> " << r;
    EXPECT_NE(r.find(why), std::string::npos) << cmd << " -> " << r;
    EXPECT_EQ(state_of(e), before) << cmd;
    EXPECT_EQ(e.position().check_consistency(), "") << cmd;
  }
}

}  // namespace

// ------------------------------------------------------------------ the engine protocol

TEST(BadGtp, FailedTopologyLeavesThePreviousGameInPlace) {
  tanbo::cli::GtpEngine e;
  ASSERT_EQ(e.handle_line("topology grid 9x9"), "=\n\n");
  ASSERT_EQ(e.handle_line("play b C2"), "=\n\n");
  ASSERT_EQ(e.handle_line("play w G2"), "=\n\n");
  const std::string self_loop =
      temp_file("loop.dot", "graph g { a -- a; a -- b; a [stone=1]; b [stone=2] }");
  const std::string isolated =
      temp_file("iso.dot", "graph g { a; b -- c -- d; a [stone=1]; d [stone=2] }");
  const std::string binary = temp_file("bin.dot", std::string("\0\x01\x02\x03garbage", 11));
  expect_refused_unchanged(e, {
                                  {"topology grid 99999999999x9", "too large"},
                                  {"topology grid 100000x100000", "would need about"},
                                  {"topology grid 0x9", "at least 1"},
                                  {"topology hex 1", "at least 2"},
                                  {"topology blob", "unknown topology"},
                                  {"topology file /no/such.dot", "cannot open"},
                                  {"topology file " + self_loop, "self-loop"},
                                  {"topology file " + isolated, "bounded root"},
                                  {"topology file " + binary, "binary"},
                                  {"topology line 1", "does not fit line 1"},
                              });
  // The game goes on where it was.
  EXPECT_EQ(e.handle_line("undo"), "=\n\n");
  EXPECT_EQ(e.position().ply(), 1u);
}

TEST(BadGtp, FailedSetupBoardsizeAndPlayersChangeNothing) {
  tanbo::cli::GtpEngine e;
  ASSERT_EQ(e.handle_line("topology grid 5x5x5"), "=\n\n");
  ASSERT_EQ(e.handle_line("play b 125"), "=\n\n");
  expect_refused_unchanged(e, {
                                  {"setup nosuch", "nosuch"},
                                  {"setup four 9", "2 to 8"},
                                  {"setup pbmserv 12", "2 to 8"},
                                  {"boardsize 0", "unacceptable size"},
                                  {"boardsize 99999999999", "unacceptable size"},
                                  {"boardsize 9x9", "unacceptable size"},
                                  {"boardsize", "usage"},
                                  {"play purple 111", "unknown player \"purple\""},
                                  {"play 9 111", "unknown player \"9\""},
                                  {"play w 999", "not a point of this board"},
                                  {"play w 0,0,0", "not a point"},
                                  {"play w 111", "occupied"},
                                  {"play b 255", "turn"},
                                  {"play w pass", "passing is not allowed"},
                                  {"play w", "usage"},
                                  {"genmove b", "turn"},
                                  {"resign mauve", "unknown player"},
                                  {"legal_moves nobody", "unknown player"},
                                  {"list_stones 0", "unknown player"},
                                  {"frobnicate", "unknown command"},
                                  {"known_command", "usage"},
                              });
}

TEST(BadGtp, UndoPastTheStartAndMovesAfterTheEnd) {
  tanbo::cli::GtpEngine e;
  ASSERT_EQ(e.handle_line("topology line 7"), "=\n\n");
  const State start = state_of(e);
  const std::string r = e.handle_line("undo");
  EXPECT_TRUE(refused(r));
  EXPECT_NE(r.find("no move"), std::string::npos) << r;
  EXPECT_EQ(state_of(e), start);
  // Play the line to its end, then every move is refused with the winner named.
  for (int i = 0; i < 100 && e.handle_line("winner") == "= none\n\n"; ++i) {
    const std::string side = e.handle_line("side_to_move").substr(2);
    ASSERT_EQ(e.handle_line("genmove " + side.substr(0, side.size() - 2))[0], '=');
  }
  ASSERT_TRUE(e.position().is_over());
  // genmove answers the endings controllers know (the loser resigns, the winner passes) and
  // changes nothing.
  const State over = state_of(e);
  const bool black_won = e.position().winner() == tanbo::kBlack;
  EXPECT_EQ(e.handle_line(black_won ? "genmove w" : "genmove b"), "= resign\n\n");
  EXPECT_EQ(e.handle_line(black_won ? "genmove b" : "genmove w"), "= pass\n\n");
  EXPECT_EQ(state_of(e), over);
  expect_refused_unchanged(e, {{"play b 4", "over"}, {"play w 4", "over"}, {"resign b", "over"}});
}

TEST(BadGtp, BinaryAndOverlongLinesAreAnsweredNotFatal) {
  tanbo::cli::GtpEngine e;
  const State before = state_of(e);
  const std::string garbage("\x01\x02\xff\xfe play \x7f b \x80", 14);
  const std::string r = e.handle_line(garbage);
  EXPECT_TRUE(refused(r)) << r;
  EXPECT_EQ(state_of(e), before);
  const std::string long_line = "play b " + std::string(1 << 20, 'A');
  EXPECT_TRUE(refused(e.handle_line(long_line)));
  EXPECT_TRUE(refused(e.handle_line(std::string(1 << 16, '9') + " play")));
  EXPECT_TRUE(refused(e.handle_line("99999999999999999999999 frob")));
  EXPECT_EQ(state_of(e), before);
}

// ------------------------------------------------------------------ the command line

TEST(BadCli, ProgramRefusesBadBoardsWithAMessageAndStatus2) {
  const std::string bin = TANBO_BINARY;
  const auto r = tanbo::test::expect_refused(bin + " gtp --topology 'grid 100000x100000'",
                                             "would need about", "name\n");
  EXPECT_EQ(r.out, "");
  const std::string binary = temp_file("cli.bin", std::string("\0\0\0\x7f"
                                                              "ELF",
                                                              7));
  tanbo::test::expect_refused(bin + " gtp --topology 'file " + binary + "'", "binary", "name\n");
  tanbo::test::expect_refused(bin + " gtp --setup nosuch", "nosuch", "name\n");
  tanbo::test::expect_refused(bin + " gtp --players 12", "2 to 8", "name\n");
  tanbo::test::expect_refused(bin + " gtp --no-such-option", "no-such-option");
  tanbo::test::expect_refused(bin + " frobnicate", "unknown subcommand");
}

// A word no option or argument takes is named (a spec of several words left unquoted, most
// often), and a missing argument by the name --help gives it; before, Boost called a stray word
// "ambiguous" with every option of the command listed, and a missing GAME "--game".
TEST(BadCli, StrayWordsAndMissingArgumentsAreNamed) {
  const std::string bin = TANBO_BINARY;
  for (const std::string& c :
       {" play --topology grid 3x3", " bench 3x3", " gtp 3x3", " match 3x3", " study 3x3"}) {
    const auto r = tanbo::test::expect_refused(bin + c, "unexpected argument \"3x3\"");
    EXPECT_EQ(r.status, 2) << c;
    EXPECT_EQ(r.err.find("ambiguous"), std::string::npos) << c << ": " << r.err;
  }
  tanbo::test::expect_refused(bin + " solve a.tanbo b.tanbo", "unexpected argument \"b.tanbo\"");
  tanbo::test::expect_refused(bin + " show", "GAME is missing");
  tanbo::test::expect_refused(bin + " move g.tanbo", "POINT is missing");
}

// An option given empty is refused, not read as its default: "--as ''" skipped the turn check,
// "--load ''" started a new game, "--setup ''" took the board's own setup, "-o ''" wrote to
// stdout.
TEST(BadCli, EmptyValuesAreRefusedNotTakenAsDefaults) {
  const std::string bin = TANBO_BINARY;
  tanbo::test::expect_refused(bin + " play --setup ''", "--setup NAME is empty");
  tanbo::test::expect_refused(bin + " gtp --topology ' '", "--topology SPEC is empty");
  tanbo::test::expect_refused(bin + " play --load ''", "--load FILE is empty");
  const std::string game = temp_file("empty-as.tanbo", "");
  std::remove(game.c_str());
  ASSERT_EQ(tanbo::test::run_command(bin + " new " + game + " --topology 'grid 5x5'").status, 0);
  const std::string before = tanbo::test::read_file(game);
  tanbo::test::expect_refused(bin + " move " + game + " B1 --as ''", "--as PLAYER is empty");
  EXPECT_EQ(tanbo::test::read_file(game), before);
  // An empty output file was read as none: the record went to stdout.
  const auto exported = tanbo::test::run_command(bin + " export " + game + " --sgf -o ''");
  EXPECT_EQ(exported.status, 2);
  EXPECT_EQ(exported.out, "");
  EXPECT_NE(exported.err.find("-o FILE is empty"), std::string::npos) << exported.err;
  tanbo::test::expect_refused(bin + " import " + game + " -o ' '", "-o GAME is empty");
  // A move number the game does not have is a bad value too (status 2, as expect_refused wants).
  tanbo::test::expect_refused(bin + " show " + game + " --move -1",
                              "--move -1: the game has moves 0 to 0");
  tanbo::test::expect_refused(bin + " show " + game + " --move 1",
                              "--move 1: the game has moves 0 to 0");
}

// The overview lists every subcommand, however long its name, under --help, -h and help
// (status 0, on stdout) and when no subcommand is given (status 2, on stderr).
TEST(BadCli, OverviewListsEverySubcommand) {
  const std::string bin = TANBO_BINARY;
  for (const std::string flag : {" --help", " -h", " help", ""}) {
    const auto r = tanbo::test::run_command(bin + flag);
    EXPECT_EQ(r.status, flag.empty() ? 2 : 0) << flag << ": " << r.err;
    const std::string& text = flag.empty() ? r.err : r.out;
    for (const auto& c : tanbo::cli::commands()) {
      EXPECT_NE(text.find("\n  " + std::string(c.name) + "  "), std::string::npos)
          << flag << " lacks " << c.name << ":\n"
          << text;
    }
  }
  // tanbo help SUBCOMMAND is that subcommand's --help; an unknown one is refused.
  const auto solve_help = tanbo::test::run_command(bin + " solve --help");
  const auto help_solve = tanbo::test::run_command(bin + " help solve");
  EXPECT_EQ(help_solve.status, 0) << help_solve.err;
  EXPECT_EQ(help_solve.out, solve_help.out);
  EXPECT_NE(help_solve.out.find("usage: tanbo solve"), std::string::npos) << help_solve.out;
  tanbo::test::expect_refused(bin + " help frobnicate", "no subcommand \"frobnicate\"");
}

TEST(BadCli, GtpSessionSurvivesBinaryInput) {
  std::string input = "1 name\n";
  for (int i = 0; i < 256; ++i) input += static_cast<char>(i);
  input += "\n2 topology grid 99999999999x9\n3 topology\n4 quit\n";
  auto r = tanbo::test::run_command(std::string(TANBO_BINARY) + " gtp", input);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("=1 tanbo\n\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("?2 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("=3 grid 19x19\n\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("=4 \n\n"), std::string::npos) << r.out;
}

// ------------------------------------------------------------------ fuzz regressions

// Replays every input under tests/fuzz/regressions/<target>/ the way its fuzzer reads it.
TEST(FuzzRegressions, ReplayedInputsAreHandledCleanly) {
  const fs::path root = fs::path(TANBO_SOURCE_DIR) / "tests" / "fuzz" / "regressions";
  int replayed = 0;
  if (fs::exists(root / "gtp")) {
    for (const auto& f : fs::directory_iterator(root / "gtp")) {
      const std::string input = tanbo::test::read_file(f.path().string());
      tanbo::cli::GtpEngine e(7);
      std::size_t start = 0;
      while (start <= input.size() && !e.quit()) {
        std::size_t end = input.find('\n', start);
        if (end == std::string::npos) end = input.size();
        const std::string r = e.handle_line(input.substr(start, end - start));
        start = end + 1;
        const std::size_t msg = r.find_first_not_of("0123456789", 1);
        EXPECT_FALSE(!r.empty() && r[0] == '?' && r.compare(msg, 15, " internal error") == 0)
            << f.path() << ": " << r;
        ASSERT_EQ(e.position().check_consistency(), "") << f.path();
      }
      ++replayed;
    }
  }
  if (fs::exists(root / "dot")) {
    for (const auto& f : fs::directory_iterator(root / "dot")) {
      const std::string input = tanbo::test::read_file(f.path().string());
      try {
        auto t = tanbo::make_from_dot(input, "regression.dot");
        for (tanbo::Vertex v = 0; v < t->num_vertices(); ++v) {
          EXPECT_EQ(t->parse_vertex(t->name(v)), v) << f.path();
        }
        tanbo::Position pos(t, tanbo::make_setup(*t));
        EXPECT_EQ(pos.check_consistency(), "") << f.path();
      } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()), "") << f.path();
      }
      ++replayed;
    }
  }
  for (const char* kind : {"sgf", "gamefile"}) {
    if (!fs::exists(root / kind)) continue;
    const bool sgf = std::string(kind) == "sgf";
    for (const auto& f : fs::directory_iterator(root / kind)) {
      const std::string input = tanbo::test::read_file(f.path().string());
      std::string written;
      std::uint64_t hash = 0;
      try {
        const tanbo::Game g =
            sgf ? tanbo::read_sgf(input, "regression") : tanbo::read_game(input, "regression");
        EXPECT_EQ(g.position.check_consistency(), "") << f.path();
        hash = g.position.hash();
        written = sgf ? tanbo::write_sgf(g) : tanbo::write_game(g);
      } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()), "") << f.path();
      }
      if (!written.empty()) {
        // What was written must read back as the same game, and be written the same again.
        const tanbo::Game again =
            sgf ? tanbo::read_sgf(written, "again") : tanbo::read_game(written, "again");
        EXPECT_EQ(again.position.hash(), hash) << f.path();
        EXPECT_EQ(sgf ? tanbo::write_sgf(again) : tanbo::write_game(again), written) << f.path();
      }
      ++replayed;
    }
  }
  EXPECT_GT(replayed, 0);
  RecordProperty("replayed", replayed);
}

// Bad input everywhere: every refusal carries a specific message and changes nothing.
//
// Covers topology specs (malformed, huge, too big for memory), DOT boards (binary, malformed,
// self-loops, duplicate edges, isolated or bounded seeds, unknown players), game files and
// SGF; test_bad_input_programs.cpp covers the programs.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

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

namespace {

std::string spec_error(const std::string& spec, const tanbo::TopologyLimits& lim = {}) {
  return tanbo::test::refusal_of([&] { tanbo::parse_topology(spec, tanbo::process_limits(lim)); });
}

std::string dot_error(const std::string& text) {
  return tanbo::test::refusal_of([&] {
    auto t = tanbo::make_from_dot(text, "bad.dot");
    tanbo::Position pos(t, tanbo::make_setup(*t));
  });
}

}  // namespace

// ------------------------------------------------------------------ topology specs

TEST(BadSpec, MalformedSpecsGetSpecificMessages) {
  EXPECT_NE(spec_error("").find("empty topology spec"), std::string::npos);
  EXPECT_NE(spec_error("blob 5").find("unknown topology \"blob 5\""), std::string::npos);
  EXPECT_NE(spec_error("grid").find("needs sizes"), std::string::npos);
  EXPECT_NE(spec_error("grid 0x5").find("at least 1"), std::string::npos);
  EXPECT_NE(spec_error("grid 5x").find("has an empty size"), std::string::npos);
  EXPECT_NE(spec_error("grid -5x5").find("\"-5\" is not a whole number"), std::string::npos);
  EXPECT_NE(spec_error("grid 1e5x5").find("\"1e5\" is not a whole number"), std::string::npos);
  EXPECT_NE(spec_error("grid 5x5 wrapp").find("unexpected \"wrapp\""), std::string::npos);
  EXPECT_NE(spec_error("line 3x3").find("line N"), std::string::npos);
  EXPECT_NE(spec_error("hex 1").find("at least 2"), std::string::npos);
  EXPECT_NE(spec_error("hex 5 5").find("hex N"), std::string::npos);
  EXPECT_NE(spec_error("file").find("needs a path"), std::string::npos);
  EXPECT_NE(
      spec_error("file /no/such/tanbo.dot").find("DOT file \"/no/such/tanbo.dot\": cannot open"),
      std::string::npos);
}

TEST(BadSpec, DotPathsThatAreNotRegularFiles) {
  // A FIFO would block the open forever; devices and folders have no text to read.
  const fs::path fifo = fs::path(testing::TempDir()) / "tanbo_bad_input_fifo";
  fs::remove(fifo);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(spec_error("file " + fifo.string()).find("is not a regular file"), std::string::npos);
  fs::remove(fifo);
  EXPECT_NE(spec_error("file /dev/null").find("is not a regular file"), std::string::npos);
  EXPECT_NE(spec_error("file " + testing::TempDir()).find("is a directory"), std::string::npos);
}

TEST(BadSpec, HugeNumbersAreRefusedNotWrapped) {
  EXPECT_NE(spec_error("grid 99999999999x9").find("99999999999 is too large"), std::string::npos);
  EXPECT_NE(spec_error("line 18446744073709551616").find("too large"), std::string::npos);
  EXPECT_NE(spec_error("hex 4294967296").find("too large"), std::string::npos);
  EXPECT_NE(spec_error("hex 4000000").find("far too large"), std::string::npos);
  // 2^32 * 2^32 * ... overflows 64 bits if multiplied naively.
  EXPECT_NE(spec_error("grid 4294967295x4294967295x4294967295").find("points"), std::string::npos);
  // 65 axes of size 2.
  std::string many = "grid 2";
  for (int i = 0; i < 64; ++i) many += "x2";
  EXPECT_FALSE(spec_error(many).empty());
}

TEST(BadSpec, BoardTooBigForMemoryIsRefusedUpFrontWithItsSize) {
  // 10^10 points: beyond 32-bit vertex ids and beyond memory; the message says how much.
  const std::string big = spec_error("grid 100000x100000");
  EXPECT_NE(big.find("10000000000 points"), std::string::npos) << big;
  EXPECT_NE(big.find("would need about"), std::string::npos) << big;
  // Below the id limit, the memory limit decides: with 1 GB allowed, a 4000x4000 board
  // (16M points, about 1.5 GB by estimated_memory) is refused, naming what it would need.
  tanbo::TopologyLimits one_gb;
  one_gb.memory_bytes = 1ull << 30;
  const std::uint64_t need = tanbo::estimated_memory(16'000'000, 2 * 4000 * 3999, 2);
  ASSERT_GT(need, one_gb.memory_bytes);
  const std::string msg = spec_error("grid 4000x4000", one_gb);
  EXPECT_NE(msg.find("16000000 points"), std::string::npos) << msg;
  EXPECT_NE(msg.find("would need about"), std::string::npos) << msg;
  EXPECT_NE(msg.find("the limit of 1 GB"), std::string::npos) << msg;
  // The same board fits when the limit allows it (checked without building it: 200x200).
  EXPECT_NO_THROW(tanbo::parse_topology("grid 200x200", one_gb));
  // Hex and DOT boards go through the same check.
  tanbo::TopologyLimits tiny;
  tiny.memory_bytes = 1 << 20;
  EXPECT_NE(spec_error("hex 300", tiny).find("would need about"), std::string::npos);
}

TEST(BadSpec, EstimatedMemoryGrowsLinearly) {
  const auto c = tanbo::estimated_memory(0, 0, 2);  // what any board takes (alignment)
  const auto a = tanbo::estimated_memory(1000, 2000, 2);
  const auto b = tanbo::estimated_memory(2000, 4000, 2);
  EXPECT_EQ(b - c, 2 * (a - c));
  EXPECT_GT(tanbo::estimated_memory(1000, 2000, 8), a);
}

// ------------------------------------------------------------------ DOT boards

TEST(BadDot, BinaryAndMalformedFiles) {
  const std::string binary("graph g { a -- b }\0\x01\x02\xff", 22);
  EXPECT_NE(dot_error(binary).find("binary"), std::string::npos);
  EXPECT_NE(dot_error("\x7f"
                      "ELF\x02\x01\x01")
                .find("not valid Graphviz DOT"),
            std::string::npos);
  EXPECT_NE(dot_error("graph g { a -- b ").find("not valid Graphviz DOT"), std::string::npos);
  EXPECT_NE(dot_error("graph g { a -- ; }").find("not valid Graphviz DOT"), std::string::npos);
  EXPECT_NE(dot_error("").find("the file is empty"), std::string::npos);
  EXPECT_NE(dot_error(" \n\t ").find("the file is empty"), std::string::npos);
  EXPECT_NE(dot_error("graph g { }").find("no nodes"), std::string::npos);
  // Every refusal names the file.
  EXPECT_NE(dot_error("graph g { a -- b ").find("bad.dot"), std::string::npos);
}

TEST(BadDot, SelfLoopsAndDuplicateEdges) {
  EXPECT_NE(
      dot_error("graph g { a -- a; a -- b; a [stone=1]; b [stone=2] }").find("self-loop at node a"),
      std::string::npos);
  EXPECT_NE(dot_error("graph g { a -- b; b -- a; b -- c; a [stone=1]; c [stone=2] }")
                .find("duplicate edge"),
            std::string::npos);
  // In a digraph a->b and b->a are one adjacency, not a duplicate.
  auto t = tanbo::make_from_dot("digraph g { a -> b; b -> a; b -> c; c -> d; }", "ok.dot");
  EXPECT_EQ(t->graph.num_edges(), 3u);
}

TEST(BadDot, NodeIdsThatCannotNameAMoveAreRefused) {
  // Found by fuzz_dot: a node id of blanks could never be played (regressions/dot).
  for (const char* id : {"\"  \"", "\"\"", "\"a b\"", "\"x#1\"", "\"tab\there\""}) {
    const std::string msg =
        dot_error(std::string("graph g { ") + id + " -- b -- c -- d; b [stone=1]; d [stone=2] }");
    EXPECT_NE(msg.find("cannot name a point"), std::string::npos) << id << ": " << msg;
  }
  // Found by fuzz_dot with Boost's reader, where a node_id attribute renamed a node so that two
  // nodes could share an id. Graphviz has no such attribute: it is ignored like any other.
  auto renamed = tanbo::make_from_dot(
      "graph g { a [node_id=b]; a -- b -- c -- d; b [stone=1]; d [stone=2] }", "ok.dot");
  EXPECT_EQ(renamed->node_ids, (std::vector<std::string>{"a", "b", "c", "d"}));
  // Ids that are one word, quoted or not, are fine and name their node.
  auto t = tanbo::make_from_dot("graph g { \"n-1\" -- \"N_2\" -- 3.5 -- x; }", "ok.dot");
  for (tanbo::Vertex v = 0; v < t->num_vertices(); ++v) EXPECT_EQ(t->parse_vertex(t->name(v)), v);
}

TEST(BadDot, IsolatedOrBoundedSeedsAreRefusedByName) {
  // An isolated seed has no root space at the start.
  const std::string iso = dot_error("graph g { a; b -- c -- d; a [stone=1]; d [stone=2] }");
  EXPECT_NE(iso.find("bounded root"), std::string::npos) << iso;
  EXPECT_NE(iso.find(" a "), std::string::npos) << iso;
  // A seed whose only neighbours are stones of the other colour is bounded too.
  const std::string walled =
      dot_error("graph g { x -- a -- y; y -- z -- w; a [stone=1]; x [stone=2]; y [stone=2] }");
  EXPECT_NE(walled.find("bounded root"), std::string::npos) << walled;
  EXPECT_NE(walled.find("White seed at x"), std::string::npos) << walled;  // first by vertex
  // Two seeds of one colour side by side would be one root.
  EXPECT_NE(dot_error("graph g { a -- b -- c -- d; a [stone=1]; b [stone=1]; d [stone=2] }")
                .find("adjacent"),
            std::string::npos);
  // No stones at all, or only one player's.
  EXPECT_FALSE(dot_error("graph g { a -- b -- c }").empty());
  EXPECT_FALSE(dot_error("graph g { a -- b -- c; a [stone=1] }").empty());
}

TEST(BadDot, UnknownPlayers) {
  EXPECT_NE(dot_error("graph g { a -- b -- c; a [stone=9]; c [stone=2] }").find("stone=\"9\""),
            std::string::npos);
  EXPECT_NE(dot_error("graph g { a -- b -- c; a [stone=mauve]; c [stone=2] }").find("not a player"),
            std::string::npos);
  EXPECT_NE(dot_error("graph g { a -- b -- c; a [stone=0]; c [stone=2] }").find("not a player"),
            std::string::npos);
  EXPECT_NE(
      dot_error(
          "graph g { players=2; a -- b -- c -- d -- e; a [stone=1]; c [stone=3]; e [stone=2] }")
          .find("players=2"),
      std::string::npos);
  EXPECT_NE(dot_error("graph g { players=nine; a -- b -- c; a [stone=1]; c [stone=2] }")
                .find("players=\"nine\""),
            std::string::npos);
  EXPECT_NE(
      dot_error("graph g { players=1; a -- b -- c; a [stone=1]; c [stone=2] }").find("from 2 to 8"),
      std::string::npos);
  EXPECT_NE(
      dot_error("graph g { players=99999999999999999999; a -- b -- c; a [stone=1]; c [stone=2] }")
          .find("from 2 to 8"),
      std::string::npos);
}

TEST(BadDot, TruncatedFilesOfEveryLength) {
  // Every proper prefix of a good file is refused or read as a smaller valid board: never a
  // crash and never another exception type.
  const std::string good =
      "graph board { players=2; a [stone=1, pos=\"0,0\"]; a -- b -- c -- d -- e; e [stone=black]; "
      "\"node x\" -- c; }";
  for (std::size_t len = 0; len < good.size(); ++len) {
    try {
      auto t = tanbo::make_from_dot(good.substr(0, len), "cut.dot");
      tanbo::Position pos(t, tanbo::make_setup(*t));
      EXPECT_EQ(pos.check_consistency(), "");
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()), "") << len;
    }
  }
}

// ------------------------------------------------------------------ game files and SGF

namespace {

const char* kGoodGame =
    "tanbo-game 1\n"
    "topology grid 9x9\n"
    "setup steere1995\n"
    "players 2\n"
    "player black alice\n"
    "moves\n"
    "black B3\n"
    "white H3\n"
    "black B4\n"
    "white H4\n";

std::string game_error(const std::string& text) {
  return tanbo::test::refusal_of([&] { tanbo::read_game(text, "bad.game"); });
}

}  // namespace

TEST(BadGameFile, GoodFileReads) {
  const tanbo::Game g = tanbo::read_game(kGoodGame, "good.game");
  EXPECT_EQ(g.position.ply(), 4u);
  EXPECT_EQ(g.position.check_consistency(), "");
}

TEST(BadGameFile, TruncatedFilesAreRefusedOrShorterGames) {
  const std::string good = kGoodGame;
  const std::string before_moves = good.substr(0, good.find("moves"));
  EXPECT_NE(game_error(before_moves).find("ends before its \"moves\" line"), std::string::npos);
  EXPECT_NE(game_error("").find("neither a Tanbo game file nor an SGF record"), std::string::npos);
  // Every prefix: a specific, located refusal, or the game up to a whole move.
  for (std::size_t len = 0; len < good.size(); ++len) {
    try {
      const tanbo::Game g = tanbo::read_game(good.substr(0, len), "cut.game");
      EXPECT_LE(g.position.ply(), 4u);
      EXPECT_EQ(g.position.check_consistency(), "");
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("cut.game:", 0), 0u) << e.what();
    }
  }
}

TEST(BadGameFile, MovesThatBreakTheRulesNameTheLineAndTheReason) {
  const std::string head = "tanbo-game 1\ntopology grid 9x9\nmoves\n";
  std::string m = game_error(head + "black B3\nblack B4\n");
  EXPECT_NE(m.find("bad.game:5:"), std::string::npos) << m;
  EXPECT_NE(m.find("turn"), std::string::npos) << m;
  m = game_error(head + "black B2\n");
  EXPECT_NE(m.find("bad.game:4:"), std::string::npos) << m;
  EXPECT_NE(m.find("occupied"), std::string::npos) << m;
  m = game_error(head + "black E5\n");
  EXPECT_NE(m.find("no Black stone touches E5"), std::string::npos) << m;
  m = game_error(head + "black Z99\n");
  EXPECT_NE(m.find("not a point of this board"), std::string::npos) << m;
  m = game_error(head + "purple B3\n");
  EXPECT_NE(m.find("not a move"), std::string::npos) << m;
  m = game_error(head + "black pass\n");
  EXPECT_FALSE(m.empty());
  m = game_error(head + "black B3\nresult black\n");
  EXPECT_NE(m.find("not over"), std::string::npos) << m;
  m = game_error(head + "black resigns\nresult black\n");
  EXPECT_NE(m.find("result says Black won"), std::string::npos) << m;
  m = game_error(head + "black resigns\nwhite B3\n");
  EXPECT_NE(m.find("over"), std::string::npos) << m;
}

TEST(BadGameFile, MalformedHeadersAndBinary) {
  EXPECT_NE(game_error(std::string("\0\x01\x02tanbo", 8)).find("not a Tanbo game file"),
            std::string::npos);
  EXPECT_NE(game_error("tanbo-game 99\n").find("version"), std::string::npos);
  EXPECT_NE(game_error("tanbo-game 1\ncolour blue\nmoves\n").find("unknown header line"),
            std::string::npos);
  EXPECT_NE(game_error("tanbo-game 1\nmoves\n").find("no \"topology\""), std::string::npos);
  // A value given twice would silently take the second.
  EXPECT_NE(game_error("tanbo-game 1\ntopology grid 5x5\ntopology grid 7x7\nmoves\n")
                .find(":3: \"topology\" is given twice in the header"),
            std::string::npos);
  EXPECT_NE(game_error("tanbo-game 1\ntopology grid 5x5\nsetup spaced\nSetup dense\nmoves\n")
                .find("\"setup\" is given twice"),
            std::string::npos);
  EXPECT_NE(game_error("tanbo-game 1\ntopology grid 99999999999x9\nmoves\n").find("too large"),
            std::string::npos);
  EXPECT_NE(
      game_error("tanbo-game 1\ntopology grid 100000x100000\nmoves\n").find("would need about"),
      std::string::npos);
  EXPECT_NE(game_error("tanbo-game 1\ntopology grid 9x9\nplayers 12\nmoves\n").find("2 to 8"),
            std::string::npos);
  EXPECT_NE(game_error("tanbo-game 1\ntopology grid 9x9\nsetup nosuch\nmoves\n").find("nosuch"),
            std::string::npos);
  // A game file never reads a board from the disk: "file" boards are carried in "dot" lines,
  // whatever the case of the keyword.
  for (const char* kw : {"file", "FILE", "File"}) {
    const std::string msg =
        game_error(std::string("tanbo-game 1\ntopology ") + kw + " /etc/hostname\nmoves\n");
    EXPECT_NE(msg.find("must be carried in the file"), std::string::npos) << kw << ": " << msg;
  }
  // Seeds that the rules refuse.
  const std::string custom = "tanbo-game 1\ntopology line 9\nsetup custom\n";
  EXPECT_NE(game_error(custom + "seed black 1\nseed white 2\nmoves\n").find("bounded"),
            std::string::npos);
  EXPECT_NE(
      game_error(custom + "seed black 1\nseed black 2\nseed white 9\nmoves\n").find("adjacent"),
      std::string::npos);
  EXPECT_NE(game_error(custom + "seed mauve 1\nseed white 9\nmoves\n").find("not a player"),
            std::string::npos);
}

TEST(BadGameFile, CommandLineRefusalLeavesTheFileByteForByte) {
  const std::string path = tanbo::test::temp_file("cli.game", kGoodGame);
  const std::string bin = TANBO_BINARY;
  for (const std::string& args : {"move " + path + " E5", "move " + path + " B5 --as purple",
                                  "move " + path + " B5 --as white", "move " + path + " Z99",
                                  "move " + path + " B5 extra", "move " + path + " pass"}) {
    const auto r = tanbo::test::run_command(bin + " " + args, "");
    EXPECT_NE(r.status, 0) << args;
    EXPECT_FALSE(r.err.empty()) << args;
    EXPECT_EQ(tanbo::test::read_file(path), kGoodGame) << args;
  }
  // A damaged file is refused with its line, and left as it is.
  const std::string broken = std::string(kGoodGame) + "white B9\n";
  const std::string bad_path = tanbo::test::temp_file("broken.game", broken);
  const auto r = tanbo::test::run_command(bin + " move " + bad_path + " B5", "");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find(":11:"), std::string::npos) << r.err;
  EXPECT_EQ(tanbo::test::read_file(bad_path), broken);
}

TEST(BadSgf, MalformedRecordsGetSpecificMessages) {
  auto sgf_error = [](const std::string& text) {
    return tanbo::test::refusal_of([&] { tanbo::read_sgf(text, "bad.sgf"); });
  };
  EXPECT_NE(sgf_error("").find("bad.sgf"), std::string::npos);
  EXPECT_NE(sgf_error("(;GM[1]SZ[9]").find("missing"), std::string::npos);
  EXPECT_NE(sgf_error("(;GM[1]SZ[9]C[unterminated").find("unterminated"), std::string::npos);
  EXPECT_FALSE(sgf_error("(;GM[1]SZ[99999999999])").empty());
  EXPECT_FALSE(sgf_error("(;GM[1]SZ[0])").empty());
  EXPECT_FALSE(sgf_error(std::string("(;GM[1]\0SZ[9])", 14)).empty());
  // A move the rules refuse names the move.
  const std::string m = sgf_error("(;GM[1]SZ[9]AB[bh][hb]AW[hh][bb];B[ee])");
  EXPECT_NE(m.find("ee"), std::string::npos) << m;
  // Found by fuzz_sgf: a date holding ']' or '\\' was written back unescaped, so the exported
  // record could not be read again.
  const tanbo::Game g =
      tanbo::read_sgf("(;GM[1]SZ[9]DT[2026-11\\]21\\\\x]AB[bh][hb]AW[hh][bb])", "dt.sgf");
  const tanbo::Game again = tanbo::read_sgf(tanbo::write_sgf(g), "dt-again.sgf");
  EXPECT_EQ(again.date, g.date);  // not a date-time: written whole
  // Deep nesting is refused or read, never a stack overflow.
  std::string deep = "(;GM[1]SZ[9]AB[bh][hb]AW[hh][bb]";
  for (int i = 0; i < 100000; ++i) deep += "(;";
  EXPECT_NE(sgf_error(deep).find("nested more than 1000 deep"), std::string::npos);
}

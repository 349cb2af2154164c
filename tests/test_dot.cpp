// The DOT reader: the language as Graphviz reads it (node lists and subgraphs as ends of edges,
// named subgraphs opened again, scoped defaults, every kind of ID, comments, ports, strict), and
// input that would crash a recursive reader or fill the memory, refused with a reason.
#include <gtest/gtest.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "tanbo/core/error.hpp"
#include "tanbo/core/topology.hpp"
#include "tanbo/io/gamefile.hpp"
#include "test_support.hpp"

namespace tanbo {
namespace {

std::string error_of(const std::string& text, const TopologyLimits& limits = {}) {
  try {
    make_from_dot(text, "t.dot", limits);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The board's edges as "a-b" with the names sorted, so that tests read like the DOT.
std::set<std::string> edges_of(const std::string& text) {
  const auto t = make_from_dot(text, "t.dot");
  std::set<std::string> out;
  for (Vertex v = 0; v < t->num_vertices(); ++v) {
    for (Vertex u : t->graph.neighbours(v)) {
      if (t->node_ids[v] < t->node_ids[u]) out.insert(t->node_ids[v] + "-" + t->node_ids[u]);
    }
  }
  return out;
}

using Edges = std::set<std::string>;
using Ids = std::vector<std::string>;

TEST(Dot, SubgraphsAndNodeListsAsEndsOfEdges) {
  EXPECT_EQ(edges_of("graph { { a b } -- c }"), (Edges{"a-c", "b-c"}));
  EXPECT_EQ(edges_of("graph { a -- { b c } -- d }"), (Edges{"a-b", "a-c", "b-d", "c-d"}));
  EXPECT_EQ(edges_of("graph { subgraph s { x y } -- subgraph { z } ; q }"), (Edges{"x-z", "y-z"}));
  EXPECT_EQ(edges_of("graph { {a b} -- {c d} -- e }"),
            (Edges{"a-c", "a-d", "b-c", "b-d", "c-e", "d-e"}));
  // Edges inside the subgraph stay, and its nodes, nested ones too, are the end's nodes.
  EXPECT_EQ(edges_of("graph { { a -- b { c } } -- d }"), (Edges{"a-b", "a-d", "b-d", "c-d"}));
  EXPECT_EQ(edges_of("digraph { a -> { b c } }"), (Edges{"a-b", "a-c"}));
  // A node list (a, b) is an end too; an empty subgraph joins nothing.
  EXPECT_EQ(edges_of("graph { a, b -- c, d }"), (Edges{"a-c", "a-d", "b-c", "b-d"}));
  EXPECT_EQ(edges_of("graph { x -- a, b; a -- {} -- b }"), (Edges{"a-x", "b-x"}));
}

TEST(Dot, ANamedSubgraphOpenedAgainContinues) {
  // Graphviz finds a subgraph by name among its parent's subgraphs: s is one subgraph here...
  EXPECT_EQ(edges_of("graph { subgraph s { a } subgraph s { b } -- c }"), (Edges{"a-c", "b-c"}));
  // ...and two different ones here, inside two anonymous parents.
  EXPECT_EQ(edges_of("graph { { subgraph s { a } } { subgraph s { b } -- c } }"), (Edges{"b-c"}));
  // An edge takes the subgraph's nodes as they are when its statement ends.
  EXPECT_EQ(edges_of("graph { x -- subgraph s { b }; subgraph s { c } }"), (Edges{"b-x"}));
  // Its node defaults hold again when it is opened again.
  const auto t = make_from_dot(
      "graph { subgraph s { node [stone=2] a } subgraph s { b } c; a -- c -- b; c -- d -- e }",
      "t.dot");
  EXPECT_EQ(t->node_ids, (Ids{"a", "b", "c", "d", "e"}));
  EXPECT_EQ(t->file_stones, (std::vector<Player>{2, 2, 0, 0, 0}));
}

TEST(Dot, NodesAreNumberedInOrderOfFirstAppearance) {
  const auto t = make_from_dot("graph { x -- a -- y; { q } -- a; z }", "t.dot");
  EXPECT_EQ(t->node_ids, (Ids{"x", "a", "y", "q", "z"}));
}

TEST(Dot, NodeDefaultsHoldInTheirSubgraphFromThereOn) {
  const auto t = make_from_dot(
      "graph { a; { node [stone=2]; b; c [stone=1]; { g } } d; node [stone=1] e -- f; a -- b; "
      "b -- d; d -- e; c -- g }",
      "t.dot");
  EXPECT_EQ(t->node_ids, (Ids{"a", "b", "c", "g", "d", "e", "f"}));
  EXPECT_EQ(t->file_stones, (std::vector<Player>{0, 2, 1, 2, 0, 1, 1}));
  // A node keeps the stone it had; a later attribute list changes it, for every node of a list.
  const auto u = make_from_dot("graph { a; node [stone=1]; a; b; b [stone=2]; a -- b }", "t.dot");
  EXPECT_EQ(u->file_stones, (std::vector<Player>{0, 2}));
  const auto w = make_from_dot("graph { a, b [stone=1]; c [stone=2]; a -- c -- b }", "t.dot");
  EXPECT_EQ(w->file_stones, (std::vector<Player>{1, 1, 2}));
  // Attributes after an edge belong to the edge; a macro name (node m = [...]) is ignored.
  const auto x = make_from_dot("graph { node m = [stone=2]; a -- b [stone=1] }", "t.dot");
  EXPECT_EQ(x->file_stones, (std::vector<Player>{2, 2}));
}

TEST(Dot, QuotedAndHtmlIdsNumeralsAndPorts) {
  const auto t = make_from_dot(
      "graph { \"q\\\"1\" -- \"a\\\\\" -- \"jo\\\nined\" -- \"long\" + \"name\" -- \"node\" -- "
      "<b<i>x</i>> -- -2.5 -- .5 -- 1. -- é -- n:port:ne -- \"q\\\"1\":w }",
      "t.dot");
  EXPECT_EQ(t->node_ids, (Ids{"q\"1", "a\\\\", "joined", "longname", "node", "b<i>x</i>", "-2.5",
                              ".5", "1.", "é", "n"}));
  EXPECT_EQ(t->graph.num_edges(), 11u);
  // "n1", <n1> and n1 are one node; a number run into a name is two IDs, as Graphviz splits
  // it (here the edge n1 -- 2, then the node a).
  EXPECT_EQ(make_from_dot("graph { \"n1\" -- x; <n1> -- y; n1 -- z }", "t.dot")->node_ids,
            (Ids{"n1", "x", "y", "z"}));
  const auto u = make_from_dot("graph { n1 -- 2a }", "t.dot");
  EXPECT_EQ(u->node_ids, (Ids{"n1", "2", "a"}));
  EXPECT_EQ(u->graph.num_edges(), 1u);
}

TEST(Dot, CommentsKeywordsAndAttributeLists) {
  const auto t = make_from_dot(
      "\xEF\xBB\xBF/* a board */ strict GRAPH \"my board\" {\n"
      "# a line of preprocessor output\n"
      "  graph [players=2]; rankdir=LR  // comments are blanks\n"
      "  a -- b -- c # to the end of the line\n"
      "  c -- d [color=red, weight=2; style=bold][penwidth=3]\n"
      "  Node [pos=\"0,0\"] a [stone=1 pos=\"1,2\"] d [stone=white]; subgraph { players=5 }\n"
      "}",
      "t.dot");
  EXPECT_EQ(t->node_ids, (Ids{"a", "b", "c", "d"}));
  EXPECT_EQ(t->file_players, 2);  // a subgraph's players is its own, not the board's
  EXPECT_EQ(t->file_stones, (std::vector<Player>{kBlack, kEmpty, kEmpty, kWhite}));
  EXPECT_TRUE(t->positions.empty());  // b and c have no pos
  EXPECT_EQ(edges_of("DiGraph { A -> B; B -> A; EDGE [w=1] }"), (Edges{"A-B"}));
}

TEST(Dot, StrictGraphsMergeRepeatedEdgesOthersRefuseThem) {
  EXPECT_EQ(edges_of("strict graph { a -- b; b -- a; a -- b -- c }"), (Edges{"a-b", "b-c"}));
  EXPECT_EQ(edges_of("digraph { a -> b; b -> a; b -> c }"), (Edges{"a-b", "b-c"}));
  EXPECT_TRUE(has(error_of("graph { a -- b; c -- d; b -- a }"), "duplicate edge b -- a"));
  EXPECT_TRUE(has(error_of("graph { a, a -- b }"), "duplicate edge a -- b"));
  EXPECT_TRUE(has(error_of("graph { { a b } -- { a c } }"), "self-loop at node a"));
}

// GTP and its controllers read "pass" and "resign" as a pass and a resignation wherever a
// point is named, a game file reads "black resigns" as a resignation: a point so named could
// not be played, or would be read as a pass, so the board is refused, with the reason.
TEST(Dot, IdsThatTheProtocolReadsAsAPassOrAResignationAreRefused) {
  const std::string gtp = "cannot name a point: the engine protocol (GTP) reads ";
  EXPECT_EQ(error_of("graph { a [stone=1]; b [stone=2]; a -- pass -- b }"),
            "DOT board t.dot: node id \"pass\" " + gtp + "\"pass\", in any case, as a pass");
  EXPECT_EQ(error_of("graph { a [stone=1]; b [stone=2]; a -- \"PaSs\" -- b }"),
            "DOT board t.dot: node id \"PaSs\" " + gtp + "\"pass\", in any case, as a pass");
  EXPECT_EQ(
      error_of("graph { <Resign> [stone=1]; b [stone=2]; Resign -- b }"),
      "DOT board t.dot: node id \"Resign\" " + gtp + "\"resign\", in any case, as a resignation");
  EXPECT_EQ(error_of("graph { a [stone=1]; b [stone=2]; a -- RESIGNS -- b }"),
            "DOT board t.dot: node id \"RESIGNS\" cannot name a point: a game file reads "
            "\"COLOUR resigns\", in any case, as a resignation");
  // Words that hold them are names like any other.
  EXPECT_EQ(make_from_dot("graph { a [stone=1]; b [stone=2]; a -- passes -- pass2 -- "
                          "resigned -- _resign -- b }",
                          "t.dot")
                ->node_ids,
            (Ids{"a", "b", "passes", "pass2", "resigned", "_resign"}));
}

// Ids are UTF-8 text, as game files, the protocol and Python show them: other bytes are refused
// (a Latin-1 "né" made games whose names Python could not show, with empty error messages).
TEST(Dot, IdsThatAreNotUtf8AreRefused) {
  EXPECT_EQ(error_of("graph { n\xe9 [stone=1]; b [stone=2]; n\xe9 -- b }"),
            "DOT board t.dot: node id \"n\\xe9\" is not UTF-8 text");
  EXPECT_EQ(make_from_dot("graph { n\xc3\xa9 [stone=1]; b [stone=2]; n\xc3\xa9 -- b }", "t.dot")
                ->node_ids.front(),
            "n\u00e9");
  EXPECT_THROW(parse_topology("file \xff.dot", TopologyLimits{}), Error);
}

// A game file carries its DOT board in its `dot` lines: they are read by the same reader, so a
// board with a node `pass` is refused there too.
TEST(Dot, AGameFileWhoseBoardHasANodePassIsRefused) {
  const Game g =
      new_game("file " + std::string(TANBO_TEST_DATA) + "/render/wheel.dot", "default", 0, {});
  const std::string text = write_game(g);
  ASSERT_EQ(read_game(text, "w.tanbo").position.num_vertices(), 13u);
  std::string renamed = text;
  for (std::size_t at; (at = renamed.find("hub")) != std::string::npos;)
    renamed.replace(at, 3, "pass");
  try {
    read_game(renamed, "w.tanbo");
    ADD_FAILURE() << "a board with a node pass was read";
  } catch (const Error& e) {
    EXPECT_TRUE(has(e.what(), "node id \"pass\" cannot name a point")) << e.what();
  }
}

// The command line reads a DOT board with the same reader: refused, status 2, the reason.
TEST(Dot, TheCommandLineRefusesANodeNamedResign) {
  const auto dot = std::filesystem::temp_directory_path() / "tanbo_test_dot_resign.dot";
  std::ofstream(dot) << "graph { a [stone=1]; b [stone=2]; a -- resign -- b }\n";
  const auto game = std::filesystem::temp_directory_path() / "tanbo_test_dot_resign.tanbo";
  test::expect_refused(std::string(TANBO_BINARY) + " new " + game.string() + " --topology 'file " +
                           dot.string() + "'",
                       "node id \"resign\" cannot name a point: the engine protocol (GTP) "
                       "reads \"resign\", in any case, as a resignation");
  EXPECT_FALSE(std::filesystem::exists(game));
  std::filesystem::remove(dot);
}

TEST(Dot, BrokenTextIsRefusedWithTheLineAndAShortExcerpt) {
  EXPECT_EQ(error_of("graph {\n a -- b\n c -> d }"),
            "DOT board t.dot: not valid Graphviz DOT: line 3: '->' in a graph (use --), near "
            "\"-> d }\"");
  EXPECT_TRUE(has(error_of("digraph { a -- b }"), "line 1: '--' in a digraph (use ->)"));
  EXPECT_TRUE(has(error_of("graph { a -- b } }"), "text after the graph's closing '}'"));
  EXPECT_TRUE(has(error_of("graph { { a -- b }"), "the file ends before the graph's closing '}'"));
  EXPECT_TRUE(has(error_of("graph { a -- node }"), "not the keyword \"node\""));
  EXPECT_TRUE(has(error_of("graph { a:p:sw:x }"), "at most a port and a compass point"));
  EXPECT_TRUE(
      has(error_of("graph { /* one\n two\n three }"), "line 1: a /* comment is not closed"));
  EXPECT_TRUE(has(error_of("graph {\n\n \"open }"), "line 3: a quoted string is not closed"));
  for (const char* bad :
       {"graph { a -- b", "graph { a -- }", "graph { ] }", "graph { a [stone] }",
        "graph { a [, stone=1] }", "node { a }", "graph { a -- <b }", "graph { a : }",
        "graph x y { a }", "graph { a = }", "graph { \"a\" + b }", "graph { a -- - }",
        "graph { edge }", "strict strict graph { a }", "graph { a @ b }"}) {
    EXPECT_TRUE(has(error_of(bad), "not valid Graphviz DOT: line 1: "))
        << bad << ": " << error_of(bad);
  }
  // The excerpt is short and escaped, whatever follows on the line.
  const std::string m = error_of("graph { a -- b \x01" + std::string(1 << 20, 'x') + " }");
  EXPECT_TRUE(has(m, "unexpected character \"\\x01\", near \"\\x01xxx")) << m;
  EXPECT_LT(m.size(), 200u) << m;
}

TEST(Dot, DeepNestingIsRefusedNotACrash) {
  for (std::size_t depth : {20'000u, 1'000'000u}) {
    const std::string deep =
        "graph { " + std::string(depth, '{') + " a -- b " + std::string(depth, '}') + " }";
    EXPECT_TRUE(has(error_of(deep), "line 1: subgraphs nested more than 1000 deep")) << depth;
    EXPECT_TRUE(has(error_of("graph { " + std::string(depth, '{')), "nested")) << depth;
    std::string named = "graph { ";
    for (std::size_t i = 0; i < depth / 16; ++i) named += "subgraph s { x -- ";
    EXPECT_TRUE(has(error_of(named), "nested more than 1000 deep")) << depth;
  }
  // A thousand levels are fine, as ends of edges too.
  const std::string ok =
      "graph { " + std::string(999, '{') + " a -- b " + std::string(999, '}') + " -- c }";
  EXPECT_EQ(edges_of(ok), (Edges{"a-b", "a-c", "b-c"}));
}

// "... has N points ...": N from a memory refusal.
std::uint64_t points_in(const std::string& message) {
  const auto at = message.find(" has ");
  if (at == std::string::npos) return 0;
  return std::stoull(message.substr(at + 5));
}

TEST(Dot, TenMillionNodesAreRefusedByTheMemoryLimitWhileRead) {
  std::string text = "graph {\n";
  text.reserve(100'000'000);
  char number[16];
  for (int i = 0; i < 10'000'000; ++i) {
    text += 'n';
    text.append(number, std::to_chars(number, number + sizeof number, i).ptr);
    text += '\n';
  }
  text += "}\n";
  TopologyLimits limits;
  limits.memory_bytes = 256ull << 20;
  const std::string m = error_of(text, limits);
  EXPECT_TRUE(has(m, "would need about")) << m;
  EXPECT_TRUE(has(m, "the limit of 256 MB (the caller's limit)")) << m;
  // Refused while read: the check runs every 65,536 nodes, so the message counts a small part
  // of the file's ten million.
  EXPECT_GT(points_in(m), 0u) << m;
  EXPECT_LT(points_in(m), 2'500'000u) << m;
}

TEST(Dot, EdgesMadeBySubgraphsAreCountedWhileMade) {
  // Two subgraphs of 2,000 nodes joined: four million edges from 20 KB of text.
  std::string left, right;
  for (int i = 0; i < 2000; ++i) {
    left += " a" + std::to_string(i);
    right += " b" + std::to_string(i);
  }
  TopologyLimits limits;
  limits.memory_bytes = 32ull << 20;
  const std::string m = error_of("graph { {" + left + " } -- {" + right + " } }", limits);
  EXPECT_TRUE(has(m, "would need about")) << m;
  EXPECT_EQ(points_in(m), 4000u) << m;
  EXPECT_FALSE(has(m, "4000000 edges")) << m;
}

TEST(Dot, TheTextKeptWithTheBoardCounts) {
  // A board of two nodes in a file of 40 MB: the game keeps the text, so the text counts.
  const std::string text = "graph { a -- b /*" + std::string(40 << 20, ' ') + "*/ }";
  TopologyLimits limits;
  limits.memory_bytes = 32ull << 20;
  EXPECT_TRUE(has(error_of(text, limits), "would need about")) << error_of(text, limits);
  limits.memory_bytes = 256ull << 20;
  EXPECT_EQ(make_from_dot(text, "t.dot", limits)->num_vertices(), 2u);
}

}  // namespace
}  // namespace tanbo

// The DOT reader: the language as Graphviz reads it (subgraphs as ends of edges, scoped
// defaults, every kind of ID, comments, ports, strict), and input that would crash a recursive
// reader or fill the memory, refused with a reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "tanbo/error.hpp"
#include "tanbo/topology.hpp"

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

TEST(Dot, SubgraphsAsEndsOfEdges) {
  EXPECT_EQ(edges_of("graph { { a b } -- c }"), (std::set<std::string>{"a-c", "b-c"}));
  EXPECT_EQ(edges_of("graph { a -- { b c } -- d }"),
            (std::set<std::string>{"a-b", "a-c", "b-d", "c-d"}));
  EXPECT_EQ(edges_of("graph { subgraph s { x y } -- subgraph { z } ; q }"),
            (std::set<std::string>{"x-z", "y-z"}));
  // Edges inside the subgraph stay, and its nodes, nested ones too, are the end's nodes.
  EXPECT_EQ(edges_of("graph { { a -- b { c } } -- d }"),
            (std::set<std::string>{"a-b", "a-d", "b-d", "c-d"}));
  EXPECT_EQ(edges_of("digraph { a -> { b c } }"), (std::set<std::string>{"a-b", "a-c"}));
}

TEST(Dot, NodesAreNumberedInOrderOfFirstAppearance) {
  const auto t = make_from_dot("graph { x -- a -- y; { q } -- a; z }", "t.dot");
  EXPECT_EQ(t->node_ids, (std::vector<std::string>{"x", "a", "y", "q", "z"}));
}

TEST(Dot, NodeDefaultsHoldInTheirSubgraphFromThereOn) {
  const auto t = make_from_dot(
      "graph { a; { node [stone=2]; b; c [stone=1] } d; node [stone=1] e -- f; a -- b; "
      "b -- d; d -- e }",
      "t.dot");
  EXPECT_EQ(t->node_ids, (std::vector<std::string>{"a", "b", "c", "d", "e", "f"}));
  EXPECT_EQ(t->file_stones, (std::vector<Player>{0, 2, 1, 0, 1, 1}));
  // A node keeps the stone it had; a later attribute list changes it.
  const auto u = make_from_dot("graph { a; node [stone=1]; a; b; b [stone=2]; a -- b }", "t.dot");
  EXPECT_EQ(u->file_stones, (std::vector<Player>{0, 2}));
}

TEST(Dot, EveryKindOfIdCommentsPortsAndAttributes) {
  const auto t = make_from_dot(
      "/* a board */ strict GRAPH \"my board\" {\n"
      "# a line of preprocessor output\n"
      "  graph [players=2]; rankdir=LR  // comments are blanks\n"
      "  \"q\\\"1\" -- \"long\" + \"name\" -- <b<i>x</i>> -- -2.5 -- .5 -- é\n"
      "  n:port:ne -- \"q\\\"1\":w [color=red, weight=2; style=bold][penwidth=3]\n"
      "  n [stone=1 pos=\"1,2\"] é [stone=white] \n"
      "}",
      "t.dot");
  EXPECT_EQ(t->node_ids,
            (std::vector<std::string>{"q\"1", "longname", "b<i>x</i>", "-2.5", ".5", "é", "n"}));
  EXPECT_EQ(t->file_players, 2);
  EXPECT_EQ(t->file_stones[6], kBlack);
  EXPECT_EQ(t->file_stones[5], kWhite);
  EXPECT_EQ(t->graph.num_edges(), 6u);
}

TEST(Dot, StrictGraphsMergeRepeatedEdgesOthersRefuseThem) {
  EXPECT_EQ(edges_of("strict graph { a -- b; b -- a; a -- b -- c }"),
            (std::set<std::string>{"a-b", "b-c"}));
  EXPECT_NE(error_of("graph { a -- b; b -- a }").find("duplicate edge"), std::string::npos);
  EXPECT_NE(error_of("graph { { a b } -- { a c } }").find("self-loop at node a"),
            std::string::npos);
}

TEST(Dot, WrongEdgeOperatorsAndBrokenTextAreRefusedWithTheLine) {
  EXPECT_NE(error_of("graph {\n a -> b }").find("line 2: '->' in a graph (use --)"),
            std::string::npos);
  EXPECT_NE(error_of("digraph { a -- b }").find("'--' in a digraph (use ->)"), std::string::npos);
  for (const char* bad : {"graph { a -- b", "graph { a -- }", "graph { a -- b } }", "graph { ] }",
                          "graph { a [stone] }", "graph { \"open }", "graph { a /* open }",
                          "node { a }", "graph { { a } ", "graph { a -- <b }", "graph { a : }",
                          "graph x y { a }", "graph { a = }"}) {
    const std::string m = error_of(bad);
    EXPECT_NE(m.find("not valid Graphviz DOT: line "), std::string::npos) << bad << ": " << m;
  }
}

TEST(Dot, DeepNestingIsRefusedNotACrash) {
  for (std::size_t depth : {20'000u, 1'000'000u}) {
    const std::string open =
        "graph { " + std::string(depth, '{') + " a -- b " + std::string(depth, '}') + " }";
    EXPECT_NE(error_of(open).find("nested more than 1000 deep"), std::string::npos) << depth;
    EXPECT_NE(error_of("graph { " + std::string(depth, '{')).find("nested"), std::string::npos);
  }
  // A thousand levels are fine.
  const std::string ok =
      "graph { " + std::string(999, '{') + " a -- b " + std::string(999, '}') + " }";
  EXPECT_EQ(make_from_dot(ok, "t.dot")->num_vertices(), 2u);
}

TEST(Dot, AHugeGraphIsRefusedByTheMemoryLimitWhileItIsRead) {
  std::string text = "graph {\n";
  text.reserve(12'000'000);
  for (int i = 0; i < 1'000'000; ++i)
    text += "n" + std::to_string(i) + " -- m" + std::to_string(i) + "\n";
  text += "}\n";
  TopologyLimits limits;
  limits.memory_bytes = 16ull << 20;  // 16 MB: a million edges need far more
  const std::string m = error_of(text, limits);
  EXPECT_NE(m.find("would need about"), std::string::npos) << m;
  // Refused while read: the check runs every 65,536 nodes or edges, so the message counts far
  // fewer than the file's 2,000,000 nodes.
  const auto has = m.find(" has ");
  ASSERT_NE(has, std::string::npos) << m;
  EXPECT_LT(std::stoull(m.substr(has + 5)), 500'000u) << m;
}

}  // namespace
}  // namespace tanbo

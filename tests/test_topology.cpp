// Boards: lattice and hex generators, the topology spec parser and the DOT reader.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "tanbo/core/error.hpp"
#include "tanbo/core/topology.hpp"
#include "tanbo/platform/memory.hpp"
#include "test_support.hpp"

using namespace tanbo;

namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(accepted)";
}
std::string spec_error(const std::string& spec) {
  return error_of([&] { parse_topology(spec); });
}
std::string dot_error(const std::string& text) {
  return error_of([&] { make_from_dot(text, "t.dot"); });
}
bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// Expected edges of a lattice: per axis, one edge per neighbouring pair on each line along it.
std::uint64_t lattice_edges(const std::vector<std::uint32_t>& dims, bool wrap) {
  std::uint64_t n = 1, e = 0;
  for (auto d : dims) n *= d;
  for (auto d : dims) e += n / d * (wrap && d > 2 ? d : d - 1);
  return e;
}

}  // namespace

TEST(Topology, LatticeCountsInManyDimensions) {
  const std::vector<std::vector<std::uint32_t>> cases = {{19},
                                                         {31},
                                                         {1},
                                                         {2},
                                                         {19, 19},
                                                         {9, 9},
                                                         {13, 13},
                                                         {25, 25},
                                                         {7, 3},
                                                         {5, 5, 5},
                                                         {2, 3, 4},
                                                         {5, 5, 5, 5},
                                                         {3, 4, 5, 6},
                                                         {2, 2, 2, 2, 2},
                                                         {3, 3, 3, 3, 3, 3},
                                                         {2, 3, 2, 3, 2, 3, 2},
                                                         {2, 2, 2, 2, 2, 2, 2, 2},
                                                         {3, 3, 3, 3, 3, 3, 3, 3, 3},
                                                         {2, 2, 2, 2, 2, 2, 2, 2, 2, 2},
                                                         {3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3}};
  for (const auto& dims : cases) {
    for (bool wrap : {false, true}) {
      auto t = make_lattice(dims, wrap);
      std::uint64_t n = 1;
      for (auto d : dims) n *= d;
      EXPECT_EQ(t->num_vertices(), n) << t->spec;
      EXPECT_EQ(t->graph.num_edges(), lattice_edges(dims, wrap)) << t->spec;
      EXPECT_EQ(t->dimensions(), dims.size());
      EXPECT_EQ(t->kind, BoardKind::kLattice);
    }
  }
  // Named sizes.
  EXPECT_EQ(parse_topology("grid 19x19")->graph.num_edges(), 684u);
  EXPECT_EQ(parse_topology("grid 19x19 wrap")->graph.num_edges(), 722u);
  EXPECT_EQ(parse_topology("grid 5x5x5")->graph.num_edges(), 300u);
  EXPECT_EQ(parse_topology("grid 3x3x3x3x3x3x3x3x3x3x3")->num_vertices(), 177147u);
  EXPECT_EQ(parse_topology("grid 3x3x3x3x3x3x3x3x3x3x3")->graph.max_degree(), 22u);
}

TEST(Topology, LatticeNeighboursDifferByOneOnOneAxis) {
  for (const auto& [spec, wrap] :
       std::vector<std::pair<std::string, bool>>{{"grid 3x4x5", false},
                                                 {"grid 4x3x5 wrap", true},
                                                 {"grid 6x6 wrap", true},
                                                 {"line 9", false},
                                                 {"grid 2x3x2x3", false}}) {
    auto t = parse_topology(spec);
    EXPECT_EQ(t->wrap, wrap);
    for (Vertex v = 0; v < t->num_vertices(); ++v) {
      EXPECT_EQ(t->vertex_at(t->coords(v)), v);
      const auto c = t->coords(v);
      std::set<Vertex> want;
      for (std::size_t i = 0; i < c.size(); ++i) {
        const std::uint32_t d = t->dims[i];
        for (int step : {-1, 1}) {
          auto o = c;
          const std::int64_t x = static_cast<std::int64_t>(c[i]) + step;
          if (x >= 0 && x < d) {
            o[i] = static_cast<std::uint32_t>(x);
          } else if (wrap && d > 2) {
            o[i] = static_cast<std::uint32_t>((x + d) % d);
          } else {
            continue;
          }
          want.insert(t->vertex_at(o));
        }
      }
      const auto nb = t->graph.neighbours(v);
      EXPECT_EQ(std::set<Vertex>(nb.begin(), nb.end()), want) << spec << " " << t->name(v);
      EXPECT_TRUE(std::is_sorted(nb.begin(), nb.end()));
    }
  }
  // Axis 0 is x (columns), axis 1 is y (rows): vertex = x + 19 y.
  auto t = parse_topology("grid 19x19");
  EXPECT_EQ(t->vertex_at({3, 0}), 3u);
  EXPECT_EQ(t->vertex_at({0, 1}), 19u);
  EXPECT_EQ(t->vertex_at({19, 0}), kNoVertex);
  EXPECT_EQ(t->coords(360), (std::vector<std::uint32_t>{18, 18}));
}

TEST(Topology, HexBoards) {
  auto t = parse_topology("hex 5");
  EXPECT_EQ(t->kind, BoardKind::kHex);
  EXPECT_EQ(t->hex_side, 5u);
  EXPECT_EQ(t->num_vertices(), 61u);
  std::map<std::uint32_t, int> by_degree;
  for (Vertex v = 0; v < t->num_vertices(); ++v) ++by_degree[t->graph.degree(v)];
  // 6 corners with 3 neighbours, 18 other edge cells with 4, 37 inner cells with 6.
  EXPECT_EQ(by_degree, (std::map<std::uint32_t, int>{{3, 6}, {4, 18}, {6, 37}}));
  EXPECT_EQ(t->graph.num_edges(), (6u * 3 + 18 * 4 + 37 * 6) / 2);
  // Neighbours are the six axial directions, inside the hexagon.
  const int dirs[6][2] = {{1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}, {1, -1}};
  std::map<std::array<int, 2>, Vertex> at;
  for (Vertex v = 0; v < t->num_vertices(); ++v) at[t->hex_axial[v]] = v;
  for (Vertex v = 0; v < t->num_vertices(); ++v) {
    std::set<Vertex> want;
    for (const auto& d : dirs) {
      auto it = at.find({t->hex_axial[v][0] + d[0], t->hex_axial[v][1] + d[1]});
      if (it != at.end()) want.insert(it->second);
    }
    const auto nb = t->graph.neighbours(v);
    EXPECT_EQ(std::set<Vertex>(nb.begin(), nb.end()), want);
  }
  for (std::uint32_t n : {2u, 3u, 4u, 9u, 14u}) {
    auto h = make_hex(n);
    EXPECT_EQ(h->num_vertices(), 3 * n * (n - 1) + 1);
    EXPECT_EQ(h->spec, "hex " + std::to_string(n));
  }
  EXPECT_EQ(spec_error("hex 1"), "hex size must be at least 2");
  EXPECT_EQ(spec_error("hex 0"), "hex size must be at least 2");  // (not "at least 1")
  EXPECT_EQ(spec_error("hex"), "\"hex\" takes one size: hex N (e.g. hex 5)");
  EXPECT_EQ(spec_error("hex five"), "hex size \"five\" is not a whole number");
}

TEST(Topology, SpecParsing) {
  EXPECT_EQ(parse_topology("19x19")->spec, "grid 19x19");
  EXPECT_EQ(parse_topology("  GRID   5X5X5  ")->spec, "grid 5x5x5");
  EXPECT_EQ(parse_topology("line 31")->spec, "line 31");
  EXPECT_EQ(parse_topology("grid 31")->spec, "line 31");
  EXPECT_EQ(parse_topology("grid 9x9 torus")->spec, "grid 9x9 wrap");
  EXPECT_EQ(parse_topology("grid 9x9 WRAP")->spec, "grid 9x9 wrap");
  EXPECT_EQ(
      spec_error(""),
      "empty topology spec (try \"grid 19x19\", \"line 31\", \"hex 5\" or \"file board.dot\")");
  EXPECT_TRUE(contains(spec_error("square 19"), "unknown topology \"square 19\""));
  EXPECT_EQ(spec_error("grid 0x5"), "board size must be at least 1");
  EXPECT_EQ(spec_error("grid 19xx19"),
            "topology \"grid 19xx19\" has an empty size (sizes are joined by x: 9x9, 5x5x5)");
  EXPECT_EQ(spec_error("grid 19x-1"), "board size \"-1\" is not a whole number");
  EXPECT_EQ(spec_error("grid 99999999999"), "board size 99999999999 is too large");
  EXPECT_EQ(spec_error("line 3x3"), "\"line\" takes one size: line N");
  EXPECT_TRUE(contains(spec_error("grid 5x5 wrapp"), "unexpected \"wrapp\""));
  EXPECT_TRUE(contains(spec_error("grid"), "needs sizes"));
  EXPECT_EQ(spec_error("file"), "\"file\" needs a path: file PATH");
  EXPECT_EQ(spec_error("file /nonexistent/board.dot"),
            "DOT file \"/nonexistent/board.dot\": cannot open (No such file or directory)");
  // Too big for the machine: refused up front with the memory it would need.
  const std::string big =
      error_of([] { parse_topology("grid 100000x100000", {.memory_bytes = 1ull << 30}); });
  EXPECT_TRUE(contains(big, "10000000000 points")) << big;
  EXPECT_TRUE(contains(spec_error("grid 2000000x2000000x2000000"), "more than 2^40 points"));
}

// ---------------------------------------------------------------- DOT

TEST(TopologyDot, StonesPlayersAndPositions) {
  auto t = make_from_dot(R"(graph board {
      players = 3;
      a [stone=1, pos="0,0"];
      b [stone=white, pos="1,0!"];
      c [stone="Red", pos="2,0"];
      d [pos="0,1"];
      "e.f" [pos="1,1,2"];
      a -- b -- c -- d -- "e.f" -- a;
      b -- d;
    })",
                         "board.dot");
  EXPECT_EQ(t->kind, BoardKind::kFile);
  EXPECT_EQ(t->spec, "file board.dot");
  EXPECT_EQ(t->num_vertices(), 5u);
  EXPECT_EQ(t->graph.num_edges(), 6u);
  EXPECT_EQ(t->file_players, 3);
  EXPECT_EQ(t->node_ids, (std::vector<std::string>{"a", "b", "c", "d", "e.f"}));
  EXPECT_EQ(t->file_stones, (std::vector<Player>{1, 2, 3, 0, 0}));
  ASSERT_EQ(t->positions.size(), 5u);
  EXPECT_EQ(t->positions[1], (std::array<double, 3>{1, 0, 0}));
  EXPECT_EQ(t->positions[4], (std::array<double, 3>{1, 1, 2}));
  EXPECT_TRUE(t->graph.adjacent(1, 3));
  EXPECT_FALSE(t->graph.adjacent(0, 2));
  EXPECT_FALSE(t->dot_text.empty());
  // Without the players attribute the highest stone decides (at least 2); positions are
  // dropped unless every node has one.
  auto u =
      make_from_dot("graph { x [stone=black]; y; z [stone=2, pos=\"1,1\"]; x -- y -- z }", "u.dot");
  EXPECT_EQ(u->file_players, 2);
  EXPECT_TRUE(u->positions.empty());
}

TEST(TopologyDot, DigraphArcsBecomeUndirectedEdges) {
  for (const char* text :
       {"digraph { a -> b; b -> a; b -> c; c -> a; }",
        "// a comment\n/* another */ strict DiGraph g { a -> b; b -> a; b -> c; c -> a; }"}) {
    auto t = make_from_dot(text, "d.dot");
    EXPECT_EQ(t->num_vertices(), 3u);
    EXPECT_EQ(t->graph.num_edges(), 3u);  // a->b and b->a are one adjacency
    EXPECT_TRUE(t->graph.adjacent(0, 2));
  }
  // Arcs in an undirected graph, or edges in a digraph, are syntax errors.
  EXPECT_TRUE(contains(dot_error("graph { a -> b }"), "not valid Graphviz DOT"));
  EXPECT_TRUE(contains(dot_error("digraph { a -- b }"), "not valid Graphviz DOT"));
}

TEST(TopologyDot, ReadsAFileFromDisk) {
  const auto path = std::filesystem::temp_directory_path() / "tanbo_test_topology_board.dot";
  {
    std::ofstream out(path);
    out << "graph { 1 [stone=1]; 2; 3; 4 [stone=2]; 1 -- 2 -- 3 -- 4; }\n";
  }
  auto t = parse_topology("file " + path.string());
  EXPECT_EQ(t->spec, "file " + path.string());
  EXPECT_EQ(t->num_vertices(), 4u);
  // Any blank before and after the keyword, as the spec's words are split: a vertical tab
  // before "file" once left "e PATH" as the path to open.
  EXPECT_EQ(parse_topology("\v\ffile\v " + path.string() + "\f")->num_vertices(), 4u);
  std::filesystem::remove(path);
}

TEST(TopologyDot, BadFilesAreRefusedWithSpecificMessages) {
  EXPECT_EQ(dot_error("graph { a -- a; }"),
            "DOT board t.dot: self-loop at node a (a point cannot be its own neighbour)");
  EXPECT_EQ(dot_error("graph { a -- b; b -- a; }"), "DOT board t.dot: duplicate edge b -- a");
  EXPECT_TRUE(contains(dot_error("graph { a -- ; }"), "DOT board t.dot: not valid Graphviz DOT"));
  EXPECT_TRUE(contains(dot_error("this is not dot"), "DOT board t.dot: not valid Graphviz DOT"));
  EXPECT_EQ(dot_error(std::string("graph {\0\x01\x02 }", 12)),
            "DOT board t.dot: the file is binary, not Graphviz DOT text");
  EXPECT_EQ(dot_error(""),
            "DOT board t.dot: the file is empty (a DOT board looks like: graph { a -- b -- c })");
  EXPECT_EQ(dot_error(" \n\t\n"),
            "DOT board t.dot: the file is empty (a DOT board looks like: graph { a -- b -- c })");
  EXPECT_EQ(dot_error("graph {"),
            "DOT board t.dot: not valid Graphviz DOT: line 1: the file ends before the graph's "
            "closing '}'");
  EXPECT_EQ(dot_error("graph { }"), "DOT board t.dot: the graph has no nodes");
  // Node ids name points in moves, so they must be single words.
  EXPECT_EQ(dot_error("graph { \"e f\" -- g }"),
            "DOT board t.dot: node id \"e f\" cannot name a point: an id must be one word without "
            "spaces, control characters or '#'");
  EXPECT_EQ(
      dot_error("graph { a [stone=mauve]; a -- b }"),
      "DOT board t.dot: node a has stone=\"mauve\", which is not a player (a number 1..8 or a "
      "colour name)");
  EXPECT_EQ(dot_error("graph { players=2; a [stone=3]; a -- b }"),
            "DOT board t.dot: node a has a stone of player 3 but the graph says players=2");
  EXPECT_EQ(dot_error("graph { players=1; a -- b }"),
            "DOT board t.dot: graph attribute players=\"1\" must be a number from 2 to 8");
  EXPECT_EQ(dot_error("graph { players=many; a -- b }"),
            "DOT board t.dot: graph attribute players=\"many\" must be a number from 2 to 8");
}

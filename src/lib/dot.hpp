// The Graphviz DOT reader behind `file PATH` boards (private to the library; make_from_dot in
// topology.cpp builds the board from what it reads).
//
// It reads the DOT language as Graphviz does, as far as a board needs it: `strict`, `graph` or
// `digraph`, keywords in any case; identifiers, numerals, double-quoted strings (with \" and
// `+` concatenation) and HTML strings as IDs; comments (//, /* */, lines starting with #);
// node statements with attribute lists; `node [...]` defaults scoped to their subgraph;
// `graph [...]` and `ID = ID` graph attributes; ports (ignored); subgraphs named or anonymous;
// edge chains whose ends are nodes or subgraphs (`{ a b } -- c` joins a and b to c). Edge
// attributes and every attribute but `stone`, `pos` and the graph's `players` are ignored.
//
// It never recurses: subgraphs are kept on an explicit stack, at most kMaxDotNesting deep, so
// no input can exhaust the call stack.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tanbo::dot {

inline constexpr std::size_t kMaxDotNesting = 1000;  // subgraphs inside subgraphs

struct Node {
  std::string id;     // the node's name
  std::string stone;  // its `stone` attribute ("" when not given)
  std::string pos;    // its `pos` attribute ("" when not given)
};

struct DotGraph {
  bool directed = false;                                       // digraph
  bool strict = false;                                         // strict (repeated edges merged)
  std::vector<Node> nodes;                                     // in order of first appearance
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;  // as written, repeats included
  std::string players;                                         // the graph attribute `players`
};

// Reads DOT text. `on_growth(nodes, edges)` is called after every 65,536 nodes or edges read,
// so that the caller can refuse a graph too big for memory before it is all read (it throws to
// refuse). Throws tanbo::Error "line N: reason" when the text is not DOT.
DotGraph read_dot(std::string_view text,
                  const std::function<void(std::size_t, std::size_t)>& on_growth = {});

}  // namespace tanbo::dot

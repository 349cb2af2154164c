// The Graphviz DOT reader behind `file PATH` boards (private to the library; make_from_dot in
// topology.cpp builds the board from what it reads).
//
// It reads the DOT language as Graphviz's own parser does, as far as a board needs it:
// `strict`, `graph` or `digraph`, keywords in any case; identifiers, numerals, double-quoted
// strings (\" for a quote, backslash-newline joined, `+` concatenation) and HTML strings
// `<...>` as IDs; comments (//, /* */, # to the end of the line); node statements and node lists
// (`a, b [stone=1]`) with attribute lists; `node [...]` defaults scoped to their subgraph (a
// named subgraph opened again keeps its own); `graph [...]` and `ID = ID` graph attributes;
// ports (ignored); subgraphs named or anonymous; edge chains whose ends are node lists or
// subgraphs (`{ a b } -- c` joins a and b to c, with the subgraph's nodes as they are at the end
// of the statement, as Graphviz makes them). Edge attributes and every attribute but `stone`,
// `pos` and the root graph's `players` are ignored.
//
// It never recurses: open subgraphs are kept on an explicit stack, at most kMaxDotNesting deep,
// so no input can exhaust the call stack. Its memory is reported while it reads (Growth), so
// that the caller can refuse a graph too big for memory before it is all read.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tanbo::dot {

inline constexpr std::size_t kMaxDotNesting = 1000;  // subgraphs inside subgraphs

struct DotGraph {
  bool directed = false;  // digraph
  bool strict = false;    // strict (repeated edges merged)
  // The nodes in order of first appearance: ids, and their `stone` and `pos` attributes as
  // indices into `values` (0, the empty string, when not given).
  std::vector<std::string> ids;
  std::vector<std::uint32_t> stone_value, pos_value;
  std::vector<std::string> values{std::string()};
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;  // as made, repeats included
  std::string players;  // the root graph's attribute `players` ("" when not given)

  const std::string& stone(std::uint32_t v) const { return values[stone_value[v]]; }
  const std::string& pos(std::uint32_t v) const { return values[pos_value[v]]; }
};

// How far the reading has come: nodes and edges so far, and the bytes the reader holds (ids,
// attribute values, edge list, indexes and subgraph member lists).
struct Growth {
  std::uint64_t nodes = 0;
  std::uint64_t edges = 0;
  std::uint64_t bytes = 0;
};

// Reads DOT text. `on_growth` is called after every 65,536 nodes, edges or subgraph members
// stored, and once at the end; it throws to refuse the graph. Throws tanbo::Error
// "line N: reason, near "excerpt"" when the text is not DOT.
DotGraph read_dot(std::string_view text, const std::function<void(const Growth&)>& on_growth = {});

}  // namespace tanbo::dot

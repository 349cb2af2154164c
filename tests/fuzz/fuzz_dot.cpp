// libFuzzer target: the Graphviz DOT board reader (tanbo::make_from_dot).
//
// Any text must give a board or a tanbo::Error, never a crash, a hang or another exception.
// A board that is accepted must be a simple graph (no self-loop, no duplicate edge, sorted
// neighbour lists) and, when it carries a starting position the engine accepts, a short
// random game on it must keep check_consistency() clean and undo back to the start.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tanbo/core/error.hpp"
#include "tanbo/core/position.hpp"
#include "tanbo/core/random.hpp"
#include "tanbo/core/setup.hpp"
#include "tanbo/core/topology.hpp"

namespace {

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_dot: %s\n", what.c_str());
  std::abort();
}

void check_graph(const tanbo::Graph& g) {
  for (tanbo::Vertex v = 0; v < g.num_vertices(); ++v) {
    const auto nb = g.neighbours(v);
    for (std::size_t i = 0; i < nb.size(); ++i) {
      if (nb[i] >= g.num_vertices()) fail("neighbour out of range");
      if (nb[i] == v) fail("self-loop accepted");
      if (i && nb[i - 1] >= nb[i]) fail("neighbour list unsorted or duplicated");
      if (!g.adjacent(nb[i], v)) fail("edge not symmetric");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > (1u << 20)) return -1;  // inputs up to 1 MB (scripts/test.sh: -max_len)
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  tanbo::TopologyLimits limits;
  limits.memory_bytes = 64ull << 20;
  tanbo::TopologyPtr topo;
  try {
    topo = tanbo::make_from_dot(text, "fuzz.dot", limits);
  } catch (const tanbo::Error& e) {
    if (std::string_view(e.what()).empty()) fail("empty error message");
    return 0;
  }
  check_graph(topo->graph);
  if (topo->node_ids.size() != topo->num_vertices()) fail("node id count differs");
  if (topo->file_stones.size() != topo->num_vertices()) fail("stone count differs");
  // Every node id names its own vertex (looking a name up takes time linear in the board, so at
  // most 100 of them, spread over it, on the large boards of 1 MB inputs).
  const tanbo::Vertex step = std::max<tanbo::Vertex>(1, topo->num_vertices() / 100);
  for (tanbo::Vertex v = 0; v < topo->num_vertices(); v += step) {
    auto back = topo->parse_vertex(topo->name(v));
    if (!back || *back != v) fail("node id \"" + topo->name(v) + "\" does not name its node");
  }
  try {
    const tanbo::Setup setup = tanbo::make_setup(*topo);
    tanbo::Position pos(topo, setup);
    const std::uint64_t start_hash = pos.hash();
    tanbo::Rng rng(size);
    int moves = 0;
    for (; moves < 64 && !pos.is_over(); ++moves) {
      pos.play(tanbo::random_move(pos, rng));
      const std::string bad = pos.check_consistency();
      if (!bad.empty()) fail("inconsistent after a move: " + bad);
    }
    for (; moves > 0; --moves) pos.undo();
    if (pos.hash() != start_hash || !pos.check_consistency().empty())
      fail("undo did not restore the start");
  } catch (const tanbo::Error& e) {
    if (std::string_view(e.what()).empty()) fail("empty error message");
  }
  return 0;
}

#include "tanbo/core/graph.hpp"

#include <algorithm>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <string>

#include "tanbo/core/error.hpp"

namespace tanbo {

namespace {
using Csr =
    boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, boost::no_property,
                                       boost::no_property, std::uint32_t, std::uint32_t>;
}  // namespace

Graph Graph::from_edges(std::uint32_t n, const std::vector<std::pair<Vertex, Vertex>>& edges,
                        Duplicates duplicates) {
  if (edges.size() > 0x7FFFFFFFull) throw Error("graph has too many edges (more than 2^31)");
  // Both directions of each edge are pushed by hand: Boost 1.74's copy from an undirected
  // adjacency_list is avoided on purpose.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> arcs;
  arcs.reserve(edges.size() * 2);
  for (const auto& [a, b] : edges) {
    if (a >= n || b >= n) {
      throw Error("edge " + std::to_string(a) + "-" + std::to_string(b) +
                  " names a vertex out of range (the graph has " + std::to_string(n) +
                  " vertices)");
    }
    if (a == b) throw Error("self-loop at vertex " + std::to_string(a));
    arcs.emplace_back(a, b);
    arcs.emplace_back(b, a);
  }
  Csr csr(boost::edges_are_unsorted_multi_pass, arcs.begin(), arcs.end(), n);
  arcs.clear();
  arcs.shrink_to_fit();

  Graph g;
  g.n_ = n;
  g.off_.assign(static_cast<std::size_t>(n) + 1, 0);
  g.nbr_.reserve(edges.size() * 2);
  for (std::uint32_t v = 0; v < n; ++v) {
    std::size_t first = g.nbr_.size();
    auto [it, end] = boost::adjacent_vertices(v, csr);
    for (; it != end; ++it) g.nbr_.push_back(*it);
    auto row_begin = g.nbr_.begin() + static_cast<std::ptrdiff_t>(first);
    std::sort(row_begin, g.nbr_.end());
    auto dup = std::adjacent_find(row_begin, g.nbr_.end());
    if (dup != g.nbr_.end()) {
      if (duplicates == Duplicates::kRefuse) {
        throw Error("duplicate edge " + std::to_string(v) + "-" + std::to_string(*dup));
      }
      g.nbr_.erase(std::unique(row_begin, g.nbr_.end()), g.nbr_.end());
    }
    g.off_[v + 1] = static_cast<std::uint32_t>(g.nbr_.size());
    if (g.off_[v + 1] - g.off_[v] > kMaxDegree) {
      throw Error("vertex " + std::to_string(v) + " has " +
                  std::to_string(g.off_[v + 1] - g.off_[v]) + " neighbours; at most " +
                  std::to_string(kMaxDegree) + " are supported");
    }
    g.max_degree_ = std::max(g.max_degree_, g.off_[v + 1] - g.off_[v]);
  }
  g.nbr_.shrink_to_fit();
  return g;
}

bool Graph::adjacent(Vertex a, Vertex b) const {
  auto nb = neighbours(a);
  return std::binary_search(nb.begin(), nb.end(), b);
}

}  // namespace tanbo

// The frozen board graph: compressed sparse rows (offsets plus neighbour ids, 32-bit).
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace tanbo {

using Vertex = std::uint32_t;                       // a point of the board, 0..n-1
inline constexpr Vertex kNoVertex = 0xFFFFFFFFu;    // "no vertex"
inline constexpr std::uint32_t kMaxDegree = 65535;  // most neighbours a point may have

// An undirected simple graph frozen into flat arrays. Neighbour lists are sorted.
// Built once (by a topology generator or the DOT reader) and never changed afterwards.
class Graph {
 public:
  Graph() = default;

  // How duplicate edges are treated by from_edges.
  enum class Duplicates { kRefuse, kMerge };

  // Builds the graph on n vertices from undirected edges {a, b}. Throws tanbo::Error for an
  // endpoint out of range, a self-loop, a vertex with more than kMaxDegree neighbours, or
  // (with kRefuse) an edge given twice; kMerge keeps one.
  // The freezing goes through Boost.Graph's compressed_sparse_row_graph.
  static Graph from_edges(std::uint32_t n, const std::vector<std::pair<Vertex, Vertex>>& edges,
                          Duplicates duplicates = Duplicates::kRefuse);

  std::uint32_t num_vertices() const { return n_; }                       // number of points
  std::uint64_t num_edges() const { return nbr_.size() / 2; }             // undirected edges
  std::uint32_t degree(Vertex v) const { return off_[v + 1] - off_[v]; }  // neighbour count
  std::uint32_t max_degree() const { return max_degree_; }                // largest degree
  // The sorted neighbours of v.
  std::span<const Vertex> neighbours(Vertex v) const {
    return {nbr_.data() + off_[v], nbr_.data() + off_[v + 1]};
  }
  bool adjacent(Vertex a, Vertex b) const;  // true when {a, b} is an edge (binary search)

  const std::vector<std::uint32_t>& offsets() const { return off_; }  // CSR row starts, n+1
  const std::vector<Vertex>& targets() const { return nbr_; }         // CSR column ids

 private:
  std::uint32_t n_ = 0;
  std::uint32_t max_degree_ = 0;
  std::vector<std::uint32_t> off_{0};
  std::vector<Vertex> nbr_;
};

}  // namespace tanbo

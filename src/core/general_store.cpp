#include "general_store.hpp"

#include <cstring>

namespace tanbo::detail {

namespace {

constexpr std::uint32_t kBigBoard = 1u << 15;  // more points: entries leave the nearer caches

}  // namespace

GeneralStore::GeneralStore(const Topology& t, int players) {
  const Graph& g = t.graph;
  n_ = g.num_vertices();
  max_degree_ = g.max_degree();
  const std::uint32_t* off = g.offsets().data();
  View& w = view_;
  w.nbr_ = g.targets().data();
  const bool big_lattice = n_ > kBigBoard && t.kind == BoardKind::kLattice;
  w.lattice_nbrs_ = big_lattice && !t.wrap && 2 * t.dims.size() <= kMaxLatticeDirections;
  w.inline_nbrs_ = !w.lattice_nbrs_ && n_ > kBigBoard && max_degree_ <= 8;
  w.nb_offset_ = static_cast<std::uint32_t>(sizeof(Cell) + sizeof(Slot) * players);
  const std::size_t entry = w.nb_offset_ + (w.inline_nbrs_ ? sizeof(Vertex) * max_degree_ : 0);
  w.stride_ = (entry + 7) / 8 * 8;
  // Lattices: how much the vertex id changes along each axis.
  std::vector<std::uint32_t> axis_step(t.dims.size(), 1);
  for (std::size_t a = 1; a < t.dims.size(); ++a) axis_step[a] = axis_step[a - 1] * t.dims[a - 1];
  if (w.lattice_nbrs_) {
    for (std::size_t a = 0; a < t.dims.size(); ++a) {
      direction_step_[2 * a] = axis_step[a];           // coordinate a + 1
      direction_step_[2 * a + 1] = 0u - axis_step[a];  // coordinate a - 1 (wraps in 32 bits)
    }
  }
  if (big_lattice) {
    for (std::uint32_t step : axis_step) {
      const auto bytes = static_cast<std::ptrdiff_t>(w.stride_ * step);
      prefetch_.push_back(bytes);
      prefetch_.push_back(-bytes);
    }
  }
  cells_.assign(w.stride_ * n_, std::byte{0});
  point_view_here();
  for (Vertex v = 0; v < n_; ++v) {
    Cell& c = w.cell(v);
    c.root = kNoRoot;
    c.next = kNoVertex;
    c.first = off[v];
    c.degree = static_cast<std::uint16_t>(off[v + 1] - off[v]);
    c.color = kEmpty;
    if (w.lattice_nbrs_) {
      std::uint32_t mask = 0;
      for (std::size_t a = 0; a < t.dims.size(); ++a) {
        const std::uint32_t x = v / axis_step[a] % t.dims[a];
        mask |= std::uint32_t{x + 1 < t.dims[a]} << (2 * a);
        mask |= std::uint32_t{x > 0} << (2 * a + 1);
      }
      c.first = mask;
    }
    if (w.inline_nbrs_) {
      std::memcpy(cells_.data() + v * w.stride_ + w.nb_offset_, w.nbr_ + off[v],
                  sizeof(Vertex) * (off[v + 1] - off[v]));
    }
  }
}

GeneralStore& GeneralStore::operator=(const GeneralStore& other) {
  n_ = other.n_;
  max_degree_ = other.max_degree_;
  view_ = other.view_;
  direction_step_ = other.direction_step_;
  prefetch_ = other.prefetch_;
  cells_ = other.cells_;  // keeps this buffer when it is big enough
  point_view_here();
  return *this;
}

GeneralStore& GeneralStore::operator=(GeneralStore&& other) noexcept {
  n_ = other.n_;
  max_degree_ = other.max_degree_;
  view_ = other.view_;
  direction_step_ = other.direction_step_;
  prefetch_ = std::move(other.prefetch_);
  cells_ = std::move(other.cells_);
  point_view_here();
  return *this;
}

void GeneralStore::point_view_here() {
  view_.base_ = cells_.data();
  view_.direction_step_ = direction_step_.data();
  view_.prefetch_begin_ = prefetch_.data();
  view_.prefetch_end_ = prefetch_.data() + prefetch_.size();
}

// The occupied marks, and the counts and XORs that occupied points keep (those of empty points
// are the rules' to check).
std::string GeneralStore::check(const Graph& graph, int players) const {
  for (Vertex v = 0; v < n_; ++v) {
    const bool occupied = view_.color(v) != kEmpty;
    for (int q = 0; q < players; ++q) {
      const Slot& s = view_.slots(v)[q];
      if (((s.bits & Slot::kOccupied) != 0) != occupied) {
        return "the occupied mark of point " + std::to_string(v) + " is wrong";
      }
      if (!occupied) continue;
      std::uint32_t count = 0;
      RootId xr = 0;
      for (Vertex u : graph.neighbours(v)) {
        if (view_.color(u) == q + 1) {
          ++count;
          xr ^= view_.root(u);
        }
      }
      if (s.count() != count || static_cast<RootId>(s.bits >> 32) != xr) {
        return "the neighbour count of the stone on point " + std::to_string(v) + " is wrong";
      }
    }
  }
  return "";
}

}  // namespace tanbo::detail

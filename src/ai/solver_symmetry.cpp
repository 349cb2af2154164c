// The symmetries of a board, for the solver's canonical hash (see solver.hpp).
#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

#include "tanbo/ai/solver.hpp"

namespace tanbo {

bool is_automorphism(const Graph& graph, const std::vector<Vertex>& perm) {
  const std::uint32_t n = graph.num_vertices();
  if (perm.size() != n) return false;
  std::vector<char> seen(n, 0);
  for (Vertex v : perm) {
    if (v >= n || seen[v]) return false;
    seen[v] = 1;
  }
  for (Vertex v = 0; v < n; ++v) {
    if (graph.degree(perm[v]) != graph.degree(v)) return false;
    for (Vertex u : graph.neighbours(v)) {
      if (!graph.adjacent(perm[v], perm[u])) return false;
    }
  }
  return true;
}

namespace {

using Perm = std::vector<Vertex>;

// Lattices: axis permutations between axes of equal size, times reflections of any axes.
std::vector<Perm> lattice_symmetries(const Topology& topo, std::size_t cap) {
  const std::size_t d = topo.dims.size();
  const std::uint32_t n = topo.num_vertices();
  std::vector<std::vector<std::uint32_t>> coords(n);
  for (Vertex v = 0; v < n; ++v) coords[v] = topo.coords(v);
  std::vector<Perm> out;
  std::vector<std::size_t> axes(d);
  std::iota(axes.begin(), axes.end(), 0);
  const std::uint64_t masks = d >= 20 ? (std::uint64_t{1} << 20) : (std::uint64_t{1} << d);
  do {
    bool fits = true;
    for (std::size_t i = 0; i < d; ++i) fits = fits && topo.dims[axes[i]] == topo.dims[i];
    if (!fits) continue;
    for (std::uint64_t mask = 0; mask < masks && out.size() < cap; ++mask) {
      Perm perm(n);
      std::vector<std::uint32_t> image(d);
      for (Vertex v = 0; v < n; ++v) {
        for (std::size_t i = 0; i < d; ++i) {
          const std::uint32_t c = coords[v][i];
          image[axes[i]] = (mask >> i) & 1u ? topo.dims[i] - 1 - c : c;
        }
        perm[v] = topo.vertex_at(image);
      }
      out.push_back(std::move(perm));
    }
  } while (out.size() < cap && std::next_permutation(axes.begin(), axes.end()));
  return out;
}

// Hex boards: the 6 rotations of the hexagon and their mirror images, in cube coordinates
// (x, y, z) = (q, -q-r, r): a rotation is (x, y, z) -> (-z, -x, -y), a reflection swaps y, z.
std::vector<Perm> hex_symmetries(const Topology& topo, std::size_t cap) {
  const std::uint32_t n = topo.num_vertices();
  std::map<std::pair<int, int>, Vertex> at;
  for (Vertex v = 0; v < n; ++v) at[{topo.hex_axial[v][0], topo.hex_axial[v][1]}] = v;
  std::vector<Perm> out;
  for (int mirror = 0; mirror < 2; ++mirror) {
    for (int turns = 0; turns < 6 && out.size() < cap; ++turns) {
      Perm perm(n);
      bool ok = true;
      for (Vertex v = 0; v < n && ok; ++v) {
        int x = topo.hex_axial[v][0], z = topo.hex_axial[v][1], y = -x - z;
        if (mirror) std::swap(y, z);
        for (int t = 0; t < turns; ++t) {
          const int nx = -z, ny = -x, nz = -y;
          x = nx, y = ny, z = nz;
        }
        const auto it = at.find({x, z});
        ok = it != at.end();
        if (ok) perm[v] = it->second;
      }
      if (ok) out.push_back(std::move(perm));
    }
  }
  return out;
}

// Any graph: automorphisms by backtracking over the vertices in breadth-first order (each
// vertex after the first of its component must map next to its parent's image), pruned by
// degrees and adjacency to the vertices already mapped, within a budget of steps.
class AutomorphismSearch {
 public:
  AutomorphismSearch(const Graph& g, std::size_t cap) : g_(g), cap_(cap) {
    const std::uint32_t n = g.num_vertices();
    signature_.resize(n);
    for (Vertex v = 0; v < n; ++v) {
      std::vector<std::uint32_t> degrees;
      for (Vertex u : g.neighbours(v)) degrees.push_back(g.degree(u));
      std::sort(degrees.begin(), degrees.end());
      std::uint64_t h = g.degree(v) * 0x9E3779B97F4A7C15ull;
      for (std::uint32_t d : degrees) h = (h ^ d) * 0xBF58476D1CE4E5B9ull;
      signature_[v] = h;
    }
    order_breadth_first();
    image_.assign(n, kNoVertex);
    used_.assign(n, 0);
  }

  std::vector<Perm> run() {
    extend(0);
    return found_;
  }

 private:
  void order_breadth_first() {
    const std::uint32_t n = g_.num_vertices();
    std::vector<char> seen(n, 0);
    parent_.assign(n, kNoVertex);
    for (Vertex s = 0; s < n; ++s) {
      if (seen[s]) continue;
      seen[s] = 1;
      std::size_t head = order_.size();
      order_.push_back(s);
      while (head < order_.size()) {
        const Vertex v = order_[head++];
        for (Vertex u : g_.neighbours(v)) {
          if (!seen[u]) seen[u] = 1, parent_[u] = v, order_.push_back(u);
        }
      }
    }
  }

  // w can be v's image: same signature, unused, and v's mapped neighbours map exactly onto
  // w's neighbours that are images already (O(degree)).
  bool consistent(Vertex v, Vertex w) const {
    if (used_[w] || signature_[v] != signature_[w]) return false;
    std::uint32_t mapped = 0, images = 0;
    for (Vertex u : g_.neighbours(v)) {
      if (image_[u] == kNoVertex) continue;
      if (!g_.adjacent(image_[u], w)) return false;
      ++mapped;
    }
    for (Vertex x : g_.neighbours(w)) images += used_[x];
    return mapped == images;
  }

  void extend(std::size_t k) {
    if (found_.size() >= cap_ || ++steps_ > kBudget) return;
    if (k == order_.size()) {
      found_.push_back(image_);
      return;
    }
    const Vertex v = order_[k];
    auto try_image = [&](Vertex w) {
      if (!consistent(v, w)) return;
      image_[v] = w, used_[w] = 1;
      extend(k + 1);
      image_[v] = kNoVertex, used_[w] = 0;
    };
    // The identity is tried first, so that it is the first automorphism found.
    if (parent_[v] != kNoVertex) {
      const Vertex pw = image_[parent_[v]];
      if (g_.adjacent(pw, v)) try_image(v);
      for (Vertex w : g_.neighbours(pw)) {
        if (w != v && found_.size() < cap_) try_image(w);
      }
    } else {
      try_image(v);
      for (Vertex w = 0; w < g_.num_vertices() && found_.size() < cap_; ++w) {
        if (w != v) try_image(w);
      }
    }
  }

  static constexpr std::uint64_t kBudget = 200000;
  const Graph& g_;
  std::size_t cap_;
  std::vector<std::uint64_t> signature_;
  std::vector<Vertex> order_, parent_, image_;
  std::vector<char> used_;
  std::vector<Perm> found_;
  std::uint64_t steps_ = 0;
};

}  // namespace

std::vector<std::vector<Vertex>> board_symmetries(const Topology& topo, std::size_t cap) {
  const std::uint32_t n = topo.num_vertices();
  Perm identity(n);
  std::iota(identity.begin(), identity.end(), 0);
  std::vector<Perm> candidates;
  if (cap > 1) {
    if (topo.kind == BoardKind::kLattice && !topo.dims.empty()) {
      candidates = lattice_symmetries(topo, cap);
    } else if (topo.kind == BoardKind::kHex && topo.hex_axial.size() == n) {
      candidates = hex_symmetries(topo, cap);
    } else if (n <= 4096) {
      candidates = AutomorphismSearch(topo.graph, cap).run();
    }
  }
  // The identity first, then every other automorphism once.
  std::vector<Perm> out{identity};
  for (Perm& p : candidates) {
    if (out.size() >= std::max<std::size_t>(cap, 1)) break;
    if (p == identity || !is_automorphism(topo.graph, p)) continue;
    if (std::find(out.begin(), out.end(), p) != out.end()) continue;
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace tanbo

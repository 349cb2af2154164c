#include "layout.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/fruchterman_reingold.hpp>
// Boost's Johnson all-pairs code (inside Kamada-Kawai) trips g++ 12's -Wmaybe-uninitialized
// (a warning clang does not have).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <boost/graph/kamada_kawai_spring_layout.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#include <boost/graph/random_layout.hpp>
#include <boost/graph/topology.hpp>
#include <boost/random/linear_congruential.hpp>
#include <cctype>
#include <cmath>
#include <limits>

#include "tanbo/core/error.hpp"
#include "tanbo/core/numbers.hpp"
#include "tanbo/core/text.hpp"

namespace tanbo::viz {

namespace {

constexpr std::uint32_t kUnset = std::numeric_limits<std::uint32_t>::max();

// Layout options are trimmed of every ASCII blank, vertical tab and form feed included.
std::string trim(std::string_view s) {
  return tanbo::trim(s, " \t\n\v\f\r");
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = s.find(sep, start);
    out.push_back(trim(s.substr(start, at == std::string_view::npos ? s.npos : at - start)));
    if (at == std::string_view::npos) break;
    start = at + 1;
  }
  return out;
}

std::string valid_axes(std::size_t dims) {
  std::string s;
  for (std::size_t i = 0; i < dims; ++i) s += (i ? ", " : "") + axis_name(static_cast<int>(i));
  return s;
}

void require_lattice(const Topology& topo, const char* what) {
  if (topo.kind != BoardKind::kLattice) {
    throw Error(std::string(what) + " applies to lattices only; \"" + topo.spec +
                "\" is drawn as a whole");
  }
}

// Scales points so that the median edge is one unit long and centres them on the origin.
void normalise_scale(const Graph& g, std::vector<std::array<double, 3>>& pts) {
  if (pts.empty()) return;
  std::vector<double> lengths;
  for (Vertex v = 0; v < g.num_vertices(); ++v) {
    for (Vertex w : g.neighbours(v)) {
      if (w <= v) continue;
      double d2 = 0;
      for (int k = 0; k < 3; ++k) d2 += (pts[v][k] - pts[w][k]) * (pts[v][k] - pts[w][k]);
      if (d2 > 0) lengths.push_back(std::sqrt(d2));
    }
  }
  double scale = 1;
  if (!lengths.empty()) {
    std::nth_element(lengths.begin(), lengths.begin() + lengths.size() / 2, lengths.end());
    scale = 1.0 / lengths[lengths.size() / 2];
  }
  std::array<double, 3> centre{0, 0, 0};
  for (const auto& p : pts)
    for (int k = 0; k < 3; ++k) centre[k] += p[k] / static_cast<double>(pts.size());
  for (auto& p : pts)
    for (int k = 0; k < 3; ++k) p[k] = (p[k] - centre[k]) * scale;
}

// Above this many points a force layout (all pairs repel: O(n^2) a step) would take minutes
// to hours, and a million points never end: such graphs are laid out by graph distances.
constexpr std::uint32_t kMostForcePoints = 3000;

// Distances (in edges) from `from` to every point of its component (others: kUnset).
void bfs_distances(const Graph& g, Vertex from, std::vector<std::uint32_t>& dist,
                   std::vector<Vertex>& queue) {
  queue.clear();
  queue.push_back(from);
  dist[from] = 0;
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const Vertex v = queue[i];
    for (Vertex w : g.neighbours(v)) {
      if (dist[w] != kUnset) continue;
      dist[w] = dist[v] + 1;
      queue.push_back(w);
    }
  }
}

// A layout in time and memory proportional to the graph: in each component, a point's
// coordinates come from its graph distances to three pivots far apart (a point far from the
// component's first, the point farthest from that one, and the point farthest from both), a
// seeded jitter keeping points with the same distances apart; the components stand side by
// side in rows.
std::vector<std::array<double, 3>> distance_layout(const Graph& g, unsigned seed) {
  const std::uint32_t n = g.num_vertices();
  std::vector<std::array<double, 3>> out(n, {0, 0, 0});
  std::vector<std::uint32_t> d0(n, kUnset), d1(n, kUnset), d2(n, kUnset);
  std::vector<Vertex> queue, members;
  boost::minstd_rand gen(seed);
  const auto jitter = [&] { return (static_cast<double>(gen() % 1000) / 1000.0 - 0.5) * 0.3; };
  const double row_width = std::max(8.0, std::sqrt(static_cast<double>(n)) * 2.0);
  double x = 0, y = 0, row_height = 0;
  for (Vertex start = 0; start < n; ++start) {
    if (d0[start] != kUnset) continue;
    bfs_distances(g, start, d0, queue);
    members = queue;
    const auto farthest = [&](const std::vector<std::uint32_t>& d) {
      return *std::max_element(members.begin(), members.end(),
                               [&](Vertex a, Vertex b) { return d[a] < d[b]; });
    };
    const Vertex a = farthest(d0);
    for (Vertex v : members) d0[v] = kUnset;
    bfs_distances(g, a, d0, queue);
    const Vertex b = farthest(d0);
    bfs_distances(g, b, d1, queue);
    const Vertex c = *std::max_element(members.begin(), members.end(), [&](Vertex p, Vertex q) {
      return std::min(d0[p], d1[p]) < std::min(d0[q], d1[q]);
    });
    bfs_distances(g, c, d2, queue);
    double lo = 0, hi = 0, height = 0;
    for (Vertex v : members) {
      // (d0 - d1, d0 + d1): a path lies along the first axis, not on a diagonal
      const double q = 0.5 * (static_cast<double>(d0[v]) - d1[v]), p = 0.5 * (d0[v] + d1[v]);
      out[v] = {q, p, static_cast<double>(d2[v])};
      lo = std::min(lo, q);
      hi = std::max(hi, q);
      height = std::max(height, p);
    }
    const double width = hi - lo;
    if (x > 0 && x + width > row_width) {
      x = 0;
      y += row_height + 2;
      row_height = 0;
    }
    for (Vertex v : members) {
      out[v][0] += x - lo + jitter();
      out[v][1] += y + jitter();
      out[v][2] += jitter();
    }
    x += width + 2;
    row_height = std::max(row_height, height);
  }
  return out;
}

}  // namespace

std::string axis_name(int axis) {
  static const char* kNames[] = {"x", "y", "z", "w"};
  if (axis >= 0 && axis < 4) return kNames[axis];
  return "a" + std::to_string(axis + 1);
}

int parse_axis(std::string_view text, std::size_t dims) {
  const std::string t = to_lower(trim(text));
  int axis = -1;
  if (t.size() == 1 && std::string_view("xyzw").find(t[0]) != std::string_view::npos) {
    axis = static_cast<int>(std::string_view("xyzw").find(t[0]));
  } else {
    std::string digits = t;
    if (!digits.empty() && digits[0] == 'a') digits.erase(0, 1);
    if (const auto n = parse_whole(digits, 99999)) axis = static_cast<int>(*n) - 1;
  }
  if (axis < 0 || static_cast<std::size_t>(axis) >= dims) {
    throw Error("unknown axis " + quote_input(std::string(text)) + "; this board has the axes " +
                valid_axes(dims));
  }
  return axis;
}

void parse_axes(std::string_view text, const Topology& topo, ViewSpec& view) {
  require_lattice(topo, "--axes");
  const auto parts = split(text, ',');
  if (parts.size() != 3) {
    throw Error("--axes needs three axes separated by commas, e.g. x,y,w (this board has " +
                valid_axes(topo.dimensions()) + ")");
  }
  for (int i = 0; i < 3; ++i) view.axes[i] = parse_axis(parts[i], topo.dimensions());
}

void parse_slices(std::string_view text, const Topology& topo, ViewSpec& view) {
  require_lattice(topo, "--slice");
  const std::size_t d = topo.dimensions();
  if (view.slice.size() != d) view.slice.assign(d, kUnset);
  std::vector<int> seen;  // (z=2,z=3 is refused, not read as its last value)
  for (const auto& part : split(text, ',')) {
    const auto eq = part.find('=');
    if (eq == std::string::npos) {
      throw Error("--slice takes AXIS=VALUE pairs such as w=3, not " + quote_input(part));
    }
    const int axis = parse_axis(part.substr(0, eq), d);
    if (std::find(seen.begin(), seen.end(), axis) != seen.end()) {
      throw Error("--slice names " + axis_name(axis) + " twice; give each axis one value");
    }
    seen.push_back(axis);
    const std::string value = trim(part.substr(eq + 1));
    const std::uint32_t size = topo.dims[axis];
    const auto n = parse_whole(value, size);
    if (!n || *n < 1) {
      throw Error("--slice " + axis_name(axis) + "=" + quote_input(value) +
                  ": the value must be 1.." + std::to_string(size));
    }
    view.slice[axis] = static_cast<std::uint32_t>(*n) - 1;
  }
}

std::vector<int> hidden_axes(const Topology& topo, const ViewSpec& view) {
  std::vector<int> hidden;
  if (topo.kind != BoardKind::kLattice || topo.dimensions() <= 3) return hidden;
  for (int a = 0; a < static_cast<int>(topo.dimensions()); ++a) {
    if (std::find(view.axes.begin(), view.axes.end(), a) == view.axes.end()) hidden.push_back(a);
  }
  return hidden;
}

void normalise_view(const Topology& topo, ViewSpec& view) {
  const std::size_t d = topo.kind == BoardKind::kLattice ? topo.dimensions() : 0;
  if (d <= 3) {
    view.axes = {0, 1, 2};
    view.slice.assign(d, 0);
    view.multiples_axis = -1;
    return;
  }
  for (int i = 0; i < 3; ++i) {
    if (view.axes[i] < 0 || static_cast<std::size_t>(view.axes[i]) >= d) {
      throw Error("unknown axis; this board has the axes " + valid_axes(d));
    }
    for (int j = 0; j < i; ++j) {
      if (view.axes[i] == view.axes[j]) {
        throw Error("--axes names " + axis_name(view.axes[i]) +
                    " twice; give three different axes");
      }
    }
  }
  if (view.slice.size() != d) view.slice.assign(d, kUnset);
  for (int i = 0; i < 3; ++i) {
    auto& s = view.slice[view.axes[i]];
    if (s != kUnset && s != 0) {
      // A slice given on a drawn axis is a contradiction: say so rather than ignore it.
      throw Error("--slice " + axis_name(view.axes[i]) + "=" + std::to_string(s + 1) +
                  ": that axis is drawn (see --axes); slices apply to hidden axes");
    }
    s = 0;
  }
  for (std::size_t a = 0; a < d; ++a) {
    if (view.slice[a] == kUnset) view.slice[a] = (topo.dims[a] - 1) / 2;
    if (view.slice[a] >= topo.dims[a]) view.slice[a] = topo.dims[a] - 1;
  }
  if (view.multiples_axis >= 0) {
    const auto hidden = hidden_axes(topo, view);
    if (std::find(hidden.begin(), hidden.end(), view.multiples_axis) == hidden.end()) {
      throw Error("small multiples need a hidden axis; " + axis_name(view.multiples_axis) +
                  " is drawn");
    }
  }
}

bool short_edge(const Topology& topo, Vertex a, Vertex b) {
  if (topo.kind != BoardKind::kLattice || !topo.wrap) return true;
  const auto ca = topo.coords(a);
  const auto cb = topo.coords(b);
  for (std::size_t i = 0; i < ca.size(); ++i) {
    const auto diff = ca[i] > cb[i] ? ca[i] - cb[i] : cb[i] - ca[i];
    if (diff > 1) return false;
  }
  return true;
}

std::vector<std::array<double, 3>> force_layout_3d(const Graph& g, unsigned seed) {
  using BGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  using Cube = boost::cube_topology<boost::minstd_rand>;
  const std::uint32_t n = g.num_vertices();
  if (n > kMostForcePoints) {
    std::vector<std::array<double, 3>> out = distance_layout(g, seed);
    normalise_scale(g, out);
    return out;
  }
  BGraph bg(n);
  for (Vertex v = 0; v < n; ++v)
    for (Vertex w : g.neighbours(v))
      if (w > v) boost::add_edge(v, w, bg);
  boost::minstd_rand gen(seed);
  const double side = std::max(1.0, std::cbrt(static_cast<double>(n)) * 2.0);
  Cube cube(gen, side);
  std::vector<Cube::point_type> pts(n);
  auto pmap = boost::make_iterator_property_map(pts.begin(), boost::get(boost::vertex_index, bg));
  boost::random_graph_layout(bg, pmap, cube);
  std::vector<int> component(n);
  const bool connected = n > 1 && boost::connected_components(bg, component.data()) == 1;
  bool done = false;
  if (connected && n <= 600) {
    // Kamada-Kawai: edges of (nearly) equal length, the graph distance kept in space.
    done = boost::kamada_kawai_spring_layout(
        bg, pmap, boost::make_constant_property<BGraph::edge_descriptor>(1.0), cube,
        boost::edge_length(1.0), boost::layout_tolerance<double>(1e-4));
  }
  if (n > 1 && !done) {
    // All pairs repel (Boost's grid approximation is 2D only): O(n^2) per iteration, so big
    // graphs get fewer iterations (and the biggest the distance layout above).
    const int iterations = n <= 400 ? 300 : n <= 2000 ? 80 : 20;
    std::vector<Cube::point_difference_type> displacement(n);
    boost::fruchterman_reingold_force_directed_layout(
        bg, pmap, cube, boost::square_distance_attractive_force(),
        boost::square_distance_repulsive_force(), boost::all_force_pairs(),
        boost::linear_cooling<double>(iterations),
        boost::make_iterator_property_map(displacement.begin(),
                                          boost::get(boost::vertex_index, bg)));
  }
  std::vector<std::array<double, 3>> out(n);
  for (Vertex v = 0; v < n; ++v) out[v] = {pts[v][0], pts[v][1], pts[v][2]};
  normalise_scale(g, out);
  return out;
}

Layout compute_layout(const Topology& topo, const ViewSpec& view_in) {
  ViewSpec view = view_in;
  normalise_view(topo, view);
  const std::uint32_t n = topo.num_vertices();
  Layout L;
  L.point.assign(n, {0, 0, 0});
  L.visible.assign(n, 1);
  switch (topo.kind) {
    case BoardKind::kLattice: {
      const std::size_t d = topo.dimensions();
      L.space_dims = static_cast<int>(std::min<std::size_t>(d, 3));
      const auto hidden = hidden_axes(topo, view);
      if (view.multiples_axis >= 0) L.panels = static_cast<int>(topo.dims[view.multiples_axis]);
      const double panel_step =
          d > 3 ? static_cast<double>(topo.dims[view.axes[0]]) + kPanelGap : 0.0;
      for (Vertex v = 0; v < n; ++v) {
        const auto c = topo.coords(v);
        for (int a : hidden) {
          if (a != view.multiples_axis && c[a] != view.slice[a]) L.visible[v] = 0;
        }
        if (d <= 3) {
          for (std::size_t i = 0; i < d; ++i) L.point[v][i] = c[i];
        } else {
          for (int i = 0; i < 3; ++i) L.point[v][i] = c[view.axes[i]];
          if (view.multiples_axis >= 0) {
            for (int k = 0; k < 3; ++k) {
              L.point[v][k] += panel_step * c[view.multiples_axis] * kPanelDirection[k];
            }
          }
        }
      }
      break;
    }
    case BoardKind::kHex: {
      L.space_dims = 2;
      for (Vertex v = 0; v < n; ++v) {
        const auto [q, r] = topo.hex_axial[v];
        L.point[v] = {q + 0.5 * r, r * std::sqrt(3.0) / 2.0, 0.0};
      }
      break;
    }
    case BoardKind::kFile: {
      if (topo.positions.size() == n && n > 0) {
        L.point = topo.positions;
        normalise_scale(topo.graph, L.point);
        bool flat = true;
        for (const auto& p : L.point) flat = flat && std::abs(p[2]) < 1e-9;
        L.space_dims = flat ? 2 : 3;
      } else {
        L.point = force_layout_3d(topo.graph);
        L.space_dims = 3;
      }
      break;
    }
  }
  return L;
}

}  // namespace tanbo::viz

#include "tanbo/render.hpp"

#include <algorithm>
#include <set>
#include <sstream>

namespace tanbo {

namespace {

constexpr std::string_view kGoLetters = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

// Star points drawn as '+' on empty points, as in the 1995 diagrams.
bool is_star(const Topology& t, std::uint32_t x, std::uint32_t y) {
  if (t.dims.size() != 2 || t.dims[0] != t.dims[1]) return false;
  const std::uint32_t n = t.dims[0];
  auto on = [&](std::uint32_t c) {
    if (n == 19) return c == 3 || c == 9 || c == 15;
    if (n == 13) return c == 3 || c == 6 || c == 9;
    if (n == 9) return c == 2 || c == 4 || c == 6;
    return false;
  };
  return on(x) && on(y);
}

char cell_char(const Position& pos, Vertex v, const RenderOptions& o, bool star) {
  const Player p = pos.at(v);
  if (p != kEmpty) return player_symbol(p);
  if (o.highlight && std::binary_search(o.highlight->begin(), o.highlight->end(), v)) return '*';
  return star ? '+' : '.';
}

std::string render_2d(const Position& pos, const RenderOptions& o) {
  const Topology& t = pos.topology();
  const std::uint32_t w = t.dims[0], h = t.dims.size() > 1 ? t.dims[1] : 1;
  const bool go = t.dims.size() == 2 && w <= kGoLetters.size();
  const Vertex last = (o.mark_last && pos.ply() > 0 && pos.last_move().kind == MoveRecord::Kind::kPlace)
                          ? pos.last_move().vertex : kNoVertex;
  const int label_w = static_cast<int>(std::to_string(h).size());
  std::ostringstream os;
  std::string header(static_cast<std::size_t>(label_w) + 2, ' ');
  for (std::uint32_t x = 0; x < w; ++x) {
    header += go ? std::string(1, kGoLetters[x]) : std::to_string((x + 1) % 10);
    if (x + 1 < w) header += ' ';
  }
  os << header << "\n";
  for (std::uint32_t yy = h; yy-- > 0;) {
    std::string label = std::to_string(yy + 1);
    label = std::string(static_cast<std::size_t>(label_w) - label.size(), ' ') + label;
    std::string row;
    // seps[i] is the character before cell i; seps[w] closes the row.
    std::vector<char> seps(w + 1, ' ');
    seps[0] = '|';
    seps[w] = '|';
    bool marked = false;
    for (std::uint32_t x = 0; x < w; ++x) {
      const Vertex v = t.dims.size() == 2 ? t.vertex_at({x, yy}) : t.vertex_at({x});
      if (v == last) {
        seps[x] = '>';
        seps[x + 1] = '<';
        marked = true;
      }
    }
    os << label << (marked ? '>' : ' ');
    for (std::uint32_t x = 0; x < w; ++x) {
      const Vertex v = t.dims.size() == 2 ? t.vertex_at({x, yy}) : t.vertex_at({x});
      os << seps[x] << cell_char(pos, v, o, is_star(t, x, yy));
    }
    os << seps[w] << (marked ? '<' : ' ') << label << "\n";
  }
  os << header << "\n";
  return os.str();
}

std::string render_list(const Position& pos) {
  std::ostringstream os;
  const Topology& t = pos.topology();
  for (RootId r : pos.live_roots()) {
    os << player_name(pos.root_owner(r)) << " root of " << pos.root_size(r) << " (space "
       << pos.root_space(r) << "):";
    for (Vertex v : pos.root_stones(r)) os << ' ' << t.name(v);
    os << "\n";
  }
  return os.str();
}

}  // namespace

std::string render_board(const Position& pos, const RenderOptions& options) {
  const Topology& t = pos.topology();
  if (t.kind == BoardKind::kLattice && t.dims.size() <= 2) return render_2d(pos, options);
  return render_list(pos);
}

}  // namespace tanbo

#include "tanbo/render.hpp"

#include <algorithm>
#include <functional>
#include <sstream>

namespace tanbo {

namespace {

constexpr std::string_view kGoLetters = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
constexpr std::size_t kBandWidth = 118;  // panels side by side are wrapped at this width

// ANSI colour of each player's stones (index = player), chosen to read on dark and light
// terminals alike.
constexpr const char* kColour[] = {"",           "\033[1;36m",     "\033[1;33m",
                                   "\033[1;31m", "\033[1;34m",     "\033[1;32m",
                                   "\033[1;35m", "\033[38;5;208m", "\033[38;5;141m"};
constexpr const char* kReset = "\033[0m";
constexpr const char* kDim = "\033[2m";
constexpr const char* kMark = "\033[1;7m";
constexpr const char* kHint = "\033[1;32m";

std::string plural(std::uint64_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

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

Vertex last_placed(const Position& pos, const RenderOptions& o) {
  if (!o.mark_last || pos.ply() == 0) return kNoVertex;
  const MoveRecord& m = pos.last_move();
  return m.kind == MoveRecord::Kind::kPlace ? m.vertex : kNoVertex;
}

bool highlighted(const RenderOptions& o, Vertex v) {
  return o.highlight && std::binary_search(o.highlight->begin(), o.highlight->end(), v);
}

// The one character of point v (with colour codes around it when asked).
std::string cell(const Position& pos, Vertex v, const RenderOptions& o, bool star) {
  const Player p = pos.at(v);
  char c = '.';
  const char* colour = nullptr;
  if (p != kEmpty) {
    c = player_symbol(p);
    colour = kColour[p];
  } else if (highlighted(o, v)) {
    c = '*';
    colour = kHint;
  } else if (star) {
    c = '+';
    colour = kDim;
  }
  if (o.colour && colour) {
    const bool last = v == last_placed(pos, o);
    return std::string(last ? kMark : "") + colour + c + kReset;
  }
  return std::string(1, c);
}

std::string pad_left(const std::string& s, std::size_t w) {
  return s.size() >= w ? s : std::string(w - s.size(), ' ') + s;
}

// A rectangular panel: w columns x h rows of points, drawn like the 1995 diagrams.
// at(x, y) gives the vertex (y = 0 is the bottom row); col_label(x) one character per column
// (or several header lines when labels are longer); row labels are 1-based numbers.
struct Panel {
  std::vector<std::string> lines;  // may hold colour codes
  std::size_t width = 0;           // visible width of every line
};

Panel draw_grid(const Position& pos, const RenderOptions& o, std::uint32_t w, std::uint32_t h,
                const std::function<Vertex(std::uint32_t, std::uint32_t)>& at,
                const std::function<std::string(std::uint32_t)>& col_label,
                const std::function<bool(std::uint32_t, std::uint32_t)>& star) {
  const Vertex last = last_placed(pos, o);
  const std::size_t rw = std::to_string(h).size();      // right label width
  const std::size_t lw = std::max<std::size_t>(2, rw);  // left labels are at least 2 wide
  Panel panel;
  panel.width = lw + 1 + 2 * w + 1 + rw;
  // Column headers: one line when every label is one character, else labels stacked
  // vertically (digit by digit) so that columns stay one apart.
  std::size_t label_len = 1;
  for (std::uint32_t x = 0; x < w; ++x) label_len = std::max(label_len, col_label(x).size());
  std::vector<std::string> header(label_len, std::string(lw + 2, ' '));
  for (std::uint32_t x = 0; x < w; ++x) {
    const std::string l = pad_left(col_label(x), label_len);
    for (std::size_t i = 0; i < label_len; ++i) {
      header[i] += l[i];
      if (x + 1 < w) header[i] += ' ';
    }
  }
  for (auto& line : header) line += std::string(panel.width - line.size(), ' ');
  panel.lines = header;
  for (std::uint32_t yy = h; yy-- > 0;) {
    const std::string label = std::to_string(yy + 1);
    // seps[i] is the character before cell i; seps[w] closes the row.
    std::vector<char> seps(w + 1, ' ');
    seps[0] = '|';
    seps[w] = '|';
    bool marked = false;
    for (std::uint32_t x = 0; x < w; ++x) {
      if (at(x, yy) == last) {
        seps[x] = '>';
        seps[x + 1] = '<';
        marked = true;
      }
    }
    std::string row = pad_left(label, lw) + (marked ? '>' : ' ');
    for (std::uint32_t x = 0; x < w; ++x) {
      row += seps[x];
      row += cell(pos, at(x, yy), o, star(x, yy));
    }
    row += seps[w];
    row += marked ? '<' : ' ';
    row += pad_left(label, rw);
    panel.lines.push_back(row);
  }
  for (auto it = header.rbegin(); it != header.rend(); ++it) panel.lines.push_back(*it);
  return panel;
}

std::string go_or_number(const Topology& t, std::uint32_t x) {
  const bool go = t.dims.size() == 2 && t.dims[0] <= kGoLetters.size();
  return go ? std::string(1, kGoLetters[x]) : std::to_string(x + 1);
}

std::string trim_right(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// Puts panels side by side (titles above), wrapping into bands no wider than kBandWidth.
std::string side_by_side(const std::vector<Panel>& panels, const std::vector<std::string>& titles) {
  std::ostringstream os;
  const std::size_t gap = 4;
  std::size_t start = 0;
  while (start < panels.size()) {
    std::size_t end = start + 1, width = panels[start].width;
    while (end < panels.size() && width + gap + panels[end].width <= kBandWidth) {
      width += gap + panels[end].width;
      ++end;
    }
    if (start > 0) os << "\n";
    std::string title_line;
    for (std::size_t i = start; i < end; ++i) {
      std::string t = titles[i];
      const std::size_t pw = panels[i].width;
      if (t.size() < pw) t = std::string((pw - t.size()) / 2, ' ') + t;
      t.resize(std::max(pw, t.size()), ' ');
      title_line += t + (i + 1 < end ? std::string(gap, ' ') : "");
    }
    os << trim_right(title_line) << "\n";
    std::size_t rows = 0;
    for (std::size_t i = start; i < end; ++i) rows = std::max(rows, panels[i].lines.size());
    for (std::size_t r = 0; r < rows; ++r) {
      std::string line;
      for (std::size_t i = start; i < end; ++i) {
        const Panel& p = panels[i];
        line += r < p.lines.size() ? p.lines[r] : std::string(p.width, ' ');
        if (i + 1 < end) line += std::string(gap, ' ');
      }
      os << trim_right(line) << "\n";
    }
    start = end;
  }
  return os.str();
}

// A line: one row of points (in segments of at most 50 on long lines), numbered every
// fifth point above and below like a ruler.
std::string render_line(const Position& pos, const RenderOptions& o) {
  const Topology& t = pos.topology();
  const std::uint32_t n = t.dims[0];
  const std::uint32_t seg = 50;
  const Vertex last = last_placed(pos, o);
  std::string s;
  for (std::uint32_t from = 0; from < n; from += seg) {
    const std::uint32_t to = std::min(n, from + seg);
    std::string ruler(3 + 2 * (to - from) + 4, ' ');
    for (std::uint32_t x = from; x < to; ++x) {
      if (x == from || (x + 1) % 5 == 0) {
        const std::string num = std::to_string(x + 1);
        ruler.replace(3 + 2 * (x - from), num.size(), num);
      }
    }
    std::vector<char> seps(to - from + 1, ' ');
    seps[0] = from == 0 ? '|' : ' ';
    seps[to - from] = to == n ? '|' : ' ';
    for (std::uint32_t x = from; x < to; ++x) {
      if (t.vertex_at({x}) == last) seps[x - from] = '>', seps[x - from + 1] = '<';
    }
    std::string row = "  ";
    for (std::uint32_t x = from; x < to; ++x) {
      row += seps[x - from] + cell(pos, t.vertex_at({x}), o, false);
    }
    row += seps[to - from];
    if (from > 0) s += "\n";
    s += trim_right(ruler) + "\n" + trim_right(row) + "\n" + trim_right(ruler) + "\n";
  }
  return s;
}

std::string render_2d(const Position& pos, const RenderOptions& o) {
  const Topology& t = pos.topology();
  const Panel p = draw_grid(
      pos, o, t.dims[0], t.dims[1],
      [&](auto x, auto y) {
        return t.vertex_at({x, y});
      },
      [&](auto x) { return go_or_number(t, x); }, [&](auto x, auto y) { return is_star(t, x, y); });
  std::string s;
  for (const auto& line : p.lines) s += trim_right(line) + "\n";
  return s;
}

// 3D and more: for each cross-section (the coordinates beyond z), the z layers side by side.
std::string render_layers(const Position& pos, const RenderOptions& o) {
  const Topology& t = pos.topology();
  const std::size_t d = t.dims.size();
  const std::uint32_t w = t.dims[0], h = t.dims[1], depth = t.dims[2];
  const bool digits = d == 3 && w <= 9 && h <= 9 && depth <= 9;
  std::ostringstream os;
  if (digits) {
    os << "points are XYZ: column X, row Y, layer Z (235 = column 2, row 3 in layer Z=5)\n";
  } else {
    os << "points are x,y,z" << (d > 3 ? ",..." : "")
       << ": column x, row y of the panel titled with the other coordinates\n";
  }
  std::vector<std::uint32_t> high(d - 3, 0);  // coordinates beyond z
  bool more = true;
  while (more) {
    std::vector<Panel> panels;
    std::vector<std::string> titles;
    std::string suffix;
    for (auto c : high) suffix += "," + std::to_string(c + 1);
    if (d > 3) {
      os << "\n== 3D cross-section x,y,z" << suffix << " ==\n";
    } else {
      os << "\n";
    }
    for (std::uint32_t z = 0; z < depth; ++z) {
      std::vector<std::uint32_t> c(d, 0);
      c[2] = z;
      for (std::size_t i = 3; i < d; ++i) c[i] = high[i - 3];
      panels.push_back(draw_grid(
          pos, o, w, h,
          [&, c](std::uint32_t x, std::uint32_t y) mutable {
            c[0] = x;
            c[1] = y;
            return t.vertex_at(c);
          },
          [](std::uint32_t x) { return std::to_string(x + 1); },
          [](std::uint32_t, std::uint32_t) { return false; }));
      titles.push_back(digits ? "Z=" + std::to_string(z + 1) + " (xy" + std::to_string(z + 1) + ")"
                              : "x,y," + std::to_string(z + 1) + suffix);
    }
    os << side_by_side(panels, titles);
    // Next cross-section (odometer over the coordinates beyond z).
    more = false;
    for (std::size_t i = 0; i < high.size(); ++i) {
      if (++high[i] < t.dims[i + 3]) {
        more = true;
        break;
      }
      high[i] = 0;
    }
  }
  return os.str();
}

std::string render_hex(const Position& pos, const RenderOptions& o) {
  const Topology& t = pos.topology();
  const int side = static_cast<int>(t.hex_side), m = side - 1;
  const Vertex last = last_placed(pos, o);
  const bool letters = 2 * t.hex_side - 1 <= kGoLetters.size();
  // Index the cells by (r, q).
  std::vector<Vertex> index(static_cast<std::size_t>((2 * m + 1) * (2 * m + 1)), kNoVertex);
  for (Vertex v = 0; v < t.num_vertices(); ++v) {
    const auto [q, r] = t.hex_axial[v];
    index[static_cast<std::size_t>((r + m) * (2 * m + 1) + (q + m))] = v;
  }
  const std::size_t lw = letters ? 1 : std::to_string(2 * side - 1).size();
  std::ostringstream os;
  os << "cells are named row + number from the left of the row (" << t.name(index[m]) << " is the "
     << "left end of the bottom row)\n";
  for (int r = m; r >= -m; --r) {
    const int row = r + side;
    const std::string label =
        letters ? std::string(1, kGoLetters[row - 1]) : pad_left(std::to_string(row), lw);
    const int qmin = std::max(-m, -m - r), qmax = std::min(m, m - r);
    const int indent = std::abs(r);
    std::string line = label + std::string(static_cast<std::size_t>(indent) + 1, ' ');
    char before = ' ';
    for (int q = qmin; q <= qmax; ++q) {
      const Vertex v = index[static_cast<std::size_t>((r + m) * (2 * m + 1) + (q + m))];
      char sep = before;
      if (v == last) sep = '>';
      if (q > qmin)
        line += sep;
      else if (v == last)
        line.back() = '>';
      line += cell(pos, v, o, false);
      before = v == last ? '<' : ' ';
    }
    line += before;
    line += std::string(static_cast<std::size_t>(indent), ' ') + label;
    os << line << "\n";
  }
  return os.str();
}

std::string render_list(const Position& pos, const RenderOptions& o, const std::string& note) {
  const Topology& t = pos.topology();
  std::ostringstream os;
  os << t.spec << ": " << plural(t.num_vertices(), "point") << ", "
     << plural(t.graph.num_edges(), "edge") << note << "\n";
  const Vertex last = last_placed(pos, o);
  if (last != kNoVertex) os << "last move: " << t.name(last) << "\n";
  os << render_roots(pos, 40, 60);
  if (o.highlight) {
    os << "marked points (" << o.highlight->size() << "):";
    std::size_t shown = 0;
    for (Vertex v : *o.highlight) {
      if (++shown > 200) {
        os << " ...";
        break;
      }
      os << ' ' << t.name(v);
    }
    os << "\n";
  }
  return os.str();
}

}  // namespace

std::string player_label(Player p, const std::vector<std::string>& names) {
  std::string s = player_title(p);
  if (p >= 1 && p <= names.size() && !names[p - 1].empty()) s += " (" + names[p - 1] + ")";
  return s;
}

std::string render_board(const Position& pos, const RenderOptions& options) {
  const Topology& t = pos.topology();
  const std::uint64_t n = t.num_vertices();
  if (!options.full && n > options.max_points) {
    return render_list(pos, options,
                       " (too many to draw: " + std::to_string(n) + " > " +
                           std::to_string(options.max_points) +
                           " points; roots listed instead, `show --full` draws every point)");
  }
  switch (t.kind) {
    case BoardKind::kLattice:
      if (t.dims.size() == 1) return render_line(pos, options);
      if (t.dims.size() == 2) return render_2d(pos, options);
      return render_layers(pos, options);
    case BoardKind::kHex:
      return render_hex(pos, options);
    case BoardKind::kFile:
      return render_list(pos, options, "");
  }
  return render_list(pos, options, "");
}

std::string render_status(const Position& pos, const std::vector<std::string>& names) {
  std::ostringstream os;
  if (pos.is_over()) {
    os << "game over after " << plural(pos.ply(), "turn") << ": "
       << player_label(pos.winner(), names) << " wins";
  } else {
    os << "move " << pos.ply() + 1 << ", " << player_label(pos.to_move(), names) << " to play";
  }
  for (Player p = 1; p <= pos.num_players(); ++p) {
    os << " | " << player_title(p) << ' ';
    if (pos.is_out(p) && pos.stones(p) == 0) {
      os << "out";
    } else if (pos.is_out(p)) {
      os << "resigned";
    } else {
      os << plural(pos.stones(p), "stone") << ' ' << plural(pos.roots_alive(p), "root");
    }
  }
  return os.str();
}

std::string render_roots(const Position& pos, std::size_t max_stones, std::size_t max_roots) {
  const Topology& t = pos.topology();
  std::ostringstream os;
  const auto live = pos.live_roots();
  std::size_t listed = 0;
  for (RootId r : live) {
    if (max_roots && ++listed > max_roots) {
      os << "... and " << live.size() - max_roots << " more roots\n";
      break;
    }
    os << player_title(pos.root_owner(r)) << " root " << t.name(pos.root_seed(r)) << ": "
       << plural(pos.root_size(r), "stone") << ", root space " << pos.root_space(r) << " |";
    std::size_t shown = 0;
    for (Vertex v : pos.root_stones(r)) {
      if (++shown > max_stones) {
        os << " ...";
        break;
      }
      os << ' ' << t.name(v);
    }
    os << "\n";
  }
  return os.str();
}

std::string describe_move(const Position& pos, const MoveRecord& rec) {
  const Topology& t = pos.topology();
  const std::span<const RootId> removed = pos.removed_roots();
  const std::uint32_t roots = rec.removed_end - rec.removed_begin;
  if (rec.kind == MoveRecord::Kind::kResign) {
    return player_title(rec.player) + " resigns: " + plural(roots, "root") + " removed (" +
           plural(rec.stones_removed, "stone") + ").";
  }
  const std::string where = t.name(rec.vertex);
  if (roots == 0) return player_title(rec.player) + " plays " + where + ".";
  // Players this turn put out of the game (exact when pos is right after the turn).
  std::string outs;
  if (!pos.history().empty() && &pos.history().back() == &rec) {
    for (Player p = 1; p <= pos.num_players(); ++p) {
      if (!((rec.out_before >> (p - 1)) & 1u) && pos.is_out(p))
        outs += " " + player_title(p) + " is out.";
    }
  }
  std::string s = player_title(rec.player) + "'s move at " + where + " bounded ";
  if (rec.expanded_removed) {
    return s + "its own root: removed " + plural(rec.stones_removed, "stone") + "." + outs;
  }
  s += plural(roots, "root") + ": removed " + plural(rec.stones_removed, "stone");
  // Who lost them, when more than one player did or the mover lost some.
  std::vector<std::uint32_t> per(static_cast<std::size_t>(pos.num_players()) + 1, 0);
  for (std::uint32_t i = rec.removed_begin; i < rec.removed_end; ++i) {
    per[pos.root_owner(removed[i])] += pos.root_size(removed[i]);
  }
  std::string parts;
  for (Player p = 1; p <= pos.num_players(); ++p) {
    if (per[p])
      parts += (parts.empty() ? "" : ", ") + player_title(p) + " " + std::to_string(per[p]);
  }
  return s + " (" + parts + ")." + outs;
}

}  // namespace tanbo

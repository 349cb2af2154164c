#include "tanbo/io/render.hpp"

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

// Marks the last move >x< in a row whose separators are `seps` (seps[i] stands before point
// i, the last one closes the row): a border '|' is kept, so a point on the edge is marked on its
// inner side only (">x|" or "|x<"); the row's ends show which row it is.
void mark_point(std::vector<char>& seps, std::size_t i) {
  if (seps[i] != '|') seps[i] = '>';
  if (seps[i + 1] != '|') seps[i + 1] = '<';
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
        mark_point(seps, x);
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
      if (t.vertex_at({x}) == last) mark_point(seps, x - from);
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

// Hex boards: a hexagon, row labels on both sides. A cell's number counts from the left of its
// row, so the cells of one number lie on a diagonal: in the upper half running down-left from
// the top edge to the middle row, in the lower half up-left from the bottom edge. Each diagonal
// is labelled where it leaves the board (above the top row and on the right of the rows above
// the middle; below and on the right in the lower half), one step beyond its last cell.
//
// Columns: x = 0 .. 4(N-1) hold the cells (row r's cells at |r|, |r| + 2, ...), x = -1 and the
// gaps hold the last-move mark, edge numbers start two steps after a row's last cell.
class HexDrawing {
 public:
  HexDrawing(const Position& pos, const RenderOptions& o)
      : pos_(pos), t_(pos.topology()), o_(o), m_(static_cast<int>(t_.hex_side) - 1) {
    letters_ = 2 * t_.hex_side - 1 <= kGoLetters.size();
    row_width_ = letters_ ? 1 : std::to_string(2 * m_ + 1).size();
    number_width_ = std::to_string(2 * m_ + 1).size();
    index_.assign(static_cast<std::size_t>((2 * m_ + 1) * (2 * m_ + 1)), kNoVertex);
    for (Vertex v = 0; v < t_.num_vertices(); ++v) {
      const auto [q, r] = t_.hex_axial[v];
      index_[static_cast<std::size_t>((r + m_) * (2 * m_ + 1) + (q + m_))] = v;
    }
  }

  std::string draw() const {
    std::ostringstream os;
    os << "cells are named row " << (letters_ ? "+" : ",") << " number in the row ("
       << t_.name(cell(0, 0))
       << " is the centre); each edge number runs along a diagonal of cells to the middle row\n";
    const auto top = edge_number_lines();
    for (const auto& line : top) os << trim_right(line) << "\n";
    for (int r = m_; r >= -m_; --r) os << trim_right(row(r)) << "\n";
    for (auto it = top.rbegin(); it != top.rend(); ++it) os << trim_right(*it) << "\n";
    return os.str();
  }

 private:
  // Visible columns before x = -1 (the row label and a space) and in all.
  std::size_t origin() const { return row_width_; }
  std::size_t width() const { return origin() + 1 + 4 * m_ + 2 + number_width_ + 2 + row_width_; }

  Vertex cell(int q, int r) const {
    return index_[static_cast<std::size_t>((r + m_) * (2 * m_ + 1) + (q + m_))];
  }

  std::string row_label(int r) const {
    const int row = r + m_ + 1;
    return letters_ ? std::string(1, kGoLetters[row - 1])
                    : pad_left(std::to_string(row), row_width_);
  }

  // Writes text at board column x of a line of single visible characters.
  void put(std::vector<std::string>& line, int x, const std::string& text) const {
    for (std::size_t i = 0; i < text.size(); ++i) {
      line[origin() + 1 + static_cast<std::size_t>(x) + i] = std::string(1, text[i]);
    }
  }

  static std::string join(const std::vector<std::string>& line) {
    std::string s;
    for (const auto& c : line) s += c;
    return s;
  }

  // The numbers above the top row (below the bottom row: the same lines in reverse order),
  // one digit a line when a number has more digits than fit between two cells.
  std::vector<std::string> edge_number_lines() const {
    const int side = m_ + 1;
    const std::size_t lines = std::to_string(side).size();
    std::vector<std::vector<std::string>> out(lines, std::vector<std::string>(width(), " "));
    for (int i = 1; i <= side; ++i) {
      const std::string label = pad_left(std::to_string(i), lines);
      for (std::size_t k = 0; k < lines; ++k) put(out[k], m_ + 2 * (i - 1) + 1, label.substr(k, 1));
    }
    std::vector<std::string> text;
    for (const auto& l : out) text.push_back(join(l));
    return text;
  }

  std::string row(int r) const {
    const Vertex last = last_placed(pos_, o_);
    std::vector<std::string> line(width(), " ");
    const std::string label = row_label(r);
    for (std::size_t i = 0; i < label.size(); ++i) line[i] = std::string(1, label[i]);
    const int qmin = std::max(-m_, -m_ - r), qmax = std::min(m_, m_ - r);
    int x = std::abs(r);
    for (int q = qmin; q <= qmax; ++q, x += 2) {
      const Vertex v = cell(q, r);
      line[origin() + 1 + static_cast<std::size_t>(x)] = tanbo::cell(pos_, v, o_, false);
      if (v == last) {
        put(line, x - 1, ">");
        put(line, x + 1, "<");
      }
    }
    // x is now two steps after the last cell: the number of the diagonal that ends one row
    // nearer the middle, when there is one.
    if (r != 0) put(line, x, std::to_string(2 * m_ + 2 - std::abs(r)));
    put(line, 4 * m_ + 2 + static_cast<int>(number_width_) + 1, label);
    return join(line);
  }

  const Position& pos_;
  const Topology& t_;
  const RenderOptions& o_;
  const int m_;  // side - 1: rows r = -m .. m
  bool letters_ = true;
  std::size_t row_width_ = 1;     // width of a row label
  std::size_t number_width_ = 1;  // width of the widest edge number on the right
  std::vector<Vertex> index_;     // cells by (r, q)
};

std::string render_hex(const Position& pos, const RenderOptions& o) {
  return HexDrawing(pos, o).draw();
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
    // "move N" is the N-th turn, as in `tanbo show --move N` and the viewer.
    os << (pos.ply() == 0 ? std::string("start") : "after move " + std::to_string(pos.ply()))
       << ", " << player_label(pos.to_move(), names) << " to play";
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

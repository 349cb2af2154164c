// Vertex naming, one scheme per kind of board (see docs/notation.md).
#include <algorithm>
#include <cctype>
#include <charconv>

#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/core/topology.hpp"

namespace tanbo {

namespace {

constexpr std::string_view kGoLetters = "ABCDEFGHJKLMNOPQRSTUVWXYZ";  // no I

std::string trim_lower(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (!std::isspace(static_cast<unsigned char>(c))) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

// a < b, b < a or neither for two texts compared without case (ASCII letters).
int compare_without_case(std::string_view a, std::string_view b) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    const int x = std::tolower(static_cast<unsigned char>(a[i]));
    const int y = std::tolower(static_cast<unsigned char>(b[i]));
    if (x != y) return x < y ? -1 : 1;
  }
  return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

std::optional<std::uint32_t> parse_uint(std::string_view s) {
  if (s.empty() || s.size() > 10) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (v > 0xFFFFFFFFull) return std::nullopt;
  return static_cast<std::uint32_t>(v);
}

// "1,2,3" -> {1,2,3} (1-based as written); nullopt if malformed.
std::optional<std::vector<std::uint32_t>> parse_commas(std::string_view s) {
  std::vector<std::uint32_t> out;
  std::size_t start = 0;
  while (true) {
    std::size_t c = s.find(',', start);
    auto v = parse_uint(
        s.substr(start, c == std::string_view::npos ? std::string_view::npos : c - start));
    if (!v) return std::nullopt;
    out.push_back(*v);
    if (c == std::string_view::npos) break;
    start = c + 1;
  }
  return out;
}

enum class LatticeStyle { kNumber, kGo, kDigits, kCommas };

LatticeStyle lattice_style(const Topology& t) {
  if (t.dims.size() == 1) return LatticeStyle::kNumber;
  if (t.dims.size() == 2 && t.dims[0] <= kGoLetters.size()) return LatticeStyle::kGo;
  if (t.dims.size() == 3 &&
      std::all_of(t.dims.begin(), t.dims.end(), [](auto d) { return d <= 9; })) {
    return LatticeStyle::kDigits;
  }
  return LatticeStyle::kCommas;
}

// Hex rows are numbered bottom to top (r = -(N-1) .. N-1); cells left to right in a row.
struct HexRow {
  int qmin, qmax;
};
HexRow hex_row(int side, int r) {
  const int m = side - 1;
  return {std::max(-m, -m - r), std::min(m, m - r)};
}
bool hex_letters(const Topology& t) {
  return 2 * t.hex_side - 1 <= kGoLetters.size();
}

Vertex hex_vertex(const Topology& t, std::uint32_t row, std::uint32_t cell) {
  const int side = static_cast<int>(t.hex_side);
  if (row < 1 || row > 2u * t.hex_side - 1) return kNoVertex;
  const int r = static_cast<int>(row) - side;
  const HexRow hr = hex_row(side, r);
  if (cell < 1 || static_cast<int>(cell) > hr.qmax - hr.qmin + 1) return kNoVertex;
  // Vertices are numbered row by row in make_hex.
  Vertex v = 0;
  for (int rr = -(side - 1); rr < r; ++rr) {
    const HexRow x = hex_row(side, rr);
    v += static_cast<Vertex>(x.qmax - x.qmin + 1);
  }
  return v + cell - 1;
}

}  // namespace

std::string Topology::name(Vertex v) const {
  if (v >= num_vertices()) return "?";
  switch (kind) {
    case BoardKind::kLattice: {
      const auto c = coords(v);
      switch (lattice_style(*this)) {
        case LatticeStyle::kNumber:
          return std::to_string(c[0] + 1);
        case LatticeStyle::kGo:
          return std::string(1, kGoLetters[c[0]]) + std::to_string(c[1] + 1);
        case LatticeStyle::kDigits:
          return std::string{static_cast<char>('1' + c[0]), static_cast<char>('1' + c[1]),
                             static_cast<char>('1' + c[2])};
        case LatticeStyle::kCommas: {
          std::string s;
          for (std::size_t i = 0; i < c.size(); ++i) s += (i ? "," : "") + std::to_string(c[i] + 1);
          return s;
        }
      }
      return "?";
    }
    case BoardKind::kHex: {
      const auto [q, r] = hex_axial[v];
      const int side = static_cast<int>(hex_side);
      const int row = r + side;  // 1-based
      const int cell = q - hex_row(side, r).qmin + 1;
      if (hex_letters(*this)) return std::string(1, kGoLetters[row - 1]) + std::to_string(cell);
      return std::to_string(row) + "," + std::to_string(cell);
    }
    case BoardKind::kFile:
      return node_ids[v];
  }
  return "?";
}

std::optional<Vertex> Topology::parse_vertex(std::string_view text) const {
  const std::string s = trim_lower(text);
  if (s.empty()) return std::nullopt;
  switch (kind) {
    case BoardKind::kLattice: {
      if (s.find(',') != std::string::npos || dims.size() == 1) {
        auto c = parse_commas(s);
        if (!c || c->size() != dims.size()) break;
        for (std::size_t i = 0; i < c->size(); ++i) {
          if ((*c)[i] < 1 || (*c)[i] > dims[i]) return std::nullopt;
          --(*c)[i];
        }
        return vertex_at(*c);
      }
      const LatticeStyle style = lattice_style(*this);
      if (style == LatticeStyle::kGo && std::isalpha(static_cast<unsigned char>(s[0]))) {
        const auto col =
            kGoLetters.find(static_cast<char>(std::toupper(static_cast<unsigned char>(s[0]))));
        auto row = parse_uint(std::string_view(s).substr(1));
        if (col == std::string_view::npos || !row || *row < 1 || col >= dims[0] || *row > dims[1]) {
          return std::nullopt;
        }
        return vertex_at({static_cast<std::uint32_t>(col), *row - 1});
      }
      if (style == LatticeStyle::kDigits && s.size() == 3) {
        std::vector<std::uint32_t> c;
        for (int i = 0; i < 3; ++i) {
          if (s[i] < '1' || static_cast<std::uint32_t>(s[i] - '1') >= dims[i]) return std::nullopt;
          c.push_back(static_cast<std::uint32_t>(s[i] - '1'));
        }
        return vertex_at(c);
      }
      return std::nullopt;
    }
    case BoardKind::kHex: {
      if (s.find(',') != std::string::npos) {
        auto c = parse_commas(s);
        if (!c || c->size() != 2) return std::nullopt;
        Vertex v = hex_vertex(*this, (*c)[0], (*c)[1]);
        return v == kNoVertex ? std::nullopt : std::optional<Vertex>(v);
      }
      if (!hex_letters(*this) || !std::isalpha(static_cast<unsigned char>(s[0])))
        return std::nullopt;
      const auto row =
          kGoLetters.find(static_cast<char>(std::toupper(static_cast<unsigned char>(s[0]))));
      auto cell = parse_uint(std::string_view(s).substr(1));
      if (row == std::string_view::npos || !cell) return std::nullopt;
      Vertex v = hex_vertex(*this, static_cast<std::uint32_t>(row + 1), *cell);
      return v == kNoVertex ? std::nullopt : std::optional<Vertex>(v);
    }
    case BoardKind::kFile: {
      // Exact id first, then a case-insensitive match if it is unique. (Ids hold no blanks:
      // a text with blanks inside names no node.)
      const std::string exact = trim(text, " \t\r\n\v\f");
      if (exact.size() != s.size()) return std::nullopt;
      const auto first = std::lower_bound(node_order.begin(), node_order.end(), s,
                                          [this](Vertex v, const std::string& t) {
                                            return compare_without_case(node_ids[v], t) < 0;
                                          });
      const auto last =
          std::upper_bound(first, node_order.end(), s, [this](const std::string& t, Vertex v) {
            return compare_without_case(t, node_ids[v]) < 0;
          });
      for (auto it = first; it != last; ++it) {
        if (node_ids[*it] == exact) return *it;
      }
      if (last - first == 1) return *first;
      return std::nullopt;
    }
  }
  return std::nullopt;
}

void Topology::index_node_ids() {
  node_order.resize(node_ids.size());
  for (Vertex v = 0; v < node_order.size(); ++v) node_order[v] = v;
  std::sort(node_order.begin(), node_order.end(), [this](Vertex a, Vertex b) {
    const int c = compare_without_case(node_ids[a], node_ids[b]);
    return c != 0 ? c < 0 : node_ids[a] < node_ids[b];
  });
}

std::string Topology::not_a_point(std::string_view text) const {
  return quote_input(std::string(text)) + " is not a point of this board (" + notation_hint() + ")";
}

Vertex Topology::need_vertex(std::string_view text) const {
  const auto v = parse_vertex(text);
  if (!v) throw Error(not_a_point(text));
  return *v;
}

std::string Topology::notation_hint() const {
  switch (kind) {
    case BoardKind::kLattice:
      switch (lattice_style(*this)) {
        case LatticeStyle::kNumber:
          return "points are numbered 1.." + std::to_string(dims[0]);
        case LatticeStyle::kGo:
          return "Go coordinates A1.." + std::string(1, kGoLetters[dims[0] - 1]) +
                 std::to_string(dims[1]) + " (no I; or x,y)";
        case LatticeStyle::kDigits:
          return "three digits XYZ from 111 to " + std::to_string(dims[0]) +
                 std::to_string(dims[1]) + std::to_string(dims[2]) + " (or x,y,z)";
        case LatticeStyle::kCommas: {
          std::string s = "comma coordinates 1,1";
          for (std::size_t i = 2; i < dims.size(); ++i) s += ",1";
          s += " to ";
          for (std::size_t i = 0; i < dims.size(); ++i)
            s += (i ? "," : "") + std::to_string(dims[i]);
          return s;
        }
      }
      break;
    case BoardKind::kHex:
      if (hex_letters(*this)) {
        return "row letter A.." + std::string(1, kGoLetters[2 * hex_side - 2]) +
               " (bottom to top) and cell number from the left, e.g. A1 (or row,cell)";
      }
      return "row,cell numbers from the bottom left, e.g. 1,1";
    case BoardKind::kFile:
      return "the node ids of the DOT file";
  }
  return "";
}

}  // namespace tanbo

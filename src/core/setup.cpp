// Starting setups (documented with diagrams in docs/rules.md).
#include "tanbo/core/setup.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"

namespace tanbo {

namespace {

bool is_square_2d(const Topology& t, std::uint32_t n) {
  return t.kind == BoardKind::kLattice && !t.wrap && t.dims.size() == 2 && t.dims[0] == n &&
         t.dims[1] == n;
}
// An odd square board of side at least 3: the boards the 2026 start fits.
bool is_odd_square_2d(const Topology& t) {
  return t.kind == BoardKind::kLattice && !t.wrap && t.dims.size() == 2 && t.dims[0] == t.dims[1] &&
         t.dims[0] >= 3 && t.dims[0] % 2 == 1;
}
bool is_cube5(const Topology& t) {
  return t.kind == BoardKind::kLattice && !t.wrap && t.dims == std::vector<std::uint32_t>{5, 5, 5};
}

Vertex at2(const Topology& t, std::uint32_t x, std::uint32_t y) {
  return t.vertex_at({x - 1, y - 1});
}

// Seeds on a grid of columns xs and rows ys; colour(i, j) gives the player.
Setup grid_seeds(const Topology& t, std::string name, int players,
                 const std::vector<std::uint32_t>& xs, const std::vector<std::uint32_t>& ys,
                 const std::function<int(int, int)>& colour) {
  Setup s{std::move(name), players, {}};
  for (std::size_t j = 0; j < ys.size(); ++j) {
    for (std::size_t i = 0; i < xs.size(); ++i) {
      s.stones.emplace_back(at2(t, xs[i], ys[j]),
                            static_cast<Player>(colour(static_cast<int>(i), static_cast<int>(j))));
    }
  }
  return s;
}

// ---- the "spaced" rule for every lattice.
// Per axis of size n: m = round((n-1)/6) + 1 seeds (at least 2, at most what keeps an empty
// point between neighbouring seeds), at 1 + round(i*(n-1)/(m-1)); on a
// wrapped axis at 1 + floor(i*n/m). Colour = (sum of seed indices) mod k, so seeds alternate
// like a checkerboard. If no axis has a seed count divisible by k, the first axis that can
// takes the nearest multiple of k so that every player gets the same number of seeds.
std::uint32_t max_seeds(std::uint32_t n, bool wrap) {
  return wrap ? n / 2 : (n + 1) / 2;
}

std::vector<std::uint32_t> axis_positions(std::uint32_t n, std::uint32_t m, bool wrap) {
  std::vector<std::uint32_t> pos;
  if (m == 1) return {n == 1 ? 0u : (n - 1) / 2};
  for (std::uint32_t i = 0; i < m; ++i) {
    if (wrap) {
      pos.push_back(static_cast<std::uint32_t>(std::uint64_t{i} * n / m));
    } else {
      pos.push_back(static_cast<std::uint32_t>(
          std::llround(static_cast<double>(i) * (n - 1) / static_cast<double>(m - 1))));
    }
  }
  return pos;
}

std::optional<Setup> spaced(const Topology& t, int k, std::string* why) {
  const std::size_t d = t.dims.size();
  std::vector<std::uint32_t> m(d);
  std::uint64_t total = 1;
  for (std::size_t i = 0; i < d; ++i) {
    const std::uint32_t n = t.dims[i];
    if (n == 1) {
      m[i] = 1;
      continue;
    }
    const std::uint32_t want = static_cast<std::uint32_t>(std::llround((n - 1) / 6.0)) + 1;
    m[i] = std::max<std::uint32_t>(
        1, std::min(std::max<std::uint32_t>(want, 2), max_seeds(n, t.wrap)));
  }
  bool divisible = std::any_of(m.begin(), m.end(), [&](std::uint32_t x) { return x % k == 0; });
  for (std::size_t i = 0; i < d && !divisible; ++i) {
    const std::uint32_t cap = max_seeds(t.dims[i], t.wrap);
    if (t.dims[i] == 1 || cap < static_cast<std::uint32_t>(k)) continue;
    std::uint32_t down = m[i] / k * k, up = down + k;
    std::uint32_t pick =
        (down >= static_cast<std::uint32_t>(k) && m[i] - down < up - m[i]) ? down : up;
    if (pick > cap) pick = down;
    if (pick < static_cast<std::uint32_t>(k)) continue;
    m[i] = pick;
    divisible = true;
  }
  if (!divisible) {
    if (why)
      *why = "the board is too small to give " + std::to_string(k) +
             " players the same number of free seeds";
    return std::nullopt;
  }
  for (auto x : m) total *= x;
  if (total > t.num_vertices() / 2 + 1 || total < static_cast<std::uint64_t>(k)) {
    if (why) *why = "the board is too small for " + std::to_string(k) + " players";
    return std::nullopt;
  }
  std::vector<std::vector<std::uint32_t>> pos(d);
  for (std::size_t i = 0; i < d; ++i) pos[i] = axis_positions(t.dims[i], m[i], t.wrap);
  Setup s{"spaced", k, {}};
  std::vector<std::uint32_t> idx(d, 0), c(d);
  for (std::uint64_t n = 0; n < total; ++n) {
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < d; ++i) {
      c[i] = pos[i][idx[i]];
      sum += idx[i];
    }
    s.stones.emplace_back(t.vertex_at(c), static_cast<Player>(sum % k + 1));
    for (std::size_t i = 0; i < d; ++i) {
      if (++idx[i] < m[i]) break;
      idx[i] = 0;
    }
  }
  // Positions on an axis are at least 2 apart (m <= max_seeds), so no two seeds touch.
  return s;
}

// ---- named setups

struct SetupDef {
  std::string name;
  std::function<bool(const Topology&, int)> fits;   // players = 0: any count it supports
  std::function<Setup(const Topology&, int)> make;  // players = 0: its own default
};

int or_default(int players, int def) {
  return players ? players : def;
}

const std::vector<SetupDef>& definitions() {
  static const std::vector<SetupDef> defs = {
      {"steere1995",
       [](const Topology& t, int k) {
         return (is_square_2d(t, 19) || is_square_2d(t, 9)) && (k == 0 || k == 2);
       },
       [](const Topology& t, int) {
         if (t.dims[0] == 19) {  // Figure A: A1 Black, columns A G N T x rows 1 7 13 19
           return grid_seeds(t, "steere1995", 2, {1, 7, 13, 19}, {1, 7, 13, 19},
                             [](int i, int j) { return (i + j) % 2 + 1; });
         }
         // Figure O: B2 and H8 Black, H2 and B8 White.
         return grid_seeds(t, "steere1995", 2, {2, 8}, {2, 8},
                           [](int i, int j) { return (i + j) % 2 + 1; });
       }},
      {"pbmserv",
       [](const Topology& t, int k) {
         return (is_square_2d(t, 19) || is_cube5(t)) && (k == 0 || k == 2);
       },
       [](const Topology& t, int) {
         if (t.dims.size() == 2) {  // Figure A of the pbmserv page: A1 White
           return grid_seeds(t, "pbmserv", 2, {1, 7, 13, 19}, {1, 7, 13, 19},
                             [](int i, int j) { return (i + j + 1) % 2 + 1; });
         }
         // 5x5x5: the eight corners; Black where an odd number of coordinates is 5.
         Setup s{"pbmserv", 2, {}};
         for (std::uint32_t z : {0u, 4u})
           for (std::uint32_t y : {0u, 4u})
             for (std::uint32_t x : {0u, 4u}) {
               const int fives = (x == 4) + (y == 4) + (z == 4);
               s.stones.emplace_back(t.vertex_at({x, y, z}), fives % 2 ? kBlack : kWhite);
             }
         return s;
       }},
      {"steere2005",
       [](const Topology& t, int k) { return is_square_2d(t, 13) && (k == 0 || k == 2); },
       [](const Topology& t, int) {  // columns A E J N x rows 1 5 9 13, A1 Black
         return grid_seeds(t, "steere2005", 2, {1, 5, 9, 13}, {1, 5, 9, 13},
                           [](int i, int j) { return (i + j) % 2 + 1; });
       }},
      {"steere2026",
       [](const Topology& t, int k) { return is_odd_square_2d(t) && (k == 0 || k == 2); },
       [](const Topology& t, int) {
         // The 2026 re-release: a stone on every point whose coordinates, counted from 1, are
         // both odd (so every corner holds one), coloured like a checkerboard, A1 Black.
         std::vector<std::uint32_t> odds;
         for (std::uint32_t x = 1; x <= t.dims[0]; x += 2) odds.push_back(x);
         return grid_seeds(t, "steere2026", 2, odds, odds,
                           [](int i, int j) { return (i + j) % 2 + 1; });
       }},
      {"four", [](const Topology& t, int k) { return is_square_2d(t, 19) && (k == 0 || k == 4); },
       [](const Topology& t, int) {
         // A Latin square on the 4x4 seed grid, symmetric under a quarter turn of the board
         // (which maps player p to p+1): every player has one seed in each row and column.
         static const int table[4][4] = {// [row j from the bottom][column i]
                                         {1, 3, 4, 2},
                                         {3, 1, 2, 4},
                                         {2, 4, 3, 1},
                                         {4, 2, 1, 3}};
         return grid_seeds(t, "four", 4, {1, 7, 13, 19}, {1, 7, 13, 19},
                           [](int i, int j) { return table[j][i]; });
       }},
      {"dense",
       [](const Topology& t, int k) {
         return t.kind == BoardKind::kLattice && !t.wrap && t.dims.size() == 2 &&
                t.dims[0] == t.dims[1] && t.dims[0] >= 3 &&
                // colour (i + j) mod k over m x m stones takes 2m - 1 values: all k must occur
                2 * (t.dims[0] / 2) - 1 >= static_cast<std::uint32_t>(std::max(k, 2));
       },
       [](const Topology& t, int k) {
         k = or_default(k, 2);
         std::vector<std::uint32_t> evens;
         for (std::uint32_t x = 2; x <= t.dims[0]; x += 2) evens.push_back(x);
         Setup s =
             grid_seeds(t, "dense", k, evens, evens, [k](int i, int j) { return (i + j) % k + 1; });
         return s;
       }},
      {"hexbo",
       [](const Topology& t, int k) {
         return t.kind == BoardKind::kHex && t.hex_side >= 3 &&
                (k == 0 || k == 2 || k == 3 || k == 6);
       },
       [](const Topology& t, int k) {
         k = or_default(k, 2);
         // One seed one cell in from each corner, colours in turn around the hexagon.
         const int d = static_cast<int>(t.hex_side) - 2;
         const int dirs[6][2] = {{1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}, {1, -1}};
         Setup s{"hexbo", k, {}};
         for (int i = 0; i < 6; ++i) {
           const std::array<int, 2> want{dirs[i][0] * d, dirs[i][1] * d};
           const auto it = std::find(t.hex_axial.begin(), t.hex_axial.end(), want);
           s.stones.emplace_back(static_cast<Vertex>(it - t.hex_axial.begin()),
                                 static_cast<Player>(i % k + 1));
         }
         return s;
       }},
      {"spaced",
       [](const Topology& t, int k) {
         return t.kind == BoardKind::kLattice && spaced(t, or_default(k, 2), nullptr).has_value();
       },
       [](const Topology& t, int k) {
         std::string why;
         auto s = spaced(t, or_default(k, 2), &why);
         if (!s) throw Error("setup spaced does not fit " + t.spec + ": " + why);
         return *s;
       }},
      {"file",
       [](const Topology& t, int k) {
         return t.kind == BoardKind::kFile && t.file_players && (k == 0 || k == t.file_players);
       },
       [](const Topology& t, int) {
         Setup s{"file", t.file_players, {}};
         for (Vertex v = 0; v < t.num_vertices(); ++v) {
           if (t.file_stones[v] != kEmpty) s.stones.emplace_back(v, t.file_stones[v]);
         }
         return s;
       }},
  };
  return defs;
}

}  // namespace

std::string default_setup(const Topology& t) {
  if (t.kind == BoardKind::kFile) return "file";
  if (t.kind == BoardKind::kHex) return "hexbo";
  if (is_square_2d(t, 19) || is_square_2d(t, 9)) return "steere1995";
  if (is_square_2d(t, 13)) return "steere2005";
  if (is_cube5(t)) return "pbmserv";
  if (is_odd_square_2d(t)) return "steere2026";
  return "spaced";
}

std::vector<std::string> setups_for(const Topology& t, int players) {
  std::vector<std::string> out;
  const std::string def = default_setup(t);
  for (const auto& d : definitions()) {
    if (d.fits(t, players)) out.push_back(d.name);
  }
  auto it = std::find(out.begin(), out.end(), def);
  if (it != out.end()) std::rotate(out.begin(), it, it + 1);
  return out;
}

Setup make_setup(const Topology& t, std::string_view name_in, int players) {
  std::string name = to_lower(name_in);
  if (players != 0 && (players < 2 || players > kMaxPlayers)) {
    throw Error("a game needs 2 to " + std::to_string(kMaxPlayers) + " players, not " +
                std::to_string(players));
  }
  if (name.empty() || name == "default") {
    // The board's default, or, when it cannot seat that many players, the first setup that
    // can (e.g. "four" for 4 players on 19x19).
    name = default_setup(t);
    const auto fit = setups_for(t, players);
    if (players != 0 && !fit.empty() && std::find(fit.begin(), fit.end(), name) == fit.end()) {
      name = fit.front();
    }
  }
  auto list = [&] {
    std::string s;
    for (const auto& n : setups_for(t, players)) s += (s.empty() ? "" : ", ") + n;
    return s.empty() ? std::string("none") : s;
  };
  const std::string who = players ? " for " + std::to_string(players) + " players" : "";
  for (const auto& d : definitions()) {
    if (d.name != name) continue;
    if (!d.fits(t, players)) {
      if (name == "file" && t.kind == BoardKind::kFile && !t.file_players) {
        throw Error("the DOT file places no stones (give nodes a stone attribute)");
      }
      std::string why;
      if (name == "spaced" && t.kind == BoardKind::kLattice) {
        spaced(t, players ? players : 2, &why);
        if (!why.empty()) why = " (" + why + ")";
      }
      throw Error("setup " + name + " does not fit " + t.spec + who + why +
                  "; setups that fit: " + list());
    }
    return d.make(t, players);
  }
  throw Error("unknown setup " + quote_input(std::string(name_in)) + "; setups that fit " + t.spec +
              who + ": " + list());
}

}  // namespace tanbo

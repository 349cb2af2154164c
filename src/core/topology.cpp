#include "tanbo/core/topology.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>

#include "dot.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"

namespace tanbo {

namespace {

std::vector<std::string> split_ws(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!cur.empty()) out.push_back(std::move(cur)), cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

// Parses a size of at least `minimum`; throws with `what` in the message.
std::uint64_t parse_size(std::string_view text, std::string_view what, std::uint64_t minimum = 1) {
  if (text.empty() || !std::all_of(text.begin(), text.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
      })) {
    throw Error(std::string(what) + " " + quote_input(text) + " is not a whole number");
  }
  std::uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || value > 0xFFFFFFFFull) {
    throw Error(std::string(what) + " " + shown_name(text, 40) + " is too large");
  }
  if (value < minimum)
    throw Error(std::string(what) + " must be at least " + std::to_string(minimum));
  return value;
}

// Refuses a board too big: more points than vertex ids can number, or an estimate (for two
// players, plus `extra` bytes: a DOT board's text and the reader's tables) over what the limit
// leaves a board. DOT reading calls it as the graph grows.
void check_size(std::string_view spec, std::uint64_t n, std::uint64_t e, const TopologyLimits& lim,
                std::uint64_t extra = 0) {
  const std::uint64_t need = estimated_memory(n, e, 2) + extra;
  const std::string what = quote_input(spec) + " has " + std::to_string(n) + " points and " +
                           std::to_string(e) + " edges";
  if (n > lim.max_vertices) {
    throw Error(what + " and would need about " + human_bytes(need) + " of memory; at most " +
                std::to_string(lim.max_vertices) + " points are supported");
  }
  if (e > lim.max_edges) {
    throw Error(what + "; at most " + std::to_string(lim.max_edges) + " edges are supported");
  }
  const auto limit = limit_of(lim);
  if (limit && need > limit->board_room())
    throw Error(what + " and " + memory_refusal(need, *limit));
}

}  // namespace

// ---------------------------------------------------------------- lattice helpers

std::vector<std::uint32_t> Topology::coords(Vertex v) const {
  std::vector<std::uint32_t> c(dims.size());
  for (std::size_t i = 0; i < dims.size(); ++i) {
    c[i] = v % dims[i];
    v /= dims[i];
  }
  return c;
}

Vertex Topology::vertex_at(const std::vector<std::uint32_t>& c) const {
  if (c.size() != dims.size()) return kNoVertex;
  std::uint64_t v = 0;
  for (std::size_t i = dims.size(); i-- > 0;) {
    if (c[i] >= dims[i]) return kNoVertex;
    v = v * dims[i] + c[i];
  }
  return static_cast<Vertex>(v);
}

// ---------------------------------------------------------------- generators

TopologyPtr make_lattice(const std::vector<std::uint32_t>& dims, bool wrap,
                         const TopologyLimits& limits) {
  if (dims.empty()) throw Error("a grid needs at least one size");
  std::string spec = dims.size() == 1 ? "line " : "grid ";
  std::uint64_t n = 1;
  std::uint64_t e = 0;
  bool too_big = false;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 0) throw Error("a board size must be at least 1");
    spec += (i ? "x" : "") + std::to_string(dims[i]);
    if (n > (1ull << 40) / dims[i])
      too_big = true;
    else
      n *= dims[i];
  }
  if (wrap) spec += " wrap";
  if (too_big) {
    throw Error(quote_input(spec) + " has more than 2^40 points; at most " +
                std::to_string(limits.max_vertices) + " are supported");
  }
  for (std::size_t i = 0; i < dims.size(); ++i) {
    const std::uint64_t per_line = dims[i] == 1 ? 0 : (wrap && dims[i] > 2 ? dims[i] : dims[i] - 1);
    e += n / dims[i] * per_line;
  }
  check_size(spec, n, e, limits);

  auto topo = std::make_shared<Topology>();
  topo->memory_budget = limit_of(limits);
  topo->kind = BoardKind::kLattice;
  topo->spec = spec;
  topo->dims = dims;
  topo->wrap = wrap;
  std::vector<std::pair<Vertex, Vertex>> edges;
  edges.reserve(e);
  const std::size_t d = dims.size();
  std::vector<std::uint64_t> stride(d, 1);
  for (std::size_t i = 1; i < d; ++i) stride[i] = stride[i - 1] * dims[i - 1];
  std::vector<std::uint32_t> c(d, 0);
  for (std::uint64_t v = 0; v < n; ++v) {
    for (std::size_t i = 0; i < d; ++i) {
      if (c[i] + 1 < dims[i]) {
        edges.emplace_back(static_cast<Vertex>(v), static_cast<Vertex>(v + stride[i]));
      } else if (wrap && dims[i] > 2) {
        edges.emplace_back(static_cast<Vertex>(v - (dims[i] - 1) * stride[i]),
                           static_cast<Vertex>(v));
      }
    }
    for (std::size_t i = 0; i < d; ++i) {  // odometer
      if (++c[i] < dims[i]) break;
      c[i] = 0;
    }
  }
  topo->graph = Graph::from_edges(static_cast<std::uint32_t>(n), edges);
  return topo;
}

TopologyPtr make_hex(std::uint32_t side, const TopologyLimits& limits) {
  if (side < 2) throw Error("a hex board needs a side of at least 2");
  const std::string spec = "hex " + std::to_string(side);
  const std::uint64_t s = side;
  if (s > (1u << 20)) throw Error(quote_input(spec) + " is far too large");
  const std::uint64_t n = 3 * s * (s - 1) + 1;
  check_size(spec, n, 3 * n, limits);
  auto topo = std::make_shared<Topology>();
  topo->memory_budget = limit_of(limits);
  topo->kind = BoardKind::kHex;
  topo->spec = spec;
  topo->hex_side = side;
  const int m = static_cast<int>(side) - 1;
  // Vertices are numbered row by row (r = -m..m), left to right (q ascending) in a row.
  std::vector<std::uint64_t> row_start(static_cast<std::size_t>(2 * m + 2), 0);
  auto qmin = [m](int r) { return std::max(-m, -m - r); };
  auto qmax = [m](int r) { return std::min(m, m - r); };
  for (int r = -m; r <= m; ++r) {
    row_start[static_cast<std::size_t>(r + m + 1)] =
        row_start[static_cast<std::size_t>(r + m)] +
        static_cast<std::uint64_t>(qmax(r) - qmin(r) + 1);
  }
  auto index = [&](int q, int r) -> Vertex {
    if (r < -m || r > m || q < qmin(r) || q > qmax(r)) return kNoVertex;
    return static_cast<Vertex>(row_start[static_cast<std::size_t>(r + m)] +
                               static_cast<std::uint64_t>(q - qmin(r)));
  };
  topo->hex_axial.reserve(n);
  for (int r = -m; r <= m; ++r) {
    for (int q = qmin(r); q <= qmax(r); ++q) topo->hex_axial.push_back({q, r});
  }
  std::vector<std::pair<Vertex, Vertex>> edges;
  edges.reserve(3 * n);
  const int dirs[3][2] = {{1, 0}, {0, 1}, {-1, 1}};
  for (Vertex v = 0; v < topo->hex_axial.size(); ++v) {
    const auto [q, r] = topo->hex_axial[v];
    for (const auto& dir : dirs) {
      const Vertex u = index(q + dir[0], r + dir[1]);
      if (u != kNoVertex) edges.emplace_back(v, u);
    }
  }
  topo->graph = Graph::from_edges(static_cast<std::uint32_t>(n), edges);
  return topo;
}

// ---------------------------------------------------------------- DOT

namespace {

std::optional<std::array<double, 3>> parse_pos(std::string s) {
  if (!s.empty() && s.back() == '!') s.pop_back();
  std::array<double, 3> out{0, 0, 0};
  std::size_t i = 0;
  std::stringstream ss(s);
  std::string part;
  while (std::getline(ss, part, ',')) {
    if (i >= 3) return std::nullopt;
    try {
      std::size_t used = 0;
      out[i++] = std::stod(part, &used);
      if (used != part.size()) return std::nullopt;
    } catch (...) {
      return std::nullopt;
    }
  }
  if (i < 2) return std::nullopt;
  return out;
}

// A node id in a message: as it is (ids are checked to be single words first), cut when long.
std::string shown(const std::string& id) {
  return id.size() <= 40 ? id : quote_input(id, 40);
}

// Reads the text without recursion. The reader's tables and the copy of the text the board
// keeps are counted with the board's own memory while it reads, so that a graph too big is
// refused long before it is all in memory.
dot::DotGraph read_dot_text(std::string_view text, const std::string& where,
                            const std::string& spec, const TopologyLimits& limits) {
  try {
    return dot::read_dot(text, [&](const dot::Growth& g) {
      check_size(spec, g.nodes, g.edges, limits, text.size() + g.bytes);
    });
  } catch (const Error& e) {
    const std::string what = e.what();
    if (what.rfind("line ", 0) == 0) throw Error(where + ": not valid Graphviz DOT: " + what);
    throw Error(where + ": " + what);
  }
}

// Words that name no point where a move is read, with who reads them otherwise: GTP (docs/
// protocol.md) and its controllers read "pass" and "resign" in any case as a pass and a
// resignation; a game file reads "COLOUR resigns" as a resignation.
constexpr std::pair<std::string_view, std::string_view> kReservedIds[] = {
    {"pass", "the engine protocol (GTP) reads \"pass\", in any case, as a pass"},
    {"resign", "the engine protocol (GTP) reads \"resign\", in any case, as a resignation"},
    {"resigns", "a game file reads \"COLOUR resigns\", in any case, as a resignation"},
};

// Moves name points by node id, on a command line, a game-file line or in the engine protocol:
// an id must be a single word (no space, control character or '#', which starts a protocol
// comment), and not one of the reserved words.
void check_node_ids(const std::vector<std::string>& ids, const std::string& where) {
  for (const std::string& id : ids) {
    if (id.empty() || std::any_of(id.begin(), id.end(), [](char c) {
          const auto u = static_cast<unsigned char>(c);
          return u <= ' ' || u == 127 || c == '#';
        })) {
      throw Error(where + ": node id " + quote_input(id) +
                  " cannot name a point: an id must be one word without spaces, control "
                  "characters or '#'");
    }
    if (!is_utf8(id)) {  // (game files, the protocol and Python show names as UTF-8 text)
      throw Error(where + ": node id " + quote_input(id) + " is not UTF-8 text");
    }
    if (id.size() > std::string_view("resigns").size()) continue;  // longer than any of them
    for (const auto& [word, why] : kReservedIds) {
      if (to_lower(id) == word) {
        throw Error(where + ": node id " + quote_input(id) +
                    " cannot name a point: " + std::string(why));
      }
    }
  }
}

// The board's graph. Self-loops are refused; an edge made twice is refused in an undirected
// graph that is not strict (the first repeat in the file is named), and merged otherwise (in a
// digraph a->b and b->a are one adjacency).
Graph dot_board_graph(const dot::DotGraph& dg, const std::string& where) {
  for (auto [a, b] : dg.edges) {
    if (a == b) {
      throw Error(where + ": self-loop at node " + shown(dg.ids[a]) +
                  " (a point cannot be its own neighbour)");
    }
  }
  const auto n = static_cast<std::uint32_t>(dg.ids.size());
  Graph g = Graph::from_edges(n, dg.edges, Graph::Duplicates::kMerge);
  if (dg.directed || dg.strict || g.num_edges() == dg.edges.size()) return g;
  const Vertex* base = g.neighbours(0).data();
  std::vector<bool> seen(2 * g.num_edges());  // one bit per arc
  for (auto [a, b] : dg.edges) {
    const auto [lo, hi] = std::minmax(a, b);
    const auto nb = g.neighbours(lo);
    const auto slot = static_cast<std::size_t>(std::lower_bound(nb.begin(), nb.end(), hi) -
                                               nb.begin() + (nb.data() - base));
    if (seen[slot]) {
      throw Error(where + ": duplicate edge " + shown(dg.ids[a]) + " -- " + shown(dg.ids[b]));
    }
    seen[slot] = true;
  }
  return g;  // not reached: the graph has fewer edges than were made, so one repeats
}

// The graph attribute `players`, and the node attributes `stone` and `pos`.
void read_dot_attributes(const dot::DotGraph& dg, Topology& topo, const std::string& where) {
  if (!dg.players.empty()) {
    auto p = parse_player(dg.players, kMaxPlayers);
    bool digits = std::all_of(dg.players.begin(), dg.players.end(),
                              [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    if (!digits || !p || *p < 2) {
      throw Error(where + ": graph attribute players=" + quote_input(dg.players) +
                  " must be a number from 2 to " + std::to_string(kMaxPlayers));
    }
    topo.file_players = *p;
  }
  const auto n = static_cast<Vertex>(dg.ids.size());
  topo.file_stones.assign(n, kEmpty);
  bool all_pos = true;
  int max_stone = 0;
  for (Vertex v = 0; v < n; ++v) {
    if (!dg.stone(v).empty()) {
      auto p = parse_player(dg.stone(v), kMaxPlayers);
      if (!p) {
        throw Error(where + ": node " + shown(dg.ids[v]) + " has stone=" +
                    quote_input(dg.stone(v)) + ", which is not a player (a number 1.." +
                    std::to_string(kMaxPlayers) + " or a colour name)");
      }
      if (topo.file_players && *p > topo.file_players) {
        throw Error(where + ": node " + shown(dg.ids[v]) + " has a stone of player " +
                    std::to_string(*p) +
                    " but the graph says players=" + std::to_string(topo.file_players));
      }
      topo.file_stones[v] = *p;
      max_stone = std::max(max_stone, int(*p));
    }
    auto pos = all_pos ? parse_pos(dg.pos(v)) : std::nullopt;
    if (pos)
      topo.positions.push_back(*pos);
    else
      all_pos = false;
  }
  if (!all_pos) topo.positions.clear();
  if (!topo.file_players && max_stone) topo.file_players = std::max(2, max_stone);
}

}  // namespace

TopologyPtr make_from_dot(std::string_view dot_text, std::string_view origin,
                          const TopologyLimits& limits) {
  const std::string where = "DOT board " + shown_name(origin);
  dot_text = without_byte_order_mark(dot_text, where);
  if (dot_text.find('\0') != std::string_view::npos) {
    throw Error(where + ": the file is binary, not Graphviz DOT text");
  }
  if (std::all_of(dot_text.begin(), dot_text.end(),
                  [](char c) { return std::isspace(static_cast<unsigned char>(c)); })) {
    throw Error(where + ": the file is empty (a DOT board looks like: graph { a -- b -- c })");
  }
  auto topo = std::make_shared<Topology>();
  topo->memory_budget = limit_of(limits);
  topo->kind = BoardKind::kFile;
  topo->spec = "file " + std::string(origin);
  dot::DotGraph dg = read_dot_text(dot_text, where, topo->spec, limits);
  if (dg.ids.empty()) throw Error(where + ": the graph has no nodes");
  check_node_ids(dg.ids, where);
  topo->graph = dot_board_graph(dg, where);
  read_dot_attributes(dg, *topo, where);
  topo->node_ids = std::move(dg.ids);
  topo->index_node_ids();
  topo->dot_text = std::string(dot_text);
  return topo;
}

bool same_board(const Topology& a, const Topology& b) {
  if (&a == &b) return true;  // (copies of a position share their board)
  if (a.spec != b.spec || a.kind != b.kind) return false;
  if (a.kind != BoardKind::kFile) return true;
  return a.node_ids == b.node_ids && a.graph.offsets() == b.graph.offsets() &&
         a.graph.targets() == b.graph.targets();
}

std::string dot_lines(const Topology& topo) {
  if (topo.kind != BoardKind::kFile) return "";
  std::string out;
  std::istringstream text(topo.dot_text);
  for (std::string line; std::getline(text, line);) {
    drop_carriage_returns(line);
    out += "dot " + line + "\n";
  }
  return out;
}

bool append_dot_line(std::string_view line, std::string& dot_text) {
  if (line.substr(0, 3) != "dot" || (line.size() > 3 && line[3] != ' ')) return false;
  dot_text += line.size() > 4 ? line.substr(4) : std::string_view{};
  dot_text += '\n';
  return true;
}

TopologyPtr carried_board(std::string_view spec, const std::string& dot_text,
                          TopologyLimits limits) {
  if (!dot_text.empty()) {
    limits.read_dot_file = [&dot_text](const std::string&, const MemoryLimit*) { return dot_text; };
  }
  return parse_topology(spec, limits);
}

// ---------------------------------------------------------------- spec parser

namespace {

constexpr const char* kUsage =
    "topology specs: \"line N\", \"grid AxBx... [wrap]\", \"hex N\", \"file PATH\"";

// The spec with single spaces, quoted short, for messages.
std::string spec_shown(const std::vector<std::string>& words) {
  std::string joined;
  for (const auto& w : words) joined += (joined.empty() ? "" : " ") + w;
  return quote_input(joined, 30);
}

// "file PATH": the path is everything after the keyword (it may hold spaces), read by the
// caller's reader (TopologyLimits::read_dot_file).
TopologyPtr read_dot_file(std::string_view spec_text, const TopologyLimits& limits) {
  // The blanks before and after the keyword are those split_ws sees (a vertical tab or form
  // feed too), so that the path is what follows the word the spec was recognised by.
  constexpr std::string_view kBlanks = " \t\n\v\f\r";
  std::string_view rest = spec_text;
  rest.remove_prefix(rest.find_first_not_of(kBlanks));
  rest.remove_prefix(4);  // "file", any case
  const std::string path = trim(rest, kBlanks);
  if (path.empty()) throw Error("\"file\" needs a path: file PATH");
  if (!limits.read_dot_file) {
    throw Error("a \"file\" board needs a reader of files (parse_topology of platform/memory.hpp)");
  }
  const auto limit = limit_of(limits);
  return make_from_dot(limits.read_dot_file(path, limit ? &*limit : nullptr), path, limits);
}

// "hex N" and nothing else.
TopologyPtr read_hex_spec(const std::vector<std::string>& words, const TopologyLimits& limits) {
  if (words.size() == 1) throw Error("\"hex\" takes one size: hex N (e.g. hex 5)");
  if (words.size() > 2) {
    const std::string w = to_lower(words[2]);
    if (w == "wrap" || w == "torus") {
      throw Error(spec_shown(words) + ": a hex board does not wrap (only lattices do)");
    }
    throw Error(spec_shown(words) + ": unexpected " + quote_input(words[2]) +
                " (\"hex\" takes one size: hex N)");
  }
  return make_hex(static_cast<std::uint32_t>(parse_size(words[1], "hex size", 2)), limits);
}

// "AxBx...": the sizes of the axes.
std::vector<std::uint32_t> read_sizes(const std::string& text,
                                      const std::vector<std::string>& words) {
  const std::string sizes = to_lower(text);
  if (sizes == "wrap" || sizes == "torus") {
    throw Error(spec_shown(words) + ": the sizes come first, then \"wrap\" (grid 9x9 wrap)");
  }
  std::vector<std::uint32_t> dims;
  std::size_t start = 0;
  for (;;) {
    const std::size_t x = sizes.find('x', start);
    if (x == start || start == sizes.size()) {
      throw Error("topology " + spec_shown(words) +
                  " has an empty size (sizes are joined by x: 9x9, 5x5x5)");
    }
    const std::size_t end = x == std::string::npos ? sizes.size() : x;
    dims.push_back(static_cast<std::uint32_t>(
        parse_size(std::string_view(sizes).substr(start, end - start), "board size")));
    if (dims.size() > 64) throw Error(spec_shown(words) + ": at most 64 axes are supported");
    if (x == std::string::npos) return dims;
    start = x + 1;
  }
}

// What may follow the sizes: "wrap" (or "torus"), once.
bool read_wrap(const std::vector<std::string>& words, std::size_t from) {
  bool wrap = false;
  for (std::size_t i = from; i < words.size(); ++i) {
    const std::string w = to_lower(words[i]);
    if (w != "wrap" && w != "torus") {
      throw Error(spec_shown(words) + ": unexpected " + quote_input(words[i]) +
                  " after the sizes (only \"wrap\" may follow them)");
    }
    if (wrap) {
      throw Error(spec_shown(words) +
                  " says \"wrap\" twice (\"torus\" is the same option); give it once");
    }
    wrap = true;
  }
  return wrap;
}

}  // namespace

bool is_file_spec(std::string_view spec) {
  const auto words = split_ws(spec);
  return !words.empty() && to_lower(words[0]) == "file";
}

TopologyPtr parse_topology(std::string_view spec_text, const TopologyLimits& limits) {
  if (!is_utf8(spec_text)) {  // (a spec is shown and written to game files as UTF-8 text)
    throw Error("the topology spec " + quote_input(spec_text) + " is not UTF-8 text");
  }
  const auto words = split_ws(spec_text);
  if (words.empty()) {
    throw Error(
        "empty topology spec (try \"grid 19x19\", \"line 31\", \"hex 5\" or \"file board.dot\")");
  }
  const std::string kind = to_lower(words[0]);
  if (kind == "file") return read_dot_file(spec_text, limits);
  if (kind == "hex") return read_hex_spec(words, limits);
  // Lattices: "line N", "grid AxB...", "lattice AxB..." or just "AxB...", then "wrap".
  const bool is_line = kind == "line";
  const bool named = is_line || kind == "grid" || kind == "lattice";
  if (!named && !std::isdigit(static_cast<unsigned char>(kind[0]))) {
    throw Error("unknown topology " + spec_shown(words) + "; " + kUsage);
  }
  const std::size_t at = named ? 1 : 0;
  if (words.size() <= at) {
    throw Error(spec_shown(words) + " needs sizes: " +
                (is_line ? "line N (e.g. line 31)" : "grid AxBx... (e.g. grid 9x9)"));
  }
  const std::vector<std::uint32_t> dims = read_sizes(words[at], words);
  const bool wrap = read_wrap(words, at + 1);
  if (is_line && dims.size() != 1) {
    throw Error("\"line\" takes one size: line N");
  }
  if (wrap && std::none_of(dims.begin(), dims.end(), [](std::uint32_t d) { return d > 2; })) {
    throw Error(spec_shown(words) +
                ": \"wrap\" changes nothing when no side has more than 2 points");
  }
  return make_lattice(dims, wrap, limits);
}

}  // namespace tanbo

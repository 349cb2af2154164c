#include "tanbo/topology.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "dot.hpp"
#include "tanbo/error.hpp"
#include "tanbo/text.hpp"

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

// Parses a positive size; throws with `what` in the message.
std::uint64_t parse_size(std::string_view text, std::string_view what) {
  if (text.empty() || !std::all_of(text.begin(), text.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
      })) {
    throw Error(std::string(what) + " " + quote_input(std::string(text)) +
                " is not a whole number");
  }
  std::uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || value > 0xFFFFFFFFull) {
    throw Error(std::string(what) + " " + std::string(text) + " is too large");
  }
  if (value == 0) throw Error(std::string(what) + " must be at least 1");
  return value;
}

std::string human_bytes(std::uint64_t b) {
  const char* units[] = {"B", "KB", "MB", "GB", "TB", "PB", "EB"};
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1024 && u < 6) v /= 1024, ++u;
  std::ostringstream os;
  os.precision(v < 10 ? 2 : 3);
  os << v << " " << units[u];
  return os.str();
}

// The first number of a file such as memory.max, nullopt when it cannot be read or says "max".
std::optional<std::uint64_t> read_number(const std::string& path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word.empty() || !std::isdigit(static_cast<unsigned char>(word[0]))) {
    return std::nullopt;
  }
  std::uint64_t value = 0;
  const auto [ptr, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (ec != std::errc()) return std::nullopt;
  return value;
}

// A value "Key:   123 kB" of /proc/self/status or /proc/meminfo, in bytes.
std::optional<std::uint64_t> proc_kb(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key + ":", 0) != 0) continue;
    std::istringstream fields(line.substr(key.size() + 1));
    std::uint64_t kb = 0;
    if (fields >> kb) return kb * 1024;
  }
  return std::nullopt;
}

// The room left in this process's memory cgroup (v2: memory.max of its cgroup and of every
// parent; v1: memory.limit_in_bytes), less what the cgroup uses; nullopt without a limit.
std::optional<std::uint64_t> cgroup_room() {
  std::ifstream in("/proc/self/cgroup");
  std::optional<std::uint64_t> room;
  auto consider = [&](std::optional<std::uint64_t> max, std::optional<std::uint64_t> used) {
    if (!max || *max >= (1ull << 60)) return;  // "max", or v1's huge "no limit"
    const std::uint64_t left = *max > used.value_or(0) ? *max - used.value_or(0) : 0;
    room = room ? std::min(*room, left) : left;
  };
  for (std::string line; std::getline(in, line);) {
    const auto c1 = line.find(':'), c2 = line.find(':', c1 + 1);
    if (c1 == std::string::npos || c2 == std::string::npos) continue;
    const std::string controllers = line.substr(c1 + 1, c2 - c1 - 1);
    std::string path = line.substr(c2 + 1);
    if (controllers.empty()) {  // v2: the cgroup and each of its parents
      for (;;) {
        const std::string dir = "/sys/fs/cgroup" + (path == "/" ? "" : path);
        consider(read_number(dir + "/memory.max"), read_number(dir + "/memory.current"));
        if (path.empty() || path == "/") break;
        const auto slash = path.rfind('/');
        path = slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
      }
    } else if (("," + controllers + ",").find(",memory,") != std::string::npos) {
      const std::string dir = "/sys/fs/cgroup/memory" + (path == "/" ? "" : path);
      consider(read_number(dir + "/memory.limit_in_bytes"),
               read_number(dir + "/memory.usage_in_bytes"));
    }
  }
  return room;
}

std::uint64_t g_max_memory = 0;  // set_max_memory (--max-memory); 0 = automatic

// Reads SIZE: a whole or decimal number of bytes with an optional K, M, G or T (powers of 1024,
// any case, an optional trailing B). nullopt when it is none of these.
std::optional<std::uint64_t> read_size(std::string_view text) {
  std::string t = to_lower(trim(text));
  if (!t.empty() && t.back() == 'b') t.pop_back();
  double unit = 1;
  if (!t.empty() && std::string_view("kmgt").find(t.back()) != std::string_view::npos) {
    unit = std::pow(1024.0, 1 + static_cast<double>(std::string_view("kmgt").find(t.back())));
    t.pop_back();
  }
  if (t.empty() || !std::all_of(t.begin(), t.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) || c == '.';
      })) {
    return std::nullopt;
  }
  char* end = nullptr;
  const double value = std::strtod(t.c_str(), &end) * unit;
  if (*end != '\0' || !(value >= 1) || value > 1e18) return std::nullopt;
  return static_cast<std::uint64_t>(value);
}

}  // namespace

std::uint64_t parse_memory_size(std::string_view text, std::string_view what) {
  const auto size = read_size(text);
  if (!size) {
    throw Error(std::string(what) + " " + quote_input(text) +
                " is not a size (say 512M, 4G or a number of bytes)");
  }
  return *size;
}

void set_max_memory(std::uint64_t bytes) {
  g_max_memory = bytes;
}

MemoryLimit memory_limit() {
  if (g_max_memory) return {g_max_memory, "--max-memory"};
  if (const char* env = std::getenv("TANBO_MAX_MEMORY"); env && *env) {
    return {parse_memory_size(env, "TANBO_MAX_MEMORY"), "TANBO_MAX_MEMORY"};
  }
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  MemoryLimit limit{pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * page : 1ull << 34,
                    "the machine's physical memory"};
  if (const auto room = cgroup_room(); room && *room < limit.bytes) {
    limit = {*room, "the cgroup's memory.max, less what the cgroup uses"};
  }
  rlimit as{};
  if (::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
    const std::uint64_t used = proc_kb("/proc/self/status", "VmSize").value_or(0);
    const std::uint64_t room = as.rlim_cur > used ? as.rlim_cur - used : 0;
    if (room < limit.bytes) limit = {room, "ulimit -v (RLIMIT_AS), less what the program uses"};
  }
  return limit;
}

namespace {

// `extra`: bytes the board needs beyond estimated_memory's count (a DOT board's text and ids).
void check_size(std::string_view spec, std::uint64_t n, std::uint64_t e, const TopologyLimits& lim,
                std::uint64_t extra = 0) {
  if (n > lim.max_vertices) {
    throw Error(quote_input(std::string(spec)) + " has " + std::to_string(n) +
                " points and would need about " + human_bytes(estimated_memory(n, e, 2)) +
                " of memory; at most " + std::to_string(lim.max_vertices) +
                " points are supported");
  }
  const std::uint64_t need = estimated_memory(n, e, 2) + extra;
  const MemoryLimit limit =
      lim.memory_bytes ? MemoryLimit{lim.memory_bytes, "the caller's limit"} : memory_limit();
  // The estimate leaves out what a search or a viewer adds: a fifth of the limit is kept free.
  if (need > limit.bytes / 10 * 8) {
    throw Error(quote_input(std::string(spec)) + " has " + std::to_string(n) + " points and " +
                std::to_string(e) + " edges and would need about " + human_bytes(need) +
                " of memory, more than 80% of the limit of " + human_bytes(limit.bytes) + " (" +
                limit.source + "); --max-memory SIZE or TANBO_MAX_MEMORY=SIZE sets another limit");
  }
}

}  // namespace

std::uint64_t estimated_memory(std::uint64_t n, std::uint64_t e, int players) {
  const std::uint64_t k = static_cast<std::uint64_t>(std::max(players, 2));
  // Per vertex: colour, root, next, CSR offset, lattice bookkeeping; per vertex and player:
  // neighbour slot (8), legal set and position (8). Per edge while building: the edge list and
  // both arcs of the CSR (about 28 bytes). Measured peaks (tanbo show of a new game,
  // /usr/bin/time): 1000x1000 77 MB (this estimates 112), 2000x2000 288 (448), 300x300x10 95 (123),
  // 30x30x30x30 110 (133), hex 300 36 (38): never under, at most 1.6 times over.
  return n * (24 + 16 * k) + e * 28;
}

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

// Moves name points by node id, on a command line or a game-file line: an id must be a single
// word (no space, control character or '#', which starts a protocol comment).
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
  const std::string where = "DOT board " + std::string(origin);
  if (dot_text.find('\0') != std::string_view::npos) {
    throw Error(where + ": the file is binary, not Graphviz DOT text");
  }
  if (std::all_of(dot_text.begin(), dot_text.end(),
                  [](char c) { return std::isspace(static_cast<unsigned char>(c)); })) {
    throw Error(where + ": the file is empty (a DOT board looks like: graph { a -- b -- c })");
  }
  auto topo = std::make_shared<Topology>();
  topo->kind = BoardKind::kFile;
  topo->spec = "file " + std::string(origin);
  dot::DotGraph dg = read_dot_text(dot_text, where, topo->spec, limits);
  if (dg.ids.empty()) throw Error(where + ": the graph has no nodes");
  check_node_ids(dg.ids, where);
  topo->graph = dot_board_graph(dg, where);
  read_dot_attributes(dg, *topo, where);
  topo->node_ids = std::move(dg.ids);
  topo->dot_text = std::string(dot_text);
  return topo;
}

// ---------------------------------------------------------------- spec parser

TopologyPtr parse_topology(std::string_view spec_text, const TopologyLimits& limits) {
  const auto words = split_ws(spec_text);
  std::string trimmed;  // the spec with single spaces, for messages
  for (const auto& w : words) trimmed += (trimmed.empty() ? "" : " ") + w;
  if (words.empty())
    throw Error(
        "empty topology spec (try \"grid 19x19\", \"line 31\", \"hex 5\" or \"file board.dot\")");
  const std::string kind = to_lower(words[0]);
  const char* usage =
      "topology specs: \"line N\", \"grid AxBx... [wrap]\", \"hex N\", \"file PATH\"";
  if (kind == "file") {
    if (words.size() < 2) throw Error("\"file\" needs a path: file PATH");
    // The path is everything after the keyword (it may contain spaces).
    std::string_view rest = spec_text;
    rest.remove_prefix(rest.find_first_not_of(" \t"));
    rest.remove_prefix(4);
    rest.remove_prefix(rest.find_first_not_of(" \t"));
    while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.back())))
      rest.remove_suffix(1);
    const std::string path(rest);
    // Only a regular file: a FIFO would block the open forever, a device or /dev/stdin has no size.
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
      throw Error("DOT file " + quote_input(path, 256) + " is not a regular file");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("cannot open DOT file " + quote_input(path, 256));
    in.seekg(0, std::ios::end);
    const auto size = static_cast<std::uint64_t>(in.tellg());
    if (size > (1ull << 30))
      throw Error("DOT file " + quote_input(path, 256) + " is larger than 1 GB");
    in.seekg(0);
    std::string text(size, '\0');
    in.read(text.data(), static_cast<std::streamsize>(size));
    if (!in) throw Error("cannot read DOT file " + quote_input(path, 256));
    return make_from_dot(text, path, limits);
  }
  if (kind == "hex") {
    if (words.size() != 2) throw Error("\"hex\" takes one size: hex N (e.g. hex 5)");
    return make_hex(static_cast<std::uint32_t>(parse_size(words[1], "hex size")), limits);
  }
  std::size_t at = 0;
  bool is_line = false;
  if (kind == "grid" || kind == "lattice") {
    at = 1;
  } else if (kind == "line") {
    at = 1;
    is_line = true;
  } else if (!kind.empty() && std::isdigit(static_cast<unsigned char>(kind[0]))) {
    at = 0;
  } else {
    throw Error("unknown topology " + quote_input(trimmed) + "; " + usage);
  }
  if (words.size() <= at) throw Error(quote_input(trimmed) + " needs sizes; " + usage);
  bool wrap = false;
  for (std::size_t i = at + 1; i < words.size(); ++i) {
    const std::string w = to_lower(words[i]);
    if (w == "wrap" || w == "torus") {
      if (wrap) {
        throw Error("topology " + quote_input(trimmed) +
                    " says \"wrap\" twice (\"torus\" is the "
                    "same option); give it once");
      }
      wrap = true;
    } else {
      throw Error("unexpected " + quote_input(words[i]) + " in topology " + quote_input(trimmed) +
                  "; " + usage);
    }
  }
  std::vector<std::uint32_t> dims;
  std::string sizes = to_lower(words[at]);
  std::size_t start = 0;
  while (true) {
    const std::size_t x = sizes.find('x', start);
    if (x == start || start == sizes.size()) {
      throw Error("topology " + quote_input(trimmed) +
                  " has an empty size (sizes are joined by x: 9x9, 5x5x5)");
    }
    dims.push_back(static_cast<std::uint32_t>(
        parse_size(std::string_view(sizes).substr(
                       start, x == std::string::npos ? std::string::npos : x - start),
                   "board size")));
    if (x == std::string::npos) break;
    start = x + 1;
  }
  if (is_line && dims.size() != 1) throw Error("\"line\" takes one size: line N");
  if (dims.size() > 64) throw Error("at most 64 axes are supported");
  return make_lattice(dims, wrap, limits);
}

}  // namespace tanbo

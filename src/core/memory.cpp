// The memory a board needs: the estimate of a board's peak, the limit a caller passes in, and
// the refusal that names both. What the machine allows is found by the platform layer
// (src/platform/memory_limit.cpp).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>

#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/core/topology.hpp"

namespace tanbo {

namespace {

// A board may take this share of what is left under the limit (in percent): the rest is for
// what the estimate leaves out (a search's tree, rendering, the allocator's own overhead).
constexpr std::uint64_t kBoardShare = 80;

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
  if (t.empty() || t.size() > 30 || std::count(t.begin(), t.end(), '.') > 1 ||
      !std::all_of(t.begin(), t.end(), [](char c) {
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
                " is not a size (say 512M, 4G, 1.5G or a number of bytes)");
  }
  return *size;
}

std::string human_bytes(std::uint64_t b) {
  const char* units[] = {"B", "KB", "MB", "GB", "TB", "PB", "EB"};
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1024 && u < 6) v /= 1024, ++u;
  std::ostringstream os;
  os.precision(v < 10 ? 2 : 3);  // "6.9 GB", "1 GB", "249 MB"
  os << v << " " << units[u];
  return os.str();
}

std::uint64_t MemoryLimit::board_room() const {
  const std::uint64_t left = bytes > used ? bytes - used : 0;
  return left / 100 * kBoardShare;
}

std::optional<MemoryLimit> limit_of(const TopologyLimits& limits) {
  if (limits.memory) return limits.memory;
  if (limits.memory_bytes) return MemoryLimit{limits.memory_bytes, 0, "the caller's limit"};
  return std::nullopt;
}

std::uint64_t estimated_memory(std::uint64_t n, std::uint64_t e, int players) {
  const std::uint64_t k = static_cast<std::uint64_t>(std::clamp(players, 2, 64));
  // Building: the edge list (8 bytes an edge), both arcs of each edge (16), the CSR being made
  // and the board's (8 and a little more each), offsets. Measured 9 n + 34 e on lattices of
  // 1 to 13 axes (the least ulimit -v under which tanbo show of a new game runs, less the
  // program's own 44 MB); counted here with a margin.
  const std::uint64_t build = 10 * n + 36 * e;
  // Playing: offsets (4 a point) and arcs (8 an edge) of the board; per point an entry of 16
  // bytes, 8 per player and at most 32 of neighbour ids, and a bit per player in the legal
  // sets; counted with a margin.
  const std::uint64_t play = n * (56 + 10 * k) + 9 * e;
  // Hex boards keep 8 bytes of coordinates a point. Measured against this (bytes a point):
  // 2000x2000 77 (this says 103), hex 600 119 (127), 160x160x160 110 (126), 3^13 304 (331),
  // 40^4 142 (159), hex 600 with 6 players 128 (152), 2000x2000 with 8 players 103 (163),
  // its torus with 4 players 87 (123).
  // A position's big buffer is aligned to 2 MB for huge pages (tuning.hpp): up to 4 MB more
  // of address space.
  return std::max(build, play) + 9 * n + (std::uint64_t{4} << 20);
}

std::string memory_refusal(std::uint64_t need, const MemoryLimit& limit) {
  const std::string share = std::to_string(kBoardShare) + "%";
  return "would need about " + human_bytes(need) + " of memory; a board may use " +
         human_bytes(limit.board_room()) + ", " + share +
         (limit.used ? " of what is not in use yet under" : " of") + " the limit of " +
         human_bytes(limit.bytes) + " (" + limit.source + "); raise or lower the limit with " +
         limit.advice;
}

void check_game_memory(const Topology& topo, int players) {
  if (players <= 2 || !topo.memory_budget) return;  // parse_topology counted two players
  const MemoryLimit& limit = *topo.memory_budget;
  // The budget was taken before the board was built: the whole game must fit in it.
  const std::uint64_t need =
      estimated_memory(topo.num_vertices(), topo.graph.num_edges(), players) +
      topo.dot_text.size() + topo.node_ids.size() * (sizeof(std::string) + sizeof(Vertex));
  if (need > limit.board_room()) {
    throw Error(quote_input(topo.spec) + " with " + std::to_string(players) + " players " +
                memory_refusal(need, limit));
  }
}

}  // namespace tanbo

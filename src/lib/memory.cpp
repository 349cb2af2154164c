// The memory a board may use: the limit (--max-memory, TANBO_MAX_MEMORY, physical memory, the
// memory cgroup, ulimit -v), the estimate of a board's peak, and the refusal that names both.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/core/topology.hpp"

namespace tanbo {

namespace {

std::uint64_t g_max_memory = 0;  // set_max_memory (--max-memory); 0 = not set

// A board may take this share of what is left under the limit (in percent): the rest is for
// what the estimate leaves out (a search's tree, rendering, the allocator's own overhead).
constexpr std::uint64_t kBoardShare = 80;

// ---------------------------------------------------------------- sizes

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

// ---------------------------------------------------------------- files of /proc and /sys

// The first word of a file such as memory.max as a number; nullopt when the file cannot be read
// or holds no number ("max").
std::optional<std::uint64_t> read_number(const std::string& path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || !std::isdigit(static_cast<unsigned char>(word[0]))) return std::nullopt;
  std::uint64_t value = 0;
  const auto [ptr, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (ec != std::errc()) return std::nullopt;
  return value;
}

// The value of `key` in a file of "key value" lines (memory.stat); `scale` multiplies it.
// With a colon after the key ("VmSize:  123 kB" of /proc/self/status) when `colon` is set.
std::optional<std::uint64_t> read_keyed(const std::string& path, const std::string& key,
                                        std::uint64_t scale = 1, bool colon = false) {
  std::ifstream in(path);
  const std::string head = key + (colon ? ":" : " ");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(head, 0) != 0) continue;
    std::istringstream fields(line.substr(head.size()));
    std::uint64_t value = 0;
    if (fields >> value) return value * scale;
  }
  return std::nullopt;
}

// ---------------------------------------------------------------- the memory cgroup

// Where a cgroup hierarchy is mounted: the cgroup path at the mount point (`root`, "/" unless
// the mount shows a part of the tree, as in a container) and the mount point.
struct CgroupMount {
  std::string root;
  std::string point;
};

// The mounts of the memory hierarchy: cgroup2 (v2) and cgroup with the memory controller (v1).
void find_cgroup_mounts(const std::string& root, std::optional<CgroupMount>& v2,
                        std::optional<CgroupMount>& v1) {
  std::ifstream in(root + "/proc/self/mountinfo");
  for (std::string line; std::getline(in, line);) {
    // "36 25 0:31 / /sys/fs/cgroup/memory rw,nosuid shared:14 - cgroup cgroup rw,memory"
    const auto dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream head(line.substr(0, dash)), tail(line.substr(dash + 3));
    std::string id, parent, device, mount_root, point, type, source, options;
    if (!(head >> id >> parent >> device >> mount_root >> point)) continue;
    if (!(tail >> type >> source >> options)) continue;
    if (type == "cgroup2" && !v2) v2 = CgroupMount{mount_root, point};
    if (type == "cgroup" && !v1 && ("," + options + ",").find(",memory,") != std::string::npos) {
      v1 = CgroupMount{mount_root, point};
    }
  }
}

// The directory of cgroup `path` under `mount` (the path is relative to the mount's root when
// it lies below it; a path outside the mounted part falls back to the mount point).
std::string cgroup_dir(const std::string& root, const CgroupMount& mount, std::string path) {
  if (mount.root != "/" && path.rfind(mount.root, 0) == 0) path = path.substr(mount.root.size());
  const std::string dir = root + mount.point + (path == "/" ? "" : path);
  std::error_code ec;
  return std::filesystem::is_directory(dir, ec) ? dir : root + mount.point;
}

// The tightest limit on `dir` and every parent up to the mount point: the level with the least
// room (limit less use, page cache that can be dropped not counted as use).
std::optional<MemoryLimit> tightest_level(std::string dir, const std::string& top, bool v2) {
  std::optional<MemoryLimit> best;
  for (;;) {
    const auto max = read_number(dir + (v2 ? "/memory.max" : "/memory.limit_in_bytes"));
    if (max && *max < (1ull << 60)) {  // v2 "max" is no number; v1 says "no limit" with 2^63
      const auto usage = read_number(dir + (v2 ? "/memory.current" : "/memory.usage_in_bytes"));
      const auto cache =
          read_keyed(dir + "/memory.stat", v2 ? "inactive_file" : "total_inactive_file");
      std::uint64_t used = usage.value_or(0);
      used -= std::min(used, cache.value_or(0));
      const MemoryLimit level{
          *max, std::min(used, *max),
          v2 ? "the cgroup's memory.max" : "the cgroup's memory.limit_in_bytes"};
      if (!best || level.bytes - level.used < best->bytes - best->used) best = level;
    }
    if (dir.size() <= top.size()) break;
    const auto slash = dir.rfind('/');
    if (slash == std::string::npos || slash < top.size()) break;
    dir = dir.substr(0, slash);
  }
  return best;
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

void set_max_memory(std::uint64_t bytes) {
  g_max_memory = bytes;
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

std::optional<MemoryLimit> cgroup_memory_limit(const std::string& root) {
  std::optional<CgroupMount> v2, v1;
  find_cgroup_mounts(root, v2, v1);
  std::ifstream in(root + "/proc/self/cgroup");
  std::optional<MemoryLimit> best;
  for (std::string line; std::getline(in, line);) {
    // v2: "0::/user.slice/session.scope"; v1: "4:memory:/docker/abc" (or "4:cpu,memory:/...")
    const auto c1 = line.find(':'), c2 = line.find(':', c1 + 1);
    if (c1 == std::string::npos || c2 == std::string::npos) continue;
    const std::string controllers = line.substr(c1 + 1, c2 - c1 - 1);
    const std::string path = line.substr(c2 + 1);
    std::optional<MemoryLimit> level;
    if (controllers.empty() && v2) {
      level = tightest_level(cgroup_dir(root, *v2, path), root + v2->point, true);
    } else if (("," + controllers + ",").find(",memory,") != std::string::npos && v1) {
      level = tightest_level(cgroup_dir(root, *v1, path), root + v1->point, false);
    }
    if (level && (!best || level->bytes - level->used < best->bytes - best->used)) best = level;
  }
  return best;
}

MemoryLimit memory_limit() {
  if (g_max_memory) return {g_max_memory, 0, "--max-memory"};
  if (const char* env = std::getenv("TANBO_MAX_MEMORY"); env && *env) {
    return {parse_memory_size(env, "TANBO_MAX_MEMORY"), 0, "TANBO_MAX_MEMORY"};
  }
  // The smallest room of physical memory, the cgroup and the address space.
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  MemoryLimit limit{pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * page : 1ull << 34,
                    0, "physical memory"};
  auto take = [&limit](const MemoryLimit& other) {
    if (other.bytes - std::min(other.used, other.bytes) < limit.bytes - limit.used) limit = other;
  };
  if (const auto cgroup = cgroup_memory_limit()) take(*cgroup);
  rlimit as{};
  if (::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
    const std::uint64_t used = read_keyed("/proc/self/status", "VmSize", 1024, true).value_or(0);
    take({as.rlim_cur, std::min<std::uint64_t>(used, as.rlim_cur), "ulimit -v (RLIMIT_AS)"});
  }
  return limit;
}

TopologyLimits with_memory_limit(const TopologyLimits& limits) {
  TopologyLimits out = limits;
  if (!out.memory) {
    out.memory = limits.memory_bytes ? MemoryLimit{limits.memory_bytes, 0, "the caller's limit"}
                                     : memory_limit();
  }
  return out;
}

std::uint64_t estimated_memory(std::uint64_t n, std::uint64_t e, int players) {
  const std::uint64_t k = static_cast<std::uint64_t>(std::clamp(players, 2, 64));
  // Building: the edge list (8 bytes an edge), both arcs of each edge (16), the CSR being made
  // and the board's (8 and a little more each), offsets. Measured 9 n + 34 e on lattices of
  // 1 to 13 axes (the least ulimit -v under which tanbo show of a new game runs, less the
  // program's own 44 MB); counted here with a margin.
  const std::uint64_t build = 10 * n + 36 * e;
  // Playing: offsets (4 a point) and arcs (8 an edge) of the board; per point a record of 16
  // bytes, 8 per player and at most 32 of neighbour ids, and a bit per player in the legal
  // sets; counted with a margin.
  const std::uint64_t play = n * (56 + 10 * k) + 9 * e;
  // Hex boards keep 8 bytes of coordinates a point. Measured against this (bytes a point):
  // 2000x2000 77 (this says 103), hex 600 119 (127), 160x160x160 110 (126), 3^13 304 (331),
  // 40^4 142 (159), hex 600 with 6 players 128 (152), 2000x2000 with 8 players 103 (163),
  // its torus with 4 players 87 (123).
  // A position's big buffer is aligned to 2 MB for huge pages (platform.hpp): up to 4 MB more
  // of address space.
  return std::max(build, play) + 9 * n + (std::uint64_t{4} << 20);
}

std::string memory_refusal(std::uint64_t need, const MemoryLimit& limit) {
  const std::string share = std::to_string(kBoardShare) + "%";
  return "would need about " + human_bytes(need) + " of memory; a board may use " +
         human_bytes(limit.board_room()) + ", " + share +
         (limit.used ? " of what is not in use yet under" : " of") + " the limit of " +
         human_bytes(limit.bytes) + " (" + limit.source +
         "); raise or lower the limit with --max-memory SIZE or TANBO_MAX_MEMORY";
}

void check_game_memory(const Topology& topo, int players) {
  if (players <= 2) return;  // parse_topology counted two players
  const MemoryLimit limit = memory_limit();
  const std::uint64_t n = topo.num_vertices(), e = topo.graph.num_edges();
  const auto k = static_cast<std::uint64_t>(players);
  // A limit the process is measured against (ulimit -v, the cgroup) already holds the board:
  // what is new is the position's records and legal sets. Other limits count the whole game.
  const std::uint64_t need = limit.used ? n * (48 + 10 * k)
                                        : estimated_memory(n, e, players) + topo.dot_text.size() +
                                              topo.node_ids.size() * sizeof(std::string);
  if (need > limit.board_room()) {
    throw Error(quote_input(topo.spec) + " with " + std::to_string(players) + " players " +
                memory_refusal(need, limit));
  }
}

}  // namespace tanbo

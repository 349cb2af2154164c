// What the machine allows a board: --max-memory, TANBO_MAX_MEMORY, physical memory, the memory
// cgroup and ulimit -v, read from the process's environment, /proc and /sys.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/platform/input_file.hpp"
#include "tanbo/platform/memory.hpp"

namespace tanbo {

namespace {

std::uint64_t g_max_memory = 0;  // set_max_memory (--max-memory); 0 = not set
std::string g_advice;            // set_memory_advice; "" = MemoryLimit's default

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

void set_max_memory(std::uint64_t bytes) {
  g_max_memory = bytes;
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

// The limit memory_limit() gives, with the default advice.
static MemoryLimit limit_and_source() {
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

void set_memory_advice(std::string advice) {
  g_advice = std::move(advice);
}

MemoryLimit memory_limit() {
  MemoryLimit limit = limit_and_source();
  if (!g_advice.empty()) limit.advice = g_advice;
  return limit;
}

// "file PATH": the path is everything after the keyword (it may hold spaces). It is read
// through the input layer (input_file.hpp: a regular file of at most 1 GB), and only when its
// text, kept twice (read, and with the board), fits the memory limit.
std::string read_dot_board_file(const std::string& path, const MemoryLimit* limit) {
  const std::string shown = "DOT file " + quote_input(path, 80);
  InputFile file(path, shown, kMaxDotFileBytes, "DOT files");
  const std::uint64_t size = file.size();
  if (limit && 2 * size > limit->board_room()) {
    throw Error(shown + " has " + std::to_string(size) + " bytes and " +
                memory_refusal(2 * size, *limit));
  }
  return file.read();
}

TopologyLimits process_limits(const TopologyLimits& limits) {
  TopologyLimits out = limits;
  if (!out.memory) out.memory = limits.memory_bytes ? *limit_of(limits) : memory_limit();
  if (!out.read_dot_file) out.read_dot_file = read_dot_board_file;
  return out;
}

TopologyPtr parse_topology(std::string_view spec) {
  return parse_topology(spec, process_limits());
}

void MemoryBudget::add(std::uint64_t bytes) {
  used_ += bytes;
  if (used_ > limit_.board_room()) throw Error(what_ + " " + memory_refusal(used_, limit_));
}

}  // namespace tanbo

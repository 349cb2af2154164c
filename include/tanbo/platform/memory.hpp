// The machine's side of building boards: the memory limit of this process, and the boards the
// programs build under it (with DOT files read through the input layer). The core asks nothing of
// the machine; every program builds its boards through here.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "tanbo/core/topology.hpp"

namespace tanbo {

// The limit boards are checked against: set_max_memory's value if set (--max-memory), else
// TANBO_MAX_MEMORY if set, else whichever leaves the least room of the machine's physical
// memory, the memory cgroup (cgroup_memory_limit) and RLIMIT_AS (ulimit -v, less the address
// space the process maps already). Throws tanbo::Error when TANBO_MAX_MEMORY is not a size.
MemoryLimit memory_limit();
// Sets the limit for this process (the option --max-memory); 0 goes back to the automatic one.
void set_max_memory(std::uint64_t bytes);
// How refusals tell the user to change the limit, for front ends without --max-memory (the
// Python module); the default names --max-memory and TANBO_MAX_MEMORY.
void set_memory_advice(std::string advice);
// The memory cgroup's limit on this process, nullopt when it has none: cgroup v2 memory.max
// or v1 memory.limit_in_bytes of its cgroup and of every parent (the one with the least room),
// found through /proc/self/cgroup and /proc/self/mountinfo. `root` is prefixed to every path
// (tests lay out a fake /proc and /sys under a directory).
std::optional<MemoryLimit> cgroup_memory_limit(const std::string& root = "");

// Memory a computation keeps as it goes, counted against the limit as it stood when it began,
// within the room that limit leaves a board: add() throws tanbo::Error, "WHAT would need about
// ..." (memory_refusal), once the count passes it.
class MemoryBudget {
 public:
  explicit MemoryBudget(std::string what) : what_(std::move(what)), limit_(memory_limit()) {}
  // Counts `bytes` more; throws when they pass the room.
  void add(std::uint64_t bytes);
  // Gives back `bytes` counted before (what the computation no longer holds).
  void release(std::uint64_t bytes) { used_ -= std::min(bytes, used_); }

 private:
  std::string what_;
  MemoryLimit limit_;
  std::uint64_t used_ = 0;
};

// `limits` as a program uses them: the memory limit as it stands now (memory_limit(), unless
// `limits` sets one), taken once before the board is begun so that what a reader holds as it
// goes is not counted twice, as use and as need; and DOT files read through the input layer
// (a regular file of at most 1 GB whose text, kept twice, fits the limit).
TopologyLimits process_limits(const TopologyLimits& limits = {});

// parse_topology(spec, process_limits()): the board a spec names, as every program builds it.
TopologyPtr parse_topology(std::string_view spec);

}  // namespace tanbo

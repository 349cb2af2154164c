// The roots of a game, by id: who owns each, whether it is on the board, its size, its list of
// stones and its root space (the number of empty points with exactly one neighbour of its
// colour, that neighbour in it), kept move by move.
//
// Roots never merge (a stone joins exactly one root), so a root is made once, from its seed,
// and its id never changes; a removed root keeps its entry (alive = false) so that undo can put
// it back. Its stones are a list threaded through the point store (the store's next()),
// from the most recent stone (head) to the seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tanbo/core/position.hpp"

namespace tanbo::detail {

struct Root {
  Player owner = kEmpty;
  bool alive = true;
  std::uint32_t size = 0;   // stones
  Vertex head = kNoVertex;  // the most recent stone; the list runs through the point store
  Vertex seed = kNoVertex;  // the starting stone
};

class Roots {
 public:
  // Adds a live root of `size` stones listed from `head`, with no root space yet; returns its id.
  RootId add(Player owner, Vertex seed, std::uint32_t size, Vertex head) {
    table_.push_back(Root{owner, true, size, head, seed});
    space_.push_back(0);
    return static_cast<RootId>(table_.size() - 1);
  }
  std::uint32_t count() const { return static_cast<std::uint32_t>(table_.size()); }  // ids made
  Root& operator[](RootId r) { return table_[r]; }
  const Root& operator[](RootId r) const { return table_[r]; }
  std::uint32_t space(RootId r) const { return space_[r + 1]; }  // root space of r
  // The root-space counts by root id, for the moves' updates; index -1 is the scratch counter
  // (see root_or_scratch).
  std::uint32_t* spaces() { return space_.data() + 1; }
  const std::uint32_t* spaces() const { return space_.data() + 1; }

 private:
  std::vector<Root> table_;
  // Root space of root r at [r + 1]; [0] is a scratch counter that takes the changes of 0 of
  // the branch-free updates.
  std::vector<std::uint32_t> space_{0};
};

// Where a branch-free update of a root's space that may change nothing goes, as an index into
// Roots::spaces(): root `id` when `use` is 1, else -1, the scratch counter (the id is garbage
// when use is 0). A mask, not a branch: in random play `use` is unpredictable, and a
// misprediction costs more than the update. (Root ids stay below 2^31: a board has fewer
// points.)
[[gnu::always_inline]] inline std::ptrdiff_t root_or_scratch(std::uint32_t use, RootId id) {
  return static_cast<std::int32_t>(id | (use - 1u));
}

}  // namespace tanbo::detail

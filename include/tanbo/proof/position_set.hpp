// Positions held compactly, for certificates of hundreds of millions of positions: the
// checker's positions listed and visited, the writer's positions followed. A position is kept
// as a short exact key (a few bytes a stone), not as its text, in one arena with an open
// hash table over it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tanbo/core/players.hpp"
#include "tanbo/core/topology.hpp"

namespace tanbo::proof {

// Writes into `key` the key of the position of `points` points whose stones are `stones`
// ((point, player) grouped by player in turn order, each player's points ascending, as
// read_position returns them) with `to_move` to move. Two positions get one key only when
// they are one position: the side to move, then either each player's points as the gaps
// between them (a byte for most stones) or, when that is longer, two bits a point (games of
// at most three players).
void position_key(std::span<const std::pair<Vertex, Player>> stones, std::size_t points,
                  int players, Player to_move, std::string& key);

// The same for `stones[v]`, the player on point v (kEmpty for none).
void position_key(std::span<const Player> stones, int players, Player to_move, std::string& key);

// A set of keys, each with a value of a fixed number of bytes. Keys are stored once, in blocks
// that are never moved (64 KB, then each twice the last up to 16 MB); the table of places grows
// by doubling at 70% full.
class PositionSet {
 public:
  explicit PositionSet(std::size_t value_bytes = 0);
  ~PositionSet();
  PositionSet(const PositionSet&) = delete;
  PositionSet& operator=(const PositionSet&) = delete;
  PositionSet(PositionSet&&) noexcept = default;
  PositionSet& operator=(PositionSet&&) noexcept = default;

  // Adds `key` when it is not in the set, its value zeroed. Returns its value's bytes (the
  // set's `value_bytes` of them, valid until the set goes) and whether it was added.
  std::pair<std::byte*, bool> insert(std::string_view key);
  // The value of `key`, or null when it is not in the set.
  const std::byte* find(std::string_view key) const;
  std::byte* find(std::string_view key);

  std::uint64_t size() const { return count_; }
  // What inserting `key` adds to the set's memory at most (its entry, and its share of the
  // table's next doubling), for a memory budget.
  std::uint64_t cost(std::string_view key) const;

 private:
  std::uint64_t find_slot(std::string_view key, std::uint64_t hash) const;
  std::string_view key_at(std::uint64_t offset) const;
  std::uint64_t store(std::string_view key);
  void grow();

  std::size_t value_bytes_;
  std::vector<std::unique_ptr<std::byte[]>> blocks_;
  std::vector<std::size_t> block_sizes_;
  std::size_t used_ = 0;              // bytes used in the last block
  std::vector<std::uint64_t> slots_;  // 0: empty; else a fingerprint and the entry's offset + 1
  std::uint64_t count_ = 0;
};

}  // namespace tanbo::proof

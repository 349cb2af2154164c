// Positions held compactly (include/tanbo/proof/position_set.hpp).
#include "tanbo/proof/position_set.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "tanbo/core/mix.hpp"

namespace tanbo::proof {

namespace {

void put_varint(std::uint64_t x, std::string& out) {
  while (x >= 0x80) {
    out += static_cast<char>((x & 0x7F) | 0x80);
    x >>= 7;
  }
  out += static_cast<char>(x);
}

std::size_t varint_size(std::uint64_t x) {
  std::size_t n = 1;
  while (x >= 0x80) {
    x >>= 7;
    ++n;
  }
  return n;
}

// The first byte of a key: the side to move, and whether two bits a point follow.
constexpr char kDense = static_cast<char>(0x80);

}  // namespace

void position_key(std::span<const std::pair<Vertex, Player>> stones, std::size_t points,
                  int players, Player to_move, std::string& key) {
  key.clear();
  // The gaps form: a varint per stone (its point less the player's previous point, counting
  // from -1) and a 0 after each player's stones.
  std::size_t gaps = 1 + static_cast<std::size_t>(players);
  Player last = 0;
  std::uint64_t previous = 0;  // the previous point + 1
  for (const auto& [v, p] : stones) {
    if (p != last) previous = 0, last = p;
    gaps += varint_size(std::uint64_t{v} + 1 - previous);
    previous = std::uint64_t{v} + 1;
  }
  const std::size_t dense = 1 + (points + 3) / 4;
  if (players <= 3 && dense < gaps) {
    key.assign(dense, '\0');
    key[0] = static_cast<char>(to_move | kDense);
    for (const auto& [v, p] : stones) {
      key[1 + v / 4] = static_cast<char>(key[1 + v / 4] | (p << (2 * (v % 4))));
    }
    return;
  }
  key += static_cast<char>(to_move);
  Player p = 1;
  previous = 0;
  for (const auto& [v, q] : stones) {
    for (; p < q; ++p, previous = 0) key += '\0';
    put_varint(std::uint64_t{v} + 1 - previous, key);
    previous = std::uint64_t{v} + 1;
  }
  for (; p <= players; ++p) key += '\0';
}

void position_key(std::span<const Player> stones, int players, Player to_move, std::string& key) {
  thread_local std::vector<std::pair<Vertex, Player>> by_player;
  by_player.clear();
  for (Player p = 1; p <= players; ++p) {
    for (Vertex v = 0; v < stones.size(); ++v) {
      if (stones[v] == p) by_player.emplace_back(v, p);
    }
  }
  position_key(by_player, stones.size(), players, to_move, key);
}

namespace {

constexpr unsigned kBlockBits = 24;  // blocks of at most 16 MB (an entry's offset in one)
constexpr std::size_t kBlockBytes = std::size_t{1} << kBlockBits;
// The first block: 64 KB. The blocks double up to 16 MB, and are not zeroed, so a set of a few
// positions costs little: with a first block of 16 MB, zeroed, each check of a short
// certificate (two sets) wrote 32 MB.
constexpr std::size_t kFirstBlockBytes = std::size_t{1} << 16;
constexpr unsigned kOffsetBits = 40;  // a terabyte of keys
constexpr std::uint64_t kOffsetMask = (std::uint64_t{1} << kOffsetBits) - 1;

std::uint64_t hash_of(std::string_view key) {
  std::uint64_t h = key.size();
  std::size_t i = 0;
  for (; i + 8 <= key.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, key.data() + i, 8);
    h = mix64(h ^ word);
  }
  std::uint64_t tail = 0;
  std::memcpy(&tail, key.data() + i, key.size() - i);
  return mix64(h ^ tail ^ (std::uint64_t{0xA5} << 56));
}

std::uint64_t fingerprint(std::uint64_t hash) {
  return hash >> kOffsetBits << kOffsetBits;
}

}  // namespace

PositionSet::PositionSet(std::size_t value_bytes) : value_bytes_(value_bytes), slots_(1024, 0) {}
PositionSet::~PositionSet() = default;

std::uint64_t PositionSet::cost(std::string_view key) const {
  // The entry, and its share of a table between 35% and 70% full: at most 8 / 0.35 bytes.
  return varint_size(key.size()) + key.size() + value_bytes_ + 24;
}

std::string_view PositionSet::key_at(std::uint64_t offset) const {
  const std::byte* at = blocks_[offset >> kBlockBits].get() + (offset & (kBlockBytes - 1));
  std::uint64_t size = 0;
  unsigned shift = 0;
  for (;; shift += 7) {
    const auto b = static_cast<std::uint8_t>(*at++);
    size |= std::uint64_t{b & 0x7Fu} << shift;
    if (b < 0x80) break;
  }
  return {reinterpret_cast<const char*>(at), size};
}

// The slot of `key`, or the empty slot where it would go.
std::uint64_t PositionSet::find_slot(std::string_view key, std::uint64_t hash) const {
  const std::uint64_t mask = slots_.size() - 1;
  for (std::uint64_t i = hash & mask;; i = (i + 1) & mask) {
    const std::uint64_t s = slots_[i];
    if (s == 0) return i;
    if ((s & ~kOffsetMask) == fingerprint(hash) && key_at((s & kOffsetMask) - 1) == key) return i;
  }
}

// Copies the entry (its size, the key, a zeroed value) into the blocks; its offset.
std::uint64_t PositionSet::store(std::string_view key) {
  std::string head;
  put_varint(key.size(), head);
  const std::size_t size = head.size() + key.size() + value_bytes_;
  if (blocks_.empty() || used_ + size > block_sizes_.back()) {
    const std::size_t next =
        blocks_.empty() ? kFirstBlockBytes : std::min(2 * block_sizes_.back(), kBlockBytes);
    const std::size_t bytes = std::max(size, next);  // (a larger entry: a block of its own)
    blocks_.push_back(std::make_unique_for_overwrite<std::byte[]>(bytes));
    block_sizes_.push_back(bytes);
    used_ = 0;
  }
  std::byte* at = blocks_.back().get() + used_;
  std::memcpy(at, head.data(), head.size());
  std::memcpy(at + head.size(), key.data(), key.size());
  std::memset(at + head.size() + key.size(), 0, value_bytes_);
  const std::uint64_t offset = ((blocks_.size() - 1) << kBlockBits) | used_;
  used_ += size;
  return offset;
}

void PositionSet::grow() {
  std::vector<std::uint64_t> old(slots_.size() * 2, 0);
  old.swap(slots_);
  const std::uint64_t mask = slots_.size() - 1;
  for (const std::uint64_t s : old) {
    if (s == 0) continue;
    std::uint64_t i = hash_of(key_at((s & kOffsetMask) - 1)) & mask;
    while (slots_[i] != 0) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

std::pair<std::byte*, bool> PositionSet::insert(std::string_view key) {
  if ((count_ + 1) * 10 > slots_.size() * 7) grow();
  const std::uint64_t hash = hash_of(key);
  const std::uint64_t i = find_slot(key, hash);
  bool added = false;
  if (slots_[i] == 0) {
    slots_[i] = fingerprint(hash) | (store(key) + 1);
    ++count_;
    added = true;
  }
  const std::string_view k = key_at((slots_[i] & kOffsetMask) - 1);
  return {reinterpret_cast<std::byte*>(const_cast<char*>(k.data() + k.size())), added};
}

std::byte* PositionSet::find(std::string_view key) {
  return const_cast<std::byte*>(std::as_const(*this).find(key));
}

const std::byte* PositionSet::find(std::string_view key) const {
  const std::uint64_t hash = hash_of(key);
  const std::uint64_t s = slots_[find_slot(key, hash)];
  if (s == 0) return nullptr;
  const std::string_view k = key_at((s & kOffsetMask) - 1);
  return reinterpret_cast<const std::byte*>(k.data() + k.size());
}

}  // namespace tanbo::proof

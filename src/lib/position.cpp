#include "tanbo/position.hpp"

#include <algorithm>
#include <bit>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <sstream>

#include "tanbo/error.hpp"

namespace tanbo {

namespace {

// splitmix64 finaliser: the Zobrist key of (vertex, player) is computed, not stored.
inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
inline std::uint64_t zobrist(Vertex v, Player p) { return mix((std::uint64_t{v} << 3) | (p - 1)); }

}  // namespace

const char* to_string(MoveStatus s) {
  switch (s) {
    case MoveStatus::kLegal: return "legal";
    case MoveStatus::kGameOver: return "the game is over";
    case MoveStatus::kNotYourTurn: return "not your turn";
    case MoveStatus::kPlayerOut: return "that player is out of the game";
    case MoveStatus::kOffBoard: return "not on this board";
    case MoveStatus::kOccupied: return "occupied";
    case MoveStatus::kNoConnection: return "no stone of yours touches it";
    case MoveStatus::kTooMany: return "it touches two or more of your stones";
  }
  return "?";
}

Position::Position(TopologyPtr topology, const Setup& setup)
    : topo_(std::move(topology)), setup_(setup) {
  if (!topo_) throw Error("no topology");
  n_ = topo_->graph.num_vertices();
  players_ = setup.players;
  if (players_ < 2 || players_ > kMaxPlayers) {
    throw Error("a game needs 2 to " + std::to_string(kMaxPlayers) + " players, not " +
                std::to_string(players_));
  }
  allocate(n_, players_);

  const Topology& t = *topo_;
  // Place the seeds: each is a root of its own.
  for (const auto& [v, p] : setup.stones) {
    if (v >= n_) throw Error("setup stone on vertex " + std::to_string(v) + " is off the board");
    if (p < 1 || p > players_) {
      throw Error("setup stone at " + t.name(v) + " belongs to player " + std::to_string(p) +
                  " but the game has " + std::to_string(players_) + " players");
    }
    if (at(v) != kEmpty) throw Error("setup places two stones on " + t.name(v));
    for (std::uint32_t i = off_[v]; i < off_[v + 1]; ++i) {
      if (at(nbr_[i]) == p) {
        throw Error("setup seeds " + t.name(nbr_[i]) + " and " + t.name(v) + " of " +
                    player_title(p) + " are adjacent: every seed must be a root of its own");
      }
    }
    RootId r = static_cast<RootId>(roots_.size());
    Root root;
    root.owner = p;
    root.size = 1;
    root.head = v;
    root.seed = v;
    roots_.push_back(root);
    cell(v).root = r;
    occupy(v, p);
    ++stones_[p - 1];
    ++root_count_[p - 1];
  }
  for (int p = 1; p <= players_; ++p) {
    if (stones_[p - 1] == 0) {
      throw Error("setup gives " + player_title(static_cast<Player>(p)) + " no stones");
    }
  }
  for (RootId r = 0; r < roots_.size(); ++r) {
    if (roots_[r].space == 0) {
      throw Error("the starting position has a bounded root: the " +
                  player_title(roots_[r].owner) + " seed at " + t.name(roots_[r].seed) +
                  " has no root space");
    }
  }
  out_ = 0;
  to_move_ = kBlack;
  winner_ = kEmpty;
  zeroed_.clear();
}

void Position::allocate(std::uint32_t n, int players) {
  n_ = n;
  players_ = players;
  off_ = topo_->graph.offsets().data();
  nbr_ = topo_->graph.targets().data();
  stride_ = sizeof(Cell) + sizeof(Slot) * static_cast<std::size_t>(players);
  cells_.assign(stride_ * n, std::byte{0});
  for (Vertex v = 0; v < n; ++v) {
    Cell& c = cell(v);
    c.root = kNoRoot;
    c.next = kNoVertex;
    c.first = off_[v];
    c.degree = static_cast<std::uint16_t>(off_[v + 1] - off_[v]);
    c.color = kEmpty;
  }
  words_ = (n + 63) / 64;
  blocks_ = (words_ + 7) / 8;
  fenwick_top_ = blocks_ ? std::bit_floor(blocks_) : 0;
  legal_bits_.assign(std::size_t{words_} * players, 0);
  legal_block_.assign(std::size_t{blocks_} * players, 0);
  legal_size_.assign(players, 0);
  stones_.assign(players, 0);
  root_count_.assign(players, 0);
}

[[gnu::always_inline]] inline void Position::legal_add(Player p, Vertex v) {
  const std::size_t q = p - 1u;
  legal_bits_[q * words_ + (v >> 6)] |= std::uint64_t{1} << (v & 63);
  std::uint32_t* tree = legal_block_.data() + q * blocks_;
  const std::uint32_t nb = blocks_;
  if (nb == 1) {
    ++tree[0];
  } else {
    for (std::uint32_t b = (v >> 9) + 1; b <= nb; b += b & (0u - b)) ++tree[b - 1];
  }
  ++legal_size_[q];
}

[[gnu::always_inline]] inline void Position::legal_remove(Player p, Vertex v) {
  const std::size_t q = p - 1u;
  legal_bits_[q * words_ + (v >> 6)] &= ~(std::uint64_t{1} << (v & 63));
  std::uint32_t* tree = legal_block_.data() + q * blocks_;
  const std::uint32_t nb = blocks_;
  if (nb == 1) {
    --tree[0];
  } else {
    for (std::uint32_t b = (v >> 9) + 1; b <= nb; b += b & (0u - b)) --tree[b - 1];
  }
  --legal_size_[q];
}

namespace {

// Position of the i-th set bit of `word` (i < popcount(word)).
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("bmi2"))) std::uint32_t select_bit_bmi2(std::uint64_t word, std::uint32_t i) {
  return static_cast<std::uint32_t>(__builtin_ctzll(_pdep_u64(std::uint64_t{1} << i, word)));
}
const bool kHasBmi2 = __builtin_cpu_supports("bmi2");
#endif

std::uint32_t select_bit(std::uint64_t word, std::uint32_t i) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (kHasBmi2) return select_bit_bmi2(word, i);
#endif
  std::uint32_t base = 0;
  for (;;) {  // skip whole bytes, then clear the lowest bits
    const auto c = static_cast<std::uint32_t>(std::popcount(word & 0xFF));
    if (i < c) break;
    i -= c;
    word >>= 8;
    base += 8;
  }
  for (; i > 0; --i) word &= word - 1;
  return base + static_cast<std::uint32_t>(std::countr_zero(word));
}

}  // namespace

Vertex Position::legal_move(Player p, std::uint32_t i) const {
  const std::size_t q = p - 1u;
  // Fenwick descent: b = number of whole blocks before the one holding the i-th point.
  const std::uint32_t* tree = legal_block_.data() + q * blocks_;
  std::uint32_t b = 0;
  for (std::uint32_t step = fenwick_top_; step; step >>= 1) {
    if (b + step <= blocks_ && tree[b + step - 1] <= i) {
      b += step;
      i -= tree[b - 1];
    }
  }
  const std::uint64_t* bits = legal_bits_.data() + q * words_;
  std::uint32_t w = b * 8;
  for (;; ++w) {
    const auto c = static_cast<std::uint32_t>(std::popcount(bits[w]));
    if (i < c) break;
    i -= c;
  }
  return w * 64 + select_bit(bits[w], i);
}

// A stone of p appears on the empty vertex v; cell(v).root is set by the caller.
void Position::occupy(Vertex v, Player p) {
  Root* const roots = roots_.data();
  {
    // v stops being root space for every colour it was root space of.
    const Slot* sv = slots(v);
    for (int q = 0; q < players_; ++q) {
      if (sv[q].count == 1) {
        Root& owner = roots[cell(sv[q].xr).root];
        if (--owner.space == 0 && track_zero_) zeroed_.push_back(cell(sv[q].xr).root);
        legal_remove(static_cast<Player>(q + 1), v);
      }
    }
  }
  Cell& cv = cell(v);
  cv.color = p;
  hash_ ^= zobrist(v, p);
  const RootId r = cv.root;
  const Vertex* const nb = nbr_ + cv.first;
  const std::uint32_t deg = cv.degree;
  if (n_ > (1u << 15)) {  // big boards: start fetching every neighbour record at once
    for (std::uint32_t i = 0; i < deg; ++i) __builtin_prefetch(cells_.data() + nb[i] * stride_, 1);
  }
  for (std::uint32_t i = 0; i < deg; ++i) {
    const Vertex u = nb[i];
    std::byte* rec = cells_.data() + u * stride_;
    Slot& s = reinterpret_cast<Slot*>(rec + sizeof(Cell))[p - 1];
    const std::uint32_t old = s.count++;
    const Vertex single = s.xr;
    s.xr ^= v;
    if (reinterpret_cast<Cell*>(rec)->color != kEmpty) continue;
    if (old == 0) {
      ++roots[r].space;
      legal_add(p, u);
    } else if (old == 1) {
      const RootId lost = cell(single).root;
      if (--roots[lost].space == 0 && track_zero_) zeroed_.push_back(lost);
      legal_remove(p, u);
    }
  }
}

// The stone on v disappears (its root bookkeeping is the caller's).
void Position::vacate(Vertex v) {
  Root* const roots = roots_.data();
  Cell& cv = cell(v);
  const Player p = cv.color;
  const RootId r = cv.root;
  cv.color = kEmpty;
  hash_ ^= zobrist(v, p);
  const Vertex* const nb = nbr_ + cv.first;
  const std::uint32_t deg = cv.degree;
  for (std::uint32_t i = 0; i < deg; ++i) {
    const Vertex u = nb[i];
    std::byte* rec = cells_.data() + u * stride_;
    Slot& s = reinterpret_cast<Slot*>(rec + sizeof(Cell))[p - 1];
    const std::uint32_t old = s.count--;
    s.xr ^= v;
    if (reinterpret_cast<Cell*>(rec)->color != kEmpty) continue;
    if (old == 1) {
      --roots[r].space;
      legal_remove(p, u);
    } else if (old == 2) {
      ++roots[cell(s.xr).root].space;
      legal_add(p, u);
    }
  }
  // v becomes root space for every colour with exactly one stone next to it.
  const Slot* sv = slots(v);
  for (int q = 0; q < players_; ++q) {
    if (sv[q].count == 1) {
      ++roots[cell(sv[q].xr).root].space;
      legal_add(static_cast<Player>(q + 1), v);
    }
  }
}

void Position::remove_root(RootId r) {
  Root& root = roots_[r];
  for (Vertex s = root.head; s != kNoVertex; s = cell(s).next) vacate(s);
  root.alive = false;
  stones_[root.owner - 1] -= root.size;
  --root_count_[root.owner - 1];
}

void Position::restore_root(RootId r) {
  Root& root = roots_[r];
  for (Vertex s = root.head; s != kNoVertex; s = cell(s).next) {
    cell(s).root = r;  // another root may have used the point while this one was off the board
    occupy(s, root.owner);
  }
  root.alive = true;
  stones_[root.owner - 1] += root.size;
  ++root_count_[root.owner - 1];
}

std::uint8_t Position::compute_out() const {
  std::uint8_t out = out_;
  for (int p = 0; p < players_; ++p) {
    if (stones_[p] == 0) out |= static_cast<std::uint8_t>(1u << p);
  }
  return out;
}

// Chooses the next side to move after `from` moved, or ends the game. Players can only drop
// out when stones were removed, so the out mask is recomputed only then.
void Position::advance_turn(Player from, bool removals) {
  if (removals) {
    out_ = compute_out();
    const std::uint8_t all = static_cast<std::uint8_t>((1u << players_) - 1u);
    const std::uint8_t in = static_cast<std::uint8_t>(all & ~out_);
    if ((in & (in - 1)) == 0) {  // at most one player left
      to_move_ = kEmpty;
      winner_ = in ? static_cast<Player>(std::countr_zero(static_cast<unsigned>(in)) + 1) : kEmpty;
      return;
    }
  }
  Player p = from;
  do {
    p = static_cast<Player>(p == players_ ? 1 : p + 1);
  } while ((out_ >> (p - 1)) & 1u);
  to_move_ = p;
}

MoveStatus Position::check_move(Player p, Vertex v) const {
  if (is_over()) return MoveStatus::kGameOver;
  if (p < 1 || p > players_ || is_out(p)) return MoveStatus::kPlayerOut;
  if (p != to_move_) return MoveStatus::kNotYourTurn;
  if (v >= n_) return MoveStatus::kOffBoard;
  if (at(v) != kEmpty) return MoveStatus::kOccupied;
  const std::uint32_t c = slot(v, p).count;
  if (c == 0) return MoveStatus::kNoConnection;
  if (c > 1) return MoveStatus::kTooMany;
  return MoveStatus::kLegal;
}

std::string Position::explain(Player p, Vertex v) const {
  const MoveStatus st = check_move(p, v);
  const Topology& t = *topo_;
  switch (st) {
    case MoveStatus::kLegal: return "";
    case MoveStatus::kGameOver:
      return "the game is over: " + player_title(winner_) + " has won";
    case MoveStatus::kPlayerOut:
      if (p < 1 || p > players_) {
        return "there is no player " + std::to_string(p) + " in this " +
               std::to_string(players_) + "-player game";
      }
      return player_title(p) + " is out of the game";
    case MoveStatus::kNotYourTurn:
      return "it is " + player_title(to_move_) + "'s turn, not " + player_title(p) + "'s";
    case MoveStatus::kOffBoard: return "not on this board";
    case MoveStatus::kOccupied:
      return t.name(v) + " is occupied by " + player_title(at(v));
    case MoveStatus::kNoConnection:
      return "no " + player_title(p) + " stone touches " + t.name(v);
    case MoveStatus::kTooMany: {
      std::string list;
      std::uint32_t count = 0;
      for (Vertex u : t.graph.neighbours(v)) {
        if (at(u) == p) {
          list += (count++ ? ", " : "") + t.name(u);
        }
      }
      return t.name(v) + " touches " + std::to_string(count) + " " + player_title(p) +
             " stones: " + list + " (a stone must touch exactly one of its own colour)";
    }
  }
  return "illegal move";
}

std::vector<Vertex> Position::legal_moves(Player p) const {
  std::vector<Vertex> out;
  out.reserve(legal_size_[p - 1]);
  const std::uint64_t* bits = legal_bits_.data() + (p - 1u) * std::size_t{words_};
  for (std::uint32_t w = 0; w < words_; ++w) {
    for (std::uint64_t word = bits[w]; word; word &= word - 1) {
      out.push_back(w * 64 + static_cast<Vertex>(std::countr_zero(word)));
    }
  }
  return out;
}

const MoveRecord& Position::play(Vertex v) {
  const Player p = to_move_;
  MoveRecord& rec = history_.emplace_back();
  rec.kind = MoveRecord::Kind::kPlace;
  rec.player = p;
  rec.vertex = v;
  rec.to_move_before = p;
  rec.out_before = out_;
  Cell& cv = cell(v);
  const RootId e = cell(slot(v, p).xr).root;
  rec.expanded = e;
  rec.removed_begin = rec.removed_end = static_cast<std::uint32_t>(removed_.size());

  // Place the stone and grow the expanded root.
  cv.root = e;
  Root& er = roots_[e];
  rec.prev_next = cv.next;  // the point may sit in the list of a removed root
  cv.next = er.head;
  er.head = v;
  ++er.size;
  ++stones_[p - 1];
  track_zero_ = true;
  zeroed_.clear();
  occupy(v, p);
  track_zero_ = false;

  // Remove bounded roots.
  if (er.space == 0) {
    rec.expanded_removed = true;
    rec.stones_removed = er.size;
    removed_.push_back(e);
    remove_root(e);
  } else if (!zeroed_.empty()) {
    for (RootId r : zeroed_) {
      // A root other than the expanded one only loses space during placement, so it hits
      // zero at most once; the alive check guards against listing it twice anyway.
      if (roots_[r].space == 0 && roots_[r].alive && r != e) {
        rec.stones_removed += roots_[r].size;
        removed_.push_back(r);
        roots_[r].alive = false;  // mark now so that a duplicate entry is skipped
      }
    }
    for (std::size_t i = rec.removed_begin; i < removed_.size(); ++i) {
      roots_[removed_[i]].alive = true;
      remove_root(removed_[i]);
    }
  }
  rec.removed_end = static_cast<std::uint32_t>(removed_.size());
  advance_turn(p, rec.removed_end != rec.removed_begin);
  return rec;
}

const MoveRecord& Position::play_checked(Player p, Vertex v) {
  if (check_move(p, v) != MoveStatus::kLegal) throw Error(explain(p, v));
  return play(v);
}

const MoveRecord& Position::resign(Player p) {
  if (is_over()) throw Error("the game is over");
  if (p < 1 || p > players_) throw Error("there is no player " + std::to_string(p));
  if (is_out(p)) throw Error(player_title(p) + " is already out of the game");
  MoveRecord rec;
  rec.kind = MoveRecord::Kind::kResign;
  rec.player = p;
  rec.to_move_before = to_move_;
  rec.out_before = out_;
  rec.removed_begin = static_cast<std::uint32_t>(removed_.size());
  for (RootId r = 0; r < roots_.size(); ++r) {
    if (roots_[r].alive && roots_[r].owner == p) {
      rec.stones_removed += roots_[r].size;
      removed_.push_back(r);
      remove_root(r);
    }
  }
  rec.removed_end = static_cast<std::uint32_t>(removed_.size());
  out_ |= static_cast<std::uint8_t>(1u << (p - 1));
  history_.push_back(rec);
  // The turn passes on only when the resigning player was the one to move.
  if (p == to_move_) {
    advance_turn(p, true);
  } else {
    const Player keep = to_move_;
    advance_turn(p, true);
    if (!is_over()) to_move_ = keep;
  }
  return history_.back();
}

void Position::undo() {
  if (history_.empty()) throw Error("no move to undo");
  const MoveRecord rec = history_.back();
  history_.pop_back();
  // Restore removed roots (in reverse order of removal), then take the stone back.
  for (std::uint32_t i = rec.removed_end; i > rec.removed_begin; --i) restore_root(removed_[i - 1]);
  removed_.resize(rec.removed_begin);
  if (rec.kind == MoveRecord::Kind::kPlace) {
    const Vertex v = rec.vertex;
    Root& er = roots_[rec.expanded];
    vacate(v);
    er.head = cell(v).next;
    cell(v).next = rec.prev_next;
    --er.size;
    --stones_[rec.player - 1];
  }
  to_move_ = rec.to_move_before;
  out_ = rec.out_before;
  winner_ = kEmpty;
}

std::vector<Vertex> Position::root_stones(RootId r) const {
  std::vector<Vertex> out;
  if (!roots_[r].alive) return out;
  for (Vertex s = roots_[r].head; s != kNoVertex; s = cell(s).next) out.push_back(s);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Vertex> Position::root_space_points(RootId r) const {
  std::vector<Vertex> out;
  if (!roots_[r].alive) return out;
  const Player p = roots_[r].owner;
  for (Vertex u : legal_moves(p)) {
    if (cell(slot(u, p).xr).root == r) out.push_back(u);
  }
  return out;
}

std::vector<RootId> Position::live_roots() const {
  std::vector<RootId> out;
  for (RootId r = 0; r < roots_.size(); ++r) {
    if (roots_[r].alive) out.push_back(r);
  }
  return out;
}

std::uint64_t Position::hash() const { return hash_ ^ mix(0xABCDEF00ull + to_move_); }

std::string Position::check_consistency() const {
  std::ostringstream err;
  const Topology& t = *topo_;
  // Neighbour counts and XORs.
  for (Vertex v = 0; v < n_; ++v) {
    if (at(v) > players_) {
      err << "vertex " << t.name(v) << " holds player " << int(at(v));
      return err.str();
    }
    for (int q = 1; q <= players_; ++q) {
      Slot want{};
      for (Vertex u : t.graph.neighbours(v)) {
        if (at(u) == q) {
          ++want.count;
          want.xr ^= u;
        }
      }
      const Slot& have = slot(v, static_cast<Player>(q));
      if (have.count != want.count || have.xr != want.xr) {
        err << "neighbour count of " << t.name(v) << " for " << player_name(static_cast<Player>(q))
            << " is " << have.count << ", should be " << want.count;
        return err.str();
      }
    }
  }
  // Roots: components, trees, seeds, sizes, lists, space.
  std::vector<std::uint32_t> stones(players_, 0), rcount(players_, 0);
  std::vector<std::uint8_t> seen(n_, 0);
  std::uint64_t h = 0;
  for (Vertex v = 0; v < n_; ++v) {
    if (at(v) != kEmpty) {
      h ^= zobrist(v, at(v));
      ++stones[at(v) - 1];
      const RootId r = cell(v).root;
      if (r >= roots_.size() || !roots_[r].alive || roots_[r].owner != at(v)) {
        err << "stone at " << t.name(v) << " belongs to no live root of its colour";
        return err.str();
      }
    }
  }
  if (h != hash_) return "hash differs from the stones on the board";
  // Root space of every root in one pass over the empty points (O(n * degree), not per root).
  std::vector<std::uint32_t> space_of(roots_.size(), 0);
  for (Vertex u = 0; u < n_; ++u) {
    if (at(u) != kEmpty) continue;
    for (int q = 1; q <= players_; ++q) {
      std::uint32_t c = 0;
      Vertex only = kNoVertex;
      for (Vertex w : t.graph.neighbours(u)) {
        if (at(w) == q) {
          ++c;
          only = w;
        }
      }
      if (c == 1 && cell(only).root < space_of.size()) ++space_of[cell(only).root];
    }
  }
  for (RootId r = 0; r < roots_.size(); ++r) {
    const Root& root = roots_[r];
    if (!root.alive) continue;
    ++rcount[root.owner - 1];
    if (at(root.seed) != root.owner || cell(root.seed).root != r) {
      err << "root " << r << " has lost its seed " << t.name(root.seed);
      return err.str();
    }
    // Component by BFS from the seed.
    std::vector<Vertex> comp{root.seed};
    seen[root.seed] = 1;
    std::uint64_t inner_edges = 0;
    for (std::size_t i = 0; i < comp.size(); ++i) {
      for (Vertex u : t.graph.neighbours(comp[i])) {
        if (at(u) != root.owner) continue;
        ++inner_edges;
        if (!seen[u]) {
          seen[u] = 1;
          comp.push_back(u);
        }
      }
    }
    for (Vertex u : comp) {
      if (cell(u).root != r) {
        err << "stone " << t.name(u) << " touches root " << r << " but is in root " << cell(u).root
            << " (roots of one colour joined)";
        return err.str();
      }
    }
    if (inner_edges / 2 != comp.size() - 1) {
      err << "root " << r << " at " << t.name(root.seed) << " is not a tree";
      return err.str();
    }
    std::uint32_t listed = 0;
    for (Vertex s = root.head; s != kNoVertex; s = cell(s).next) {
      if (++listed > n_ || cell(s).root != r || at(s) != root.owner) {
        return "stone list of root " + std::to_string(r) + " is broken";
      }
    }
    if (listed != comp.size() || root.size != comp.size()) {
      err << "root " << r << " has " << comp.size() << " stones, but size " << root.size
          << " and list " << listed;
      return err.str();
    }
    const std::uint32_t space = space_of[r];
    if (space != root.space) {
      err << "root " << r << " has root space " << space << ", recorded " << root.space;
      return err.str();
    }
    if (space == 0 && !is_over()) {
      err << "root " << r << " at " << t.name(root.seed) << " is bounded";
      return err.str();
    }
    for (Vertex u : comp) seen[u] = 0;
  }
  for (int q = 0; q < players_; ++q) {
    if (stones[q] != stones_[q] || rcount[q] != root_count_[q]) {
      err << player_title(static_cast<Player>(q + 1)) << " stone or root count is wrong";
      return err.str();
    }
    // Legal sets.
    std::uint32_t want = 0;
    std::vector<std::uint32_t> per_block(blocks_, 0);
    for (Vertex v = 0; v < n_; ++v) {
      const bool legal = at(v) == kEmpty && slot(v, static_cast<Player>(q + 1)).count == 1;
      const bool in_set = (legal_bits_[q * std::size_t{words_} + (v >> 6)] >> (v & 63)) & 1u;
      if (legal != in_set) {
        err << t.name(v) << (legal ? " is legal for " : " is illegal for ")
            << player_name(static_cast<Player>(q + 1))
            << (legal ? " but missing from its legal set" : " but in its legal set");
        return err.str();
      }
      if (legal) {
        ++want;
        ++per_block[v >> 9];
      }
    }
    for (std::uint32_t w = n_; w < words_ * 64u; ++w) {
      if ((legal_bits_[q * std::size_t{words_} + (w >> 6)] >> (w & 63)) & 1u) {
        return "legal set has a bit beyond the board";
      }
    }
    if (want != legal_size_[q]) return "legal set size is wrong";
    for (std::uint32_t b = 1; b <= blocks_; ++b) {  // Fenwick node b covers (b - lowbit(b), b]
      std::uint32_t sum = 0;
      for (std::uint32_t c = b - (b & (0u - b)); c < b; ++c) sum += per_block[c];
      if (sum != legal_block_[q * std::size_t{blocks_} + b - 1]) return "legal block count is wrong";
    }
  }
  // Turn order.
  std::uint8_t out = out_;
  for (int q = 0; q < players_; ++q) {
    if (stones_[q] == 0 && !((out >> q) & 1u)) return "a player without stones is not out";
  }
  int in = 0;
  for (int q = 0; q < players_; ++q) in += !((out >> q) & 1u);
  if ((in <= 1) != is_over()) return "game-over state is wrong";
  if (!is_over() && is_out(to_move_)) return "side to move is out";
  return "";
}

}  // namespace tanbo

#include "tanbo/ai/policy.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "tanbo/ai/move_model.hpp"

namespace tanbo {

bool move_bounds_own_root(const Position& pos, Player p, Vertex v) {
  return pos.neighbours_of(v, p) == 1 && pos.joined_space_after(p, v) == 0;
}

bool move_bounds_other_root(const Position& pos, Player p, Vertex v) {
  return pos.others_bounded(p, v) > 0;
}

double one_ply_score(Position& pos, Vertex v) {
  const Player me = pos.to_move();
  const int k = pos.num_players();
  std::uint32_t before[kMaxPlayers + 1] = {};
  for (Player q = 1; q <= k; ++q) before[q] = pos.stones(q);
  pos.play(v);
  double score;
  if (pos.is_over()) {
    score = pos.winner() == me ? 1e9 : -1e9;
  } else {
    double gained = 0;
    for (Player q = 1; q <= k; ++q) {
      if (q != me) gained += static_cast<double>(before[q]) - pos.stones(q);
    }
    const double lost = static_cast<double>(before[me]) + 1.0 - pos.stones(me);
    double own_space = 0, other_space = 0;
    for (RootId r = 0; r < pos.num_root_ids(); ++r) {
      if (!pos.root_alive(r)) continue;
      const double sp = std::sqrt(static_cast<double>(pos.root_space(r)));
      if (pos.root_owner(r) == me) {
        own_space += sp;
      } else {
        other_space += sp;
      }
    }
    score = 10.0 * gained - 12.0 * lost + own_space - 0.5 * other_space;
  }
  pos.undo();
  return score;
}

void one_ply_shares(Position& pos, std::span<const Vertex> moves, std::vector<double>& shares,
                    std::vector<std::uint32_t>& order) {
  shares.clear();
  if (static_cast<double>(moves.size()) * pos.num_root_ids() > kOnePlyWork) {
    shares.assign(moves.size(), 0.5);  // all alike: no knowledge, rather than seconds of it
    return;
  }
  for (Vertex v : moves) shares.push_back(one_ply_score(pos, v));
  order.resize(moves.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return shares[a] > shares[b]; });
  const double m = static_cast<double>(moves.size());
  for (std::uint32_t rank = 0; rank < order.size(); ++rank) shares[order[rank]] = 1.0 - rank / m;
}

bool move_wins_at_once(const Position& pos, Player p, Vertex v) {
  std::uint32_t others = 0;
  for (Player q = 1; q <= pos.num_players(); ++q) {
    if (q != p) others += pos.roots_alive(q);
  }
  // It wins when it bounds every root of every other player and not the root it joins.
  return pos.neighbours_of(v, p) == 1 && pos.others_bounded(p, v) == others &&
         pos.joined_space_after(p, v) > 0;
}

Vertex winning_move_at_once(const Position& pos, Player p) {
  if (pos.num_players() != 2) {
    for (std::uint32_t i = 0; i < pos.legal_count(p); ++i) {
      if (move_wins_at_once(pos, p, pos.legal_move(p, i))) return pos.legal_move(p, i);
    }
    return kNoVertex;
  }
  const Player q = p == kBlack ? kWhite : kBlack;
  if (pos.roots_alive(q) != 1) return kNoVertex;
  const std::span<const std::uint32_t> spaces = pos.root_spaces();
  for (RootId r = 0; r < spaces.size(); ++r) {
    if (!pos.root_alive(r) || pos.root_owner(r) != q) continue;
    if (spaces[r] != 1) return kNoVertex;
    const Vertex u = pos.root_space_point(r);
    return u != kNoVertex && move_wins_at_once(pos, p, u) ? u : kNoVertex;
  }
  return kNoVertex;
}

namespace {

// Whether u is a root-space point of root r (of player q): legal for q, joining r.
bool in_root_space(const Position& pos, RootId r, Player q, Vertex u) {
  return pos.is_legal_point(q, u) && pos.joined_root(q, u) == r;
}

// The only root-space point of r (root_space(r) == 1): the one remembered in `hints` while it
// still is, else found from the root's stones and remembered.
Vertex last_space_point(const Position& pos, RootId r, std::vector<Vertex>* hints) {
  if (!hints) return pos.root_space_point(r);
  if (hints->size() < pos.num_root_ids()) hints->resize(pos.num_root_ids(), kNoVertex);
  Vertex& hint = (*hints)[r];
  if (hint == kNoVertex || !in_root_space(pos, r, pos.root_owner(r), hint))
    hint = pos.root_space_point(r);
  return hint;
}

// tactical_move, saying in `whole` whether it looked at every root (so that kNoVertex means
// that no legal move bounds another player's root without bounding its own).
Vertex tactical_scan(const Position& pos, Player p, std::vector<Vertex>* hints, bool& whole) {
  const std::span<const std::uint32_t> spaces = pos.root_spaces();
  whole = spaces.size() <= kTacticsMaxRoots;
  if (!whole) return kNoVertex;
  Vertex escape = kNoVertex;
  for (RootId r = 0; r < spaces.size(); ++r) {
    if (spaces[r] != 1 || !pos.root_alive(r)) continue;
    const Vertex u = last_space_point(pos, r, hints);
    if (u == kNoVertex) continue;
    if (pos.root_owner(r) != p) {
      // Takes the last point of another player's root.
      if (pos.is_legal_point(p, u) && pos.joined_space_after(p, u) > 0) return u;
    } else if (escape == kNoVertex && pos.joined_space_after(p, u) > 0) {
      escape = u;  // grows p's own root out of its last point (legal for p: it is root space)
    }
  }
  return escape;
}

}  // namespace

Vertex tactical_move(const Position& pos, Player p, std::vector<Vertex>* hints) {
  bool whole;
  return tactical_scan(pos, p, hints, whole);
}

Vertex light_playout_move(const Position& pos, Rng& rng, int tries, bool no_taking) {
  const Player p = pos.to_move();
  const std::uint32_t count = pos.legal_count(p);
  const Vertex first = pos.legal_move(p, rng.below(count));
  if (count == 1) return first;
  // A move that bounds another player's root, among `tries` drawn at random.
  Vertex v = first;
  for (int t = 0;;) {
    if (!no_taking && pos.others_bounded(p, v) > 0 && pos.joined_space_after(p, v) > 0) return v;
    if (++t >= tries) break;
    v = pos.legal_move(p, rng.below(count));
  }
  // Else the first draw, unless it bounds its own root: then one more draw.
  if (pos.joined_space_after(p, first) > 0) return first;
  return v != first ? v : pos.legal_move(p, rng.below(count));
}

// ---- the policies

int Policy::move_urgency(const Position&, Player, Vertex) const {
  return 0;
}

void TanboPolicy::prior_shares(Position& pos, Vertex last, std::span<const Vertex> moves,
                               std::vector<double>& shares, PolicyScratch& scratch) const {
  if (options_.model_priors) {
    move_model_shares(pos, last, moves, shares);
  } else {
    one_ply_shares(pos, moves, shares, scratch.indices);
  }
}

Vertex TanboPolicy::playout_move(const Position& pos, const PlayoutTurn& turn, Rng& rng,
                                 PolicyScratch& scratch) const {
  const Player p = pos.to_move();
  const bool tactics =
      options_.tactics && (options_.tactics_plies == 0 || turn.ply < options_.tactics_plies);
  bool whole = false;
  if (tactics) {
    const Vertex v = tactical_scan(pos, p, &scratch.vertices, whole);
    if (v != kNoVertex) return v;
  }
  const Vertex s = turn.suggestion;
  if (s != kNoVertex && pos.is_legal_point(p, s) && !move_bounds_own_root(pos, p, s)) return s;
  if (!options_.light) return random_move(pos, rng);
  // After a scan of every root that found nothing, no move takes: the draws need no test.
  return light_playout_move(pos, rng, options_.tries, tactics && whole);
}

}  // namespace tanbo

// The solver's internals, shared by the alpha-beta search (solver.cpp) and the proof-number
// search (solver_pn.cpp): the board's symmetries under which positions are hashed, and one
// thread's searcher. The transposition table is in solver_table.hpp.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "solver_table.hpp"
#include "tanbo/ai/policy.hpp"
#include "tanbo/ai/solver.hpp"
#include "tanbo/core/tuning.hpp"
#include "tanbo/core/zobrist.hpp"
#include "tanbo/platform/ticker.hpp"

namespace tanbo::solver_detail {

using Clock = std::chrono::steady_clock;

// The board's symmetries, for one topology, under which positions are hashed with the
// position's own Zobrist keys (tanbo/core/zobrist.hpp). The identity is kept implicitly, so
// that a board without symmetries (or too large to look for them) costs nothing here however
// many points it has.
struct Symmetries {
  // Boards of more points than this are solved without their symmetries: finding them takes
  // time in proportion to the board (half a second on a million points), more than a short
  // time limit allows, and no board that large is within the solver's reach.
  static constexpr std::uint32_t kSymmetryPoints = 65536;

  // The table of stone_keys takes at most this much memory; a board that would need more (tens
  // of thousands of points with dozens of symmetries, far beyond the solver's reach) computes
  // each key as it goes.
  static constexpr std::size_t kStoneKeyBytes = std::size_t{16} << 20;

  std::vector<std::vector<Vertex>> perms, inverse;  // the symmetries after the identity
  // The Zobrist keys of every symmetric image of a stone of either player, the first family's
  // then the second's, the identity's first in each: with n = count(), stone_keys[(2 v + p -
  // 1) 2 n + s] = zobrist::stone(image(s, v), p) and stone_keys[... + n + s] =
  // zobrist::second_stone(image(s, v), p), so that a stone placed or removed updates both
  // hashes of all the images with one pass over adjacent words. Computing each key as the
  // stone moved took 29% of a df-pn solve of 3x3x3 (48 symmetries). Empty: no symmetry, or
  // too large a board (kStoneKeyBytes).
  std::vector<std::uint64_t> stone_keys;

  Symmetries(const Topology& topo, bool symmetry) {
    if (symmetry && topo.num_vertices() <= kSymmetryPoints) {
      perms = board_symmetries(topo, 48);
      perms.erase(perms.begin());  // (the identity)
    }
    for (const auto& p : perms) {
      std::vector<Vertex> inv(p.size());
      for (Vertex v = 0; v < p.size(); ++v) inv[p[v]] = v;
      inverse.push_back(std::move(inv));
    }
    const std::size_t n = count(), keys = 4 * std::size_t{topo.num_vertices()} * n;
    if (!perms.empty() && keys * sizeof(std::uint64_t) <= kStoneKeyBytes) {
      stone_keys.resize(keys);
      for (Vertex v = 0; v < topo.num_vertices(); ++v) {
        for (Player p : {kBlack, kWhite}) {
          for (std::size_t s = 0; s < n; ++s) {
            stone_keys[stone_key_index(v, p) + s] = zobrist::stone(image(s, v), p);
            stone_keys[stone_key_index(v, p) + n + s] = zobrist::second_stone(image(s, v), p);
          }
        }
      }
    }
  }
  std::size_t count() const { return perms.size() + 1; }  // symmetries, the identity included
  // The image of v under symmetry s (0: the identity) and back.
  Vertex image(std::size_t s, Vertex v) const { return s == 0 ? v : perms[s - 1][v]; }
  Vertex preimage(std::size_t s, Vertex v) const { return s == 0 ? v : inverse[s - 1][v]; }
  // The keys of the images of a stone of p (Black or White) on v, one per symmetry of each
  // family (2 count() words); null without the table.
  const std::uint64_t* stone_keys_of(Vertex v, Player p) const {
    return stone_keys.empty() ? nullptr : stone_keys.data() + stone_key_index(v, p);
  }

 private:
  std::size_t stone_key_index(Vertex v, Player p) const {
    return (2 * std::size_t{v} + (p - 1u)) * 2 * count();
  }
};

// What a thread shows the progress reports: the root move it proves and that move's numbers
// (RootWork; the move is kNoVertex while it proves none).
struct WorkSlot {
  std::mutex mutex;
  RootWork now;
};

// Shared by the threads of one solve.
struct Shared {
  Shared(Table& t, const Symmetries& k, const SolveLimits& l, const SolverOptions& o,
         Clock::time_point begun)
      : table(t), symmetries(k), limits(l), options(o), start(begun) {}
  Table& table;
  const Symmetries& symmetries;
  const SolveLimits& limits;
  const SolverOptions& options;
  Clock::time_point start;
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> nodes{0};
  std::atomic<std::size_t> next_move{0};
  std::atomic<std::size_t> moves_done{0};
  std::atomic<std::size_t> moves_total{0};
  // Raised by the watchdog shortly before each progress report: each df-pn thread then shows
  // the numbers of its root move's position as the whole path it is on gives them
  // (Searcher::show_path_numbers), not as they were when the search last stood there.
  std::atomic<std::uint32_t> numbers_asked{0};

  // The positions on the threads' df-pn stacks, when several threads prove one position
  // together: a count per slot (the key's low bits) of the frames being searched, so that a
  // thread steers around children others are in (Kaneko 2010; Pawlewicz and Hayward 2013).
  // Null with one thread or alpha-beta. A slot shared by two keys only misleads the choice.
  static constexpr std::size_t kBusySlots = std::size_t{1} << 16;
  std::unique_ptr<std::atomic<std::uint8_t>[]> busy;
  // Set when a thread first helps with a root move another is proving: until then the threads
  // are on root moves of their own and pick children as one thread alone does.
  std::atomic<bool> helping{false};
  // One slot a thread, made before the watchdog starts; the board names their moves.
  std::vector<WorkSlot> work;
  const Topology* board = nullptr;
  std::atomic<std::uint8_t>& busy_slot(const Key& key) const {
    return busy[(key.second ^ (key.second >> 32)) & (kBusySlots - 1)];
  }
};

// Keeps the time limit and reports progress on a thread of its own, so that neither waits for
// the search's next look at the clock (a node of a huge board may take a while): at the limit
// it sets the stop flag, which the searchers read at every move they look at.
class Watchdog {
 public:
  explicit Watchdog(Shared& sh)
      : sh_(sh),
        every_(sh.options.progress ? sh.options.progress_every : 0),
        lead_(std::chrono::duration_cast<Clock::duration>(
            std::chrono::duration<double>(std::min(kAskLead, every_ / 2)))),
        deadline_(Ticker::after(sh.start, sh.limits.seconds)),
        next_report_(Ticker::after(sh.start, every_)),
        ticker_(std::min(deadline_, next_ask()),
                [this](Clock::time_point now) { return tick(now); }) {}

 private:
  // How long before a report the threads are asked for their numbers: they look at the
  // request every thousand positions or so, a millisecond or two.
  static constexpr double kAskLead = 0.2;

  Clock::time_point tick(Clock::time_point now) {
    if (!asked_ && now >= next_ask()) {
      sh_.numbers_asked.fetch_add(1, std::memory_order_relaxed);
      asked_ = true;
    }
    // A line that is due is printed even when the time is up as well (a long setup of a
    // huge board can take both past): the user sees where the search stopped.
    if (now >= next_report_) {
      report(now);
      next_report_ = Ticker::after(now, every_);
      asked_ = false;
    }
    if (now >= deadline_) {
      sh_.stop = true;
      return Ticker::kNever;
    }
    return std::min(deadline_, asked_ ? next_report_ : next_ask());
  }
  // When the threads are asked for the numbers of the next report.
  Clock::time_point next_ask() const {
    return next_report_ == Ticker::kNever ? Ticker::kNever : next_report_ - lead_;
  }
  void report(Clock::time_point now) {
    SolveProgress p;
    p.nodes = sh_.nodes.load();
    p.seconds = std::chrono::duration<double>(now - sh_.start).count();
    p.moves_done = sh_.moves_done.load();
    p.moves_total = sh_.moves_total.load();
    p.board = sh_.board;
    for (WorkSlot& slot : sh_.work) {
      RootWork w;
      {
        std::lock_guard lock(slot.mutex);
        w = slot.now;
      }
      const auto same = [&](const RootWork& o) { return o.move == w.move; };
      if (w.move != kNoVertex && std::none_of(p.working.begin(), p.working.end(), same)) {
        p.working.push_back(w);
      }
    }
    sh_.options.progress(p);
  }

  Shared& sh_;
  const double every_;          // seconds between progress lines (0: none)
  const Clock::duration lead_;  // the request for numbers comes this long before a report
  const Clock::time_point deadline_;
  Clock::time_point next_report_;
  bool asked_ = false;  // the numbers of the next report were asked for
  Ticker ticker_;       // last: it stops before the members it reads go
};

enum class Value : std::int8_t { kLoss = 0, kWin = 1, kUnknown = 2 };

struct Outcome {
  Value value = Value::kUnknown;
  std::uint32_t plies = 0;
};

// One thread's search: its own copy of the position, the hashes of every symmetric image of
// the stones, and its move lists.
class Searcher {
 public:
  Searcher(const Position& pos, Shared& shared)
      : pos_(pos), sh_(shared), policy_(shared.options.policy.get()) {
    pos_.clear_history();
    pos_.set_recording(true);
    hashes_.assign(2 * sh_.symmetries.count(), 0);
    zeros_.assign(sh_.symmetries.count(), 0);
    board_.assign(pos_.num_vertices(), kEmpty);
    now_.assign(pos_.num_vertices(), kEmpty);
    for (Vertex v = 0; v < pos_.num_vertices(); ++v) {
      if (pos_.at(v) != kEmpty) toggle(v, pos_.at(v));
      board_[v] = pos_.at(v);
    }
    history_.assign(2 * std::size_t{pos_.num_vertices()}, 0);
  }

  const Position& position() const { return pos_; }
  // A flag that stops this searcher's search (as a limit does) when set: another thread has
  // finished the root move it helps with. Null: none.
  void set_cancel(const std::atomic<bool>* cancel) { cancel_ = cancel; }
  // The slot where df-pn shows the numbers of the root move `move` it proves (kNoVertex: it
  // proves none, and the slot is cleared).
  void set_report(WorkSlot* slot, Vertex move) {
    report_ = move == kNoVertex ? nullptr : slot;
    report_move_ = move;
    if (move != kNoVertex) return;
    std::lock_guard lock(slot->mutex);
    slot->now = RootWork{};
  }
  std::uint64_t local_nodes() const { return nodes_; }

  // Plays v and keeps the hashes.
  void play(Vertex v) {
    const Player me = pos_.to_move();
    if (pos_.play(v).stones_removed != 0) return follow_board();
    toggle(v, me);
    board_[v] = me;
  }
  // Takes back the last move and its hashes: XOR takes a stone's keys out as it put them in,
  // so no copy of the hashes is kept for each move played.
  void undo() {
    const MoveRecord rec = pos_.last_move();
    pos_.undo();
    if (rec.stones_removed != 0) return follow_board();
    toggle(rec.vertex, board_[rec.vertex]);
    board_[rec.vertex] = kEmpty;
  }

  // Whether a symmetry other than the identity maps the stones onto themselves.
  bool position_symmetric() const {
    for (std::size_t s = 1, n = hashes_.size() / 2; s < n; ++s) {
      if (hashes_[s] == hashes_[0]) return true;
    }
    return false;
  }
  // The canonical key of the position and the symmetry that gives it: the image whose first
  // hash is least.
  Key key(std::size_t& sym) const { return canonical(hashes_.data(), sym); }
  // The same from hashes h of pos_'s stones (laid out as hashes_).
  Key canonical(const std::uint64_t* h, std::size_t& sym) const {
    const std::size_t n = hashes_.size() / 2;
    sym = tuning::least_xor_index(h, zeros_.data(), n);
    const Player p = pos_.to_move();
    return {h[sym] ^ zobrist::side_to_move(p), h[n + sym] ^ zobrist::second_side_to_move(p)};
  }
  // The same for the position after a stone of `me` on v that removes nothing, `next` to move,
  // which the hashes do not have: read from them and the stone's keys, without the two passes
  // that would write the stone into every image's hashes and out again. A position's children
  // are keyed this way (child_start): the first 3,000,000 positions of 3x3x3 (48 symmetries,
  // the same search both ways) took 6.24 s of CPU against 6.88 s (medians of 5 pairs of runs):
  // with it, keys of two hashes cost no more than one did.
  Key key_after(Vertex v, Player me, Player next, std::size_t& sym) const {
    const std::size_t n = hashes_.size() / 2;
    const std::uint64_t* keys = sh_.symmetries.stone_keys_of(v, me);
    std::uint64_t least;
    if (keys) {
      sym = tuning::least_xor_index(hashes_.data(), keys, n);
      least = hashes_[sym] ^ keys[sym];
    } else {
      auto first = [&](std::size_t s) {
        return hashes_[s] ^ zobrist::stone(sh_.symmetries.image(s, v), me);
      };
      sym = 0;
      least = first(0);
      for (std::size_t s = 1; s < n; ++s) {
        if (const std::uint64_t h = first(s); h < least) least = h, sym = s;
      }
    }
    const std::uint64_t second =
        hashes_[n + sym] ^
        (keys ? keys[n + sym] : zobrist::second_stone(sh_.symmetries.image(sym, v), me));
    return {least ^ zobrist::side_to_move(next), second ^ zobrist::second_side_to_move(next)};
  }
  // The same for a move that removed stones, from a copy of the hashes, rather than writing the
  // changes into the hashes and taking them out again: 2.61 s of CPU against 2.91 s on 5x5
  // from the 2026 start, 6.08 s against 6.47 s for the first 3,000,000 positions of 3x3x3
  // (the same search; medians of 5 pairs of runs beside a solve on both cores).
  Key key_after_removal(std::size_t& sym) {
    scratch_.assign(hashes_.begin(), hashes_.end());
    add_changes(scratch_.data());
    return canonical(scratch_.data(), sym);
  }

  // Proves the position for the side to move (the game is not over) by alpha-beta on won/lost
  // values (solver_ab.cpp), on a stack of its own: any length of game. `ply` is the position's
  // distance from the root.
  Outcome search(std::size_t ply);
  // The outcome for the side to move after `me` plays v: a win of `me` when the move ends the
  // game in its favour reads as the opponent's loss.
  Outcome child_outcome(Vertex v, Player me, std::size_t ply);

  // Orders moves best first: `first` (if legal), moves the policy finds urgent (TanboPolicy:
  // those that bound another root without bounding their own), then by the history heuristic;
  // moves it finds bad (self-bounding) last. False when a limit stopped it (the order is then
  // unchanged).
  bool order(std::span<Vertex> moves, Player me, Vertex first);
  // The policy's urgency of v for me; without a policy TanboPolicy's, called directly (no
  // virtual call in the ordering of every alpha-beta node).
  int move_urgency(Player me, Vertex v) const {
    return policy_ ? policy_->move_urgency(pos_, me, v) : TanboPolicy::urgency(pos_, me, v);
  }

  // The root's legal moves, ordered (the root's table move first; unordered when a limit
  // stopped the ordering).
  std::vector<Vertex> root_moves() {
    std::size_t sym = 0;
    const Key k = key(sym);
    Entry e;
    Vertex first = kNoVertex;
    if (sh_.table.probe(k, e) && e.proven && e.move < pos_.num_vertices())
      first = sh_.symmetries.preimage(sym, e.move);
    std::vector<Vertex> moves = pos_.legal_moves(pos_.to_move());
    tick(moves.size());
    order(moves, pos_.to_move(), first);
    return moves;
  }

  // Proof-number search (solver_pn.cpp): the numbers of the position for the side to move,
  // searched until it is proven or its numbers reach the thresholds, on a stack of its own.
  struct Numbers {
    std::uint32_t pn = 1, dn = 1, plies = 0;
    bool aborted = false;
  };
  Numbers prove(std::uint32_t thpn, std::uint32_t thdn);
  // The outcome for the side to move after `me` plays v, proven by proof-number search.
  Outcome child_outcome_pn(Vertex v, Player me);

  void store_root(bool win, Vertex best, std::uint32_t plies) {
    std::size_t sym = 0;
    const Key k = key(sym);
    store(k, sym, win, best, plies, 0);
  }

  // Counts a node. False: stop.
  bool count_node() {
    ++nodes_;
    return tick(kNodeWork);
  }
  // Counts `units` of work (a move looked at is one, a node kNodeWork); every kCheckWork
  // units checks the limits (and reports progress), so that a node with a million moves is
  // timed as well as a thousand small ones. False: stop.
  bool tick(std::uint64_t units) {
    work_ += units;
    if (work_ < kCheckWork) return !sh_.stop.load(std::memory_order_relaxed);
    work_ = 0;
    return check_limits();
  }

 private:
  static constexpr std::uint64_t kNodeWork = 16, kCheckWork = 16384;

  bool check_limits() {
    const std::uint64_t total =
        sh_.nodes.fetch_add(nodes_ - counted_, std::memory_order_relaxed) + (nodes_ - counted_);
    counted_ = nodes_;
    if (report_) {
      const std::uint32_t asked = sh_.numbers_asked.load(std::memory_order_relaxed);
      if (asked != numbers_shown_) {
        numbers_shown_ = asked;
        show_path_numbers();
      }
    }
    if (sh_.stop.load(std::memory_order_relaxed)) return false;
    if (cancel_ && cancel_->load(std::memory_order_relaxed)) return false;
    const SolveLimits& lim = sh_.limits;
    const double secs = std::chrono::duration<double>(Clock::now() - sh_.start).count();
    if ((lim.nodes && total >= lim.nodes) || (lim.seconds > 0 && secs >= lim.seconds) ||
        (lim.stop && lim.stop->load(std::memory_order_relaxed))) {
      sh_.stop = true;
      return false;
    }
    return true;
  }

  // Brings board_ and the hashes to the position after a move that removed stones (or its
  // undo).
  void follow_board() {
    add_changes(hashes_.data());
    board_.swap(now_);
  }
  // XORs into h (hashes as hashes_ holds them) the keys of every point where pos_ differs
  // from board_, and leaves pos_'s stones in now_: a pass over the board. The stones are read
  // in one call (Position::read_board), not a call a point: built without link-time
  // optimisation (as pip builds the Python module) those calls were 11% of a profile of 7x7
  // from the 2026 start, where most children remove stones, and the one call takes 7% less
  // CPU there (1% with it; docs/solved.md, "Speed").
  void add_changes(std::uint64_t* h) {
    work_ += pos_.num_vertices() / 16;  // (counted for the limits' next check)
    pos_.read_board(now_);
    for (Vertex u = 0; u < pos_.num_vertices(); ++u) {
      const Player was = board_[u], now = now_[u];
      if (now == was) continue;
      if (was != kEmpty) add_stone(h, u, was);
      if (now != kEmpty) add_stone(h, u, now);
    }
  }
  void toggle(Vertex v, Player c) { add_stone(hashes_.data(), v, c); }
  // XORs into h the keys of a stone of c on v: both families', every image's.
  void add_stone(std::uint64_t* h, Vertex v, Player c) const {
    const std::size_t n = hashes_.size() / 2;
    if (const std::uint64_t* keys = c <= kWhite ? sh_.symmetries.stone_keys_of(v, c) : nullptr) {
      for (std::size_t s = 0; s < 2 * n; ++s) h[s] ^= keys[s];
      return;
    }
    for (std::size_t s = 0; s < n; ++s) {
      const Vertex u = sh_.symmetries.image(s, v);
      h[s] ^= zobrist::stone(u, c);
      h[n + s] ^= zobrist::second_stone(u, c);
    }
  }
  std::size_t history_index(Player p, Vertex v) const {
    return 2 * std::size_t{v} + (p == kWhite ? 1 : 0);
  }
  struct Child {
    Vertex move;
    std::uint32_t pn, dn;  // for the side to move after the move
    std::uint32_t plies;   // when proven
    Key key;               // the position's canonical key (none: the move ended the game)
    bool removes;          // the move removed stones
  };
  // A child's numbers before the table is read: proven when the move ends the game, else from
  // its mobility (proof number 1, disproof number the moves of its side to move), and its key.
  // open_pn fetches the children's entries (Table::prefetch) once all are known, for reread.
  Child child_start(Vertex v, Player me);
  // Keeps one child of each position among kids_[begin, end): moves that lead to one position
  // (mirror images of each other, or self-bounding moves of one root) are one child. Returns
  // the new end.
  std::size_t drop_transposed_children(std::size_t begin);
  // A position being searched, on the searches' own stacks (the game may be as long as the
  // board is large: a path of a million points is a game of a million plies). Its moves or
  // children are [begin, end) of moves_ or kids_.
  struct AbFrame {
    Key key;
    std::size_t sym;
    std::uint64_t before;  // nodes_ when it was entered
    std::size_t begin, end, next;
    std::uint32_t longest;  // the longest loss so far, and its move
    Vertex longest_move;
    Player me;
  };
  struct PnFrame {
    Key key;
    std::size_t sym;
    std::uint64_t before;
    std::uint32_t thpn, thdn;      // its thresholds
    std::size_t begin, end, best;  // best: the child being searched
    bool marked = false;           // counted in the busy slots (threads share the tree)
  };
  // Enters the position (alpha-beta): pushes its frame and returns true, or returns false with
  // its outcome when known without a search (from the table, a move that wins at once, or
  // kUnknown when a limit stopped it).
  bool open_ab(Outcome& out);
  // Leaves the frames above `base` after a limit stopped the search, taking back their moves.
  void unwind_ab(std::size_t base);
  // The same for the proof-number search (out.aborted when a limit stopped it).
  bool open_pn(std::uint32_t thpn, std::uint32_t thdn, Numbers& out);
  // The top frame's next step: true with its numbers when it is done (its frame is then
  // popped), false with the thresholds of the child it searches next in `child_th`.
  bool step_pn(Numbers& out, std::uint32_t& child_thpn, std::uint32_t& child_thdn);
  void unwind_pn(std::size_t base);
  void store(const Key& k, std::size_t sym, bool win, Vertex best, std::uint32_t plies,
             std::uint64_t before) {
    Entry e;
    e.win = win;
    e.move = sh_.symmetries.image(sym, best);
    e.plies = plies;
    e.work = log2_of(nodes_ - before + 1);
    sh_.table.store(k, e);
  }
  void store_numbers(const Key& k, std::uint32_t pn, std::uint32_t dn, std::uint64_t before) {
    Entry e;
    e.proven = false;
    e.pn = pn;
    e.dn = dn;
    e.work = log2_of(nodes_ - before + 1);
    sh_.table.store(k, e);
  }

  // Counts the top frame in the busy slots once threads share the tree, and takes a frame's
  // count back when it is left. (Not before: two threads proving mirror images of one root
  // move would pass the slots of the same positions to and fro between their cores.)
  void mark_top() {
    if (!sh_.busy || !sh_.helping.load(std::memory_order_relaxed)) return;
    PnFrame& f = pn_.back();
    sh_.busy_slot(f.key).fetch_add(1, std::memory_order_relaxed);
    f.marked = true;
  }
  void unmark(const PnFrame& f) {
    if (f.marked) sh_.busy_slot(f.key).fetch_sub(1, std::memory_order_relaxed);
  }
  // Reads a child's numbers from the table by its key (again, when another thread may have
  // moved them on); false, leaving them as they were, when the table has no entry.
  bool reread(Child& c) const;

  Position pos_;
  Shared& sh_;
  const std::atomic<bool>* cancel_ = nullptr;
  WorkSlot* report_ = nullptr;  // set_report's (null: none)
  Vertex report_move_ = kNoVertex;
  // Shows the numbers of the root move's position (the bottom frame of the stack) in report_.
  void show_numbers(std::uint32_t pn, std::uint32_t dn) {
    std::lock_guard lock(report_->mutex);
    report_->now = RootWork{report_move_, dn, pn};
  }
  // Shows them as the frames on the stack give them now: each frame's numbers from its
  // children's, the child being searched taking the numbers of the frame above it, from the
  // top frame down. The bottom frame's children alone change only when the search comes back
  // to it, minutes apart on large boards.
  void show_path_numbers();
  std::uint32_t numbers_shown_ = 0;  // the last Shared::numbers_asked answered
  const Policy* policy_;             // SolverOptions::policy (null: TanboPolicy's urgency)
  // The first hash of every symmetric image of the stones, then the second hash of each
  // (Symmetries::stone_keys's order).
  std::vector<std::uint64_t> hashes_;
  std::vector<std::uint64_t> scratch_;  // key_after_removal's hashes
  std::vector<std::uint64_t> zeros_;    // a zero for each symmetry (h ^ 0 is h, for canonical)
  std::vector<Player> board_;           // the stones that hashes_ holds
  std::vector<Player> now_;             // add_changes's read of pos_'s stones
  std::vector<AbFrame> ab_;
  std::vector<PnFrame> pn_;
  std::vector<Vertex> moves_;  // the move lists of the frames of ab_, one after the other
  std::vector<Child> kids_;    // the children of the frames of pn_, one after the other
  std::vector<std::uint32_t> history_;
  std::vector<std::pair<std::int64_t, Vertex>> scored_;
  std::vector<std::pair<Key, std::size_t>> keyed_;  // drop_transposed_children's
  std::uint64_t nodes_ = 0;
  std::uint64_t counted_ = 0;  // the nodes added to sh_.nodes
  std::uint64_t work_ = 0;     // units of work since the limits were last checked
};

}  // namespace tanbo::solver_detail

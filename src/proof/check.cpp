// The proof checker (include/tanbo/proof/proof.hpp): Tanbo's rules written once more, plainly,
// over the board's adjacency, and a walk over every line of play the certificate allows.
#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <sstream>
#include <vector>

#include "tanbo/core/error.hpp"
#include "tanbo/core/setup.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/platform/memory.hpp"
#include "tanbo/platform/ticker.hpp"
#include "tanbo/proof/position_set.hpp"
#include "tanbo/proof/proof.hpp"

namespace tanbo::proof {

namespace {

// A position as the rules see it: who stands where, how many stones each player has, and who
// moves (kEmpty once over).
struct State {
  std::vector<Player> stones;
  std::array<std::uint32_t, kMaxPlayers + 1> count{};  // count[p]: the stones of player p
  Player to_move = kEmpty;
};

// ---- the rules

std::uint32_t own_neighbours(const Graph& g, const State& s, Vertex v, Player p) {
  std::uint32_t n = 0;
  for (Vertex u : g.neighbours(v)) n += s.stones[u] == p;
  return n;
}

// A stone may go on an empty point next to exactly one stone of its own colour.
bool legal(const Graph& g, const State& s, Vertex v) {
  return s.stones[v] == kEmpty && own_neighbours(g, s, v, s.to_move) == 1;
}

std::vector<Vertex> legal_moves(const Graph& g, const State& s) {
  std::vector<Vertex> out;
  for (Vertex v = 0; v < g.num_vertices(); ++v) {
    if (legal(g, s, v)) out.push_back(v);
  }
  return out;
}

// Marks for the searches of a root: a search takes a new epoch, and a point is marked when it
// holds the epoch, so nothing is cleared between searches and a search costs the points it
// visits, not the board. Two sets per thread (one for the searches of roots, one for the stones
// of the roots a move leaves room), sized for the board at hand.
class Marks {
 public:
  enum Set { kSearch, kRoomy };
  // Starts a search (or a move's marks) over a board of n points.
  static Marks& begin(std::size_t n, Set set = kSearch) {
    thread_local Marks sets[2];
    Marks& m = sets[set];
    if (m.mark_.size() != n || ++m.epoch_ == 0) {
      m.mark_.assign(n, 0);
      m.epoch_ = 1;
    }
    return m;
  }
  // True the first time v is marked in this search.
  bool mark(Vertex v) {
    if (mark_[v] == epoch_) return false;
    mark_[v] = epoch_;
    return true;
  }
  bool marked(Vertex v) const { return mark_[v] == epoch_; }

 private:
  std::vector<std::uint32_t> mark_;
  std::uint32_t epoch_ = 0;
};

// The root (connected stones of one colour) that holds stone v.
std::vector<Vertex> root_of(const Graph& g, const State& s, Vertex v) {
  Marks& seen = Marks::begin(s.stones.size());
  seen.mark(v);
  std::vector<Vertex> root{v};
  for (std::size_t i = 0; i < root.size(); ++i) {
    for (Vertex u : g.neighbours(root[i])) {
      if (s.stones[u] == s.stones[v] && seen.mark(u)) root.push_back(u);
    }
  }
  return root;
}

// A root is bounded when no empty point next to it touches exactly one stone of its colour: its
// owner can no longer grow it. Whether the root holding stone v can still grow, searching the
// root from v, nearest stones first, and stopping at the first point where it can (next to v or
// a few stones away, nearly always: a move changes the room of roots near it only). When it
// can, the stones searched are marked in `roomy` (when given): their root has room.
bool has_room(const Graph& g, const State& s, Vertex v, Marks* roomy = nullptr) {
  const Player p = s.stones[v];
  Marks& seen = Marks::begin(s.stones.size());
  seen.mark(v);
  thread_local std::vector<Vertex> queue;  // (kept from call to call: no allocation a call)
  queue.assign(1, v);
  for (std::size_t i = 0; i < queue.size(); ++i) {
    for (Vertex u : g.neighbours(queue[i])) {
      if (s.stones[u] != kEmpty || own_neighbours(g, s, u, p) != 1) continue;
      if (roomy) {
        for (Vertex w : queue) roomy->mark(w);
      }
      return true;
    }
    for (Vertex u : g.neighbours(queue[i])) {
      if (s.stones[u] == p && seen.mark(u)) queue.push_back(u);
    }
  }
  return false;
}

void remove(State& s, const std::vector<Vertex>& root) {
  for (Vertex v : root) {
    --s.count[s.stones[v]];
    s.stones[v] = kEmpty;
  }
}

// The next player in turn order after p who has stones; kEmpty when at most one player has.
Player next_to_move(const State& s, Player p, int players) {
  int with_stones = 0;
  for (int q = 1; q <= players; ++q) with_stones += s.count[q] > 0;
  if (with_stones <= 1) return kEmpty;
  for (int i = 1; i <= players; ++i) {
    const Player q = static_cast<Player>((p - 1 + i) % players + 1);
    if (s.count[q] > 0) return q;
  }
  return kEmpty;
}

// Plays a legal move: the mover's expanded root goes if the move bounded it, otherwise every
// bounded root goes.
void play(const Graph& g, State& s, Vertex v, int players) {
  const Player p = s.to_move;
  s.stones[v] = p;
  ++s.count[p];
  Marks& roomy = Marks::begin(s.stones.size(), Marks::kRoomy);  // in roots found with room
  if (!has_room(g, s, v, &roomy)) {
    remove(s, root_of(g, s, v));
    s.to_move = next_to_move(s, p, players);
    return;
  }
  // Only a root with a stone within two steps of v can be bounded by the move: the stone takes
  // v from the space of the roots next to v, and a point u next to v from the space of the root
  // of its colour next to u (u now touches two stones of that colour); no other point changes.
  // (No root is bounded before a move: the setup has none, check_setup, every turn removes
  // those it bounds, and a removal only empties points, which takes space from no root.)
  std::vector<std::vector<Vertex>> bounded;  // found first, then removed together
  const auto consider = [&](Vertex u) {
    if (s.stones[u] == kEmpty || roomy.marked(u)) return;
    for (const auto& root : bounded) {
      if (std::find(root.begin(), root.end(), u) != root.end()) return;
    }
    if (!has_room(g, s, u, &roomy)) bounded.push_back(root_of(g, s, u));
  };
  for (Vertex u : g.neighbours(v)) {
    consider(u);
    for (Vertex w : g.neighbours(u)) consider(w);
  }
  for (const auto& root : bounded) remove(s, root);
  s.to_move = next_to_move(s, p, players);
}

Player winner_of(const State& s) {
  for (Player q = 1; q < s.count.size(); ++q) {
    if (s.count[q] > 0) return q;
  }
  return kEmpty;
}

// ---- the certificate

// What a listed position holds: its move and the line that lists it (and, in its entry of the
// set, a byte set once the walk has visited it).
struct Listed {
  Vertex move;
  std::uint64_t line;
};
constexpr std::size_t kVisited = sizeof(Vertex) + sizeof(std::uint64_t);

Listed listed_at(const std::byte* value) {
  Listed l;
  std::memcpy(&l.move, value, sizeof l.move);
  std::memcpy(&l.line, value + sizeof l.move, sizeof l.line);
  return l;
}

struct Certificate {
  TopologyPtr topo;
  std::string setup;
  int players = 2;
  State start;        // the proven position
  std::string moves;  // the moves that led there, one space apart
  Player winner = kEmpty;
  PositionSet lines{kVisited + 1};  // the listed positions
};

std::string field(const std::string& line, std::string_view key, std::uint64_t number) {
  const std::string want = std::string(key) + " ";
  if (line.rfind(want, 0) == 0) return line.substr(want.size());
  if (line == key) return "";
  throw Error("line " + std::to_string(number) + ": expected \"" + std::string(key) +
              " ...\", found " + quote_input(line));
}

// The next line that is not blank; false at the end of the text. A line is refused as soon as it
// passes 64 MB, not read to its end (a sparse file of a terabyte would take an hour).
bool next_line(std::istream& in, std::string& line, std::uint64_t& number) {
  constexpr std::size_t kMaxLine = std::size_t{64} << 20;
  constexpr int kEnd = std::char_traits<char>::eof();
  std::streambuf& buf = *in.rdbuf();
  for (int c = buf.sbumpc(); c != kEnd; c = buf.sbumpc()) {
    ++number;
    line.clear();
    for (; c != kEnd && c != '\n'; c = buf.sbumpc()) {
      if (line.size() == kMaxLine) {
        throw Error("line " + std::to_string(number) + " is longer than 64 MB");
      }
      line += static_cast<char>(c);
    }
    drop_carriage_returns(line);
    if (!line.empty()) return true;
    if (c == kEnd) break;
  }
  return false;
}

std::string need_line(std::istream& in, std::string_view key, std::uint64_t& number) {
  std::string line;
  if (!next_line(in, line, number)) {
    throw Error("the certificate ends before its \"" + std::string(key) + "\" line");
  }
  return field(line, key, number);
}

Vertex point(const Topology& t, std::string_view name, std::uint64_t number) {
  const auto v = t.parse_vertex(name);
  if (!v) throw Error("line " + std::to_string(number) + ": " + t.not_a_point(name));
  return *v;
}

// A setup whose seeds touch or have no room is no game of Tanbo (the engine refuses it too).
void check_setup(const Topology& t, const State& s) {
  for (Vertex v = 0; v < s.stones.size(); ++v) {
    if (s.stones[v] == kEmpty) continue;
    if (own_neighbours(t.graph, s, v, s.stones[v]) != 0) {
      throw Error("the setup's seed at " + t.name(v) + " touches another of its colour");
    }
  }
  for (Vertex v = 0; v < s.stones.size(); ++v) {
    if (s.stones[v] != kEmpty && !has_room(t.graph, s, v)) {
      throw Error("the setup's seed at " + t.name(v) + " has no root space");
    }
  }
}

// The board: a DOT board from the text the certificate carries ("dot" lines after the
// topology), any other board (and a DOT board of a certificate that carries no text) from its
// spec.
TopologyPtr board(const std::string& spec, const std::string& dot, std::uint64_t number) {
  TopologyPtr topo = carried_board(spec, dot, process_limits());
  if (!dot.empty() && topo->kind != BoardKind::kFile) {
    throw Error("line " + std::to_string(number) +
                ": \"dot\" lines follow a board that is not a DOT board (\"topology file NAME\")");
  }
  return topo;
}

// The header, then the moves from the setup replayed by the checker's own rules.
Certificate read_header(std::istream& in, std::uint64_t& number, MemoryBudget& memory) {
  std::string line;
  if (!next_line(in, line, number) || line != kMagic) {
    throw Error("not a proof certificate: the first line must be \"" + std::string(kMagic) + "\"");
  }
  Certificate c;
  const std::string spec = need_line(in, "topology", number);
  const std::uint64_t topology_line = number;
  std::string dot;
  do {
    if (!next_line(in, line, number)) {
      throw Error("the certificate ends before its \"setup\" line");
    }
    memory.add(line.size());  // (the board's text, kept until the board is made)
  } while (append_dot_line(line, dot));
  c.topo = board(spec, dot, topology_line);
  check_names(*c.topo);
  c.setup = field(line, "setup", number);
  if (trim(c.setup).empty()) throw Error("line " + std::to_string(number) + ": no setup named");
  const Setup setup = make_setup(*c.topo, c.setup);
  c.players = setup.players;
  c.start.stones.assign(c.topo->num_vertices(), kEmpty);
  for (const auto& [v, p] : setup.stones) {
    c.start.stones[v] = p;
    ++c.start.count[p];
  }
  c.start.to_move = kBlack;
  check_setup(*c.topo, c.start);
  std::istringstream words(need_line(in, "moves", number));
  const std::uint64_t moves_line = number;
  for (std::string name; words >> name;) {
    const Vertex v = point(*c.topo, name, moves_line);
    // (named as the board names it: "valid: ... after the moves B1" says which points they are)
    c.moves += (c.moves.empty() ? "" : " ") + c.topo->name(v);
    if (c.start.to_move == kEmpty || !legal(c.topo->graph, c.start, v)) {
      throw Error("line " + std::to_string(moves_line) + ": move " + quote_input(name) +
                  " is not legal there");
    }
    play(c.topo->graph, c.start, v, c.players);
  }
  const auto w = parse_player(need_line(in, "winner", number), c.players);
  if (!w) throw Error("line " + std::to_string(number) + ": the winner is not a player");
  c.winner = *w;
  return c;
}

// Calls the caller's report every so many seconds (polled at each step of the loops).
class Reporter {
 public:
  Reporter(const std::function<void(const CheckProgress&)>& report, double every)
      : report_(report), every_(report ? every : 0) {}
  void step(std::uint64_t lines_read, std::uint64_t checked) {
    if (every_.due()) report_({lines_read, checked, every_.elapsed()});
  }

 private:
  const std::function<void(const CheckProgress&)>& report_;
  Every every_;
};

void read_lines(std::istream& in, std::uint64_t& number, Certificate& c, MemoryBudget& memory,
                Reporter& reporter) {
  std::string line, key;
  std::vector<std::pair<Vertex, Player>> stones;
  const PointNames names(*c.topo);
  memory.add(names.bytes());
  while (next_line(in, line, number)) {
    reporter.step(number, 0);
    const auto space = line.rfind(' ');
    if (space == std::string::npos) {
      throw Error("line " + std::to_string(number) + ": expected \"POSITION MOVE\", found " +
                  quote_input(line));
    }
    const std::string_view move_name = std::string_view(line).substr(space + 1);
    const Vertex move = names.find(move_name);
    if (move == kNoVertex) {  // (written as a position's names are: one text for each line)
      const Vertex named = point(*c.topo, move_name, number);
      throw Error("line " + std::to_string(number) + ": the move " + quote_input(move_name) +
                  " is not written " + c.topo->name(named));
    }
    const std::string_view position = std::string_view(line).substr(0, space);
    try {
      stones = read_position(names, position, c.players);
    } catch (const Error& e) {
      throw Error("line " + std::to_string(number) + ": " + e.what() + " in the position " +
                  quote_input(position));
    }
    position_key(stones, c.topo->num_vertices(), c.players, c.winner, key);
    const auto [value, fresh] = c.lines.insert(key);
    if (fresh) {
      memory.add(c.lines.cost(key));
      std::memcpy(value, &move, sizeof move);
      std::memcpy(value + sizeof move, &number, sizeof number);
    } else if (listed_at(value).move != move) {
      throw Error("line " + std::to_string(number) + ": the position of line " +
                  std::to_string(listed_at(value).line) + " is listed again with another move");
    }
  }
}

// A position's text in a message: whole up to 1,000 characters (any board of a few hundred
// points), else its start and its length, so that a board of a million points does not fill
// the screen.
std::string shown(const std::string& text) {
  constexpr std::size_t kShown = 1000;
  if (text.size() <= kShown) return text;
  return text.substr(0, kShown) + "... (" + std::to_string(text.size()) + " characters)";
}

// Every line of play from the start: the winner's listed moves, every legal move of the others.
// Depth first, making one position at a time: memory holds one line of play (a position and its
// moves a ply), and a certificate that fails stops at the first position that breaks it, however
// many moves the positions before it have.
void walk(Certificate& c, CheckResult& r, MemoryBudget& memory, Reporter& reporter,
          std::uint64_t lines_read, CheckMemory remember) {
  const Graph& g = c.topo->graph;
  const Topology& t = *c.topo;
  struct Frame {
    State state;
    std::vector<Vertex> moves;  // the moves followed from it
    std::size_t next = 0;       // the next of them to follow
  };
  // What a frame holds, counted while it is on the line: a line of play on a big board is a
  // copy of the board a ply, far more than the keys of its positions when they have few stones
  // (a certificate of a few MB could otherwise take gigabytes here).
  const auto frame_bytes = [](const Frame& f) {
    return sizeof(Frame) + f.state.stones.size() * sizeof(Player) +
           f.moves.capacity() * sizeof(Vertex);
  };
  PositionSet done;  // the positions visited where the winner is not to move (kAll)
  std::string key;
  std::vector<Frame> line;
  // Checks a position reached (once; see CheckMemory), and enters it when it has moves to follow.
  // False when it breaks the proof (r.reason says how).
  const auto visit = [&](State s) {
    position_key(s.stones, c.players, s.to_move, key);
    const auto at = [&] { return "the position " + shown(position_text(t, s.stones, c.players)); };
    std::vector<Vertex> moves;
    if (s.to_move == c.winner) {
      // (a listed position is marked visited in its own entry, not kept again in `done`)
      std::byte* value = c.lines.find(key);
      if (value && value[kVisited] != std::byte{0}) return true;
      ++r.checked;
      ++r.winner_nodes;
      if (!value) {
        r.reason = at() + " (" + std::string(player_name(s.to_move)) + " to move) is not listed";
        return false;
      }
      value[kVisited] = std::byte{1};
      const Listed listed = listed_at(value);
      if (!legal(g, s, listed.move)) {
        r.reason = "line " + std::to_string(listed.line) + ": " + t.name(listed.move) +
                   " is not a legal move for " + std::string(player_name(s.to_move)) + " in " +
                   at();
        return false;
      }
      moves.push_back(listed.move);
    } else {
      if (remember == CheckMemory::kAll) {
        if (!done.insert(key).second) return true;
        memory.add(done.cost(key));
      }
      ++r.checked;
      if (s.to_move == kEmpty) {
        if (winner_of(s) == c.winner) return true;
        r.reason =
            "a line ends with " + std::string(player_name(winner_of(s))) + "'s victory at " + at();
        return false;
      }
      moves = legal_moves(g, s);
      if (moves.empty()) {
        r.reason = std::string(player_name(s.to_move)) + " has stones but no move in " + at();
        return false;
      }
    }
    line.push_back({std::move(s), std::move(moves), 0});
    memory.add(frame_bytes(line.back()));
    return true;
  };
  if (!visit(c.start)) return;
  while (!line.empty()) {
    reporter.step(lines_read, r.checked);
    Frame& f = line.back();
    if (f.next == f.moves.size()) {
      memory.release(frame_bytes(f));
      line.pop_back();
      continue;
    }
    State next = f.state;
    play(g, next, f.moves[f.next++], c.players);
    if (!visit(std::move(next))) return;
  }
  r.valid = true;
}

}  // namespace

CheckResult check(std::istream& in, const std::function<void(const CheckProgress&)>& report,
                  double every, CheckMemory remember) {
  // What the check holds (the certificate's positions, the positions checked), so that a huge
  // file is refused, not a crash.
  MemoryBudget memory("checking this certificate");
  Reporter reporter(report, every);
  std::uint64_t number = 0;
  Certificate c = read_header(in, number, memory);
  read_lines(in, number, c, memory, reporter);
  CheckResult r;
  r.winner = c.winner;
  r.topology = c.topo->spec;
  r.board = c.topo;
  r.setup = c.setup;
  r.moves = c.moves;
  r.listed = c.lines.size();
  if (c.start.to_move == kEmpty) {
    // (named as a line of play that breaks the proof is: by the position and its winner)
    r.reason = "the game is already over after the moves " + c.moves + ": " +
               std::string(player_name(winner_of(c.start))) + " won it, at the position " +
               shown(position_text(*c.topo, c.start.stones, c.players)) +
               " (a certificate proves a win from a position where the game goes on)";
    return r;
  }
  walk(c, r, memory, reporter, number, remember);
  return r;
}

}  // namespace tanbo::proof

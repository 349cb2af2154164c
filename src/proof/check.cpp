// The proof checker (include/tanbo/proof/proof.hpp): Tanbo's rules written once more, plainly,
// over the board's adjacency, and a walk over every line of play the certificate allows.
#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "tanbo/core/error.hpp"
#include "tanbo/core/setup.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/platform/memory.hpp"
#include "tanbo/proof/proof.hpp"

namespace tanbo::proof {

namespace {

// A position as the rules see it: who stands where, and who moves (kEmpty once over).
struct State {
  std::vector<Player> stones;
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

// The root (connected stones of one colour) that holds stone v.
std::vector<Vertex> root_of(const Graph& g, const State& s, Vertex v) {
  std::vector<Vertex> root{v};
  std::set<Vertex> seen{v};
  for (std::size_t i = 0; i < root.size(); ++i) {
    for (Vertex u : g.neighbours(root[i])) {
      if (s.stones[u] == s.stones[v] && seen.insert(u).second) root.push_back(u);
    }
  }
  return root;
}

// A root is bounded when no empty point next to it touches exactly one stone of its colour:
// its owner can no longer grow it.
bool bounded(const Graph& g, const State& s, const std::vector<Vertex>& root) {
  const Player p = s.stones[root.front()];
  for (Vertex v : root) {
    for (Vertex u : g.neighbours(v)) {
      if (s.stones[u] == kEmpty && own_neighbours(g, s, u, p) == 1) return false;
    }
  }
  return true;
}

void remove(State& s, const std::vector<Vertex>& root) {
  for (Vertex v : root) s.stones[v] = kEmpty;
}

// Every root on the board that is bounded.
std::vector<std::vector<Vertex>> bounded_roots(const Graph& g, const State& s) {
  std::vector<std::vector<Vertex>> out;
  std::vector<bool> seen(s.stones.size(), false);
  for (Vertex v = 0; v < s.stones.size(); ++v) {
    if (s.stones[v] == kEmpty || seen[v]) continue;
    auto root = root_of(g, s, v);
    for (Vertex u : root) seen[u] = true;
    if (bounded(g, s, root)) out.push_back(std::move(root));
  }
  return out;
}

// The next player in turn order after p who has stones; kEmpty when at most one player has.
Player next_to_move(const State& s, Player p, int players) {
  std::vector<bool> has(players + 1, false);
  for (Player q : s.stones) has[q] = true;
  if (std::count(has.begin() + 1, has.end(), true) <= 1) return kEmpty;
  for (int i = 1; i <= players; ++i) {
    const Player q = static_cast<Player>((p - 1 + i) % players + 1);
    if (has[q]) return q;
  }
  return kEmpty;
}

// Plays a legal move: the mover's expanded root goes if the move bounded it, otherwise every
// bounded root goes.
void play(const Graph& g, State& s, Vertex v, int players) {
  const Player p = s.to_move;
  s.stones[v] = p;
  const auto mine = root_of(g, s, v);
  if (bounded(g, s, mine)) {
    remove(s, mine);
  } else {
    for (const auto& root : bounded_roots(g, s)) remove(s, root);
  }
  s.to_move = next_to_move(s, p, players);
}

Player winner_of(const State& s) {
  for (Player q : s.stones) {
    if (q != kEmpty) return q;
  }
  return kEmpty;
}

// ---- the certificate

struct Listed {
  Vertex move;
  std::uint64_t line;
};

struct Certificate {
  TopologyPtr topo;
  std::string setup;
  int players = 2;
  State start;        // the proven position
  std::string moves;  // the moves that led there, as written
  Player winner = kEmpty;
  std::map<std::string, Listed> lines;
};

std::string field(const std::string& line, std::string_view key, std::uint64_t number) {
  const std::string want = std::string(key) + " ";
  if (line.rfind(want, 0) == 0) return line.substr(want.size());
  if (line == key) return "";
  throw Error("line " + std::to_string(number) + ": expected \"" + std::string(key) +
              " ...\", found " + quote_input(line));
}

bool next_line(std::istream& in, std::string& line, std::uint64_t& number) {
  constexpr std::size_t kMaxLine = std::size_t{64} << 20;
  std::size_t length = 0;
  while (read_line(in, line, kMaxLine, &length)) {
    ++number;
    if (length > kMaxLine) {
      throw Error("line " + std::to_string(number) + " is longer than 64 MB");
    }
    drop_carriage_returns(line);
    if (!line.empty()) return true;
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

// The header, then the moves from the setup replayed by the checker's own rules.
Certificate read_header(std::istream& in, std::uint64_t& number) {
  std::string line;
  if (!next_line(in, line, number) || line != kMagic) {
    throw Error("not a proof certificate: the first line must be \"" + std::string(kMagic) + "\"");
  }
  Certificate c;
  c.topo = parse_topology(need_line(in, "topology", number));
  c.setup = need_line(in, "setup", number);
  const Setup setup = make_setup(*c.topo, c.setup);
  c.players = setup.players;
  c.start.stones.assign(c.topo->num_vertices(), kEmpty);
  for (const auto& [v, p] : setup.stones) c.start.stones[v] = p;
  c.start.to_move = kBlack;
  c.moves = need_line(in, "moves", number);
  const std::uint64_t moves_line = number;
  std::istringstream words(c.moves);
  for (std::string name; words >> name;) {
    const Vertex v = point(*c.topo, name, moves_line);
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

void read_lines(std::istream& in, std::uint64_t& number, Certificate& c) {
  std::string line;
  while (next_line(in, line, number)) {
    const auto space = line.rfind(' ');
    if (space == std::string::npos) {
      throw Error("line " + std::to_string(number) + ": expected \"POSITION MOVE\", found " +
                  quote_input(line));
    }
    const Vertex move = point(*c.topo, std::string_view(line).substr(space + 1), number);
    const auto [it, fresh] = c.lines.emplace(line.substr(0, space), Listed{move, number});
    if (!fresh && it->second.move != move) {
      throw Error("line " + std::to_string(number) + ": the position of line " +
                  std::to_string(it->second.line) + " is listed again with another move");
    }
  }
}

// Every line of play from the start: the winner's listed moves, every legal move of the others.
void walk(const Certificate& c, CheckResult& r) {
  const Graph& g = c.topo->graph;
  const Topology& t = *c.topo;
  std::set<std::string> done;
  std::vector<State> stack{c.start};
  while (!stack.empty()) {
    const State s = std::move(stack.back());
    stack.pop_back();
    const std::string text = position_text(t, s.stones, c.players);
    if (!done.insert(std::string(player_name(s.to_move)) + " " + text).second) continue;
    ++r.checked;
    const auto at = [&] { return "the position " + text; };
    if (s.to_move == kEmpty) {
      if (winner_of(s) == c.winner) continue;
      r.reason =
          "a line ends with " + std::string(player_name(winner_of(s))) + "'s victory at " + at();
      return;
    }
    std::vector<Vertex> moves;
    if (s.to_move == c.winner) {
      ++r.winner_nodes;
      const auto it = c.lines.find(text);
      if (it == c.lines.end()) {
        r.reason = at() + " (" + std::string(player_name(s.to_move)) + " to move) is not listed";
        return;
      }
      if (!legal(g, s, it->second.move)) {
        r.reason = "line " + std::to_string(it->second.line) + ": " + t.name(it->second.move) +
                   " is not a legal move for " + std::string(player_name(s.to_move)) + " in " +
                   at();
        return;
      }
      moves.push_back(it->second.move);
    } else {
      moves = legal_moves(g, s);
      if (moves.empty()) {
        r.reason = std::string(player_name(s.to_move)) + " has stones but no move in " + at();
        return;
      }
    }
    for (Vertex v : moves) {
      State next = s;
      play(g, next, v, c.players);
      stack.push_back(std::move(next));
    }
  }
  r.valid = true;
}

}  // namespace

std::string position_text(const Topology& topo, const std::vector<Player>& stones, int players) {
  std::vector<std::string> parts(players);
  for (Vertex v = 0; v < stones.size(); ++v) {
    if (stones[v] == kEmpty) continue;
    std::string& part = parts[stones[v] - 1];
    if (!part.empty()) part += ',';
    part += topo.name(v);
  }
  std::string out;
  for (int i = 0; i < players; ++i) out += (i ? "/" : "") + parts[i];
  return out;
}

CheckResult check(std::istream& in) {
  std::uint64_t number = 0;
  Certificate c = read_header(in, number);
  read_lines(in, number, c);
  CheckResult r;
  r.winner = c.winner;
  r.topology = c.topo->spec;
  r.setup = c.setup;
  r.listed = c.lines.size();
  if (c.start.to_move == kEmpty) {
    r.reason = "the game is already over after the moves";
    return r;
  }
  walk(c, r);
  return r;
}

}  // namespace tanbo::proof

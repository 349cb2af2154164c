// Writing a game as an SGF record (write_sgf; sgf.hpp).
#include <algorithm>
#include <sstream>

#include "sgf_points.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/io/sgf.hpp"

namespace tanbo {

namespace {

using namespace sgf_detail;

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == ']' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

void check_2d(const Topology& t) {
  if (t.kind != BoardKind::kLattice || t.dims.size() != 2) {
    throw Error("SGF records 2D boards only; this game is on " + t.spec +
                " (the game file format, docs/game-format.md, records any board)");
  }
  if (t.wrap) {
    throw Error("SGF records flat boards only; " + t.spec +
                " is a torus (the game file format, docs/game-format.md, records any board)");
  }
  if (t.dims[0] > kMaxSgfSide || t.dims[1] > kMaxSgfSide) {
    throw Error("SGF coordinates go up to 52x52; this board is " + t.spec);
  }
}

// "[aa][bc]..." for a property value list.
std::string point_values(const Topology& t, const std::vector<Vertex>& vs) {
  std::string s;
  for (Vertex v : vs) s += "[" + point(t, v) + "]";
  return s;
}

// "B+", "W+R" (a resignation), or "" while the game goes on.
std::string result_value(const Position& end) {
  if (!end.is_over()) return "";
  const bool resigned =
      !end.history().empty() && end.history().back().kind == MoveRecord::Kind::kResign;
  return std::string(end.winner() == kBlack ? "B" : "W") + "+" + (resigned ? "R" : "");
}

// The root node: the record's kind, the board, what it is, who played, the result and the
// starting stones (AB/AW). It holds no move.
void write_root(std::ostream& os, const Game& game) {
  const Position& end = game.position;
  const Topology& t = end.topology();
  os << "(;GM[1]FF[4]CA[UTF-8]AP[tanbo]";
  if (t.dims[0] == t.dims[1]) {
    os << "SZ[" << t.dims[0] << "]";
  } else {
    os << "SZ[" << t.dims[0] << ":" << t.dims[1] << "]";
  }
  os << "\nGN[Tanbo]C[Tanbo on " << escape(t.spec) << ", setup " << escape(end.setup().name)
     << ". Rules: a stone must touch exactly one stone of its colour, bounded roots are removed "
        "(AE in the node after the move).]\n";
  if (!game.names.empty() && !game.names[0].empty()) os << "PB[" << escape(game.names[0]) << "]";
  if (game.names.size() > 1 && !game.names[1].empty()) os << "PW[" << escape(game.names[1]) << "]";
  if (const std::string dt = sgf_date(game.date); !dt.empty()) os << "DT[" << escape(dt) << "]";
  if (!game.event.empty()) os << "EV[" << escape(game.event) << "]";
  if (const std::string re = result_value(end); !re.empty()) os << "RE[" << re << "]";
  for (Player p : {kBlack, kWhite}) {
    std::vector<Vertex> seeds;
    for (const auto& [v, owner] : end.setup().stones) {
      if (owner == p) seeds.push_back(v);
    }
    if (!seeds.empty()) os << "\n" << (p == kBlack ? "AB" : "AW") << point_values(t, seeds);
  }
}

// The opposing roots a Go viewer captures when `p` plays `v`: those left without liberties.
std::vector<RootId> go_captures(const Position& pos, Player p, Vertex v) {
  const Graph& g = pos.topology().graph;
  std::vector<RootId> captured;
  for (Vertex u : g.neighbours(v)) {
    if (pos.at(u) == kEmpty || pos.at(u) == p) continue;
    const RootId r = pos.root_of(u);
    if (std::find(captured.begin(), captured.end(), r) != captured.end()) continue;
    bool liberty = false;
    for (Vertex s : pos.root_stones(r)) {
      for (Vertex n : g.neighbours(s)) liberty |= n != v && pos.at(n) == kEmpty;
    }
    if (!liberty) captured.push_back(r);
  }
  return captured;
}

// Plays `rec` on `pos` and writes it: the move in a node of its own, then, when the move took
// stones off or a Go viewer would take off stones the rules keep, a setup node that puts those
// stones back (AB/AW) and removes every stone the rules removed (AE; the moved stone too when
// its own root was bounded). Setup and move properties never share a node (SGF FF[4]).
void write_move(std::ostream& os, Position& pos, const MoveRecord& rec) {
  const Topology& t = pos.topology();
  const std::vector<RootId> go_captured = go_captures(pos, rec.player, rec.vertex);
  std::vector<Vertex> before = stones_on_board(pos);
  before.push_back(rec.vertex);
  pos.play(rec.vertex);
  os << "\n;" << (rec.player == kBlack ? 'B' : 'W') << "[" << point(t, rec.vertex) << "]";
  std::string setup;
  for (Player p : {kBlack, kWhite}) {
    std::vector<Vertex> kept;  // captured by a Go viewer, kept by the rules
    for (RootId r : go_captured) {
      if (!pos.root_alive(r) || pos.root_owner(r) != p) continue;
      for (Vertex s : pos.root_stones(r)) kept.push_back(s);
    }
    std::sort(kept.begin(), kept.end());
    if (!kept.empty()) setup += (p == kBlack ? "AB" : "AW") + point_values(t, kept);
  }
  std::vector<Vertex> removed;
  for (Vertex v : before) {
    if (pos.at(v) == kEmpty) removed.push_back(v);
  }
  if (!removed.empty()) setup += "AE" + point_values(t, removed);
  if (!setup.empty()) os << ";" << setup;
}

}  // namespace

std::string write_sgf(const Game& game) {
  const Position& end = game.position;
  check_2d(end.topology());
  if (end.num_players() != 2) {
    throw Error("SGF records two players; this game has " + std::to_string(end.num_players()));
  }
  std::ostringstream os;
  write_root(os, game);
  Position pos(end.topology_ptr(), end.setup());  // replayed to find each move's removals
  for (const auto& rec : end.history()) {
    if (rec.kind == MoveRecord::Kind::kResign) break;  // recorded in RE
    write_move(os, pos, rec);
  }
  os << ")\n";
  return os.str();
}

}  // namespace tanbo

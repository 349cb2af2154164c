#include "tanbo/sgf.hpp"

#include <algorithm>
#include <optional>
#include <sstream>

#include "tanbo/error.hpp"
#include "tanbo/text.hpp"

namespace tanbo {

namespace {

constexpr int kMaxSgfSide = 52;  // a-z then A-Z

char sgf_char(std::uint32_t i) {
  return i < 26 ? static_cast<char>('a' + i) : static_cast<char>('A' + (i - 26));
}

int sgf_index(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return c - 'A' + 26;
  return -1;
}

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
                " (keep the game file, or use tanbo show)");
  }
  if (t.dims[0] > kMaxSgfSide || t.dims[1] > kMaxSgfSide) {
    throw Error("SGF coordinates go up to 52x52; this board is " + t.spec);
  }
}

std::string point(const Topology& t, Vertex v) {
  const auto c = t.coords(v);
  return {sgf_char(c[0]), sgf_char(t.dims[1] - 1 - c[1])};
}

// ---- a small SGF reader: the main line of the first game tree
using Props = std::vector<std::pair<std::string, std::vector<std::string>>>;

class Parser {
 public:
  Parser(std::string_view text, std::string origin) : s_(text), origin_(std::move(origin)) {}

  std::vector<Props> main_line() {
    skip_ws();
    if (i_ >= s_.size() || s_[i_] != '(') throw err("SGF text must start with '('");
    std::vector<Props> nodes;
    tree(nodes, true);
    return nodes;
  }

 private:
  Error err(const std::string& why) const {
    // Line number of the current offset, for the message.
    const auto line =
        1 + std::count(s_.begin(), s_.begin() + static_cast<long>(std::min(i_, s_.size())), '\n');
    return Error(origin_ + ":" + std::to_string(line) + ": " + why);
  }
  void skip_ws() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  void tree(std::vector<Props>& nodes, bool keep) {
    // Variations nest by recursion: bound the depth so that no text can overflow the stack.
    if (++depth_ > kMaxDepth) throw err("variations nested more than 1000 deep");
    ++i_;  // '('
    skip_ws();
    bool any = false;
    while (i_ < s_.size() && s_[i_] == ';') {
      ++i_;
      Props p = node();
      if (keep) nodes.push_back(std::move(p));
      any = true;
      skip_ws();
    }
    if (!any) throw err("a game tree needs at least one node ';'");
    bool first = true;
    while (i_ < s_.size() && s_[i_] == '(') {
      tree(nodes, keep && first);  // only the first variation is the main line
      first = false;
      skip_ws();
    }
    if (i_ >= s_.size()) throw err("unexpected end of the SGF text (a ')' is missing)");
    if (s_[i_] != ')') throw err(std::string("unexpected '") + s_[i_] + "'");
    ++i_;
    --depth_;
  }
  Props node() {
    Props props;
    skip_ws();
    while (i_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[i_]))) {
      std::string id;
      while (i_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[i_]))) {
        if (std::isupper(static_cast<unsigned char>(s_[i_]))) id += s_[i_];
        ++i_;
      }
      skip_ws();
      std::vector<std::string> values;
      while (i_ < s_.size() && s_[i_] == '[') {
        ++i_;
        std::string v;
        while (i_ < s_.size() && s_[i_] != ']') {
          if (s_[i_] == '\\' && i_ + 1 < s_.size()) ++i_;
          v += s_[i_++];
        }
        if (i_ >= s_.size()) throw err("unterminated value of " + id + " (a ']' is missing)");
        ++i_;
        values.push_back(std::move(v));
        skip_ws();
      }
      if (values.empty()) throw err("property " + id + " has no value");
      props.emplace_back(std::move(id), std::move(values));
    }
    return props;
  }

  static constexpr int kMaxDepth = 1000;
  std::string_view s_;
  std::string origin_;
  std::size_t i_ = 0;
  int depth_ = 0;
};

const std::vector<std::string>* find(const Props& p, const std::string& id) {
  for (const auto& [k, v] : p) {
    if (k == id) return &v;
  }
  return nullptr;
}

}  // namespace

std::string write_sgf(const Game& game) {
  const Position& end = game.position;
  const Topology& t = end.topology();
  check_2d(t);
  if (end.num_players() != 2) {
    throw Error("SGF records two players; this game has " + std::to_string(end.num_players()));
  }
  std::ostringstream os;
  os << "(;GM[1]FF[4]CA[UTF-8]AP[tanbo]";
  if (t.dims[0] == t.dims[1]) {
    os << "SZ[" << t.dims[0] << "]";
  } else {
    os << "SZ[" << t.dims[0] << ":" << t.dims[1] << "]";
  }
  os << "\nGN[Tanbo]C[Tanbo on " << escape(t.spec) << ", setup " << escape(end.setup().name)
     << ". Rules: a stone must touch exactly one stone of its colour, bounded roots are removed "
        "(AE).]\n";
  if (!game.names.empty() && !game.names[0].empty()) os << "PB[" << escape(game.names[0]) << "]";
  if (game.names.size() > 1 && !game.names[1].empty()) os << "PW[" << escape(game.names[1]) << "]";
  if (game.date.size() >= 10) os << "DT[" << escape(game.date.substr(0, 10)) << "]";
  if (!game.event.empty()) os << "EV[" << escape(game.event) << "]";
  if (end.is_over()) {
    const char winner = end.winner() == kBlack ? 'B' : 'W';
    const bool resigned =
        !end.history().empty() && end.history().back().kind == MoveRecord::Kind::kResign;
    os << "RE[" << winner << "+" << (resigned ? "R" : "") << "]";
  }
  for (Player p : {kBlack, kWhite}) {
    std::string list;
    for (const auto& [v, owner] : end.setup().stones) {
      if (owner == p) list += "[" + point(t, v) + "]";
    }
    if (!list.empty()) os << "\n" << (p == kBlack ? "AB" : "AW") << list;
  }
  // Replay to find the stones each move removed.
  Position pos(end.topology_ptr(), end.setup());
  for (const auto& rec : end.history()) {
    if (rec.kind == MoveRecord::Kind::kResign) break;  // recorded in RE
    std::vector<Vertex> before;
    for (Vertex v = 0; v < pos.num_vertices(); ++v) {
      if (pos.at(v) != kEmpty) before.push_back(v);
    }
    // A Go viewer captures every opposing group left without liberties by the stone. Tanbo
    // removes such a root too, except when the expanded root is bounded (then only that root
    // goes): those roots are put back with AB/AW on the move node.
    std::vector<RootId> go_captured;
    for (Vertex u : t.graph.neighbours(rec.vertex)) {
      if (pos.at(u) == kEmpty || pos.at(u) == rec.player) continue;
      const RootId r = pos.root_of(u);
      if (std::find(go_captured.begin(), go_captured.end(), r) != go_captured.end()) continue;
      bool liberty = false;
      for (Vertex s : pos.root_stones(r)) {
        for (Vertex n : t.graph.neighbours(s)) liberty |= n != rec.vertex && pos.at(n) == kEmpty;
      }
      if (!liberty) go_captured.push_back(r);
    }
    pos.play(rec.vertex);
    os << "\n;" << (rec.player == kBlack ? 'B' : 'W') << "[" << point(t, rec.vertex) << "]";
    for (RootId r : go_captured) {
      if (!pos.root_alive(r)) continue;
      os << (pos.root_owner(r) == kBlack ? "AB" : "AW");
      for (Vertex s : pos.root_stones(r)) os << "[" << point(t, s) << "]";
    }
    std::string ae;
    before.push_back(rec.vertex);
    for (Vertex v : before) {
      if (pos.at(v) == kEmpty) ae += "[" + point(t, v) + "]";
    }
    if (!ae.empty()) os << "AE" << ae;
  }
  os << ")\n";
  return os.str();
}

Game read_sgf(std::string_view text, std::string_view origin) {
  const std::string where(origin);
  const std::vector<Props> nodes = Parser(text, where).main_line();
  auto fail = [&](std::size_t node, const std::string& why) {
    return Error(where + ": node " + std::to_string(node + 1) + ": " + why);
  };
  const Props& root = nodes.front();
  if (auto gm = find(root, "GM"); gm && gm->front() != "1") {
    throw fail(0, "GM[" + gm->front() +
                      "]: this program reads the Go-board records it writes "
                      "(GM[1])");
  }
  std::uint32_t w = 19, h = 19;
  if (auto sz = find(root, "SZ")) {
    const std::string& v = sz->front();
    try {
      std::size_t used = 0;
      const auto colon = v.find(':');
      w = static_cast<std::uint32_t>(std::stoul(v.substr(0, colon), &used));
      h = colon == std::string::npos ? w
                                     : static_cast<std::uint32_t>(std::stoul(v.substr(colon + 1)));
    } catch (const std::exception&) {
      throw fail(0, "SZ[" + v + "] is not a board size");
    }
    if (w < 1 || h < 1 || w > kMaxSgfSide || h > kMaxSgfSide) {
      throw fail(0, "SZ[" + v + "] is outside 1..52");
    }
  }
  auto topo = parse_topology("grid " + std::to_string(w) + "x" + std::to_string(h));
  auto vertex = [&](std::size_t node, const std::string& s) -> Vertex {
    if (s.size() != 2 || sgf_index(s[0]) < 0 || sgf_index(s[1]) < 0 ||
        static_cast<std::uint32_t>(sgf_index(s[0])) >= w ||
        static_cast<std::uint32_t>(sgf_index(s[1])) >= h) {
      if (s.empty() || s == "tt") throw fail(node, "a pass: Tanbo has no passing");
      throw fail(node, "[" + s + "] is not a point of a " + std::to_string(w) + "x" +
                           std::to_string(h) + " board");
    }
    return topo->vertex_at({static_cast<std::uint32_t>(sgf_index(s[0])),
                            h - 1 - static_cast<std::uint32_t>(sgf_index(s[1]))});
  };
  auto points = [&](std::size_t node, const std::vector<std::string>& values) {
    std::vector<Vertex> out;
    for (const auto& v : values) {
      if (v.size() == 5 && v[2] == ':') {  // compressed rectangle "aa:cc"
        const Vertex a = vertex(node, v.substr(0, 2)), b = vertex(node, v.substr(3));
        const auto ca = topo->coords(a), cb = topo->coords(b);
        for (auto x = std::min(ca[0], cb[0]); x <= std::max(ca[0], cb[0]); ++x) {
          for (auto y = std::min(ca[1], cb[1]); y <= std::max(ca[1], cb[1]); ++y) {
            out.push_back(topo->vertex_at({x, y}));
          }
        }
      } else {
        out.push_back(vertex(node, v));
      }
    }
    return out;
  };
  Setup setup;
  setup.name = "custom";
  setup.players = 2;
  if (auto ab = find(root, "AB")) {
    for (Vertex v : points(0, *ab)) setup.stones.emplace_back(v, kBlack);
  }
  if (auto aw = find(root, "AW")) {
    for (Vertex v : points(0, *aw)) setup.stones.emplace_back(v, kWhite);
  }
  if (setup.stones.empty()) {
    setup = make_setup(*topo);  // no stones given: the board's default start
  } else {
    auto mine = setup.stones;
    std::sort(mine.begin(), mine.end());
    for (const auto& name : setups_for(*topo, 2)) {
      Setup named = make_setup(*topo, name, 2);
      auto theirs = named.stones;
      std::sort(theirs.begin(), theirs.end());
      if (theirs == mine) {
        setup = named;
        break;
      }
    }
  }
  std::optional<Position> start;
  try {
    start.emplace(topo, setup);
  } catch (const Error& e) {
    throw fail(0, std::string("the starting stones are refused: ") + e.what());
  }
  Game game(std::move(*start));
  Position& pos = game.position;
  game.names.assign(2, "");
  if (auto pb = find(root, "PB")) game.names[0] = pb->front();
  if (auto pw = find(root, "PW")) game.names[1] = pw->front();
  if (auto dt = find(root, "DT")) game.date = dt->front();
  if (auto ev = find(root, "EV")) game.event = ev->front();

  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Props& n = nodes[i];
    const auto* b = find(n, "B");
    const auto* wv = find(n, "W");
    if (i > 0 && !b && !wv && (find(n, "AB") || find(n, "AW"))) {
      throw fail(i, "stones added in the middle of the game (AB/AW) are not Tanbo moves");
    }
    if (!b && !wv) {
      if (i > 0 && find(n, "AE")) throw fail(i, "AE without a move");
      continue;
    }
    if (b && wv) throw fail(i, "a node with both B and W");
    const Player p = b ? kBlack : kWhite;
    const Vertex v = vertex(i, (b ? b : wv)->front());
    const std::string why = pos.explain(p, v);
    if (!why.empty()) {
      throw fail(i, std::string(b ? "B" : "W") + "[" + (b ? b : wv)->front() + "] (" +
                        topo->name(v) + "): " + why);
    }
    std::vector<Vertex> before;
    for (Vertex u = 0; u < pos.num_vertices(); ++u) {
      if (pos.at(u) != kEmpty) before.push_back(u);
    }
    before.push_back(v);
    pos.play(v);
    // AB/AW on a move node only put back stones a Go viewer would have captured: each must
    // stand on the board after the move.
    for (const char* id : {"AB", "AW"}) {
      if (const auto* put = find(n, id)) {
        const Player owner = id[1] == 'B' ? kBlack : kWhite;
        for (Vertex u : points(i, *put)) {
          if (pos.at(u) != owner) {
            throw fail(i, std::string(id) + " puts a stone on " + topo->name(u) +
                              " where the rules leave " +
                              (pos.at(u) == kEmpty ? std::string("none")
                                                   : "a " + player_title(pos.at(u)) + " stone"));
          }
        }
      }
    }
    if (const auto* ae = find(n, "AE")) {
      std::vector<Vertex> removed;
      for (Vertex u : before) {
        if (pos.at(u) == kEmpty) removed.push_back(u);
      }
      auto listed = points(i, *ae);
      std::sort(listed.begin(), listed.end());
      std::sort(removed.begin(), removed.end());
      if (listed != removed) {
        throw fail(i, "AE does not list the stones the rules remove after " + topo->name(v));
      }
    }
  }
  if (auto re = find(root, "RE")) {
    const std::string& r = re->front();
    if (r.size() >= 2 && (r[0] == 'B' || r[0] == 'W') && r[1] == '+') {
      const Player winner = r[0] == 'B' ? kBlack : kWhite;
      const bool resign = r.size() > 2 && (r[2] == 'R' || r[2] == 'r');
      if (!pos.is_over() && resign) {
        pos.resign(winner == kBlack ? kWhite : kBlack);
      } else if (pos.is_over() && pos.winner() != winner) {
        throw fail(
            0, "RE[" + r + "] contradicts the moves: " + player_title(pos.winner()) + " has won");
      } else if (!pos.is_over()) {
        throw fail(0, "RE[" + r + "] but after these moves the game is not over");
      }
    }
  }
  return game;
}

bool is_sgf_text(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '(';
}

bool is_sgf_file_name(std::string_view path) {
  return path.size() >= 4 && to_lower(path.substr(path.size() - 4)) == ".sgf";
}

}  // namespace tanbo

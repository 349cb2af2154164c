#include "tanbo/io/sgf.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <sstream>

#include "sgf_points.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/platform/input_file.hpp"
#include "tanbo/platform/memory.hpp"

namespace tanbo {

namespace {

using namespace sgf_detail;

// ---- a small SGF reader: the main line of the first game tree

// The main line as the parser keeps it: its nodes' properties and values in flat arrays, views
// of one string that holds their text. A vector of properties a node, each with a vector of
// values, took 25 to 35 times the text of a record of small nodes (2 GB for 60 MB of ";C[]"
// nodes); these arrays take 4 bytes a node, 16 a property and 8 a value beside the text kept.
class MainLine {
 public:
  // The values of one property (at least one), in the order written.
  class Values {
   public:
    Values(const MainLine& line, std::uint32_t first, std::uint32_t count)
        : line_(&line), first_(first), count_(count) {}
    std::size_t size() const { return count_; }
    std::string_view operator[](std::size_t i) const {
      return line_->text(line_->values_[first_ + i]);
    }
    std::string_view front() const { return (*this)[0]; }

   private:
    const MainLine* line_;
    std::uint32_t first_, count_;
  };

  std::size_t size() const { return nodes_.size(); }
  // Property `id` of node `node`, if the node has it.
  std::optional<Values> property(std::size_t node, std::string_view id) const {
    for (std::uint32_t i = first_property(node); i < end_property(node); ++i) {
      if (text(props_[i].id) == id) return Values(*this, props_[i].first_value, props_[i].values);
    }
    return std::nullopt;
  }
  // Calls f(id, values) for each property of `node`, in the order written.
  template <class F>
  void each_property(std::size_t node, F&& f) const {
    for (std::uint32_t i = first_property(node); i < end_property(node); ++i) {
      f(text(props_[i].id), Values(*this, props_[i].first_value, props_[i].values));
    }
  }

  // Building, in the order of the text: a node, then its properties, each after its values.
  void add_node() { nodes_.push_back(static_cast<std::uint32_t>(props_.size())); }
  void add_value(std::string_view v) { values_.push_back(keep(v)); }
  void add_property(std::string_view id, std::size_t values) {
    const auto count = static_cast<std::uint32_t>(values);
    props_.push_back({keep(id), static_cast<std::uint32_t>(values_.size()) - count, count});
  }
  // The bytes the arrays and the text take once their vectors have doubled at most once more.
  std::uint64_t bytes() const {
    return 2 * (nodes_.size() * sizeof(std::uint32_t) + props_.size() * sizeof(Prop) +
                values_.size() * sizeof(Span) + text_.size());
  }

 private:
  struct Span {
    std::uint32_t begin, size;  // in text_ (a record is at most 64 MB)
  };
  struct Prop {
    Span id;
    std::uint32_t first_value, values;
  };

  Span keep(std::string_view t) {
    const Span s{static_cast<std::uint32_t>(text_.size()), static_cast<std::uint32_t>(t.size())};
    text_ += t;
    return s;
  }
  std::string_view text(Span s) const { return std::string_view(text_).substr(s.begin, s.size); }
  std::uint32_t first_property(std::size_t node) const { return nodes_[node]; }
  std::uint32_t end_property(std::size_t node) const {
    return node + 1 < nodes_.size() ? nodes_[node + 1] : static_cast<std::uint32_t>(props_.size());
  }

  std::vector<std::uint32_t> nodes_;  // each node's first property in props_
  std::vector<Prop> props_;
  std::vector<Span> values_;
  std::string text_;
};

// A property name or value as a message repeats it: as it is when short and printable, else
// quoted, escaped and cut (quote_input).
std::string shown(std::string_view text) {
  return shown_name(text, 40);
}

// A board side of SZ: decimal digits only (no sign, blank, fraction or exponent).
std::optional<std::uint32_t> side(std::string_view text) {
  if (text.empty() || text.size() > 9) return std::nullopt;
  std::uint32_t n = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<std::uint32_t>(c - '0');
  }
  return n;
}

// SGF SimpleText (names, date, event) as one line: line breaks and other control characters
// become spaces (SGF converts them so), blanks at either end are dropped. A name read from a
// record can then neither break a game file's line nor the framing of a GTP answer.
std::string simple_text(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size();) {
    const std::size_t control = control_character_at(value, i);
    out += control ? ' ' : value[i];
    i += control ? control : 1;
  }
  return trim(out, " ");
}

class Parser {
 public:
  // `kept`: the properties of the main line to keep (null: all). The others are read, and
  // refused as the kept ones are when they are not SGF, but not kept.
  Parser(std::string_view text, std::string origin, const std::set<std::string_view>* kept)
      : s_(text), origin_(std::move(origin)), kept_ids_(kept) {}

  MainLine main_line() {
    skip_ws();
    if (i_ >= s_.size() || s_[i_] != '(') throw err("SGF text must start with '('");
    MainLine line;
    tree(line, true);
    return line;
  }
  // Lines of play that branch off the main line (each leaf of the tree but the main line's).
  std::size_t variations_left_out() const { return left_out_; }

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
  void tree(MainLine& line, bool keep) {
    // Variations nest by recursion: bound the depth so that no text can overflow the stack.
    if (++depth_ > kMaxDepth) throw err("variations nested more than 1000 deep");
    ++i_;  // '('
    skip_ws();
    bool any = false;
    while (i_ < s_.size() && s_[i_] == ';') {
      ++i_;
      node(line, keep);
      if (keep) count_kept(line);
      any = true;
      skip_ws();
    }
    if (!any) throw err("a game tree needs at least one node ';'");
    bool first = true;
    while (i_ < s_.size() && s_[i_] == '(') {
      tree(line, keep && first);  // only the first variation is the main line
      first = false;
      skip_ws();
    }
    if (first && !keep) ++left_out_;  // the end of a line off the main line
    if (i_ >= s_.size()) throw err("unexpected end of the SGF text (a ')' is missing)");
    if (s_[i_] != ')') throw err("unexpected " + quote_input(s_.substr(i_, 1)));
    ++i_;
    --depth_;
  }
  // A node, added to `line` when `keep` says so.
  void node(MainLine& line, bool keep) {
    if (keep) line.add_node();
    std::set<std::string> seen;  // (a node may hold many properties: no quadratic search)
    skip_ws();
    while (i_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[i_]))) {
      // Its capitals: the lower-case letters of old (FF[3]) names are not part of them ("SiZe"
      // is SZ); a name of lower-case letters only is none, not a property to pass over.
      std::string id;
      const std::size_t start = i_;
      while (i_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[i_]))) {
        if (std::isupper(static_cast<unsigned char>(s_[i_]))) id += s_[i_];
        ++i_;
      }
      if (id.empty()) {
        throw err("property " + quote_input(s_.substr(start, i_ - start)) +
                  " has no capital letter: SGF names properties in capitals (SZ, B, W)");
      }
      skip_ws();
      const bool kept = keep && (!kept_ids_ || kept_ids_->count(id));
      std::size_t values = 0;
      while (i_ < s_.size() && s_[i_] == '[') {
        ++i_;
        std::string v;
        while (i_ < s_.size() && s_[i_] != ']') {
          if (s_[i_] == '\\' && i_ + 1 < s_.size()) ++i_;
          v += s_[i_++];
        }
        if (i_ >= s_.size()) {
          throw err("unterminated value of " + shown(id) + " (a ']' is missing)");
        }
        ++i_;
        if (kept) line.add_value(v);
        ++values;
        skip_ws();
      }
      if (values == 0) throw err("property " + shown(id) + " has no value");
      if (!id.empty() && !seen.insert(id).second) {
        throw err("property " + shown(id) + " is given twice in one node (SGF allows one)");
      }
      if (kept) line.add_property(id, values);
    }
  }

  // Counts what the main line kept takes against the memory limit, every 16 MB: 64 MB of
  // empty nodes (";;;") take 512 MB, which a small machine may not have.
  void count_kept(const MainLine& line) {
    const std::uint64_t kept = line.bytes();
    if (kept < next_check_) return;
    next_check_ = kept + (16u << 20);
    const MemoryLimit limit = memory_limit();
    if (kept > limit.board_room()) {
      throw err("the record's main line " + memory_refusal(kept, limit));
    }
  }

  static constexpr int kMaxDepth = 1000;
  std::string_view s_;
  std::string origin_;
  std::size_t i_ = 0;
  int depth_ = 0;
  const std::set<std::string_view>* kept_ids_;
  std::size_t left_out_ = 0;
  std::uint64_t next_check_ = 16u << 20;  // count_kept's next check
};

// The properties the reader reads: a record's other properties (comments, times, marks) are
// read over, and not kept.
const std::set<std::string_view> kReadProperties = {"GM", "SZ", "CA", "PL", "AB", "AW", "AE",
                                                    "PB", "PW", "DT", "EV", "RE", "B",  "W"};

// The game of a record's main line, read node by node through the rules.
class Reader {
 public:
  Reader(MainLine line, std::string where) : line_(std::move(line)), where_(std::move(where)) {}

  Game read() {
    read_board();
    check_start();
    std::optional<Position> start;
    try {
      start.emplace(topo_, read_setup());
    } catch (const Error& e) {
      if (std::string(e.what()).rfind(where_ + ":", 0) == 0) throw;  // says where already
      throw fail(0, std::string("the starting stones are refused: ") + e.what());
    }
    Game game(std::move(*start));
    read_header(game);
    play_moves(game.position);
    read_result(game.position);
    return game;
  }

 private:
  // What the last move took off the board, for the node after it.
  struct Removal {
    Vertex move;
    std::vector<Vertex> stones;
  };

  Error fail(std::size_t node, const std::string& why) const {
    return Error(where_ + ": node " + std::to_string(node + 1) + ": " + why);
  }

  // SZ[n] or SZ[w:h] (default 19).
  void read_board() {
    if (auto gm = line_.property(0, "GM"); gm && gm->front() != "1") {
      throw fail(0, "GM[" + shown(gm->front()) +
                        "]: this program reads the Go-board records it writes "
                        "(GM[1])");
    }
    if (auto sz = line_.property(0, "SZ")) {
      const std::string_view v = sz->front();
      const auto colon = v.find(':');
      const auto w = side(v.substr(0, colon));
      const auto h = colon == std::string::npos ? w : side(v.substr(colon + 1));
      if (sz->size() > 1)
        throw fail(0, "SZ has " + std::to_string(sz->size()) + " values, not one");
      if (!w || !h) {
        throw fail(0, "SZ[" + shown(v) + "] is not a board size (SZ[9] or SZ[7:5])");
      }
      w_ = *w;
      h_ = *h;
      if (w_ < 1 || h_ < 1 || w_ > kMaxSgfSide || h_ > kMaxSgfSide) {
        throw fail(0, "SZ[" + shown(v) + "] is outside 1..52");
      }
    }
    topo_ = parse_topology("grid " + std::to_string(w_) + "x" + std::to_string(h_));
  }

  Vertex vertex(std::size_t node, std::string_view s) const {
    if (s.size() != 2 || sgf_index(s[0]) < 0 || sgf_index(s[1]) < 0 ||
        static_cast<std::uint32_t>(sgf_index(s[0])) >= w_ ||
        static_cast<std::uint32_t>(sgf_index(s[1])) >= h_) {
      if (s.empty() || s == "tt") throw fail(node, "a pass: Tanbo has no passing");
      throw fail(node, "[" + shown(s) + "] is not a point of a " + std::to_string(w_) + "x" +
                           std::to_string(h_) + " board");
    }
    return topo_->vertex_at({static_cast<std::uint32_t>(sgf_index(s[0])),
                             h_ - 1 - static_cast<std::uint32_t>(sgf_index(s[1]))});
  }

  // The points of property `id`: single points and compressed rectangles ("aa:cc"). SGF lists
  // each point once; a point listed again is refused, which also bounds the work by the board's
  // size (a 64 MB record of "[aa:ZZ]" rectangles on 52x52 named billions of points).
  std::vector<Vertex> points(std::size_t node, const char* id,
                             const MainLine::Values& values) const {
    std::vector<Vertex> out;
    std::vector<bool> listed(topo_->num_vertices());
    const auto add = [&](Vertex v) {
      if (listed[v]) {
        throw fail(node, std::string(id) + " lists " + topo_->name(v) + " (" + point(*topo_, v) +
                             ") more than once");
      }
      listed[v] = true;
      out.push_back(v);
    };
    for (std::size_t i = 0; i < values.size(); ++i) {
      const std::string_view v = values[i];
      if (v.size() == 5 && v[2] == ':') {  // compressed rectangle "aa:cc"
        const Vertex a = vertex(node, v.substr(0, 2)), b = vertex(node, v.substr(3));
        const auto ca = topo_->coords(a), cb = topo_->coords(b);
        for (auto x = std::min(ca[0], cb[0]); x <= std::max(ca[0], cb[0]); ++x) {
          for (auto y = std::min(ca[1], cb[1]); y <= std::max(ca[1], cb[1]); ++y) {
            add(topo_->vertex_at({x, y}));
          }
        }
      } else {
        add(vertex(node, v));
      }
    }
    return out;
  }

  // What the root says of the start that a game cannot hold is refused rather than passed
  // over: the position would differ from the record's.
  void check_start() const {
    if (line_.property(0, "AE")) {
      throw fail(0,
                 "AE in the root (stones taken off the start) is not read: give the start "
                 "with AB and AW only");
    }
    if (const auto pl = line_.property(0, "PL"); pl && pl->front() != "B") {
      throw fail(0, "PL[" + shown(pl->front()) + "]: Black moves first in Tanbo");
    }
  }

  // The root's AB/AW: a named setup when the stones are one, else "custom"; the board's
  // default start when there are none.
  Setup read_setup() const {
    Setup setup;
    setup.name = "custom";
    setup.players = 2;
    if (auto ab = line_.property(0, "AB")) {
      for (Vertex v : points(0, "AB", *ab)) setup.stones.emplace_back(v, kBlack);
    }
    if (auto aw = line_.property(0, "AW")) {
      for (Vertex v : points(0, "AW", *aw)) setup.stones.emplace_back(v, kWhite);
    }
    if (setup.stones.empty()) return make_setup(*topo_);
    auto mine = setup.stones;
    std::sort(mine.begin(), mine.end());
    for (const auto& name : setups_for(*topo_, 2)) {
      Setup named = make_setup(*topo_, name, 2);
      auto theirs = named.stones;
      std::sort(theirs.begin(), theirs.end());
      if (theirs == mine) return named;
    }
    return setup;
  }

  void read_header(Game& game) const {
    game.names.assign(2, "");
    if (auto pb = line_.property(0, "PB")) game.names[0] = text_of("PB", pb->front());
    if (auto pw = line_.property(0, "PW")) game.names[1] = text_of("PW", pw->front());
    if (auto dt = line_.property(0, "DT")) game.date = text_of("DT", dt->front());
    if (auto ev = line_.property(0, "EV")) game.event = text_of("EV", ev->front());
  }

  // A SimpleText value as UTF-8, the text of game files: from ISO-8859-1 when the root's CA
  // says so (each byte its code point), else as it is, refused when it is not UTF-8.
  std::string text_of(const char* id, std::string_view value) const {
    std::string text = utf8_text_of(id, value);
    // Shown on terminals as it is: no character that would show it in another order than it is
    // written (the command line and game files refuse them in names too).
    if (has_direction_controls(text)) {
      throw fail(0, std::string(id) +
                        " holds a character that changes the direction of text (U+202E and "
                        "the like), which would show it other than it is written");
    }
    return text;
  }
  std::string utf8_text_of(const char* id, std::string_view value) const {
    std::string charset;
    if (const auto ca = line_.property(0, "CA")) charset = to_lower(trim(ca->front()));
    if (charset == "iso-8859-1" || charset == "latin1" || charset == "latin-1") {
      std::string utf8;
      for (const char c : value) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x80) {
          utf8 += c;
        } else {
          utf8 += static_cast<char>(0xC0 | (u >> 6));
          utf8 += static_cast<char>(0x80 | (u & 0x3F));
        }
      }
      return simple_text(utf8);
    }
    if (!is_utf8(value)) {
      throw fail(0, std::string(id) +
                        " is not UTF-8 text (a record in ISO-8859-1 says so with "
                        "CA[ISO-8859-1])");
    }
    return simple_text(value);
  }

  // Every B/W node through the rules. The stones a move removed may be given on the move's
  // own node (records of earlier versions) or on a setup node right after it; setup anywhere
  // else after the root is refused.
  void play_moves(Position& pos) const {
    std::optional<Removal> last;
    for (std::size_t i = 0; i < line_.size(); ++i) {
      if (line_.property(i, "B") || line_.property(i, "W")) {
        last = play_move(pos, i);
        check_removal(pos, i, *last);
        continue;
      }
      if (i > 0 && has_setup(i)) {
        if (!last) {
          if (line_.property(i, "AE") && !line_.property(i, "AB") && !line_.property(i, "AW"))
            throw fail(i, "AE without a move");
          throw fail(i, "stones added in the middle of the game (AB/AW) are not Tanbo moves");
        }
        check_removal(pos, i, *last);
      }
      last.reset();
    }
  }

  Removal play_move(Position& pos, std::size_t i) const {
    const auto b = line_.property(i, "B");
    const auto wv = line_.property(i, "W");
    if (b && wv) throw fail(i, "a node with both B and W");
    const Player p = b ? kBlack : kWhite;
    const std::string_view value = (b ? *b : *wv).front();
    const Vertex v = vertex(i, value);
    const std::string why = pos.explain(p, v);
    if (!why.empty()) {
      throw fail(i, std::string(b ? "B" : "W") + "[" + shown(value) + "] (" + topo_->name(v) +
                        "): " + why);
    }
    std::vector<Vertex> before = stones_on_board(pos);
    before.push_back(v);
    pos.play(v);
    Removal r{v, {}};
    for (Vertex u : before) {
      if (pos.at(u) == kEmpty) r.stones.push_back(u);
    }
    std::sort(r.stones.begin(), r.stones.end());
    return r;
  }

  // AB/AW after a move only put back stones a Go viewer would have captured: each must stand on
  // the board. AE must list exactly the stones the move removed.
  void check_removal(const Position& pos, std::size_t i, const Removal& last) const {
    for (const char* id : {"AB", "AW"}) {
      const auto put = line_.property(i, id);
      if (!put) continue;
      const Player owner = id[1] == 'B' ? kBlack : kWhite;
      for (Vertex u : points(i, id, *put)) {
        if (pos.at(u) == owner) continue;
        throw fail(i, std::string(id) + " puts a stone on " + topo_->name(u) +
                          " where the rules leave " +
                          (pos.at(u) == kEmpty ? std::string("none")
                                               : "a " + player_title(pos.at(u)) + " stone"));
      }
    }
    if (const auto ae = line_.property(i, "AE")) {
      auto listed = points(i, "AE", *ae);
      std::sort(listed.begin(), listed.end());
      if (listed != last.stones) {
        throw fail(i,
                   "AE does not list the stones the rules remove after " + topo_->name(last.move));
      }
    }
  }

  // RE[B+R]/RE[W+R] adds the resignation; any other B+/W+ must agree with the moves.
  void read_result(Position& pos) const {
    const auto re = line_.property(0, "RE");
    if (!re) return;
    const std::string_view r = re->front();
    if (r.size() < 2 || (r[0] != 'B' && r[0] != 'W') || r[1] != '+') return;
    const Player winner = r[0] == 'B' ? kBlack : kWhite;
    const bool resign = r.size() > 2 && (r[2] == 'R' || r[2] == 'r');
    if (!pos.is_over() && resign) {
      pos.resign(winner == kBlack ? kWhite : kBlack);
    } else if (pos.is_over() && pos.winner() != winner) {
      throw fail(0, "RE[" + shown(r) + "] contradicts the moves: " + player_title(pos.winner()) +
                        " has won");
    } else if (!pos.is_over()) {
      throw fail(0, "RE[" + shown(r) + "] but after these moves the game is not over");
    }
  }

  // Whether node i sets stones (AB, AW or AE).
  bool has_setup(std::size_t i) const {
    return line_.property(i, "AB") || line_.property(i, "AW") || line_.property(i, "AE");
  }

  MainLine line_;
  std::string where_;
  std::uint32_t w_ = 19, h_ = 19;
  TopologyPtr topo_;
};

}  // namespace

Game read_sgf(std::string_view text, std::string_view origin, std::size_t* variations_left_out) {
  check_input_size(text.size(), kMaxGameFileBytes, origin, "SGF records");
  const std::string where(origin);
  Parser parser(without_byte_order_mark(text, origin), where, &kReadProperties);
  Game game = Reader(parser.main_line(), where).read();
  if (variations_left_out) *variations_left_out = parser.variations_left_out();
  return game;
}

std::string sgf_left_out_by_rewrite(std::string_view text, std::string_view origin) {
  check_input_size(text.size(), kMaxGameFileBytes, origin, "SGF records");
  Parser parser(without_byte_order_mark(text, origin), std::string(origin), nullptr);
  const MainLine line = parser.main_line();
  if (const std::size_t n = parser.variations_left_out(); n > 0) {
    return std::to_string(n) + " variation" + (n == 1 ? "" : "s") + " besides its main line";
  }
  // What write_sgf writes again from the game (or, as AP, CA, FF and ST, rewrites to the same
  // effect); the root's C is written again when it is the description this program writes.
  static const std::set<std::string_view> kept = {"GM", "FF", "CA", "AP", "ST", "SZ",
                                                  "GN", "PB", "PW", "EV", "RE", "PL",
                                                  "AB", "AW", "AE", "B",  "W"};
  std::string first;
  for (std::size_t i = 0; i < line.size() && first.empty(); ++i) {
    line.each_property(i, [&](std::string_view id, const MainLine::Values& values) {
      if (!first.empty() || kept.count(id)) return;
      if (i == 0 && id == "C" && values.front().substr(0, 9) == "Tanbo on ") return;
      if (i == 0 && id == "DT" && sgf_date(std::string(values.front())) == values.front()) return;
      first = std::string(id) + "[" + shown(values.front()) + "] in node " + std::to_string(i + 1);
    });
  }
  return first;
}

bool is_sgf_text(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // a UTF-8 byte-order mark
  const auto first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '(';
}

bool is_sgf_file_name(std::string_view path) {
  return path.size() >= 4 && to_lower(path.substr(path.size() - 4)) == ".sgf";
}

}  // namespace tanbo

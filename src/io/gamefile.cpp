#include "tanbo/io/gamefile.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <sstream>

#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/io/sgf.hpp"
#include "tanbo/platform/input_file.hpp"
#include "tanbo/platform/memory.hpp"

namespace tanbo {

namespace {

// Splits "key rest of line" at the first blank.
std::pair<std::string, std::string> split_key(const std::string& line) {
  const auto sp = line.find_first_of(" \t");
  if (sp == std::string::npos) return {line, ""};
  return {line.substr(0, sp), trim(line.substr(sp + 1))};
}

// The spec as the "topology" line holds it. Only the NAME of "file NAME" (a label: the board is
// carried in the "dot" lines) can hold a control character, from a DOT file's name; it is
// written with '?' there, since the reader refuses such characters, which `tanbo show` would
// print to the terminal.
std::string shown_spec(std::string spec) {
  for (char& c : spec) {
    if (static_cast<unsigned char>(c) < 32 || c == 127) c = '?';
  }
  return spec;
}

bool is_named_setup(const Topology& topo, const Setup& setup) {
  try {
    const Setup named = make_setup(topo, setup.name, setup.players);
    auto a = named.stones, b = setup.stones;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    return a == b;
  } catch (const Error&) {
    return false;
  }
}

}  // namespace

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

Game new_game(std::string_view topology, std::string_view setup, int players,
              const std::vector<std::string>& names, std::string date) {
  return new_game(parse_topology(topology), setup, players, names, std::move(date));
}

Game new_game(TopologyPtr topo, std::string_view setup, int players,
              const std::vector<std::string>& names, std::string date) {
  Game g(Position(topo, make_setup(*topo, setup, players)));
  g.names = names;
  g.names.resize(static_cast<std::size_t>(g.position.num_players()));
  g.date = date.empty() ? utc_now() : std::move(date);
  return g;
}

StartingSetups starting_setups(const TopologyPtr& topology, int players) {
  StartingSetups out;
  for (const std::string& name : setups_for(*topology, players)) {
    try {
      const Position start(topology, make_setup(*topology, name, players));
      out.names.push_back(name);
    } catch (const Error&) {
      // (refused by the rules: not a start)
    }
  }
  // "default" names one of those that fit (make_setup), so its position was built above.
  try {
    const std::string name = make_setup(*topology, "default", players).name;
    if (std::find(out.names.begin(), out.names.end(), name) != out.names.end()) {
      out.by_default = name;
    }
  } catch (const Error&) {
    // (no setup fits: none is the default)
  }
  return out;
}

std::optional<Player> game_player(const Game& game, std::string_view text) {
  const int players = game.position.num_players();
  const std::string wanted = to_lower(std::string(text));
  std::optional<Player> named;
  for (std::size_t i = 0; i < game.names.size() && i < static_cast<std::size_t>(players); ++i) {
    if (!game.names[i].empty() && to_lower(game.names[i]) == wanted) {
      // A name two players share names neither: "resign bob" must not pick one of them.
      if (named) return parse_player(text, players);
      named = static_cast<Player>(i + 1);
    }
  }
  return named ? named : parse_player(text, players);
}

std::string players_of(const Game& game) {
  std::string s;
  for (Player p = 1; p <= game.position.num_players(); ++p) {
    s += (p > 1 ? ", " : "") + std::string(player_name(p));
    if (p <= game.names.size() && !game.names[p - 1].empty()) s += " (" + game.names[p - 1] + ")";
  }
  return s;
}

std::string result_text(const Game& game) {
  const Position& pos = game.position;
  if (!pos.is_over()) return "";
  std::string s = player_title(pos.winner()) + " wins";
  std::string resigned;
  for (const auto& rec : pos.history()) {
    if (rec.kind == MoveRecord::Kind::kResign) {
      resigned += (resigned.empty() ? "" : ", ") + player_title(rec.player);
    }
  }
  if (!resigned.empty()) s += " (" + resigned + " resigned)";
  return s;
}

namespace {

// The line every written game file starts with. It is not kept as a comment of the file.
constexpr std::string_view kFirstLine = "# Tanbo game file (format: docs/game-format.md)";

}  // namespace

std::string write_game(const Game& game) {
  const Position& pos = game.position;
  const Topology& topo = pos.topology();
  std::ostringstream os;
  os << kFirstLine << "\n";
  os << game.header_comments;
  os << "tanbo-game " << kGameFormatVersion << "\n";
  os << "topology " << shown_spec(topo.spec) << "\n" << dot_lines(topo);
  const Setup& setup = pos.setup();
  const bool named = is_named_setup(topo, setup);
  os << "setup " << (named ? setup.name : std::string("custom")) << "\n";
  os << "players " << pos.num_players() << "\n";
  if (!named) {
    for (const auto& [v, p] : setup.stones) {
      os << "seed " << player_name(p) << " " << topo.name(v) << "\n";
    }
  }
  for (Player p = 1; p <= pos.num_players(); ++p) {
    if (p <= game.names.size() && !game.names[p - 1].empty()) {
      os << "player " << player_name(p) << " " << game.names[p - 1] << "\n";
    }
  }
  if (!game.date.empty()) os << "date " << game.date << "\n";
  if (!game.event.empty()) os << "event " << game.event << "\n";
  os << "moves\n";
  std::size_t comment = 0;  // the next of game.move_comments to write
  const auto comments_up_to = [&](std::size_t records) {
    for (; comment < game.move_comments.size(); ++comment) {
      if (game.move_comments[comment].first > records) break;
      os << game.move_comments[comment].second;
    }
  };
  comments_up_to(0);
  for (const auto& rec : pos.history()) {
    if (rec.kind == MoveRecord::Kind::kResign) {
      os << player_name(rec.player) << " resigns\n";
    } else {
      os << player_name(rec.player) << " " << topo.name(rec.vertex) << "\n";
    }
    comments_up_to(static_cast<std::size_t>(&rec - pos.history().data()) + 1);
  }
  comments_up_to(std::numeric_limits<std::size_t>::max());  // those past the last move
  if (pos.is_over()) os << "result " << player_name(pos.winner()) << "\n";
  return os.str();
}

namespace {

// Reads a game file line by line, keeping the line number for every message.
class GameFileReader {
 public:
  GameFileReader(std::string_view text, std::string_view origin)
      : where_(origin), in_(std::string(text)) {}

  Game read() {
    read_header();
    Game game(start_position());
    name_players(game);
    game.header_comments = std::move(header_comments_);
    replay_moves(game);
    return game;
  }

 private:
  // A header line that names something, kept with its line for later messages.
  struct Entry {
    std::string first, second;
    int line = 0;
  };

  // A game file is UTF-8 text (docs/game-format.md): names in other bytes could not be shown.
  void need_utf8(const std::string& line) const {
    if (!is_utf8(line)) throw fail("the line is not UTF-8 text (game files are)");
  }
  // Names, date and event are printed to terminals as they are (tanbo show, tanbo play): a file
  // from someone else must not hold escape sequences, which would drive the reader's terminal,
  // nor characters that show the text in another order than it is written. The command line
  // refuses them in names and events too, so such a file was not written by this program.
  void need_shown_as_written(const char* what, const std::string& text) const {
    if (has_control_characters(text)) {
      throw fail(std::string(what) + " " + quote_input(text) +
                 " holds control characters (escape, tab, ...), which a file may not hold there");
    }
    if (has_direction_controls(text)) {
      throw fail(std::string(what) +  // (not repeated: it would turn this message around)
                 " holds a character that changes the direction of text (U+202E and the like), "
                 "which would show it other than it is written");
    }
  }
  Error fail(const std::string& why) const {
    return Error(where_ + ":" + std::to_string(line_no_) + ": " + why);
  }
  // Runs `step` at `line`: a tanbo::Error from the library gets this file's name and the line.
  template <class Step>
  auto at_line(int line, Step step) {
    line_no_ = line;
    try {
      return step();
    } catch (const Error& e) {
      if (std::string(e.what()).rfind(where_ + ":", 0) == 0) throw;
      throw fail(e.what());
    }
  }

  // The header: everything up to the "moves" line.
  void read_header() {
    bool in_moves = false;
    std::string line;
    while (!in_moves && std::getline(in_, line)) {
      ++line_no_;
      need_utf8(line);
      drop_carriage_returns(line);
      if (append_dot_line(line, dot_)) {
        if (!is_file_spec(topology_))
          throw fail("a \"dot\" line belongs after \"topology file NAME\"");
        continue;
      }
      const std::string t = trim(line);
      if (!t.empty() && t[0] == '#' && t != kFirstLine) header_comments_ += t + '\n';
      if (t.empty() || t[0] == '#') continue;
      in_moves = header_line(t);
    }
    if (!have_version_) {  // (nothing but blank or comment lines: no line to name)
      throw Error(where_ + ": empty: neither a Tanbo game file nor an SGF record");
    }
    if (!in_moves) throw fail("the file ends before its \"moves\" line (truncated?)");
    if (topology_.empty()) throw fail("no \"topology\" line in the header");
    moves_line_ = line_no_;
  }

  // One header line; true for the "moves" line that ends the header.
  bool header_line(const std::string& t) {
    auto [key, rest] = split_key(t);
    key = to_lower(key);
    // A line that sets one value may come once: a second one would silently win.
    for (const char* once : {"topology", "setup", "players", "date", "event"}) {
      if (key == once && !given_once_.insert(key).second) {
        throw fail("\"" + key + "\" is given twice in the header");
      }
    }
    if (!have_version_) {
      check_version(key, rest);
    } else if (key == "topology") {
      if (rest.empty()) throw fail("\"topology\" needs a board spec");
      need_shown_as_written("the topology", rest);
      topology_ = rest;
      topology_line_ = line_no_;
    } else if (key == "setup") {
      if (rest.empty()) throw fail("\"setup\" needs a setup name");
      setup_name_ = rest;
    } else if (key == "players") {
      if (rest.empty() || rest.size() > 1 || rest[0] < '2' || rest[0] > '8') {
        throw fail("\"players\" must be a number from 2 to 8, not " + quote_input(rest));
      }
      players_ = rest[0] - '0';
      players_line_ = line_no_;
    } else if (key == "seed") {
      auto [p, v] = split_key(rest);
      if (v.empty()) throw fail("\"seed\" needs a colour and a point: seed black B2");
      seeds_.push_back({p, v, line_no_});
    } else if (key == "player") {
      auto [p, name] = split_key(rest);
      if (name.empty()) throw fail("\"player\" needs a colour and a name: player black alice");
      need_shown_as_written("the name", name);
      names_.push_back({p, name, line_no_});
    } else if (key == "date") {
      need_shown_as_written("the date", rest);
      date_ = rest;
    } else if (key == "event") {
      need_shown_as_written("the event", rest);
      event_ = rest;
    } else if (key == "moves") {
      return true;
    } else {
      throw fail("unknown header line " + quote_input(t) +
                 " (expected topology, dot, setup, players, seed, "
                 "player, date, event or moves)");
    }
    return false;
  }

  void check_version(const std::string& key, const std::string& rest) {
    if (key != "tanbo-game") {
      throw fail("not a Tanbo game file: the first line must be \"tanbo-game " +
                 std::to_string(kGameFormatVersion) + "\"");
    }
    if (rest != std::to_string(kGameFormatVersion)) {
      throw fail("format version " + quote_input(rest) +
                 " is not supported (this program reads version " +
                 std::to_string(kGameFormatVersion) + ")");
    }
    have_version_ = true;
  }

  // The board: a spec, or the DOT text the file carries (a game file never reads another file).
  TopologyPtr board() {
    return at_line(topology_line_, [&] {
      TopologyLimits limits = process_limits();
      limits.read_dot_file = [](const std::string&, const MemoryLimit*) -> std::string {
        throw Error("a DOT board must be carried in the file (\"dot\" lines after the topology)");
      };
      return carried_board(topology_, dot_, std::move(limits));
    });
  }

  // The starting position: a named setup, or "custom" with its seed lines.
  Position start_position() {
    const TopologyPtr topo = board();
    if (to_lower(setup_name_) != "custom") {
      if (!seeds_.empty()) {
        line_no_ = seeds_[0].line;
        throw fail("\"seed\" lines only go with \"setup custom\"");
      }
      return at_line(players_line_ ? players_line_ : moves_line_,
                     [&] { return Position(topo, make_setup(*topo, setup_name_, players_)); });
    }
    Setup s;
    s.name = "custom";
    s.players = players_ ? players_ : 2;
    for (const Entry& seed : seeds_) {
      line_no_ = seed.line;
      auto p = parse_player(seed.first, s.players);
      if (!p) throw fail(quote_input(seed.first) + " is not a player of this game");
      auto v = topo->parse_vertex(seed.second);
      if (!v) throw fail(quote_input(seed.second) + " is not a point of this board");
      s.stones.emplace_back(*v, *p);
    }
    if (s.stones.empty()) throw fail("setup custom needs \"seed\" lines");
    return at_line(moves_line_, [&] { return Position(topo, s); });
  }

  // A second name for one colour is refused rather than taken over the first. (Two players of
  // one name are read: tanbo match names engine players by their spec, "random" and "random";
  // game_player finds neither by that name.)
  void name_players(Game& game) {
    game.names.assign(static_cast<std::size_t>(game.position.num_players()), "");
    for (const Entry& entry : names_) {
      line_no_ = entry.line;
      auto p = parse_player(entry.first, game.position.num_players());
      if (!p) throw fail(quote_input(entry.first) + " is not a player of this game");
      if (!game.names[*p - 1].empty()) {
        throw fail(player_title(*p) + " is named twice in the header");
      }
      game.names[*p - 1] = entry.second;
    }
    game.date = date_;
    game.event = event_;
  }

  // The moves, each replayed through the rules, then the result line if there is one.
  void replay_moves(Game& game) {
    Position& pos = game.position;
    line_no_ = moves_line_;
    bool have_result = false;
    std::string line;
    while (std::getline(in_, line)) {
      ++line_no_;
      need_utf8(line);
      const std::string t = trim(line);
      if (!t.empty() && t[0] == '#') keep_comment(game, t);
      if (t.empty() || t[0] == '#') continue;
      if (have_result) throw fail("nothing may follow the \"result\" line");
      auto [first, rest] = split_key(t);
      if (to_lower(first) == "result") {
        check_result(pos, rest);
        have_result = true;
      } else {
        replay_turn(pos, t, first, rest);
      }
    }
  }

  // A comment line among the moves, with those before it when no move came between.
  static void keep_comment(Game& game, const std::string& line) {
    const std::size_t records = game.position.history().size();
    if (game.move_comments.empty() || game.move_comments.back().first != records) {
      game.move_comments.emplace_back(records, "");
    }
    game.move_comments.back().second += line + '\n';
  }

  void check_result(const Position& pos, const std::string& rest) const {
    auto w = parse_player(rest, pos.num_players());
    if (!w) throw fail(quote_input(rest) + " is not a player of this game");
    if (!pos.is_over()) {
      throw fail("the result says " + player_title(*w) +
                 " won but after these moves the game is not over");
    }
    if (*w != pos.winner()) {
      throw fail("the result says " + player_title(*w) + " won but the moves give " +
                 player_title(pos.winner()));
    }
  }

  void replay_turn(Position& pos, const std::string& t, const std::string& first,
                   const std::string& rest) const {
    auto p = parse_player(first, pos.num_players());
    if (!p) {
      throw fail(quote_input(t) +
                 " is not a move: expected a colour and a point (black D4), "
                 "\"COLOUR resigns\" or \"result COLOUR\"");
    }
    if (rest.empty()) throw fail(quote_input(t) + ": the point is missing");
    if (pos.is_over())
      throw fail("the game is already over: " + player_title(pos.winner()) + " has won");
    if (to_lower(rest) == "resigns") {
      if (pos.is_out(*p)) throw fail(player_title(*p) + " is already out of the game");
      pos.resign(*p);
      return;
    }
    auto v = pos.topology().parse_vertex(rest);
    if (!v) throw fail(pos.topology().not_a_point(rest));
    const std::string why = pos.explain(*p, *v);
    if (!why.empty()) throw fail(player_title(*p) + " " + pos.topology().name(*v) + ": " + why);
    pos.play(*v);
  }

  std::string where_;
  std::istringstream in_;
  int line_no_ = 0;
  bool have_version_ = false;
  std::string topology_, dot_, setup_name_ = "default", date_, event_;
  int players_ = 0, players_line_ = 0, topology_line_ = 0, moves_line_ = 0;
  std::vector<Entry> seeds_, names_;
  std::string header_comments_;
  std::set<std::string> given_once_;  // the header keys seen that may come once
};

}  // namespace

Game read_game(std::string_view text, std::string_view origin) {
  check_input_size(text.size(), kMaxGameFileBytes, origin, "game files");
  return GameFileReader(without_byte_order_mark(text, origin), origin).read();
}

Game load_game(const std::string& path) {
  return game_from_text(read_text_file(path, "game files"), shown_name(path));
}

Game game_from_text(const std::string& text, const std::string& origin) {
  if (is_sgf_text(text)) return read_sgf(text, origin);
  return read_game(text, origin);
}

std::string write_game_as(const Game& game, const std::string& text_or_name, bool is_name) {
  const bool sgf = is_name ? is_sgf_file_name(text_or_name) : is_sgf_text(text_or_name);
  return sgf ? write_sgf(game) : write_game(game);
}

void save_game(const Game& game, const std::string& path) {
  write_file_atomic(path, write_game_as(game, path, true));
}

namespace {

// An SGF record is changed in place only when writing it again keeps all it holds: the
// variations and comments of a record from another program would be lost without a word.
void need_rewrite_keeps_all(const std::string& text, const std::string& origin) {
  if (!is_sgf_text(text)) return;
  const std::string lost = sgf_left_out_by_rewrite(text, origin);
  if (lost.empty()) return;
  throw Error(origin + ": the record holds " + lost +
              ", which writing it again would drop; the file was not changed (tanbo import " +
              "makes a game file of its main line to play on)");
}

}  // namespace

Game update_game_file(const std::string& path, const std::function<void(Game&)>& change) {
  std::optional<Game> changed;
  update_file(path, [&](const std::string& text) -> std::optional<std::string> {
    changed.emplace(game_from_text(text, shown_name(path)));
    need_rewrite_keeps_all(text, shown_name(path));
    change(*changed);
    return write_game_as(*changed, text, false);
  });
  return std::move(*changed);
}

void create_game_file(const Game& game, const std::string& path, bool overwrite) {
  const std::string text = write_game_as(game, path, true);
  if (overwrite) {
    write_file_atomic(path, text);
  } else {
    create_file_exclusive(path, text);
  }
}

std::string save_game_if_unchanged(const Game& game, const std::string& path,
                                   const std::string& expected) {
  if (expected.empty()) {
    const std::string text = write_game_as(game, path, true);
    create_file_exclusive(path, text);
    return text;
  }
  std::string text;
  update_file(path, [&](const std::string& now) -> std::optional<std::string> {
    // The games are compared, not the texts (`expected` may be in the other format, or the file
    // formatted otherwise), each as a file of the format of `now` records it: an SGF record
    // keeps the date only, for one. Comments are not the game: those of the file as it is now
    // are written with the game, so that a comment added meanwhile is kept.
    const std::string origin = shown_name(path);
    const bool sgf = is_sgf_text(now);
    const auto recorded = [&](const std::string& t) {
      Game g = game_from_text(t, origin);
      g.header_comments.clear();
      g.move_comments.clear();
      return write_game(sgf ? read_sgf(write_sgf(g), origin) : g);
    };
    const auto same_game = [&] {
      try {
        return recorded(now) == recorded(expected);
      } catch (const Error&) {  // (a game SGF cannot record is not the one in an SGF file)
        return false;
      }
    };
    if (now != expected && !same_game()) {
      throw Error(origin +
                  " was changed by another program since this one read it; "
                  "the file was not changed (open it again to go on from its moves)");
    }
    // The file keeps its format: an SGF record stays SGF, whatever its name.
    need_rewrite_keeps_all(now, origin);
    Game written = game;
    const Game file = game_from_text(now, origin);
    written.header_comments = file.header_comments;
    written.move_comments = file.move_comments;
    text = write_game_as(written, now, false);
    return text;
  });
  return text;
}

}  // namespace tanbo

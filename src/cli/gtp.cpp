#include "gtp.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/numbers.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/io/render.hpp"
#include "tanbo/platform/memory.hpp"

namespace tanbo::cli {

namespace {

std::string join_names(const Topology& t, const std::vector<Vertex>& vs) {
  std::string s;
  for (Vertex v : vs) s += (s.empty() ? "" : " ") + t.name(v);
  return s;
}

std::string rest_of(const std::vector<std::string>& args, std::size_t from) {
  std::string s;
  for (std::size_t i = from; i < args.size(); ++i) s += (s.empty() ? "" : " ") + args[i];
  return s;
}

// GTP's preprocessing of one byte (GTP 2, section 3.1): a tab reads as a space, other control
// characters are dropped (returned as '\0'), any other byte stays ('#', which starts a comment,
// is the caller's to see).
char preprocessed(unsigned char c) {
  if (c == '\t') return ' ';
  return c < 32 || c == 127 ? '\0' : static_cast<char>(c);
}

// A number of seconds (digits, at most one '.', at most 10^7) or, with `whole`, of moves.
double need_amount(const std::string& text, const char* what, bool whole) {
  const auto x = parse_number(text, whole);
  if (!x || *x > 1e7) {
    throw Error(std::string(what) + " must be " +
                (whole ? "a whole number of moves" : "a number of seconds") +
                " from 0 to 10^7, not " + quote_input(text));
  }
  return *x;
}

}  // namespace

void need_args(const std::vector<std::string>& args, std::size_t min, std::size_t max,
               const char* usage) {
  if (args.size() >= min && args.size() <= max) return;
  throw Error(std::string("usage: ") + usage + (max == 0 ? " (it takes no arguments)" : ""));
}

GtpEngine::GtpEngine(std::uint64_t seed)
    : GtpEngine(
          [] {
            auto t = parse_topology("grid 19x19");
            return Position(t, make_setup(*t));
          }(),
          seed) {}

GtpEngine::GtpEngine(Position start, std::uint64_t seed) : seed_(seed), rng_(seed) {
  pos_ = std::make_unique<Position>(std::move(start));
  generator_ = [this](const Position& pos) { return random_move(pos, rng_); };
  register_builtin();
  add_solver_commands(*this);  // tanbo-solve, tanbo-analyze (gtp_solver.cpp)
  add_client_commands(*this);  // komi, loadsgf, printsgf, final_score, ... (gtp_client.cpp)
  add_rules_commands(*this);   // gogui-rules_* for GoGui (gtp_rules.cpp)
}

void GtpEngine::reset(Position start) {
  pos_ = std::make_unique<Position>(std::move(start));
  passes_after_end_ = 0;
  names_.clear();
  reset_clocks();
  if (new_game_hook_) new_game_hook_();
}

void GtpEngine::start_game(Position start, std::vector<std::string> names) {
  reset(std::move(start));
  names_ = std::move(names);
}

void GtpEngine::reset_clocks() {
  for (Clock& k : clocks_) {
    k.known = time_.limited;
    k.seconds = time_.main > 0 || time_.stones == 0 ? time_.main : time_.byo;
    k.stones = time_.main > 0 ? 0 : time_.stones;
  }
}

void GtpEngine::spend(Player p, double seconds) {
  Clock& k = clocks_[p];
  if (!k.known) return;
  k.seconds -= seconds;
  const bool period_over = k.stones > 0 && --k.stones == 0;
  const bool main_over = k.stones == 0 && k.seconds <= 0;
  if ((period_over || main_over) && time_.stones > 0) {  // a new byo-yomi period
    k.seconds = time_.byo;
    k.stones = time_.stones;
  }
}

Vertex GtpEngine::generate(Player p) {
  if (pos_->is_over())
    throw Error("the game is over: " + player_title(pos_->winner()) + " has won");
  if (p != pos_->to_move()) {
    throw Error("it is " + player_title(pos_->to_move()) + "'s turn, not " + player_title(p) +
                "'s");
  }
  if (clock_hook_) {
    const Clock& k = clocks_[p];
    clock_hook_(k.known ? std::max(k.seconds, 0.0) : -1.0, k.known ? k.stones : 0);
  }
  const Vertex v = generator_(*pos_);
  if (pos_->check_move(p, v) != MoveStatus::kLegal)
    throw Error("engine failure: generated an illegal move");
  return v;
}

std::string GtpEngine::answer_after_end(Player p) const {
  if (!pos_->is_over() || pos_->num_players() != 2) return "";
  return p == pos_->winner() ? "pass" : "resign";
}

void GtpEngine::add_command(const std::string& name, Handler handler,
                            std::function<bool()> listed) {
  commands_[name] = std::move(handler);
  if (listed) {
    listed_[name] = std::move(listed);
  } else {
    listed_.erase(name);
  }
}

bool GtpEngine::is_listed(const std::string& name) const {
  if (!commands_.count(name)) return false;
  const auto it = listed_.find(name);
  return it == listed_.end() || it->second();
}

Player GtpEngine::need_player(const std::string& text) const {
  auto p = parse_player(text, pos_->num_players());
  if (!p) {
    throw Error("unknown player " + quote_input(text) + "; this game has " +
                std::to_string(pos_->num_players()) + " players: " +
                [&] {
                  std::string s;
                  for (int i = 1; i <= pos_->num_players(); ++i) {
                    s += (i > 1 ? ", " : "") + std::string(player_name(static_cast<Player>(i)));
                  }
                  return s;
                }() +
                " (or 1.." + std::to_string(pos_->num_players()) + ")");
  }
  return *p;
}

Vertex GtpEngine::need_vertex(const std::string& text) const {
  if (to_lower(text) == "pass") throw Error("passing is not allowed in Tanbo");
  if (to_lower(text) == "resign") throw Error("use the resign command to resign");
  return pos_->topology().need_vertex(text);
}

void GtpEngine::register_builtin() {
  register_admin();
  register_board();
  register_play();
  register_queries();
  register_engine();
  register_clock();
}

void GtpEngine::register_admin() {
  auto& c = commands_;
  // Commands without arguments refuse any, as clear_board and undo do (quit excepted: a
  // controller that ends a session is obeyed).
  c["protocol_version"] = [](const auto& a) {
    need_args(a, 0, 0, "protocol_version");
    return Reply{true, "2"};
  };
  c["name"] = [](const auto& a) {
    need_args(a, 0, 0, "name");
    return Reply{true, "tanbo"};
  };
  c["version"] = [](const auto& a) {
    need_args(a, 0, 0, "version");
    return Reply{true, TANBO_VERSION};
  };
  c["known_command"] = [this](const std::vector<std::string>& a) {
    need_args(a, 1, 1, "known_command COMMAND");
    return Reply{true, is_listed(a[0]) ? "true" : "false"};
  };
  c["list_commands"] = [this](const auto& a) {
    need_args(a, 0, 0, "list_commands");
    std::string s;
    for (const auto& [name, h] : commands_) {
      if (is_listed(name)) s += (s.empty() ? "" : "\n") + name;
    }
    return Reply{true, s};
  };
  c["quit"] = [this](const auto&) {
    quit_ = true;
    return Reply{true, ""};
  };
}

// boardsize N's new game. A lattice whose every axis has N points is the same board: it keeps
// its topology and setup, as clear_board does (controllers such as GoGui and gogui-twogtp send
// boardsize before every game, which must not undo the engine's --topology and --setup: a
// torus, a cube, a setup). Any other N gives grid NxN with its default setup, a torus when the
// board was one.
Position GtpEngine::board_of_size(std::uint32_t n) const {
  const Topology& now = pos_->topology();
  const bool same =
      now.kind == BoardKind::kLattice && !now.dims.empty() &&
      std::all_of(now.dims.begin(), now.dims.end(), [n](std::uint32_t d) { return d == n; });
  if (same) return Position(pos_->topology_ptr(), pos_->setup());
  const bool torus = now.kind == BoardKind::kLattice && now.dims.size() == 2 && now.wrap;
  const std::string side = std::to_string(n);
  auto t = parse_topology("grid " + side + "x" + side + (torus ? " wrap" : ""));
  return Position(t, make_setup(*t));
}

void GtpEngine::register_board() {
  auto& c = commands_;
  c["boardsize"] = [this](const std::vector<std::string>& a) {
    need_args(a, 1, 1, "boardsize N");
    const std::string& s = a[0];
    if (s.empty() || !std::all_of(s.begin(), s.end(), [](char ch) {
          return std::isdigit(static_cast<unsigned char>(ch));
        })) {
      throw Error("unacceptable size: boardsize takes a whole number");
    }
    const std::string digits = s.substr(std::min(s.find_first_not_of('0'), s.size()));
    // At most two digits after the zeros, so the number is read without overflow.
    const auto n = digits.size() > 2 ? kMaxGtpBoardSize + 1
                                     : static_cast<std::uint32_t>(std::stoi("0" + digits));
    if (n > kMaxGtpBoardSize) {
      throw Error(
          "unacceptable size: GTP names the points of boards up to 25x25 (the topology "
          "command takes larger ones)");
    }
    try {
      reset(board_of_size(n));
    } catch (const Error& e) {
      throw Error(std::string("unacceptable size: ") + e.what());
    }
    return Reply{true, ""};
  };
  c["clear_board"] = [this](const auto& a) {
    need_args(a, 0, 0, "clear_board");
    reset(Position(pos_->topology_ptr(), pos_->setup()));
    return Reply{true, ""};
  };
  c["topology"] = [this](const std::vector<std::string>& a) {
    if (a.empty()) return Reply{true, pos_->topology().spec};
    auto t = parse_topology(rest_of(a, 0));
    reset(Position(t, make_setup(*t)));
    return Reply{true, ""};
  };
  c["setup"] = [this](const std::vector<std::string>& a) {
    if (a.empty()) {
      std::string s = pos_->setup().name;
      for (const auto& n : setups_for(pos_->topology())) {
        if (n != pos_->setup().name) s += " " + n;
      }
      return Reply{true, s};
    }
    need_args(a, 1, 2, "setup NAME [PLAYERS]");
    int players = 0;
    if (a.size() == 2) {
      if (a[1].size() > 1 || a[1][0] < '2' || a[1][0] > '8') throw Error("PLAYERS must be 2 to 8");
      players = a[1][0] - '0';
    }
    reset(Position(pos_->topology_ptr(), make_setup(pos_->topology(), a[0], players)));
    return Reply{true, ""};
  };
}

void GtpEngine::register_play() {
  auto& c = commands_;
  c["play"] = [this](const std::vector<std::string>& a) {
    need_args(a, 2, 2, "play PLAYER VERTEX");
    const Player p = need_player(a[0]);
    // A pass once the game is over (as controllers relay genmove's `pass` after the end) changes
    // nothing; undo takes it back first.
    if (pos_->is_over() && to_lower(a[1]) == "pass") {
      ++passes_after_end_;
      return Reply{true, ""};
    }
    const Vertex v = need_vertex(a[1]);
    const MoveStatus st = pos_->check_move(p, v);
    if (st != MoveStatus::kLegal) throw Error("illegal move: " + pos_->explain(p, v));
    pos_->play(v);
    return Reply{true, ""};
  };
  c["undo"] = [this](const auto& a) {
    need_args(a, 0, 0, "undo");
    if (passes_after_end_ > 0) {
      --passes_after_end_;
      return Reply{true, ""};
    }
    if (pos_->ply() == 0) throw Error("cannot undo: no move has been played");
    pos_->undo();
    return Reply{true, ""};
  };
  c["resign"] = [this](const std::vector<std::string>& a) {
    need_args(a, 1, 1, "resign PLAYER");
    pos_->resign(need_player(a[0]));
    return Reply{true, ""};
  };
}

void GtpEngine::register_queries() {
  auto& c = commands_;
  c["legal_moves"] = [this](const std::vector<std::string>& a) {
    need_args(a, 0, 1, "legal_moves [PLAYER]");
    if (a.empty() && pos_->is_over()) return Reply{true, ""};
    const Player p = a.empty() ? pos_->to_move() : need_player(a[0]);
    if (pos_->is_over() || pos_->is_out(p)) return Reply{true, ""};
    return Reply{true, join_names(pos_->topology(), pos_->legal_moves(p))};
  };
  c["list_stones"] = [this](const std::vector<std::string>& a) {
    need_args(a, 1, 1, "list_stones PLAYER");
    const Player p = need_player(a[0]);
    std::vector<Vertex> vs;
    for (Vertex v = 0; v < pos_->num_vertices(); ++v) {
      if (pos_->at(v) == p) vs.push_back(v);
    }
    return Reply{true, join_names(pos_->topology(), vs)};
  };
  c["side_to_move"] = [this](const auto& a) {
    need_args(a, 0, 0, "side_to_move");
    return Reply{true, pos_->is_over() ? "none" : std::string(player_name(pos_->to_move()))};
  };
  c["winner"] = [this](const auto& a) {
    need_args(a, 0, 0, "winner");
    return Reply{true, pos_->is_over() ? std::string(player_name(pos_->winner())) : "none"};
  };
  c["roots"] = [this](const auto& a) {
    need_args(a, 0, 0, "roots");
    std::string s;
    const Topology& t = pos_->topology();
    for (RootId r : pos_->live_roots()) {
      s += (s.empty() ? "" : "\n") + std::string(player_name(pos_->root_owner(r))) + " " +
           std::to_string(pos_->root_size(r)) + " " + std::to_string(pos_->root_space(r)) + " " +
           join_names(t, pos_->root_stones(r));
    }
    return Reply{true, s};
  };
  c["showboard"] = [this](const auto& a) {
    need_args(a, 0, 0, "showboard");
    return Reply{true, "\n" + render_board(*pos_)};
  };
}

void GtpEngine::register_engine() {
  auto& c = commands_;
  c["genmove"] = [this](const std::vector<std::string>& a) {
    need_args(a, 1, 1, "genmove PLAYER");
    const Player p = need_player(a[0]);
    if (const std::string end = answer_after_end(p); !end.empty()) {
      // A pass is a move of the game's record for the controller (GTP adds genmove's move to
      // the history): undo takes it back first, as a pass relayed with play.
      if (end == "pass") ++passes_after_end_;
      return Reply{true, end};
    }
    const auto t0 = std::chrono::steady_clock::now();
    const Vertex v = generate(p);
    spend(p, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    pos_->play(v);
    return Reply{true, pos_->topology().name(v)};
  };
  // The move genmove would choose, not played (GTP's reg_genmove, for testing an engine).
  c["reg_genmove"] = [this](const std::vector<std::string>& a) {
    need_args(a, 1, 1, "reg_genmove PLAYER");
    const Player p = need_player(a[0]);
    if (const std::string end = answer_after_end(p); !end.empty()) return Reply{true, end};
    return Reply{true, pos_->topology().name(generate(p))};
  };
}

void GtpEngine::register_clock() {
  auto& c = commands_;
  c["time_settings"] = [this](const std::vector<std::string>& a) {
    need_args(a, 3, 3, "time_settings MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES");
    TimeSettings t;
    t.main = need_amount(a[0], "MAIN_TIME", false);
    t.byo = need_amount(a[1], "BYO_YOMI_TIME", false);
    t.stones = static_cast<int>(need_amount(a[2], "BYO_YOMI_STONES", true));
    t.limited = !(t.byo > 0 && t.stones == 0);  // GTP: byo-yomi time without stones = no limit
    time_ = t;
    reset_clocks();
    return Reply{true, ""};
  };
  c["time_left"] = [this](const std::vector<std::string>& a) {
    need_args(a, 3, 3, "time_left PLAYER TIME STONES");
    const Player p = need_player(a[0]);
    // A clock past its time (GoGui sends what it counts, below 0 after a loss on time) is a
    // clock at 0.
    const bool overdrawn = a[1].size() > 1 && a[1][0] == '-';
    double seconds = need_amount(overdrawn ? a[1].substr(1) : a[1], "TIME", false);
    if (overdrawn) seconds = 0;
    const int stones = static_cast<int>(need_amount(a[2], "STONES", true));
    clocks_[p] = Clock{true, seconds, stones};
    return Reply{true, ""};
  };
}

namespace {

// A response as it is sent: whatever text went into it (an SGF record's names, an error
// message), a blank line inside would end it early for the controller and a bare carriage
// return reads as a line end to many, so control bytes other than line feed and tab become
// spaces and lines left blank are dropped; the empty line that ends the response follows.
std::string framed(const std::string& out) {
  std::string clean, line;
  const auto end_line = [&] {
    if (line.find_first_not_of(" \t") != std::string::npos) {
      clean += (clean.empty() ? "" : "\n") + line;
    }
    line.clear();
  };
  for (const char ch : out) {
    const auto u = static_cast<unsigned char>(ch);
    if (ch == '\n') {
      end_line();
    } else {
      line += (u < 32 && ch != '\t') || u == 127 ? ' ' : ch;
    }
  }
  end_line();
  return clean + "\n\n";
}

}  // namespace

std::string GtpEngine::handle_line(const std::string& raw) {
  if (raw.size() > kMaxInputLine) {  // the reader keeps one byte more of a longer line
    const auto first = raw.find_first_not_of(" \t");
    if (first != std::string::npos && raw[first] == '#') return "";  // a comment: no answer
    const auto digits = raw.find_first_not_of("0123456789");
    const bool has_id = digits > 0 && digits <= 18 && raw[digits] == ' ';
    return "?" + (has_id ? raw.substr(0, digits) : "") + " the line is longer than " +
           std::to_string(kMaxInputLine) + " bytes, the most a command may have\n\n";
  }
  std::string id;
  std::vector<std::string> words;
  if (!split_command(raw, id, words)) return "";
  Reply reply;
  if (words.empty()) {
    reply = {false, "missing command"};
  } else {
    const std::string name = words[0];
    words.erase(words.begin());
    auto it = commands_.find(name);
    if (it == commands_.end()) {
      reply = {false, "unknown command " + quote_input(name) + " (list_commands shows them)"};
    } else {
      try {
        reply = it->second(words);
      } catch (const Error& e) {
        reply = {false, e.what()};
      } catch (const std::bad_alloc&) {
        reply = {false, "out of memory"};
      } catch (const std::exception& e) {
        reply = {false, std::string("internal error: ") + e.what()};
      }
    }
  }
  // "=ID TEXT"; an id is followed by a space even when no text or a new line follows, since
  // GoGui reads an answer as what follows its first space ("=7" alone would read as "7").
  std::string out = (reply.ok ? "=" : "?") + id;
  if (!id.empty() || (!reply.text.empty() && reply.text.front() != '\n')) out += ' ';
  return framed(out + reply.text);
}

bool read_gtp_line(std::istream& in, std::string& line) {
  line.clear();
  std::streambuf* const buf = in.rdbuf();
  bool any = false, comment = false;
  for (;;) {
    const int c = buf ? buf->sbumpc() : std::char_traits<char>::eof();
    if (c == std::char_traits<char>::eof()) {
      if (!any) in.setstate(std::ios::eofbit | std::ios::failbit);
      return any;
    }
    any = true;
    if (c == '\n') return true;
    if (comment) continue;
    if (c == '#') {
      comment = true;
      continue;
    }
    const char ch = preprocessed(static_cast<unsigned char>(c));
    if (ch == '\0' || (ch == ' ' && !line.empty() && line.back() == ' ')) continue;
    if (line.size() <= kMaxInputLine) line += ch;
  }
}

void GtpEngine::run(std::istream& in, std::ostream& out) {
  std::string line;
  while (!quit_ && out && read_gtp_line(in, line)) {
    const std::string reply = handle_line(line);
    if (!reply.empty()) send(out, reply);
  }
}

bool split_command(const std::string& raw, std::string& id, std::vector<std::string>& words) {
  // GTP preprocessing (as read_gtp_line's), comments starting at '#'.
  std::string line;
  for (char ch : raw) {
    if (ch == '#') break;
    if (const char kept = preprocessed(static_cast<unsigned char>(ch))) line += kept;
  }
  std::istringstream is(line);
  id.clear();
  words.clear();
  for (std::string w; is >> w;) words.push_back(w);
  if (words.empty()) return false;
  if (std::all_of(words[0].begin(), words[0].end(),
                  [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); })) {
    id = words[0];
    words.erase(words.begin());
  }
  return true;
}

bool send(std::ostream& out, const std::string& text) {
  errno = 0;
  out << text << std::flush;
  if (out) return true;
  note_output_failure(errno);  // the failed write's cause, before anything else can change it
  return false;
}

}  // namespace tanbo::cli

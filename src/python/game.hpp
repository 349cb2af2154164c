// The game of the `tanbo` Python module (docs/python.md): a game session (tanbo::Session, the
// layer every front end drives a game through) and the operations Python calls on it, in the
// module's own names and in OpenSpiel's.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arguments.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/players.hpp"
#include "tanbo/io/gamefile.hpp"
#include "tanbo/io/render.hpp"
#include "tanbo/io/safe_file.hpp"
#include "tanbo/io/sgf.hpp"
#include "tanbo/session/session.hpp"

namespace tanbo::python {

namespace py = pybind11;

// current_player() once the game is over, as OpenSpiel's kTerminalPlayerId.
inline constexpr int kTerminal = -4;
// The lowest of OpenSpiel's special player ids, which its methods taking a player accept besides
// the players 0 .. n-1: kChancePlayerId -1, kSimultaneousPlayerId -2, kInvalidPlayer -3,
// kTerminalPlayerId -4, kMeanFieldPlayerId -5. None of them ever acts in Tanbo.
inline constexpr int kLowestSpecialPlayer = -5;
// tanbo.RESIGN: OpenSpiel's kInvalidAction, defined for code that compares with it. No entry of
// history() is ever this: a resignation is no action (apply_action cannot replay it, and in
// games of three players or more it need not be the mover's turn); resignations() lists them.
inline constexpr int kResignAction = -1;

// A game as Python sees it: a session of people only (every turn is played from Python), never
// saved on its own, and the operations of docs/python.md.
class PyGame {
 public:
  // None for setup or players means the default; "" and 0, which the library reads as the
  // default too, are refused here as the values they are.
  PyGame(const std::string& topology, const std::optional<std::string>& setup,
         std::optional<int> players)
      : PyGame(new_game(topology, checked_setup(setup), checked_players(players), {})) {}
  explicit PyGame(Game game) : session_(std::make_unique<Session>(std::move(game))) {}
  PyGame(const PyGame& other) : PyGame(other.game()) {}
  PyGame(PyGame&&) noexcept = default;

  // Python can make a Game without running __init__ (tanbo.Game.__new__(tanbo.Game)); pybind11
  // then allocates the object's storage with this operator new and constructs nothing in it.
  // The storage is zeroed so that such a game has no session (session_ is null) and every
  // method refuses it through session() instead of reading uninitialised memory.
  static void* operator new(std::size_t size) {
    void* p = ::operator new(size);
    std::memset(p, 0, size);
    return p;
  }
  static void operator delete(void* p) noexcept { ::operator delete(p); }

  // Whether __init__ made this game (false only for Game.__new__ without __init__).
  bool initialised() const { return session_ != nullptr; }

  const Game& game() const { return session().game(); }
  const Position& pos() const { return session().position(); }
  const Topology& topo() const { return pos().topology(); }

  // ---- the board
  std::vector<std::string> vertices() const {
    std::vector<std::string> names;
    names.reserve(topo().num_vertices());
    for (Vertex v = 0; v < topo().num_vertices(); ++v) names.push_back(topo().name(v));
    return names;
  }
  std::vector<std::string> neighbours(const std::string& name) const {
    std::vector<std::string> out;
    for (Vertex u : topo().graph.neighbours(topo().need_vertex(name)))
      out.push_back(topo().name(u));
    return out;
  }
  std::string spec() const { return topo().spec; }
  std::string setup() const { return pos().setup().name; }
  int num_players() const { return pos().num_players(); }

  // ---- the turn
  int to_move() const { return pos().to_move(); }
  std::optional<int> winner() const {
    if (!pos().is_over()) return std::nullopt;
    return pos().winner();
  }
  bool is_over() const { return pos().is_over(); }
  std::uint32_t ply() const { return pos().ply(); }

  // ---- moves
  std::vector<std::string> legal_moves() const { return names_of(legal_move_ids()); }
  std::vector<Vertex> legal_move_ids() const {
    if (pos().is_over()) return {};
    return pos().legal_moves(pos().to_move());
  }
  void play(const std::string& name) { play_id(topo().need_vertex(name)); }
  void play_id(std::int64_t id) {
    check_action(id);
    const auto v = static_cast<Vertex>(id);
    const Player p = pos().to_move();
    if (session().play_quietly(v) == TurnStatus::kDone) return;  // the inner loop: no message
    const TurnResult r = session().check(0, v);
    if (r.status == TurnStatus::kIllegal) {
      throw Error("illegal move " + topo().name(v) + " for " + player_title(p) + ": " + r.reason);
    }
    if (!r.done()) throw Error(r.message);  // the game is over
  }
  // Any player still in may resign, on any turn (the session's resign() is for the side to
  // move: another's resignation goes through a copy of the game).
  void resign(std::optional<int> player) {
    if (pos().is_over()) throw Error("the game is over: " + result_text(game()));
    const int p = player.value_or(pos().to_move());
    if (p < 1 || p > pos().num_players()) {
      throw Error("player " + std::to_string(p) + " is not a player of this game");
    }
    if (p == pos().to_move()) {
      session().resign(static_cast<Player>(p));
      return;
    }
    Game resigned = game();
    resigned.position.resign(static_cast<Player>(p));  // the rules' refusal, if any
    session().replace_game(std::move(resigned));
  }
  void undo() {
    if (pos().ply() == 0) throw Error("no move to take back: the game is at its start");
    session().take_back(1);
  }
  std::vector<std::string> moves() const {
    std::vector<std::string> out;
    for (const auto& rec : pos().history()) {
      out.push_back(rec.kind == MoveRecord::Kind::kResign ? "resign " + player_text(rec.player)
                                                          : topo().name(rec.vertex));
    }
    return out;
  }

  // ---- stones and roots
  std::vector<std::string> stones(int player) const {
    check_player(player);
    std::vector<std::string> out;
    for (Vertex v = 0; v < topo().num_vertices(); ++v) {
      if (pos().at(v) == player) out.push_back(topo().name(v));
    }
    return out;
  }
  // One pass over the points and one over each player's legal moves (not a scan of the legal
  // moves for every root, which took seconds on big boards).
  py::list roots(py::object root_type) const {
    std::vector<std::vector<Vertex>> stones(pos().num_root_ids()), space(pos().num_root_ids());
    for (Vertex v = 0; v < topo().num_vertices(); ++v) {
      if (const RootId r = pos().root_of(v); r != kNoRoot) stones[r].push_back(v);
    }
    for (Player p = 1; p <= pos().num_players(); ++p) {
      if (pos().roots_alive(p) == 0) continue;
      for (Vertex u : pos().legal_moves(p)) {  // in vertex order, so each space is sorted
        space[pos().joined_root(p, u)].push_back(u);
      }
    }
    py::list out;
    for (RootId r : pos().live_roots()) {
      out.append(root_type(static_cast<int>(pos().root_owner(r)), names_of(stones[r]),
                           names_of(space[r])));
    }
    return out;
  }

  // Planes of 0/1: plane 0 the empty points, plane p player p's stones; by vertex, or by the
  // lattice's shape with the last axis first (numpy's C order: [plane, ..., z, y, x]).
  py::array_t<float> observation() const {
    const std::uint32_t n = topo().num_vertices();
    const int planes = pos().num_players() + 1;
    py::array_t<float> out(planes_shape(planes));
    float* data = out.mutable_data();
    std::fill(data, data + static_cast<std::size_t>(planes) * n, 0.0f);
    for (Vertex v = 0; v < n; ++v) data[static_cast<std::size_t>(pos().at(v)) * n + v] = 1.0f;
    return out;
  }

  // ---- files
  // The text is made while the GIL is held (the game may change once it is released); the
  // write, which waits up to 10 s for another process's lock on the file, lets other Python
  // threads run. The GIL is given up and taken back by hand, not by py::gil_scoped_release: when
  // the interpreter shuts down meanwhile (a daemon thread), taking it back ends the thread by an
  // unwinding that must not meet a noexcept destructor (the process aborted, status 134); here
  // it goes on through pybind11, which lets it pass.
  void save(const std::string& path) const {
    const std::string file = named_file(path, "save");
    const std::string text = write_game_as(game(), file, true);
    std::exception_ptr error;
    PyThreadState* others_run = PyEval_SaveThread();
    try {
      write_file_atomic(file, text);
    } catch (...) {
      error = std::current_exception();
    }
    PyEval_RestoreThread(others_run);
    if (error) std::rethrow_exception(error);
  }
  std::string to_sgf() const { return write_sgf(game()); }
  std::string to_text() const { return write_game(game()); }

  std::string repr() const {
    if (!initialised()) return "<tanbo.Game, not initialised>";
    return "<tanbo.Game " + spec() + ", move " + std::to_string(pos().ply()) + ", " +
           (pos().is_over() ? player_title(pos().winner()) + " won"
                            : player_title(pos().to_move()) + " to play") +
           ">";
  }

  // The position as text (str(), OpenSpiel's ToString and ObservationString), made so that two
  // games have the same text exactly when they compare equal (same_position): what the text
  // holds is what == compares, and nothing else (no move count, no last move, no names).
  //   line 1: the board's spec and the number of players ("grid 4x4, 2 players");
  //   then the board as `tanbo show` draws it (render_board), without the mark on the last move
  //   and with every point even on a board too big for a terminal; on DOT boards, which
  //   `tanbo show` lists as roots (at most 40 stones of 60 roots), every root with all its
  //   stones (render_roots without limits);
  //   last line: "Black to play" or "White won", then "; out: Red, Blue" for the players out
  //   (resigned or left without stones), if any.
  // The one pair the text does not tell apart: two DOT boards of one file name whose graphs
  // differ (same_board tells them apart) with the same stones on points of the same names.
  std::string to_string() const {
    std::string out = spec() + ", " + std::to_string(num_players()) + " players\n";
    if (topo().kind == BoardKind::kFile) {
      out += render_roots(pos(), SIZE_MAX, 0);
    } else {
      RenderOptions options;
      options.mark_last = false;  // the last move is history, not position
      options.full = true;
      out += render_board(pos(), options);
    }
    out += pos().is_over() ? player_title(pos().winner()) + " won"
                           : player_title(pos().to_move()) + " to play";
    std::string out_players;
    for (Player p = 1; p <= pos().num_players(); ++p) {
      if (pos().is_out(p)) out_players += (out_players.empty() ? "" : ", ") + player_title(p);
    }
    if (!out_players.empty()) out += "; out: " + out_players;
    return out;
  }
  // str(): to_string(), or repr()'s words for a game __init__ never made (str() of any object
  // should give a text, as a debugger or a log calls it).
  std::string str() const { return initialised() ? to_string() : repr(); }
  // OpenSpiel's ObservationString(player): the game is of perfect information, so every player
  // observes the whole position, to_string(). `player` from 0 (None: the side to move, as
  // observation_tensor).
  std::string observation_string(std::optional<int> player) const {
    if (player) check_player_index(*player);
    return to_string();
  }

  // ---- OpenSpiel's spelling: players from 0, actions are vertex ids
  int current_player() const { return pos().is_over() ? kTerminal : pos().to_move() - 1; }
  // Zero-sum returns, as OpenSpiel's n-player zero-sum games give them (games/pig): +1 for the
  // winner and -1/(n-1) for each other player, so [-1, 1] with two players and [-0.5, 1, -0.5]
  // with three; 0 for all while the game goes on. (The winner is the library's: the one player
  // left.)
  std::vector<double> returns() const {
    std::vector<double> out(static_cast<std::size_t>(pos().num_players()), 0.0);
    if (!pos().is_over()) return out;
    const double loss = -1.0 / static_cast<double>(out.size() - 1);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = i + 1 == pos().winner() ? 1.0 : loss;
    return out;
  }
  // OpenSpiel's PlayerReturn: returns()[player], player from 0 (nothing else is a player here).
  double player_return(int player) const {
    check_player_index(player);
    return returns()[static_cast<std::size_t>(player)];
  }
  // A list built in place: this is the inner loop of Python's random games. As OpenSpiel's
  // LegalActions(player): [] for any player but the side to move, OpenSpiel's special ids
  // (check_player_id) included, and for everyone once the game is over.
  py::list legal_actions(std::optional<std::int64_t> player) const {
    if (player && *player != current_player()) {
      check_player_id(*player);
      return py::list();
    }
    if (pos().is_over()) return py::list();
    const std::vector<Vertex> moves = pos().legal_moves(pos().to_move());
    py::list out(moves.size());
    for (std::size_t i = 0; i < moves.size(); ++i) {
      PyList_SET_ITEM(out.ptr(), static_cast<py::ssize_t>(i), PyLong_FromUnsignedLong(moves[i]));
    }
    return out;
  }
  py::array_t<bool> legal_actions_mask(std::optional<int> player) const {
    py::array_t<bool> out(static_cast<py::ssize_t>(topo().num_vertices()));
    bool* data = out.mutable_data();
    std::fill(data, data + topo().num_vertices(), false);
    if (!player || *player == current_player()) {
      for (Vertex v : legal_move_ids()) data[v] = true;  // none once the game is over
    } else {
      check_player_id(*player);
    }
    return out;
  }
  // A point's name. `player`, when given, must be one of legal_actions' (check_player_id); as
  // in OpenSpiel, the name does not depend on it (a point is named alike for everyone).
  std::string action_to_string(std::optional<std::int64_t> player, std::int64_t action) const {
    if (player) check_player_id(*player);
    check_action(action);
    return topo().name(static_cast<Vertex>(action));
  }
  // The vertex id of a legal move of the side to move, from its name: as OpenSpiel's
  // StringToAction, which matches the text against the legal actions of the current player
  // (whatever `player` is) and fails otherwise. Names are read as everywhere in the module
  // (Topology::parse_vertex: any case, spaces around ignored, "x,y" coordinates on lattices);
  // text that names no point gets parse_vertex's refusal, and a point that is not a legal move
  // a refusal naming it and saying why (the rules' explanation, or the game is over).
  Vertex string_to_action(std::optional<std::int64_t> player, const std::string& name) const {
    if (player) check_player_id(*player);
    const Vertex v = topo().need_vertex(name);
    if (pos().is_over()) {
      throw Error(topo().name(v) +
                  " is not a legal move, the game is over: " + result_text(game()));
    }
    if (const std::string why = pos().explain(pos().to_move(), v); !why.empty()) {
      throw Error(topo().name(v) + " is not a legal move: " + why);
    }
    return v;
  }
  // A game ends within (roots x points) turns (docs/solved.md, "No repetitions"): each turn
  // adds a stone or removes a root, roots never appear, and stones never outnumber the points.
  std::uint64_t max_game_length() const {
    return std::uint64_t{pos().num_root_ids()} * topo().num_vertices();
  }
  // ---- the game so far, in OpenSpiel's terms
  // OpenSpiel's History(): the actions applied, in order, i.e. the stones played (vertex ids).
  // A resignation is no action (no apply_action makes it) and is left out: it is given by
  // resignations(), and by moves() in the module's own terms. Replaying history() from the
  // start with apply_action, each resignation made at its move_number, gives this game.
  std::vector<std::int64_t> history_ids() const {
    std::vector<std::int64_t> out;
    out.reserve(pos().history().size());
    for (const auto& rec : pos().history()) {
      if (rec.kind == MoveRecord::Kind::kPlace) out.push_back(std::int64_t{rec.vertex});
    }
    return out;
  }
  // OpenSpiel's FullHistory(): the same moves as `pair_type`(player from 0, action) each. The
  // moves are read before the first pair is made: making a Python object may run Python code (a
  // garbage collection's callbacks and finalisers, another thread's turn), which may play on or
  // replace this game, and the loop over the record then read freed memory.
  py::list full_history(const py::object& pair_type) const {
    std::vector<std::pair<int, std::int64_t>> moves;
    for (const auto& rec : pos().history()) {
      if (rec.kind == MoveRecord::Kind::kPlace) {
        moves.emplace_back(static_cast<int>(rec.player) - 1, std::int64_t{rec.vertex});
      }
    }
    py::list out;
    for (const auto& [player, action] : moves) out.append(pair_type(player, action));
    return out;
  }
  // The resignations, in order, as `resignation_type`(player from 0, move number): the player
  // resigned when that many moves of history() had been played (the move_number() it resigned
  // at). Several at one move number come in the order they were made.
  // (Read before the first one is made, as full_history.)
  py::list resignations(const py::object& resignation_type) const {
    std::vector<std::pair<int, std::int64_t>> found;
    std::int64_t moves = 0;
    for (const auto& rec : pos().history()) {
      if (rec.kind == MoveRecord::Kind::kPlace) {
        ++moves;
      } else {
        found.emplace_back(static_cast<int>(rec.player) - 1, moves);
      }
    }
    py::list out;
    for (const auto& [player, at] : found) out.append(resignation_type(player, at));
    return out;
  }
  // OpenSpiel's MoveNumber(): the actions applied, len(history()) (ply counts resignations too).
  std::int64_t move_number() const {
    std::int64_t moves = 0;
    for (const auto& rec : pos().history()) moves += rec.kind == MoveRecord::Kind::kPlace;
    return moves;
  }
  // OpenSpiel's IsInitialState(): the game's start, no turn taken (a move or a resignation:
  // after a resignation on the first turn, history() is empty but the game is over).
  bool is_initial_state() const { return pos().ply() == 0; }
  // OpenSpiel's HistoryString(): history()'s ids joined by ", " ("" at the start).
  std::string history_str() const {
    std::string out;
    for (const std::int64_t a : history_ids()) {
      if (!out.empty()) out += ", ";
      out += std::to_string(a);
    }
    return out;
  }
  // OpenSpiel's InformationStateString(player) for a game of perfect information: the history
  // string, the same for every player (player: 0 .. n-1; None, the side to move or 0 once the
  // game is over, as observation_tensor). A resignation is no action, but a game where someone
  // resigned is another state than the same moves without it, so each resignation is written
  // in its place, as "resign P" (P from 0): the text is history_str() for any game without one.
  std::string information_state_string(std::optional<int> player) const {
    if (player) check_player_index(*player);
    std::string out;
    for (const auto& rec : pos().history()) {
      if (!out.empty()) out += ", ";
      out += rec.kind == MoveRecord::Kind::kPlace
                 ? std::to_string(rec.vertex)
                 : "resign " + std::to_string(static_cast<int>(rec.player) - 1);
    }
    return out;
  }
  // OpenSpiel's UndoAction(player, action): takes back the last turn, which must be `action`
  // (a vertex id) played by `player` (from 0). Anything else raises and changes nothing: no
  // turn yet, a last turn that was a resignation (undo() takes that back), or another move.
  void undo_action(std::int64_t player, std::int64_t action) {
    check_player_index(player);
    check_action(action);
    if (pos().ply() == 0) throw Error("no move to take back: the game is at its start");
    const MoveRecord& last = pos().last_move();
    const std::string asked = player_title(static_cast<Player>(player + 1)) + " at " +
                              topo().name(static_cast<Vertex>(action)) + " (player " +
                              std::to_string(player) + ", action " + std::to_string(action) + ")";
    if (last.kind == MoveRecord::Kind::kResign) {
      throw Error("the last turn was " + player_title(last.player) + "'s resignation, not a move " +
                  "of " + asked + ": undo() takes it back");
    }
    if (last.player != player + 1 || last.vertex != action) {
      throw Error("the last move was " + player_title(last.player) + " at " +
                  topo().name(last.vertex) + " (player " + std::to_string(last.player - 1) +
                  ", action " + std::to_string(last.vertex) + "), not " + asked);
    }
    session().take_back(1);
  }
  // Whether `other` is on the same board (tanbo::same_board: DOT boards by their graphs).
  bool same_board(const PyGame& other) const { return tanbo::same_board(topo(), other.topo()); }
  // Value equality of positions: the same board, players, stones, side to move and players out.
  bool same_position(const PyGame& other) const {
    if (!same_board(other) || num_players() != other.num_players() ||
        pos().to_move() != other.pos().to_move() || pos().hash() != other.pos().hash())
      return false;
    for (Player p = 1; p <= pos().num_players(); ++p) {
      if (pos().is_out(p) != other.pos().is_out(p)) return false;
    }
    for (Vertex v = 0; v < topo().num_vertices(); ++v) {
      if (pos().at(v) != other.pos().at(v)) return false;
    }
    return true;
  }
  std::size_t position_hash() const {
    std::size_t h = std::hash<std::string>{}(spec()) ^ static_cast<std::size_t>(pos().hash());
    for (Player p = 1; p <= pos().num_players(); ++p) h = h * 31 + (pos().is_out(p) ? 1 : 0);
    return h;
  }

  // The planes of observation_tensor, written to `data`, which holds (players + 2) x points
  // floats: plane k (0 <= k < players) the stones of player (player + k) mod players, i.e.
  // the players in seat order starting from `player` (its own stones first); a player who is
  // out keeps its plane, empty, so that a plane always stands for the same seat (it is not
  // the order of the turns, which skips the players out). Then the empty points, and a plane of
  // ones when `player` is to move.
  void write_observation(std::optional<int> player, float* data) const {
    const int n_players = pos().num_players();
    const int me = player ? *player : std::max(current_player(), 0);
    check_player_index(me);
    const std::size_t n = topo().num_vertices();
    std::fill(data, data + (n_players + 2) * n, 0.0f);
    for (Vertex v = 0; v < n; ++v) {
      const int at = pos().at(v);
      const int plane = at == kEmpty ? n_players : (at - 1 - me + n_players) % n_players;
      data[plane * n + v] = 1.0f;
    }
    if (current_player() == me)
      std::fill(data + (n_players + 1) * n, data + (n_players + 2) * n, 1.0f);
  }
  // An array of `planes` planes of the board's shape (by vertex; lattices: the last axis first).
  std::vector<py::ssize_t> planes_shape(int planes) const {
    std::vector<py::ssize_t> shape{planes};
    if (topo().kind == BoardKind::kLattice) {
      for (std::size_t i = topo().dims.size(); i-- > 0;) shape.push_back(topo().dims[i]);
    } else {
      shape.push_back(topo().num_vertices());
    }
    return shape;
  }
  py::array_t<float> observation_tensor(std::optional<int> player) const {
    py::array_t<float> out(planes_shape(num_players() + 2));
    write_observation(player, out.mutable_data());
    return out;
  }

  // `path` when it is not empty: the library shows an empty name as nothing at all (": cannot
  // open"), so `call` refuses it here by name.
  static const std::string& named_file(const std::string& path, const char* call) {
    if (path.empty()) throw Error(std::string(call) + "(): the path is empty: give a file name");
    return path;
  }

  // The refusal of a number of players, given as text (int_argument).
  static std::string not_a_player_count(const std::string& players) {
    return "a game needs 2 to " + std::to_string(kMaxPlayers) + " players, not " + players +
           " (None: the setup's number)";
  }
  // A number of players as Game() and setups() take it: 2 to kMaxPlayers, or None (0: the
  // setup's own number).
  static int checked_players(std::optional<int> players) {
    if (players && (*players < 2 || *players > kMaxPlayers)) {
      throw Error(not_a_player_count(std::to_string(*players)));
    }
    return players.value_or(0);
  }
  // The refusals of a 0-based player number and of a vertex id out of range, given as text
  // (so that a Python integer too big for C++ is shown as it was given).
  std::string not_a_player_index(const std::string& player) const {
    return "player " + player + " is not a player of this " + std::to_string(pos().num_players()) +
           "-player game (0 to " + std::to_string(pos().num_players() - 1) + ")";
  }
  // The refusal of a player given to legal_actions and the like, which also take OpenSpiel's
  // special ids (check_player_id). Holds not_a_player_index's "(0 to n-1)".
  std::string not_a_player_id(const std::string& player) const {
    return not_a_player_index(player) + " nor one of OpenSpiel's special player ids (" +
           std::to_string(kLowestSpecialPlayer) + " to -1)";
  }
  std::string not_a_player(const std::string& player) const {  // (1-based)
    return "player " + player + " is not a player of this " + std::to_string(pos().num_players()) +
           "-player game";
  }
  std::string not_a_point_id(const std::string& id) const {
    return "move id " + id + " is not a point of this board (0 to " +
           std::to_string(topo().num_vertices() - 1) + ")";
  }

 private:
  // A 0-based player number, as OpenSpiel's methods take it.
  void check_player_index(std::int64_t player) const {
    if (player < 0 || player >= pos().num_players())
      throw Error(not_a_player_index(std::to_string(player)));
  }
  // A player as OpenSpiel's LegalActions(player), LegalActionsMask(player) and
  // ActionToString(player, action) take it: 0 .. n-1, or one of its special ids
  // (kLowestSpecialPlayer .. -1), for which there is never an action here.
  void check_player_id(std::int64_t player) const {
    if (player < kLowestSpecialPlayer || player >= pos().num_players())
      throw Error(not_a_player_id(std::to_string(player)));
  }
  void check_action(std::int64_t id) const {
    if (id < 0 || id >= static_cast<std::int64_t>(topo().num_vertices()))
      throw Error(not_a_point_id(std::to_string(id)));
  }
  std::vector<std::string> names_of(const std::vector<Vertex>& vs) const {
    std::vector<std::string> out;
    out.reserve(vs.size());
    for (Vertex v : vs) out.push_back(topo().name(v));
    return out;
  }
  void check_player(int player) const {
    if (player < 1 || player > pos().num_players())
      throw Error(not_a_player(std::to_string(player)));
  }
  static std::string player_text(Player p) { return std::string(player_name(p)); }
  static std::string checked_setup(const std::optional<std::string>& setup) {
    if (setup && setup->empty()) {
      throw Error("setup \"\" is not a setup: give its name, or None for the board's default");
    }
    return setup.value_or("default");
  }

  Session& session() const {
    if (!session_) {
      throw Error(
          "this tanbo.Game was never initialised (Game.__new__ without __init__): make games "
          "with tanbo.Game(...), tanbo.load or tanbo.loads");
    }
    return *session_;
  }

  std::unique_ptr<Session> session_;  // null only in a game __init__ never made (operator new)
};

}  // namespace tanbo::python

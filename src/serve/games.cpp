#include "games.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <random>

#include "tanbo/ai/mcts.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/core/topology.hpp"
#include "tanbo/io/gamefile.hpp"
#include "tanbo/platform/memory.hpp"

namespace tanbo::serve {

namespace {

[[noreturn]] void refuse(int status, const std::string& message) {
  throw ApiError{status, message};
}

const Json& need_object(const Json& request) {
  if (!request.is_object()) refuse(400, "the body must be a JSON object");
  return request;
}

// A string field: nullopt when absent (and not `required`), 400 when of another type.
std::optional<std::string> string_field(const Json& o, const char* key, bool required) {
  const auto it = o.find(key);
  if (it == o.end() || it->is_null()) {
    if (required) refuse(400, std::string("the body needs \"") + key + "\"");
    return std::nullopt;
  }
  if (!it->is_string()) refuse(400, std::string("\"") + key + "\" must be a string");
  return it->get<std::string>();
}

std::vector<std::string> string_list(const Json& o, const char* key, bool required) {
  const auto it = o.find(key);
  if (it == o.end() || it->is_null()) {
    if (required) refuse(400, std::string("the body needs \"") + key + "\"");
    return {};
  }
  if (!it->is_array()) refuse(400, std::string("\"") + key + "\" must be a list of strings");
  std::vector<std::string> out;
  for (const Json& e : *it) {
    if (!e.is_string()) refuse(400, std::string("\"") + key + "\" must be a list of strings");
    out.push_back(e.get<std::string>());
  }
  return out;
}

// A player's name (spaces at either end taken off, as a game file reads it): 1 to 40
// characters (UTF-8), none of them a control character (C0, DEL or C1: has_control_characters).
void check_name(const std::string& name) {
  if (has_control_characters(name)) {
    refuse(400, "the name " + quote_input(name) + " holds a control character");
  }
  const std::size_t chars =
      static_cast<std::size_t>(std::count_if(name.begin(), name.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
      }));
  if (chars < 1 || chars > 40) {
    refuse(400, "the name " + quote_input(name) + " must have 1 to 40 characters");
  }
  if (!is_utf8(name)) refuse(400, "the name " + quote_input(name) + " is not UTF-8 text");
  if (!has_visible_character(name)) {
    refuse(400, "the name " + quote_input(name) +
                    " shows nothing: it holds only spaces or characters without a glyph");
  }
  if (has_direction_controls(name)) {
    refuse(400, "the name " + quote_input(name) +
                    " holds a character that changes the direction of text (U+202E and the "
                    "like), which would show it other than it is written");
  }
}

// What an engine seat a client asks for may cost: its search runs on one of the server's
// engine threads (--engine-threads) and holds it while it thinks, so a spec may not add
// threads, nor think for longer than kMoveSeconds a move (an hour a game), nor run more than
// ten million playouts or solver nodes a move. "mcts" specs are the ones with such options.

void check_engine_spec(const std::string& spec) {
  if (to_lower(spec).rfind("mcts:", 0) != 0) return;
  const MctsConfig c = parse_mcts_options(std::string_view(spec).substr(5));
  const auto over = [&](const std::string& what) {
    refuse(400, "the engine " + quote_input(spec) + " asks for " + what +
                    "; an engine seat of this server thinks on one thread, for at most " +
                    std::to_string(kMoveSeconds) +
                    " s a move, 3600 s a game and 10,000,000 playouts or solver nodes a move");
  };
  if (c.threads != 1) over(std::to_string(c.threads) + " threads");
  if (c.move_seconds > kMoveSeconds) {
    over("more than " + std::to_string(kMoveSeconds) + " s a move");
  }
  if (c.game_seconds > 3600) over("more than 3600 s a game");
  if (c.playouts > 10'000'000) over("more than 10,000,000 playouts");
  if (c.solver_nodes > 10'000'000) over("more than 10,000,000 solver nodes");
}

std::int64_t now_micros() {
  using namespace std::chrono;
  return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
}

// Whether a topology is DOT text (a board given whole) rather than a spec.
bool is_dot_text(const std::string& topology) {
  const std::string head = to_lower(trim(topology).substr(0, 8));
  return head.rfind("graph", 0) == 0 || head.rfind("digraph", 0) == 0 ||
         head.rfind("strict", 0) == 0;
}

// The board of a request, refused before it is built when it has more than `max_points`.
TopologyPtr make_board(const std::string& topology, std::uint64_t max_points) {
  // As parse_topology reads the spec: words split at any blank, so that "\vfile PATH" (a
  // vertical tab first, which trim() keeps) is a file spec here too.
  if (is_file_spec(topology)) {
    refuse(400, "the server reads no files: " + quote_input(topology) +
                    " is refused (send the DOT text itself as the topology)");
  }
  TopologyLimits limits;
  limits.max_vertices = max_points;
  // (a DOT board of 8,802 points can have 19 million edges in 44 KB of text; a lattice of up
  // to 16 axes has at most 16 edges a point)
  limits.max_edges = 16 * max_points;
  limits = process_limits(limits);  // and the memory the process may use
  // Whatever a spec says, no file is read: a "file" board is refused by the parser itself.
  limits.read_dot_file = nullptr;
  try {
    return is_dot_text(topology) ? make_from_dot(topology, "board", limits)
                                 : parse_topology(topology, limits);
  } catch (const Error& e) {
    refuse(400, e.what());  // a board too big says "at most N points are supported"
  }
}

// The link of seat `seat` (0-based) of a game.
std::string seat_url(const LiveGame& g, std::size_t seat) {
  return "/games/" + g.id + "?seat=" + g.tokens.at(seat);
}

int http_status(TurnStatus s) {
  switch (s) {
    case TurnStatus::kNotAPoint:
    case TurnStatus::kIllegal:
      return 422;
    default:
      return 409;
  }
}

}  // namespace

Games::Games(Store& store, GamesOptions options) : store_(store), options_(options) {
  options_.in_memory = std::max<std::size_t>(1, options_.in_memory);
  try {
    // A damaged page stops the start, as it did when every game was read back here. Only a
    // game with an engine seat can go on by itself; the others are read back when someone
    // asks for them, as any game past --games-in-memory is.
    store_.check_pages();
    for (const std::string& id : store_.engine_game_ids()) {
      std::lock_guard lock(games_mutex_);
      load(id);
    }
  } catch (const Error& e) {
    // (SQLite's own message names no file, nor what to do about a damaged one)
    std::string why = e.what();
    if (why.find("malformed") != std::string::npos) {
      why += "; `sqlite3 FILE .recover` writes out what can still be read, as SQL";
    }
    throw Error("cannot read the games of the database " + shown_name(store_.path()) + ": " + why);
  }
  // The pool starts once nothing can throw any more (a constructor that throws runs no
  // destructor, and would leave the threads unjoined).
  const int threads = std::max(1, options_.engine_threads);
  for (int i = 0; i < threads; ++i) pool_.emplace_back([this] { engine_worker(); });
  watch_ = std::thread([this] { watch_engines(); });
}

Games::~Games() {
  {
    std::lock_guard lock(pool_mutex_);
    stopping_ = true;
    for (const auto& thinking : thinking_) thinking.first->stop();
  }
  pool_wake_.notify_all();
  watch_wake_.notify_all();
  wake_all();
  for (std::thread& t : pool_) t.join();
  watch_.join();
}

std::shared_ptr<LiveGame> Games::restore(StoredGame&& s) const {
  try {
    Game game = game_from_text(s.start, "stored game " + s.id);
    const int players = game.position.num_players();
    if (s.specs.size() != static_cast<std::size_t>(players) || s.tokens.size() != s.specs.size()) {
      throw Error("it has " + std::to_string(s.specs.size()) + " seats for " +
                  std::to_string(players) + " players");
    }
    for (std::size_t i = 0; i < s.turns.size(); ++i) {
      const StoredTurn& t = s.turns[i];
      if (t.ply != static_cast<std::int64_t>(i) + 1 || t.player < 1 || t.player > players) {
        throw Error("its turn " + std::to_string(i + 1) + " is damaged (ply " +
                    std::to_string(t.ply) + ", player " + std::to_string(t.player) + ")");
      }
      const auto p = static_cast<Player>(t.player);
      if (t.point.empty()) {
        game.position.resign(p);
      } else {
        game.position.play_checked(p, game.position.topology().need_vertex(t.point));
      }
    }
    auto g = std::make_shared<LiveGame>();
    std::vector<Seat> seats;
    for (const std::string& spec : s.specs) seats.push_back(make_seat(spec, s.seed));
    g->id = s.id;
    g->created = s.created;
    g->specs = std::move(s.specs);
    g->tokens = std::move(s.tokens);
    g->next = std::move(s.next);
    g->session = std::make_unique<Session>(std::move(game), std::move(seats));
    return g;
  } catch (const Error& e) {
    std::cerr << "tanbo serve: game " << s.id << " left out: " << e.what() << "\n";
    return nullptr;
  }
}

void Games::keep(const std::shared_ptr<LiveGame>& g) {
  if (const auto it = games_.find(g->id); it != games_.end()) {
    recent_.splice(recent_.begin(), recent_, it->second.recent);
  } else {
    recent_.push_front(g->id);
    games_.emplace(g->id, Kept{g, recent_.begin()});
  }
  // A game nothing else holds (no request, stream or engine: only this table) can be read
  // back from the database whenever it is asked for; the others stay.
  for (auto it = std::prev(recent_.end());
       games_.size() > options_.in_memory && it != recent_.begin();) {
    const auto kept = games_.find(*it);
    const auto older = std::prev(it);
    if (kept->second.game.use_count() == 1) {
      games_.erase(kept);
      recent_.erase(it);
    }
    it = older;
  }
  most_in_memory_ = std::max(most_in_memory_, games_.size());
}

std::uint64_t Games::size() {
  return store_.count();
}

std::size_t Games::most_in_memory() const {
  std::lock_guard lock(games_mutex_);
  return most_in_memory_;
}

std::shared_ptr<LiveGame> Games::load(const std::string& id) {
  std::optional<StoredGame> stored = store_.load_game(id);
  if (!stored) return nullptr;
  std::shared_ptr<LiveGame> g = restore(std::move(*stored));
  if (!g) return nullptr;
  {
    std::lock_guard game_lock(g->mutex);
    after_change(g);  // an engine to move is queued, which keeps the game in memory
  }
  keep(g);
  return g;
}

std::shared_ptr<LiveGame> Games::find(const std::string& id) {
  std::lock_guard lock(games_mutex_);
  if (const auto it = games_.find(id); it != games_.end()) {
    std::shared_ptr<LiveGame> g = it->second.game;
    keep(g);
    return g;
  }
  return load(id);
}

Json Games::create(const Json& request) {
  need_object(request);
  const std::string topology = *string_field(request, "topology", true);
  const std::string setup = string_field(request, "setup", false).value_or("default");
  const std::vector<std::string> players = string_list(request, "players", true);
  const std::vector<std::string> given_names = string_list(request, "names", false);
  if (players.size() < 2 || players.size() > static_cast<std::size_t>(kMaxPlayers)) {
    refuse(400, "\"players\" must list 2 to 8 players (\"human\" or an engine spec)");
  }
  if (given_names.size() > players.size()) refuse(400, "more names than players");
  std::vector<std::string> names;
  for (const std::string& n : given_names) names.push_back(trim(n, " "));  // (as a file reads it)
  for (const std::string& n : names) check_name(n);
  refuse_while_engines_busy(players);
  const TopologyPtr board = make_board(topology, options_.max_points);
  const std::shared_ptr<LiveGame> g = start_game(board, setup, players, names, "");
  Json seats_json = Json::array();
  {
    std::lock_guard lock(g->mutex);
    const Json state = state_json(*g);
    for (std::size_t i = 0; i < players.size(); ++i) {
      seats_json.push_back({{"color", state["players"][i]["color"]},
                            {"name", state["players"][i]["name"]},
                            {"kind", players[i]},
                            {"token", g->tokens[i]},
                            {"url", seat_url(*g, i)}});
    }
  }
  return {{"id", g->id}, {"url", "/games/" + g->id}, {"seats", std::move(seats_json)}};
}

std::shared_ptr<LiveGame> Games::start_game(const TopologyPtr& board, const std::string& setup,
                                            const std::vector<std::string>& players,
                                            const std::vector<std::string>& names,
                                            const std::string& previous) {
  auto g = std::make_shared<LiveGame>();
  StoredGame stored;
  stored.seed = std::random_device{}();
  std::vector<Seat> seats;
  try {
    for (const std::string& p : players) {
      check_engine_spec(p);
      seats.push_back(make_seat(p, stored.seed));
    }
    Game game = new_game(board, setup, static_cast<int>(players.size()), names);
    stored.start = write_game(game);
    g->session = std::make_unique<Session>(std::move(game), std::move(seats));
  } catch (const Error& e) {
    refuse(400, e.what());
  }
  stored.id = g->id = random_id(12);
  stored.created = g->created = now_micros();
  stored.specs = g->specs = players;
  for (std::size_t i = 0; i < players.size(); ++i) g->tokens.push_back(random_token());
  stored.tokens = g->tokens;
  stored.previous = previous;
  {
    // Stored and kept under one lock: a find() in between would read the game back from the
    // database as a second copy.
    std::lock_guard lock(games_mutex_);
    try {
      store_.add_game(stored);
    } catch (const Error& e) {
      refuse(503, e.what());
    }
    keep(g);
  }
  std::lock_guard lock(g->mutex);
  after_change(g);
  return g;
}

std::pair<int, Json> Games::rematch(const std::shared_ptr<LiveGame>& game, const Json& request) {
  LiveGame& g = *game;
  need_object(request);
  const Player as = seat_of(g, request);
  // What the rematch is made of, read under the game's lock; the game is started without it
  // (starting takes the lock of the games in memory, which is taken before a game's).
  TopologyPtr board;
  std::string setup;
  std::vector<std::string> specs = g.specs;
  std::vector<std::string> names;
  std::string next;  // the rematch's id, when a seat has started it already
  {
    std::unique_lock lock(g.mutex);
    g.changed.wait(lock, [&] { return !g.rematching; });
    next = g.next;
    if (next.empty()) {
      const Position& pos = g.session->position();
      if (!pos.is_over()) refuse(409, "the game is not over: a rematch starts once it has ended");
      g.rematching = true;
      board = pos.topology_ptr();
      setup = pos.setup().name;
      names = g.session->game().names;
    }
  }
  const bool started = next.empty();
  if (started) {
    // Each player takes the next colour (in two players, Black and White change places).
    std::rotate(specs.rbegin(), specs.rbegin() + 1, specs.rend());
    names.resize(specs.size());
    std::rotate(names.rbegin(), names.rbegin() + 1, names.rend());
    try {
      refuse_while_engines_busy(specs);
      next = start_game(board, setup, specs, names, g.id)->id;
    } catch (...) {
      std::lock_guard lock(g.mutex);
      g.rematching = false;
      g.changed.notify_all();
      throw;
    }
    std::lock_guard lock(g.mutex);
    g.rematching = false;
    g.next = next;
    after_change(game);
  }
  return {started ? 201 : 200,
          {{"id", next}, {"url", "/games/" + next}, {"seat_url", next_seat_url(g, as)}}};
}

std::string Games::next_seat_url(LiveGame& g, Player as) {
  std::string next;
  {
    std::lock_guard lock(g.mutex);
    next = g.next;
  }
  if (next.empty()) return "";
  const std::shared_ptr<LiveGame> rematch = find(next);
  if (!rematch || rematch->tokens.size() != g.tokens.size()) return "";
  // (a game's tokens never change once it is made)
  return seat_url(*rematch, static_cast<std::size_t>(as) % g.tokens.size());
}

Json Games::setups(const std::string& topology, const std::optional<std::string>& players) const {
  int count = 0;
  if (players) {
    const std::string& p = *players;
    if (p.size() != 1 || p[0] < '2' || p[0] > '0' + kMaxPlayers) {
      refuse(400, "players " + quote_input(p) + " is not a number of players (2 to " +
                      std::to_string(kMaxPlayers) + ")");
    }
    count = p[0] - '0';
  }
  const TopologyPtr board = make_board(topology, options_.max_points);
  const StartingSetups fit = starting_setups(board, count);
  return {{"topology", board->spec},
          {"players", count ? Json(count) : Json(nullptr)},
          {"default", fit.by_default.empty() ? Json(nullptr) : Json(fit.by_default)},
          {"setups", fit.names}};
}

Json Games::list(std::size_t limit) {
  Json games = Json::array();
  for (const std::string& id : store_.newest_ids(limit)) {
    const std::shared_ptr<LiveGame> g = find(id);
    if (!g) continue;  // a stored game that no longer replays
    std::lock_guard lock(g->mutex);
    games.push_back(summary_json(*g));
  }
  return {{"games", std::move(games)}};
}

Player seat_of_token(const LiveGame& g, const std::string& token) {
  Player seat = 0;
  for (std::size_t i = 0; i < g.tokens.size(); ++i) {
    if (same_secret(token, g.tokens[i])) seat = static_cast<Player>(i + 1);
  }
  if (seat == 0) refuse(403, "this token is not a seat of this game");
  return seat;
}

Player Games::seat_of(const LiveGame& g, const Json& request) const {
  return seat_of_token(g, *string_field(request, "seat", true));
}

std::string Games::move(const std::shared_ptr<LiveGame>& game, const Json& request) {
  LiveGame& g = *game;
  need_object(request);
  const std::string point = *string_field(request, "point", true);
  std::optional<std::uint32_t> seen;
  if (const auto it = request.find("ply"); it != request.end() && !it->is_null()) {
    if (!it->is_number_unsigned() || it->get<std::uint64_t>() > 0xFFFFFFFFu) {
      refuse(400, "\"ply\" must be a number of turns (0 or more)");
    }
    seen = it->get<std::uint32_t>();
  }
  const Player as = seat_of(g, request);
  std::unique_lock lock(g.mutex);
  Session& s = *g.session;
  if (seen && *seen != s.ply()) {
    refuse(409, "the game is at ply " + std::to_string(s.ply()) + ", not " + std::to_string(*seen) +
                    ": reload it");
  }
  const Topology& t = s.position().topology();
  const auto v = t.parse_vertex(point);
  const TurnResult r = s.check(as, v ? *v : t.num_vertices());
  if (!r.done()) {
    refuse(http_status(r.status),
           r.status == TurnStatus::kNotAPoint ? t.not_a_point(point) : r.message);
  }
  try {
    store_.add_turn(g.id, s.ply() + 1, {as, t.name(*v)});
  } catch (const Error& e) {
    refuse(503, e.what());
  }
  s.play(as, *v);
  after_change(game);
  return state_text(g);
}

std::string Games::resign(const std::shared_ptr<LiveGame>& game, const Json& request) {
  LiveGame& g = *game;
  need_object(request);
  const Player as = seat_of(g, request);
  std::unique_lock lock(g.mutex);
  Session& s = *g.session;
  const TurnResult r = s.check_resign(as);
  if (!r.done()) refuse(409, r.message);
  try {
    store_.add_turn(g.id, s.ply() + 1, {as, ""});
  } catch (const Error& e) {
    refuse(503, e.what());
  }
  s.resign(as);
  after_change(game);
  return state_text(g);
}

void Games::wake_all() {
  std::lock_guard lock(games_mutex_);
  for (const auto& [id, kept] : games_) {
    std::lock_guard game_lock(kept.game->mutex);
    kept.game->changed.notify_all();
  }
}

}  // namespace tanbo::serve

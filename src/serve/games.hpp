// The games a server holds: each a tanbo::Session under a lock of its own, stored in the
// database turn by turn (store first, then played), with engine seats played on a bounded
// pool of threads. Memory holds at most GamesOptions::in_memory games that nothing is using
// (the ones used last); any other game is read back from the database when it is asked for.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <list>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "store.hpp"
#include "tanbo/session/session.hpp"

namespace tanbo::serve {

using Json = nlohmann::json;

// A refusal with the HTTP status it gets and the reason (the body {"error": message}).
struct ApiError {
  int status;
  std::string message;
};

// An engine's move the database refused, stored at the next try while the game is where it was.
struct UnstoredMove {
  std::uint32_t ply = 0;
  std::uint64_t hash = 0;
  Vertex vertex = kNoVertex;
};

// One game being served.
struct LiveGame {
  std::string id;
  std::int64_t created = 0;
  std::vector<std::string> specs;   // per seat
  std::vector<std::string> tokens;  // per seat (secret)
  std::unique_ptr<Session> session;

  std::mutex mutex;                            // guards everything below and the session
  std::condition_variable changed;             // notified on every change of the game
  bool engine_queued = false;                  // waiting for or running on the engine pool
  int engine_failures = 0;                     // engine moves in a row the store refused
  std::optional<UnstoredMove> unstored;        // the last of them
  std::string next;                            // the id of its rematch, once one is started
  bool rematching = false;                     // a rematch is being started (outside the lock)
  std::string state_text;                      // the latest state as JSON text (state_text())
  std::optional<std::uint64_t> state_version;  // the version() it was written for

  // Counts every change a state shows: each turn (the session's version) and the rematch.
  std::uint64_t version() const { return 2 * session->version() + (next.empty() ? 0 : 1); }
};

// The longest an engine seat thinks about a move: a spec asking for more is refused, and the
// engine watch (watch_engines) stops a search that goes on longer, as one of playouts alone,
// which has no time limit of its own, can on a big board.
inline constexpr int kMoveSeconds = 60;

// How long an engine turn whose move the database did not take waits before it is tried again.
inline constexpr auto kEngineRetry = std::chrono::seconds(3);

// The seat (player from 1) whose token is `token`, compared in constant time with every seat's
// (same_secret); throws ApiError 403 "this token is not a seat of this game" otherwise.
Player seat_of_token(const LiveGame& g, const std::string& token);

struct GamesOptions {
  std::uint64_t max_points = 20000;
  int engine_threads = 1;
  // Games kept in memory while no request, event stream or engine uses them (at least 1).
  std::size_t in_memory = 1000;
};

class Games {
 public:
  // Replays every stored game with an engine seat through the rules (one at a time: a game that
  // no longer replays is reported on stderr and left out), keeps the newest in memory and starts
  // the engine pool; games waiting for an engine resume. Games of people alone are replayed
  // when asked for. Throws tanbo::Error when the store cannot be read.
  Games(Store& store, GamesOptions options);
  ~Games();  // stops the engines (asks each thinking one to stop) and joins the pool
  Games(const Games&) = delete;
  Games& operator=(const Games&) = delete;

  // POST /api/games: the 201 answer, or throws ApiError.
  Json create(const Json& request);
  // The game (read from the database when it is not in memory), or nullptr.
  std::shared_ptr<LiveGame> find(const std::string& id);
  // GET /api/games: the newest games, at most `limit`.
  Json list(std::size_t limit = 50);
  // GET /api/setups?topology=T&players=N: the setups that start a game on board T for N players
  // (`players` not given: for any count a setup seats), the one a game gets for "default"
  // first; throws ApiError 400 for a board POST /api/games refuses or N that is not 2 to 8.
  Json setups(const std::string& topology, const std::optional<std::string>& players) const;
  // POST /api/games/ID/rematch: the next game of the same board, setup and seats, each player
  // taking the next colour, with the asking seat's link in it, and its status (201; 200 when a
  // seat started it already); throws ApiError (403 not a seat, 409 the game is not over, and
  // as create).
  std::pair<int, Json> rematch(const std::shared_ptr<LiveGame>& g, const Json& request);
  // The link of seat `as` of g (1-based) in g's rematch ("/games/ID?seat=TOKEN"), "" while it
  // has none. Call without g's lock.
  std::string next_seat_url(LiveGame& g, Player as);
  // POST /api/games/ID/moves and /resign: the new state (JSON text), or throws ApiError.
  std::string move(const std::shared_ptr<LiveGame>& g, const Json& request);
  std::string resign(const std::shared_ptr<LiveGame>& g, const Json& request);
  // Wakes every event stream (at shutdown).
  void wake_all();
  bool stopping() const { return stopping_; }
  std::uint64_t size();                // games stored
  std::size_t most_in_memory() const;  // the most games memory held at once, after forgetting

 private:
  // Puts a game in memory as the one used last, then forgets the games used least recently
  // that nothing uses, down to options_.in_memory. Under games_mutex_ (exclusive).
  void keep(const std::shared_ptr<LiveGame>& g);
  // Starts, stores and keeps a game of these seats (checked but for what new_game and the
  // engine specs refuse: 400; 503 when it cannot be stored), its engine queued when one is to
  // move; `previous`: the game it is the rematch of ("" for none).
  std::shared_ptr<LiveGame> start_game(const TopologyPtr& board, const std::string& setup,
                                       const std::vector<std::string>& players,
                                       const std::vector<std::string>& names,
                                       const std::string& previous);
  // The stored game replayed through the rules; nullptr (reported) when it does not replay.
  std::shared_ptr<LiveGame> restore(StoredGame&& s) const;
  // Reads game `id` from the database, replays it and keeps it, its engine queued when one is
  // to move; nullptr when no game has this id or it does not replay. Under games_mutex_.
  std::shared_ptr<LiveGame> load(const std::string& id);
  Player seat_of(const LiveGame& g, const Json& request) const;
  void after_change(const std::shared_ptr<LiveGame>& g);  // under g->mutex: notify, queue an engine
  // A game with an engine seat is refused (503) while --games-in-memory games wait for an
  // engine: games waiting for one stay in memory, so the queue bounds what they hold.
  void refuse_while_engines_busy(const std::vector<std::string>& players);
  void engine_worker();
  void engine_turn(const std::shared_ptr<LiveGame>& g);
  void watch_engines();

  Store& store_;
  GamesOptions options_;
  // The games in memory, and their ids from the one used last to the one used least recently.
  // A game is read from the database, kept and forgotten only under games_mutex_, so that a
  // game is never in memory twice.
  struct Kept {
    std::shared_ptr<LiveGame> game;
    std::list<std::string>::iterator recent;
  };
  mutable std::mutex games_mutex_;
  std::unordered_map<std::string, Kept> games_;
  std::list<std::string> recent_;
  std::size_t most_in_memory_ = 0;

  std::mutex pool_mutex_;
  std::condition_variable pool_wake_;
  std::deque<std::shared_ptr<LiveGame>> pool_queue_;
  // Engine turns whose move the database refused, and when each is queued again.
  std::vector<std::pair<std::shared_ptr<LiveGame>, std::chrono::steady_clock::time_point>> retry_;
  // Agents choosing now, with when they began: stopped at shutdown, and by the watch after
  // kMoveSeconds (a spec of playouts alone has no time limit of its own).
  std::vector<std::pair<Agent*, std::chrono::steady_clock::time_point>> thinking_;
  bool stopping_ = false;
  std::vector<std::thread> pool_;
  std::condition_variable watch_wake_;
  std::thread watch_;
};

// The state of a game after `ply` turns (the latest when nullopt), as GET /api/games/ID
// answers it. Called under g.mutex.
Json state_json(const LiveGame& g, std::optional<std::uint32_t> ply = std::nullopt);
// A game as GET /api/games lists it. Called under g.mutex.
Json summary_json(const LiveGame& g);
// The latest state as JSON text, written once per change of the game (the answers to a move
// and every event stream share it). Called under g.mutex.
const std::string& state_text(LiveGame& g);
// JSON text of `j` (invalid UTF-8 replaced, never thrown).
std::string json_text(const Json& j);
// A request's body as JSON, as every POST of the API reads it; throws ApiError 400 when it is
// not JSON or nests deeper than 32 levels.
Json parse_body(const std::string& body);
// GET /api/games/ID/export: the game as a file in `format`, "tanbo" (a game file) or "sgf";
// throws ApiError 400 for another format or a game SGF cannot hold. Called under g.mutex.
std::string export_text(const LiveGame& g, const std::string& format);
// GET /api/games/ID/board.
Json board_json(const Topology& t);
// Random url-safe text of `n` characters, and a 128-bit token in hex (std::random_device).
std::string random_id(std::size_t n);
std::string random_token();
// Whether two secrets are equal, in time that does not depend on where they differ.
bool same_secret(const std::string& a, const std::string& b);

}  // namespace tanbo::serve

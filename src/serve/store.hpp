// The server's database: SQLite in WAL mode. A game is stored as the game file of its start
// (board, setup, names, date) with its seats; every turn is one row written in a transaction
// of its own, so that a turn is either stored whole or not at all.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace tanbo::serve {

// One stored turn: the player, and the point played ("" for a resignation).
struct StoredTurn {
  int player = 0;
  std::string point;
  std::int64_t ply = 0;  // its number, from 1 (as read back; add_turn takes it apart)
};

// One stored game.
struct StoredGame {
  std::string id;
  std::int64_t created = 0;         // microseconds since the epoch: newest first
  std::string start;                // write_game's text of the game at its start
  std::vector<std::string> specs;   // per seat: "human" or an engine spec
  std::vector<std::string> tokens;  // per seat: its secret token (hex)
  std::uint64_t seed = 1;           // the engines' seed
  std::vector<StoredTurn> turns;    // in order (filled by load_game)
  std::string previous;             // the game this one is a rematch of ("" for none)
  std::string next;                 // the rematch of this game ("" for none; by load_game)
};

class Store {
 public:
  // Opens (creating when missing) the database file, refusing one that is read-only or that
  // another server uses (an flock(2) lock held until the end). `full_sync`: every commit is on the
  // disk before it returns (synchronous=FULL); otherwise (NORMAL) a commit is in the operating
  // system's hands, which a killed server cannot lose but a power cut can. Throws tanbo::Error
  // naming the file.
  Store(const std::string& path, bool full_sync);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // Stores a new game (its turns and `next` are not read), and with it, in one transaction,
  // that it is the rematch of g.previous when that is given (a game has one rematch at most).
  // Throws tanbo::Error; nothing is stored then, as when the file was deleted or replaced
  // while the server ran.
  void add_game(const StoredGame& g);
  // Stores turn number `ply` (1-based) of game `id`. Throws tanbo::Error when it cannot be
  // stored (then nothing is: the transaction is rolled back).
  void add_turn(const std::string& id, std::uint32_t ply, const StoredTurn& t);
  // Reads every page of the database (PRAGMA quick_check); throws tanbo::Error with SQLite's
  // words when one is damaged: far faster than reading every game back (a start on 20,000
  // games of 30 turns took 0.08 s against 2.3 s).
  void check_pages();
  // The ids of the games with an engine seat (a spec other than "human"), oldest first.
  std::vector<std::string> engine_game_ids();
  // The ids of the newest `limit` games, newest first.
  std::vector<std::string> newest_ids(std::size_t limit);
  // How many games are stored.
  std::uint64_t count();
  // One game with its turns in order, or nullopt when no game has this id.
  std::optional<StoredGame> load_game(const std::string& id);
  // The database file's name, as given.
  const std::string& path() const { return path_; }

 private:
  void exec(const char* sql);
  void lock_alone();
  // Throws tanbo::Error when the file was deleted, moved or replaced since it was opened.
  void check_in_place();

  std::mutex mutex_;
  sqlite3* db_ = nullptr;
  std::string path_;
  int lock_fd_ = -1;
  bool moved_reported_ = false;
};

}  // namespace tanbo::serve

#include "store.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "tanbo/core/error.hpp"
#include "tanbo/core/players.hpp"
#include "tanbo/core/text.hpp"

namespace tanbo::serve {

namespace {

// A prepared statement, finalized at the end of its scope.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) {
      throw Error(std::string("the database refused a statement: ") + sqlite3_errmsg(db));
    }
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  void bind(int i, const std::string& s) {
    sqlite3_bind_text(stmt_, i, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
  }
  void bind(int i, std::int64_t v) { sqlite3_bind_int64(stmt_, i, v); }
  void bind_null(int i) { sqlite3_bind_null(stmt_, i); }
  // True while there is a row; throws when the statement fails.
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw Error(std::string("the database failed: ") + sqlite3_errmsg(db_));
  }
  std::string text(int col) const {
    const auto* p = sqlite3_column_text(stmt_, col);
    return p ? std::string(reinterpret_cast<const char*>(p),
                           static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)))
             : std::string();
  }
  std::int64_t integer(int col) const { return sqlite3_column_int64(stmt_, col); }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace

Store::Store(const std::string& path, bool full_sync) : path_(path) {
  // (SQLite says "unable to open database file" of a folder, as of a file it may not create)
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw Error("cannot open the database " + shown_name(path) +
                ": it is a folder (--db names the database file, as games.sqlite)");
  }
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw Error("cannot open the database " + shown_name(path) + ": " + why);
  }
  sqlite3_busy_timeout(db_, 5000);
  try {
    // WAL: a commit appends to the log, readers never block the writer. synchronous=FULL:
    // every commit is on the disk (fsync of the log) before the move is answered, so that
    // neither a killed server nor a power cut loses an answered move. NORMAL: the log is
    // written (to the kernel) at every commit but synced only at checkpoints: a killed
    // process loses nothing, a power cut may lose the last commits (never the file's
    // consistency).
    exec("PRAGMA journal_mode=WAL");
    exec(full_sync ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL");
    exec("PRAGMA foreign_keys=ON");
    exec(
        "CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, created INTEGER NOT NULL, "
        "start TEXT NOT NULL, seed INTEGER NOT NULL)");
    exec("CREATE INDEX IF NOT EXISTS games_by_age ON games (created, id)");
    exec(
        "CREATE TABLE IF NOT EXISTS seats (game TEXT NOT NULL REFERENCES games(id), "
        "player INTEGER NOT NULL, spec TEXT NOT NULL, token TEXT NOT NULL, "
        "PRIMARY KEY (game, player))");
    exec(
        "CREATE TABLE IF NOT EXISTS turns (game TEXT NOT NULL REFERENCES games(id), "
        "ply INTEGER NOT NULL, player INTEGER NOT NULL, point TEXT, PRIMARY KEY (game, ply))");
    // (a table of its own: databases of servers before rematches gain it as they open)
    exec(
        "CREATE TABLE IF NOT EXISTS rematches (game TEXT PRIMARY KEY REFERENCES games(id), "
        "next TEXT NOT NULL UNIQUE REFERENCES games(id))");
    // SQLite opens a file it may not write read-only, and the statements above write nothing
    // when the tables are there: every move would then be refused while the games showed.
    if (sqlite3_db_readonly(db_, "main") == 1) {
      throw Error("it is read-only (the server stores every move in it)");
    }
    lock_alone();
  } catch (const Error& e) {
    sqlite3_close(db_);
    db_ = nullptr;
    if (lock_fd_ >= 0) ::close(lock_fd_);
    throw Error("cannot use the database " + shown_name(path) + ": " + e.what());
  }
}

Store::~Store() {
  sqlite3_close(db_);
  // Only now: closing any descriptor of the file drops the process's POSIX locks on it, which
  // are SQLite's.
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

// Two servers on one database each replay its games into memory and run their engines: the
// second one's moves made the first one's copy stale, whose moves then failed for good (the
// turn's row was taken). An flock(2) lock, which is apart from SQLite's own POSIX locks, keeps
// the database to one server; other programs (sqlite3's .backup) still read it.
void Store::lock_alone() {
  lock_fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (lock_fd_ < 0) throw Error(std::string("cannot open it to lock it: ") + std::strerror(errno));
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) {
      throw Error("another tanbo serve uses it (one server a database: stop the other one)");
    }
    throw Error(std::string("cannot lock it: ") + std::strerror(errno));
  }
}

void Store::check_in_place() {
  int moved = 0;
  if (sqlite3_file_control(db_, "main", SQLITE_FCNTL_HAS_MOVED, &moved) != SQLITE_OK || !moved) {
    return;
  }
  // SQLite writes on to the file it opened, which nothing can find any more: the moves it
  // took would be lost at the next start. Refused instead, so that no move is answered that
  // is not kept.
  const std::string why = "the database " + shown_name(path_) +
                          " was deleted, moved or replaced while the server ran; nothing more "
                          "can be stored until the server is started again";
  if (!moved_reported_) {
    moved_reported_ = true;
    std::cerr << "tanbo serve: " << why << "\n";
  }
  throw Error(why);
}

void Store::exec(const char* sql) {
  char* msg = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &msg) != SQLITE_OK) {
    const std::string why = msg ? msg : sqlite3_errmsg(db_);
    sqlite3_free(msg);
    throw Error(why);
  }
}

void Store::add_game(const StoredGame& g) {
  std::lock_guard lock(mutex_);
  check_in_place();
  try {
    exec("BEGIN IMMEDIATE");
    Statement game(db_, "INSERT INTO games (id, created, start, seed) VALUES (?, ?, ?, ?)");
    game.bind(1, g.id);
    game.bind(2, g.created);
    game.bind(3, g.start);
    game.bind(4, static_cast<std::int64_t>(g.seed));
    game.step();
    for (std::size_t i = 0; i < g.specs.size(); ++i) {
      Statement seat(db_, "INSERT INTO seats (game, player, spec, token) VALUES (?, ?, ?, ?)");
      seat.bind(1, g.id);
      seat.bind(2, static_cast<std::int64_t>(i + 1));
      seat.bind(3, g.specs[i]);
      seat.bind(4, g.tokens.at(i));
      seat.step();
    }
    if (!g.previous.empty()) {
      Statement link(db_, "INSERT INTO rematches (game, next) VALUES (?, ?)");
      link.bind(1, g.previous);
      link.bind(2, g.id);
      link.step();
    }
    exec("COMMIT");
  } catch (const Error& e) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw Error(std::string("cannot store the game (") + e.what() + ")");
  }
}

void Store::add_turn(const std::string& id, std::uint32_t ply, const StoredTurn& t) {
  std::lock_guard lock(mutex_);
  check_in_place();
  try {
    // One statement in autocommit mode is one transaction of its own.
    Statement turn(db_, "INSERT INTO turns (game, ply, player, point) VALUES (?, ?, ?, ?)");
    turn.bind(1, id);
    turn.bind(2, static_cast<std::int64_t>(ply));
    turn.bind(3, static_cast<std::int64_t>(t.player));
    if (t.point.empty()) {
      turn.bind_null(4);
    } else {
      turn.bind(4, t.point);
    }
    turn.step();
  } catch (const Error& e) {
    throw Error(std::string("cannot store the move (") + e.what() + ")");
  }
}

void Store::check_pages() {
  std::lock_guard lock(mutex_);
  Statement q(db_, "PRAGMA quick_check");
  if (q.step() && q.text(0) != "ok") {
    throw Error("database disk image is malformed (" + q.text(0) + ")");
  }
}

std::vector<std::string> Store::engine_game_ids() {
  std::lock_guard lock(mutex_);
  std::vector<std::string> ids;
  Statement q(db_,
              "SELECT id FROM games WHERE EXISTS (SELECT 1 FROM seats WHERE seats.game = games.id "
              "AND seats.spec <> 'human') ORDER BY created, id");
  while (q.step()) ids.push_back(q.text(0));
  return ids;
}

std::vector<std::string> Store::newest_ids(std::size_t limit) {
  std::lock_guard lock(mutex_);
  std::vector<std::string> ids;
  Statement q(db_, "SELECT id FROM games ORDER BY created DESC, id DESC LIMIT ?");
  q.bind(1, static_cast<std::int64_t>(std::min<std::size_t>(limit, INT64_MAX)));
  while (q.step()) ids.push_back(q.text(0));
  return ids;
}

std::uint64_t Store::count() {
  std::lock_guard lock(mutex_);
  Statement q(db_, "SELECT count(*) FROM games");
  return q.step() ? static_cast<std::uint64_t>(q.integer(0)) : 0;
}

std::optional<StoredGame> Store::load_game(const std::string& id) {
  std::lock_guard lock(mutex_);
  Statement g(db_, "SELECT created, start, seed FROM games WHERE id = ?");
  g.bind(1, id);
  if (!g.step()) return std::nullopt;
  StoredGame s;
  s.id = id;
  s.created = g.integer(0);
  s.start = g.text(1);
  s.seed = static_cast<std::uint64_t>(g.integer(2));
  Statement seats(db_, "SELECT spec, token FROM seats WHERE game = ? ORDER BY player");
  seats.bind(1, id);
  while (seats.step()) {
    s.specs.push_back(seats.text(0));
    s.tokens.push_back(seats.text(1));
  }
  Statement turns(db_, "SELECT player, point, ply FROM turns WHERE game = ? ORDER BY ply");
  turns.bind(1, id);
  while (turns.step()) {
    const std::int64_t player = turns.integer(0);
    s.turns.push_back({player < 0 || player > kMaxPlayers ? -1 : static_cast<int>(player),
                       turns.text(1), turns.integer(2)});
  }
  Statement link(db_, "SELECT next FROM rematches WHERE game = ?");
  link.bind(1, id);
  if (link.step()) s.next = link.text(0);
  return s;
}

}  // namespace tanbo::serve

// libFuzzer target: the web server's API under its HTTP layer (src/serve): the bodies read by
// parse_body, Games::create, move and resign, a game's state at any ply, its export, the list
// of games, the setups that fit a board, and games read back from the database.
//
// The input is a script, one request a line:
//   new BODY        POST /api/games
//   move N BODY     POST /api/games/ID/moves, on game N of those this input created (N modulo
//                   their number)
//   resign N BODY   POST /api/games/ID/resign
//   state N PLY     GET /api/games/ID?ply=PLY
//   export N        GET /api/games/ID/export, as a game file and as SGF
//   list            GET /api/games
//   setups K BOARD  GET /api/setups?topology=BOARD&players=K (K "-": none given)
//   rematch N BODY  POST /api/games/ID/rematch
// In the body of a move, a resignation or a rematch, "seat": K (a number) stands for the token of
// seat K (modulo the seats), so that the fuzzer reaches the seats' turns; any other value goes as
// it is.
//
// Besides "no crash, no sanitizer report", every request must
// - be refused only with an ApiError of a 4xx status and a message (anything else would be the
//   server's 500, or its 503 of a database that failed);
// - leave the game as it was when it is refused;
// - keep the game consistent (check_consistency) and its ply one more after a turn;
// - give, for an earlier ply, the state the game had then;
// - find every game created, with the state it had: the server keeps 2 games in memory, so the
//   others are forgotten and replayed from the database when they are asked for;
// - export a game that reads back as the same position;
// - offer, for K players, only setups that start a game of K (people), and as "default" the
//   setup a game started with "default" gets;
// - start one rematch a game, once it is over: the game's states at every ply gain "next" and
//   nothing else, the rematch starts at ply 0 with the seats one colour on, and the asking
//   seat's link there is its own.
// Engine seats are out of reach (they think on the server's threads, for seconds): a game whose
// players are not all "human" is not created. tests/test_serve.cpp covers them.
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "games.hpp"
#include "store.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/io/gamefile.hpp"
#include "tanbo/io/sgf.hpp"

namespace {

using tanbo::serve::ApiError;
using tanbo::serve::Json;

[[noreturn]] void fail(const std::string& what, const std::string& line) {
  std::fprintf(stderr, "fuzz_serve: %s\n  line: %s\n", what.c_str(), line.c_str());
  std::abort();
}

// The server: a database in a folder of its own, begun again every 2,000 inputs so that it
// stays small.
class Server {
 public:
  Server() {
    char dir[] = "/tmp/fuzz_serve.XXXXXX";
    if (!mkdtemp(dir)) fail("cannot make a temporary folder", "");
    dir_ = dir;
  }
  ~Server() {
    games_.reset();
    store_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  tanbo::serve::Games& games() {
    if (!games_ || ++inputs_ % 2000 == 0) {
      games_.reset();
      store_.reset();
      const std::string db = dir_ + "/games.sqlite";
      for (const char* suffix : {"", "-wal", "-shm"}) std::remove((db + suffix).c_str());
      store_ = std::make_unique<tanbo::serve::Store>(db, false);
      tanbo::serve::GamesOptions options;
      options.max_points = 400;
      options.in_memory = 2;
      games_ = std::make_unique<tanbo::serve::Games>(*store_, options);
    }
    return *games_;
  }

 private:
  std::string dir_;
  std::unique_ptr<tanbo::serve::Store> store_;
  std::unique_ptr<tanbo::serve::Games> games_;
  std::uint64_t inputs_ = 0;
};

// A game this input created, as its client knows it.
struct Known {
  std::string id;
  std::vector<std::string> tokens;
  std::vector<std::string> states;  // its state's JSON text after each ply
  std::string next;                 // its rematch's id, once started
};

// Splits "WORD REST" at the first space.
std::pair<std::string, std::string> word_and_rest(const std::string& s) {
  const std::size_t space = s.find(' ');
  if (space == std::string::npos) return {s, ""};
  return {s.substr(0, space), s.substr(space + 1)};
}

// The number `s` starts with (0 when none; its digits stop being read past 10^8).
std::size_t number_of(const std::string& s) {
  std::size_t n = 0;
  for (const char c : s) {
    if (c < '0' || c > '9' || n > 100000000) break;
    n = n * 10 + static_cast<std::size_t>(c - '0');
  }
  return n;
}

// False when the body asks for an engine seat (a player other than "human").
bool all_human(const Json& body) {
  if (!body.is_object() || !body.contains("players") || !body["players"].is_array()) return true;
  for (const Json& p : body["players"]) {
    if (p.is_string() && p.get<std::string>() != "human") return false;
  }
  return true;
}

class Client {
 public:
  explicit Client(tanbo::serve::Games& games) : games_(games) {}

  void run(const std::string& line) {
    const auto [verb, rest] = word_and_rest(line);
    try {
      if (verb == "new") return create(rest);
      if (verb == "list") return (void)games_.list(5);
      if (verb == "setups") return setups(rest, line);
      if (known_.empty()) return;
      const auto [number, body] = word_and_rest(rest);
      Known& k = known_[number_of(number) % known_.size()];
      const std::shared_ptr<tanbo::serve::LiveGame> g = find(k, line);
      if (verb == "move" || verb == "resign") return turn(k, g, verb == "move", body);
      if (verb == "rematch") return rematch(k, g, body);
      std::lock_guard lock(g->mutex);
      if (verb == "state") {
        const std::size_t ply = number_of(body);
        const std::string then =
            tanbo::serve::json_text(tanbo::serve::state_json(*g, static_cast<std::uint32_t>(ply)));
        if (then != k.states[std::min(ply, k.states.size() - 1)])
          fail("the state at ply " + std::to_string(ply) + " is not the one the game had", line);
      } else if (verb == "export") {
        exported(*g, line);
      }
    } catch (const ApiError& e) {
      if (e.status < 400 || e.status > 499) {
        fail("refused with status " + std::to_string(e.status) + ": " + e.message, line);
      }
      if (e.message.empty()) fail("refused without a message", line);
    } catch (const std::exception& e) {
      fail(std::string("an exception escaped (the server's 500): ") + e.what(), line);
    }
  }

 private:
  void create(const std::string& text) {
    const Json body = tanbo::serve::parse_body(text);
    if (!all_human(body)) return;
    const Json made = games_.create(body);
    Known k;
    k.id = made.at("id").get<std::string>();
    for (const Json& seat : made.at("seats"))
      k.tokens.push_back(seat.at("token").get<std::string>());
    const auto g = games_.find(k.id);
    if (!g) fail("a game just made is not found", "new " + text);
    std::lock_guard lock(g->mutex);
    k.states.push_back(tanbo::serve::state_text(*g));
    if (g->session->ply() != 0) fail("a new game is not at ply 0", "new " + text);
    known_.push_back(std::move(k));
  }

  void setups(const std::string& text, const std::string& line) {
    const auto split = word_and_rest(text);
    const std::string& count = split.first;
    const std::string& board = split.second;
    const std::optional<std::string> players =
        count == "-" ? std::nullopt : std::optional<std::string>(count);
    const Json fit = games_.setups(board, players);
    if (!players) return;
    const Json seats(static_cast<std::size_t>(fit.at("players").get<int>()), "human");
    const auto start = [&](const Json& setup) {
      Json made;
      try {
        made = games_.create({{"topology", board}, {"setup", setup}, {"players", seats}});
      } catch (const ApiError& e) {
        fail("setup " + setup.dump() + " is offered but refused: " + e.message, line);
      }
      const auto g = games_.find(made.at("id").get<std::string>());
      std::lock_guard lock(g->mutex);
      return g->session->position().setup().name;
    };
    for (const Json& setup : fit.at("setups")) {
      if (start(setup) != setup.get<std::string>())
        fail("a setup offered is not the one started", line);
    }
    if (!fit.at("default").is_null() && start("default") != fit.at("default").get<std::string>()) {
      fail("\"default\" is not the setup offered as the default", line);
    }
  }

  // The game, with the state it had when this input last saw it.
  std::shared_ptr<tanbo::serve::LiveGame> find(const Known& k, const std::string& line) {
    const auto g = games_.find(k.id);
    if (!g) fail("game " + k.id + " is lost", line);
    std::lock_guard lock(g->mutex);
    if (tanbo::serve::state_text(*g) != k.states.back()) {
      fail("game " + k.id + " is not as it was (read back from the database?)", line);
    }
    return g;
  }

  void turn(Known& k, const std::shared_ptr<tanbo::serve::LiveGame>& g, bool move,
            const std::string& text) {
    Json body = tanbo::serve::parse_body(text);
    if (body.is_object() && body.contains("seat") && body["seat"].is_number_unsigned()) {
      body["seat"] = k.tokens[body["seat"].get<std::uint64_t>() % k.tokens.size()];
    }
    const std::string line = (move ? "move " : "resign ") + text;
    try {
      const std::string answer = move ? games_.move(g, body) : games_.resign(g, body);
      std::lock_guard lock(g->mutex);
      if (answer != tanbo::serve::state_text(*g)) fail("the answer is not the game's state", line);
      if (g->session->ply() != k.states.size()) fail("a turn did not add one ply", line);
      const std::string bad = g->session->position().check_consistency();
      if (!bad.empty()) fail("inconsistent position: " + bad, line);
      k.states.push_back(answer);
    } catch (const ApiError&) {
      std::lock_guard lock(g->mutex);
      if (tanbo::serve::state_text(*g) != k.states.back()) fail("a refusal changed the game", line);
      throw;
    }
  }

  void rematch(Known& k, const std::shared_ptr<tanbo::serve::LiveGame>& g,
               const std::string& text) {
    Json body = tanbo::serve::parse_body(text);
    std::optional<std::size_t> asker;
    if (body.is_object() && body.contains("seat") && body["seat"].is_number_unsigned()) {
      asker = body["seat"].get<std::uint64_t>() % k.tokens.size();
      body["seat"] = k.tokens[*asker];
    }
    const std::string line = "rematch " + text;
    std::pair<int, Json> answer;
    try {
      answer = games_.rematch(g, body);
    } catch (const ApiError&) {
      std::lock_guard lock(g->mutex);
      if (tanbo::serve::state_text(*g) != k.states.back()) fail("a refusal changed the game", line);
      throw;
    }
    const std::string id = answer.second.at("id").get<std::string>();
    if (answer.first != (k.next.empty() ? 201 : 200) || (!k.next.empty() && id != k.next)) {
      fail("a game's second rematch is not its first (status " + std::to_string(answer.first) + ")",
           line);
    }
    {
      std::lock_guard lock(g->mutex);
      if (!g->session->position().is_over()) fail("a game under way got a rematch", line);
      for (std::size_t ply = 0; ply < k.states.size(); ++ply) {
        Json was = Json::parse(k.states[ply]);
        was["next"] = id;
        const std::string now =
            tanbo::serve::json_text(tanbo::serve::state_json(*g, static_cast<std::uint32_t>(ply)));
        if (now != tanbo::serve::json_text(was)) fail("a rematch changed more than \"next\"", line);
        k.states[ply] = now;
      }
    }
    const auto next = games_.find(id);
    if (!next) fail("the rematch is not found", line);
    std::vector<std::string> specs = g->specs;
    std::rotate(specs.rbegin(), specs.rbegin() + 1, specs.rend());
    if (next->specs != specs) fail("the rematch's seats are not one colour on", line);
    if (!asker) fail("a rematch was started without a seat's token", line);
    const std::size_t seat = (*asker + 1) % k.tokens.size();
    if (answer.second.at("seat_url") != "/games/" + id + "?seat=" + next->tokens.at(seat)) {
      fail("the rematch's link is not the asking seat's", line);
    }
    if (!k.next.empty()) return;
    k.next = id;
    Known made;
    made.id = id;
    made.tokens = next->tokens;
    std::lock_guard lock(next->mutex);
    if (next->session->ply() != 0) fail("a rematch does not start at ply 0", line);
    made.states.push_back(tanbo::serve::state_text(*next));
    known_.push_back(std::move(made));
  }

  // The export in both formats reads back as the same position, as the server writes it
  // (a board SGF cannot hold is refused with the server's 400).
  static void exported(const tanbo::serve::LiveGame& g, const std::string& line) {
    const tanbo::Position& pos = g.session->game().position;
    const std::string file = tanbo::serve::export_text(g, "tanbo");
    const tanbo::Game back = tanbo::read_game(file, "export");
    if (back.position.hash() != pos.hash() || back.position.ply() != pos.ply())
      fail("the game file does not read back as the game", line);
    const std::string sgf = tanbo::serve::export_text(g, "sgf");
    if (tanbo::read_sgf(sgf, "export").position.hash() != pos.hash())
      fail("the SGF does not read back as the game", line);
  }

  tanbo::serve::Games& games_;
  std::vector<Known> known_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > (1u << 20)) return -1;  // inputs up to 1 MB (scripts/test.sh: -max_len)
  static Server server;
  Client client(server.games());
  const std::string input(reinterpret_cast<const char*>(data), size);
  std::size_t start = 0;
  for (int lines = 0; start <= input.size() && lines < 500; ++lines) {
    std::size_t end = input.find('\n', start);
    if (end == std::string::npos) end = input.size();
    client.run(input.substr(start, end - start));
    start = end + 1;
  }
  return 0;
}

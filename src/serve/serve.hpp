// `tanbo serve`: the HTTP server of the web page and its API (docs/web.md).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace tanbo::serve {

struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 8080;                   // 0 = any free port
  std::string db = "tanbo.sqlite";   // the SQLite database file
  int engine_threads = 1;            // threads the engine seats think on
  std::uint64_t max_points = 20000;  // the largest board a game may have
  std::string web_root;              // "" = next to the program (web/ or ../share/tanbo/web)
  double rate = 50;                  // API requests a second per client (bursts of 4x); 0 = off
  int max_streams = 250;             // event streams open at once
  int max_connections = 64;          // connections open at once from one address; 0 = off
  double request_timeout = 20;       // seconds to read and answer a request; 0 = off
  long long games_in_memory = 1000;  // idle games kept in memory (others read when asked for)
  std::string sync = "normal";       // SQLite's synchronous setting: "normal" or "full"
  // Reverse proxies whose X-Forwarded-For names the client (for --rate); their connections are
  // not limited by max_connections.
  std::vector<std::string> trusted_proxies;
};

// Runs the server until SIGINT or SIGTERM; prints "tanbo serve: listening on URL" to `out`
// once it listens. Returns the exit status; throws tanbo::Error for a refused option, a port
// it cannot listen on or a database it cannot open.
int run_server(const ServeOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tanbo::serve

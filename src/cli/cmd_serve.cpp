// tanbo serve: the web server (src/serve/, docs/web.md), when the build found its libraries.
#include <iostream>

#include "commands.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"
#ifdef TANBO_HAVE_SERVE
#include "serve.hpp"
#endif

namespace tanbo::cli {

int cmd_serve(const std::vector<std::string>& args, std::istream&, std::ostream& out,
              std::ostream& err) {
#ifdef TANBO_HAVE_SERVE
  serve::ServeOptions o;
  po::options_description desc("tanbo serve options");
  desc.add_options()("host", po::value(&o.host)->default_value(o.host),
                     "the address to listen on (0.0.0.0: every network of the machine)")(
      "port", po::value(&o.port)->default_value(o.port), "the port (0: any free one)")(
      "db", po::value(&o.db)->default_value(o.db), "the SQLite database file of the games")(
      "engine-threads", po::value(&o.engine_threads)->default_value(o.engine_threads),
      "threads the engine seats think on (1 to 64)")(
      "max-points", po::value(&o.max_points)->default_value(o.max_points),
      "the largest board a game may have, in points")(
      "web-root", po::value(&o.web_root)->notifier(refuse_blank("--web-root DIR")),
      "the page's folder (default: web/ next to the program, or ../share/tanbo/web)")(
      "rate", po::value(&o.rate)->default_value(o.rate),
      "API requests a second each client address may make (bursts of 4 times as many); 0: "
      "no limit")("max-streams", po::value(&o.max_streams)->default_value(o.max_streams),
                  "event streams open at once (each holds a connection thread)")(
      "max-connections", po::value(&o.max_connections)->default_value(o.max_connections),
      "connections each client (an IPv4 address, an IPv6 /64) may hold open at once (0 to "
      "100000; 0: no limit)")(
      "request-timeout", po::value(&o.request_timeout)->default_value(o.request_timeout),
      "seconds a request has to arrive in full, from the connection's start or the end of the "
      "previous answer; event streams have no limit (0 to 3600; 0: no limit)")(
      "games-in-memory", po::value(&o.games_in_memory)->default_value(o.games_in_memory),
      "games kept in memory while unused, the ones used last (1 to 10000000); the others are "
      "read from the database when asked for")(
      "trusted-proxy", po::value(&o.trusted_proxies)->composing(),
      "the IP address of a reverse proxy in front of the server (may be given again for "
      "more): a request it passes on counts for the client the last address of its "
      "X-Forwarded-For names (--rate), and its connections are not limited by "
      "--max-connections")(
      "sync", po::value(&o.sync)->default_value(o.sync),
      "normal: a move is answered once the system holds it (a killed server loses nothing, a "
      "power cut may lose the last moves); full: once it is on the disk (slower)");
  po::variables_map vm;
  if (const auto stop = parse_args(
          args, desc, nullptr, vm,
          "usage: tanbo serve [--host 127.0.0.1] [--port 8080] [--db FILE] [--engine-threads N]\n"
          "                   [--max-points N] [--web-root DIR] [--rate N] [--max-streams N]\n"
          "                   [--max-connections N] [--request-timeout S] [--sync normal|full]\n"
          "                   [--games-in-memory N] [--trusted-proxy ADDRESS]...\n"
          "Serves the web page and its HTTP API: games started with a link, played from\n"
          "browsers and by engine seats, watched live, stored in a SQLite database (docs/web.md).\n"
          "Prints \"tanbo serve: listening on http://HOST:PORT/\"; stops on Ctrl-C or SIGTERM.\n"
          "example: tanbo serve --port 8080 --db games.sqlite",
          out, err))
    return *stop;
  if (o.port < 0 || o.port > 65535) throw Error("--port must be 0 to 65535");
  if (o.engine_threads < 1 || o.engine_threads > 64) {
    throw Error("--engine-threads must be 1 to 64");
  }
  if (o.max_points < 1) throw Error("--max-points must be at least 1");
  // SQLite reads "" and ":memory:" as a database in memory: every game gone at the stop.
  if (o.db.empty() || o.db == ":memory:") {
    throw Error("--db " + quote_input(o.db) +
                " is no file: the games would be lost when the server stops; give a file name");
  }
  if (!(o.rate >= 0) || o.rate > 1e6) throw Error("--rate must be 0 to 1000000");
  if (o.sync != "full" && o.sync != "normal") {
    throw Error("--sync " + quote_input(o.sync) + ": full or normal");
  }
  if (o.max_streams < 1 || o.max_streams > 4096) throw Error("--max-streams must be 1 to 4096");
  if (o.max_connections < 0 || o.max_connections > 100000) {
    throw Error("--max-connections must be 0 to 100000");
  }
  if (!(o.request_timeout >= 0) || o.request_timeout > 3600) {
    throw Error("--request-timeout must be 0 to 3600 seconds");
  }
  if (o.games_in_memory < 1 || o.games_in_memory > 10000000) {
    throw Error("--games-in-memory must be 1 to 10000000");
  }
  return serve::run_server(o, out, err);
#else
  (void)args;
  (void)out;
  err << "tanbo serve: this tanbo was built without the web server (cpp-httplib, nlohmann-json "
         "or SQLite was not found); install libcpp-httplib-dev nlohmann-json3-dev "
         "libsqlite3-dev and build again\n";
  return 2;
#endif
}

}  // namespace tanbo::cli

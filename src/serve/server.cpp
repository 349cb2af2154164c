#include <signal.h>
#include <sys/socket.h>

#include <httplib.h>
#include <algorithm>
#include <atomic>
#include <iostream>
#include <list>
#include <regex>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "connections.hpp"
#include "files.hpp"
#include "games.hpp"
#include "serve.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/platform/signal_thread.hpp"

namespace tanbo::serve {

namespace {

constexpr std::size_t kMaxBody = 64 * 1024;
// A request's head (its line and headers; a browser's are under 2 KB): with the body, what one
// request may send, however it sends it (httplib reads a line or a chunked body of any length).
constexpr std::size_t kMaxHead = 32 * 1024;
constexpr std::size_t kMaxRequest = kMaxHead + 2 * kMaxBody;  // (the body twice: chunks' framing)
const char* const kId = "([A-Za-z0-9_-]{1,64})";              // a game id in a route

void send_json(httplib::Response& res, const Json& j, int status = 200) {
  res.status = status;
  res.set_content(json_text(j), "application/json");
}

void send_error(httplib::Response& res, int status, const std::string& message) {
  send_json(res, {{"error", message}}, status);
}

const char* reason_of(int status) {
  switch (status) {
    case 400:
      return "bad request";
    case 404:
      return "no such page or game";
    case 405:
      return "method not allowed";
    case 413:
      // (httplib takes at most 8 KB of a form-encoded body, what curl -d sends by default)
      return "the body is too large: at most 64 KB of JSON (Content-Type: application/json), "
             "8 KB of a form-encoded body";
    case 414:
      return "the URL is too long";
    default:
      return "the request failed";
  }
}

// A request no route of its method takes: 404 for a path of no route, 405 (with Allow) for
// one with other methods (`methods`, "GET, HEAD", ...), and for OPTIONS the methods (204).
void other_method(const httplib::Request& req, httplib::Response& res, const std::string& methods) {
  if (methods.empty()) {
    send_error(res, 404, "no such API route");
  } else if (req.method == "OPTIONS") {
    res.status = 204;
    res.set_header("Allow", methods);
  } else {
    send_error(res, 405,
               req.method + " is not a method of " + shown_name(req.path) + " (" + methods + ")");
    res.set_header("Allow", methods);
  }
}

// The one place where an API handler's refusal becomes its answer.
template <class F>
httplib::Server::Handler api(F f) {
  return [f](const httplib::Request& req, httplib::Response& res) {
    try {
      // httplib checks the size of bodies with a Content-Length only, not of chunked ones.
      if (req.body.size() > kMaxBody) throw ApiError{413, reason_of(413)};
      f(req, res);
    } catch (const ApiError& e) {
      send_error(res, e.status, e.message);
    } catch (const std::bad_alloc&) {
      send_error(res, 503, "the server is out of memory");
    } catch (const std::exception& e) {
      send_error(res, 500, std::string("internal error: ") + clip_words(e.what()));
    }
  };
}

// Open event streams, counted so that streams never take every connection thread.
struct StreamCount {
  std::atomic<int> open{0};
  int max = 250;
};

// The boards' JSON as /board answers it, with its gzip form, kept for the boards asked for
// last (at most 32 MB of them): a game's board never changes, and writing the JSON of a 141x141
// board took 26 ms of CPU, 72 ms with gzip, for every request (50 a second from one client
// kept more than one core busy).
class BoardCache {
 public:
  struct Body {
    std::shared_ptr<const std::string> content, gzip;  // gzip nullptr: no smaller
  };
  Body get(const Topology& t) {
    // What makes the board: its spec, and a DOT board's text (the spec of each is the same).
    const std::string key = t.spec + '\0' + t.dot_text;
    std::lock_guard lock(mutex_);  // (held while a board is written: each is written once)
    if (const auto found = index_.find(key); found != index_.end()) {
      kept_.splice(kept_.begin(), kept_, found->second);  // the latest first
      return found->second->second;
    }
    Body body;
    body.content = std::make_shared<const std::string>(json_text(board_json(t)));
    body.gzip = gzipped(*body.content);
    kept_.emplace_front(key, body);
    index_.emplace(kept_.front().first, kept_.begin());
    bytes_ += bytes_of(kept_.front());
    while (bytes_ > kMaxBytes && kept_.size() > 1) {
      bytes_ -= bytes_of(kept_.back());
      index_.erase(kept_.back().first);
      kept_.pop_back();
    }
    return body;
  }

 private:
  static constexpr std::size_t kMaxBytes = 32u << 20;
  using Entry = std::pair<std::string, Body>;  // by the board's key
  static std::size_t bytes_of(const Entry& e) {
    return e.first.size() + e.second.content->size() + (e.second.gzip ? e.second.gzip->size() : 0);
  }
  std::mutex mutex_;
  std::list<Entry> kept_;  // the latest first
  // Where each key is in kept_ (its keys point into kept_'s entries, which never move): a
  // request finds its board without a pass over the thousands of small ones 32 MB may hold.
  std::unordered_map<std::string_view, std::list<Entry>::iterator> index_;
  std::size_t bytes_ = 0;
};

// Answers with a kept body: its gzip form to a client that takes it (setup_request left "gzip"
// alone) unless a range is asked for; the bytes are written from the kept copy, which httplib
// neither copies nor compresses again when they come from a provider of known length.
void send_kept(const httplib::Request& req, httplib::Response& res,
               const std::shared_ptr<const std::string>& content,
               const std::shared_ptr<const std::string>& gzip, const std::string& type) {
  const bool packed =
      gzip && req.ranges.empty() && req.get_header_value("Accept-Encoding") == "gzip";
  std::shared_ptr<const std::string> body = packed ? gzip : content;
  res.set_header("Vary", "Accept-Encoding");
  if (packed) res.set_header("Content-Encoding", "gzip");
  if (body->empty()) {
    res.set_content("", type);
    return;
  }
  res.set_content_provider(
      body->size(), type, [body](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
        return sink.write(body->data() + offset, std::min<std::size_t>(length, 64 * 1024));
      });
}

class Server {
 public:
  Server(Games& games, const ServeOptions& o, TrustedProxies trusted, std::string web_root)
      : games_(games),
        rate_(o.rate),
        trusted_(std::move(trusted)),
        web_root_(web_root),
        files_(std::move(web_root)) {
    streams_.max = o.max_streams;
  }
  void routes(httplib::Server& svr);
  void stop() { stopping_ = true; }

 private:
  // One route of the API: a method, a path pattern and what answers it.
  struct Route {
    std::string method;   // GET (HEAD with it) or POST
    std::string pattern;  // the path, a regex (httplib matches the whole path)
    std::regex path;      // the same, compiled
    httplib::Server::Handler handler;
  };
  std::vector<Route> api_routes();
  std::string methods_of(const std::string& path) const;

  std::shared_ptr<LiveGame> need_game(const httplib::Request& req) const;
  void get_state(const httplib::Request& req, httplib::Response& res);
  void get_events(const httplib::Request& req, httplib::Response& res);
  void get_export(const httplib::Request& req, httplib::Response& res);
  void send_page(const httplib::Request& req, const std::string& file, httplib::Response& res);
  httplib::Server::HandlerResponse before(const httplib::Request& req, httplib::Response& res);

  Games& games_;
  RateLimit rate_;
  TrustedProxies trusted_;  // whose X-Forwarded-For names the client a request counts for
  std::string web_root_;
  WebFiles files_;
  StreamCount streams_;
  BoardCache boards_;
  std::atomic<bool> stopping_{false};
  std::vector<Route> routes_;  // the API's, as api_routes() gives them
};

std::shared_ptr<LiveGame> Server::need_game(const httplib::Request& req) const {
  const std::string id = req.matches[1];
  auto g = games_.find(id);
  if (!g) throw ApiError{404, "no game " + quote_input(id)};
  return g;
}

void Server::get_state(const httplib::Request& req, httplib::Response& res) {
  auto g = need_game(req);
  std::optional<std::uint32_t> ply;
  // A seat learns its link in the rematch, once there is one (read without the game's lock).
  std::string next_seat;
  if (req.has_param("seat")) {
    next_seat = games_.next_seat_url(*g, seat_of_token(*g, req.get_param_value("seat")));
  }
  std::lock_guard lock(g->mutex);
  if (req.has_param("ply")) {
    const std::string text = req.get_param_value("ply");
    const std::uint32_t now = g->session->ply();
    std::uint64_t n = 0;
    bool ok = !text.empty() && text.size() <= 10;
    for (const char c : text) ok = ok && c >= '0' && c <= '9' && (n = n * 10 + (c - '0'), true);
    if (!ok || n > now) {
      throw ApiError{400, "ply " + quote_input(text) + " is not a ply of this game (0 to " +
                              std::to_string(now) + ")"};
    }
    ply = static_cast<std::uint32_t>(n);
  }
  if (req.has_param("seat")) {
    // A seat's page checks its token: the state and the seat's colour, or 403.
    const std::size_t seat = seat_of_token(*g, req.get_param_value("seat")) - 1;
    Json state = state_json(*g, ply);
    const Json& players = state["players"];
    if (seat < players.size()) state["seat"] = players[seat];
    if (!next_seat.empty()) state["next_seat"] = next_seat;
    send_json(res, state);
  } else if (ply) {
    send_json(res, state_json(*g, ply));
  } else {
    res.set_content(state_text(*g), "application/json");
  }
}

void Server::get_export(const httplib::Request& req, httplib::Response& res) {
  auto g = need_game(req);
  const std::string format = req.has_param("format") ? req.get_param_value("format") : "tanbo";
  std::string text;
  {
    std::lock_guard lock(g->mutex);
    text = export_text(*g, format);
  }
  res.set_header("Content-Disposition",
                 "attachment; filename=\"" + g->id + (format == "sgf" ? ".sgf\"" : ".tanbo\""));
  res.set_content(text, format == "sgf" ? "application/x-go-sgf" : "text/plain; charset=utf-8");
}

void Server::get_events(const httplib::Request& req, httplib::Response& res) {
  auto g = need_game(req);
  if (streams_.open.fetch_add(1) >= streams_.max) {
    streams_.open.fetch_sub(1);
    throw ApiError{503, "too many event streams are open (" + std::to_string(streams_.max) +
                            "); try again later"};
  }
  Listener::unlimited();  // a stream lasts; the connection's time starts at its end
  // Releases the stream's place when the connection ends, however it ends.
  auto place = std::shared_ptr<void>(nullptr, [this](void*) { streams_.open.fetch_sub(1); });
  res.set_header("Cache-Control", "no-cache");
  res.set_header("X-Accel-Buffering", "no");  // nginx: pass events on at once
  auto sent = std::make_shared<std::optional<std::uint64_t>>();
  auto next_event = [this, g, sent, place](std::size_t, httplib::DataSink& sink) {
    std::string chunk;
    // Waits for a change, a second at a time, looking between whether the client has gone
    // (its place then comes back within a second, not at the next keep-alive), and for at
    // most 15 s, after which a keep-alive comment is sent.
    for (int second = 0; second < 15; ++second) {
      std::unique_lock lock(g->mutex);
      const bool news = g->changed.wait_for(lock, std::chrono::seconds(1), [&] {
        return stopping_ || games_.stopping() || *sent != g->version();
      });
      if (news) break;
      lock.unlock();
      if (!sink.is_writable()) return false;
    }
    {
      std::unique_lock lock(g->mutex);
      if (stopping_ || games_.stopping()) {
        sink.done();
        return false;
      }
      if (*sent != g->version()) {
        *sent = g->version();
        chunk = "event: state\nid: " + std::to_string(g->session->ply()) +
                "\ndata: " + state_text(*g) + "\n\n";
      } else {
        chunk = ": keep-alive\n\n";
      }
    }
    return sink.write(chunk.data(), chunk.size());
  };
  // HTTP/1.0 has no chunks: its stream is the connection's bytes, ended by closing it.
  if (req.version == "HTTP/1.0") {
    Listener::close_after_answer(res);
    res.set_content_provider("text/event-stream", next_event);
  } else {
    res.set_chunked_content_provider("text/event-stream", next_event);
  }
}

void Server::send_page(const httplib::Request& req, const std::string& file,
                       httplib::Response& res) {
  if (web_root_.empty()) {
    res.status = 404;
    res.set_content(
        "tanbo serve: the page's files are missing (no web/ folder next to the program and no "
        "--web-root); the API at /api/ works.\n",
        "text/plain; charset=utf-8");
    return;
  }
  const auto f = files_.get(file);
  if (!f) {
    send_error(res, 404, "no such page");
    return;
  }
  send_kept(req, res, f->content, f->gzip, f->type);
}

httplib::Server::HandlerResponse Server::before(const httplib::Request& req,
                                                httplib::Response& res) {
  using Done = httplib::Server::HandlerResponse;
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_header("Referrer-Policy", "no-referrer");  // seat links never leave in a Referer
  // Where the body ends is settled first: a body left unread is read as the next request, so
  // any answer given before it is read closes the connection. (Behind a proxy that reads the
  // request another way, the rest would be another client's request.)
  const std::size_t lengths = req.get_header_value_count("Content-Length");
  const std::size_t codings = req.get_header_value_count("Transfer-Encoding");
  const auto refuse_unread = [&](int status, const std::string& message) {
    send_error(res, status, message);
    Listener::close_after_answer(res);
    return Done::Handled;
  };
  if (lengths + codings > 1) {
    return refuse_unread(400, std::string("the body's length is given twice (") +
                                  (codings == 0   ? "two Content-Length headers"
                                   : lengths == 0 ? "two Transfer-Encoding headers"
                                                  : "Content-Length and Transfer-Encoding") +
                                  ")");
  }
  // httplib reads "5x", "+5" or "0x10" as a number's start, and the rest of the body as the
  // next request.
  const std::string length = req.get_header_value("Content-Length");
  if (lengths == 1 &&
      (length.empty() || length.size() > 18 ||
       !std::all_of(length.begin(), length.end(), [](char c) { return c >= '0' && c <= '9'; }))) {
    return refuse_unread(400, "the body's length " + quote_input(length) +
                                  " is not a number of bytes (Content-Length)");
  }
  // Any coding but chunked alone left httplib reading the body until the client closed.
  const std::string coding = to_lower(trim(req.get_header_value("Transfer-Encoding")));
  if (codings == 1 && coding != "chunked") {
    return refuse_unread(501, "the body is sent as " + quote_input(coding) +
                                  " (Transfer-Encoding): send it chunked or with a Content-Length");
  }
  const bool has_body = codings == 1 || length.find_first_not_of('0') != std::string::npos;
  // httplib reads the bodies of these methods only: another's would be the next request.
  const bool reads_body = req.method == "POST" || req.method == "PUT" || req.method == "PATCH" ||
                          req.method == "DELETE";
  if (has_body && !reads_body) {
    return refuse_unread(400, req.method + " requests take no body");
  }
  const std::string client = trusted_.client(req);
  if (req.path.rfind("/api/", 0) == 0 && !rate_.allow(client)) {
    send_error(res, 429, "too many requests from " + client + "; slow down");
    if (has_body) Listener::close_after_answer(res);  // its body is not read
    return Done::Handled;
  }
  // httplib takes such a body apart as form fields and leaves no body: "the body is not JSON:
  // unexpected end of input" said nothing of why.
  if (req.is_multipart_form_data()) {
    return refuse_unread(415,
                         "the body is multipart/form-data: send it as JSON "
                         "(Content-Type: application/json)");
  }
  // httplib would inflate such a body without a limit (61 KB of gzip made 60 MB).
  const std::string encoding = to_lower(trim(req.get_header_value("Content-Encoding")));
  if (!encoding.empty() && encoding != "identity") {
    return refuse_unread(415,
                         "the body is " + quote_input(encoding) + "-encoded: send it as it is");
  }
  return Done::Unhandled;
}

std::vector<Server::Route> Server::api_routes() {
  const std::string game = std::string("/api/games/") + kId;
  const auto board = [this](const httplib::Request& req, httplib::Response& res) {
    auto g = need_game(req);
    TopologyPtr topology;
    {
      std::lock_guard lock(g->mutex);
      topology = g->session->position().topology_ptr();
    }
    const BoardCache::Body body = boards_.get(*topology);
    send_kept(req, res, body.content, body.gzip, "application/json");
  };
  std::vector<std::tuple<const char*, std::string, httplib::Server::Handler>> table = {
      {"GET", "/api/games", [this](const auto&, auto& res) { send_json(res, games_.list()); }},
      {"GET", "/api/setups",
       [this](const auto& req, auto& res) {
         if (!req.has_param("topology")) throw ApiError{400, "the query needs topology=BOARD"};
         std::optional<std::string> players;
         if (req.has_param("players")) players = req.get_param_value("players");
         send_json(res, games_.setups(req.get_param_value("topology"), players));
       }},
      {"POST", "/api/games",
       [this](const auto& req, auto& res) {
         send_json(res, games_.create(parse_body(req.body)), 201);
       }},
      {"GET", game, [this](const auto& req, auto& res) { get_state(req, res); }},
      {"GET", game + "/board", board},
      {"POST", game + "/moves",
       [this](const auto& req, auto& res) {
         auto g = need_game(req);
         res.set_content(games_.move(g, parse_body(req.body)), "application/json");
       }},
      {"POST", game + "/resign",
       [this](const auto& req, auto& res) {
         auto g = need_game(req);
         res.set_content(games_.resign(g, parse_body(req.body)), "application/json");
       }},
      {"POST", game + "/rematch",
       [this](const auto& req, auto& res) {
         auto g = need_game(req);
         const auto [status, answer] = games_.rematch(g, parse_body(req.body));
         send_json(res, answer, status);
       }},
      {"GET", game + "/events", [this](const auto& req, auto& res) { get_events(req, res); }},
      {"GET", game + "/export", [this](const auto& req, auto& res) { get_export(req, res); }},
  };
  std::vector<Route> out;
  for (auto& [method, path, handler] : table) {
    out.push_back({method, path, std::regex(path), api(std::move(handler))});
  }
  return out;
}

// The methods a path has ("GET, HEAD", ...; a GET route takes HEAD too), "" for an API path of
// none: a request with another method is told which ones, not that the page does not exist.
std::string Server::methods_of(const std::string& path) const {
  if (path.rfind("/api/", 0) != 0) return "GET, HEAD";  // the page's files (a missing one: 404)
  std::string methods;
  for (const Route& r : routes_) {
    if (!std::regex_match(path, r.path)) continue;
    methods += (methods.empty() ? "" : ", ") + r.method + (r.method == "GET" ? ", HEAD" : "");
  }
  return methods;
}

void Server::routes(httplib::Server& svr) {
  svr.set_pre_routing_handler([this](const auto& req, auto& res) { return before(req, res); });
  routes_ = api_routes();
  for (const Route& r : routes_) {
    if (r.method == "GET") {
      svr.Get(r.pattern, r.handler);
    } else {
      svr.Post(r.pattern, r.handler);
    }
  }
  const auto other = [this](const auto& req, auto& res) {
    other_method(req, res, methods_of(req.path));
  };
  svr.Get("/api/.*", other);
  svr.Post(".*", other);
  svr.Put(".*", other);
  svr.Patch(".*", other);
  svr.Delete(".*", other);
  svr.Options(".*", other);
  svr.Get("/", [this](const auto& req, auto& res) { send_page(req, "/index.html", res); });
  svr.Get(std::string("/games/") + kId + "/?",
          [this](const auto& req, auto& res) { send_page(req, "/game.html", res); });
  svr.Get("/.*", [this](const auto& req, auto& res) { send_page(req, req.path, res); });
  svr.set_error_handler(
      httplib::Server::HandlerWithResponse([](const httplib::Request&, httplib::Response& res) {
        if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;  // a handler's
        // httplib's own refusal: it left the rest of the request unread, so the connection ends.
        Listener::close_after_answer(res);
        if (const std::string late = Listener::timeout_refusal(); !late.empty()) {
          send_error(res, 408, late);
        } else if (const std::size_t limit = Listener::too_large(); limit != 0) {
          // (over the limit of the whole request, which its head alone may be)
          send_error(res, 413,
                     "the request is too large: at most " + std::to_string(limit / 1024) +
                         " KB in all, head and body; a body may have 64 KB of JSON");
        } else {
          send_error(res, res.status, reason_of(res.status));
        }
        return httplib::Server::HandlerResponse::Handled;
      }));
}

}  // namespace

int run_server(const ServeOptions& o, std::ostream& out, std::ostream& err) {
  const std::string web_root = find_web_root(o.web_root);
  const TrustedProxies trusted(o.trusted_proxies);  // (refused before the database is made)
  // Ctrl-C and SIGTERM go to a thread of their own (blocked before any other thread starts).
  SignalThread signals({SIGINT, SIGTERM});
  ::signal(SIGPIPE, SIG_IGN);

  Listener svr({o.max_connections, o.request_timeout, kMaxRequest, trusted});
  const std::size_t threads = static_cast<std::size_t>(o.max_streams) + 16;
  svr.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  svr.set_payload_max_length(kMaxBody);
  // A body announced over the limit is refused before the client sends it.
  svr.set_expect_100_continue_handler([](const httplib::Request& req, httplib::Response& res) {
    const std::string length = req.get_header_value("Content-Length");
    const bool digits =
        std::all_of(length.begin(), length.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (digits && (length.size() > 9 || (!length.empty() && std::stoull(length) > kMaxBody))) {
      res.status = 413;
      return 413;
    }
    return 100;
  });
  svr.set_keep_alive_max_count(1000);
  svr.set_tcp_nodelay(true);
  // SO_REUSEADDR only: a restart may take the port while old connections linger (TIME_WAIT).
  // The library's default adds SO_REUSEPORT, with which a second server on the port started
  // as well and the kernel shared the requests between the two (and their databases).
  svr.set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  svr.set_logger([](const auto&, const auto&) { Listener::answered(); });

  // The port first: a start refused for it leaves no database made. (Connections that come
  // while the database opens and its games are replayed wait in the backlog.)
  const int port = o.port == 0 ? svr.bind_to_any_port(o.host) : o.port;
  if (port < 0 || (o.port != 0 && !svr.bind_to_port(o.host, o.port))) {
    throw Error("cannot listen on " + quote_input(o.host) + " port " + std::to_string(o.port) +
                " (in use, or not an address of this machine)");
  }
  svr.raise_backlog();
  Store store(o.db, o.sync != "normal");
  Games games(store, {o.max_points, o.engine_threads, static_cast<std::size_t>(o.games_in_memory)});
  Server server(games, o, trusted, web_root);
  server.routes(svr);
  const bool v6 = o.host.find(':') != std::string::npos;
  out << "tanbo serve: listening on http://" << (v6 ? "[" + o.host + "]" : o.host) << ":" << port
      << "/" << std::endl;
  if (web_root.empty()) {
    err << "tanbo serve: the page's files were not found (web/ next to the program, or "
           "--web-root DIR): only the API is served\n";
  }
  signals.start([&](int) {
    server.stop();
    games.wake_all();
    svr.stop();
  });
  const bool ok = svr.listen_after_bind();
  signals.stop();  // before the server it stops goes
  if (!ok && svr.is_running()) err << "tanbo serve: the server stopped on an error\n";
  out << "tanbo serve: stopped (" << games.size() << " games in " << shown_name(o.db)
      << "; at most " << games.most_in_memory() << " in memory at once)" << std::endl;
  return 0;
}

}  // namespace tanbo::serve

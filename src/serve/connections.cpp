#include "connections.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <sstream>

#include "games.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"

namespace tanbo::serve {

namespace {

using Clock = std::chrono::steady_clock;

// httplib's defaults, which the server keeps: how long one read or write may wait for the
// socket, and how long a connection may wait for its next request.
constexpr auto kIoWait = std::chrono::seconds(5);
constexpr auto kIdleWait = std::chrono::seconds(5);

// What the connection's current request has had: its time and its bytes.
struct RequestState {
  Clock::duration limit{};  // zero: no limit
  Clock::time_point deadline;
  bool limited = true;          // false while an answer that lasts is written
  std::size_t max_bytes = 0;    // zero: no limit
  std::size_t bytes = 0;        // read for this request so far
  bool read_timed_out = false;  // a read waited until the deadline: the connection ends
  bool read_too_much = false;   // the request went past max_bytes: the connection ends
  bool close_after = false;     // the connection ends after this answer
  int stop_fd = -1;             // readable once the server stops (Listener::stop)

  // A new request's time and bytes, after an answer or at the connection's start.
  void restart(bool limit_it) {
    limited = limit_it && limit != Clock::duration::zero();
    deadline = Clock::now() + limit;
    bytes = 0;
  }
  bool over() const { return limited && Clock::now() >= deadline; }
  // How long a wait for the socket may last: `wait`, or less when the request's time ends
  // sooner.
  Clock::duration cap(Clock::duration wait) const {
    if (!limited) return wait;
    return std::clamp(deadline - Clock::now(), Clock::duration::zero(), wait);
  }
  bool ended() const { return read_timed_out || read_too_much || close_after; }
};

// The request state of the connection this thread serves (httplib serves a connection, all its
// requests, on one thread).
thread_local RequestState* current = nullptr;

// Waits until the socket is ready for `events` (POLLIN or POLLOUT), at most `wait`, and no
// longer once `stop_fd` is readable (the server stops): then only a socket ready at once is.
// So a stop ends the waits of slow and idle clients at once, where it waited for them, for
// as long as a client sent a byte every few seconds.
bool ready(int sock, short events, Clock::duration wait, int stop_fd) {
  std::array<pollfd, 2> p{pollfd{sock, events, 0}, pollfd{stop_fd, POLLIN, 0}};
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(wait).count();  // not before
  for (;;) {
    const int n = ::poll(p.data(), stop_fd >= 0 ? 2 : 1, static_cast<int>(ms));
    if (n < 0 && errno == EINTR) continue;
    return n > 0 && p[0].revents != 0;
  }
}

// The numeric address and port of a socket's peer (getpeername) or its own end (getsockname).
void address_of(int sock, bool peer, std::string& ip, int& port) {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  auto* a = reinterpret_cast<sockaddr*>(&addr);
  if ((peer ? ::getpeername(sock, a, &len) : ::getsockname(sock, a, &len)) != 0) return;
  std::array<char, NI_MAXHOST> host{};
  std::array<char, NI_MAXSERV> serv{};
  if (::getnameinfo(a, len, host.data(), host.size(), serv.data(), serv.size(),
                    NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
    ip = host.data();
    port = std::atoi(serv.data());
  }
}

// A connection's socket as httplib reads and writes it: buffered reads, each read or write
// waiting at most kIoWait for the socket, and reads never past the request's time nor its
// bytes. Writes have no such limit: a page's scripts take a while to a slow phone, and a client
// that reads nothing is cut after kIoWait.
class TimedStream : public httplib::Stream {
 public:
  TimedStream(int sock, RequestState& state) : sock_(sock), state_(state) {}

  bool is_readable() const override {
    if (state_.read_timed_out) return false;
    if (pending() > 0 || ready(sock_, POLLIN, state_.cap(kIoWait), state_.stop_fd)) return true;
    state_.read_timed_out = state_.over();  // the wait ended with the request's time
    return false;
  }
  // Writable, and for an event stream not closed by the client, so that a closed stream's place
  // comes back. (A client that closed only its sending side, as `nc -N` does, still gets the
  // answer to its request.)
  bool is_writable() const override {
    if (!ready(sock_, POLLOUT, kIoWait, state_.stop_fd)) return false;
    if (state_.limited) return true;
    char byte;
    return !ready(sock_, POLLIN, Clock::duration::zero(), -1) ||
           ::recv(sock_, &byte, 1, MSG_PEEK | MSG_DONTWAIT) != 0;
  }
  ssize_t read(char* ptr, size_t size) override {
    if (pending() == 0) {
      if (!is_readable()) return -1;
      const ssize_t n = ::recv(sock_, buffer_.data(), buffer_.size(), 0);
      if (n <= 0) return n;
      begin_ = 0;
      end_ = static_cast<size_t>(n);
    }
    size_t n = std::min(size, pending());
    if (state_.max_bytes > 0) {
      if (state_.bytes >= state_.max_bytes) {
        state_.read_too_much = true;
        return -1;
      }
      n = std::min(n, state_.max_bytes - state_.bytes);
    }
    std::memcpy(ptr, buffer_.data() + begin_, n);
    begin_ += n;
    state_.bytes += n;
    return static_cast<ssize_t>(n);
  }
  ssize_t write(const char* ptr, size_t size) override {
    if (!is_writable()) return -1;
    return ::send(sock_, ptr, size, MSG_NOSIGNAL);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    address_of(sock_, true, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    address_of(sock_, false, ip, port);
  }
  socket_t socket() const override { return sock_; }

  // Bytes read from the socket and not yet taken (the start of the next request, perhaps).
  size_t pending() const { return end_ - begin_; }

 private:
  int sock_;
  RequestState& state_;
  std::array<char, 4096> buffer_{};
  size_t begin_ = 0;
  size_t end_ = 0;
};

// A request as httplib has read its head, changed before it is routed: compression with gzip
// only (the brotli of this httplib compresses at its slowest level, 2 s of CPU for the 3D view's
// scripts, and has no limit of its own); no answer of several ranges (httplib makes it whole in
// memory: 2,700 ranges of a 1 MB script in an 8 KB header are 4 GB), which HTTP lets a server
// answer with the whole content; and a request without Content-Length or Transfer-Encoding
// has no body, as HTTP/1.1 says (httplib read one until the client closed, or 5 s of silence).
void setup_request(httplib::Request& req) {
  if (!req.has_header("Content-Length") && !req.has_header("Transfer-Encoding")) {
    req.set_header("Content-Length", "0");
  }
  const std::string accepted = to_lower(req.get_header_value("Accept-Encoding"));
  req.headers.erase("Accept-Encoding");
  if (accepted.find("gzip") != std::string::npos) req.set_header("Accept-Encoding", "gzip");
  if (req.ranges.size() > 1) {
    req.ranges.clear();
    req.headers.erase("Range");
  }
}

// Answers `status` with the reason as JSON and closes: what the client sent is read first (as
// far as it has arrived), so that closing does not reset the connection before the client reads
// the answer. For connections httplib does not answer: refused before anything is read (503),
// or cut off in their request line (408).
void answer_and_close(int sock, int status, const std::string& reason) {
  const std::string body = json_text(Json{{"error", reason}});
  const std::string answer =
      "HTTP/1.1 " + std::to_string(status) +
      (status == 408 ? " Request Timeout" : " Service Unavailable") +
      "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
      "\r\nConnection: close\r\n\r\n" + body;
  (void)::send(sock, answer.data(), answer.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  ::shutdown(sock, SHUT_WR);
  std::array<char, 4096> sink{};
  while (::recv(sock, sink.data(), sink.size(), MSG_DONTWAIT) > 0) {
  }
}

}  // namespace

std::string client_of(const std::string& address) {
  in6_addr a6{};
  if (address.find(':') == std::string::npos || ::inet_pton(AF_INET6, address.c_str(), &a6) != 1 ||
      IN6_IS_ADDR_V4MAPPED(&a6)) {
    return address;
  }
  std::fill(a6.s6_addr + 8, a6.s6_addr + 16, 0);
  std::array<char, INET6_ADDRSTRLEN> text{};
  ::inet_ntop(AF_INET6, &a6, text.data(), text.size());
  return std::string(text.data()) + "/64";
}

namespace {

// `text` as 16 bytes (an IPv4 address mapped into IPv6), or nothing when it is no address.
std::optional<std::array<unsigned char, 16>> ip_bytes(const std::string& text) {
  std::array<unsigned char, 16> bytes{};
  in_addr a4{};
  in6_addr a6{};
  if (::inet_pton(AF_INET, text.c_str(), &a4) == 1) {
    bytes[10] = bytes[11] = 0xff;
    std::memcpy(bytes.data() + 12, &a4, 4);
  } else if (::inet_pton(AF_INET6, text.c_str(), &a6) == 1) {
    std::memcpy(bytes.data(), &a6, 16);
  } else {
    return std::nullopt;
  }
  return bytes;
}

}  // namespace

TrustedProxies::TrustedProxies(const std::vector<std::string>& addresses) {
  for (const std::string& a : addresses) {
    const auto bytes = ip_bytes(trim(a));
    if (!bytes) {
      throw Error("--trusted-proxy " + quote_input(a) +
                  " is not an IP address (such as 127.0.0.1 or ::1)");
    }
    addresses_.push_back(*bytes);
  }
}

bool TrustedProxies::contains(const std::string& address) const {
  const auto bytes = ip_bytes(address);
  return bytes && trusted(*bytes);
}

bool TrustedProxies::trusted(const std::array<unsigned char, 16>& bytes) const {
  return std::find(addresses_.begin(), addresses_.end(), bytes) != addresses_.end();
}

std::string TrustedProxies::client(const httplib::Request& req) const {
  if (addresses_.empty() || !contains(req.remote_addr)) return client_of(req.remote_addr);
  std::vector<std::string> hops;  // X-Forwarded-For's entries, first to last
  const std::size_t headers = req.get_header_value_count("X-Forwarded-For");
  for (std::size_t i = 0; i < headers; ++i) {
    std::stringstream list(req.get_header_value("X-Forwarded-For", i));
    for (std::string hop; std::getline(list, hop, ',');) hops.push_back(trim(hop));
  }
  for (auto hop = hops.rbegin(); hop != hops.rend(); ++hop) {
    const auto bytes = ip_bytes(*hop);
    if (!bytes) break;  // not an address: the proxy's own
    if (!trusted(*bytes)) return client_of(*hop);
  }
  return client_of(req.remote_addr);
}

void Listener::raise_backlog() {
  ::listen(svr_sock_, SOMAXCONN);
}

Listener::Listener(ConnectionLimits limits)
    : limits_(limits), stop_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}

Listener::~Listener() {
  if (stop_fd_ >= 0) ::close(stop_fd_);
}

void Listener::stop() {
  if (stop_fd_ >= 0) (void)::eventfd_write(stop_fd_, 1);
  // httplib's stop() does nothing until its accept loop has begun: a SIGTERM that came just
  // before (or during the start, pending until then) was lost and the server ran on. Closing
  // the listening socket here ends the loop whenever it begins.
  const socket_t sock = svr_sock_.exchange(INVALID_SOCKET);
  if (sock != INVALID_SOCKET) {
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
  }
}

void Listener::answered() {
  if (current) current->restart(true);
}

void Listener::unlimited() {
  if (current) current->restart(false);
}

std::string Listener::timeout_refusal() {
  if (!current || !current->read_timed_out) return "";
  std::ostringstream text;
  text << "the request did not arrive within "
       << std::chrono::duration<double>(current->limit).count() << " s (--request-timeout)";
  return text.str();
}

std::size_t Listener::too_large() {
  return current && current->read_too_much ? current->max_bytes : 0;
}

void Listener::close_after_answer(httplib::Response& res) {
  if (current) current->close_after = true;
  res.set_header("Connection", "close");
}

bool Listener::admit(const std::string& client, bool proxy, std::string& refusal) {
  std::lock_guard lock(mutex_);
  int& open = open_[client];
  if (limits_.per_address > 0 && open >= limits_.per_address && !proxy) {
    refusal = "too many connections from " + (client.empty() ? "this address" : client) +
              " (at most " + std::to_string(limits_.per_address) +
              " open at once); close some and try again";
    if (open == 0) open_.erase(client);
    return false;
  }
  ++open;
  return true;
}

void Listener::release(const std::string& client) {
  std::lock_guard lock(mutex_);
  if (--open_[client] == 0) open_.erase(client);
}

// Serves one connection: its requests one after another, while the server runs, the
// connection stays open and each request comes in full, in time.
bool Listener::process_and_close_socket(socket_t sock) {
  std::string address;
  int port = 0;
  address_of(sock, true, address, port);
  const std::string client = client_of(address);
  std::string refusal;
  bool ok = false;
  if (!admit(client, limits_.trusted.contains(address), refusal)) {
    answer_and_close(sock, 503, refusal);
  } else {
    RequestState state;
    state.limit =
        std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limits_.timeout));
    state.max_bytes = limits_.max_request;
    state.stop_fd = stop_fd_;
    state.restart(true);
    current = &state;
    TimedStream stream(sock, state);
    for (size_t left = keep_alive_max_count_; left > 0 && svr_sock_ != INVALID_SOCKET; --left) {
      if (stream.pending() == 0 && !ready(sock, POLLIN, state.cap(kIdleWait), stop_fd_)) break;
      bool closed = false;
      try {
        ok = process_request(stream, left == 1, closed, setup_request);
      } catch (const std::exception&) {
        ok = false;  // (std::bad_alloc while httplib reads the head) the connection ends
      }
      // A request line cut off by the timeout gets no answer from httplib.
      if (!ok && state.read_timed_out && state.bytes > 0) {
        answer_and_close(sock, 408, timeout_refusal());
      }
      if (!ok || closed || state.ended()) break;
    }
    current = nullptr;
    release(client);
  }
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
  return ok;
}

}  // namespace tanbo::serve

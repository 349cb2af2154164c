#include "connections.hpp"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "games.hpp"

namespace tanbo::serve {

namespace {

using Clock = std::chrono::steady_clock;

// httplib's defaults, which the server keeps: how long one read or write may wait for the
// socket, and how long a connection may wait for its next request.
constexpr auto kIoWait = std::chrono::seconds(5);
constexpr auto kIdleWait = std::chrono::seconds(5);

// The time a connection's current request has.
struct RequestTime {
  Clock::duration limit{};  // zero: no limit
  Clock::time_point deadline;
  bool limited = true;           // false while an answer that lasts is written
  mutable bool expired = false;  // a request did not arrive in time: the connection ends

  void restart(bool limit_it) {
    limited = limit_it && limit != Clock::duration::zero();
    deadline = Clock::now() + limit;
  }
  bool over() const {
    if (limited && Clock::now() >= deadline) expired = true;
    return expired;
  }
  // How long a wait for the socket may last: `wait`, or less when the request's time ends
  // sooner.
  Clock::duration cap(Clock::duration wait) const {
    if (!limited) return wait;
    return std::clamp(deadline - Clock::now(), Clock::duration::zero(), wait);
  }
};

// The request time of the connection this thread serves (httplib serves a connection, all its
// requests, on one thread).
thread_local RequestTime* current_time = nullptr;

// Waits until the socket is ready for `events` (POLLIN or POLLOUT), at most `wait`.
bool ready(int sock, short events, Clock::duration wait) {
  pollfd p{sock, events, 0};
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(wait).count();  // not before
  for (;;) {
    const int n = ::poll(&p, 1, static_cast<int>(ms));
    if (n < 0 && errno == EINTR) continue;
    return n > 0;
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
// waiting at most kIoWait for the socket, and reads never past the request's time. Writes have
// no such limit: a page's scripts take a while to a slow phone, and a client that reads
// nothing is cut after kIoWait.
class TimedStream : public httplib::Stream {
 public:
  TimedStream(int sock, const RequestTime& time) : sock_(sock), time_(time) {}

  bool is_readable() const override {
    if (time_.over()) return false;
    if (pending() > 0 || ready(sock_, POLLIN, time_.cap(kIoWait))) return true;
    (void)time_.over();  // a wait that ended with the request's time ends the connection
    return false;
  }
  // Writable, and not closed by the peer: a closed event stream's place comes back at its next
  // write.
  bool is_writable() const override {
    if (!ready(sock_, POLLOUT, kIoWait)) return false;
    char byte;
    return !ready(sock_, POLLIN, Clock::duration::zero()) ||
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
    const size_t n = std::min(size, pending());
    std::memcpy(ptr, buffer_.data() + begin_, n);
    begin_ += n;
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
  const RequestTime& time_;
  std::array<char, 4096> buffer_{};
  size_t begin_ = 0;
  size_t end_ = 0;
};

// Answers 503 without reading the request, then closes: what the client sent is read first
// (as far as it has arrived), so that closing does not reset the connection before the client
// reads the answer.
void refuse(int sock, const std::string& reason) {
  const std::string body = json_text(Json{{"error", reason}});
  const std::string answer =
      "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: " +
      std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
  (void)::send(sock, answer.data(), answer.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  ::shutdown(sock, SHUT_WR);
  std::array<char, 4096> sink{};
  while (::recv(sock, sink.data(), sink.size(), MSG_DONTWAIT) > 0) {
  }
}

}  // namespace

void Listener::raise_backlog() {
  ::listen(svr_sock_, SOMAXCONN);
}

void Listener::answered() {
  if (current_time) current_time->restart(true);
}

void Listener::unlimited() {
  if (current_time) current_time->restart(false);
}

double Listener::timed_out() {
  if (!current_time || !current_time->over()) return 0;
  return std::chrono::duration<double>(current_time->limit).count();
}

bool Listener::admit(const std::string& address, std::string& refusal) {
  std::lock_guard lock(mutex_);
  int& open = open_[address];
  if (limits_.per_address > 0 && open >= limits_.per_address) {
    refusal = "too many connections from " + (address.empty() ? "this address" : address) +
              " (at most " + std::to_string(limits_.per_address) +
              " open at once); close some and try again";
    if (open == 0) open_.erase(address);
    return false;
  }
  ++open;
  return true;
}

void Listener::release(const std::string& address) {
  std::lock_guard lock(mutex_);
  if (--open_[address] == 0) open_.erase(address);
}

// Serves one connection: its requests one after another, while the server runs, the
// connection stays open and each request comes within the time it has.
bool Listener::process_and_close_socket(socket_t sock) {
  std::string address;
  int port = 0;
  address_of(sock, true, address, port);
  std::string refusal;
  bool ok = false;
  if (!admit(address, refusal)) {
    refuse(sock, refusal);
  } else {
    RequestTime time;
    time.limit =
        std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limits_.timeout));
    time.restart(true);
    current_time = &time;
    TimedStream stream(sock, time);
    for (size_t left = keep_alive_max_count_; left > 0 && svr_sock_ != INVALID_SOCKET; --left) {
      const bool waiting = stream.pending() == 0;
      if (time.over() || (waiting && !ready(sock, POLLIN, time.cap(kIdleWait)))) break;
      bool closed = false;
      ok = process_request(stream, left == 1, closed, nullptr);
      if (!ok || closed) break;
    }
    current_time = nullptr;
    release(address);
  }
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
  return ok;
}

}  // namespace tanbo::serve

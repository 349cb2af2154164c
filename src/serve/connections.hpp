// How the web server takes and serves its connections: how many one client may hold open, how
// long and how large a request may be, so that slow, large or many requests cannot hold every
// connection thread or the server's memory (docs/web.md, Security).
#pragma once

#include <httplib.h>

#include <array>
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace tanbo::serve {

// The client a connection or request counts for: its IPv4 address, or the /64 network of its
// IPv6 address (one host has a whole /64), as "2001:db8:1:2::/64".
std::string client_of(const std::string& address);

// The reverse proxies the server believes (--trusted-proxy): a request one of them passes on
// counts for the client its X-Forwarded-For header names, not for the proxy.
class TrustedProxies {
 public:
  TrustedProxies() = default;
  // Throws tanbo::Error naming an entry that is not an IPv4 or IPv6 address.
  explicit TrustedProxies(const std::vector<std::string>& addresses);
  // Whether `address` (a peer's, as httplib gives it; an IPv4 address mapped into IPv6 is the
  // IPv4 one) is one of them.
  bool contains(const std::string& address) const;
  // The client a request counts for (client_of): the peer's address unless the peer is a
  // trusted proxy; then the address nearest the end of X-Forwarded-For (all of its headers, in
  // order) that is not a trusted proxy: the entries on its right were appended by proxies the
  // server believes, those on its left by anyone. The proxy's own when the header has no such
  // entry or that entry is not an address.
  std::string client(const httplib::Request& req) const;

 private:
  bool trusted(const std::array<unsigned char, 16>& bytes) const;  // one of addresses_
  std::vector<std::array<unsigned char, 16>> addresses_;           // IPv4 ones mapped into IPv6
};

struct ConnectionLimits {
  int per_address = 64;         // connections open at once from one client; 0 = no limit
  double timeout = 20;          // seconds for a request to arrive in full; 0 = no limit
  std::size_t max_request = 0;  // bytes of a request, head and body together
  TrustedProxies trusted;       // their connections are not limited by per_address
};

// httplib's server, serving each connection itself: the connection is counted against its
// client before anything is read; each request must arrive in full within the timeout, counted
// from the connection's start or the end of the previous answer, and within max_request bytes;
// answers are compressed with gzip only (brotli's default level took seconds of CPU for the 3D
// view's scripts), and a request for several ranges gets the whole answer. httplib's own limits
// stay: 5 s for each read or write to go on, 5 s of waiting for the next request.
class Listener : public httplib::Server {
 public:
  explicit Listener(ConnectionLimits limits);
  ~Listener() override;
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;
  // Stops the server, whether or not it listens yet (a stop before listen_after_bind makes it
  // return at once): no new connection is taken, and a connection's waits for its client end
  // (a request that has not arrived, an idle keep-alive, an answer its client does not read)
  // while the answers to requests read in full are still written.
  void stop();
  // Raises the listening socket's backlog from httplib's 5, which resets or delays a burst of
  // connections by a second.
  void raise_backlog();

  // Called on a connection's thread once an answer is written: the next request's time starts.
  static void answered();
  // Called on a connection's thread by a handler whose answer lasts (an event stream): no time
  // limit until that answer ends.
  static void unlimited();
  // On a connection's thread: why the current request is refused when it did not arrive within
  // the timeout ("the request did not arrive within 20 s (--request-timeout)"), else "".
  static std::string timeout_refusal();
  // On a connection's thread: the limit in bytes when the current request went past it, else 0.
  static std::size_t too_large();
  // On a connection's thread: the connection closes after `res` is written, which says so (a
  // request httplib could not read leaves the rest of it unread, which must not be read as the
  // next).
  static void close_after_answer(httplib::Response& res);

 private:
  bool process_and_close_socket(socket_t sock) override;
  // Counts a connection of `client`, or refuses it (`refusal`) when the client has per_address
  // open already; a trusted proxy's (`proxy`) carry many clients and are counted only.
  bool admit(const std::string& client, bool proxy, std::string& refusal);
  void release(const std::string& client);

  const ConnectionLimits limits_;
  const int stop_fd_;  // an eventfd, readable once stop() is called
  std::mutex mutex_;
  std::unordered_map<std::string, int> open_;  // connections open, by client
};

}  // namespace tanbo::serve

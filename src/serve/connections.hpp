// How the web server takes and serves its connections: how many one client address may hold
// open, and how long a request may take, so that slow or many clients cannot hold every
// connection thread (docs/web.md, Security).
#pragma once

#include <httplib.h>

#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

namespace tanbo::serve {

struct ConnectionLimits {
  int per_address = 64;  // connections open at once from one address; 0 = no limit
  double timeout = 20;   // seconds for a request to arrive in full; 0 = no limit
};

// httplib's server, serving each connection itself: the connection is counted against its
// address before anything is read, and each request must arrive in full within the timeout,
// counted from the connection's start or the end of the previous answer. httplib's own limits
// stay: 5 s for each read or write to go on, 5 s of waiting for the next request.
class Listener : public httplib::Server {
 public:
  explicit Listener(ConnectionLimits limits) : limits_(limits) {}
  // Raises the listening socket's backlog from httplib's 5, which resets or delays a burst of
  // connections by a second.
  void raise_backlog();

  // Called on a connection's thread once an answer is written: the next request's time starts.
  static void answered();
  // Called on a connection's thread by a handler whose answer lasts (an event stream): no time
  // limit until that answer ends.
  static void unlimited();
  // On a connection's thread: the timeout in seconds when the current request did not arrive
  // within it, else 0.
  static double timed_out();

 private:
  bool process_and_close_socket(socket_t sock) override;
  bool admit(const std::string& address, std::string& refusal);
  void release(const std::string& address);

  const ConnectionLimits limits_;
  std::mutex mutex_;
  std::unordered_map<std::string, int> open_;  // connections open, by address
};

}  // namespace tanbo::serve

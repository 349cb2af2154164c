// Signals taken by a thread of their own: from its making, a SignalThread blocks the signals it
// was given in the thread that made it (and in every thread made after that, which inherit the
// mask); once started, its own thread waits for them with sigwait and calls `on_signal` for each,
// outside any signal handler, so that it may lock, write and stop searches freely. A signal that
// comes before the start waits for it.
//
// A shell starts a background job with SIGINT ignored, and an ignored signal is never pending:
// the signals' actions are set to their defaults (blocked, they do nothing) and restored at the
// end. SIGUSR2 ends the thread and must not be one of the signals.
#pragma once

#include <csignal>
#include <functional>
#include <initializer_list>
#include <thread>
#include <utility>
#include <vector>

namespace tanbo {

class SignalThread {
 public:
  explicit SignalThread(std::initializer_list<int> signals);
  ~SignalThread();  // stop(), then the signals' mask and actions as they were before
  SignalThread(const SignalThread&) = delete;
  SignalThread& operator=(const SignalThread&) = delete;

  // Starts the thread that calls `on_signal(signal)` for each signal, one at a time.
  void start(std::function<void(int)> on_signal);
  // Ends the thread (when started), waiting for a call of on_signal under way: call it before
  // what on_signal uses goes. A signal that comes later waits, and is dropped at the end.
  void stop();

 private:
  sigset_t waited_{};    // the signals given, and SIGUSR2
  sigset_t old_mask_{};  // the making thread's mask before
  std::vector<std::pair<int, struct sigaction>> old_actions_;
  std::thread thread_;
};

}  // namespace tanbo

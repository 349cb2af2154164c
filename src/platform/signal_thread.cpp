#include "tanbo/platform/signal_thread.hpp"

#include <pthread.h>

namespace tanbo {

SignalThread::SignalThread(std::initializer_list<int> signals) {
  sigemptyset(&waited_);
  for (const int s : signals) {
    sigaddset(&waited_, s);
    struct sigaction old {};
    struct sigaction plain {};
    plain.sa_handler = SIG_DFL;
    sigemptyset(&plain.sa_mask);
    ::sigaction(s, &plain, &old);
    old_actions_.emplace_back(s, old);
  }
  sigaddset(&waited_, SIGUSR2);
  pthread_sigmask(SIG_BLOCK, &waited_, &old_mask_);
}

void SignalThread::start(std::function<void(int)> on_signal) {
  thread_ = std::thread([this, on_signal = std::move(on_signal)] {
    for (;;) {
      int s = 0;
      if (sigwait(&waited_, &s) != 0 || s == SIGUSR2) return;
      on_signal(s);
    }
  });
}

void SignalThread::stop() {
  if (!thread_.joinable()) return;
  pthread_kill(thread_.native_handle(), SIGUSR2);
  thread_.join();
}

SignalThread::~SignalThread() {
  stop();
  // Signals that came with no thread to take them are pending: taken here, not acted on once
  // unblocked.
  sigset_t pending;
  sigpending(&pending);
  for (const auto& [s, old] : old_actions_) {
    if (!sigismember(&pending, s)) continue;
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, s);
    int taken = 0;
    sigwait(&one, &taken);
  }
  pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
  for (const auto& [s, old] : old_actions_) ::sigaction(s, &old, nullptr);
}

}  // namespace tanbo

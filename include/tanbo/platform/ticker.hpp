// A timer thread for long computations: a solve's time limit and progress lines, periodic
// checkpoints. The work itself never waits for these; the ticker wakes at the times it is
// told and calls back.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace tanbo {

class Ticker {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr Clock::time_point kNever = Clock::time_point::max();
  // Called at (or just after) the time it asked for, with the time the ticker woke; returns
  // the next time to be called, or kNever to be called no more.
  using Tick = std::function<Clock::time_point(Clock::time_point now)>;

  // Calls `tick` at `first` and then whenever it asks, on a thread of its own; no thread is
  // started when `first` is kNever.
  Ticker(Clock::time_point first, Tick tick);
  ~Ticker();  // wakes the thread (a tick under way finishes first) and joins it
  Ticker(const Ticker&) = delete;
  Ticker& operator=(const Ticker&) = delete;

  // `seconds` after `from`; kNever when `seconds` is 0 or less (no limit, no period) or past
  // what the clock can hold.
  static Clock::time_point after(Clock::time_point from, double seconds);

 private:
  void run(Clock::time_point next);

  Tick tick_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace tanbo

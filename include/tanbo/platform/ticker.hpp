// A timer thread for long computations: a solve's time limit and progress lines, periodic
// checkpoints. The work itself never waits for these; the ticker wakes at the times it is
// told and calls back.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
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

// The same times for a loop that reports as it goes, without a thread: due() says, at most once
// every `seconds` (never when `seconds` is 0 or less), that a report is due. It reads the clock
// once every 4,096 calls, so a loop may call it at every step.
class Every {
 public:
  using Clock = Ticker::Clock;
  explicit Every(double seconds)
      : seconds_(seconds), start_(Clock::now()), next_(Ticker::after(start_, seconds)) {}

  bool due() {
    if (next_ == Ticker::kNever || (++calls_ & 4095) != 0) return false;
    const Clock::time_point now = Clock::now();
    if (now < next_) return false;
    next_ = Ticker::after(now, seconds_);
    return true;
  }
  // Seconds since it was made.
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

 private:
  double seconds_;
  Clock::time_point start_, next_;
  std::uint64_t calls_ = 0;
};

}  // namespace tanbo

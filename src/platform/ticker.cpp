#include "tanbo/platform/ticker.hpp"

#include <cmath>

namespace tanbo {

Ticker::Ticker(Clock::time_point first, Tick tick) : tick_(std::move(tick)) {
  if (first != kNever) thread_ = std::thread([this, first] { run(first); });
}

Ticker::~Ticker() {
  {
    const std::lock_guard<std::mutex> lock(mu_);
    done_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

Ticker::Clock::time_point Ticker::after(Clock::time_point from, double seconds) {
  const auto room = std::chrono::duration<double>(kNever - from).count();
  if (!(seconds > 0) || !std::isfinite(seconds) || seconds >= room) return kNever;
  return from + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

void Ticker::run(Clock::time_point next) {
  std::unique_lock<std::mutex> lock(mu_);
  while (next != kNever) {
    if (wake_.wait_until(lock, next, [this] { return done_; })) return;
    lock.unlock();
    next = tick_(Clock::now());
    lock.lock();
  }
}

}  // namespace tanbo

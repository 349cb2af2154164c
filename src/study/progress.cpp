#include "tanbo/study/progress.hpp"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "text.hpp"

namespace tanbo {

namespace {

using study_text::fixed;

// A time per game: "0.31s" below ten seconds, else as format_duration.
std::string per_game(double seconds) {
  return seconds < 10 ? fixed(seconds, 2) + "s" : format_duration(seconds);
}

}  // namespace

std::string format_duration(double s) {
  const long t = static_cast<long>(s + 0.5);
  std::ostringstream os;
  if (t >= 3600)
    os << t / 3600 << "h" << std::setw(2) << std::setfill('0') << (t / 60) % 60 << "m";
  else if (t >= 60)
    os << t / 60 << "m" << std::setw(2) << std::setfill('0') << t % 60 << "s";
  else
    os << t << "s";
  return os.str();
}

double estimate_seconds_left(const std::vector<ProgressBoard>& boards,
                             const std::vector<std::uint64_t>& done,
                             const std::vector<double>& seconds) {
  // Seconds per game per squared point over the boards measured, for the boards not started.
  double measured = 0, weight = 0;
  for (std::size_t b = 0; b < boards.size(); ++b) {
    if (done[b] == 0) continue;
    const double p = static_cast<double>(boards[b].points);
    measured += seconds[b];
    weight += static_cast<double>(done[b]) * p * p;
  }
  double left = 0;
  for (std::size_t b = 0; b < boards.size(); ++b) {
    if (boards[b].games <= done[b]) continue;
    const double games_left = static_cast<double>(boards[b].games - done[b]);
    const double p = static_cast<double>(boards[b].points);
    if (done[b] > 0) {
      left += games_left * seconds[b] / static_cast<double>(done[b]);
    } else if (weight > 0) {
      left += games_left * measured / weight * p * p;
    } else {
      return -1;
    }
  }
  return left;
}

StudyProgress::StudyProgress(std::ostream& err, Mode mode, double interval, std::string label,
                             std::vector<ProgressBoard> boards)
    : err_(err),
      mode_(mode),
      interval_(std::chrono::duration_cast<Clock::duration>(
          std::chrono::duration<double>(interval > 0 ? interval : 0))),
      label_(std::move(label)),
      boards_(std::move(boards)),
      done_(boards_.size(), 0),
      seconds_(boards_.size(), 0.0),
      start_(Clock::now()),
      last_line_(start_) {
  for (const auto& b : boards_) total_ += b.games;
  if (mode_ != Mode::kLines) return;
  {
    std::lock_guard lock(mu_);
    write_line(status() + "; starting, " + std::to_string(boards_.size()) + " boards");
  }
  if (interval > 0) ticker_ = std::thread([this] { tick(); });
}

StudyProgress::~StudyProgress() {
  finish();
}

void StudyProgress::start_board(std::size_t board) {
  std::lock_guard lock(mu_);
  current_ = board;
}

void StudyProgress::game_done(std::size_t board, double seconds) {
  std::lock_guard lock(mu_);
  ++done_[board];
  seconds_[board] += seconds;
  ++played_;
  if (mode_ != Mode::kTerminal) return;
  const double el = std::chrono::duration<double>(Clock::now() - start_).count();
  const double left = estimate_seconds_left(boards_, done_, seconds_);
  std::string name = boards_[board].name;
  if (name.size() < 18) name += std::string(18 - name.size(), ' ');
  err_ << "\r" << played_ << "/" << total_ << " games  " << name << "  elapsed "
       << format_duration(el) << "  left ~" << (left < 0 ? "?" : format_duration(left)) << "     "
       << std::flush;
}

void StudyProgress::board_done(std::size_t board) {
  std::lock_guard lock(mu_);
  if (mode_ != Mode::kLines) return;
  const std::uint64_t n = done_[board];
  write_line(status() + "; " + board_text(board) + " done: " + std::to_string(n) +
             (n == 1 ? " game" : " games") +
             (n ? ", " + per_game(seconds_[board] / static_cast<double>(n)) + " a game" : ""));
}

void StudyProgress::finish() {
  {
    std::lock_guard lock(mu_);
    if (stop_) return;
    stop_ = true;
    if (mode_ == Mode::kTerminal) err_ << "\r" << std::string(79, ' ') << "\r" << std::flush;
  }
  wake_.notify_all();
  if (ticker_.joinable()) ticker_.join();
}

std::string StudyProgress::status() const {
  const double el = std::chrono::duration<double>(Clock::now() - start_).count();
  const double left = estimate_seconds_left(boards_, done_, seconds_);
  return label_ + ": " + std::to_string(played_) + "/" + std::to_string(total_) +
         " games, elapsed " + format_duration(el) + ", left " +
         (left < 0 ? std::string("unknown") : "~" + format_duration(left));
}

std::string StudyProgress::board_text(std::size_t board) const {
  return "board " + std::to_string(board + 1) + "/" + std::to_string(boards_.size()) + " (" +
         boards_[board].name + ")";
}

void StudyProgress::write_line(const std::string& text) {
  err_ << text << "\n" << std::flush;
  last_line_ = Clock::now();
}

void StudyProgress::tick() {
  std::unique_lock lock(mu_);
  while (!stop_) {
    const auto due = last_line_ + interval_;
    if (wake_.wait_until(lock, due, [&] { return stop_; })) break;
    if (Clock::now() >= last_line_ + interval_) {
      write_line(status() + "; playing " + board_text(current_));
    }
  }
}

}  // namespace tanbo

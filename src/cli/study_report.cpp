#include "study_report.hpp"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace tanbo::cli {

namespace {

std::string pct(double x) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(1) << 100.0 * x << "%";
  return os.str();
}

std::string fixed(double x, int digits) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(digits) << x;
  return os.str();
}

std::string pad(const std::string& s, std::size_t width, bool right = false) {
  if (s.size() >= width) return s;
  return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

// A time per game: "0.31s" below ten seconds, else as format_duration.
std::string per_game(double seconds) {
  return seconds < 10 ? fixed(seconds, 2) + "s" : format_duration(seconds);
}

}  // namespace

void print_study_table(const std::vector<StudyTally>& tallies, std::ostream& out) {
  std::size_t w = 8;
  for (const auto& t : tallies) {
    w = std::max(w, t.topology.size() + (t.setup == "default" ? 0 : t.setup.size() + 3));
  }
  out << pad("topology", w + 2) << pad("games", 6, true) << pad("first wins", 12, true)
      << "  95% interval     " << pad("length", 8, true) << pad("sd", 7, true)
      << pad("removals", 10, true) << "\n";
  for (const auto& t : tallies) {
    const Interval ci =
        wilson_interval(static_cast<double>(t.first_wins), static_cast<double>(t.games));
    const std::string name = t.setup == "default" ? t.topology : t.topology + " | " + t.setup;
    out << pad(name, w + 2) << pad(std::to_string(t.games), 6, true)
        << pad(pct(t.first_rate()), 12, true) << "  "
        << pad("[" + pct(ci.lo) + ", " + pct(ci.hi) + "]", 17)
        << pad(fixed(t.mean_length(), 1), 8, true) << pad(fixed(t.sd_length(), 1), 7, true)
        << pad(fixed(t.removals_per_game(), 2), 10, true);
    if (t.unfinished) out << "  (" << t.unfinished << " cut off)";
    out << "\n";
  }
}

Canvas study_chart(const std::vector<StudyTally>& tallies, const std::string& title) {
  const int scale = 2;
  int label_w = Canvas::text_width("topology", scale);
  for (const auto& t : tallies) label_w = std::max(label_w, Canvas::text_width(t.topology, scale));
  const int left = 20 + label_w + 20, plot_w = 500, row_h = 34, top = 60;
  const int width = std::max(left + plot_w + 40, 40 + Canvas::text_width(title, scale));
  const int height = top + row_h * static_cast<int>(tallies.size()) + 70;
  Canvas c(static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height));
  const Rgb black{0, 0, 0}, grid{215, 215, 215}, half{200, 60, 60}, bar{40, 90, 170};
  c.text(20, 16, title, black, scale);
  const int bottom = top + row_h * static_cast<int>(tallies.size());
  auto xpos = [&](double rate) { return left + static_cast<int>(rate * plot_w + 0.5); };
  for (int k = 0; k <= 4; ++k) {
    const int x = xpos(k / 4.0);
    c.vline(x, top - 6, bottom, k == 2 ? half : grid);
    const std::string lab = std::to_string(k * 25) + "%";
    c.text(x - Canvas::text_width(lab, scale) / 2, bottom + 10, lab, black, scale);
  }
  c.hline(left, left + plot_w, bottom, black);
  c.text(left, bottom + 36, "first player win rate, 95% interval", black, scale);
  for (std::size_t i = 0; i < tallies.size(); ++i) {
    const auto& t = tallies[i];
    const int y = top + row_h * static_cast<int>(i) + row_h / 2;
    c.text(20, y - 7, t.topology, black, scale);
    if (t.games == 0) continue;
    const Interval ci =
        wilson_interval(static_cast<double>(t.first_wins), static_cast<double>(t.games));
    const int x0 = xpos(ci.lo), x1 = xpos(ci.hi), xm = xpos(t.first_rate());
    c.fill_rect(x0, y - 1, x1, y + 1, bar);
    c.fill_rect(x0, y - 7, x0 + 1, y + 7, bar);
    c.fill_rect(x1 - 1, y - 7, x1, y + 7, bar);
    c.fill_rect(xm - 4, y - 4, xm + 4, y + 4, black);
  }
  return c;
}

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

// ---------------------------------------------------------------- progress

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

}  // namespace tanbo::cli

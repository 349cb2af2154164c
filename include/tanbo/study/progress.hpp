// The progress of a study on standard error: a line updated in place on a terminal, plain
// lines otherwise, with the time left estimated board by board.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <iosfwd>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tanbo {

// "4s", "1m05s", "2h03m".
std::string format_duration(double seconds);

// A board as the progress sees it.
struct ProgressBoard {
  std::string name;          // the spec as listed
  std::uint64_t games = 0;   // games this run plays on it
  std::uint64_t points = 0;  // its number of points
};

// Seconds the games not yet played will take: on each board, its games left times its own time
// per game so far; a board without a finished game yet at the time per game of the boards
// measured, scaled by the square of its number of points (a game's moves and each move's work
// both grow with the board). -1 when no game has finished yet.
double estimate_seconds_left(const std::vector<ProgressBoard>& boards,
                             const std::vector<std::uint64_t>& done,
                             const std::vector<double>& seconds);

// Progress of a study on standard error. On a terminal: one line updated in place after every
// game. Otherwise (a pipe, a file, a batch job's log): plain lines, one when the study starts,
// one when each board is finished, and one whenever `interval` seconds have passed without a
// line; each with the games done of the total, the time elapsed and the time left.
class StudyProgress {
 public:
  enum class Mode { kOff, kTerminal, kLines };
  StudyProgress(std::ostream& err, Mode mode, double interval, std::string label,
                std::vector<ProgressBoard> boards);
  ~StudyProgress();
  StudyProgress(const StudyProgress&) = delete;
  StudyProgress& operator=(const StudyProgress&) = delete;

  void start_board(std::size_t board);
  void game_done(std::size_t board, double seconds);
  void board_done(std::size_t board);
  void finish();  // clears the terminal's line and stops the periodic lines

 private:
  using Clock = std::chrono::steady_clock;
  std::string status() const;  // "D/T games, elapsed E, left ~L"; under the lock
  std::string board_text(std::size_t board) const;
  void write_line(const std::string& text);  // under the lock
  void tick();                               // the periodic lines' thread

  std::ostream& err_;
  Mode mode_;
  Clock::duration interval_;
  std::string label_;
  std::vector<ProgressBoard> boards_;
  std::vector<std::uint64_t> done_;
  std::vector<double> seconds_;
  std::uint64_t total_ = 0;
  std::uint64_t played_ = 0;
  std::size_t current_ = 0;
  Clock::time_point start_;
  Clock::time_point last_line_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread ticker_;
};

}  // namespace tanbo

#include <atomic>
#include <chrono>
#include <csignal>
#include <iomanip>
#include <iostream>
#include <optional>

#include "commands.hpp"
#include "tanbo/ai/playout.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/random.hpp"
#include "tanbo/platform/signal_thread.hpp"

namespace tanbo::cli {

int cmd_bench(const std::vector<std::string>& args, std::istream&, std::ostream& out,
              std::ostream& err) {
  BoardOptions board;
  std::uint64_t games = 1000;
  po::options_description desc("tanbo bench options");
  add_board_options(desc, board);
  desc.add_options()("games,n", po::value(&games)->default_value(games), "number of games");
  po::variables_map vm;
  if (const auto stop = parse_args(
          args, desc, nullptr, vm,
          "usage: tanbo bench [--topology SPEC] [--setup NAME] [--players N] [--games N]\n"
          "                   [--seed S]\n"
          "Plays N games choosing a legal move uniformly at random each turn, on one\n"
          "thread, each from a copy of the start position (the time counts the copies,\n"
          "not the allocation of the position before the first), and ends with one line:\n"
          "  games=N moves_per_game=X playouts_per_second=Y\n"
          "Ctrl-C stops after the game under way: the line counts the games played (status 130).\n"
          "example: tanbo bench --topology \"grid 5x5x5\" --games 2000",
          out, err))
    return *stop;
  if (games == 0) {
    err << "tanbo bench: --games must be at least 1\n";
    return 2;
  }
  Position start = make_position(board);
  start.set_recording(false);  // random games need no undo
  Rng rng(board.seed);
  std::uint64_t moves = 0;
  // Ctrl-C ends the run after the game under way, with the line of the games played (a count
  // of games too large to finish is stopped this way). Only in the program itself: a test that
  // calls cmd_bench with streams of its own keeps its signals.
  std::atomic<bool> stop{false};
  std::optional<SignalThread> ctrl_c;
  if (&out == &std::cout) {
    ctrl_c.emplace(std::initializer_list<int>{SIGINT});
    ctrl_c->start([&stop](int) { stop = true; });
  }
  // The position the games are played on is allocated (and its memory faulted in) before
  // the clock starts; each game, the first included, starts from a copy of the start.
  Position pos = start;
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t played = 0;
  while (played < games && !stop) {
    pos = start;  // assignment keeps the buffers (the game record) of the last game
    moves += random_playout(pos, rng);
    ++played;
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (ctrl_c) ctrl_c->stop();
  // Whole playouts a second; with fewer than 100 a second (big boards) two decimals, so that
  // a game of several seconds does not read as 0 or 1.
  const double rate = static_cast<double>(played) / std::max(secs, 1e-9);
  out << std::fixed << std::setprecision(1) << "games=" << played << " moves_per_game="
      << static_cast<double>(moves) / static_cast<double>(std::max<std::uint64_t>(played, 1))
      << " playouts_per_second=" << std::setprecision(rate < 100 ? 2 : 0) << rate << "\n";
  if (!stop) return 0;
  err << "tanbo bench: stopped by Ctrl-C after " << played << " of " << games << " games\n";
  return 130;
}

}  // namespace tanbo::cli

#include <chrono>
#include <iomanip>
#include <iostream>

#include "commands.hpp"
#include "tanbo/ai/playout.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/random.hpp"

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
  // The position the games are played on is allocated (and its memory faulted in) before
  // the clock starts; each game, the first included, starts from a copy of the start.
  Position pos = start;
  const auto t0 = std::chrono::steady_clock::now();
  for (std::uint64_t g = 0; g < games; ++g) {
    pos = start;  // assignment keeps the buffers (the game record) of the last game
    moves += random_playout(pos, rng);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // Whole playouts a second; with fewer than 100 a second (big boards) two decimals, so that
  // a game of several seconds does not read as 0 or 1.
  const double rate = static_cast<double>(games) / std::max(secs, 1e-9);
  out << std::fixed << std::setprecision(1) << "games=" << games
      << " moves_per_game=" << static_cast<double>(moves) / static_cast<double>(games)
      << " playouts_per_second=" << std::setprecision(rate < 100 ? 2 : 0) << rate << "\n";
  return 0;
}

}  // namespace tanbo::cli

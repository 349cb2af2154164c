// tanbo match: games between engine players, seats rotating, with a score table.
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <optional>

#include "commands.hpp"
#include "tanbo/platform/signal_thread.hpp"
#include "tanbo/study/csv.hpp"
#include "tanbo/study/match.hpp"

namespace tanbo::cli {

namespace {

const char* const kMatchHelp =
    "usage: tanbo match --players LIST [--topology SPEC] [--setup NAME] [--games N] [--seed S]\n"
    "                   [--csv] [--save-games DIR]\n"
    "Plays N games between engine players and prints wins per player and seat, the win rate\n"
    "with a 95% Wilson interval, the Elo difference (two players) and the mean game length.\n"
    "Every game seats every player of the list: two players play two-player games, alternating\n"
    "Black and White; three play three-player games, the seats rotating; and so on. The setup\n"
    "(the board's own unless --setup names one) must seat that many players: a list that does\n"
    "not fit it is refused with the setups that would.\n"
    "Players: random, greedy, mcts, mcts:playouts=N, mcts:time=S, options joined by commas\n"
    "(mcts:playouts=2000,threads=2). In the list a comma followed by a player name starts the\n"
    "next player. See docs/strength.md. --save-games writes DIR/game-001.tanbo, ...\n"
    "example: tanbo match --topology \"grid 9x9\" --players \"mcts:playouts=1000,random\" --games "
    "20";

void show_progress(std::ostream& err, const MatchTally& t, std::uint64_t done,
                   std::uint64_t games) {
  const double frac = static_cast<double>(done) / games;
  const int filled = static_cast<int>(frac * 30);
  std::string score;
  for (std::size_t a = 0; a < t.wins.size(); ++a)
    score += (a ? "-" : "") + std::to_string(t.wins[a]);
  err << "\r[" << std::string(filled, '#') << std::string(30 - filled, '.') << "] " << done << "/"
      << games << "  score " << score << std::flush;
}

}  // namespace

int cmd_match(const std::vector<std::string>& args, std::istream&, std::ostream& out,
              std::ostream& err) {
  MatchOptions o;
  po::options_description desc("tanbo match options");
  desc.add_options()(
      "topology,t", po::value(&o.topology)->default_value(o.topology),
      "board: \"line N\", \"grid AxBx... [wrap]\", \"hex N\" or \"file PATH\" (DOT)")(
      "setup,s", po::value(&o.setup)->default_value(o.setup),
      "starting setup; it must seat as many players as --players lists")(
      "players,p", po::value(&o.players)->required(),
      "engine players separated by commas, one per seat: random, greedy, mcts:KEY=VALUE,...")(
      "games,n", po::value(&o.games)->default_value(o.games), "number of games")(
      "seed", po::value(&o.seed)->default_value(o.seed), "random seed")(
      "csv", po::bool_switch(&o.csv), "print the table as CSV")(
      "save-games", po::value(&o.save_dir),
      "write every game as a game file into DIR (game-001.tanbo, ...)");
  po::variables_map vm;
  if (const auto stop = parse_args(args, desc, nullptr, vm, kMatchHelp, out, err)) return *stop;
  refuse_empty_names(vm, {{"save-games", "--save-games DIR"}});
  const Match match = prepare_match(o);
  const bool progress = (&err == &std::cerr) && isatty(STDERR_FILENO);
  // Ctrl-C ends the match after the game under way, with the table of the games played and
  // status 130, as bench does; a second Ctrl-C ends it at once (a game between slow engines can
  // last hours), with the table of the games finished before it. Only in the program itself: a
  // test that calls cmd_match with streams of its own keeps its signals.
  std::mutex mu;  // guards what both threads use below
  MatchTally finished(match.k());
  std::uint64_t played = 0;
  bool stop = false, reported = false;
  const auto t0 = std::chrono::steady_clock::now();
  // The table of the games finished (under `mu`, once).
  const auto report = [&] {
    reported = true;
    if (progress) err << "\r" << std::string(70, ' ') << "\r";
    if (played == 0) return;
    Match part = match;
    part.options.games = played;
    finished.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (o.csv) {
      write_match_csv(part, finished, out);
    } else {
      print_match_table(part, finished, out);
    }
    out.flush();
  };
  const auto stopped_line = [&] {
    err << "tanbo match: stopped by Ctrl-C after " << played << " of " << match.options.games
        << " games\n"
        << std::flush;
  };
  std::optional<SignalThread> ctrl_c;
  if (&out == &std::cout) {
    ctrl_c.emplace(std::initializer_list<int>{SIGINT});
    ctrl_c->start([&](int) {
      std::lock_guard<std::mutex> lock(mu);
      if (reported) return;  // the match is over and its table printed
      if (!stop) {
        stop = true;
        err << (progress ? "\n" : "")
            << "tanbo match: Ctrl-C: stopping after the game under way (Ctrl-C again stops at "
               "once)\n"
            << std::flush;
        return;
      }
      report();
      stopped_line();
      std::_Exit(130);
    });
  }
  struct StopFirst {  // the signals' thread ends before what it uses goes
    std::optional<SignalThread>& thread;
    ~StopFirst() {
      if (thread) thread->stop();
    }
  } stop_first{ctrl_c};
  // The progress bar, and the games finished kept for a report at any time; a stop ends the
  // match through an exception, the one way out of play_match between two games.
  struct Stopped {};
  const MatchProgress after_game = [&](const MatchTally& t, std::uint64_t done) {
    std::lock_guard<std::mutex> lock(mu);
    finished = t;
    played = done;
    if (progress) show_progress(err, t, done, match.options.games);
    if (stop) throw Stopped{};
  };
  bool interrupted = false;
  try {
    const MatchTally tally = play_match(match, after_game);
    std::lock_guard<std::mutex> lock(mu);
    finished = tally;
  } catch (const Stopped&) {
    interrupted = true;
  }
  std::lock_guard<std::mutex> lock(mu);
  if (interrupted) {
    report();
    stopped_line();
    return 130;
  }
  reported = true;
  if (progress) err << "\r" << std::string(70, ' ') << "\r" << std::flush;
  if (o.csv) {
    write_match_csv(match, finished, out);
  } else {
    print_match_table(match, finished, out);
  }
  return 0;
}

}  // namespace tanbo::cli

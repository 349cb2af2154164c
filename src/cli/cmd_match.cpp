// tanbo match: games between engine players, seats rotating, with a score table.
#include <unistd.h>

#include <iostream>

#include "commands.hpp"
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
  MatchProgress after_game;
  if (progress) {
    after_game = [&](const MatchTally& t, std::uint64_t done) {
      show_progress(err, t, done, match.options.games);
    };
  }
  const MatchTally tally = play_match(match, after_game);
  if (progress) err << "\r" << std::string(70, ' ') << "\r" << std::flush;
  if (o.csv) {
    write_match_csv(match, tally, out);
  } else {
    print_match_table(match, tally, out);
  }
  return 0;
}

}  // namespace tanbo::cli

// tanbo match: games between engine players, seats alternating, with a score table.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "options.hpp"
#include "tanbo/agent.hpp"
#include "tanbo/error.hpp"
#include "tanbo/gamefile.hpp"
#include "tanbo/match.hpp"

namespace tanbo::cli {

namespace {

std::string pct(double x) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(1) << 100.0 * x << "%";
  return os.str();
}

std::string pad(const std::string& s, std::size_t width, bool right = false) {
  if (s.size() >= width) return s;
  return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

}  // namespace

int cmd_match(const std::vector<std::string>& args, std::istream&, std::ostream& out,
              std::ostream& err) {
  std::string topology = "grid 19x19";
  std::string setup = "default";
  std::string players;
  std::uint64_t games = 10;
  std::uint64_t seed = 1;
  std::string save_dir;
  po::options_description desc("tanbo match options");
  desc.add_options()(
      "topology,t", po::value(&topology)->default_value(topology),
      "board: \"line N\", \"grid AxBx... [wrap]\", \"hex N\" or \"file PATH\" (DOT)")(
      "setup,s", po::value(&setup)->default_value(setup), "starting setup")(
      "players,p", po::value(&players)->required(),
      "engine players separated by commas, one per seat: random, greedy, mcts:KEY=VALUE,...")(
      "games,n", po::value(&games)->default_value(games), "number of games")(
      "seed", po::value(&seed)->default_value(seed), "random seed")(
      "csv", "print the table as CSV")("save-games", po::value(&save_dir),
                                       "write every game as a game file into DIR");
  po::variables_map vm;
  int code = 0;
  if (!parse_args(args, desc, nullptr, vm,
                  "usage: tanbo match --players LIST [--topology SPEC] [--games N] [--seed S]\n"
                  "                   [--csv] [--save-games DIR]\n"
                  "Plays N games between engine players, the seats rotating every game\n"
                  "(with two players: they alternate Black and White), and prints wins per\n"
                  "player and seat, the win rate with a 95% Wilson interval, the Elo\n"
                  "difference (two players) and the mean game length.\n"
                  "Players: random, greedy, mcts, mcts:playouts=N, mcts:time=S, options joined\n"
                  "by commas (mcts:playouts=2000,threads=2). In the list a comma followed by a\n"
                  "player name starts the next player. See docs/strength.md.\n"
                  "example: tanbo match --topology \"grid 9x9\" --players "
                  "\"mcts:playouts=1000,random\" --games 20",
                  out, err, code)) {
    return code;
  }
  const bool csv = vm.count("csv") > 0;
  try {
    if (games == 0) throw Error("--games must be at least 1");
    const std::vector<std::string> specs = seat_specs(players, "match");
    const int k = static_cast<int>(specs.size());
    auto topo = parse_topology(topology);
    const Setup start_setup = make_setup(*topo, setup, k);
    const Position start(topo, start_setup);
    if (!save_dir.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(save_dir, ec);
      if (ec || !std::filesystem::is_directory(save_dir)) {
        throw Error("--save-games " + save_dir + ": cannot create the directory");
      }
    }

    const bool progress = (&err == &std::cerr) && isatty(STDERR_FILENO);
    std::vector<std::uint64_t> wins(k, 0);
    std::vector<std::vector<std::uint64_t>> seat_wins(k, std::vector<std::uint64_t>(k, 0));
    std::vector<std::vector<std::uint64_t>> seat_games(k, std::vector<std::uint64_t>(k, 0));
    std::vector<std::uint64_t> playouts(k, 0);
    std::vector<double> seconds(k, 0);
    std::uint64_t unfinished = 0, length_sum = 0;
    const auto t0 = std::chrono::steady_clock::now();
    const int digits = static_cast<int>(std::to_string(games).size());

    for (std::uint64_t g = 0; g < games; ++g) {
      const Seating seating = seat_agents(specs, seed, g, g);
      const auto& agents = seating.agents;
      Position pos = start;
      const GameResult r = play_game(pos, seating.seats);
      length_sum += r.plies;
      for (int s = 1; s <= k; ++s) ++seat_games[agent_in_seat(s, g, k)][s - 1];
      if (r.winner == kEmpty) {
        ++unfinished;
      } else {
        const int a = agent_in_seat(r.winner, g, k);
        ++wins[a];
        ++seat_wins[a][r.winner - 1];
      }
      for (int a = 0; a < k; ++a) {
        playouts[a] += agents[a]->playouts_run();
        seconds[a] += agents[a]->seconds_spent();
      }
      if (!save_dir.empty()) {
        Game game(std::move(pos));
        for (int s = 1; s <= k; ++s) game.names.push_back(specs[agent_in_seat(s, g, k)]);
        game.date = utc_now();
        game.event = "tanbo match game " + std::to_string(g + 1) + " of " + std::to_string(games) +
                     ", seed " + std::to_string(seed);
        std::ostringstream name;
        name << "game-" << std::setw(digits) << std::setfill('0') << (g + 1) << ".tanbo";
        save_game(game, (std::filesystem::path(save_dir) / name.str()).string());
      }
      if (progress) {
        const double frac = static_cast<double>(g + 1) / games;
        const int filled = static_cast<int>(frac * 30);
        std::string score;
        for (int a = 0; a < k; ++a) score += (a ? "-" : "") + std::to_string(wins[a]);
        err << "\r[" << std::string(filled, '#') << std::string(30 - filled, '.') << "] " << (g + 1)
            << "/" << games << "  score " << score << std::flush;
      }
    }
    if (progress) err << "\r" << std::string(70, ' ') << "\r" << std::flush;
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    const double n = static_cast<double>(games);
    const double mean_len = static_cast<double>(length_sum) / n;
    // Score of a player for the Elo figure: wins plus half of the unfinished games.
    auto elo_of = [&](int a) {
      const double score = (wins[a] + 0.5 * unfinished) / n;
      const Interval ci = wilson_interval(wins[a] + 0.5 * unfinished, n);
      return std::array<double, 3>{elo_from_rate(score), elo_from_rate(ci.lo),
                                   elo_from_rate(ci.hi)};
    };
    if (csv) {
      out << "player,spec,games,wins,unfinished,win_rate,ci_low,ci_high,elo,elo_low,elo_high,"
             "mean_length";
      for (int s = 1; s <= k; ++s)
        out << ",wins_as_" << player_name(s) << ",games_as_" << player_name(s);
      out << "\n";
      for (int a = 0; a < k; ++a) {
        const Interval ci = wilson_interval(static_cast<double>(wins[a]), n);
        out << (a + 1) << ","
            << (specs[a].find(',') != std::string::npos ? "\"" + specs[a] + "\"" : specs[a]) << ","
            << games << "," << wins[a] << "," << unfinished << "," << std::fixed
            << std::setprecision(4) << wins[a] / n << "," << ci.lo << "," << ci.hi << ",";
        if (k == 2) {
          const auto e = elo_of(a);
          out << format_elo(e[0]) << "," << format_elo(e[1]) << "," << format_elo(e[2]);
        } else {
          out << ",,";
        }
        out << "," << std::setprecision(2) << mean_len;
        for (int s = 0; s < k; ++s) out << "," << seat_wins[a][s] << "," << seat_games[a][s];
        out << "\n";
      }
      return 0;
    }

    out << "match: " << topo->spec << " (" << start_setup.name << "), " << games << " games, seed "
        << seed << "\n";
    std::size_t w = 6;
    for (const auto& s : specs) w = std::max(w, s.size());
    out << pad("player", w + 2) << pad("wins", 6, true);
    for (int s = 1; s <= k; ++s) out << pad("as " + std::string(player_name(s)), 12, true);
    out << pad("win rate", 10, true) << "  95% interval\n";
    for (int a = 0; a < k; ++a) {
      const Interval ci = wilson_interval(static_cast<double>(wins[a]), n);
      out << pad(specs[a], w + 2) << pad(std::to_string(wins[a]), 6, true);
      for (int s = 0; s < k; ++s) {
        out << pad(std::to_string(seat_wins[a][s]) + "/" + std::to_string(seat_games[a][s]), 12,
                   true);
      }
      out << pad(pct(wins[a] / n), 10, true) << "  [" << pct(ci.lo) << ", " << pct(ci.hi) << "]\n";
    }
    if (unfinished) out << "unfinished games (cut off): " << unfinished << "\n";
    if (k == 2) {
      const auto e = elo_of(0);
      out << "Elo difference (" << specs[0] << " minus " << specs[1] << "): " << format_elo(e[0])
          << " [" << format_elo(e[1]) << ", " << format_elo(e[2]) << "]\n";
    }
    out << "mean game length: " << std::fixed << std::setprecision(1) << mean_len << " moves\n";
    for (int a = 0; a < k; ++a) {
      if (playouts[a] > 0 && seconds[a] > 0) {
        out << "search speed of " << specs[a] << ": " << std::setprecision(0)
            << playouts[a] / seconds[a] << " playouts/s\n";
      }
    }
    out << "time: " << std::setprecision(1) << wall << " s\n";
  } catch (const Error& e) {
    err << "tanbo match: " << e.what() << "\n";
    return 2;
  }
  return 0;
}

}  // namespace tanbo::cli

// tanbo match: games between engine players, seats rotating, with a score table.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "commands.hpp"
#include "seats.hpp"
#include "tanbo/ai/agent.hpp"
#include "tanbo/ai/match.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/io/gamefile.hpp"
#include "tanbo/platform/memory.hpp"

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

struct MatchOptions {
  std::string topology = "grid 19x19";
  std::string setup = "default";
  std::string players;
  std::uint64_t games = 10;
  std::uint64_t seed = 1;
  std::string save_dir;
  bool csv = false;
};

// What the games came to, per player (index = place in --players) and per seat.
struct Tally {
  explicit Tally(int k)
      : wins(k, 0),
        seat_wins(k, std::vector<std::uint64_t>(k, 0)),
        seat_games(k, std::vector<std::uint64_t>(k, 0)),
        playouts(k, 0),
        seconds(k, 0) {}
  std::vector<std::uint64_t> wins;
  std::vector<std::vector<std::uint64_t>> seat_wins;   // [player][seat - 1]
  std::vector<std::vector<std::uint64_t>> seat_games;  // [player][seat - 1]
  std::vector<std::uint64_t> playouts;
  std::vector<double> seconds;
  std::uint64_t unfinished = 0, length_sum = 0;
  double wall = 0;  // seconds for the whole match
};

// The match: players, board and options, checked before any game is played.
struct Match {
  MatchOptions options;
  std::vector<std::string> specs;  // one per player
  Setup setup;
  std::shared_ptr<const Position> start;
  int k() const { return static_cast<int>(specs.size()); }
};

std::string pct(double x) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(1) << 100.0 * x << "%";
  return os.str();
}

std::string pad(const std::string& s, std::size_t width, bool right = false) {
  if (s.size() >= width) return s;
  return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

Match prepare(const MatchOptions& o) {
  if (o.games == 0) throw Error("--games must be at least 1");
  Match m;
  m.options = o;
  m.specs = seat_specs(o.players, "match");
  auto topo = parse_topology(o.topology);
  m.setup = setup_for_players(*topo, o.setup, m.k());
  m.start = std::make_shared<const Position>(topo, m.setup);
  if (!o.save_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(o.save_dir, ec);
    if (ec || !std::filesystem::is_directory(o.save_dir)) {
      throw Error("--save-games " + o.save_dir + ": cannot create the directory");
    }
  }
  return m;
}

// DIR/game-001.tanbo: three digits at least, more when the match has more games.
void save_played_game(const Match& m, std::uint64_t g, Position pos) {
  const int k = m.k();
  Game game(std::move(pos));
  for (int s = 1; s <= k; ++s) game.names.push_back(m.specs[agent_in_seat(s, g, k)]);
  game.date = utc_now();
  game.event = "tanbo match game " + std::to_string(g + 1) + " of " +
               std::to_string(m.options.games) + ", seed " + std::to_string(m.options.seed);
  const int digits = std::max(3, static_cast<int>(std::to_string(m.options.games).size()));
  std::ostringstream name;
  name << "game-" << std::setw(digits) << std::setfill('0') << (g + 1) << ".tanbo";
  save_game(game, (std::filesystem::path(m.options.save_dir) / name.str()).string());
}

void show_progress(std::ostream& err, const Tally& t, std::uint64_t done, std::uint64_t games) {
  const double frac = static_cast<double>(done) / games;
  const int filled = static_cast<int>(frac * 30);
  std::string score;
  for (std::size_t a = 0; a < t.wins.size(); ++a)
    score += (a ? "-" : "") + std::to_string(t.wins[a]);
  err << "\r[" << std::string(filled, '#') << std::string(30 - filled, '.') << "] " << done << "/"
      << games << "  score " << score << std::flush;
}

Tally play_games(const Match& m, std::ostream& err) {
  const int k = m.k();
  const bool progress = (&err == &std::cerr) && isatty(STDERR_FILENO);
  Tally t(k);
  const auto t0 = std::chrono::steady_clock::now();
  for (std::uint64_t g = 0; g < m.options.games; ++g) {
    const Seating seating = seat_agents(m.specs, m.options.seed, g, g);
    Position pos = *m.start;
    const GameResult r = play_game(pos, seating.seats);
    t.length_sum += r.plies;
    for (int s = 1; s <= k; ++s) ++t.seat_games[agent_in_seat(s, g, k)][s - 1];
    if (r.winner == kEmpty) {
      ++t.unfinished;
    } else {
      const int a = agent_in_seat(r.winner, g, k);
      ++t.wins[a];
      ++t.seat_wins[a][r.winner - 1];
    }
    for (int a = 0; a < k; ++a) {
      t.playouts[a] += seating.agents[a]->playouts_run();
      t.seconds[a] += seating.agents[a]->seconds_spent();
    }
    if (!m.options.save_dir.empty()) save_played_game(m, g, std::move(pos));
    if (progress) show_progress(err, t, g + 1, m.options.games);
  }
  if (progress) err << "\r" << std::string(70, ' ') << "\r" << std::flush;
  t.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return t;
}

// Player a's Elo figure with its interval: wins plus half of the unfinished games.
std::array<double, 3> elo_of(const Tally& t, int a, double n) {
  const double score = (t.wins[a] + 0.5 * t.unfinished) / n;
  const Interval ci = wilson_interval(t.wins[a] + 0.5 * t.unfinished, n);
  return {elo_from_rate(score), elo_from_rate(ci.lo), elo_from_rate(ci.hi)};
}

void print_csv(const Match& m, const Tally& t, std::ostream& out) {
  const int k = m.k();
  const double n = static_cast<double>(m.options.games);
  const double mean_len = static_cast<double>(t.length_sum) / n;
  out << "player,spec,games,wins,unfinished,win_rate,ci_low,ci_high,elo,elo_low,elo_high,"
         "mean_length";
  for (int s = 1; s <= k; ++s)
    out << ",wins_as_" << player_name(s) << ",games_as_" << player_name(s);
  out << "\n";
  for (int a = 0; a < k; ++a) {
    const std::string& spec = m.specs[a];
    const Interval ci = wilson_interval(static_cast<double>(t.wins[a]), n);
    out << (a + 1) << "," << (spec.find(',') != std::string::npos ? "\"" + spec + "\"" : spec)
        << "," << m.options.games << "," << t.wins[a] << "," << t.unfinished << "," << std::fixed
        << std::setprecision(4) << t.wins[a] / n << "," << ci.lo << "," << ci.hi << ",";
    if (k == 2) {
      const auto e = elo_of(t, a, n);
      out << format_elo(e[0]) << "," << format_elo(e[1]) << "," << format_elo(e[2]);
    } else {
      out << ",,";
    }
    out << "," << std::setprecision(2) << mean_len;
    for (int s = 0; s < k; ++s) out << "," << t.seat_wins[a][s] << "," << t.seat_games[a][s];
    out << "\n";
  }
}

void print_table(const Match& m, const Tally& t, std::ostream& out) {
  const int k = m.k();
  const double n = static_cast<double>(m.options.games);
  out << "match: " << m.start->topology().spec << " (" << m.setup.name << "), ";
  if (k > 2) out << k << "-player games (every player in every game, the seats rotating), ";
  out << m.options.games << " games, seed " << m.options.seed << "\n";
  std::size_t w = 6;
  for (const auto& s : m.specs) w = std::max(w, s.size());
  out << pad("player", w + 2) << pad("wins", 6, true);
  for (int s = 1; s <= k; ++s) out << pad("as " + std::string(player_name(s)), 12, true);
  out << pad("win rate", 10, true) << "  95% interval\n";
  for (int a = 0; a < k; ++a) {
    const Interval ci = wilson_interval(static_cast<double>(t.wins[a]), n);
    out << pad(m.specs[a], w + 2) << pad(std::to_string(t.wins[a]), 6, true);
    for (int s = 0; s < k; ++s) {
      out << pad(std::to_string(t.seat_wins[a][s]) + "/" + std::to_string(t.seat_games[a][s]), 12,
                 true);
    }
    out << pad(pct(t.wins[a] / n), 10, true) << "  [" << pct(ci.lo) << ", " << pct(ci.hi) << "]\n";
  }
  if (t.unfinished) out << "unfinished games (cut off): " << t.unfinished << "\n";
  if (k == 2) {
    const auto e = elo_of(t, 0, n);
    out << "Elo difference (" << m.specs[0] << " minus " << m.specs[1] << "): " << format_elo(e[0])
        << " [" << format_elo(e[1]) << ", " << format_elo(e[2]) << "]\n";
  }
  out << "mean game length: " << std::fixed << std::setprecision(1) << t.length_sum / n
      << " moves\n";
  for (int a = 0; a < k; ++a) {
    if (t.playouts[a] > 0 && t.seconds[a] > 0) {
      out << "search speed of " << m.specs[a] << ": " << std::setprecision(0)
          << t.playouts[a] / t.seconds[a] << " playouts/s\n";
    }
  }
  out << "time: " << std::setprecision(1) << t.wall << " s\n";
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
  const Match match = prepare(o);
  const Tally tally = play_games(match, err);
  if (o.csv) {
    print_csv(match, tally, out);
  } else {
    print_table(match, tally, out);
  }
  return 0;
}

}  // namespace tanbo::cli

#include "tanbo/study/match.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/io/gamefile.hpp"
#include "tanbo/io/safe_file.hpp"
#include "tanbo/platform/memory.hpp"
#include "tanbo/study/seats.hpp"
#include "text.hpp"

namespace tanbo {

namespace {

// Where game g (from 0) of a match is saved: DIR/game-001.tanbo, with as many digits as the
// number of games needs.
std::string saved_game_path(const MatchOptions& o, std::uint64_t g) {
  const int digits = std::max(3, static_cast<int>(std::to_string(o.games).size()));
  std::ostringstream name;
  name << "game-" << std::setw(digits) << std::setfill('0') << (g + 1) << ".tanbo";
  return (std::filesystem::path(o.save_dir) / name.str()).string();
}

using study_text::pad;
using study_text::pct;

// DIR/game-001.tanbo: three digits at least, more when the match has more games.
void save_played_game(const Match& m, std::uint64_t g, Position pos) {
  const int k = m.k();
  Game game(std::move(pos));
  for (int s = 1; s <= k; ++s) game.names.push_back(m.specs[agent_in_seat(s, g, k)]);
  game.date = utc_now();
  game.event = "tanbo match game " + std::to_string(g + 1) + " of " +
               std::to_string(m.options.games) + ", seed " + std::to_string(m.options.seed);
  // (created, never replaced: prepare_match found no game of another match there)
  create_file_exclusive(saved_game_path(m.options, g), write_game(game));
}

// The folder of --save-games: made when it is missing (its parent must exist, as for any file
// written), and holding no game of another match, whatever its number of digits.
void prepare_save_dir(const std::string& dir) {
  const std::string shown = "--save-games " + shown_name(dir);
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec) && !std::filesystem::create_directory(dir, ec)) {
    throw Error(shown + ": cannot create the folder (" + ec.message() + ")");
  }
  if (!std::filesystem::is_directory(dir, ec)) throw Error(shown + ": is not a folder");
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("game-", 0) == 0 && name.size() > 11 &&
        name.compare(name.size() - 6, 6, ".tanbo") == 0) {
      throw Error(shown + " holds " + shown_name(entry.path().string()) +
                  " already (another match's?); choose another folder");
    }
  }
  if (ec) throw Error(shown + ": cannot read the folder (" + ec.message() + ")");
  // Before the first game: a folder that takes no file would otherwise end the match after it,
  // with the table of the games played lost.
  try {
    check_writable(dir + "/game-001.tanbo");
  } catch (const Error& e) {
    throw Error(shown + ": " + e.what());
  }
}

}  // namespace

Match prepare_match(const MatchOptions& o) {
  if (o.games == 0) throw Error("--games must be at least 1");
  Match m;
  m.options = o;
  m.specs = seat_specs(o.players, "match");
  auto topo = parse_topology(o.topology);
  m.setup = setup_for_players(*topo, o.setup, m.k());
  m.start = std::make_shared<const Position>(topo, m.setup);
  if (!o.save_dir.empty()) prepare_save_dir(o.save_dir);
  return m;
}

MatchTally play_match(const Match& m, const MatchProgress& after_game) {
  const int k = m.k();
  MatchTally t(k);
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
    if (after_game) after_game(t, g + 1);
  }
  t.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return t;
}

void print_match_table(const Match& m, const MatchTally& t, std::ostream& out) {
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
    const auto e = match_elo(t, 0, n);
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

}  // namespace tanbo

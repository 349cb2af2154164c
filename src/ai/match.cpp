#include "tanbo/ai/match.hpp"

#include <cmath>
#include <limits>
#include <sstream>

#include "tanbo/core/error.hpp"
#include "tanbo/core/mix.hpp"
#include "tanbo/core/numbers.hpp"
#include "tanbo/core/text.hpp"

namespace tanbo {

GameResult play_game(Position& pos, const std::vector<Agent*>& seats, std::uint32_t max_plies) {
  if (static_cast<int>(seats.size()) != pos.num_players()) {
    throw Error("a game of " + std::to_string(pos.num_players()) + " players needs " +
                std::to_string(pos.num_players()) + " engine players, got " +
                std::to_string(seats.size()));
  }
  if (max_plies == 0) max_plies = 100u * pos.num_vertices() + 1000u;
  for (Agent* a : seats) a->new_game();
  GameResult r;
  while (!pos.is_over() && r.plies < max_plies) {
    const Player p = pos.to_move();
    Agent* agent = seats[p - 1];
    const Vertex v = agent->choose(pos);
    if (v >= pos.num_vertices() || pos.check_move(p, v) != MoveStatus::kLegal) {
      throw Error("engine player " + agent->spec() + " chose an illegal move" +
                  (v < pos.num_vertices() ? ": " + pos.explain(p, v) : std::string()));
    }
    const MoveRecord& rec = pos.play(v);
    r.root_removals += rec.removed_end - rec.removed_begin;
    ++r.plies;
  }
  r.winner = pos.winner();
  return r;
}

Seating seat_agents(const std::vector<std::string>& specs, std::uint64_t seed,
                    std::uint64_t seed_game, std::uint64_t game) {
  const int k = static_cast<int>(specs.size());
  Seating s;
  for (int a = 0; a < k; ++a)
    s.agents.push_back(make_agent(specs[a], game_seed(seed, seed_game, a)));
  for (int seat = 1; seat <= k; ++seat)
    s.seats.push_back(s.agents[agent_in_seat(seat, game, k)].get());
  return s;
}

std::uint64_t game_seed(std::uint64_t seed, std::uint64_t game, std::uint64_t agent) {
  return mix64(mix64(mix64(seed) ^ game) ^ (agent * 0x632BE59BD9B4E019ull));
}

Interval wilson_interval(double wins, double n, double z) {
  if (n <= 0) return {0.0, 1.0};
  const double p = wins / n;
  const double z2 = z * z;
  const double denom = 1.0 + z2 / n;
  const double centre = (p + z2 / (2.0 * n)) / denom;
  const double half = z * std::sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / denom;
  // At the ends the bounds are exactly 0 and 1 (the formula gives them up to rounding).
  return {wins <= 0 ? 0.0 : std::max(0.0, centre - half),
          wins >= n ? 1.0 : std::min(1.0, centre + half)};
}

double elo_from_rate(double p) {
  if (p >= 1.0) return std::numeric_limits<double>::infinity();
  if (p <= 0.0) return -std::numeric_limits<double>::infinity();
  return -400.0 * std::log10(1.0 / p - 1.0);
}

std::string format_elo(double elo) {
  if (std::isinf(elo)) return elo > 0 ? "+inf" : "-inf";
  const long r = std::lround(elo);
  return (r >= 0 ? "+" : "") + std::to_string(r);
}

// ---------------------------------------------------------------- studies

void StudyTally::add(const GameResult& r, int seats) {
  if (seat_wins.size() < static_cast<std::size_t>(seats)) seat_wins.resize(seats, 0);
  ++games;
  if (r.winner == kEmpty) {
    ++unfinished;
  } else {
    ++seat_wins[r.winner - 1];
    if (r.winner == kBlack) ++first_wins;
  }
  length_sum += r.plies;
  length_sq_sum += static_cast<std::uint64_t>(r.plies) * r.plies;
  removals_sum += r.root_removals;
}

void StudyTally::merge(const StudyTally& o) {
  games += o.games;
  first_wins += o.first_wins;
  unfinished += o.unfinished;
  length_sum += o.length_sum;
  length_sq_sum += o.length_sq_sum;
  removals_sum += o.removals_sum;
  if (seat_wins.size() < o.seat_wins.size()) seat_wins.resize(o.seat_wins.size(), 0);
  for (std::size_t i = 0; i < o.seat_wins.size(); ++i) seat_wins[i] += o.seat_wins[i];
}

double StudyTally::mean_length() const {
  return games ? static_cast<double>(length_sum) / static_cast<double>(games) : 0.0;
}

double StudyTally::sd_length() const {
  if (games < 2) return 0.0;
  const double n = static_cast<double>(games);
  const double mean = static_cast<double>(length_sum) / n;
  const double var = (static_cast<double>(length_sq_sum) - n * mean * mean) / (n - 1.0);
  return var > 0 ? std::sqrt(var) : 0.0;
}

double StudyTally::removals_per_game() const {
  return games ? static_cast<double>(removals_sum) / static_cast<double>(games) : 0.0;
}

namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

std::vector<std::string> csv_split(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cur += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cur += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

std::string fixed(double x, int digits) {
  std::ostringstream os;
  os.setf(std::ios::fixed);
  os.precision(digits);
  os << x;
  return os.str();
}

const char* kStudyHeader =
    "topology,setup,games,first_wins,unfinished,length_sum,length_sq_sum,removals_sum,"
    "seat_wins,first_win_rate,ci_low,ci_high,mean_length,sd_length,removals_per_game";

}  // namespace

std::string study_csv(const std::vector<StudyTally>& tallies) {
  std::string out = std::string(kStudyHeader) + "\n";
  for (const auto& t : tallies) {
    std::string seats;
    for (std::size_t i = 0; i < t.seat_wins.size(); ++i) {
      seats += (i ? ":" : "") + std::to_string(t.seat_wins[i]);
    }
    const Interval ci =
        wilson_interval(static_cast<double>(t.first_wins), static_cast<double>(t.games));
    out += csv_field(t.topology) + "," + csv_field(t.setup) + "," + std::to_string(t.games) + "," +
           std::to_string(t.first_wins) + "," + std::to_string(t.unfinished) + "," +
           std::to_string(t.length_sum) + "," + std::to_string(t.length_sq_sum) + "," +
           std::to_string(t.removals_sum) + "," + seats + "," + fixed(t.first_rate(), 4) + "," +
           fixed(ci.lo, 4) + "," + fixed(ci.hi, 4) + "," + fixed(t.mean_length(), 2) + "," +
           fixed(t.sd_length(), 2) + "," + fixed(t.removals_per_game(), 2) + "\n";
  }
  return out;
}

std::vector<StudyTally> parse_study_csv(const std::string& text, const std::string& origin) {
  std::istringstream in(text);
  std::string line;
  std::vector<StudyTally> out;
  int number = 0;
  auto fail = [&](const std::string& why) {
    throw Error(origin + ":" + std::to_string(number) + ": " + why);
  };
  auto count = [&](const std::string& field, const char* name) -> std::uint64_t {
    const auto value = parse_whole(field);
    if (!value) fail(std::string(name) + " " + quote_input(field) + " is not a whole number");
    return *value;
  };
  bool header = false;
  while (std::getline(in, line)) {
    ++number;
    drop_carriage_returns(line);
    if (!header) {
      // Comment lines may come first: a shard's header (study.hpp), a partial merge's note.
      if (line.rfind('#', 0) == 0) continue;
      if (line != kStudyHeader) fail("not a study CSV (the header differs from tanbo study --csv)");
      header = true;
      continue;
    }
    if (line.empty()) continue;
    const auto f = csv_split(line);
    if (f.size() != 15) fail("expected 15 fields, found " + std::to_string(f.size()));
    StudyTally t;
    t.topology = f[0];
    t.setup = f[1];
    t.games = count(f[2], "games");
    t.first_wins = count(f[3], "first_wins");
    t.unfinished = count(f[4], "unfinished");
    t.length_sum = count(f[5], "length_sum");
    t.length_sq_sum = count(f[6], "length_sq_sum");
    t.removals_sum = count(f[7], "removals_sum");
    std::size_t start = 0;
    std::uint64_t seat_total = 0;
    while (start <= f[8].size()) {
      std::size_t end = f[8].find(':', start);
      if (end == std::string::npos) end = f[8].size();
      t.seat_wins.push_back(count(f[8].substr(start, end - start), "seat_wins"));
      seat_total += t.seat_wins.back();
      start = end + 1;
    }
    if (t.first_wins > t.games || t.unfinished > t.games || seat_total + t.unfinished != t.games ||
        t.seat_wins[0] != t.first_wins) {
      fail("the counts do not add up (games, wins per seat, unfinished)");
    }
    out.push_back(std::move(t));
  }
  if (number == 0) throw Error(origin + ": empty file, not a study CSV");
  if (!header) throw Error(origin + ": only comment lines, not a study CSV");
  return out;
}

void merge_tallies(std::vector<StudyTally>& into, const std::vector<StudyTally>& more) {
  for (const auto& t : more) {
    bool found = false;
    for (auto& have : into) {
      if (have.topology == t.topology && have.setup == t.setup) {
        have.merge(t);
        found = true;
        break;
      }
    }
    if (!found) into.push_back(t);
  }
}

}  // namespace tanbo

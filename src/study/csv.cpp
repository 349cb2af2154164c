#include "tanbo/study/csv.hpp"

#include <iomanip>
#include <ostream>
#include <sstream>

#include "tanbo/core/error.hpp"
#include "tanbo/core/numbers.hpp"
#include "tanbo/core/text.hpp"
#include "text.hpp"

namespace tanbo {

namespace {

using study_text::fixed;

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

const char* kStudyHeader =
    "topology,setup,games,first_wins,unfinished,length_sum,length_sq_sum,removals_sum,"
    "seat_wins,first_win_rate,ci_low,ci_high,mean_length,sd_length,removals_per_game";

}  // namespace

void write_match_csv(const Match& m, const MatchTally& t, std::ostream& out) {
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
      const auto e = match_elo(t, a, n);
      out << format_elo(e[0]) << "," << format_elo(e[1]) << "," << format_elo(e[2]);
    } else {
      out << ",,";
    }
    out << "," << std::setprecision(2) << mean_len;
    for (int s = 0; s < k; ++s) out << "," << t.seat_wins[a][s] << "," << t.seat_games[a][s];
    out << "\n";
  }
}

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
      // Comment lines may come first: a shard's header (shards.hpp), a partial merge's note.
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
      if (__builtin_add_overflow(seat_total, t.seat_wins.back(), &seat_total)) {
        fail("the wins per seat add up past 2^64 - 1");
      }
      start = end + 1;
    }
    if (t.first_wins > t.games || t.unfinished > t.games || seat_total > t.games ||
        seat_total + t.unfinished != t.games || t.seat_wins[0] != t.first_wins) {
      fail("the counts do not add up (games, wins per seat, unfinished)");
    }
    out.push_back(std::move(t));
  }
  if (number == 0) throw Error(origin + ": empty file, not a study CSV");
  if (!header) throw Error(origin + ": only comment lines, not a study CSV");
  return out;
}

}  // namespace tanbo

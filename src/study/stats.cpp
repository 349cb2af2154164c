#include "tanbo/study/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"

namespace tanbo {

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

std::array<double, 3> match_elo(const MatchTally& t, int a, double n) {
  const double score = (t.wins[a] + 0.5 * t.unfinished) / n;
  const Interval ci = wilson_interval(t.wins[a] + 0.5 * t.unfinished, n);
  return {elo_from_rate(score), elo_from_rate(ci.lo), elo_from_rate(ci.hi)};
}

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

namespace {

// a += b, or tanbo::Error when the sum does not fit (counts read from files may be anything).
void add_count(std::uint64_t& a, std::uint64_t b, const std::string& topology) {
  if (__builtin_add_overflow(a, b, &a)) {
    throw Error("the counts of " + quote_input(topology) +
                " add up past 2^64 - 1: a shard's figures are damaged");
  }
}

}  // namespace

void StudyTally::merge(const StudyTally& o) {
  if (games > 0 && o.games > 0 && seat_wins.size() != o.seat_wins.size()) {
    throw Error("the rows of " + quote_input(topology) + " count " +
                std::to_string(seat_wins.size()) + " and " + std::to_string(o.seat_wins.size()) +
                " seats: they are not of one study");
  }
  add_count(games, o.games, topology);
  add_count(first_wins, o.first_wins, topology);
  add_count(unfinished, o.unfinished, topology);
  add_count(length_sum, o.length_sum, topology);
  add_count(length_sq_sum, o.length_sq_sum, topology);
  add_count(removals_sum, o.removals_sum, topology);
  if (seat_wins.size() < o.seat_wins.size()) seat_wins.resize(o.seat_wins.size(), 0);
  for (std::size_t i = 0; i < o.seat_wins.size(); ++i)
    add_count(seat_wins[i], o.seat_wins[i], topology);
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

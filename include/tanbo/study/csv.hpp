// The CSV files of matches and studies: a match's table, and a study's sums per board, which
// tanbo study --merge reads back.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "tanbo/study/match.hpp"
#include "tanbo/study/stats.hpp"

namespace tanbo {

// The CSV of a match: a header line and one line per player, with its wins, win rate and
// interval, Elo (two players), mean game length, and wins and games in each seat.
void write_match_csv(const Match& m, const MatchTally& t, std::ostream& out);

// CSV of a study: a header line and one line per topology with the sums and the derived
// figures. Fields with commas or quotes are quoted.
std::string study_csv(const std::vector<StudyTally>& tallies);
// Reads study_csv()'s text back (only the sums are read; derived columns are recomputed).
// Lines starting with '#' before the header are skipped (a shard's header, shards.hpp).
// Throws tanbo::Error naming the line when the text is not such a CSV.
std::vector<StudyTally> parse_study_csv(const std::string& text, const std::string& origin);

}  // namespace tanbo

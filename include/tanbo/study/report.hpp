// The reports of a study: its table and its chart.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "tanbo/io/png.hpp"
#include "tanbo/study/stats.hpp"

namespace tanbo {

// The table of a study: a row per board with games, first-player win rate and its 95%
// interval, mean length, its standard deviation and roots removed per game.
void print_study_table(const std::vector<StudyTally>& tallies, std::ostream& out);

// Horizontal chart: a row per board, the first player's win rate as a dot with its 95%
// interval as a bar, a line at 50%, `title` on top.
Canvas study_chart(const std::vector<StudyTally>& tallies, const std::string& title);

}  // namespace tanbo

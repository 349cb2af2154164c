// Topology studies: matches on every board of a list, played whole or as one shard of a run,
// and the checked merge of the shards' CSV files.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "tanbo/core/position.hpp"
#include "tanbo/study/progress.hpp"
#include "tanbo/study/shards.hpp"
#include "tanbo/study/stats.hpp"

namespace tanbo {

// A board of the list.
struct StudyEntry {
  std::string spec;      // as written in the list (the key in the CSV)
  std::string setup;     // "default" unless given after '|'
  std::string resolved;  // the spec with a relative DOT path resolved against the list
};

// The list: one topology spec a line, optionally "| SETUP"; '#' starts a comment. Throws
// tanbo::Error naming the line for a malformed or repeated one, or an empty list.
std::vector<StudyEntry> read_study_list(const std::string& path);

// What a study plays, as tanbo study's options give it.
struct StudyOptions {
  std::string list_path;
  std::string players = "mcts:playouts=500,mcts:playouts=500";
  std::uint64_t games = 20;
  std::uint64_t seed = 1;
  std::string shard = "1/1";  // i/n as given
  bool shard_given = false;   // --shard given: the CSV carries the shard header
};

// A study ready to play: its boards built, its shard and run identified.
struct Study {
  std::vector<StudyEntry> entries;
  std::vector<Position> starts;
  std::vector<std::string> specs;  // the players
  ShardId shard;                   // parsed once from the options' text
  std::string shard_text;          // that text, as the labels and titles repeat it
  bool shard_given = false;
};

// Checks the options and builds every board: a bad line is refused before any game is played.
Study prepare_study(const StudyOptions& o);

// What a run or a merge reports.
struct StudyReport {
  std::vector<StudyTally> tallies;
  std::string title;              // the chart's default title
  std::optional<ShardId> header;  // written before the CSV (a shard's run)
  std::string note;               // a partial merge's note, after the table and before the CSV
};

// Plays the study's games of its shard, board by board, with progress on `err` in `mode`
// (a line every `interval` seconds in Mode::kLines).
StudyReport play_study(const Study& s, std::ostream& err, StudyProgress::Mode mode,
                       double interval);

// Merges the CSV files of the shards of one run: refuses (tanbo::Error, a line per reason) a
// set that is not one run's or misses shards, unless `allow_partial` and the set is only
// incomplete, which is then said on `err` and in the report's note.
StudyReport merge_study(const std::vector<std::string>& files, bool allow_partial,
                        std::ostream& err);

// For games of other than two players: how many play each game and on which setups.
void print_seats(const Study& s, std::ostream& err);

// --dry-run: what the options would play.
void print_study_plan(const Study& s, std::ostream& out);

// The perfect-play winner of each two-player board, within `seconds` a board (docs/solved.md).
void print_exact(const Study& s, double seconds, std::ostream& out);

}  // namespace tanbo

// Studies spread over shards: what identifies a study run, the header a shard's CSV
// carries, and the checks that a set of shard files makes one whole run before it is merged.
//
// A shard's CSV (tanbo study --csv --shard i/n) starts with comment lines naming its run:
//
//   # tanbo study shard 2/6
//   # seed 11
//   # games 7
//   # boards 5 3f09a1c27b44d8e0
//   # players greedy,mcts:playouts=20
//
// followed by the CSV of study_csv(). The merged CSV has no such lines, so that it is byte for
// byte the CSV of the unsharded run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tanbo/core/position.hpp"
#include "tanbo/study/stats.hpp"

namespace tanbo {

// What makes the games of a study: two shards belong to one run when all of it is equal.
struct StudyRun {
  std::uint64_t seed = 1;         // --seed
  std::uint64_t games = 0;        // --games: games per board
  std::string players;            // --players as given
  std::uint64_t boards = 0;       // boards in the list
  std::uint64_t fingerprint = 0;  // hash of the boards (study_fingerprint)
  bool operator==(const StudyRun&) const = default;
};

// One shard of a run: shard `index` of `count` (1-based).
struct ShardId {
  StudyRun run;
  std::uint64_t index = 1;
  std::uint64_t count = 1;
};

// Reads a shard "i/n" (1 <= i <= n, whole numbers of at most 19 digits), as --shard gives it and
// a shard's header stores it; nullopt for anything else.
std::optional<ShardId> parse_shard(std::string_view text);

// A hash (64-bit FNV-1a) of a study's boards: each board's spec as listed, its setup name, its
// graph and its starting stones, in list order. Boards built from the same list and files
// hash alike on any machine; a changed list, setup or DOT file hashes otherwise.
std::uint64_t study_fingerprint(const std::vector<std::string>& specs,
                                const std::vector<std::string>& setups,
                                const std::vector<Position>& starts);

// How many of the `games` games of board `board` (0-based) shard index/count plays: the games
// g whose global index board*games+g is index-1 modulo count.
std::uint64_t shard_games(std::uint64_t board, std::uint64_t games, std::uint64_t index,
                          std::uint64_t count);

// The chart title of a run: "tanbo study: PLAYERS, N games per board".
std::string study_title(const StudyRun& run);

// The comment lines that start a shard's CSV (see the top of this file), each ending in '\n'.
std::string shard_header(const ShardId& shard);

// Reads the header of a shard's CSV. std::nullopt when the text does not start with
// "# tanbo study shard" (the CSV of a whole study); throws tanbo::Error naming `origin` and the
// line when it does but the header is malformed.
std::optional<ShardId> parse_shard_header(const std::string& text, const std::string& origin);

// A CSV read for merging: its name, its shard header (if any) and its rows.
struct StudyFile {
  std::string name;
  std::optional<ShardId> shard;
  std::vector<StudyTally> tallies;
};

// Reads a study CSV with its optional shard header. Throws tanbo::Error naming the file when
// the CSV is malformed or its rows are not what its header says the shard played (a row per
// board, each with shard_games() games): a cut or edited file is refused.
StudyFile read_study_file(const std::string& text, const std::string& name);

// Whether a set of study files makes one whole run.
struct MergeCheck {
  std::optional<ShardId> run;          // the run the set is taken for (most files; index unused)
  std::vector<std::uint64_t> present;  // its shard indices given, ascending
  // Its shard indices not given, ascending: the first 12 of them (a header may claim a shard
  // count of 10^19, which no list could hold), and how many there are in all.
  std::vector<std::uint64_t> missing;
  std::uint64_t missing_count = 0;
  std::vector<std::string> refusals;  // "FILE: why" for foreign, duplicated or headerless files
  bool complete() const { return refusals.empty() && missing_count == 0; }
};

// Checks `files` against one another. The run is the (run, shard count) most files share (the
// first file's on a tie); every other shard file is foreign ("FILE: shard 4/4 of another run:
// other seed (12, not 11)"); a second file of the same shard is a duplicate; a file of the run
// whose rows name other boards than the first file of the run is refused (an edited file); a
// file without header is accepted only alone. A single file without header is complete on its
// own.
MergeCheck check_merge(const std::vector<StudyFile>& files);

// "missing shards 3/4" or "missing shards 2/6, 5/6" (at most 12 listed, then "and N more").
// `total`: how many are missing when `missing` holds only the first of them (0: its size).
std::string missing_shards_text(const std::vector<std::uint64_t>& missing, std::uint64_t count,
                                std::uint64_t total = 0);

// "shards of 6, seed 11, 7 games per board, players greedy,random, 5 boards".
std::string run_text(const ShardId& run);

// The sum of the files' rows, board by board, in the order of the first file.
std::vector<StudyTally> merge_study_files(const std::vector<StudyFile>& files);

}  // namespace tanbo

// The files of a split solve, shared by the split and its units (solve_split.cpp) and the
// merge (solve_merge.cpp):
//
// DIR/root.tanbo      the position solved (a game file: its moves from the setup)
// DIR/manifest.txt    "tanbo-solve-split 1", "run ID", "depth D", "units N", then
//                     "unit I MOVES..." (the moves from the root to the unit's position)
// DIR/units/unit-I.tanbo      each unit's position as a game file
// DIR/results/unit-I.txt      "tanbo-solve-unit 1", "run ID", "unit I", "winner COLOUR",
//                             "nodes N", "seconds S"
// DIR/results/unit-I.proof    the unit's certificate (with --proof)
// DIR/result.txt, DIR/proof.txt   what the merge writes
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "tanbo/core/position.hpp"
#include "tanbo/io/gamefile.hpp"

namespace tanbo::cli::split {

inline constexpr const char* kUnitMagic = "tanbo-solve-unit 1";  // a unit result's first line

// The files' names: "unit-I", DIR/manifest.txt, DIR/results/unit-I.txt and .proof.
std::string unit_name(std::size_t i);
std::string manifest_path(const std::string& dir);
std::string result_path(const std::string& dir, std::size_t i);
std::string unit_proof_path(const std::string& dir, std::size_t i);

// A small text file of the split (manifest, result), read as game files are; `kind` names
// such files in the plural for a refusal.
std::string read_small(const std::string& path, const std::string& kind);
// Its "key value" lines, in order, blank lines skipped.
std::vector<std::pair<std::string, std::string>> key_lines(const std::string& text);

// Positions that are mirror images of each other are one unit: a position's key (the side to
// move and the least POSITION text over the board's symmetries) and the symmetry that maps
// the position onto it.
struct Canonical {
  std::string key;
  std::size_t perm = 0;
};
Canonical canonical(const Position& pos, const std::vector<std::vector<Vertex>>& perms);
std::vector<std::vector<Vertex>> symmetries_of(const Topology& topo);

// DIR/manifest.txt, read and checked: its run id, the depth (1 to 12) and each unit's moves
// from the root (depth of them, points of `topo`). Throws tanbo::Error naming the file.
struct Manifest {
  std::string run;
  int depth = 0;
  std::vector<std::vector<Vertex>> units;  // each unit's moves from the root
};
Manifest read_manifest(const std::string& dir, const Topology& topo);

// Unit i's position: the root and the unit's moves from the manifest, each checked by the
// rules (a damaged manifest is refused, never played).
Position unit_position(const Position& root, const Manifest& m, std::size_t i);
// Unit i's moves from the root as its result records them ("B1 C2"), so that a result is
// merged only onto the position it was solved for.
std::string unit_moves_text(const Topology& topo, const Manifest& m, std::size_t i);

// DIR/root.tanbo.
Game root_game(const std::string& dir);

}  // namespace tanbo::cli::split

// Proof certificates: a text file that shows a proven result so that anyone can check it
// without trusting the search that found it (docs/solved.md, "Proofs").
//
//   tanbo-proof 1
//   topology grid 5x5
//   setup spaced
//   moves                      the moves from the setup to the proven position (may be empty)
//   winner black
//   POSITION MOVE              one line per position of the proof where the winner is to move
//
// POSITION lists the stones of every player in turn order, players separated by '/', each
// player's points in the board's vertex order joined by ',' ("B2,D4/B4,D2"; on a lattice
// named by coordinates, each name's own commas are read as part of it: "1,1,1,1/2,2,3,2");
// MOVE is the winner's move there. A proof is valid when, from the proven position, every line of
// play in which the winner plays the listed move and the others play any legal move ends with the
// winner's victory and reaches only positions that are listed wherever the winner is to move.
// A DOT board is carried after its topology line ("topology file NAME"), one "dot TEXT" line
// per line of its DOT text, as game files carry it (dot_lines in tanbo/core/topology.hpp).
//
// The checker is written straight over the rules, on its own: it uses the library only to
// build the board and the setup's stones (and to name points), never the rules engine, the
// solver, its table, symmetries or any knowledge.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tanbo/core/players.hpp"
#include "tanbo/core/topology.hpp"

namespace tanbo::proof {

// The largest certificate `tanbo check-proof` (and a merge of a split solve, for its units')
// reads, a piece at a time: 1 TB. What it keeps of the file is bounded by the memory limit,
// not by this.
inline constexpr std::uint64_t kMaxCheckedBytes = std::uint64_t{1} << 40;

// The first line of every certificate.
inline constexpr const char* kMagic = "tanbo-proof 1";

// The comma-separated numbers in the name of each point of `topo`: a lattice named by its
// coordinates ("1,2,3,4": 4), else 1. POSITION joins names with commas too; a name is read as
// that many of its pieces.
std::size_t name_parts(const Topology& topo);

// Throws tanbo::Error when a point of `topo` has a name POSITION cannot hold: a '/', or commas
// other than a lattice's coordinates (DOT node ids such as "a,b"). Checked before a certificate
// is written.
void check_names(const Topology& topo);

// POSITION of the format: `stones[v]` is the player on point v (kEmpty for none).
std::string position_text(const Topology& topo, const std::vector<Player>& stones, int players);

// A certificate's text on its way to `sink`, handed on in pieces of about a megabyte (each
// piece a write of the file): text as it is (the header), then a line "POSITION MOVE" for each
// position listed. flush() hands on what is left.
class CertificateText {
 public:
  explicit CertificateText(std::function<void(std::string_view)> sink) : sink_(std::move(sink)) {}
  void add(std::string_view text);
  void add_line(const Topology& topo, const std::vector<Player>& stones, int players, Vertex move);
  void flush();

 private:
  std::function<void(std::string_view)> sink_;
  std::string piece_;
};

// The points of a board by their names, for reading many positions: a name is looked up in a
// hash table, not parsed, and is found only when it is written exactly as the board writes it.
// It holds every name once (a few bytes a point) and refers to the board, which must outlive it.
class PointNames {
 public:
  explicit PointNames(const Topology& topo);
  const Topology& topology() const { return topo_; }
  // The point the board writes `name`, or kNoVertex when it writes none so.
  Vertex find(std::string_view name) const;
  // The point the board writes `name`; else throws tanbo::Error saying why `name` is none (not a
  // point of the board, or a point written otherwise, as "b1" for B1).
  Vertex at(std::string_view name) const;
  // The memory it holds, in bytes.
  std::uint64_t bytes() const;

 private:
  std::string_view name_of(Vertex v) const;

  const Topology& topo_;
  std::string text_;                   // every point's name, one after another
  std::vector<std::uint64_t> starts_;  // point v's name: text_ from starts_[v] to starts_[v + 1]
  std::vector<Vertex> slots_;          // by the names' hashes, open addressing; kNoVertex: none
};

// The stones of POSITION `text` of a game of `players` players on the board of `names`,
// (point, player) in the order written, when the text is as position_text writes it: one part
// per player, each the player's points by their names in the board's vertex order, no point
// twice (so that every position has one text). Throws tanbo::Error saying what is not ("more
// parts than the 2 players", ...).
std::vector<std::pair<Vertex, Player>> read_position(const PointNames& names, std::string_view text,
                                                     int players);

// What a check found.
struct CheckResult {
  bool valid = false;
  std::string reason;         // why not, naming the position that breaks the proof
  Player winner = kEmpty;     // the winner the proof claims
  std::string topology;       // the board's spec
  TopologyPtr board;          // the board checked (a DOT board from the certificate's text)
  std::string setup;          // the setup's name
  std::string moves;          // the moves from the setup to the proven position, one space apart
  std::uint64_t listed = 0;   // positions listed in the file
  std::uint64_t checked = 0;  // positions visited by the check (each once, but see CheckMemory)
  std::uint64_t winner_nodes = 0;  // of them, positions where the winner is to move
};

// How far a check has gone, for progress lines: the certificate's lines read, then the
// positions checked (0 while the lines are read).
struct CheckProgress {
  std::uint64_t lines_read = 0;
  std::uint64_t checked = 0;
  double seconds = 0;  // since the check began
};
// As progress lines show it: "S s, N lines read", then "S s, N positions checked".
std::string progress_text(const CheckProgress& p);

// What the check remembers of the positions where the loser is to move. kAll: each one it has
// checked, so that it is checked once. kLow: none; such a position is checked again for each
// listed position whose move leads to it (at most once for each, since each listed position is
// visited once). The answer is the same, and the first position that breaks a proof too; kLow
// took 23% to 46% less memory on certificates of 1.8 to 17.7 million listed positions, and 1%
// less to 13% more time (docs/solved.md).
enum class CheckMemory { kAll, kLow };

// Reads a certificate and checks it, calling `report` (when given) every `every` seconds. A file
// that is not a certificate (a bad header, a line that cannot be read, a point that is not on the
// board) throws tanbo::Error; a certificate that does not prove its claim gives valid = false and
// the reason.
CheckResult check(std::istream& in, const std::function<void(const CheckProgress&)>& report = {},
                  double every = 0, CheckMemory memory = CheckMemory::kAll);

}  // namespace tanbo::proof

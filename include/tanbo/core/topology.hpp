// Boards: what a topology spec means, the generators, the DOT reader, and vertex naming.
//
// A topology is built once and then frozen: the rules engine (position.hpp) only sees the
// Graph. The extra data kept here (lattice sizes, hex coordinates, DOT node ids and layout)
// serves naming, rendering and the setups.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tanbo/core/graph.hpp"
#include "tanbo/core/players.hpp"

namespace tanbo {

// What kind of board a topology is; naming and rendering depend on it.
enum class BoardKind {
  kLattice,  // `line N` and `grid AxBx...` (1 to any number of axes), optionally wrapped
  kHex,      // `hex N`: a hexagon of hexagonal cells with N cells on each side
  kFile,     // `file PATH` or DOT text: any graph
};

// A memory limit, what is in use of it already and where it comes from (for messages).
struct MemoryLimit {
  std::uint64_t bytes = 0;
  // What this process (ulimit -v) or its cgroup (less page cache it can drop) uses of the
  // limit already; 0 for limits that are not measured against use (physical memory,
  // --max-memory, TANBO_MAX_MEMORY).
  std::uint64_t used = 0;
  std::string source;  // "ulimit -v (RLIMIT_AS)", "the cgroup's memory.max", "--max-memory", ...
  // How the user of this program changes the limit, for refusals (set_memory_advice).
  std::string advice = "--max-memory SIZE or TANBO_MAX_MEMORY";
  // What a new board may take: 80% of what is not in use yet (the rest is left to what the
  // estimate does not count: a search's tree, output, the allocator).
  std::uint64_t board_room() const;
};
// A board. Create one with parse_topology() or the make_* functions; share it as
// std::shared_ptr<const Topology> because positions keep a pointer to it.
struct Topology {
  BoardKind kind = BoardKind::kLattice;  // which family
  std::string spec;                      // canonical spec, e.g. "grid 19x19", "line 31", "hex 5"
  Graph graph;                           // the adjacency, frozen

  // Lattices: sizes per axis (axis 0 = x = columns, axis 1 = y = rows, axis 2 = z, ...).
  std::vector<std::uint32_t> dims;
  bool wrap = false;  // every axis wraps around (a torus)

  // Hex boards: side length and axial coordinates (q, r) per vertex, each in [-(N-1), N-1].
  std::uint32_t hex_side = 0;
  std::vector<std::array<int, 2>> hex_axial;

  // DOT boards: node ids, optional positions (`pos` attribute), the starting stones given by
  // the `stone` attribute (0 = none), the `players` graph attribute (0 = not given) and the
  // DOT text itself (so that a game file can carry the board).
  std::vector<std::string> node_ids;
  // The vertices in the order of their ids without case (then with it): parse_vertex's index,
  // so that reading a name costs a binary search, not a pass over every id (index_node_ids).
  std::vector<Vertex> node_order;
  std::vector<std::array<double, 3>> positions;  // empty unless every node has `pos`
  std::vector<Player> file_stones;
  int file_players = 0;
  std::string dot_text;

  // The memory limit the board was built under (nullopt: none); a game of more players is
  // checked against it (check_game_memory).
  std::optional<MemoryLimit> memory_budget;

  std::uint32_t num_vertices() const { return graph.num_vertices(); }  // point count
  std::size_t dimensions() const { return dims.size(); }               // lattice axes (0 if none)

  // Lattice helpers (kind == kLattice). Coordinates are 0-based here; names are 1-based.
  std::vector<std::uint32_t> coords(Vertex v) const;                 // vertex -> coords
  Vertex vertex_at(const std::vector<std::uint32_t>& coords) const;  // coords -> vertex

  // Naming (implemented per board kind in naming.cpp).
  // The board's own notation for v: Go coordinates ("D4") on 2D boards up to 25 wide, pbmserv
  // digits ("333") on 3D boards up to 9 wide, numbers on a line, "1,2,3,4" on other lattices,
  // row letter + cell number on hex boards ("E5"), node ids on DOT boards.
  std::string name(Vertex v) const;
  // Reads a vertex name, case-insensitively. Comma coordinates ("3,3,3") are accepted on any
  // lattice (and "row,cell" on hex boards). Returns nullopt when the text names no point.
  std::optional<Vertex> parse_vertex(std::string_view text) const;
  // Short description of the notation, for error messages ("Go coordinates A1..T19").
  std::string notation_hint() const;
  // The refusal for text that names no point: "\"Z99\" is not a point of this board (hint)".
  std::string not_a_point(std::string_view text) const;
  // parse_vertex, throwing tanbo::Error with not_a_point's message when the text names no point.
  Vertex need_vertex(std::string_view text) const;
  // Makes node_order from node_ids (a DOT board is built with it).
  void index_node_ids();
};

using TopologyPtr = std::shared_ptr<const Topology>;

// ---------------------------------------------------------------- memory (memory.cpp)
// The core asks nothing of the machine: the memory a board may take is passed in
// (TopologyLimits), and the programs pass the process's own limit (tanbo/platform/memory.hpp).

// Limits that keep a spec from asking for more than the machine has.
struct TopologyLimits {
  std::uint64_t max_vertices = 1ull << 31;  // hard ceiling of 32-bit vertex ids
  std::uint64_t max_edges = ~0ull;          // a server's ceiling on edges (none by default)
  // The memory a board may take: `memory` when set, else `memory_bytes` ("the caller's
  // limit") when not 0, else no limit beyond max_vertices.
  std::uint64_t memory_bytes = 0;
  std::optional<MemoryLimit> memory;
  // Reads the text of the DOT file a "file PATH" spec names, given the memory limit (nullptr:
  // none): the core reads no files. Unset, a "file" spec is refused. The programs set it
  // (process_limits in tanbo/platform/memory.hpp).
  std::function<std::string(const std::string& path, const MemoryLimit* limit)> read_dot_file;
};
// The memory limit `limits` sets, nullopt when it sets none.
std::optional<MemoryLimit> limit_of(const TopologyLimits& limits);

// Reads a size such as 512M, 4G, 1.5g or 1000000 (bytes; K, M, G, T are powers of 1024).
// Throws tanbo::Error naming `what` when the text is not a size.
std::uint64_t parse_memory_size(std::string_view text, std::string_view what);
// "1.5 GB", "249 MB" (powers of 1024).
std::string human_bytes(std::uint64_t bytes);
// The end of a refusal: "would need about 9.6 GB of memory; a board may use 199 MB, 80% of
// what is not in use yet under the limit of 293 MB (ulimit -v (RLIMIT_AS)); raise or lower the
// limit with --max-memory SIZE or TANBO_MAX_MEMORY".
std::string memory_refusal(std::uint64_t need, const MemoryLimit& limit);
// Estimated peak bytes of building a board of n vertices and e edges and playing on it with
// `players` players (graph, point store, legal sets); never under the measured peak.
std::uint64_t estimated_memory(std::uint64_t n, std::uint64_t e, int players);
// Refuses (tanbo::Error) a game of more than two players whose point store does not fit the memory
// limit the board was built under (Topology::memory_budget): parse_topology checked the board
// for two. Called by Position's constructor.
void check_game_memory(const Topology& topo, int players);

// Parses a topology spec and builds the board:
//   "line N"                 a path of N points
//   "grid AxBx..." [wrap]    a lattice with any number of axes; "wrap" makes it a torus
//   "AxB..."                 shorthand for grid
//   "hex N"                  hexagonal board with side N (3N(N-1)+1 cells)
//   "file PATH"              a Graphviz DOT file, read by limits.read_dot_file
// Throws tanbo::Error with a specific message for anything malformed or too big for `limits`.
// The programs call the one-argument parse_topology of tanbo/platform/memory.hpp, which passes
// the process's memory limit and reads DOT files.
TopologyPtr parse_topology(std::string_view spec, const TopologyLimits& limits);

TopologyPtr make_lattice(const std::vector<std::uint32_t>& dims, bool wrap,
                         const TopologyLimits& limits = {});
TopologyPtr make_hex(std::uint32_t side, const TopologyLimits& limits = {});
// Reads DOT text. `origin` names it in messages and in the spec ("file origin").
TopologyPtr make_from_dot(std::string_view dot_text, std::string_view origin,
                          const TopologyLimits& limits = {});

// Whether two boards are one: a spec makes one lattice or hex board, but a DOT board's spec
// ("file NAME") only names it, and two files of one name (or one file rewritten between two
// reads) are different graphs, so DOT boards must have the same points and edges too.
bool same_board(const Topology& a, const Topology& b);

// Files that carry a DOT board (game files, proof certificates) hold its text after the
// "topology file NAME" line, one line of it per "dot TEXT" line, so that they never depend on
// the original .dot file. dot_lines gives those lines for `topo` ("" for other boards);
// append_dot_line adds the TEXT of `line` to `dot_text` when it is such a line ("dot" alone
// stands for an empty line) and says whether it was.
std::string dot_lines(const Topology& topo);
// Whether a spec names a DOT board: its first word is "file", in any case.
bool is_file_spec(std::string_view spec);
bool append_dot_line(std::string_view line, std::string& dot_text);
// The board such a file describes: `spec` built with `limits`, a "file NAME" spec from
// `dot_text` instead of the file NAME when dot_text is not empty (any other spec ignores it).
TopologyPtr carried_board(std::string_view spec, const std::string& dot_text,
                          TopologyLimits limits);

}  // namespace tanbo

// The split of a solve and its units (solve_split.hpp); the files they write are described in
// split_files.hpp, the merge is in solve_merge.cpp.
#include "solve_split.hpp"
#include "commands.hpp"
#include "split_files.hpp"

#include <chrono>
#include <filesystem>
#include <iomanip>
#include <map>
#include <random>
#include <sstream>

#include "tanbo/ai/proof_writer.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/numbers.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/io/safe_file.hpp"
#include "tanbo/platform/input_file.hpp"
#include "tanbo/proof/proof.hpp"

namespace tanbo::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kManifestMagic = "tanbo-solve-split 1";
constexpr int kMaxSplitDepth = 12;
// The most units a split makes: each is a file, a result and a job.
constexpr std::uint64_t kMaxUnits = 1'000'000;

// A run id as new_run_id() writes it: 1 to 16 hexadecimal digits.
bool is_run_id(const std::string& id) {
  return !id.empty() && id.size() <= 16 &&
         id.find_first_not_of("0123456789abcdef") == std::string::npos;
}

}  // namespace

namespace split {

std::string unit_name(std::size_t i) {
  return "unit-" + std::to_string(i);
}
std::string unit_moves_text(const Topology& topo, const Manifest& m, std::size_t i) {
  std::string text;
  for (Vertex v : m.units[i]) text += (text.empty() ? "" : " ") + topo.name(v);
  return text;
}
std::string manifest_path(const std::string& dir) {
  return dir + "/manifest.txt";
}
std::string result_path(const std::string& dir, std::size_t i) {
  return dir + "/results/" + unit_name(i) + ".txt";
}
std::string unit_proof_path(const std::string& dir, std::size_t i) {
  return dir + "/results/" + unit_name(i) + ".proof";
}

std::string read_small(const std::string& path, const std::string& kind) {
  return read_input_file(path, shown_name(path), kMaxGameFileBytes, kind);
}

std::vector<std::pair<std::string, std::string>> key_lines(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    drop_carriage_returns(line);
    if (line.empty()) continue;
    const auto space = line.find(' ');
    out.emplace_back(line.substr(0, space),
                     space == std::string::npos ? "" : line.substr(space + 1));
  }
  return out;
}

// ---- symmetry: positions that are mirror images of each other are one unit

Canonical canonical(const Position& pos, const std::vector<std::vector<Vertex>>& perms) {
  Canonical best;
  std::vector<Player> image(pos.num_vertices());
  for (std::size_t i = 0; i < perms.size(); ++i) {
    for (Vertex v = 0; v < image.size(); ++v) image[perms[i][v]] = pos.at(v);
    std::string key = std::to_string(pos.to_move()) + " " +
                      proof::position_text(pos.topology(), image, pos.num_players());
    if (i == 0 || key < best.key) best = {std::move(key), i};
  }
  return best;
}

std::vector<std::vector<Vertex>> symmetries_of(const Topology& topo) {
  return board_symmetries(topo);
}

// ---- the manifest

Manifest read_manifest(const std::string& dir, const Topology& topo) {
  const std::string path = manifest_path(dir);
  const auto lines = key_lines(read_small(path, "split manifests"));
  if (lines.size() < 4 || lines[0].first + " " + lines[0].second != kManifestMagic) {
    throw Error(shown_name(path) + ": not a split made by tanbo solve --split");
  }
  Manifest m;
  m.run = lines[1].second;
  if (lines[1].first != "run" || !is_run_id(m.run)) {
    throw Error(shown_name(path) + ": a damaged manifest (its run id)");
  }
  const auto depth = parse_whole(lines[2].second, kMaxSplitDepth);
  const auto count = parse_whole(lines[3].second, kMaxUnits);
  if (lines[2].first != "depth" || lines[3].first != "units" || !depth || *depth < 1 || !count) {
    throw Error(shown_name(path) + ": a damaged manifest (its depth or unit count)");
  }
  m.depth = static_cast<int>(*depth);
  for (std::size_t i = 4; i < lines.size(); ++i) {
    const std::string where = shown_name(path) + ": line " + std::to_string(i + 1);
    std::istringstream words(lines[i].second);
    std::string index;
    words >> index;
    if (lines[i].first != "unit" || index != std::to_string(m.units.size())) {
      throw Error(where + " is not unit " + std::to_string(m.units.size()));
    }
    std::vector<Vertex> moves;
    for (std::string name; words >> name;) {
      const auto v = topo.parse_vertex(name);
      if (!v) throw Error(where + ": " + topo.not_a_point(name));
      moves.push_back(*v);
    }
    if (moves.size() != static_cast<std::size_t>(m.depth)) {
      throw Error(where + ": " + std::to_string(moves.size()) + " moves, not the split's depth " +
                  std::to_string(m.depth));
    }
    m.units.push_back(std::move(moves));
  }
  if (m.units.size() != *count) throw Error(shown_name(path) + ": units are missing");
  return m;
}

Position unit_position(const Position& root, const Manifest& m, std::size_t i) {
  Position pos = root;
  const Topology& topo = pos.topology();
  for (Vertex v : m.units[i]) {
    if (pos.is_over() || pos.check_move(pos.to_move(), v) != MoveStatus::kLegal) {
      throw Error("the manifest's unit " + std::to_string(i) + ": " + topo.name(v) +
                  " is not a legal move there (a damaged manifest)");
    }
    pos.play(v);
  }
  if (pos.is_over()) {
    throw Error("the manifest's unit " + std::to_string(i) +
                ": the game is over there, which needs no unit (a damaged manifest)");
  }
  return pos;
}

Game root_game(const std::string& dir) {
  return load_game(dir + "/root.tanbo");
}

}  // namespace split

using namespace split;

namespace {

std::string new_run_id() {
  std::random_device rd;
  const auto now = std::chrono::system_clock::now().time_since_epoch().count();
  std::ostringstream os;
  os << std::hex << (static_cast<std::uint64_t>(now) ^ (std::uint64_t{rd()} << 32) ^ rd());
  return os.str();
}

// Whether two positions have the same board, stones and side to move.
bool same_position(const Position& a, const Position& b) {
  if (!same_board(a.topology(), b.topology()) || a.num_players() != b.num_players() ||
      a.to_move() != b.to_move()) {
    return false;
  }
  for (Vertex v = 0; v < a.num_vertices(); ++v) {
    if (a.at(v) != b.at(v)) return false;
  }
  return true;
}

// ---- the tree above the units

// Walks the positions `depth` plies from the root, calling leaf(pos, moves) at each one where
// the game goes on (positions where it ended are left out). Throws tanbo::Error when the time
// limit (seconds from `since`; 0 for none) passes first: a deep split of a big board has more
// lines of play than any machine could walk.
class TreeWalk {
 public:
  TreeWalk(Position pos, int depth, double seconds, std::chrono::steady_clock::time_point since)
      : pos_(std::move(pos)), depth_(depth), seconds_(seconds), since_(since) {}

  template <class Leaf>
  void run(Leaf&& leaf) {
    walk(0, leaf);
  }

 private:
  template <class Leaf>
  void walk(int d, Leaf& leaf) {
    if (pos_.is_over()) return;
    if (d == depth_) {
      check_time();
      leaf(pos_, path_);
      return;
    }
    for (Vertex v : pos_.legal_moves(pos_.to_move())) {
      pos_.play(v);
      path_.push_back(v);
      walk(d + 1, leaf);
      path_.pop_back();
      pos_.undo();
    }
  }

  void check_time() {
    if (seconds_ <= 0 || ++leaves_ % 1024 != 0) return;
    const double spent =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - since_).count();
    if (spent > seconds_) {
      throw Error("--split " + std::to_string(depth_) + ": the positions " +
                  std::to_string(depth_) + " plies ahead were not all found within --time (" +
                  std::to_string(leaves_) + " lines of play walked); nothing written");
    }
  }

  Position pos_;
  int depth_;
  double seconds_;
  std::chrono::steady_clock::time_point since_;
  std::uint64_t leaves_ = 0;
  std::vector<Vertex> path_;
};

// Refuses an --out that cannot take a split, before anything is walked or made: a file in
// the place of the folder or of its units/ or results/ folder.
void check_out_folder(const std::string& dir) {
  for (const std::string& path : {dir, dir + "/units", dir + "/results"}) {
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (fs::exists(status) && !fs::is_directory(status)) {
      throw Error("--out " + shown_name(dir) + ": " + shown_name(path) + " is not a folder");
    }
  }
}

void make_folder(const std::string& path) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec) throw Error("cannot make the folder " + shown_name(path) + " (" + ec.message() + ")");
}

}  // namespace

void split_solve(const Game& root, int depth, const std::string& dir, const SolveLimits& limits,
                 std::ostream& out) {
  if (depth < 1 || depth > kMaxSplitDepth) {
    throw Error("--split must be 1 to " + std::to_string(kMaxSplitDepth) + " plies");
  }
  check_out_folder(dir);
  if (fs::exists(manifest_path(dir))) {
    throw Error(shown_name(dir) + " holds a split already (" + shown_name(manifest_path(dir)) +
                "); choose another --out");
  }
  const auto perms = symmetries_of(root.position.topology());
  std::map<std::string, std::size_t> seen;
  std::vector<std::vector<Vertex>> units;
  const auto since = limits.since == std::chrono::steady_clock::time_point{}
                         ? std::chrono::steady_clock::now()
                         : limits.since;
  TreeWalk(root.position, depth, limits.seconds, since)
      .run([&](const Position& pos, const std::vector<Vertex>& path) {
        if (!seen.emplace(canonical(pos, perms).key, units.size()).second) return;
        if (units.size() == kMaxUnits) {
          throw Error("--split " + std::to_string(depth) + " makes more than " +
                      std::to_string(kMaxUnits) + " units; split fewer plies ahead");
        }
        units.push_back(path);
      });
  make_folder(dir + "/units");
  make_folder(dir + "/results");
  std::string manifest = std::string(kManifestMagic) + "\nrun " + new_run_id() + "\ndepth " +
                         std::to_string(depth) + "\nunits " + std::to_string(units.size()) + "\n";
  const Topology& topo = root.position.topology();
  for (std::size_t i = 0; i < units.size(); ++i) {
    Game unit = root;
    manifest += "unit " + std::to_string(i);
    for (Vertex v : units[i]) {
      unit.position.play(v);
      manifest += " " + topo.name(v);
    }
    manifest += "\n";
    write_file_atomic(dir + "/units/" + unit_name(i) + ".tanbo", write_game(unit));
  }
  write_file_atomic(dir + "/root.tanbo", write_game(root));
  write_file_atomic(manifest_path(dir), manifest);
  out << "split: " << units.size() << " units at " << depth << " plies (" << perms.size()
      << " symmetries) in " << shown_name(dir) << "\n";
}

void refuse_split_file(const std::string& dir, const std::string& path, const std::string& option,
                       const std::string& allowed) {
  std::error_code ec;
  const fs::path target = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) return;  // (a path that cannot be resolved is none of the split's files)
  const auto canonical_of = [](const std::string& p) {
    std::error_code e;
    fs::path c = fs::weakly_canonical(fs::absolute(p, e), e);
    return e ? fs::path() : c;
  };
  const auto same = [&](const std::string& p) { return canonical_of(p) == target; };
  const auto inside = [&](const std::string& folder) {
    return target.parent_path() == canonical_of(folder);
  };
  if (!allowed.empty() && (same(allowed) || same(allowed + ".gz"))) return;
  if (same(manifest_path(dir)) || same(dir + "/root.tanbo") || same(dir + "/result.txt") ||
      inside(dir + "/units") || inside(dir + "/results")) {
    throw Error(option + " " + shown_name(path) +
                " is one of the split's own files; write it elsewhere (the merge's certificate: "
                "DIR/proof.txt; a unit's: DIR/results/unit-I.proof, or .proof.gz)");
  }
}

void solve_unit(const std::string& dir, std::size_t unit, const SolverOptions& options,
                const SolveLimits& limits, const std::string& proof_path,
                const CheckpointArgs& checkpoint, std::ostream& out, std::ostream& err) {
  // Before anything is read or solved: a certificate or checkpoint written over the manifest,
  // the root, a unit file or another unit's result would break the split.
  if (!proof_path.empty()) {
    refuse_split_file(dir, proof_path, "--proof", unit_proof_path(dir, unit));
  }
  if (!checkpoint.path.empty()) refuse_split_file(dir, checkpoint.path, "--checkpoint");
  const Game root = root_game(dir);
  const Manifest m = read_manifest(dir, root.position.topology());
  if (m.units.empty()) throw Error("--unit " + std::to_string(unit) + ": the split has no units");
  if (unit >= m.units.size()) {
    throw Error("--unit " + std::to_string(unit) + ": the split has units 0 to " +
                std::to_string(m.units.size() - 1));
  }
  const Game game = load_game(dir + "/units/" + unit_name(unit) + ".tanbo");
  if (!same_position(game.position, unit_position(root.position, m, unit))) {
    throw Error(unit_name(unit) +
                ".tanbo is not the position its manifest line gives (root.tanbo "
                "and the unit's moves): a damaged split");
  }
  Solver solver(options);
  StagedSolve staged;
  if (checkpoint.path.empty()) {
    staged.result = solver.solve(game.position, limits);
  } else {
    staged = solve_in_stages(solver, game.position, limits, checkpoint, err);
    if (!staged.write_error.empty()) err << "tanbo solve: " << staged.write_error << "\n";
  }
  const SolveResult& r = staged.result;
  if (!r.solved) {
    throw Error(unit_name(unit) + ": not solved within the limits (" + std::to_string(r.nodes) +
                " nodes); no result written" +
                (checkpoint.path.empty() ? "" : "; run it again with --resume to carry on"));
  }
  if (!proof_path.empty()) {
    write_file_atomic(proof_path, [&](const FileSink& sink) {
      write_proof(solver, game.position, r.winner, limits, sink);
    });
  }
  std::ostringstream text;
  text << kUnitMagic << "\nrun " << m.run << "\nunit " << unit << "\nmoves "
       << unit_moves_text(root.position.topology(), m, unit) << "\nwinner " << player_name(r.winner)
       << "\nnodes " << r.nodes << "\nseconds " << std::fixed << std::setprecision(2) << r.seconds
       << "\n";
  write_file_atomic(result_path(dir, unit), text.str());
  out << unit_name(unit) << ": winner: " << player_name(r.winner) << ", " << r.nodes << " nodes, "
      << std::fixed << std::setprecision(2) << r.seconds << " s\n";
}

}  // namespace tanbo::cli

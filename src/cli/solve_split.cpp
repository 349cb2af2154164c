// A solve spread over many machines (solve_split.hpp).
//
// DIR/root.tanbo      the position solved (a game file: its moves from the setup)
// DIR/manifest.txt    "tanbo-solve-split 1", "run ID", "depth D", "units N", then
//                     "unit I MOVES..." (the moves from the root to the unit's position)
// DIR/units/unit-I.tanbo      each unit's position as a game file
// DIR/results/unit-I.txt      "tanbo-solve-unit 1", "run ID", "unit I", "winner COLOUR",
//                             "nodes N", "seconds S"
// DIR/results/unit-I.proof    the unit's certificate (with --proof)
// DIR/result.txt, DIR/proof.txt   what the merge writes
#include "solve_split.hpp"
#include "commands.hpp"

#include <chrono>
#include <filesystem>
#include <iomanip>
#include <map>
#include <random>
#include <sstream>
#include <unordered_set>

#include "tanbo/ai/proof_writer.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/numbers.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/io/safe_file.hpp"
#include "tanbo/platform/input_file.hpp"
#include "tanbo/proof/proof.hpp"

namespace tanbo::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kManifestMagic = "tanbo-solve-split 1";
constexpr const char* kUnitMagic = "tanbo-solve-unit 1";
constexpr int kMaxSplitDepth = 12;
// The most units a split makes: each is a file, a result and a job.
constexpr std::uint64_t kMaxUnits = 1'000'000;

std::string unit_name(std::size_t i) {
  return "unit-" + std::to_string(i);
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

// "key value" lines, in order.
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

struct Canonical {
  std::string key;
  std::size_t perm = 0;  // the symmetry that maps the position onto its key
};

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

// A run id as new_run_id() writes it: 1 to 16 hexadecimal digits.
bool is_run_id(const std::string& id) {
  return !id.empty() && id.size() <= 16 &&
         id.find_first_not_of("0123456789abcdef") == std::string::npos;
}

struct Manifest {
  std::string run;
  int depth = 0;
  std::vector<std::vector<Vertex>> units;  // each unit's moves from the root
};

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

// Unit i's position: the root and the unit's moves from the manifest, each checked by the
// rules (a damaged manifest is refused, never played).
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

std::string new_run_id() {
  std::random_device rd;
  const auto now = std::chrono::system_clock::now().time_since_epoch().count();
  std::ostringstream os;
  os << std::hex << (static_cast<std::uint64_t>(now) ^ (std::uint64_t{rd()} << 32) ^ rd());
  return os.str();
}

// Whether two positions have the same board, stones and side to move.
bool same_position(const Position& a, const Position& b) {
  if (a.topology().spec != b.topology().spec || a.num_vertices() != b.num_vertices() ||
      a.num_players() != b.num_players() || a.to_move() != b.to_move()) {
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

Game root_game(const std::string& dir) {
  return load_game(dir + "/root.tanbo");
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

void solve_unit(const std::string& dir, std::size_t unit, const SolverOptions& options,
                const SolveLimits& limits, const std::string& proof_path,
                const CheckpointArgs& checkpoint, std::ostream& out, std::ostream& err) {
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
    write_file_atomic(proof_path, write_proof(game.position, r.winner, options, limits));
  }
  std::ostringstream text;
  text << kUnitMagic << "\nrun " << m.run << "\nunit " << unit << "\nwinner "
       << player_name(r.winner) << "\nnodes " << r.nodes << "\nseconds " << std::fixed
       << std::setprecision(2) << r.seconds << "\n";
  write_file_atomic(result_path(dir, unit), text.str());
  out << unit_name(unit) << ": winner: " << player_name(r.winner) << ", " << r.nodes << " nodes, "
      << std::fixed << std::setprecision(2) << r.seconds << " s\n";
}

namespace {

struct UnitResult {
  Player winner = kEmpty;
  std::uint64_t nodes = 0;
  double seconds = 0;
};

UnitResult read_result(const std::string& dir, std::size_t i, const std::string& run) {
  const std::string path = result_path(dir, i);
  if (!fs::exists(path)) {
    throw Error(unit_name(i) + " has no result (" + shown_name(path) +
                "); solve it with: tanbo solve --out DIR --unit " + std::to_string(i));
  }
  const auto lines = key_lines(read_small(path, "unit results"));
  std::map<std::string, std::string> field(lines.begin(), lines.end());
  if (lines.empty() || lines[0].first + " " + lines[0].second != kUnitMagic) {
    throw Error(shown_name(path) + ": not a unit result");
  }
  if (field["run"] != run) {
    throw Error(shown_name(path) + " belongs to another split (run " + quote_input(field["run"]) +
                ", not " + quote_input(run) + ")");
  }
  if (field["unit"] != std::to_string(i))
    throw Error(shown_name(path) + ": not unit " + std::to_string(i));
  UnitResult r;
  const auto w = parse_player(field["winner"], 2);
  if (!w) throw Error(shown_name(path) + ": no winner");
  r.winner = *w;
  const auto nodes = parse_whole(field["nodes"].empty() ? "0" : field["nodes"]);
  const auto seconds = parse_decimal(field["seconds"].empty() ? "0" : field["seconds"]);
  if (!nodes || !seconds) throw Error(shown_name(path) + ": a damaged result (nodes or seconds)");
  r.nodes = *nodes;
  r.seconds = *seconds;
  return r;
}

// The values of the tree above the units, from the units' results, and the certificate of the
// whole result from the units' certificates.
class Merge {
 public:
  Merge(const std::string& dir)
      : dir_(dir),
        root_(root_game(dir)),
        pos_(root_.position),
        perms_(symmetries_of(pos_.topology())),
        manifest_(read_manifest(dir, pos_.topology())) {
    for (std::size_t i = 0; i < manifest_.units.size(); ++i) {
      results_.push_back(read_result(dir, i, manifest_.run));
      const Canonical c = canonical(unit_position(root_.position, manifest_, i), perms_);
      const auto [it, fresh] = units_.emplace(c.key, Unit{i, c.perm});
      if (!fresh) {
        throw Error("the manifest's units " + std::to_string(it->second.index) + " and " +
                    std::to_string(i) + " are one position (a damaged manifest)");
      }
    }
  }

  const Position& root() const { return root_.position; }
  std::size_t unit_count() const { return results_.size(); }
  int depth() const { return manifest_.depth; }
  std::uint64_t nodes() const {
    std::uint64_t n = 0;
    for (const auto& r : results_) n += r.nodes;
    return n;
  }
  double seconds() const {
    double s = 0;
    for (const auto& r : results_) s += r.seconds;
    return s;
  }

  // The root's moves that win for the side to move, in vertex order.
  std::vector<Vertex> winning_moves() {
    std::vector<Vertex> out;
    const Player me = pos_.to_move();
    for (Vertex v : pos_.legal_moves(me)) {
      pos_.play(v);
      if (value(1) == me) out.push_back(v);
      pos_.undo();
    }
    return out;
  }

  // The certificate that `winner` wins from the root.
  std::string certificate(Player winner) {
    std::string text = proof_header(pos_, winner);
    std::unordered_set<std::string> listed;
    prove(0, winner, text, listed);
    return text;
  }

 private:
  struct Unit {
    std::size_t index;
    std::size_t perm;  // the symmetry that maps its position onto its key
  };

  const Unit& unit_here() const {
    const auto it = units_.find(canonical(pos_, perms_).key);
    if (it == units_.end()) throw Error("the split's units do not cover its root (damaged?)");
    return it->second;
  }

  // Who wins the position `d` plies below the root.
  Player value(int d) {
    if (pos_.is_over()) return pos_.winner();
    if (d == manifest_.depth) return results_[unit_here().index].winner;
    const Player me = pos_.to_move();
    for (Vertex v : pos_.legal_moves(me)) {
      pos_.play(v);
      const Player w = value(d + 1);
      pos_.undo();
      if (w == me) return me;
    }
    return me == kBlack ? kWhite : kBlack;
  }

  void prove(int d, Player winner, std::string& text, std::unordered_set<std::string>& listed) {
    if (pos_.is_over()) return;
    if (d == manifest_.depth) {
      add_unit_lines(winner, text, listed);
      return;
    }
    const Player me = pos_.to_move();
    const std::string here = proof_position(pos_);
    for (Vertex v : pos_.legal_moves(me)) {
      pos_.play(v);
      const bool follow = me != winner || value(d + 1) == winner;
      if (follow && me == winner && listed.insert(here).second) {
        text += here + " " + pos_.topology().name(v) + "\n";
      }
      if (follow) prove(d + 1, winner, text, listed);
      pos_.undo();
      if (follow && me == winner) return;
    }
  }

  // The unit's certificate, its positions and moves carried from the unit's position onto
  // this one (they may be mirror images). Its header must be the one the unit's position and
  // the winner give; each line is read as the format says, or refused.
  void add_unit_lines(Player winner, std::string& text, std::unordered_set<std::string>& listed) {
    const Unit& unit = unit_here();
    const std::string path = unit_proof_path(dir_, unit.index);
    if (!fs::exists(path)) {
      throw Error(unit_name(unit.index) + " has no certificate (" + shown_name(path) +
                  "); solve each unit I with --proof DIR/results/unit-I.proof");
    }
    const Canonical here = canonical(pos_, perms_);
    std::vector<Vertex> inverse(pos_.num_vertices());
    for (Vertex v = 0; v < inverse.size(); ++v) inverse[perms_[here.perm][v]] = v;
    const auto& to_key = perms_[unit.perm];
    const Topology& topo = pos_.topology();
    auto map = [&](Vertex v) { return inverse[to_key[v]]; };
    std::istringstream in(
        read_input_file(path, shown_name(path), proof::kMaxFileBytes, "proof certificates"));
    check_unit_header(in, path, unit.index, winner);
    std::string line;
    for (std::uint64_t number = 6; std::getline(in, line); ++number) {
      drop_carriage_returns(line);
      if (line.empty()) continue;
      const std::string where = shown_name(path) + ": line " + std::to_string(number);
      const auto space = line.rfind(' ');
      if (space == std::string::npos) throw Error(where + ": not \"POSITION MOVE\"");
      std::vector<Player> stones(pos_.num_vertices(), kEmpty);
      try {
        const int players = pos_.num_players();
        for (const auto& [v, p] : proof::read_position(topo, line.substr(0, space), players)) {
          stones[map(v)] = p;
        }
      } catch (const Error& e) {
        throw Error(where + ": not a position of " + std::to_string(pos_.num_players()) +
                    " players (" + e.what() + ")");
      }
      const auto move = topo.parse_vertex(line.substr(space + 1));
      if (!move) throw Error(where + ": " + topo.not_a_point(line.substr(space + 1)));
      std::string position = proof::position_text(topo, stones, pos_.num_players());
      if (listed.insert(position).second) text += position + " " + topo.name(map(*move)) + "\n";
    }
  }

  // The first five lines of unit `index`'s certificate: those of a certificate of its position
  // (the root's moves and the unit's) for `winner`.
  void check_unit_header(std::istream& in, const std::string& path, std::size_t index,
                         Player winner) {
    const Position unit = unit_position(root_.position, manifest_, index);
    std::istringstream want(proof_header(unit, winner));
    std::string expected;
    std::string line;
    for (int i = 1; std::getline(want, expected); ++i) {
      if (!std::getline(in, line)) line.clear();
      drop_carriage_returns(line);
      if (line != expected) {
        throw Error(shown_name(path) + ": line " + std::to_string(i) + " is " + quote_input(line) +
                    ", not " + quote_input(expected) +
                    " (a certificate of another position, winner or split)");
      }
    }
  }

  std::string dir_;
  Game root_;
  Position pos_;
  std::vector<std::vector<Vertex>> perms_;
  Manifest manifest_;
  std::vector<UnitResult> results_;
  std::map<std::string, Unit> units_;
};

}  // namespace

namespace {

// Refuses a --proof of the merge that would overwrite the split itself: its manifest, root,
// result, or a file of its units/ or results/ folders.
void check_merge_targets(const std::string& dir, const std::string& proof_path) {
  check_writable(dir + "/result.txt");
  if (proof_path.empty()) return;
  std::error_code ec;
  const fs::path proof = fs::weakly_canonical(proof_path, ec);
  const auto same = [&](const std::string& path) {
    std::error_code e2;
    return !ec && fs::weakly_canonical(path, e2) == proof && !e2;
  };
  const auto inside = [&](const std::string& folder) {
    std::error_code e2;
    const fs::path f = fs::weakly_canonical(folder, e2);
    return !ec && !e2 && proof.parent_path() == f;
  };
  if (same(manifest_path(dir)) || same(dir + "/root.tanbo") || same(dir + "/result.txt") ||
      inside(dir + "/units") || inside(dir + "/results")) {
    throw Error(
        "--proof " + shown_name(proof_path) +
        " is one of the split's own files; write the certificate elsewhere (DIR/proof.txt)");
  }
}

// The merged certificate checked as `tanbo check-proof` checks it, before it is written: the
// units' certificates are other files, and a wrong one must not make a wrong proof.
void check_merged(const std::string& certificate) {
  std::istringstream in(certificate);
  proof::CheckResult r;
  try {
    r = proof::check(in);
  } catch (const Error& e) {
    throw Error(std::string("the merged certificate is not one: ") + e.what() +
                "; nothing written");
  }
  if (!r.valid) {
    throw Error("the merged certificate does not prove the result (" + r.reason +
                "): a unit's certificate or result is wrong; nothing written");
  }
}

}  // namespace

void merge_solve(const std::string& dir, const std::string& proof_path, std::ostream& out) {
  Merge merge(dir);
  check_merge_targets(dir, proof_path);
  const Position& root = merge.root();
  const Topology& t = root.topology();
  const Player me = root.to_move();
  const auto wins = merge.winning_moves();
  const Player winner = wins.empty() ? (me == kBlack ? kWhite : kBlack) : me;
  std::ostringstream text;
  text << "board: " << t.spec << " (setup " << root.setup().name << "), " << player_title(me)
       << " to move, " << root.legal_count(me) << " legal moves, merged from " << merge.unit_count()
       << " units at " << merge.depth() << " plies\n";
  text << "winner: " << player_name(winner) << "\n";
  if (winner == me) {
    text << "winning moves: " << point_names(t, wins) << " (" << wins.size() << " of "
         << root.legal_count(me) << ")\n";
  } else {
    text << "winning moves: none (" << player_title(me) << " loses)\n";
  }
  text << "nodes: " << merge.nodes() << " (in the units)\n";
  text << "time: " << std::fixed << std::setprecision(2) << merge.seconds()
       << " s (in the units, added up)\n";
  if (!proof_path.empty()) {
    const std::string certificate = merge.certificate(winner);
    check_merged(certificate);
    write_file_atomic(proof_path, certificate);
    text << "proof: " << proof_path << "\n";
  }
  write_file_atomic(dir + "/result.txt", text.str());
  out << text.str();
}

}  // namespace tanbo::cli

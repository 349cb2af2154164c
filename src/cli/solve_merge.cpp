// The merge of a split solve (solve_split.hpp): the root's value from the units' results, and
// one certificate of the whole result from the units' certificates.
#include <atomic>
#include <csignal>
#include <filesystem>
#include <functional>
#include <iomanip>
#include <map>
#include <memory>
#include <sstream>

#include "commands.hpp"
#include "solve_checkpoint.hpp"
#include "solve_split.hpp"
#include "split_files.hpp"
#include "tanbo/ai/proof_writer.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/numbers.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/io/gzip_text.hpp"
#include "tanbo/io/safe_file.hpp"
#include "tanbo/platform/input_file.hpp"
#include "tanbo/platform/memory.hpp"
#include "tanbo/platform/ticker.hpp"
#include "tanbo/proof/position_set.hpp"
#include "tanbo/proof/proof.hpp"

namespace tanbo::cli {

namespace fs = std::filesystem;
using namespace split;

namespace {

struct UnitResult {
  Player winner = kEmpty;
  std::uint64_t nodes = 0;
  double seconds = 0;
};

UnitResult read_result(const std::string& dir, std::size_t i, const std::string& run,
                       const std::string& moves) {
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
  // The run id and the unit's number alone would pair a result with another position after an
  // edit of the manifest that kept its run id.
  if (field["moves"] != moves) {
    throw Error(shown_name(path) + " was solved after the moves " + quote_input(field["moves"]) +
                ", but the manifest's unit " + std::to_string(i) + " is after " +
                quote_input(moves) + " (an edited manifest?)");
  }
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

// Line `number` of the unit's certificate `path` (false at its end), refused when it passes 64
// MB as check-proof refuses it: a line without end must not fill memory.
bool unit_line(std::istream& in, const std::string& path, std::uint64_t number, std::string& line) {
  constexpr std::size_t kMaxLine = std::size_t{64} << 20;
  std::size_t length = 0;
  if (!read_line(in, line, kMaxLine, &length)) return false;
  if (length > kMaxLine) {
    throw Error(shown_name(path) + ": line " + std::to_string(number) + " is longer than 64 MB");
  }
  return true;
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
      // The unit's moves are checked by the rules before its result is read for them.
      const Position unit = unit_position(root_.position, manifest_, i);
      results_.push_back(
          read_result(dir, i, manifest_.run, unit_moves_text(pos_.topology(), manifest_, i)));
      const Canonical c = canonical(unit, perms_);
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

  // Progress lines on `err` every `every` seconds while the certificate is written (0: none);
  // `stop` set (by a signal) ends the writing with an Error.
  void show_progress(std::ostream& err, double every, const std::atomic<bool>& stop) {
    stop_ = &stop;
    err_ = &err;
    every_ = Every(every);
  }

  // Writes the certificate that `winner` wins from the root to `sink`, a piece at a time: the
  // units' certificates are read line by line and the positions listed are kept as short keys,
  // so that a certificate of any size passes through without being held in memory.
  void certificate(Player winner, const FileSink& sink) {
    proof::CertificateText out(sink);
    out.add(proof_header(pos_, winner));
    proof::PositionSet listed;
    prove(0, winner, out, listed);
    out.flush();
  }

 private:
  struct Unit {
    std::size_t index;
    std::size_t perm;  // the symmetry that maps its position onto its key
  };

  // Adds POSITION MOVE for `stones` (the winner to move) unless that position is listed. The
  // keys of the positions listed are counted against the memory limit, as the checker's are.
  void list(const std::vector<Player>& stones, Player winner, Vertex move,
            proof::CertificateText& out, proof::PositionSet& listed) {
    if (stop_ && stop_->load(std::memory_order_relaxed)) throw Error("stopped");
    proof::position_key(stones, pos_.num_players(), winner, key_);
    const std::uint64_t cost = listed.cost(key_);
    if (!listed.insert(key_).second) return;
    memory_.add(cost);
    if (every_.due()) {
      *err_ << "merge: " << std::fixed << std::setprecision(0) << every_.elapsed() << " s, "
            << units_read_ << " units' certificates read, " << listed.size()
            << " positions listed\n"
            << std::flush;
    }
    out.add_line(pos_.topology(), stones, pos_.num_players(), move);
  }

  const Unit& unit_here() const {
    const auto it = units_.find(canonical(pos_, perms_).key);
    if (it == units_.end()) {
      // (named by its moves from the root, as the manifest's lines name units)
      std::string moves;
      const auto played = pos_.history();
      for (std::size_t i = root_.position.history().size(); i < played.size(); ++i) {
        if (played[i].vertex != kNoVertex) moves += " " + pos_.topology().name(played[i].vertex);
      }
      throw Error(shown_name(manifest_path(dir_)) + ": no unit holds the position after the moves" +
                  moves + " from the root (a damaged manifest: a unit line left out)");
    }
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

  void prove(int d, Player winner, proof::CertificateText& out, proof::PositionSet& listed) {
    if (pos_.is_over()) return;
    if (d == manifest_.depth) {
      add_unit_lines(winner, out, listed);
      return;
    }
    const Player me = pos_.to_move();
    std::vector<Player> here(pos_.num_vertices());
    pos_.read_board(here);
    for (Vertex v : pos_.legal_moves(me)) {
      pos_.play(v);
      const bool follow = me != winner || value(d + 1) == winner;
      if (follow && me == winner) list(here, winner, v, out, listed);
      if (follow) prove(d + 1, winner, out, listed);
      pos_.undo();
      if (follow && me == winner) return;
    }
  }

  // The unit's certificate, its positions and moves carried from the unit's position onto
  // this one (they may be mirror images). Its header must be the one the unit's position and
  // the winner give; each line is read as the format says, or refused.
  void add_unit_lines(Player winner, proof::CertificateText& out, proof::PositionSet& listed) {
    const Unit& unit = unit_here();
    const std::string path = unit_certificate(unit.index);
    const Canonical here = canonical(pos_, perms_);
    std::vector<Vertex> inverse(pos_.num_vertices());
    for (Vertex v = 0; v < inverse.size(); ++v) inverse[perms_[here.perm][v]] = v;
    const auto& to_key = perms_[unit.perm];
    const Topology& topo = pos_.topology();
    if (!names_) {
      names_ = std::make_unique<proof::PointNames>(topo);
      memory_.add(names_->bytes());
    }
    const proof::PointNames& names = *names_;
    auto map = [&](Vertex v) { return inverse[to_key[v]]; };
    TextInput in(path, shown_name(path), proof::kMaxCheckedBytes, "proof certificates");
    const std::uint64_t header_lines = check_unit_header(in, path, unit.index, winner);
    std::string line;
    for (std::uint64_t number = header_lines + 1; unit_line(in, path, number, line); ++number) {
      drop_carriage_returns(line);
      if (line.empty()) continue;
      const std::string where = shown_name(path) + ": line " + std::to_string(number);
      const auto space = line.rfind(' ');
      if (space == std::string::npos) throw Error(where + ": not \"POSITION MOVE\"");
      std::vector<Player> stones(pos_.num_vertices(), kEmpty);
      try {
        const int players = pos_.num_players();
        for (const auto& [v, p] : proof::read_position(names, line.substr(0, space), players)) {
          stones[map(v)] = p;
        }
      } catch (const Error& e) {
        throw Error(where + ": not a position of " + std::to_string(pos_.num_players()) +
                    " players (" + e.what() + ")");
      }
      const auto move = topo.parse_vertex(line.substr(space + 1));
      if (!move) throw Error(where + ": " + topo.not_a_point(line.substr(space + 1)));
      list(stones, winner, map(*move), out, listed);
    }
    ++units_read_;
  }

  // The certificate of unit `index`: DIR/results/unit-I.proof, or unit-I.proof.gz when only
  // that one is there.
  std::string unit_certificate(std::size_t index) const {
    const std::string path = unit_proof_path(dir_, index);
    if (fs::exists(path)) return path;
    if (fs::exists(path + ".gz")) return path + ".gz";
    throw Error(unit_name(index) + " has no certificate (" + shown_name(path) +
                "); solve each unit I with --proof DIR/results/unit-I.proof");
  }

  // The header of unit `index`'s certificate: that of a certificate of its position (the
  // root's moves and the unit's) for `winner`, five lines and a DOT board's "dot" lines. Returns
  // the number of its lines, so that the lines after it are named by their number in the file.
  std::uint64_t check_unit_header(std::istream& in, const std::string& path, std::size_t index,
                                  Player winner) {
    const Position unit = unit_position(root_.position, manifest_, index);
    std::istringstream want(proof_header(unit, winner));
    std::string expected;
    std::string line;
    std::uint64_t i = 0;
    while (std::getline(want, expected)) {
      ++i;
      if (!unit_line(in, path, i, line)) line.clear();
      drop_carriage_returns(line);
      if (line != expected) {
        throw Error(shown_name(path) + ": line " + std::to_string(i) + " is " + quote_input(line) +
                    ", not " + quote_input(expected) +
                    " (a certificate of another position, winner or split)");
      }
    }
    return i;
  }

  std::string dir_;
  Game root_;
  Position pos_;
  std::vector<std::vector<Vertex>> perms_;
  Manifest manifest_;
  std::vector<UnitResult> results_;
  std::map<std::string, Unit> units_;
  std::string key_;                                         // list's scratch
  MemoryBudget memory_{"merging the units' certificates"};  // the keys listed, names_
  std::unique_ptr<proof::PointNames> names_;                // the board's, once a unit is read
  // show_progress's
  const std::atomic<bool>* stop_ = nullptr;
  std::ostream* err_ = nullptr;
  Every every_{0};
  std::size_t units_read_ = 0;
};

}  // namespace

namespace {

// Refuses a --proof of the merge that would overwrite the split itself.
void check_merge_targets(const std::string& dir, const std::string& proof_path) {
  check_writable(dir + "/result.txt");
  if (!proof_path.empty()) refuse_split_file(dir, proof_path, "--proof");
}

// The merged certificate, written to `written`, checked as `tanbo check-proof` checks it before
// it takes its name: the units' certificates are other files, and a wrong one must not make a
// wrong proof.
// Progress lines every `every` seconds (0: none); `stop` set ends the check within a quarter
// of a second, with an Error.
void check_merged(const std::string& written, std::ostream& err, double every,
                  const std::atomic<bool>& stop) {
  double next = every;
  const auto report = [&](const proof::CheckProgress& p) {
    if (stop.load(std::memory_order_relaxed)) throw Error("stopped");
    if (every <= 0 || p.seconds < next) return;
    next = p.seconds + every;
    err << "merge: checking the merged certificate, " << proof::progress_text(p) << "\n"
        << std::flush;
  };
  proof::CheckResult r;
  try {
    TextInput in(written, "the merged certificate", proof::kMaxCheckedBytes, "proof certificates");
    r = proof::check(in, report, 0.25);
  } catch (const Error& e) {
    throw Error(std::string("the merged certificate could not be checked: ") + e.what() +
                "; nothing written");
  }
  if (!r.valid) {
    throw Error("the merged certificate does not prove the result (" + r.reason +
                "): a unit's certificate or result is wrong; nothing written");
  }
}

}  // namespace

int merge_solve(const std::string& dir, const std::string& proof_path, double progress,
                std::ostream& out, std::ostream& err) {
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
    // Ctrl-C or SIGTERM stops the certificate with nothing written, and the merge with it.
    const int signal = run_until_signal([&](const std::atomic<bool>& stop) {
      merge.show_progress(err, progress, stop);
      write_text_file_atomic(
          proof_path, [&](const FileSink& sink) { merge.certificate(winner, sink); },
          [&](const std::string& written) { check_merged(written, err, progress, stop); });
    });
    if (signal) {
      out << text.str() << "proof: not written (stopped by "
          << (signal == SIGINT ? "SIGINT" : "SIGTERM") << "); " << shown_name(dir + "/result.txt")
          << " not written\n";
      return 128 + signal;
    }
    text << "proof: " << proof_path << "\n";
  }
  write_file_atomic(dir + "/result.txt", text.str());
  out << text.str();
  return 0;
}

}  // namespace tanbo::cli

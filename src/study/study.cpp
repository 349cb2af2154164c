#include "tanbo/study/study.hpp"

#include <chrono>
#include <filesystem>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "tanbo/ai/agent.hpp"
#include "tanbo/ai/solver.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/io/safe_file.hpp"
#include "tanbo/platform/memory.hpp"
#include "tanbo/study/seats.hpp"

namespace tanbo {

namespace {

std::vector<ProgressBoard> progress_boards(const Study& s) {
  std::vector<ProgressBoard> out;
  for (std::size_t t = 0; t < s.entries.size(); ++t) {
    out.push_back({s.entries[t].spec,
                   shard_games(t, s.shard.run.games, s.shard.index, s.shard.count),
                   s.starts[t].num_vertices()});
  }
  return out;
}

// Why a set of files is not merged, one line each.
std::string refusal(const MergeCheck& c, bool allow_partial) {
  std::string why = "the files are not the shards of one study run; nothing merged:";
  if (c.refusals.empty()) why = "the shards are incomplete; nothing merged:";
  if (c.run) why += "\n  the run: " + run_text(*c.run);
  if (c.missing_count > 0) {
    why += "\n  " + missing_shards_text(c.missing, c.run->count, c.missing_count);
  }
  for (const auto& r : c.refusals) why += "\n  " + r;
  if (c.refusals.empty() && !allow_partial) {
    why += "\n  (--allow-partial merges an incomplete set of one run and says so in the report)";
  }
  return why;
}

}  // namespace

std::vector<StudyEntry> read_study_list(const std::string& path) {
  const std::string text = read_text_file(path);
  std::vector<StudyEntry> out;
  std::istringstream in(std::string(without_byte_order_mark(text, shown_name(path))));
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    line = trim(line);
    if (line.empty()) continue;
    StudyEntry e;
    const auto bar = line.find('|');
    e.spec = trim(line.substr(0, bar));
    e.setup = bar == std::string::npos ? "default" : trim(line.substr(bar + 1));
    if (e.spec.empty() || e.setup.empty()) {
      throw Error(shown_name(path) + ":" + std::to_string(number) +
                  ": expected \"SPEC\" or \"SPEC | SETUP\"");
    }
    e.resolved = e.spec;
    if (e.spec.rfind("file ", 0) == 0) {
      std::filesystem::path file = trim(e.spec.substr(5));
      if (file.is_relative()) {
        file = std::filesystem::path(path).parent_path() / file;
        e.resolved = "file " + file.string();
      }
    }
    for (const auto& o : out) {
      if (o.spec == e.spec && o.setup == e.setup) {
        throw Error(shown_name(path) + ":" + std::to_string(number) + ": " + quote_input(e.spec) +
                    " is listed twice");
      }
    }
    out.push_back(e);
  }
  if (out.empty()) throw Error(shown_name(path) + ": no topology listed");
  return out;
}

Study prepare_study(const StudyOptions& o) {
  if (o.list_path.empty()) throw Error("--topologies FILE is required (or --merge CSV...)");
  if (o.games == 0) throw Error("--games must be at least 1");
  Study s;
  const auto shard = parse_shard(o.shard);
  if (!shard)
    throw Error("--shard " + shown_name(o.shard, 40) + ": expected i/n with 1 <= i <= n, e.g. 2/3");
  s.shard = *shard;
  s.shard_text = o.shard;
  s.shard_given = o.shard_given;
  s.specs = seat_specs(o.players, "study");
  const int k = static_cast<int>(s.specs.size());
  s.entries = read_study_list(o.list_path);
  std::vector<std::string> names, setups;
  for (const auto& e : s.entries) {
    try {
      auto topo = parse_topology(e.resolved);
      s.starts.emplace_back(
          topo, setup_for_players(*topo, e.setup, k, "choose one in the list: SPEC | SETUP"));
    } catch (const Error& ex) {
      throw Error(shown_name(o.list_path) + ": " + quote_input(e.spec) + ": " + ex.what());
    }
    names.push_back(e.spec);
    setups.push_back(e.setup);
  }
  // Games are numbered across the boards (board * games + game): the numbers must fit.
  constexpr std::uint64_t kMaxGames = std::uint64_t{1} << 62;
  if (o.games > kMaxGames / std::max<std::size_t>(1, s.entries.size())) {
    throw Error("--games " + std::to_string(o.games) + " on " + std::to_string(s.entries.size()) +
                " boards makes more than 2^62 games");
  }
  s.shard.run.seed = o.seed;
  s.shard.run.games = o.games;
  s.shard.run.players = o.players;
  s.shard.run.boards = s.entries.size();
  s.shard.run.fingerprint = study_fingerprint(names, setups, s.starts);
  return s;
}

void print_seats(const Study& s, std::ostream& err) {
  err << "tanbo study: " << s.specs.size() << "-player games (" << s.specs.size()
      << " players listed, seats rotating); setups:";
  for (std::size_t t = 0; t < s.starts.size(); ++t) {
    err << (t ? ", " : " ") << s.entries[t].spec << " " << s.starts[t].setup().name;
  }
  err << "\n";
}

StudyReport play_study(const Study& s, std::ostream& err, StudyProgress::Mode mode,
                       double interval) {
  const std::uint64_t games = s.shard.run.games, n = s.shard.count, i = s.shard.index;
  const int k = static_cast<int>(s.specs.size());
  std::string label = "tanbo study";
  if (s.shard_given) label += " shard " + s.shard_text;
  StudyProgress progress(err, mode, interval, label, progress_boards(s));
  StudyReport report;
  for (std::size_t t = 0; t < s.entries.size(); ++t) {
    progress.start_board(t);
    StudyTally tally;
    tally.topology = s.entries[t].spec;
    tally.setup = s.entries[t].setup;
    tally.seat_wins.assign(k, 0);
    for (std::uint64_t g = 0; g < games; ++g) {
      const std::uint64_t gi = t * games + g;
      if (gi % n != i - 1) continue;
      const auto t0 = std::chrono::steady_clock::now();
      Seating seating = seat_agents(s.specs, s.shard.run.seed, gi, g);
      Position pos = s.starts[t];
      tally.add(play_game(pos, seating.seats), k);
      progress.game_done(
          t, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    progress.board_done(t);
    report.tallies.push_back(std::move(tally));
  }
  progress.finish();
  report.title = study_title(s.shard.run);
  if (n > 1) report.title += ", shard " + s.shard_text;
  if (s.shard_given) report.header = s.shard;
  return report;
}

void print_study_plan(const Study& s, std::ostream& out) {
  const ShardId& id = s.shard;
  std::uint64_t mine = 0;
  for (std::size_t t = 0; t < s.entries.size(); ++t) {
    mine += shard_games(t, id.run.games, id.index, id.count);
  }
  out << id.run.boards << " boards, " << id.run.games << " games per board, seed " << id.run.seed
      << ", players " << id.run.players << "\n";
  out << "shard " << id.index << "/" << id.count << " plays " << mine << " of the "
      << id.run.boards * id.run.games << " games\n";
  for (std::size_t t = 0; t < s.entries.size(); ++t) {
    out << "  " << s.entries[t].spec << " | " << s.entries[t].setup << ": "
        << s.starts[t].num_vertices() << " points, "
        << shard_games(t, id.run.games, id.index, id.count) << " games\n";
  }
}

StudyReport merge_study(const std::vector<std::string>& names, bool allow_partial,
                        std::ostream& err) {
  std::vector<StudyFile> files;
  for (const auto& name : names) files.push_back(read_study_file(read_text_file(name), name));
  const MergeCheck check = check_merge(files);
  if (!check.refusals.empty() || (check.missing_count > 0 && !allow_partial)) {
    throw Error(refusal(check, allow_partial));
  }
  StudyReport report;
  report.tallies = merge_study_files(files);
  if (!check.run) {
    report.title = "tanbo study (merged from 1 file)";
    return report;
  }
  report.title = study_title(check.run->run);
  if (check.missing_count > 0) {
    std::uint64_t played = 0;
    for (const auto& t : report.tallies) played += t.games;
    const std::string missing =
        missing_shards_text(check.missing, check.run->count, check.missing_count);
    report.note = "partial merge: " + missing + " (" + std::to_string(played) + " of " +
                  std::to_string(check.run->run.boards * check.run->run.games) + " games)";
    report.title += ", partial: " + missing;
    err << "tanbo study: warning: " << report.note << "\n";
  }
  return report;
}

void print_exact(const Study& s, double seconds, std::ostream& out) {
  out << "perfect play (exact solver, " << seconds << " s a board):\n";
  for (std::size_t i = 0; i < s.starts.size(); ++i) {
    const Position& start = s.starts[i];
    out << "  " << start.topology().spec << " (" << start.setup().name << "): ";
    if (start.num_players() != 2) {
      out << "not solved (" << start.num_players() << " players)\n";
      continue;
    }
    SolveLimits limits;
    limits.seconds = seconds;
    const SolveResult r = Solver().solve(start, limits);
    if (r.solved) {
      out << player_name(r.winner) << " wins (" << r.nodes << " nodes, " << std::fixed
          << std::setprecision(2) << r.seconds << " s)\n"
          << std::defaultfloat;
    } else {
      out << "unknown within " << seconds << " s\n";
    }
  }
}

}  // namespace tanbo

// tanbo study: matches on every topology of a list; first-player win rate, game length and
// root removals per topology, as a table, CSV and PNG chart; shards and their checked merge.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

#include "commands.hpp"
#include "seats.hpp"
#include "study_report.hpp"
#include "tanbo/ai/agent.hpp"
#include "tanbo/ai/match.hpp"
#include "tanbo/ai/solver.hpp"
#include "tanbo/ai/study.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/io/png.hpp"
#include "tanbo/io/safe_file.hpp"
#include "tanbo/platform/memory.hpp"

namespace tanbo::cli {

namespace {

struct Entry {
  std::string spec;      // as written in the list (the key in the CSV)
  std::string setup;     // "default" unless given after '|'
  std::string resolved;  // the spec with a relative DOT path resolved against the list
};

struct StudyOptions {
  std::string list_path;
  std::string players = "mcts:playouts=500,mcts:playouts=500";
  std::uint64_t games = 20;
  std::uint64_t seed = 1;
  std::string png_path;
  std::string shard = "1/1";
  bool shard_given = false;  // --shard on the command line: the CSV carries the shard header
  std::vector<std::string> merge;
  std::string title;
  double progress = 60;
  bool csv = false;
  bool dry_run = false;
  bool allow_partial = false;
  double exact = 0;  // --exact: seconds for the solver per two-player board (0 = none)
};

// What a run or a merge reports.
struct StudyReport {
  std::vector<StudyTally> tallies;
  std::string title;              // the chart's default title
  std::optional<ShardId> header;  // written before the CSV (a shard's run)
  std::string note;               // a partial merge's note, after the table and before the CSV
};

// The list: one topology spec a line, optionally "| SETUP"; '#' starts a comment.
std::vector<Entry> read_list(const std::string& path) {
  const std::string text = read_text_file(path);
  std::vector<Entry> out;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    line = trim(line);
    if (line.empty()) continue;
    Entry e;
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

// ---------------------------------------------------------------- playing

// A study ready to play: its boards built, its shard and run identified.
struct Study {
  std::vector<Entry> entries;
  std::vector<Position> starts;
  std::vector<std::string> specs;  // the players
  ShardId shard;
};

// Says, for games of other than two players, how many play each game and on which setups: the
// board's own setup seats two, so that the list of players chose them.
void say_seats(const Study& s, std::ostream& err) {
  err << "tanbo study: " << s.specs.size() << "-player games (" << s.specs.size()
      << " players listed, seats rotating); setups:";
  for (std::size_t t = 0; t < s.starts.size(); ++t) {
    err << (t ? ", " : " ") << s.entries[t].spec << " " << s.starts[t].setup().name;
  }
  err << "\n";
}

// Checks the options and builds every board: a bad line is refused before any game is played.
Study prepare(const StudyOptions& o) {
  if (o.list_path.empty()) throw Error("--topologies FILE is required (or --merge CSV...)");
  if (o.games == 0) throw Error("--games must be at least 1");
  Study s;
  const auto shard = parse_shard(o.shard);
  if (!shard)
    throw Error("--shard " + shown_name(o.shard, 40) + ": expected i/n with 1 <= i <= n, e.g. 2/3");
  s.shard.index = shard->index;
  s.shard.count = shard->count;
  s.specs = seat_specs(o.players, "study");
  const int k = static_cast<int>(s.specs.size());
  s.entries = read_list(o.list_path);
  std::vector<std::string> names, setups;
  for (const auto& e : s.entries) {
    try {
      auto topo = parse_topology(e.resolved);
      s.starts.emplace_back(topo, setup_for_players(*topo, e.setup, k));
    } catch (const Error& ex) {
      throw Error(shown_name(o.list_path) + ": " + quote_input(e.spec) + ": " + ex.what());
    }
    names.push_back(e.spec);
    setups.push_back(e.setup);
  }
  s.shard.run.seed = o.seed;
  s.shard.run.games = o.games;
  s.shard.run.players = o.players;
  s.shard.run.boards = s.entries.size();
  s.shard.run.fingerprint = study_fingerprint(names, setups, s.starts);
  return s;
}

StudyProgress::Mode progress_mode(const StudyOptions& o, std::ostream& err) {
  if (o.progress == 0 || &err != &std::cerr) return StudyProgress::Mode::kOff;
  return isatty(STDERR_FILENO) ? StudyProgress::Mode::kTerminal : StudyProgress::Mode::kLines;
}

std::vector<ProgressBoard> progress_boards(const Study& s) {
  std::vector<ProgressBoard> out;
  for (std::size_t t = 0; t < s.entries.size(); ++t) {
    out.push_back({s.entries[t].spec,
                   shard_games(t, s.shard.run.games, s.shard.index, s.shard.count),
                   s.starts[t].num_vertices()});
  }
  return out;
}

// Plays the study's games of this shard, board by board.
StudyReport play(const Study& s, const StudyOptions& o, std::ostream& err) {
  const std::uint64_t games = s.shard.run.games, n = s.shard.count, i = s.shard.index;
  const int k = static_cast<int>(s.specs.size());
  std::string label = "tanbo study";
  if (o.shard_given) label += " shard " + o.shard;
  StudyProgress progress(err, progress_mode(o, err), o.progress, label, progress_boards(s));
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
  if (n > 1) report.title += ", shard " + o.shard;
  if (o.shard_given) report.header = s.shard;
  return report;
}

// --dry-run: what the options would play.
void print_plan(const Study& s, std::ostream& out) {
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

// ---------------------------------------------------------------- merging

// Why a set of files is not merged, one line each.
std::string refusal(const MergeCheck& c, bool allow_partial) {
  std::string why = "the files are not the shards of one study run; nothing merged:";
  if (c.refusals.empty()) why = "the shards are incomplete; nothing merged:";
  if (c.run) why += "\n  the run: " + run_text(*c.run);
  if (!c.missing.empty()) why += "\n  " + missing_shards_text(c.missing, c.run->count);
  for (const auto& r : c.refusals) why += "\n  " + r;
  if (c.refusals.empty() && !allow_partial) {
    why += "\n  (--allow-partial merges an incomplete set of one run and says so in the report)";
  }
  return why;
}

StudyReport merge(const StudyOptions& o, std::ostream& err) {
  std::vector<StudyFile> files;
  for (const auto& name : o.merge) files.push_back(read_study_file(read_text_file(name), name));
  const MergeCheck check = check_merge(files);
  if (!check.refusals.empty() || (!check.missing.empty() && !o.allow_partial)) {
    throw Error(refusal(check, o.allow_partial));
  }
  StudyReport report;
  report.tallies = merge_study_files(files);
  if (!check.run) {
    report.title = "tanbo study (merged from 1 file)";
    return report;
  }
  report.title = study_title(check.run->run);
  if (!check.missing.empty()) {
    std::uint64_t played = 0;
    for (const auto& t : report.tallies) played += t.games;
    const std::string missing = missing_shards_text(check.missing, check.run->count);
    report.note = "partial merge: " + missing + " (" + std::to_string(played) + " of " +
                  std::to_string(check.run->run.boards * check.run->run.games) + " games)";
    report.title += ", partial: " + missing;
    err << "tanbo study: warning: " << report.note << "\n";
  }
  return report;
}

// ---------------------------------------------------------------- output

void write_report(const StudyReport& r, const StudyOptions& o, std::ostream& out) {
  if (!o.png_path.empty()) {
    write_file_atomic(o.png_path,
                      encode_png(study_chart(r.tallies, o.title.empty() ? r.title : o.title)));
  }
  if (o.csv) {
    if (r.header) out << shard_header(*r.header);
    if (!r.note.empty()) out << "# " << r.note << "\n";
    out << study_csv(r.tallies);
  } else {
    print_study_table(r.tallies, out);
    if (!r.note.empty()) out << r.note << "\n";
  }
}

// --exact: the perfect-play winner of each two-player board next to the self-play win rates
// (docs/solved.md), within `seconds` a board.
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

bool given(const po::variables_map& vm, const char* name) {
  return vm.count(name) && !vm[name].defaulted();
}

// Options that mean nothing with --merge (the run's are read from the shards), or without it.
void check_combinations(const po::variables_map& vm, const StudyOptions& o) {
  if (!o.merge.empty()) {
    for (const char* name :
         {"topologies", "players", "games", "seed", "shard", "dry-run", "exact"}) {
      if (given(vm, name)) {
        throw Error(std::string("--merge takes the run's options from the shards; --") + name +
                    " is not used with it");
      }
    }
  } else if (o.allow_partial) {
    throw Error("--allow-partial goes with --merge");
  }
  if (!(o.progress == 0 || (o.progress >= 0.01 && o.progress <= 1e6))) {
    std::ostringstream shown;
    shown << o.progress;
    throw Error("--progress " + shown.str() +
                ": expected 0 (none) or seconds from 0.01 to 1000000");
  }
}

const char* const kUsage =
    "usage: tanbo study --topologies FILE [--players LIST] [--games N] [--seed S]\n"
    "                   [--csv] [--png FILE] [--title TEXT] [--shard i/n]\n"
    "                   [--progress SECONDS] [--dry-run] [--exact S]\n"
    "       tanbo study --merge CSV... [--allow-partial] [--csv] [--png FILE] [--title TEXT]\n"
    "Plays N games on every topology of the list (the players' seats rotating)\n"
    "and reports per topology the first player's win rate with a 95% Wilson\n"
    "interval, the mean and standard deviation of the game length (moves) and\n"
    "the roots removed per game. Game g of topology t has the global index\n"
    "t*N+g; shard i/n plays the games whose index is i-1 modulo n, each seeded\n"
    "by its index, so the merged shards equal the whole run. With --shard, the\n"
    "CSV starts with comment lines naming the run (seed, games, players, boards,\n"
    "i/n), and --merge refuses a set that is incomplete, duplicated or mixed.\n"
    "Without a terminal, progress lines go to stderr: at the start, after each\n"
    "board and every --progress seconds. See docs/studies.md.\n"
    "example: tanbo study --topologies examples/study-topologies.txt --games 10";

}  // namespace

int cmd_study(const std::vector<std::string>& args, std::istream&, std::ostream& out,
              std::ostream& err) {
  StudyOptions o;
  po::options_description desc("tanbo study options");
  desc.add_options()("topologies,T", po::value(&o.list_path),
                     "file listing the topologies, one spec a line "
                     "(\"grid 9x9\", \"hex 5\", \"file board.dot\"), optionally \"SPEC | SETUP\"")(
      "players,p", po::value(&o.players)->default_value(o.players),
      "engine players, one per seat, comma-separated (as for tanbo match)")(
      "games,n", po::value(&o.games)->default_value(o.games), "games per topology")(
      "seed", po::value(&o.seed)->default_value(o.seed), "random seed")(
      "csv", "print the result as CSV (the input of --merge)")(
      "png", po::value(&o.png_path), "write a chart of the first player's win rate to FILE")(
      "title", po::value(&o.title),
      "title of the chart (default: \"tanbo study: PLAYERS, N games per board\", also for a "
      "merge)")("shard", po::value(&o.shard)->default_value(o.shard),
                "play only part i of n of the games (i/n, 1-based); the CSV names its run")(
      "progress", po::value(&o.progress)->default_value(o.progress),
      "without a terminal, a progress line on stderr every SECONDS and after each board "
      "(0: no progress, also not on a terminal)")(
      "dry-run", "check the options and boards, print what would be played, play nothing")(
      "exact", po::value(&o.exact),
      "also solve each two-player board exactly, up to SECONDS each (docs/solved.md)")(
      "merge", po::value(&o.merge)->multitoken(),
      "combine the CSV files of the shards of one run (tanbo study --csv --shard i/n)")(
      "allow-partial", "with --merge: merge the shards given even if some are missing");
  po::variables_map vm;
  if (const auto stop = parse_args(args, desc, nullptr, vm, kUsage, out, err)) return *stop;
  o.csv = vm.count("csv") > 0;
  o.dry_run = vm.count("dry-run") > 0;
  o.allow_partial = vm.count("allow-partial") > 0;
  o.shard_given = given(vm, "shard");
  check_combinations(vm, o);
  if (!(o.exact >= 0 && o.exact <= 1e7)) throw Error("--exact must be 0 to 10^7 seconds");
  StudyReport report;
  if (!o.merge.empty()) {
    report = merge(o, err);
  } else {
    const Study study = prepare(o);
    if (study.specs.size() != 2) say_seats(study, err);
    if (o.dry_run) {
      print_plan(study, out);
      return 0;
    }
    report = play(study, o, err);
    write_report(report, o, out);
    if (o.exact > 0 && !o.csv) print_exact(study, o.exact, out);
    return 0;
  }
  write_report(report, o, out);
  return 0;
}

}  // namespace tanbo::cli

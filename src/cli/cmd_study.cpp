// tanbo study: matches on every topology of a list; first-player win rate, game length and
// root removals per topology, as a table, CSV and PNG chart; shards and their checked merge.
#include <unistd.h>

#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/io/png.hpp"
#include "tanbo/io/safe_file.hpp"
#include "tanbo/study/csv.hpp"
#include "tanbo/study/report.hpp"
#include "tanbo/study/study.hpp"

namespace tanbo::cli {

namespace {

// The command's options: the study's own, and what is done with its report.
struct CommandOptions {
  StudyOptions study;
  std::string png_path;
  std::vector<std::string> merge;
  std::string title;
  double progress = 60;
  bool csv = false;
  bool dry_run = false;
  bool allow_partial = false;
  double exact = 0;  // --exact: seconds for the solver per two-player board (0 = none)
};

// Progress on a terminal, as lines elsewhere, none when asked or when err is not stderr.
StudyProgress::Mode progress_mode(const CommandOptions& o, std::ostream& err) {
  if (o.progress == 0 || &err != &std::cerr) return StudyProgress::Mode::kOff;
  return isatty(STDERR_FILENO) ? StudyProgress::Mode::kTerminal : StudyProgress::Mode::kLines;
}

// The table or CSV first, then the chart: a chart that cannot be written after all (a full disk)
// loses no result.
void write_report(const StudyReport& r, const CommandOptions& o, std::ostream& out) {
  if (o.csv) {
    if (r.header) out << shard_header(*r.header);
    if (!r.note.empty()) out << "# " << r.note << "\n";
    out << study_csv(r.tallies);
  } else {
    print_study_table(r.tallies, out);
    if (!r.note.empty()) out << r.note << "\n";
  }
  out << std::flush;
  if (!o.png_path.empty()) {
    write_file_atomic(o.png_path,
                      encode_png(study_chart(r.tallies, o.title.empty() ? r.title : o.title)));
  }
}

bool given(const po::variables_map& vm, const char* name) {
  return vm.count(name) && !vm[name].defaulted();
}

// Options that mean nothing with --merge (the run's are read from the shards), or without it.
void check_combinations(const po::variables_map& vm, const CommandOptions& o) {
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
  CommandOptions o;
  StudyOptions& study = o.study;
  po::options_description desc("tanbo study options");
  desc.add_options()("topologies,T", po::value(&study.list_path),
                     "file listing the topologies, one spec a line "
                     "(\"grid 9x9\", \"hex 5\", \"file board.dot\"), optionally \"SPEC | SETUP\"")(
      "players,p", po::value(&study.players)->default_value(study.players),
      "engine players, one per seat, comma-separated (as for tanbo match)")(
      "games,n", po::value(&study.games)->default_value(study.games), "games per topology")(
      "seed", po::value(&study.seed)->default_value(study.seed), "random seed")(
      "csv", "print the result as CSV (the input of --merge)")(
      "png", po::value(&o.png_path), "write a chart of the first player's win rate to FILE")(
      "title", po::value(&o.title),
      "title of the chart (default: \"tanbo study: PLAYERS, N games per board\", also for a "
      "merge)")("shard", po::value(&study.shard)->default_value(study.shard),
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
  study.shard_given = given(vm, "shard");
  check_combinations(vm, o);
  refuse_empty_names(vm, {{"png", "--png FILE"}});
  {  // the chart may not replace what the study reads
    std::vector<std::string> inputs = o.merge;
    inputs.push_back(o.study.list_path);
    check_not_an_input(o.png_path, inputs, "--png");
    if (!o.png_path.empty()) check_writable(o.png_path);  // before hours of games, not after
  }
  if (!(o.exact >= 0 && o.exact <= 1e7)) throw Error("--exact must be 0 to 10^7 seconds");
  StudyReport report;
  if (!o.merge.empty()) {
    report = merge_study(o.merge, o.allow_partial, err);
  } else {
    const Study s = prepare_study(study);
    if (s.specs.size() != 2) print_seats(s, err);
    if (o.dry_run) {
      print_study_plan(s, out);
      return 0;
    }
    report = play_study(s, err, progress_mode(o, err), o.progress);
    write_report(report, o, out);
    if (o.exact > 0 && !o.csv) print_exact(s, o.exact, out);
    return 0;
  }
  write_report(report, o, out);
  return 0;
}

}  // namespace tanbo::cli

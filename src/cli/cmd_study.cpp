// tanbo study: matches on every topology of a list; first-player win rate, game length and
// root removals per topology, as a table, CSV and PNG chart; shards and merging.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "options.hpp"
#include "tanbo/agent.hpp"
#include "tanbo/error.hpp"
#include "tanbo/gamefile.hpp"
#include "tanbo/match.hpp"
#include "tanbo/png.hpp"
#include "tanbo/text.hpp"

namespace tanbo::cli {

namespace {

struct Entry {
  std::string spec;      // as written in the list (the key in the CSV)
  std::string setup;     // "default" unless given after '|'
  std::string resolved;  // the spec with a relative DOT path resolved against the list
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
      throw Error(path + ":" + std::to_string(number) + ": expected \"SPEC\" or \"SPEC | SETUP\"");
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
        throw Error(path + ":" + std::to_string(number) + ": " + quote_input(e.spec) +
                    " is listed twice");
      }
    }
    out.push_back(e);
  }
  if (out.empty()) throw Error(path + ": no topology listed");
  return out;
}

std::string pct(double x) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(1) << 100.0 * x << "%";
  return os.str();
}

std::string fixed(double x, int digits) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(digits) << x;
  return os.str();
}

std::string pad(const std::string& s, std::size_t width, bool right = false) {
  if (s.size() >= width) return s;
  return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

void print_table(const std::vector<StudyTally>& tallies, std::ostream& out) {
  std::size_t w = 8;
  for (const auto& t : tallies) {
    w = std::max(w, t.topology.size() + (t.setup == "default" ? 0 : t.setup.size() + 3));
  }
  out << pad("topology", w + 2) << pad("games", 6, true) << pad("first wins", 12, true)
      << "  95% interval     " << pad("length", 8, true) << pad("sd", 7, true)
      << pad("removals", 10, true) << "\n";
  for (const auto& t : tallies) {
    const Interval ci =
        wilson_interval(static_cast<double>(t.first_wins), static_cast<double>(t.games));
    const std::string name = t.setup == "default" ? t.topology : t.topology + " | " + t.setup;
    out << pad(name, w + 2) << pad(std::to_string(t.games), 6, true)
        << pad(pct(t.first_rate()), 12, true) << "  "
        << pad("[" + pct(ci.lo) + ", " + pct(ci.hi) + "]", 17)
        << pad(fixed(t.mean_length(), 1), 8, true) << pad(fixed(t.sd_length(), 1), 7, true)
        << pad(fixed(t.removals_per_game(), 2), 10, true);
    if (t.unfinished) out << "  (" << t.unfinished << " cut off)";
    out << "\n";
  }
}

// Horizontal chart: one row per topology, the first player's win rate as a dot with its 95%
// interval as a bar, a line at 50%.
Canvas chart(const std::vector<StudyTally>& tallies, const std::string& title) {
  const int scale = 2;
  int label_w = Canvas::text_width("topology", scale);
  for (const auto& t : tallies) label_w = std::max(label_w, Canvas::text_width(t.topology, scale));
  const int left = 20 + label_w + 20, plot_w = 500, row_h = 34, top = 60;
  const int width = std::max(left + plot_w + 40, 40 + Canvas::text_width(title, scale));
  const int height = top + row_h * static_cast<int>(tallies.size()) + 70;
  Canvas c(static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height));
  const Rgb black{0, 0, 0}, grid{215, 215, 215}, half{200, 60, 60}, bar{40, 90, 170};
  c.text(20, 16, title, black, scale);
  const int bottom = top + row_h * static_cast<int>(tallies.size());
  auto xpos = [&](double rate) { return left + static_cast<int>(rate * plot_w + 0.5); };
  for (int k = 0; k <= 4; ++k) {
    const int x = xpos(k / 4.0);
    c.vline(x, top - 6, bottom, k == 2 ? half : grid);
    const std::string lab = std::to_string(k * 25) + "%";
    c.text(x - Canvas::text_width(lab, scale) / 2, bottom + 10, lab, black, scale);
  }
  c.hline(left, left + plot_w, bottom, black);
  c.text(left, bottom + 36, "first player win rate, 95% interval", black, scale);
  for (std::size_t i = 0; i < tallies.size(); ++i) {
    const auto& t = tallies[i];
    const int y = top + row_h * static_cast<int>(i) + row_h / 2;
    c.text(20, y - 7, t.topology, black, scale);
    if (t.games == 0) continue;
    const Interval ci =
        wilson_interval(static_cast<double>(t.first_wins), static_cast<double>(t.games));
    const int x0 = xpos(ci.lo), x1 = xpos(ci.hi), xm = xpos(t.first_rate());
    c.fill_rect(x0, y - 1, x1, y + 1, bar);
    c.fill_rect(x0, y - 7, x0 + 1, y + 7, bar);
    c.fill_rect(x1 - 1, y - 7, x1, y + 7, bar);
    c.fill_rect(xm - 4, y - 4, xm + 4, y + 4, black);
  }
  return c;
}

bool parse_shard(const std::string& text, std::uint64_t& i, std::uint64_t& n) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) return false;
  const std::string a = text.substr(0, slash), b = text.substr(slash + 1);
  auto digits = [](const std::string& s) {
    return !s.empty() && s.size() < 10 && s.find_first_not_of("0123456789") == std::string::npos;
  };
  if (!digits(a) || !digits(b)) return false;
  i = std::stoull(a);
  n = std::stoull(b);
  return n >= 1 && i >= 1 && i <= n;
}

std::string format_duration(double s) {
  const long t = static_cast<long>(s + 0.5);
  std::ostringstream os;
  if (t >= 3600)
    os << t / 3600 << "h" << std::setw(2) << std::setfill('0') << (t / 60) % 60 << "m";
  else if (t >= 60)
    os << t / 60 << "m" << std::setw(2) << std::setfill('0') << t % 60 << "s";
  else
    os << t << "s";
  return os.str();
}

}  // namespace

int cmd_study(const std::vector<std::string>& args, std::istream&, std::ostream& out,
              std::ostream& err) {
  std::string list_path;
  std::string players = "mcts:playouts=500,mcts:playouts=500";
  std::uint64_t games = 20;
  std::uint64_t seed = 1;
  std::string png_path;
  std::string shard = "1/1";
  std::vector<std::string> merge;
  std::string chart_title;
  po::options_description desc("tanbo study options");
  desc.add_options()("topologies,T", po::value(&list_path),
                     "file listing the topologies, one spec a line "
                     "(\"grid 9x9\", \"hex 5\", \"file board.dot\"), optionally \"SPEC | SETUP\"")(
      "players,p", po::value(&players)->default_value(players),
      "engine players, one per seat, comma-separated (as for tanbo match)")(
      "games,n", po::value(&games)->default_value(games), "games per topology")(
      "seed", po::value(&seed)->default_value(seed), "random seed")(
      "csv", "print the result as CSV (the input of --merge)")(
      "png", po::value(&png_path), "write a chart of the first player's win rate to FILE")(
      "title", po::value(&chart_title), "title of the chart (default: the players and games)")(
      "shard", po::value(&shard)->default_value(shard),
      "play only part i of n of the games (i/n, 1-based)")(
      "merge", po::value(&merge)->multitoken(),
      "combine the CSV files of shards (tanbo study --csv) instead of playing");
  po::variables_map vm;
  int code = 0;
  if (!parse_args(args, desc, nullptr, vm,
                  "usage: tanbo study --topologies FILE [--players LIST] [--games N] [--seed S]\n"
                  "                   [--csv] [--png FILE] [--shard i/n]\n"
                  "       tanbo study --merge CSV... [--csv] [--png FILE]\n"
                  "Plays N games on every topology of the list (the players' seats rotating)\n"
                  "and reports per topology the first player's win rate with a 95% Wilson\n"
                  "interval, the mean and standard deviation of the game length (moves) and\n"
                  "the roots removed per game. Game g of topology t has the global index\n"
                  "t*N+g; shard i/n plays the games whose index is i-1 modulo n, each seeded\n"
                  "by its index, so the merged shards equal the whole run. See docs/studies.md.\n"
                  "example: tanbo study --topologies examples/study-topologies.txt --games 10",
                  out, err, code)) {
    return code;
  }
  const bool csv = vm.count("csv") > 0;
  try {
    std::vector<StudyTally> tallies;
    std::string title;
    if (!merge.empty()) {
      if (!list_path.empty()) throw Error("--merge combines CSV files; it takes no --topologies");
      for (const auto& file : merge) {
        merge_tallies(tallies, parse_study_csv(read_text_file(file), file));
      }
      title = "tanbo study (merged from " + std::to_string(merge.size()) + " files)";
    } else {
      if (list_path.empty()) throw Error("--topologies FILE is required (or --merge CSV...)");
      if (games == 0) throw Error("--games must be at least 1");
      std::uint64_t shard_i = 1, shard_n = 1;
      if (!parse_shard(shard, shard_i, shard_n)) {
        throw Error("--shard " + shard + ": expected i/n with 1 <= i <= n, e.g. 2/3");
      }
      const std::vector<std::string> specs = seat_specs(players, "study");
      const int k = static_cast<int>(specs.size());
      const std::vector<Entry> entries = read_list(list_path);
      // Build every board first: a bad line is refused before any game is played.
      std::vector<Position> starts;
      for (const auto& e : entries) {
        try {
          auto topo = parse_topology(e.resolved);
          starts.emplace_back(topo, make_setup(*topo, e.setup, k));
        } catch (const Error& ex) {
          throw Error(list_path + ": " + quote_input(e.spec) + ": " + ex.what());
        }
      }
      std::uint64_t mine = 0;
      for (std::uint64_t gi = 0; gi < entries.size() * games; ++gi)
        mine += gi % shard_n == shard_i - 1;
      const bool progress = (&err == &std::cerr) && isatty(STDERR_FILENO);
      const auto t0 = std::chrono::steady_clock::now();
      std::uint64_t done = 0;
      for (std::size_t t = 0; t < entries.size(); ++t) {
        StudyTally tally;
        tally.topology = entries[t].spec;
        tally.setup = entries[t].setup;
        tally.seat_wins.assign(k, 0);
        for (std::uint64_t g = 0; g < games; ++g) {
          const std::uint64_t gi = t * games + g;
          if (gi % shard_n != shard_i - 1) continue;
          Seating seating = seat_agents(specs, seed, gi, g);
          Position pos = starts[t];
          tally.add(play_game(pos, seating.seats), k);
          ++done;
          if (progress) {
            const double el =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            const double eta = el / done * (mine - done);
            err << "\r" << done << "/" << mine << " games  " << pad(entries[t].spec, 18)
                << "  elapsed " << format_duration(el) << "  left ~" << format_duration(eta)
                << "     " << std::flush;
          }
        }
        tallies.push_back(std::move(tally));
      }
      if (progress) err << "\r" << std::string(79, ' ') << "\r" << std::flush;
      title = "tanbo study: " + players + ", " + std::to_string(games) + " games per board";
      if (shard_n > 1) title += ", shard " + shard;
    }
    if (!chart_title.empty()) title = chart_title;
    if (!png_path.empty()) write_file_atomic(png_path, encode_png(chart(tallies, title)));
    if (csv) {
      out << study_csv(tallies);
    } else {
      print_table(tallies, out);
    }
  } catch (const Error& e) {
    err << "tanbo study: " << e.what() << "\n";
    return 2;
  }
  return 0;
}

}  // namespace tanbo::cli

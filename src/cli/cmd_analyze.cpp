// tanbo analyze: a review of a game, move by move, by the search and the exact solver
// (docs/cli.md).
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>

#include "commands.hpp"
#include "tanbo/ai/mcts.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/io/gamefile.hpp"
#include "tanbo/io/png.hpp"
#include "tanbo/io/safe_file.hpp"
#include "tanbo/platform/signal_thread.hpp"

namespace tanbo::cli {

namespace {

// The search's verdict on one position: the side to move's chance to win, and its best move.
struct Verdict {
  double value = 0;  // probability that the side to move wins
  bool proven = false;
  Vertex best = kNoVertex;
};

// One reviewed move.
struct Review {
  Player player = kEmpty;
  Vertex played = kNoVertex;
  Verdict before;    // the mover's position before the move
  double after = 0;  // the mover's chance after it (1 - the opponent's)
  bool after_proven = false;
  bool flagged = false;  // lost more than the margin or threw away a proven win
};

Verdict judge(Mcts& mcts, const Position& pos) {
  Verdict v;
  const std::vector<MoveAnalysis> lines = mcts.analyze(pos);
  if (lines.empty()) return v;
  v.best = lines.front().move;
  v.value = lines.front().winrate;
  v.proven = lines.front().proven != 0;
  return v;
}

// A stop asked from another thread (Ctrl-C): the review ends with the moves reviewed whole, and
// the search under way is cut short.
class StopReview {
 public:
  void request() {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
    if (mcts_) mcts_->stop();
  }
  bool requested() const { return stop_; }
  void set_search(Mcts* mcts) {
    std::lock_guard<std::mutex> lock(mu_);
    mcts_ = mcts;
  }

 private:
  std::mutex mu_;
  std::atomic<bool> stop_{false};
  Mcts* mcts_ = nullptr;  // the search to cut short (null: none)
};

std::vector<Review> review_game(const Game& game, std::uint64_t playouts, double margin,
                                std::uint64_t seed, StopReview& stop, std::ostream& err) {
  MctsConfig config;
  config.playouts = playouts;
  Mcts mcts(config, seed);
  stop.set_search(&mcts);
  struct Forget {  // the search goes with this function: no stop may reach it after
    StopReview& stop;
    ~Forget() { stop.set_search(nullptr); }
  } forget{stop};
  Position pos(game.position.topology_ptr(), game.position.setup());
  const auto history = game.position.history();
  std::vector<Review> out;
  Verdict now = judge(mcts, pos);
  for (std::size_t i = 0; i < history.size(); ++i) {
    // (a verdict of a search cut short is not one: the move it judged is left out)
    if (stop.requested()) break;
    const MoveRecord& rec = history[i];
    if (rec.kind != MoveRecord::Kind::kPlace) break;  // a resignation ends the review
    Review r;
    r.player = rec.player;
    r.played = rec.vertex;
    r.before = now;
    pos.play(rec.vertex);
    if (pos.is_over()) {
      r.after = pos.winner() == r.player ? 1.0 : 0.0;
      r.after_proven = true;
    } else {
      now = judge(mcts, pos);
      if (stop.requested()) break;
      r.after = 1.0 - now.value;
      r.after_proven = now.proven;
    }
    const bool threw_win = r.before.proven && r.before.value == 1.0 && r.after < 1.0;
    r.flagged = r.played != r.before.best && (r.before.value - r.after > margin || threw_win);
    out.push_back(r);
    if (history.size() > 20 && (i + 1) % 10 == 0) {
      err << "analyze: " << i + 1 << " of " << history.size() << " moves\n" << std::flush;
    }
  }
  return out;
}

std::string percent(double x, bool proven) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(2) << x << (proven ? "!" : " ");
  return os.str();
}

void print_reviews(const Game& game, const std::vector<Review>& reviews, double margin,
                   std::ostream& out) {
  const Topology& t = game.position.topology();
  out << "move  player  played  before  after   loss   best\n";
  int flagged = 0;
  for (std::size_t i = 0; i < reviews.size(); ++i) {
    const Review& r = reviews[i];
    std::ostringstream line;
    line << std::left << std::setw(6) << i + 1 << std::setw(8) << player_name(r.player)
         << std::setw(8) << t.name(r.played) << std::setw(8)
         << percent(r.before.value, r.before.proven) << std::setw(8)
         << percent(r.after, r.after_proven) << std::setw(7) << std::fixed << std::setprecision(2)
         << std::max(0.0, r.before.value - r.after);
    if (r.flagged) {
      line << t.name(r.before.best)
           << (r.before.proven && r.before.value == 1.0 ? "  (threw away a proven win)" : "");
      ++flagged;
    }
    out << line.str() << "\n";
  }
  out << "win rates are the mover's (! = proven by the solver); " << flagged
      << (flagged == 1 ? " move" : " moves") << " lost more than " << margin
      << " or a proven win\n";
  const Position& end = game.position;
  out << "result: "
      << (end.is_over() ? result_text(game)
                        : "unfinished (" + std::string(player_name(end.to_move())) + " to play)")
      << "\n";
}

// The first player's win rate after each move, as a line chart.
Canvas chart(const std::vector<Review>& reviews, const std::string& title) {
  const int w = 800, h = 360, left = 50, right = 20, top = 40, bottom = 40;
  Canvas c(w, h);
  const Rgb axis{80, 80, 80}, grid{220, 220, 220}, line{20, 70, 200}, mark{200, 30, 30};
  const int x0 = left, x1 = w - right, y0 = h - bottom, y1 = top;
  c.text(left, 12, title, {0, 0, 0}, 2);
  for (int k = 0; k <= 4; ++k) {
    const int y = y0 - (y0 - y1) * k / 4;
    c.hline(x0, x1, y, k == 2 ? Rgb{170, 170, 170} : grid);
    c.text(8, y - 3, std::to_string(25 * k) + "%", axis);
  }
  c.vline(x0, y1, y0, axis);
  c.hline(x0, x1, y0, axis);
  c.text(x1 - Canvas::text_width("MOVE"), y0 + 14, "MOVE", axis);
  const std::size_t n = reviews.size();
  auto px = [&](std::size_t i) {
    return x0 + static_cast<int>((x1 - x0) * i / std::max<std::size_t>(n, 1));
  };
  auto py = [&](double v) { return y0 - static_cast<int>(std::lround((y0 - y1) * v)); };
  auto black_value = [&](std::size_t i) {
    const Review& r = reviews[i];
    return r.player == kBlack ? r.after : 1.0 - r.after;
  };
  double prev =
      n ? (reviews[0].player == kBlack ? reviews[0].before.value : 1.0 - reviews[0].before.value)
        : 0.5;
  for (std::size_t i = 0; i < n; ++i) {
    const double v = black_value(i);
    const int xa = px(i), xb = px(i + 1), ya = py(prev), yb = py(v);
    const int steps = std::max({std::abs(xb - xa), std::abs(yb - ya), 1});
    for (int s = 0; s <= steps; ++s) {
      const int x = xa + (xb - xa) * s / steps, y = ya + (yb - ya) * s / steps;
      c.fill_rect(x, y, x + 1, y + 1, line);
    }
    if (reviews[i].flagged) c.fill_rect(xb - 2, yb - 2, xb + 2, yb + 2, mark);
    prev = v;
  }
  c.text(x0, y0 + 14, "BLACK'S WIN RATE (RED: MOVES FLAGGED)", axis);
  return c;
}

// Writes the chart (atomically), or with no `png` data only checks that it can be written;
// false, with the reason on `err`, when it cannot: failed output exits with status 1.
bool written(const std::string& path, const std::string& png, std::ostream& err) {
  try {
    if (png.empty()) {
      check_writable(path);
    } else {
      write_file_atomic(path, png);
    }
  } catch (const Error& e) {
    err << "tanbo analyze: " << e.what() << "\n";
    return false;
  }
  return true;
}

}  // namespace

int cmd_analyze(const std::vector<std::string>& args, std::istream&, std::ostream& out,
                std::ostream& err) {
  std::string file, png;
  std::uint64_t playouts = 2000, seed = 1;
  double margin = 0.15;
  po::options_description desc("tanbo analyze options");
  desc.add_options()("game", po::value(&file), "the game file to review")(
      "playouts", po::value(&playouts)->default_value(playouts), "playouts per position")(
      "margin", po::value(&margin)->default_value(margin, "0.15"),
      "flag moves that lose more win rate than this")(
      "png", po::value(&png), "write a chart of the win rate over the game to FILE")(
      "seed", po::value(&seed)->default_value(seed), "random seed of the search");
  po::positional_options_description positional;
  positional.add("game", 1);
  po::variables_map vm;
  if (const auto stop = parse_args(
          args, desc, &positional, vm,
          "usage: tanbo analyze GAME [--playouts N] [--margin M] [--png FILE]\n"
          "Reviews a game file (two players): for each move the mover's win rate before\n"
          "and after it, by the search (and the exact solver near the end, ! = proven),\n"
          "and the best alternative where the move lost more than the margin or threw\n"
          "away a proven win; --png draws Black's win rate over the game.\n"
          "example: tanbo analyze game.tanbo --playouts 5000 --png review.png",
          out, err))
    return *stop;
  if (file.empty()) throw Error("give the game file to review (tanbo analyze GAME)");
  if (playouts < 1 || playouts > 1000000000) throw Error("--playouts must be 1 to 10^9");
  if (!(margin >= 0 && margin <= 1)) throw Error("--margin must be from 0 to 1");
  refuse_empty_names(vm, {{"png", "--png FILE"}});
  // A chart that cannot be written is found before the review, not after it, and may not
  // replace the game it reviews.
  check_not_an_input(png, {file}, "--png");
  if (!png.empty() && !written(png, "", err)) return 1;
  const Game game = load_game(file);
  if (game.position.num_players() != 2) {
    throw Error("analyze reviews two-player games; this game has " +
                std::to_string(game.position.num_players()) + " players");
  }
  if (game.position.ply() == 0) throw Error("the game has no moves to review");
  // Ctrl-C ends the review with the moves reviewed so far (their table and chart) and status
  // 130; a second one ends the program at once. Only in the program itself: a test that calls
  // cmd_analyze with streams of its own keeps its signals.
  StopReview stop;
  std::optional<SignalThread> ctrl_c;
  if (&out == &std::cout) {
    ctrl_c.emplace(std::initializer_list<int>{SIGINT});
    ctrl_c->start([&stop](int) {
      if (stop.requested()) {
        static const char bye[] = "tanbo analyze: stopped at once by a second Ctrl-C\n";
        (void)!::write(STDERR_FILENO, bye, sizeof bye - 1);
        std::_Exit(130);
      }
      stop.request();
    });
  }
  std::vector<Review> reviews = review_game(game, playouts, margin, seed, stop, err);
  if (ctrl_c) ctrl_c->stop();
  print_reviews(game, reviews, margin, out);
  if (!png.empty()) {
    if (!written(png, encode_png(chart(reviews, game.position.topology().spec)), err)) return 1;
    out << "chart: " << shown_name(png) << "\n";
  }
  if (!stop.requested()) return 0;
  const std::size_t moves = game.position.history().size();
  err << "tanbo analyze: stopped by Ctrl-C after " << reviews.size() << " of " << moves
      << " moves\n";
  return 130;
}

}  // namespace tanbo::cli

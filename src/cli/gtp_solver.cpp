// The engine protocol's commands that tell the truth about a position: tanbo-solve (exact)
// and tanbo-analyze (the search's view of every candidate move), and `tanbo gtp`'s input loop
// with the streaming form of tanbo-analyze: lines are read on their own thread, so that a
// streaming analysis can answer, update after update, until the next command arrives. See
// docs/protocol.md.
#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <iomanip>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include "gtp.hpp"
#include "tanbo/ai/mcts.hpp"
#include "tanbo/ai/solver.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/numbers.hpp"
#include "tanbo/core/text.hpp"

namespace tanbo::cli {

namespace {

// A whole or decimal number from `lo` to `hi`, or a refusal naming `what`.
double need_number(const std::string& text, const char* what, double lo, double hi, bool whole) {
  const auto x = parse_number(text, whole);
  if (!x || *x < lo || *x > hi) {
    std::ostringstream os;
    os << what << " must be " << (whole ? "a whole number" : "a number") << " from " << lo << " to "
       << hi << ", not " << quote_input(text);
    throw Error(os.str());
  }
  return *x;
}

// The position the engine stands on, checked to be a game not over.
const Position& game_on(const GtpEngine& engine) {
  const Position& pos = engine.position();
  if (pos.is_over()) throw Error("the game is over: " + player_title(pos.winner()) + " has won");
  return pos;
}

// The position the engine stands on, checked for the solver: two players, game not over.
const Position& solvable(const GtpEngine& engine) {
  const Position& pos = engine.position();
  if (pos.num_players() != 2) {
    throw Error("tanbo-solve solves two-player games only; this game has " +
                std::to_string(pos.num_players()) + " players");
  }
  return game_on(engine);
}

// The arguments of tanbo-analyze, PLAYOUTS [INTERVAL], checked alike for both forms, and a game
// that goes on (interval 0: the plain form).
struct AnalyzeRequest {
  std::uint64_t playouts = 0;
  double interval = 0;
};

AnalyzeRequest need_analyze_request(const GtpEngine& engine, const std::vector<std::string>& a) {
  if (a.empty() || a.size() > 2) throw Error("usage: tanbo-analyze PLAYOUTS [INTERVAL]");
  AnalyzeRequest r;
  r.playouts = static_cast<std::uint64_t>(need_number(a[0], "PLAYOUTS", 1, 1e9, true));
  if (a.size() == 2) r.interval = need_number(a[1], "INTERVAL", 0.05, 3600, false);
  game_on(engine);
  return r;
}

std::string solve_reply(const Position& pos, const SolveResult& r) {
  std::ostringstream os;
  if (!r.solved) {
    os << "unknown after " << std::fixed << std::setprecision(1) << r.seconds << " s: " << r.nodes
       << " nodes, " << r.moves_done << " of " << r.moves_total << " moves proven losing";
    return os.str();
  }
  os << player_name(r.winner) << " " << pos.topology().name(r.best);
  return os.str();
}

// One line per candidate move, best first:
// "move V visits N winrate W [proven] pv V1 V2 ...".
std::string analysis_text(const Position& pos, const std::vector<MoveAnalysis>& lines) {
  std::ostringstream os;
  const Topology& t = pos.topology();
  for (const MoveAnalysis& a : lines) {
    if (os.tellp() > 0) os << "\n";
    os << "move " << t.name(a.move) << " visits " << a.visits << " winrate " << std::fixed
       << std::setprecision(4) << a.winrate << (a.proven ? " proven" : "") << " pv";
    for (Vertex v : a.pv) os << " " << t.name(v);
  }
  return os.str();
}

// The lines of the input, read by a thread of their own. Shared with that thread, which may
// outlive the loop (it is left blocked on a read when `quit` comes first).
struct Lines {
  std::mutex mu;
  std::condition_variable ready;
  std::deque<std::string> queue;
  bool ended = false;

  // Waits for the next line; false at the end of the input.
  bool next(std::string& line) {
    std::unique_lock<std::mutex> lock(mu);
    ready.wait(lock, [&] { return !queue.empty() || ended; });
    if (queue.empty()) return false;
    line = std::move(queue.front());
    queue.pop_front();
    return true;
  }
  // Whether a line (or the end of the input) is waiting, within `seconds`.
  bool wait_for(double seconds) {
    std::unique_lock<std::mutex> lock(mu);
    return ready.wait_for(lock, std::chrono::duration<double>(seconds),
                          [&] { return !queue.empty() || ended; });
  }
};

// The search tanbo-analyze runs: the engine's MCTS options without their playout and time
// limits (each form sets its own).
MctsConfig analysis_config(const GtpEngine& engine) {
  MctsConfig config = engine.analysis_config();
  config.playouts = 0;
  config.move_seconds = 0;
  config.game_seconds = 0;
  return config;
}

// A streaming request: "[id] tanbo-analyze PLAYOUTS INTERVAL", read as handle_line reads
// commands, with arguments that need_analyze_request accepts. Any other line, a refused one
// included, is for handle_line (whose tanbo-analyze refuses it with the same reason).
struct StreamRequest {
  std::string id;
  AnalyzeRequest analyze;
};

bool parse_request(const GtpEngine& engine, const std::string& raw, StreamRequest& r) {
  std::vector<std::string> w;
  if (raw.size() > kMaxInputLine || !split_command(raw, r.id, w)) return false;
  if (w.size() != 3 || w[0] != "tanbo-analyze") return false;
  try {
    r.analyze = need_analyze_request(engine, {w[1], w[2]});
  } catch (const Error&) {
    return false;
  }
  return true;
}

// Searches the engine's position (a game that goes on) in steps of `interval` seconds,
// printing an update after each ("update PLAYOUTS" and one line per candidate move), until
// PLAYOUTS playouts are done (a step searches at most the playouts left) or the next line
// arrives; then ends the answer with its blank line.
void stream_analysis(const GtpEngine& engine, const StreamRequest& r, Lines& lines,
                     std::ostream& out) {
  const Position& pos = engine.position();
  if (!send(out, "=" + r.id + "\n")) return;
  MctsConfig config = analysis_config(engine);
  config.move_seconds = r.analyze.interval;
  Mcts mcts(config, engine.seed());
  std::uint64_t done = 0;
  while (done < r.analyze.playouts && out && !lines.wait_for(0)) {
    mcts.set_playout_limit(r.analyze.playouts - done);
    // A watcher stops the step early when a line arrives (asking again until the search
    // has started and taken it).
    std::atomic<bool> finished{false};
    std::thread watcher([&] {
      while (!finished) {
        if (lines.wait_for(0.02)) {
          mcts.stop();
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
      }
    });
    std::vector<MoveAnalysis> analysis;
    try {
      analysis = mcts.analyze(pos);
    } catch (...) {  // out of memory: the watcher ends before the error goes on
      finished = true;
      watcher.join();
      throw;
    }
    finished = true;
    watcher.join();
    done += mcts.last_stats().playouts;
    // A step that ran no playout may have no candidate line: no empty line inside the answer.
    const std::string text = analysis_text(pos, analysis);
    send(out, "update " + std::to_string(done) + "\n" + text + (text.empty() ? "" : "\n"));
    if (mcts.last_stats().playouts == 0 && mcts.last_stats().proven != 0) break;  // proven
  }
  if (!out) return;
  lines.wait_for(1e9);  // answers until the next command
  send(out, "\n");
}

}  // namespace

void add_solver_commands(GtpEngine& engine) {
  // One solver per engine, made at its first use; its table is kept between calls.
  auto solver = std::make_shared<std::unique_ptr<Solver>>();
  engine.add_command("tanbo-solve", [&engine, solver](const std::vector<std::string>& a) {
    if (a.size() > 1) throw Error("usage: tanbo-solve [SECONDS]");
    SolveLimits limits;
    if (!a.empty()) limits.seconds = need_number(a[0], "SECONDS", 0.001, 1e7, false);
    const Position& pos = solvable(engine);
    if (!*solver) *solver = std::make_unique<Solver>();
    const SolveResult r = (*solver)->solve(pos, limits);
    return GtpEngine::Reply{true, solve_reply(pos, r)};
  });
  // tanbo-analyze PLAYOUTS: a search of that many playouts from the current position by an
  // MCTS of its own, new for each command (with the engine's options and seed), so that the
  // same command on the same position answers the same; every candidate move it looked at.
  engine.add_command("tanbo-analyze", [&engine](const std::vector<std::string>& a) {
    const AnalyzeRequest r = need_analyze_request(engine, a);
    if (a.size() == 2) {
      throw Error(
          "the streaming form tanbo-analyze PLAYOUTS INTERVAL is answered by tanbo "
          "gtp's input loop only");
    }
    const Position& pos = engine.position();
    MctsConfig config = analysis_config(engine);
    config.playouts = r.playouts;
    Mcts mcts(config, engine.seed());
    return GtpEngine::Reply{true, analysis_text(pos, mcts.analyze(pos))};
  });
}

void run_gtp(GtpEngine& engine, std::istream& in, std::ostream& out) {
  auto lines = std::make_shared<Lines>();
  std::thread reader([lines, &in] {
    try {  // a line is kept to 1 MB and a byte (handle_line refuses it); out of memory ends input
      for (std::string line; read_line(in, line, kMaxInputLine + 1);) {
        std::lock_guard<std::mutex> lock(lines->mu);
        lines->queue.push_back(std::move(line));
        lines->ready.notify_all();
      }
    } catch (const std::bad_alloc&) {
      std::cerr << "tanbo gtp: out of memory while reading the input; it ends here\n";
    }
    std::lock_guard<std::mutex> lock(lines->mu);
    lines->ended = true;
    lines->ready.notify_all();
  });
  std::string line;
  try {
    // Until quit, the end of input, or answers that cannot be written (a full disk).
    while (!engine.quit() && out && lines->next(line)) {
      StreamRequest request;
      if (parse_request(engine, line, request)) {
        stream_analysis(engine, request, *lines, out);
        continue;
      }
      std::string reply;
      try {
        reply = engine.handle_line(line);
      } catch (const std::bad_alloc&) {
        reply = "? out of memory\n\n";  // before the command ran: nothing changed
      }
      if (!reply.empty()) send(out, reply);
    }
  } catch (...) {  // an analysis out of memory: the reader is left to end with the process
    reader.detach();
    throw;
  }
  // After quit (or output that failed) the reader may still wait on the terminal or pipe for
  // input that never comes: it is left to end with the process (it only touches `lines`,
  // which it shares, and cin).
  if ((engine.quit() || !out) && &in == &std::cin) {
    reader.detach();
  } else {
    reader.join();
  }
}

}  // namespace tanbo::cli

// The engine protocol's commands that tell the truth about a position: tanbo-solve (exact)
// and tanbo-analyze (the search's view of every candidate move; its streaming form is
// answered by the input loop, gtp_loop.cpp). See docs/protocol.md.
#include <iomanip>
#include <memory>
#include <sstream>

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
    os << what << " must be " << (whole ? "a whole number" : "a number") << " from "
       << plain_number(lo) << " to " << plain_number(hi) << ", not " << quote_input(text);
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

}  // namespace

AnalyzeRequest need_analyze_request(const GtpEngine& engine, const std::vector<std::string>& a) {
  if (a.empty() || a.size() > 2) throw Error("usage: tanbo-analyze PLAYOUTS [INTERVAL]");
  AnalyzeRequest r;
  r.playouts = static_cast<std::uint64_t>(need_number(a[0], "PLAYOUTS", 1, 1e9, true));
  if (a.size() == 2) r.interval = need_number(a[1], "INTERVAL", 0.05, 3600, false);
  game_on(engine);
  return r;
}

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

MctsConfig analysis_config(const GtpEngine& engine) {
  MctsConfig config = engine.analysis_config();
  config.playouts = 0;
  config.move_seconds = 0;
  config.game_seconds = 0;
  return config;
}

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

}  // namespace tanbo::cli

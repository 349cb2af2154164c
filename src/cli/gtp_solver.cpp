// The engine protocol's commands that tell the truth about a position: tanbo-solve (exact)
// and tanbo-analyze (the search's view of every candidate move). See docs/protocol.md.
#include <algorithm>
#include <cctype>
#include <iomanip>
#include <memory>
#include <sstream>

#include "gtp.hpp"
#include "tanbo/error.hpp"
#include "tanbo/mcts.hpp"
#include "tanbo/solver.hpp"

namespace tanbo::cli {

namespace {

// A whole or decimal number from `lo` to `hi`, or a refusal naming `what`.
double need_number(const std::string& text, const char* what, double lo, double hi, bool whole) {
  const bool digits = !text.empty() && text.size() <= 12 && text != "." &&
                      std::count(text.begin(), text.end(), '.') <= (whole ? 0 : 1) &&
                      std::all_of(text.begin(), text.end(), [](char ch) {
                        return ch == '.' || std::isdigit(static_cast<unsigned char>(ch));
                      });
  const double x = digits ? std::stod(text) : -1;
  if (!digits || x < lo || x > hi) {
    std::ostringstream os;
    os << what << " must be " << (whole ? "a whole number" : "a number") << " from " << lo << " to "
       << hi << ", not \"" << text << "\"";
    throw Error(os.str());
  }
  return x;
}

// The position the engine stands on, checked for the solver: two players, game not over.
const Position& solvable(const GtpEngine& engine) {
  const Position& pos = engine.position();
  if (pos.num_players() != 2) {
    throw Error("tanbo-solve solves two-player games only; this game has " +
                std::to_string(pos.num_players()) + " players");
  }
  if (pos.is_over()) throw Error("the game is over: " + player_title(pos.winner()) + " has won");
  return pos;
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
  // tanbo-analyze PLAYOUTS: a search of that many playouts from the current position (its own
  // engine, seeded like the game's), every candidate move it looked at.
  auto mcts = std::make_shared<std::unique_ptr<Mcts>>();
  engine.add_command("tanbo-analyze", [&engine, mcts](const std::vector<std::string>& a) {
    if (a.size() != 1) throw Error("usage: tanbo-analyze PLAYOUTS");
    const auto playouts = static_cast<std::uint64_t>(need_number(a[0], "PLAYOUTS", 1, 1e9, true));
    const Position& pos = engine.position();
    if (pos.is_over()) throw Error("the game is over: " + player_title(pos.winner()) + " has won");
    MctsConfig config;
    config.playouts = playouts;
    if (!*mcts || (*mcts)->config().playouts != playouts) *mcts = std::make_unique<Mcts>(config);
    return GtpEngine::Reply{true, analysis_text(pos, (*mcts)->analyze(pos))};
  });
}

}  // namespace tanbo::cli

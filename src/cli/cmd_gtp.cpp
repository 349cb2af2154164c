#include <iostream>

#include "commands.hpp"
#include "gtp.hpp"
#include "tanbo/ai/agent.hpp"
#include "tanbo/core/error.hpp"

namespace tanbo::cli {

int cmd_gtp(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
            std::ostream& err) {
  BoardOptions board;
  po::options_description desc("tanbo gtp options");
  add_board_options(desc, board);
  std::string engine_spec = kDefaultEngine;
  desc.add_options()("engine", po::value(&engine_spec)->default_value(engine_spec),
                     "engine player for genmove: random, greedy, mcts:playouts=N, mcts:time=S, "
                     "... (docs/strength.md)");
  int threads = 0;
  desc.add_options()("threads", po::value(&threads),
                     "search threads of an mcts engine (same as its option threads=T)");
  po::variables_map vm;
  if (const auto stop =
          parse_args(args, desc, nullptr, vm,
                     "usage: tanbo gtp [options]\n"
                     "Speaks the engine protocol (GTP version 2 framing) on stdin/stdout.\n"
                     "Commands are listed in docs/protocol.md and by list_commands; clients\n"
                     "(GoGui, Sabaki, twogtp) also find komi, loadsgf, printsgf, final_score,\n"
                     "gogui-analyze_commands and GoGui's gogui-rules_* commands (with these GoGui\n"
                     "shows a game of Tanbo on square boards up to 25x25).\n"
                     "example: printf 'topology grid 5x5x5\\nshowboard\\n' | tanbo gtp",
                     out, err))
    return *stop;
  if (vm.count("threads") && (threads < 1 || threads > 256)) {
    throw Error("--threads " + std::to_string(threads) + ": expected 1 to 256");
  }
  if (threads > 0) engine_spec = with_threads(engine_spec, threads);
  std::shared_ptr<Agent> agent = make_agent(engine_spec, board.seed);
  GtpEngine engine(make_position(board), board.seed);
  engine.set_move_generator([agent](const Position& pos) { return agent->choose(pos); });
  engine.on_new_game([agent] { agent->new_game(); });
  if (const auto config = mcts_config_of(engine_spec)) engine.set_analysis_config(*config);
  engine.on_clock([agent](double seconds, int moves) { agent->set_clock(seconds, moves); });
  run_gtp(engine, in, out);  // engine.run, with streaming analysis (gtp_solver.cpp)
  return 0;
}

}  // namespace tanbo::cli

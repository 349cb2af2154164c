// libFuzzer target: the proof checker (tanbo::proof::check, docs/solved.md "Proofs anyone can
// check"), which reads certificates from anyone: `tanbo check-proof` hands it a file's text, a
// piece at a time.
//
// Any text must give a result or a tanbo::Error, never a crash, a hang or another exception.
// A certificate the checker finds valid must claim the true winner: on boards of at most 16
// points with two players, the library's solver (another program: a search with its own rules
// engine) must find the same winner from the same position. The check with low memory
// (CheckMemory::kLow) must give the same answer and reason as the one that remembers.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>

#include "fuzz_scope.hpp"
#include "tanbo/ai/solver.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/setup.hpp"
#include "tanbo/platform/memory.hpp"
#include "tanbo/proof/proof.hpp"

namespace {

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_proof: %s\n", what.c_str());
  std::abort();
}

// The header line that starts with `key`, without it ("" when there is none): the moves, which
// the check's result does not name.
std::string header(std::string_view text, std::string_view key) {
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && line.back() == '\r') line.pop_back();  // (as the checker)
    if (line.rfind(std::string(key) + " ", 0) == 0) return line.substr(key.size() + 1);
    if (line == key) return "";
  }
  return "";
}

// The winner the library's solver finds after the certificate's moves, on the board and setup
// the checker read; kEmpty when the board is too large to solve here or has more than two
// players.
tanbo::Player solved_winner(std::string_view text, const tanbo::proof::CheckResult& checked) {
  const tanbo::TopologyPtr& topo = checked.board;  // (a DOT board: built from the text)
  if (topo->num_vertices() > 16) return tanbo::kEmpty;
  tanbo::Position pos(topo, tanbo::make_setup(*topo, checked.setup));
  if (pos.num_players() != 2) return tanbo::kEmpty;
  std::istringstream moves(header(text, "moves"));
  for (std::string name; moves >> name;) {
    const tanbo::Vertex v = topo->parse_vertex(name).value();
    if (pos.check_move(pos.to_move(), v) != tanbo::MoveStatus::kLegal) {
      fail("the checker played a move the rules engine refuses: " + name);
    }
    pos.play(v);
  }
  if (pos.is_over()) fail("the checker went on after the end of the game");
  tanbo::Solver solver(tanbo::SolverOptions{.table_bytes = std::size_t{1} << 20});
  const tanbo::SolveResult r = solver.solve(pos);
  if (!r.solved) fail("the solver did not finish on a board of 16 points");
  return r.winner;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > (1u << 20)) return -1;  // inputs up to 1 MB (scripts/test.sh: -max_len)
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (tanbo::fuzz::big_board(text, "topology")) return -1;
  tanbo::proof::CheckResult r, low;
  try {
    std::istringstream in{std::string(text)};
    r = tanbo::proof::check(in);
    std::istringstream again{std::string(text)};
    low = tanbo::proof::check(again, {}, 0, tanbo::proof::CheckMemory::kLow);
  } catch (const tanbo::Error& e) {
    if (std::string_view(e.what()).empty()) fail("empty error message");
    return 0;
  }
  if (low.valid != r.valid || low.reason != r.reason) {
    fail("the check with low memory disagrees (" + low.reason + "; " + r.reason + "):\n" +
         std::string(text));
  }
  if (!r.valid) {
    if (r.reason.empty()) fail("an invalid certificate without a reason");
    return 0;
  }
  try {
    const tanbo::Player w = solved_winner(text, r);
    if (w != tanbo::kEmpty && w != r.winner) {
      fail("a certificate for the loser passed the check:\n" + std::string(text));
    }
  } catch (const tanbo::Error& e) {
    fail(std::string("the checker accepted what the library refuses: ") + e.what() + "\n" +
         std::string(text));
  }
  return 0;
}

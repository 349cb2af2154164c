// libFuzzer target: the game-file reader (tanbo::read_game, docs/game-format.md), through the
// entry every game file takes after the input layer (input_file.hpp): read_game applies the
// same size limit to text as load_game to a file (kMaxGameFileBytes), then parses.
//
// Any text must give a game or a tanbo::Error, never a crash, a hang or another exception.
// A game that is read must be consistent (check_consistency) and must survive a round trip:
// write_game then read_game gives the same board, position, history length and side to move.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_scope.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/io/gamefile.hpp"

namespace {

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_gamefile: %s\n", what.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > (1u << 20)) return -1;  // inputs up to 1 MB (scripts/test.sh: -max_len)
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (tanbo::fuzz::big_board(text, "topology")) return -1;
  std::string first;
  std::uint64_t hash = 0;
  std::uint32_t ply = 0;
  std::string spec;
  tanbo::Player to_move = 0;
  try {
    tanbo::Game g = tanbo::read_game(text, "fuzz.game");
    const std::string bad = g.position.check_consistency();
    if (!bad.empty()) fail("inconsistent game: " + bad);
    first = tanbo::write_game(g);
    hash = g.position.hash();
    ply = g.position.ply();
    spec = g.position.topology().spec;
    to_move = g.position.to_move();
  } catch (const tanbo::Error& e) {
    if (std::string_view(e.what()).empty()) fail("empty error message");
    return 0;
  }
  try {
    tanbo::Game again = tanbo::read_game(first, "round-trip.game");
    if (again.position.hash() != hash || again.position.ply() != ply ||
        again.position.topology().spec != spec || again.position.to_move() != to_move) {
      fail("round trip changed the game:\n" + first);
    }
    if (tanbo::write_game(again) != first) fail("writing the game twice differs:\n" + first);
  } catch (const tanbo::Error& e) {
    fail(std::string("a written game cannot be read back: ") + e.what() + "\n" + first);
  }
  return 0;
}

// libFuzzer target: SGF import (tanbo::read_sgf), through the entry every SGF record takes
// after the input layer (input_file.hpp): read_sgf applies the same size limit to text as
// load_game to a file (kMaxGameFileBytes), then parses.
//
// Any text must give a game or a tanbo::Error, never a crash, a hang or another exception.
// A game that is read must be consistent (check_consistency); when SGF export accepts it,
// exporting and importing again must give the same position and history length.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tanbo/core/error.hpp"
#include "tanbo/io/sgf.hpp"

namespace {

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_sgf: %s\n", what.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > (1u << 20)) return -1;  // inputs up to 1 MB (scripts/test.sh: -max_len)
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string sgf;
  std::uint64_t hash = 0;
  std::uint32_t ply = 0;
  try {
    tanbo::Game g = tanbo::read_sgf(text, "fuzz.sgf");
    const std::string bad = g.position.check_consistency();
    if (!bad.empty()) fail("inconsistent game: " + bad);
    hash = g.position.hash();
    ply = g.position.ply();
    try {
      sgf = tanbo::write_sgf(g);
    } catch (const tanbo::Error&) {
      return 0;  // a game SGF cannot carry (not two players, say): refused with a reason
    }
  } catch (const tanbo::Error& e) {
    if (std::string_view(e.what()).empty()) fail("empty error message");
    return 0;
  }
  try {
    tanbo::Game again = tanbo::read_sgf(sgf, "round-trip.sgf");
    if (again.position.hash() != hash || again.position.ply() != ply) {
      fail("SGF round trip changed the game:\n" + sgf);
    }
  } catch (const tanbo::Error& e) {
    fail(std::string("an exported SGF cannot be read back: ") + e.what() + "\n" + sgf);
  }
  return 0;
}

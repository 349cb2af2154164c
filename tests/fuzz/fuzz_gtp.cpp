// libFuzzer target: the engine protocol, line by line (tanbo::cli::GtpEngine::handle_line).
//
// The input is a session: lines separated by '\n', handled by one engine in order. Besides
// "no crash, no sanitizer report", every answer must be well framed ("=" or "?", the id
// echoed, ended by exactly one blank line), a refused command must leave the position as it
// was (same board, stones, side to move and history length), and the position must pass
// check_consistency() after every line.
//
// Three things are kept out of the fuzzer's reach because they are not parser behaviour:
// `topology file PATH`, `loadsgf` and `printsgf` (they read and write arbitrary files of the
// machine; test_gtp_client covers them), boards much larger than a few
// thousand points (legal, but each costs real time and memory; test_scale covers them), and
// searches without a small bound: `tanbo-solve` without SECONDS or with more than 0.5 (it runs
// until the game is solved) and `tanbo-analyze` of more than 5,000 playouts (test_solver and
// test_mcts cover them).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz_scope.hpp"
#include "gtp.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"

namespace {

[[noreturn]] void fail(const std::string& what, const std::string& line, const std::string& reply) {
  std::fprintf(stderr, "fuzz_gtp: %s\n  line:  %s\n  reply: %s\n", what.c_str(), line.c_str(),
               reply.c_str());
  std::abort();
}

// The number after `word` in a line, or a negative number when there is none.
double number_after(const std::string& line, const std::string& word) {
  std::size_t at = line.find(word);
  if (at == std::string::npos) return -1;
  at = line.find_first_not_of(' ', at + word.size());
  if (at == std::string::npos) return -1;
  char* end = nullptr;
  const double value = std::strtod(line.c_str() + at, &end);
  return end == line.c_str() + at ? -1 : value;
}

// True for lines that would build a board too big to fuzz quickly, read a file, or search
// without a small bound.
bool out_of_scope(const std::string& line) {
  // What the engine sees: control characters dropped, a comment cut off.
  std::string seen;
  for (char c : line) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '#') break;
    if (u >= 32 && u != 127) seen += c;
  }
  const std::string l = tanbo::to_lower(seen);
  if (l.find("loadsgf") != std::string::npos || l.find("printsgf") != std::string::npos)
    return true;
  if (l.find("tanbo-solve") != std::string::npos) {
    const double seconds = number_after(l, "tanbo-solve");
    if (!(seconds >= 0 && seconds <= 0.5)) return true;
  }
  if (l.find("tanbo-analyze") != std::string::npos && !(number_after(l, "tanbo-analyze") <= 5000)) {
    return true;
  }
  if (l.find("topology") == std::string::npos && l.find("boardsize") == std::string::npos)
    return false;
  return l.find("file") != std::string::npos || tanbo::fuzz::points_bound(l) > 4096;
}

struct Snapshot {
  std::string spec;
  std::string setup;
  std::uint32_t ply;
  std::uint64_t hash;
  tanbo::Player to_move;
  bool operator==(const Snapshot&) const = default;
};

Snapshot snap(const tanbo::cli::GtpEngine& e) {
  const tanbo::Position& p = e.position();
  return {p.topology().spec, p.setup().name, p.ply(), p.hash(), p.to_move()};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > (1u << 20)) return -1;  // inputs up to 1 MB (scripts/test.sh: -max_len)
  const std::string input(reinterpret_cast<const char*>(data), size);
  tanbo::cli::GtpEngine engine(7);
  std::size_t start = 0;
  // A line can be any length; the session stops after 2,000 lines, since 2,000 genmoves
  // already take seconds and the fuzzer's limit is 10 s an input.
  for (int lines = 0; start <= input.size() && !engine.quit() && lines < 2000; ++lines) {
    std::size_t end = input.find('\n', start);
    if (end == std::string::npos) end = input.size();
    const std::string line = input.substr(start, end - start);
    start = end + 1;
    if (out_of_scope(line)) continue;
    const Snapshot before = snap(engine);
    const std::string reply = engine.handle_line(line);
    if (reply.empty()) continue;
    if (reply.size() < 3 || reply.substr(reply.size() - 2) != "\n\n")
      fail("reply not ended by one blank line", line, reply);
    if (reply.find("\n\n") != reply.size() - 2) fail("blank line inside a reply", line, reply);
    if (reply[0] != '=' && reply[0] != '?') fail("reply starts with neither = nor ?", line, reply);
    if (reply[0] == '?' && !(snap(engine) == before))
      fail("a refused command changed the position", line, reply);
    // The message itself (after "?id "), not text the line echoes back.
    const std::size_t msg = reply.find_first_not_of("0123456789", 1);
    if (reply[0] == '?' && reply.compare(msg, 15, " internal error") == 0) {
      fail("internal error escaped", line, reply);
    }
    const std::string bad = engine.position().check_consistency();
    if (!bad.empty()) fail("inconsistent position: " + bad, line, reply);
  }
  return 0;
}

// The engine protocol through the real `tanbo gtp` program, as a controller drives it: a piped
// session, the engine's clock, floods of input, options and their refusals, and the streamed
// analysis that ends with its search. Each command's answers: test_gtp.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.hpp"

using namespace tanbo;

namespace {

// The "update N" counts of the streaming answer with id `id` in a session's output.
std::vector<long> updates_of(const std::string& out, const std::string& id) {
  std::vector<long> counts;
  const auto start = out.find("=" + id + " \n");
  if (start == std::string::npos) return counts;
  const auto end = out.find("\n\n", start);
  std::istringstream lines(out.substr(start, end - start));
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("update ", 0) == 0) counts.push_back(std::stol(line.substr(7)));
  }
  return counts;
}

}  // namespace

// Through the program: an engine that would think 20 s a move plays within its clock.
TEST(GtpBinary, TheEngineKeepsToItsClock) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = test::run_command(std::string(TANBO_BINARY) + " gtp --engine mcts:time=20",
                                   "boardsize 9\ntime_settings 0 1 2\ngenmove b\ngenmove w\n"
                                   "time_left b 0.5 0\ngenmove b\nquit\n");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '='), 7) << r.out;
  EXPECT_LT(seconds, 15.0) << "three moves of a 20 s engine on a clock of 1 s for 2 moves";
}

// More input than the engine's queue holds (16 MB) before it reads any: the reader waits for
// room instead of queueing it all, and every command is still answered in order. Comment
// lines get no answer, one longer than a command may be (1 MB) included.
TEST(GtpBinary, AFloodOfInputIsReadAsTheEngineTakesIt) {
  std::string input = "genmove b\n";
  const std::string comment = "# " + std::string(998, 'x') + "\n";
  for (int i = 0; i < 20000; ++i) input += comment;         // 20 MB that get no answer
  input += "# " + std::string((1 << 20) + 10, 'x') + "\n";  // a comment of over 1 MB
  input += "name\nquit\n";
  // (the engine thinks half a second on its first move, while the input waits)
  const auto r =
      test::run_command(std::string(TANBO_BINARY) + " gtp --engine mcts:time=0.5", input);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, 2), "= ");
  EXPECT_EQ(r.out.substr(r.out.find("\n\n") + 2), "= tanbo\n\n=\n\n");
}

TEST(GtpBinary, PipedSession) {
  const std::string input =
      "1 boardsize 9\n"
      "# a comment line\n"
      "\n"
      "2 play b B3\n"
      "3 play b B4\n"
      "4 play w z1\n"
      "5 legal_moves\n"
      "6 roots\n"
      "7 winner\n"
      "8 quit\n"
      "9 name\n";  // after quit: not read
  const auto r = test::run_command(std::string(TANBO_BINARY) + " gtp --engine random", input);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out,
            "=1 \n\n"
            "=2 \n\n"
            "?3 illegal move: it is White's turn, not Black's\n\n"
            "?4 \"z1\" is not a point of this board (Go coordinates A1..J9 (no I; or x,y))\n\n"
            "=5 H1 G2 J2 H3 B7 A8 C8 B9\n\n"
            "=6 black 2 6 B2 B3\nwhite 1 4 H2\nwhite 1 4 B8\nblack 1 4 H8\n\n"
            "=7 none\n\n"
            "=8 \n\n");
}

TEST(GtpBinary, OptionsChooseTheBoardAndBadOnesAreRefused) {
  auto r = test::run_command(
      std::string(TANBO_BINARY) + " gtp --engine random --topology 'grid 5x5x5' --setup spaced",
      "setup\nlist_stones white\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "= spaced pbmserv\n\n= 511 151 115 555\n\n");
  test::expect_refused(std::string(TANBO_BINARY) + " gtp --topology 'grid 9x9' --setup nonsense",
                       "unknown setup \"nonsense\"; setups that fit grid 9x9: steere1995, "
                       "steere2026, dense, spaced");
}

// A streaming answer ends as soon as its search is done, without waiting for another command:
// a controller that sends a command only after the last one's answer never hangs on it. (The
// input stays open for 6 s; the program is stopped after 4.)
TEST(GtpBinary, StreamingAnalysisEndsWhenItsSearchIsDone) {
  const auto r = test::run_command("(printf '1 tanbo-analyze 50 0.1\\n'; sleep 6) | timeout 4 " +
                                   std::string(TANBO_BINARY) + " gtp --topology 'grid 5x5'");
  ASSERT_EQ(r.out.rfind("=1 \nupdate ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("update 50\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.substr(r.out.size() - 2), "\n\n") << r.out;
  EXPECT_EQ(r.out.find("\n\n"), r.out.size() - 2) << r.out;
}

// The streaming form through the program: it stops at PLAYOUTS playouts however long its
// interval, and what it refuses, it refuses at once with the plain form's answer. The pauses
// give each search far more time than it needs (even under a sanitizer).
TEST(GtpBinary, StreamingAnalysisStopsAtPlayoutsAndRefusesAsThePlainForm) {
  const std::string session =
      "(printf 'boardsize 7\\n1 tanbo-analyze 1 5\\n'; sleep 2; "
      "printf '2 tanbo-analyze 300 0.05\\n'; sleep 3; "
      "printf '3 tanbo-analyze 0x10 1\\n4 tanbo-analyze 100 1e2\\n5 resign w\\n"
      "6 tanbo-analyze 100 0.2\\n7 tanbo-analyze 100\\nquit\\n') | " +
      std::string(TANBO_BINARY) + " gtp";
  const auto r = test::run_command(session);
  EXPECT_EQ(r.status, 0) << r.err;
  std::size_t answers = 0;  // each ends with an empty line, and none holds one
  for (auto at = r.out.find("\n\n"); at != std::string::npos; at = r.out.find("\n\n", at + 2))
    ++answers;
  EXPECT_EQ(answers, 9u) << r.out;
  EXPECT_EQ(updates_of(r.out, "1"), std::vector<long>{1}) << r.out;
  const std::vector<long> second = updates_of(r.out, "2");
  ASSERT_FALSE(second.empty()) << r.out;
  EXPECT_EQ(second.back(), 300) << r.out;
  EXPECT_TRUE(std::is_sorted(second.begin(), second.end())) << r.out;
  const std::string tail = r.out.substr(r.out.find("\n\n?3") + 2);
  EXPECT_EQ(tail,
            "?3 PLAYOUTS must be a whole number from 1 to 1000000000, not \"0x10\"\n\n"
            "?4 INTERVAL must be a number from 0.05 to 3600, not \"1e2\"\n\n"
            "=5 \n\n"
            "?6 the game is over: Black has won\n\n"
            "?7 the game is over: Black has won\n\n"
            "=\n\n");
}

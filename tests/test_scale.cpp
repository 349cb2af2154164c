// Scale: one uniformly random game to the end on the largest boards tanbo is built to play
// (1000x1000, 100x100x100, 3^11), with the full consistency check sampled during the game and
// at its end, an undo of the whole game back to the start, and peak memory reported (and
// checked to grow linearly).
//
// Each game runs in a forked child so that its peak resident memory (getrusage ru_maxrss,
// which only ever grows in a process) is its own and not that of an earlier test. The child
// reports through a pipe; the parent makes the assertions. Times are printed and recorded as
// test properties, never asserted.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "tanbo/core/position.hpp"
#include "tanbo/core/random.hpp"
#include "tanbo/core/setup.hpp"
#include "tanbo/core/topology.hpp"
#include "tanbo/platform/memory.hpp"
#include "test_support.hpp"

namespace {

long peak_rss_kb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;  // KB on Linux
}

struct GameReport {
  std::string error;  // "" when every check passed
  std::uint32_t points = 0;
  std::uint64_t edges = 0;
  std::size_t seeds = 0;
  std::uint32_t moves = 0;
  int checks = 0;
  double build_s = 0, play_s = 0, undo_s = 0;
  long base_kb = 0, start_kb = 0, peak_kb = 0;             // RSS before, after building, peak
  std::uint64_t estimate = 0;                              // estimated_memory() of the board
  long grown_kb() const { return peak_kb - base_kb; }      // board + position + history
  long position_kb() const { return start_kb - base_kb; }  // board + position at the start
};

// Plays one random game on `spec` (in the calling process) and checks it.
// With play == false it stops after building the board and the starting position.
GameReport play_and_check(const std::string& spec, std::uint64_t seed, bool play) {
  using clock = std::chrono::steady_clock;
  auto secs = [](clock::time_point a, clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  };
  GameReport r;
  r.base_kb = tanbo::test::rss_kb();
  const auto t0 = clock::now();
  auto topo = tanbo::parse_topology(spec);
  tanbo::Position pos(topo, tanbo::make_setup(*topo));
  const auto t1 = clock::now();
  r.start_kb = tanbo::test::rss_kb();
  r.points = pos.num_vertices();
  r.edges = topo->graph.num_edges();
  r.seeds = pos.setup().stones.size();
  r.estimate = tanbo::estimated_memory(r.points, r.edges, pos.num_players());
  const std::uint64_t start_hash = pos.hash();
  auto check = [&](const char* when) {
    ++r.checks;
    const std::string bad = pos.check_consistency();
    if (!bad.empty() && r.error.empty()) {
      r.error = std::string(when) + " move " + std::to_string(pos.ply()) + ": " + bad;
    }
    return bad.empty();
  };
  if (!check("at the start") || !play) return r;
  tanbo::Rng rng(seed);
  std::uint64_t next_check = 1;
  std::uint32_t roots_before = static_cast<std::uint32_t>(pos.live_roots().size());
  while (!pos.is_over()) {
    pos.play(tanbo::random_move(pos, rng));
    if (pos.ply() == next_check) {
      next_check *= 8;
      if (!check("after")) return r;
      const auto roots = static_cast<std::uint32_t>(pos.live_roots().size());
      if (roots > roots_before) {
        r.error = "the number of roots grew";
        return r;
      }
      roots_before = roots;
    }
  }
  const auto t2 = clock::now();
  r.moves = pos.ply();
  if (!check("at the end")) return r;
  int in = 0;
  for (int p = 1; p <= pos.num_players(); ++p) in += pos.stones(static_cast<tanbo::Player>(p)) > 0;
  if (in != 1 || pos.winner() == tanbo::kEmpty || pos.stones(pos.winner()) == 0) {
    r.error = "the game ended without exactly one player left";
    return r;
  }
  r.peak_kb = peak_rss_kb();
  // Take the game back: all of it, and the start must come back exactly; under ASan only the
  // last eighth (the same code, at a fraction of the sanitizer's cost; Release undoes it all).
  const std::uint32_t stop = TANBO_ASAN ? r.moves - r.moves / 8 : 0;
  const std::uint32_t mid = stop + (r.moves - stop) / 2;
  while (pos.ply() > stop) {
    pos.undo();
    if (pos.ply() == mid && !check("undoing, at")) return r;
  }
  const auto t3 = clock::now();
  if (stop == 0 && pos.hash() != start_hash)
    r.error = "undoing the whole game did not restore the start";
  check("after undoing, at");
  r.build_s = secs(t0, t1);
  r.play_s = secs(t1, t2);
  r.undo_s = secs(t2, t3);
  return r;
}

// Runs play_and_check in a forked child and returns its report.
GameReport play_in_child(const std::string& spec, std::uint64_t seed, bool play = true) {
  int fd[2];
  if (pipe(fd) != 0) return GameReport{"pipe failed"};
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return GameReport{"fork failed"};
  if (pid == 0) {
    close(fd[0]);
    GameReport r;
    try {
      r = play_and_check(spec, seed, play);
    } catch (const std::exception& e) {
      r.error = std::string("exception: ") + e.what();
    }
    std::ostringstream os;
    os << r.points << ' ' << r.edges << ' ' << r.seeds << ' ' << r.moves << ' ' << r.checks << ' '
       << r.build_s << ' ' << r.play_s << ' ' << r.undo_s << ' ' << r.base_kb << ' ' << r.start_kb
       << ' ' << r.peak_kb << ' ' << r.estimate << '\n'
       << r.error;
    const std::string s = os.str();
    std::size_t done = 0;
    while (done < s.size()) {
      const ssize_t w = write(fd[1], s.data() + done, s.size() - done);
      if (w <= 0) break;
      done += static_cast<std::size_t>(w);
    }
    close(fd[1]);
    _exit(0);
  }
  close(fd[1]);
  std::string text;
  char buf[4096];
  for (ssize_t got; (got = read(fd[0], buf, sizeof buf)) > 0;)
    text.append(buf, static_cast<std::size_t>(got));
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  GameReport r;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    r.error = "the child process died (status " + std::to_string(status) + ")";
    return r;
  }
  std::istringstream is(text);
  is >> r.points >> r.edges >> r.seeds >> r.moves >> r.checks >> r.build_s >> r.play_s >>
      r.undo_s >> r.base_kb >> r.start_kb >> r.peak_kb >> r.estimate;
  if (!is) return GameReport{"no report from the child: " + text};
  is.get();
  std::getline(is, r.error, '\0');
  return r;
}

GameReport run_case(const std::string& spec, std::uint32_t want_points) {
  const GameReport r = play_in_child(spec, 20261121);
  EXPECT_EQ(r.error, "") << spec;
  EXPECT_EQ(r.points, want_points) << spec;
  EXPECT_GT(r.moves, r.points / 2) << spec << ": a random game fills much of the board";
  const double position_per_point = r.position_kb() * 1024.0 / r.points;
  const double history_per_move =
      (r.grown_kb() - r.position_kb()) * 1024.0 / std::max<std::uint32_t>(1, r.moves);
  std::printf(
      "[scale] %-28s points=%u edges=%llu seeds=%zu moves=%u checks=%d build=%.2fs play=%.2fs "
      "undo=%.2fs peak_rss=%.1fMB position=%.1fMB (%.0f B/point; estimate %.1fMB) "
      "history=%.0f B/move%s\n",
      spec.c_str(), r.points, static_cast<unsigned long long>(r.edges), r.seeds, r.moves, r.checks,
      r.build_s, r.play_s, r.undo_s, r.peak_kb / 1024.0, r.position_kb() / 1024.0,
      position_per_point, r.estimate / 1048576.0, history_per_move, TANBO_ASAN ? " [ASan]" : "");
  testing::Test::RecordProperty("moves", static_cast<int>(r.moves));
  testing::Test::RecordProperty("peak_rss_kb", static_cast<int>(r.peak_kb));
  testing::Test::RecordProperty("play_ms", static_cast<int>(r.play_s * 1000));
  if (!TANBO_ASAN) {
    // The position takes a few hundred bytes a point at most (estimated_memory() is what the
    // size check uses), and the game record a few dozen bytes a turn (vector growth included).
    EXPECT_LT(position_per_point, 400.0) << spec;
    EXPECT_LT(history_per_move, 160.0) << spec;
  }
  return r;
}

}  // namespace

TEST(Scale, Grid1000x1000) {
  run_case("grid 1000x1000", 1'000'000);
}

TEST(Scale, Grid100x100x100) {
  run_case("grid 100x100x100", 1'000'000);
}

TEST(Scale, Lattice11D) {
  run_case("grid 3x3x3x3x3x3x3x3x3x3x3", 177'147);
}

// The board and position grow linearly: 16 times the points takes about 16 times the memory
// (not n log n or n^2). What a tiny board takes (the code's own pages touched, the allocator's
// first arenas: about 1 MB, which varies with the build) is taken off both. (Game records grow
// with the number of turns, checked per turn above; random games last longer per point on
// larger boards.)
TEST(Scale, MemoryIsLinearInTheBoard) {
  if (TANBO_ASAN) GTEST_SKIP() << "AddressSanitizer's shadow memory and redzones hide the ratio";
  const GameReport tiny = play_in_child("grid 8x8", 7, false);
  const GameReport small = play_in_child("grid 250x250", 7, false);
  const GameReport large = play_in_child("grid 1000x1000", 7, false);
  ASSERT_EQ(tiny.error, "");
  ASSERT_EQ(small.error, "");
  ASSERT_EQ(large.error, "");
  const long fixed = tiny.position_kb();
  const double ratio =
      static_cast<double>(large.position_kb() - fixed) / std::max(1L, small.position_kb() - fixed);
  std::printf(
      "[scale] position memory 1000x1000 / 250x250 = %.1f (%ld KB / %ld KB, %ld KB of 8x8 off "
      "both; points x16)\n",
      ratio, large.position_kb(), small.position_kb(), fixed);
  EXPECT_GT(ratio, 12.0);
  EXPECT_LT(ratio, 20.0);
}

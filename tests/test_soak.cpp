// Soak: many random games through one engine, with undo, illegal moves, refused commands and
// topology changes mixed in; memory must not grow once the engine is warm.
//
// The same session driver talks to the engine in two ways: in this process through
// GtpEngine::handle_line (many games, with check_consistency along the way), and to one real
// `tanbo gtp` process over pipes (its resident memory read from /proc/PID/status).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "gtp.hpp"
#include "tanbo/core/random.hpp"
#include "test_support.hpp"

#if TANBO_ASAN
// Freed memory waits in AddressSanitizer's quarantine (256 MB by default) before it is reused,
// which looks like growth; a small quarantine keeps the measurement about the engine.
extern "C" const char* __asan_default_options() {
  return "quarantine_size_mb=16";
}
#endif

namespace {

// One GTP exchange: sends a command, returns the full reply ("= ...\n\n" or "? ...\n\n").
using Send = std::function<std::string(const std::string&)>;

std::string body(const std::string& reply) {  // "= text\n\n" -> "text"
  std::string s = reply.size() >= 3 ? reply.substr(1, reply.size() - 3) : "";
  if (!s.empty() && s[0] == ' ') s.erase(0, 1);
  return s;
}

struct SoakStats {
  int games = 0, moves = 0, undos = 0, illegal = 0, refused_topologies = 0, checks = 0;
  std::string failure;  // first problem seen, "" when none
};

// Plays `games` random games through `send`. `consistent` (may be empty) is called now and
// then and returns "" or what is wrong. `on_game` is called after each game.
SoakStats soak(const Send& send, int games, std::uint64_t seed, const std::string& dot_path,
               const std::function<std::string()>& consistent,
               const std::function<void(int)>& on_game) {
  struct Board {
    std::string spec, setup;
  };
  const std::vector<Board> boards = {
      {"grid 9x9", ""},
      {"grid 5x5x5", ""},
      {"line 31", ""},
      {"hex 5", "hexbo 3"},
      {"grid 7x7 wrap", ""},
      {"grid 3x3x3x3", ""},
      {"grid 19x19", "four"},
      {"file " + dot_path, ""},
      {"grid 13x13", ""},
      {"hex 4", ""},
      {"grid 9x9", "dense"},
      {"grid 5x5x5", "spaced 3"},
      {"grid 13x13", "spaced 4"},
      {"hex 5", "hexbo 6"},
  };
  const std::vector<std::string> bad_topologies = {
      "topology grid 99999999999x9",
      "topology grid 100000x100000",
      "topology hex 1",
      "topology file /no/such/board.dot",
      "topology line 1",
      "topology grid 0x3",
  };
  SoakStats st;
  tanbo::Rng rng(seed);
  auto expect = [&](const std::string& cmd, char want) {
    const std::string r = send(cmd);
    if (st.failure.empty() &&
        (r.empty() || r[0] != want || r.size() < 2 || r.substr(r.size() - 2) != "\n\n")) {
      st.failure = "\"" + cmd + "\" answered \"" + r + "\"";
    }
    return r;
  };
  for (int g = 0; g < games && st.failure.empty(); ++g) {
    const Board& b = boards[static_cast<std::size_t>(g) % boards.size()];
    // A refused topology change first: the previous game must stay.
    if (g % 3 == 0) {
      const std::string before = send("showboard");
      expect(bad_topologies[rng.below(static_cast<std::uint32_t>(bad_topologies.size()))], '?');
      if (send("showboard") != before && st.failure.empty())
        st.failure = "a refused topology changed the board";
      ++st.refused_topologies;
    }
    expect("topology " + b.spec, '=');
    if (!b.setup.empty()) expect("setup " + b.setup, '=');
    int ply = 0;
    for (int turn = 0; st.failure.empty(); ++turn) {
      const std::string side = body(send("side_to_move"));
      if (side == "none") break;
      const int action = static_cast<int>(rng.below(100));
      if (action < 4) {
        const std::string stones = body(send("list_stones " + side));
        const std::string before = send("showboard");
        // Occupied point, or the wrong player: refused, nothing changes.
        if (!stones.empty()) {
          expect("play " + side + " " + stones.substr(0, stones.find(' ')), '?');
        } else {
          expect("play nobody A1", '?');
        }
        if (send("showboard") != before && st.failure.empty())
          st.failure = "an illegal move changed the board";
        ++st.illegal;
      } else if (action < 10 && ply > 0) {
        const int n = std::min(ply, 1 + static_cast<int>(rng.below(3)));
        for (int i = 0; i < n; ++i) expect("undo", '=');
        st.undos += n;
        ply -= n;
      } else if (action < 12) {
        expect("legal_moves", '=');
        expect("roots", '=');
      } else {
        expect("genmove " + side, '=');
        ++st.moves;
        ++ply;
      }
      if (consistent && rng.below(64) == 0) {
        ++st.checks;
        const std::string bad = consistent();
        if (!bad.empty() && st.failure.empty()) st.failure = "inconsistent position: " + bad;
      }
    }
    if (st.failure.empty() && body(send("winner")) == "none")
      st.failure = "a finished game has no winner";
    ++st.games;
    if (on_game) on_game(g);
  }
  return st;
}

std::string dot_board() {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(testing::TempDir()) / "tanbo_soak";
  fs::create_directories(dir);
  // One file per process: ctest runs the two soak tests at the same time, and one writing the
  // file while the other reads it gave a refused, empty board.
  const fs::path p = dir / ("ring-" + std::to_string(::getpid()) + ".dot");
  // A ring of 24 points with 3 spokes to a hub: 2 players, seeds far apart.
  std::ostringstream os;
  os << "graph ring {\n  players=2\n";
  for (int i = 0; i < 24; ++i) os << "  r" << i << " -- r" << (i + 1) % 24 << ";\n";
  os << "  hub -- r0; hub -- r8; hub -- r16;\n  r4 [stone=black]; r16 [stone=white];\n}\n";
  std::ofstream(p) << os.str();
  return p.string();
}

// A `tanbo gtp` child process with its stdin and stdout on pipes.
class GtpProcess {
 public:
  explicit GtpProcess(const std::string& binary) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(in[0], 0);
      dup2(out[1], 1);
      close(in[0]);
      close(in[1]);
      close(out[0]);
      close(out[1]);
      if (TANBO_ASAN) setenv("ASAN_OPTIONS", "quarantine_size_mb=16", 1);
      execl(binary.c_str(), binary.c_str(), "gtp", "--engine", "random", "--seed", "5",
            static_cast<char*>(nullptr));
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_ = in[1];
    from_ = out[0];
  }
  ~GtpProcess() {
    if (to_ >= 0) close(to_);
    if (from_ >= 0) close(from_);
    if (pid_ > 0) {
      int status = 0;
      waitpid(pid_, &status, 0);
    }
  }
  pid_t pid() const { return pid_; }
  bool ok() const { return pid_ > 0 && to_ >= 0; }

  std::string send(const std::string& cmd) {
    const std::string line = cmd + "\n";
    if (write(to_, line.data(), line.size()) != static_cast<ssize_t>(line.size())) return "";
    // Read until the blank line that ends the reply.
    while (true) {
      const std::size_t end = buf_.find("\n\n");
      if (end != std::string::npos) {
        std::string reply = buf_.substr(0, end + 2);
        buf_.erase(0, end + 2);
        return reply;
      }
      char chunk[65536];
      const ssize_t got = read(from_, chunk, sizeof chunk);
      if (got <= 0) return "";
      buf_.append(chunk, static_cast<std::size_t>(got));
    }
  }
  // Sends quit and waits; returns the exit status.
  int finish() {
    send("quit");
    close(to_);
    to_ = -1;
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  std::string buf_;
};

// Allowed growth between the warm engine and the end of the run.
long tolerance_kb(long warm) {
  return std::max(4096L + (TANBO_ASAN ? 16384L : 0L), warm / 5);
}

}  // namespace

TEST(Soak, InProcessManyGamesMemoryFlat) {
  tanbo::cli::GtpEngine engine(11);
  const Send send = [&](const std::string& cmd) { return engine.handle_line(cmd); };
  const int games = TANBO_ASAN ? 1000 : 6000;
  const int warm_at = games / 5;
  long warm = -1;
  const std::string dot = dot_board();
  const SoakStats st = soak(
      send, games, 42, dot, [&] { return engine.position().check_consistency(); },
      [&](int g) {
        if (g == warm_at) warm = tanbo::test::rss_kb(0);
      });
  std::filesystem::remove(dot);
  const long end = tanbo::test::rss_kb(0);
  std::printf(
      "[soak] in-process: %d games, %d moves, %d undos, %d illegal moves, %d refused topologies, "
      "%d consistency checks; RSS warm %ld KB, end %ld KB\n",
      st.games, st.moves, st.undos, st.illegal, st.refused_topologies, st.checks, warm, end);
  EXPECT_EQ(st.failure, "");
  EXPECT_EQ(st.games, games);
  EXPECT_GT(st.undos, games);
  EXPECT_GT(st.illegal, games / 2);
  EXPECT_GT(st.checks, games / 2);
  ASSERT_GT(warm, 0);
  EXPECT_LE(end - warm, tolerance_kb(warm))
      << "memory grew from " << warm << " KB to " << end << " KB";
}

TEST(Soak, RealGtpProcessMemoryFlat) {
  GtpProcess proc(TANBO_BINARY);
  ASSERT_TRUE(proc.ok());
  ASSERT_EQ(proc.send("name"), "= tanbo\n\n");
  const int games = TANBO_ASAN ? 400 : 2000;
  const int warm_at = games / 5;
  long warm = -1;
  const std::string dot = dot_board();
  const SoakStats st =
      soak([&](const std::string& cmd) { return proc.send(cmd); }, games, 43, dot, nullptr,
           [&](int g) {
             if (g == warm_at) warm = tanbo::test::rss_kb(proc.pid());
           });
  std::filesystem::remove(dot);
  const long end = tanbo::test::rss_kb(proc.pid());
  std::printf(
      "[soak] tanbo gtp process: %d games, %d moves, %d undos, %d illegal moves, %d refused "
      "topologies; RSS warm %ld KB, end %ld KB\n",
      st.games, st.moves, st.undos, st.illegal, st.refused_topologies, warm, end);
  EXPECT_EQ(st.failure, "");
  EXPECT_EQ(st.games, games);
  ASSERT_GT(warm, 0);
  EXPECT_LE(end - warm, tolerance_kb(warm))
      << "memory grew from " << warm << " KB to " << end << " KB";
  EXPECT_EQ(proc.finish(), 0);
}

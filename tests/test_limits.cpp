// Memory and input limits: the memory limit and where it comes from (--max-memory,
// TANBO_MAX_MEMORY, the memory cgroup, ulimit -v), the estimate of a board's memory against
// what building and playing really take, refusals that name both; input that would swamp or
// cut a message (huge tokens, NUL and control bytes) quoted short and escaped wherever it is
// echoed; topology specs that mean nothing refused with the reason; the timer thread of time
// limits, progress lines and periodic checkpoints.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <thread>
#include <vector>

#include "../src/cli/gtp.hpp"
#include "tanbo/app/options.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/setup.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/core/topology.hpp"
#include "tanbo/io/gamefile.hpp"
#include "tanbo/platform/memory.hpp"
#include "tanbo/platform/ticker.hpp"
#include "test_support.hpp"

namespace tanbo {
namespace {

namespace fs = std::filesystem;

// The message tanbo::Error carries for `f`, "" when nothing is thrown.
template <class F>
std::string message_of(F f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const std::string kHuge(10'485'760, 'x');  // 10 MB

// ------------------------------------------------------------------ quoting

TEST(QuoteInput, EscapesControlBytesAndKeepsLetters) {
  EXPECT_EQ(quote_input("D4"), "\"D4\"");
  EXPECT_EQ(quote_input(std::string("B\0x", 3)), "\"B\\0x\"");
  EXPECT_EQ(quote_input("a\tb\nc\r\"\\"), "\"a\\tb\\nc\\r\\\"\\\\\"");
  EXPECT_EQ(quote_input("\x01\x7f"), "\"\\x01\\x7f\"");
  EXPECT_EQ(quote_input("Jos\xc3\xa9"), "\"Jos\xc3\xa9\"");  // UTF-8 stays
  EXPECT_EQ(quote_input("\xc3(\xff"), "\"\\xc3(\\xff\"");    // broken UTF-8 is escaped
  EXPECT_EQ(quote_input("\xe2\x82"), "\"\\xe2\\x82\"");      // cut short
  // C1 controls are UTF-8 but not letters: U+009B starts a terminal command as ESC [ does.
  EXPECT_EQ(quote_input("a\xc2\x9b"
                        "2Jb\xc2\x85\xc2\xa0"),
            "\"a\\xc2\\x9b2Jb\\xc2\\x85\xc2\xa0\"");
  EXPECT_TRUE(has_control_characters("\xc2\x9b"));
  EXPECT_FALSE(has_control_characters("\xc2\xa0\xc3\xa9"));  // no-break space, é
}

TEST(VisibleCharacters, NamesThatShowNothingAreFound) {
  EXPECT_TRUE(has_visible_character("bob"));
  EXPECT_TRUE(
      has_visible_character("\xe2\x80\x8b"
                            "a"));                         // U+200B then a letter
  EXPECT_TRUE(has_visible_character("\xf0\x9f\x99\x82"));  // an emoji
  EXPECT_TRUE(has_visible_character("\xe7\x94\xb0"));      // 田
  EXPECT_FALSE(has_visible_character(""));
  EXPECT_FALSE(has_visible_character("  \t"));
  EXPECT_FALSE(has_visible_character("\xe2\x80\x8b\xe3\x80\x80"));  // U+200B, U+3000
  EXPECT_FALSE(has_visible_character("\xef\xbb\xbf\xc2\xad"));      // U+FEFF, soft hyphen
  EXPECT_FALSE(has_visible_character("\xf3\xa0\x80\x81"));          // U+E0001, a tag
  EXPECT_FALSE(has_visible_character("\xc2\x9b"));                  // C1
}

TEST(QuoteInput, LongInputKeepsAPrefixAndItsLength) {
  EXPECT_EQ(quote_input(kHuge), "\"" + std::string(40, 'x') + "...\" (10485760 bytes)");
  EXPECT_EQ(quote_input("abcdef", 3), "\"abc...\" (6 bytes)");
  EXPECT_EQ(quote_input("abc", 3), "\"abc\"");
  EXPECT_EQ(shown_name("games/a.tanbo"), "games/a.tanbo");  // short and printable: as it is
  EXPECT_EQ(shown_name("a\nb"), "\"a\\nb\"");
  EXPECT_EQ(shown_name(std::string(100, 'p')), "\"" + std::string(80, 'p') + "...\" (100 bytes)");
  // A foreign message (Boost's) is cut word by word and escaped.
  EXPECT_EQ(clip_words("unrecognised option '--" + std::string(100, 'z') + "'"),
            "unrecognised option '--" + std::string(37, 'z') + "... (104 bytes)");
  EXPECT_EQ(clip_words("a\x01 b"), "a\\x01 b");
}

TEST(QuoteInput, HugeTokensGiveShortMessagesEverywhere) {
  const auto topo = parse_topology("grid 9x9");
  const std::string point = message_of([&] { topo->need_vertex(kHuge); });
  EXPECT_LT(point.size(), 200u) << point;
  EXPECT_TRUE(has(point, "(10485760 bytes)")) << point;
  for (const std::string& spec : {kHuge, "grid 9x9 " + kHuge, "grid " + kHuge, "hex " + kHuge,
                                  "grid 9x" + std::string(5'000'000, '9'), "file " + kHuge}) {
    const std::string m = message_of([&] { parse_topology(spec); });
    EXPECT_FALSE(m.empty());
    EXPECT_LT(m.size(), 200u) << m;
  }
  EXPECT_LT(message_of([&] { make_setup(*topo, kHuge); }).size(), 200u);
  const std::string move_line = "tanbo-game 1\ntopology grid 9x9\nmoves\nblack " + kHuge + "\n";
  EXPECT_LT(message_of([&] { read_game(move_line, "g"); }).size(), 200u);
  const std::string header = "tanbo-game 1\n" + kHuge + "\n";
  EXPECT_LT(message_of([&] { read_game(header, "g"); }).size(), 200u);
  const std::string spec_line = "tanbo-game 1\ntopology " + kHuge + "\nmoves\n";
  EXPECT_LT(message_of([&] { read_game(spec_line, "g"); }).size(), 200u);
  EXPECT_LT(message_of([&] { app::player_count(std::string(4000, 'x')); }).size(), 200u);
  EXPECT_LT(message_of([&] { app::player_count(std::string(4000, '7')); }).size(), 200u);
  cli::GtpEngine gtp;
  for (const std::string& line :
       {"play b " + kHuge, kHuge, "topology grid " + kHuge, "play b " + std::string(100'000, 'x'),
        std::string(100'000, 'y'), "topology " + std::string(100'000, '7'), "setup " + kHuge}) {
    const std::string reply = gtp.handle_line(line);
    EXPECT_EQ(reply[0], '?') << reply.substr(0, 200);
    EXPECT_LT(reply.size(), 200u) << reply.substr(0, 300);
  }
}

TEST(QuoteInput, ANulByteDoesNotCutTheMessage) {
  const std::string file =
      std::string("tanbo-game 1\ntopology grid 9x9\nmoves\nblack B\0tail\n", 50);
  const std::string m = message_of([&] { read_game(file, "g"); });
  EXPECT_TRUE(has(m, "\"B\\0tail\"")) << m;
  EXPECT_TRUE(has(m, "is not a point of this board")) << m;
  const auto topo = parse_topology("hex 5");
  const std::string p =
      message_of([&] { topo->need_vertex(std::string("E5\0\x01\xff tail", 10)); });
  EXPECT_TRUE(has(p, "\"E5\\0\\x01\\xff tail\"")) << p;
  // GTP drops control characters before it reads a command, as its standard says.
  cli::GtpEngine gtp;
  EXPECT_TRUE(has(gtp.handle_line(std::string("play b Z\0Z9", 11)), "\"ZZ9\"")) << "";
}

TEST(ReadLine, KeepsAtMostMaxBytesAndCountsTheRest) {
  std::istringstream in("short\n" + std::string(5000, 'a') + "\n\nlast");
  std::string line;
  std::size_t length = 0;
  ASSERT_TRUE(read_line(in, line, 100, &length));
  EXPECT_EQ(line, "short");
  EXPECT_EQ(length, 5u);
  ASSERT_TRUE(read_line(in, line, 100, &length));
  EXPECT_EQ(line, std::string(100, 'a'));
  EXPECT_EQ(length, 5000u);
  ASSERT_TRUE(read_line(in, line, 100, &length));
  EXPECT_EQ(line, "");
  ASSERT_TRUE(read_line(in, line, 100, &length));  // the last line has no line feed
  EXPECT_EQ(line, "last");
  EXPECT_FALSE(read_line(in, line, 100, &length));
  // A GTP line longer than 1 MB is refused whole, with its id.
  cli::GtpEngine gtp;
  EXPECT_EQ(gtp.handle_line("12 play b " + std::string(kMaxInputLine, 'x')),
            "?12 the line is longer than 1048576 bytes, the most a command may have\n\n");
  std::istringstream session("play b " + kHuge + "\nname\n");
  std::ostringstream out;
  gtp.run(session, out);
  EXPECT_EQ(out.str(),
            "? the line is longer than 1048576 bytes, the most a command may have\n\n= tanbo\n\n");
}

TEST(PlayerNames, AreOneLineEach) {
  EXPECT_EQ(app::player_count("alice,bob"), 2);
  EXPECT_TRUE(has(message_of([] { app::player_count("a\nseed black A1,bob"); }),
                  "cannot hold control characters"));
  EXPECT_TRUE(has(message_of([] { app::player_count("99"); }), "2 to 8 players"));
}

TEST(PlayerNames, ShowAsTheyAreWritten) {
  EXPECT_EQ(app::player_count("Jos\xc3\xa9,\xd7\xa9\xd7\xa8\xd7\x94"), 2);  // accents, Hebrew
  // U+202E (right-to-left override) would show "alice,bob\u202Eecila" as ...alice; U+2066,
  // U+200F and U+061C change the direction too.
  for (const char* name : {"bob\xe2\x80\xae"
                           "ecila",
                           "\xe2\x81\xa6x", "a\xe2\x80\x8f", "\xd8\x9c"}) {
    EXPECT_TRUE(has(message_of([&] { app::player_count(std::string("ann,") + name); }),
                    "change the direction of text"))
        << name;
  }
  EXPECT_FALSE(has_direction_controls("\xe2\x80\x94 \xe2\x81\xa5"));  // a dash, U+2065
}

// ------------------------------------------------------------------ topology specs

TEST(TopologySpec, RepeatedContradictoryAndEmptyOptionsAreRefused) {
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"grid 9x9 wrap wrap", "\"wrap\" twice"},
      {"grid 9x9 torus wrap", "twice"},
      {"line 9 wrap WRAP", "twice"},
      {"hex 5 wrap", "a hex board does not wrap"},
      {"hex 5 torus", "a hex board does not wrap"},
      {"hex 5 5", "hex N"},
      {"hex", "hex N"},
      {"grid 9x9x", "empty size"},
      {"grid x9", "empty size"},
      {"grid 9xx9", "empty size"},
      {"grid 9x9 9x9", "unexpected \"9x9\""},
      {"grid 9x9 wrapped", "unexpected \"wrapped\""},
      {"9x9 wrap please", "unexpected \"please\""},
      {"grid wrap 9x9", "the sizes come first"},
      {"grid 2x2 wrap", "\"wrap\" changes nothing"},
      {"line 2 wrap", "\"wrap\" changes nothing"},
      {"line 3x3", "\"line\" takes one size"},
      {"grid", "needs sizes"},
      {"line", "needs sizes"},
      {"grid 0x9", "at least 1"},
      {"grid 9x+9", "not a whole number"},
      {"grid 99999999999x9", "too large"},
      {"square 5", "unknown topology"},
      {"file", "needs a path"},
  };
  for (const auto& [spec_text, why] : refused) {
    const std::string spec = spec_text;
    const std::string m = message_of([&] { parse_topology(spec); });
    EXPECT_TRUE(has(m, why)) << spec << " -> " << m;
  }
  // What means something is still read.
  EXPECT_EQ(parse_topology("GRID 9X9 Wrap")->spec, "grid 9x9 wrap");
  EXPECT_EQ(parse_topology("  line   31  ")->spec, "line 31");
  EXPECT_EQ(parse_topology("line 31 wrap")->spec, "line 31 wrap");
  EXPECT_EQ(parse_topology("5x5x5 torus")->spec, "grid 5x5x5 wrap");
  EXPECT_EQ(parse_topology("lattice 3x3")->spec, "grid 3x3");
  EXPECT_EQ(parse_topology("grid 9x2 wrap")->spec, "grid 9x2 wrap");  // the long axis wraps
  EXPECT_EQ(parse_topology("hex 5")->spec, "hex 5");
}

// ------------------------------------------------------------------ the memory limit

TEST(MemoryLimit, SizesAreReadWithUnits) {
  EXPECT_EQ(parse_memory_size("512M", "x"), 512ull << 20);
  EXPECT_EQ(parse_memory_size("4G", "x"), 4ull << 30);
  EXPECT_EQ(parse_memory_size("1.5g", "x"), 3ull << 29);
  EXPECT_EQ(parse_memory_size("64kb", "x"), 64ull << 10);
  EXPECT_EQ(parse_memory_size("1000000", "x"), 1000000u);
  for (const char* bad : {"", "lots", "-1G", "0", "1.2.3G", "4Q", "G"}) {
    EXPECT_TRUE(has(message_of([&] { parse_memory_size(bad, "--max-memory"); }), "is not a size"))
        << bad;
  }
}

TEST(MemoryLimit, TheOptionThenTheVariableThenTheMachine) {
  ::unsetenv("TANBO_MAX_MEMORY");
  const MemoryLimit machine = memory_limit();
  EXPECT_GT(machine.bytes, 0u);
  EXPECT_NE(machine.source, "--max-memory");
  ::setenv("TANBO_MAX_MEMORY", "3G", 1);
  EXPECT_EQ(memory_limit().bytes, 3ull << 30);
  EXPECT_EQ(memory_limit().source, "TANBO_MAX_MEMORY");
  set_max_memory(100 << 20);  // the option wins over the variable
  EXPECT_EQ(memory_limit().bytes, 100u << 20);
  EXPECT_EQ(memory_limit().source, "--max-memory");
  EXPECT_EQ(memory_limit().board_room(), (100u << 20) / 100 * 80);
  set_max_memory(0);
  ::setenv("TANBO_MAX_MEMORY", "plenty", 1);
  EXPECT_TRUE(has(message_of([] { parse_topology("grid 9x9"); }),
                  "TANBO_MAX_MEMORY \"plenty\" is not a size"));
  ::unsetenv("TANBO_MAX_MEMORY");
}

TEST(MemoryLimit, RefusalsNameTheNeedTheLimitItsSourceAndTheOptions) {
  set_max_memory(2ull << 30);
  const std::string m = message_of([] { parse_topology("grid 10000x10000"); });
  set_max_memory(0);
  EXPECT_TRUE(has(m, "\"grid 10000x10000\" has 100000000 points")) << m;
  EXPECT_TRUE(has(m, "would need about 9.6 GB of memory")) << m;
  EXPECT_TRUE(has(m, "the limit of 2 GB (--max-memory)")) << m;
  EXPECT_TRUE(has(m, "--max-memory SIZE or TANBO_MAX_MEMORY")) << m;
  // Hex boards and DOT text go through the same check.
  TopologyLimits tiny;
  tiny.memory_bytes = 1 << 20;
  EXPECT_TRUE(has(message_of([&] { parse_topology("hex 300", tiny); }), "would need about"));
  std::string chain = "graph {";
  for (int i = 0; i < 100'000; ++i) chain += " n" + std::to_string(i) + " --";
  chain += " end }";
  EXPECT_TRUE(has(message_of([&] { make_from_dot(chain, "chain.dot", tiny); }),
                  "the limit of 1 MB (the caller's limit)"));
}

TEST(MemoryLimit, MorePlayersAreCheckedWhenThePositionIsMade) {
  // grid 300x300: about 13 MB for two players, 18 MB for eight (estimated_memory); a board
  // may take 16 MB of a 20 MB limit.
  const std::uint64_t room = (20u << 20) / 100 * 80;
  EXPECT_LT(estimated_memory(90'000, 179'400, 2), room);
  EXPECT_GT(estimated_memory(90'000, 179'400, 8), room);
  // The board keeps the limit it was built under (Topology::memory_budget).
  set_max_memory(20 << 20);
  const auto topo = parse_topology("grid 300x300");
  EXPECT_NO_THROW(Position(topo, make_setup(*topo, "spaced", 2)));
  const std::string m = message_of([&] { Position(topo, make_setup(*topo, "spaced", 8)); });
  set_max_memory(0);
  EXPECT_TRUE(has(m, "\"grid 300x300\" with 8 players would need about")) << m;
}

// Runs `f` in a child process; returns its exit status (-1 if it did not exit).
template <class F>
int in_child(F f) {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(f());
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The address space this process maps now (VmSize).
std::uint64_t mapped_bytes() {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("VmSize:", 0) == 0) return std::stoull(line.substr(7)) * 1024;
  }
  return 0;
}

TEST(MemoryLimit, UlimitIsTheLimitLessWhatIsMapped) {
  if (TANBO_ASAN) GTEST_SKIP() << "the sanitizer maps terabytes of shadow memory";
  const int status = in_child([] {
    ::unsetenv("TANBO_MAX_MEMORY");
    const std::uint64_t cap = mapped_bytes() + (200 << 20);
    const rlimit as{cap, cap};
    if (::setrlimit(RLIMIT_AS, &as) != 0) return 10;
    const MemoryLimit limit = memory_limit();
    if (limit.source != "ulimit -v (RLIMIT_AS)") return 11;
    if (limit.bytes != cap || limit.used == 0 || limit.used > cap) return 12;
    if (limit.board_room() > (200 << 20) / 100 * 80 + (1 << 20)) return 13;
    const std::string m = message_of([] { parse_topology("grid 5000x5000"); });
    return has(m, "(ulimit -v (RLIMIT_AS))") && has(m, "would need about 2.4 GB") ? 0 : 14;
  });
  EXPECT_EQ(status, 0);
}

// Builds a board and its starting position in a fresh process (this program run again, so
// that no memory freed by other tests is mapped already), under an address-space limit of
// what that process maps plus `share` of the estimate; the check itself is switched off by a
// huge --max-memory. 0 = built, 3 = out of memory.
int build_under_estimate(const std::string& spec, const std::string& setup, int players,
                         double share) {
  const std::string job =
      spec + "\t" + setup + "\t" + std::to_string(players) + "\t" + std::to_string(share);
  return in_child([&] {
    ::setenv("TANBO_ESTIMATE_JOB", job.c_str(), 1);
    std::freopen("/dev/null", "w", stdout);
    ::execl("/proc/self/exe", "test_limits", "--gtest_also_run_disabled_tests",
            "--gtest_filter=MemoryLimit.DISABLED_BuildUnderEstimate", nullptr);
    return 20;
  });
}

// The fresh process of build_under_estimate (disabled: it runs only when called so).
TEST(MemoryLimit, DISABLED_BuildUnderEstimate) {
  const char* job = std::getenv("TANBO_ESTIMATE_JOB");
  if (!job) GTEST_SKIP();
  std::istringstream fields(job);
  std::string spec, setup, players, share;
  std::getline(fields, spec, '\t');
  std::getline(fields, setup, '\t');
  std::getline(fields, players, '\t');
  std::getline(fields, share, '\t');
  set_max_memory(1ull << 50);
  try {
    const auto probe = parse_topology(spec);  // for the board's size; kept while measuring
    const std::uint64_t need = estimated_memory(probe->num_vertices(), probe->graph.num_edges(),
                                                std::max(std::stoi(players), 2));
    const auto cap = mapped_bytes() + static_cast<std::uint64_t>(std::stod(share) * need);
    const rlimit as{cap, cap};
    if (::setrlimit(RLIMIT_AS, &as) != 0) ::_exit(10);
    const auto topo = parse_topology(spec);
    const Position pos(topo, make_setup(*topo, setup, std::stoi(players)));
    ::_exit(pos.num_vertices() > 0 ? 0 : 11);
  } catch (const std::bad_alloc&) {
    ::_exit(3);
  } catch (...) {
    ::_exit(12);
  }
}

TEST(MemoryLimit, TheEstimateIsNeverUnderWhatBuildingAndPlayingTake) {
  if (TANBO_ASAN) GTEST_SKIP() << "the sanitizer maps terabytes of shadow memory";
  const std::vector<std::tuple<std::string, std::string, int>> boards = {
      {"grid 400x400", "default", 0},
      {"grid 400x400 wrap", "spaced", 4},
      {"grid 400x400", "spaced", 8},
      {"hex 150", "default", 0},
      {"hex 150", "default", 6},
      {"grid 50x50x50", "default", 0},
      {"grid 3x3x3x3x3x3x3x3x3x3x3", "default", 0},
      {"line 200000", "default", 0},
  };
  for (const auto& [spec, setup, players] : boards) {
    EXPECT_EQ(build_under_estimate(spec, setup, players, 1.0), 0) << spec << " " << players;
  }
  // The limit is real: with a third of the estimate the same board runs out of memory.
  EXPECT_EQ(build_under_estimate("grid 400x400", "default", 0, 0.3), 3);
}

// ------------------------------------------------------------------ the memory cgroup

// A fake /proc/self and cgroup tree under a temporary directory.
struct FakeRoot {
  fs::path dir = fs::path(testing::TempDir()) / ("tanbo-cgroup-" + std::to_string(::getpid()));
  FakeRoot() { fs::remove_all(dir); }
  ~FakeRoot() { fs::remove_all(dir); }
  void write(const std::string& path, const std::string& text) const {
    const fs::path p = dir / path.substr(1);
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  std::optional<MemoryLimit> limit() const { return cgroup_memory_limit(dir.string()); }
};

TEST(Cgroup, V2LimitOfTheCgroupOrAParentLessWhatItUses) {
  FakeRoot r;
  r.write("/proc/self/mountinfo",
          "22 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
          "30 22 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate\n");
  r.write("/proc/self/cgroup", "0::/user.slice/app.scope\n");
  r.write("/sys/fs/cgroup/memory.max", "max\n");  // the root has no limit
  r.write("/sys/fs/cgroup/user.slice/memory.max", "1073741824\n");
  r.write("/sys/fs/cgroup/user.slice/memory.current", "104857600\n");
  r.write("/sys/fs/cgroup/user.slice/memory.stat", "anon 1000\ninactive_file 52428800\n");
  r.write("/sys/fs/cgroup/user.slice/app.scope/memory.max", "max\n");
  auto limit = r.limit();
  ASSERT_TRUE(limit);
  EXPECT_EQ(limit->bytes, 1ull << 30);
  EXPECT_EQ(limit->used, 50ull << 20);  // page cache it can drop is not use
  EXPECT_EQ(limit->source, "the cgroup's memory.max");
  // A tighter limit below wins.
  r.write("/sys/fs/cgroup/user.slice/app.scope/memory.max", "536870912\n");
  r.write("/sys/fs/cgroup/user.slice/app.scope/memory.current", "0\n");
  limit = r.limit();
  ASSERT_TRUE(limit);
  EXPECT_EQ(limit->bytes, 512ull << 20);
  // "max" everywhere: no limit.
  r.write("/sys/fs/cgroup/user.slice/memory.max", "max\n");
  r.write("/sys/fs/cgroup/user.slice/app.scope/memory.max", "max\n");
  EXPECT_FALSE(r.limit());
}

TEST(Cgroup, V1AndContainersThatMountTheirOwnPart) {
  FakeRoot r;
  r.write("/proc/self/mountinfo",
          "40 25 0:35 / /sys/fs/cgroup/memory rw,nosuid - cgroup cgroup rw,memory\n"
          "41 25 0:36 / /sys/fs/cgroup/unified rw,nosuid - cgroup2 cgroup2 rw\n");
  r.write("/proc/self/cgroup", "5:cpu,cpuacct:/\n4:memory:/docker/abc\n0::/\n");
  r.write("/sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
  r.write("/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes", "2147483648\n");
  r.write("/sys/fs/cgroup/memory/docker/abc/memory.usage_in_bytes", "1073741824\n");
  r.write("/sys/fs/cgroup/memory/docker/abc/memory.stat", "total_inactive_file 0\n");
  auto limit = r.limit();
  ASSERT_TRUE(limit);
  EXPECT_EQ(limit->bytes, 2ull << 30);
  EXPECT_EQ(limit->used, 1ull << 30);
  EXPECT_EQ(limit->source, "the cgroup's memory.limit_in_bytes");
  // In a container the mount shows only the container's part of the tree.
  FakeRoot c;
  c.write("/proc/self/mountinfo",
          "40 25 0:35 /docker/abc /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory\n");
  c.write("/proc/self/cgroup", "4:memory:/docker/abc\n");
  c.write("/sys/fs/cgroup/memory/memory.limit_in_bytes", "268435456\n");
  limit = c.limit();
  ASSERT_TRUE(limit);
  EXPECT_EQ(limit->bytes, 256ull << 20);
  // Nothing mounted, or no limit: none.
  FakeRoot none;
  none.write("/proc/self/cgroup", "0::/\n");
  EXPECT_FALSE(none.limit());
}

}  // namespace
}  // namespace tanbo

// ------------------------------------------------------------------ the ticker

TEST(Ticker, CallsAtTheTimesItNamesUntilItIsDone) {
  using tanbo::Ticker;
  const auto start = Ticker::Clock::now();
  std::vector<double> at;  // seconds after start
  {
    const Ticker t(Ticker::after(start, 0.02), [&](Ticker::Clock::time_point now) {
      at.push_back(std::chrono::duration<double>(now - start).count());
      return at.size() < 3 ? Ticker::after(now, 0.02) : Ticker::kNever;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  ASSERT_EQ(at.size(), 3u);  // kNever ended it
  for (std::size_t i = 0; i < at.size(); ++i) EXPECT_GE(at[i], 0.02 * static_cast<double>(i + 1));
}

TEST(Ticker, GoesAtOnceAndNeverStartsForNoTime) {
  using tanbo::Ticker;
  int calls = 0;
  const auto start = Ticker::Clock::now();
  {
    const Ticker t(Ticker::after(start, 3600), [&](auto) { return ++calls, Ticker::kNever; });
  }
  EXPECT_LT(std::chrono::duration<double>(Ticker::Clock::now() - start).count(), 60.0);
  for (const double none : {0.0, -1.0, std::numeric_limits<double>::infinity(),
                            std::numeric_limits<double>::quiet_NaN(), 1e300}) {
    EXPECT_EQ(Ticker::after(start, none), Ticker::kNever) << none;
    const Ticker t(Ticker::after(start, none), [&](auto) { return ++calls, Ticker::kNever; });
  }
  EXPECT_EQ(calls, 0);
}

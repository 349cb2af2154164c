#include "test_support.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tanbo/core/random.hpp"
#include "tanbo/platform/memory.hpp"
#include "tanbo/study/games.hpp"
#include "tanbo/study/seats.hpp"

namespace tanbo::test {

Position make(const std::string& spec, const std::string& setup, int players) {
  auto t = parse_topology(spec);
  return Position(t, make_setup(*t, setup.empty() ? "default" : setup, players));
}

Game random_game(const std::string& spec, std::uint64_t seed, std::uint32_t turns,
                 const std::string& setup, int players) {
  Game g = new_game(spec, setup, players, {"alice", "bob"}, "2026-11-21T08:00:00Z");
  Rng rng(seed);
  for (std::uint32_t i = 0; !g.position.is_over() && (turns == 0 || i < turns); ++i) {
    g.position.play(random_move(g.position, rng));
  }
  return g;
}

void expect_same_game(const Game& a, const Game& b) {
  const Position &pa = a.position, &pb = b.position;
  ASSERT_EQ(pa.ply(), pb.ply());
  for (std::size_t i = 0; i < pa.history().size(); ++i) {
    EXPECT_EQ(pa.history()[i].kind, pb.history()[i].kind) << "turn " << i + 1;
    EXPECT_EQ(pa.history()[i].player, pb.history()[i].player) << "turn " << i + 1;
    EXPECT_EQ(pa.history()[i].vertex, pb.history()[i].vertex) << "turn " << i + 1;
  }
  EXPECT_EQ(pa.hash(), pb.hash());
  EXPECT_EQ(pa.winner(), pb.winner());
  if (!pa.is_over()) EXPECT_EQ(pa.to_move(), pb.to_move());
  // The seeds, and the setup's name unless it was read back as a custom one (a setup the
  // program does not know by name is written as its seeds).
  auto seeds = [](const Position& p) {
    auto stones = p.setup().stones;
    std::sort(stones.begin(), stones.end());
    return std::make_pair(p.setup().players, stones);
  };
  EXPECT_EQ(seeds(pa), seeds(pb));
  if (pb.setup().name != "custom") EXPECT_EQ(pa.setup().name, pb.setup().name);
  EXPECT_EQ(pa.topology().spec, pb.topology().spec);
  EXPECT_EQ(a.names, b.names);
}

SolverOptions small_solver(bool all_moves, SolveMethod method) {
  SolverOptions o;
  o.method = method;
  o.table_bytes = std::size_t{4} << 20;
  o.all_moves = all_moves;
  return o;
}

FirstAgentScore first_agent_score(const Position& start, const std::vector<std::string>& specs,
                                  std::uint64_t seed, int games) {
  FirstAgentScore score;
  for (int g = 0; g < games; ++g) {
    const auto game = static_cast<std::uint64_t>(g);
    const Seating s = seat_agents(specs, seed, game, game);
    Position pos = start;
    const GameResult r = play_game(pos, s.seats);
    if (r.winner == kEmpty) {
      ++score.unfinished;
    } else {
      score.wins += s.seats[r.winner - 1] == s.agents[0].get();
    }
  }
  return score;
}

std::vector<std::pair<Vertex, Player>> stones_of(const Position& pos) {
  std::vector<std::pair<Vertex, Player>> stones;
  for (Vertex v = 0; v < pos.num_vertices(); ++v) {
    if (pos.at(v) != kEmpty) stones.emplace_back(v, pos.at(v));
  }
  return stones;
}

Snapshot snapshot(const Position& pos) {
  Snapshot s;
  for (Vertex v = 0; v < pos.num_vertices(); ++v) s.stones.push_back(pos.at(v));
  for (int p = 1; p <= pos.num_players(); ++p) {
    const auto pl = static_cast<Player>(p);
    s.legal.push_back(pos.legal_moves(pl));
    s.legal_counts.push_back(pos.legal_count(pl));
    s.per_player.push_back(pos.stones(pl));
    s.per_player.push_back(pos.roots_alive(pl));
    s.out.push_back(pos.is_out(pl));
  }
  for (RootId r : pos.live_roots()) {
    s.roots.emplace_back(r, pos.root_owner(r), pos.root_size(r), pos.root_space(r),
                         pos.root_seed(r), pos.root_stones(r));
  }
  s.to_move = pos.to_move();
  s.winner = pos.winner();
  s.ply = pos.ply();
  s.hash = pos.hash();
  return s;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string temp_file(const std::string& name, const std::string& content) {
  const std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / "tanbo_tests";
  std::filesystem::create_directories(dir);
  const std::filesystem::path p = dir / name;
  std::ofstream(p, std::ios::binary) << content;
  return p.string();
}

long rss_kb(pid_t pid) {
  std::ifstream in(pid ? "/proc/" + std::to_string(pid) + "/status" : "/proc/self/status");
  std::string key;
  long value = -1;
  while (in >> key) {
    if (key == "VmRSS:") {
      in >> value;
      break;
    }
    std::getline(in, key);
  }
  return value;
}

RunResult expect_refused(const std::string& command, const std::string& message,
                         const std::string& input) {
  RunResult r = run_command(command, input);
  EXPECT_EQ(r.status, 2) << command;
  EXPECT_NE(r.err.find(message), std::string::npos) << command << "\n" << r.err;
  return r;
}

RunResult run_command(const std::string& command, const std::string& input) {
  char in_name[] = "/tmp/tanbo_test_inXXXXXX";
  char out_name[] = "/tmp/tanbo_test_outXXXXXX";
  char err_name[] = "/tmp/tanbo_test_errXXXXXX";
  int fi = mkstemp(in_name), fo = mkstemp(out_name), fe = mkstemp(err_name);
  close(fo);
  close(fe);
  if (write(fi, input.data(), input.size()) != static_cast<ssize_t>(input.size())) {
    ADD_FAILURE() << "cannot write test input";
  }
  close(fi);
  const std::string full = "(" + command + ") <" + in_name + " >" + out_name + " 2>" + err_name;
  const int raw = std::system(full.c_str());
  RunResult r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = read_file(out_name);
  r.err = read_file(err_name);
  std::remove(in_name);
  std::remove(out_name);
  std::remove(err_name);
  return r;
}

}  // namespace tanbo::test

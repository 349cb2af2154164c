// Helpers shared by the tests.
#pragma once

#include <gtest/gtest.h>
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "tanbo/ai/solver.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/position.hpp"
#include "tanbo/io/gamefile.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define TANBO_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TANBO_ASAN 1
#endif
#endif
#ifndef TANBO_ASAN
#define TANBO_ASAN 0
#endif
// TANBO_ASAN is 1 in builds with AddressSanitizer (tests then do less work or skip what the
// sanitizer's own memory hides).

namespace tanbo::test {

// Resident memory of process `pid` (0 = this process) in KB, from /proc; -1 if unknown.
long rss_kb(pid_t pid = 0);

// Builds a position from a topology spec and a setup name (default setup when empty).
Position make(const std::string& spec, const std::string& setup = "default", int players = 0);

// A new game of `spec` (players alice and bob, dated 2026-11-21) after `turns` random turns
// drawn with `seed`, or played to its end when `turns` is 0.
Game random_game(const std::string& spec, std::uint64_t seed, std::uint32_t turns = 0,
                 const std::string& setup = "default", int players = 0);

// Expects `b` to be the game `a` is: the same turns (kind, player, point), position (its hash),
// winner, side to move, seeds (and setup name, unless `b` has a custom one), board and
// players' names. A fatal failure when the numbers of turns differ.
void expect_same_game(const Game& a, const Game& b);

// The message of the tanbo::Error that `f` throws; a test failure (and "") when it throws
// none or another exception.
template <class F>
std::string refusal_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw a non-tanbo exception: " << e.what();
    return "";
  }
  ADD_FAILURE() << "accepted input that should be refused";
  return "";
}

// Solver options with a table of 4 MB, for searches of thousands of positions: every winning
// move with `all_moves`, by `method`.
SolverOptions small_solver(bool all_moves = false, SolveMethod method = SolveMethod::kProofNumber);

// Everything observable about a position, for exact comparison (after undo, say): the stones,
// each player's legal moves and counts, stones, live roots and whether it is out, every live
// root (id, owner, size, root space, seed, stones), the turn, the winner, the ply, the hash.
struct Snapshot {
  std::vector<Player> stones;
  std::vector<std::vector<Vertex>> legal;
  std::vector<std::uint32_t> legal_counts;
  std::vector<std::tuple<RootId, Player, std::uint32_t, std::uint32_t, Vertex, std::vector<Vertex>>>
      roots;
  std::vector<std::uint32_t> per_player;
  std::vector<bool> out;
  Player to_move = kEmpty;
  Player winner = kEmpty;
  std::uint32_t ply = 0;
  std::uint64_t hash = 0;
  bool operator==(const Snapshot&) const = default;
};
Snapshot snapshot(const Position& pos);

// The stones of a position as Position::from_stones takes them, in vertex order.
std::vector<std::pair<Vertex, Player>> stones_of(const Position& pos);

// Plays `games` games from `start` between the agents of `specs`, the seats rotating every
// game and the agents seeded as `tanbo match --seed seed` does, and counts the games the first
// agent won and those left without a winner.
struct FirstAgentScore {
  int wins = 0;
  int unfinished = 0;
};
FirstAgentScore first_agent_score(const Position& start, const std::vector<std::string>& specs,
                                  std::uint64_t seed, int games);

// Reads a whole file (tests/data/...); fails the test when missing.
std::string read_file(const std::string& path);
// Writes `content` to a file `name` in a folder of the test program's temporary directory
// (tanbo_tests/, made when missing) and returns its path.
std::string temp_file(const std::string& name, const std::string& content);

// Runs a shell command, returning its exit status and (stdout, stderr) merged or split.
struct RunResult {
  int status = 0;
  std::string out;
  std::string err;
};
RunResult run_command(const std::string& command, const std::string& input = "");
// Runs a command line that tanbo must refuse: exit status 2, and `message` in its stderr.
// Returns the result for further checks.
RunResult expect_refused(const std::string& command, const std::string& message,
                         const std::string& input = "");

}  // namespace tanbo::test

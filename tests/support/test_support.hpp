// Helpers shared by the tests.
#pragma once

#include <string>
#include <vector>

#include "tanbo/position.hpp"

namespace tanbo::test {

// Builds a position from a topology spec and a setup name (default setup when empty).
Position make(const std::string& spec, const std::string& setup = "default", int players = 0);

// Reads a whole file (tests/data/...); fails the test when missing.
std::string read_file(const std::string& path);

// Runs a shell command, returning its exit status and (stdout, stderr) merged or split.
struct RunResult {
  int status = 0;
  std::string out;
  std::string err;
};
RunResult run_command(const std::string& command, const std::string& input = "");

}  // namespace tanbo::test

// Command-line options shared by every program and subcommand, spelled the same everywhere:
//   --topology SPEC   the board (default "grid 19x19")
//   --setup NAME      the starting setup (default: the board's own)
//   --players N|LIST  number of players, or their names separated by commas
//   --seed S          random seed (default 1)
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "tanbo/core/position.hpp"

namespace tanbo::app {

namespace po = boost::program_options;

struct BoardOptions {
  std::string topology = "grid 19x19";
  std::string setup = "default";
  std::string players;  // "" = the setup's own count
  std::uint64_t seed = 1;
};

// A notifier for a string option without a default that refuses a value given empty or blank
// (`-o ''`), which would otherwise read as the option left out: "SHOWN is empty: give one, or
// leave the option out".
std::function<void(const std::string&)> refuse_blank(std::string shown);

// Adds --topology, --setup, --players (and --seed when with_seed) bound to `b`.
void add_board_options(po::options_description& desc, BoardOptions& b, bool with_seed = true);

// Player count from --players ("3" or "alice,bob,carol"; "" = 0 = the setup's own).
int player_count(const std::string& players);
// Player names from --players when it is a list ("" entries when it is a number).
std::vector<std::string> player_names(const std::string& players, int count);

// Builds the starting position the options describe; throws tanbo::Error when refused.
Position make_position(const BoardOptions& b);

// The points' names separated by spaces ("B1 A2 E4"), as the solver's and the protocol's
// answers list moves.
std::string point_names(const Topology& t, const std::vector<Vertex>& vs);

// Parses `args` against `desc` (positional names optional) into `vm`. Returns nothing when
// the command goes on, else the exit code it ends with: 0 after --help (`help_text` and the
// options printed to `out`), 2 after a bad option (a one-line reason printed to `err`).
// Use: if (const auto stop = parse_args(...)) return *stop;
std::optional<int> parse_args(const std::vector<std::string>& args,
                              const po::options_description& desc,
                              const po::positional_options_description* positional,
                              po::variables_map& vm, const std::string& help_text,
                              std::ostream& out, std::ostream& err);

// An option naming a file or folder given with an empty value (`--png ''`): refused (throws
// tanbo::Error "--png FILE is empty: give a name"), rather than taken as "none" or as the
// current folder. `named`: each option's name in `vm` and how a message shows it.
struct NamedOption {
  const char* name;   // "png"
  const char* shown;  // "--png FILE"
};
void refuse_empty_names(const po::variables_map& vm, std::initializer_list<NamedOption> named);

// Refuses (tanbo::Error) a --progress of `seconds` other than 0 (no progress lines) or 0.1 to
// 10^7 seconds: one line every millisecond would flood the terminal.
void check_progress_seconds(double seconds);

}  // namespace tanbo::app

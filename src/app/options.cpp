#include "tanbo/app/options.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <iostream>
#include <limits>
#include <sstream>

#include "tanbo/core/error.hpp"
#include "tanbo/core/numbers.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/platform/memory.hpp"

namespace tanbo::app {

namespace {

// A notifier that refuses an option given empty (or blank), which would otherwise read as its
// default: "--setup ''" is a mistake, not a wish for the board's own setup. (A notifier also
// sees the default: where that is empty itself, as tanbo view's --topology, "" is the default.)
std::function<void(const std::string&)> not_blank(std::string shown, const std::string& fallback) {
  if (trim(fallback).empty()) return [](const std::string&) {};
  return refuse_blank(std::move(shown));
}

}  // namespace

std::function<void(const std::string&)> refuse_blank(std::string shown) {
  return [shown = std::move(shown)](const std::string& value) {
    if (trim(value).empty()) throw Error(shown + " is empty: give one, or leave the option out");
  };
}

void add_board_options(po::options_description& desc, BoardOptions& b, bool with_seed) {
  desc.add_options()(
      "topology,t",
      po::value(&b.topology)
          ->default_value(b.topology)
          ->notifier(not_blank("--topology SPEC", b.topology)),
      "board: \"line N\", \"grid AxBx... [wrap]\", \"hex N\" or \"file PATH\" (DOT)")(
      "setup,s",
      po::value(&b.setup)->default_value(b.setup)->notifier(not_blank("--setup NAME", b.setup)),
      "starting setup (steere1995, pbmserv, steere2005, steere2026, four, dense, hexbo, spaced, "
      "file)")("players,p", po::value(&b.players),
               "number of players (2-8), or their names: --players alice,bob");
  if (with_seed) {
    desc.add_options()("seed", po::value(&b.seed)->default_value(b.seed), "random seed");
  }
}

namespace {

// `--as NAME` (and every other place that takes a player) reads a name first (game_player):
// two players of one name would make the second impossible to name.
void refuse_duplicate_names(const std::vector<std::string>& names, const std::string& shown) {
  const int n = static_cast<int>(names.size());
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < i; ++j) {
      if (to_lower(names[j]) == to_lower(names[i])) {
        throw Error(shown + ": names " + std::to_string(j + 1) + " and " + std::to_string(i + 1) +
                    " are the same, " + quote_input(names[i]) +
                    "; each player needs a name of its own");
      }
    }
  }
}

}  // namespace

int player_count(const std::string& players) {
  if (players.empty()) return 0;
  const std::string shown = "--players " + quote_input(players);
  if (std::all_of(players.begin(), players.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    const auto n = parse_whole(players, kMaxPlayers);
    if (!n || *n < 2) throw Error(shown + ": a game has 2 to 8 players");
    return static_cast<int>(*n);
  }
  const int n = static_cast<int>(std::count(players.begin(), players.end(), ',')) + 1;
  if (n < 2 || n > kMaxPlayers) {
    throw Error(shown + ": give 2 to 8 names separated by commas");
  }
  // A name is written on a line of the game file: a control character would break the line.
  if (has_control_characters(players)) {
    throw Error(shown + ": a name cannot hold control characters (tab, line feed, ...)");
  }
  if (!is_utf8(players)) throw Error(shown + ": names must be UTF-8 text (game files are)");
  if (has_direction_controls(players)) {
    throw Error(shown + ": a name cannot hold characters that change the direction of text " +
                "(U+202E and the like), which would show it other than it is written");
  }
  std::vector<std::string> names;  // trimmed, as they are kept
  std::size_t start = 0;
  for (int i = 1; i <= n; ++i) {
    const std::size_t comma = std::min(players.find(',', start), players.size());
    names.push_back(trim(players.substr(start, comma - start), " "));
    if (names.back().empty()) {
      throw Error(shown + ": name " + std::to_string(i) +
                  " is empty (give 2 to 8 names separated by commas: alice,bob)");
    }
    start = comma + 1;
  }
  refuse_duplicate_names(names, shown);
  return n;
}

std::vector<std::string> player_names(const std::string& players, int count) {
  std::vector<std::string> names(static_cast<std::size_t>(count));
  if (players.empty() ||
      std::all_of(players.begin(), players.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return names;
  }
  std::stringstream ss(players);
  std::string item;
  for (int i = 0; i < count && std::getline(ss, item, ','); ++i) names[i] = item;
  return names;
}

std::string point_names(const Topology& t, const std::vector<Vertex>& vs) {
  std::string s;
  for (Vertex v : vs) s += (s.empty() ? "" : " ") + t.name(v);
  return s;
}

Position make_position(const BoardOptions& b) {
  auto topo = parse_topology(b.topology);
  return Position(topo, make_setup(*topo, b.setup, player_count(b.players)));
}

namespace {

// The hidden name of the words on a command line that no option or argument takes.
constexpr const char* kExtraWords = "tanbo-extra-words";

// No option takes more than this: the longest path Linux opens is 4,096 bytes.
constexpr std::size_t kMaxArgument = 4096;

void check_argument_lengths(const std::vector<std::string>& args) {
  for (const std::string& a : args) {
    if (a.size() > kMaxArgument) {
      throw Error("argument " + quote_input(a) + " is longer than " + std::to_string(kMaxArgument) +
                  " bytes, the most any option takes");
    }
  }
}

// Whether an option's value is of an unsigned type.
bool takes_unsigned(const po::value_semantic* s) {
  return dynamic_cast<const po::typed_value<unsigned short>*>(s) ||
         dynamic_cast<const po::typed_value<unsigned int>*>(s) ||
         dynamic_cast<const po::typed_value<unsigned long>*>(s) ||
         dynamic_cast<const po::typed_value<unsigned long long>*>(s);
}

// Boost reads "-1" into an unsigned option as its largest value (2^64 - 1 for a 64-bit one):
// a negative number given to such an option is refused here, before it is stored.
void refuse_negative_unsigned(const po::parsed_options& parsed,
                              const po::options_description& all) {
  for (const auto& option : parsed.options) {
    const auto* d = all.find_nothrow(option.string_key, false);
    if (!d || !takes_unsigned(d->semantic().get())) continue;
    for (const std::string& value : option.value) {
      const auto first = value.find_first_not_of(" \t");
      if (first != std::string::npos && value[first] == '-') {
        throw Error("--" + option.string_key + " " + quote_input(value) +
                    ": must be a whole number of 0 or more");
      }
    }
  }
}

}  // namespace

std::optional<int> parse_args(const std::vector<std::string>& args,
                              const po::options_description& desc,
                              const po::positional_options_description* positional,
                              po::variables_map& vm, const std::string& help_text,
                              std::ostream& out, std::ostream& err) {
  po::options_description all(desc);
  std::string max_memory;
  all.add_options()("help,h", "show this help")(
      "max-memory", po::value(&max_memory),
      "the memory limit boards are checked against, e.g. 2G or 512M (default: the smallest of "
      "physical memory, the cgroup's memory.max and ulimit -v; also TANBO_MAX_MEMORY)");
  // Words beyond the command's own (GAME, FILE, ...) are gathered under a hidden name, to be
  // refused by name: Boost's own message for them lists every option as "ambiguous".
  po::options_description parsing(all);
  parsing.add_options()(kExtraWords, po::value<std::vector<std::string>>());
  po::positional_options_description words =
      positional ? *positional : po::positional_options_description();
  if (words.max_total_count() != std::numeric_limits<unsigned>::max()) words.add(kExtraWords, -1);
  try {
    check_argument_lengths(args);
    // Options are taken by their whole names only: Boost would take a unique prefix (--pn for
    // --png), which lets an abbreviation slip past scripts that filter options by name.
    const po::parsed_options parsed =
        po::command_line_parser(args)
            .options(parsing)
            .positional(words)
            .style(po::command_line_style::default_style & ~po::command_line_style::allow_guessing)
            .run();
    refuse_negative_unsigned(parsed, all);
    po::store(parsed, vm);
    if (vm.count(kExtraWords)) {
      throw Error("unexpected argument " +
                  quote_input(vm[kExtraWords].as<std::vector<std::string>>()[0]) +
                  ": options begin with -- (a value of several words goes in quotes, as in "
                  "--topology \"grid 3x3\")");
    }
    if (vm.count("help")) {
      out << help_text << "\n" << all << "\n";
      return 0;
    }
    po::notify(vm);
    if (!max_memory.empty()) set_max_memory(parse_memory_size(max_memory, "--max-memory"));
  } catch (const po::required_option& e) {
    // The arguments given by place (GAME, POINT, ...) are options to Boost: named as in --help.
    std::string name = e.get_option_name();
    name.erase(0, name.find_first_not_of('-'));
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    err << "tanbo: " << name << " is missing (see --help)\n";
    return 2;
  } catch (const po::error& e) {
    err << "tanbo: " << clip_words(e.what()) << " (see --help)\n";
    return 2;
  } catch (const Error& e) {
    err << "tanbo: " << e.what() << "\n";
    return 2;
  }
  return std::nullopt;
}

void refuse_empty_names(const po::variables_map& vm, std::initializer_list<NamedOption> named) {
  for (const auto& [name, shown] : named) {
    if (vm.count(name) && !vm[name].defaulted() && vm[name].as<std::string>().empty()) {
      throw Error(std::string(shown) + " is empty: give a name");
    }
  }
}

void check_progress_seconds(double seconds) {
  if (!(seconds == 0 || (seconds >= 0.1 && seconds <= 1e7)))
    throw Error("--progress must be 0 (no progress lines) or 0.1 to 10^7 seconds");
}

}  // namespace tanbo::app

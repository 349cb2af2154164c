// The engine protocol's commands that GTP clients (GoGui, Sabaki, twogtp, scripts) send beyond
// playing: komi, loadsgf, printsgf, final_score, gogui-analyze_commands and root_space. Each is
// a small function; add_client_commands registers them. See docs/protocol.md.
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "gtp.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/io/gamefile.hpp"
#include "tanbo/io/safe_file.hpp"
#include "tanbo/io/sgf.hpp"

namespace tanbo::cli {

namespace {

using Args = std::vector<std::string>;
using Reply = GtpEngine::Reply;

// The analyze commands a GoGui user finds in its menu, as type/label/command lines in GoGui's
// format. Types: `hpstring` shows the text highlighted and marks the points in it (those of the
// selected lines when some are selected), `plist` marks the points answered; `%p` is a point
// the user picks (such commands are also on the board's context menu). Every one is a
// read-only command of this engine.
constexpr const char* kAnalyzeCommands[] = {
    "hpstring/Roots/roots",
    "plist/Legal moves/legal_moves",
    "plist/Root space of a root/root_space %p",
};

// A decimal number as GTP's komi takes it: an optional sign, digits, at most one '.'.
bool is_number(const std::string& s) {
  const std::size_t from = !s.empty() && (s[0] == '-' || s[0] == '+') ? 1 : 0;
  const std::string body = s.substr(from);
  return !body.empty() && body.size() <= 32 && std::count(body.begin(), body.end(), '.') <= 1 &&
         std::any_of(body.begin(), body.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) &&
         std::all_of(body.begin(), body.end(), [](char c) {
           return c == '.' || std::isdigit(static_cast<unsigned char>(c));
         });
}

// loadsgf's MOVE: a turn number from 1 (the start) to turns + 1 (after the last turn).
std::uint32_t need_move_number(const std::string& text, std::uint32_t turns) {
  const bool digits =
      !text.empty() && text.size() <= 9 && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
      });
  const long n = digits ? std::stol(text) : 0;
  if (n < 1 || n > static_cast<long>(turns) + 1) {
    throw Error("MOVE must be a move number from 1 (the start) to " + std::to_string(turns + 1) +
                " (after the last of the game's " + std::to_string(turns) + " turns), not " +
                quote_input(text));
  }
  return static_cast<std::uint32_t>(n);
}

// komi NUMBER: accepted and ignored; Tanbo has no komi.
Reply komi(const Args& a) {
  need_args(a, 1, 1, "komi NUMBER");
  if (!is_number(a[0])) {
    throw Error("komi must be a number, not " + quote_input(a[0]) +
                " (Tanbo has no komi; any number is accepted and ignored)");
  }
  return {true, ""};
}

// loadsgf FILE [MOVE]: the game of an SGF record or a game file, replayed through the rules, up
// to the position before turn MOVE. Nothing changes when the file is refused.
Reply loadsgf(GtpEngine& engine, const Args& a) {
  need_args(a, 1, 2, "loadsgf FILE [MOVE]");
  std::optional<Game> game;
  try {
    game.emplace(load_game(a[0]));
  } catch (const Error& e) {
    throw Error(std::string("cannot load ") + e.what());
  }
  Position& pos = game->position;
  if (a.size() == 2) {
    const std::uint32_t before = need_move_number(a[1], pos.ply());
    while (pos.ply() + 1 > before) pos.undo();
  }
  engine.start_game(std::move(pos), game->names);
  return {true, ""};
}

// printsgf [FILE]: the game so far as SGF, answered or written to FILE (atomically).
Reply printsgf(const GtpEngine& engine, const Args& a) {
  need_args(a, 0, 1, "printsgf [FILE]");
  Game game(engine.position());
  game.names = engine.player_names();
  std::string sgf;
  try {
    sgf = write_sgf(game);
  } catch (const Error& e) {
    throw Error(std::string("cannot write this game as SGF: ") + e.what());
  }
  if (a.empty()) return {true, trim(sgf)};
  write_file_atomic(a[0], sgf);
  return {true, ""};
}

// final_score: B+ or W+ (the winner, whatever the way the game ended), the winner's colour name
// with more than two players; refused while the game goes on.
Reply final_score(const GtpEngine& engine, const Args& a) {
  need_args(a, 0, 0, "final_score");
  const Position& pos = engine.position();
  if (!pos.is_over()) throw Error("the game is not over");
  if (pos.num_players() == 2) return {true, pos.winner() == kBlack ? "B+" : "W+"};
  return {true, std::string(player_name(pos.winner()))};
}

Reply analyze_commands(const Args& a) {
  need_args(a, 0, 0, "gogui-analyze_commands");
  std::string s;
  for (const char* line : kAnalyzeCommands) s += (s.empty() ? "" : "\n") + std::string(line);
  return {true, s};
}

// root_space VERTEX: the root-space points of the root that holds the stone on VERTEX.
Reply root_space(const GtpEngine& engine, const Args& a) {
  need_args(a, 1, 1, "root_space VERTEX");
  const Position& pos = engine.position();
  const Topology& t = pos.topology();
  const Vertex v = t.need_vertex(a[0]);
  if (pos.at(v) == kEmpty) {
    throw Error("no stone on " + t.name(v) + " (root_space takes a point of a root)");
  }
  return {true, point_names(t, pos.root_space_points(pos.root_of(v)))};
}

}  // namespace

void add_client_commands(GtpEngine& engine) {
  engine.add_command("komi", komi);
  engine.add_command("loadsgf", [&engine](const Args& a) { return loadsgf(engine, a); });
  engine.add_command("printsgf", [&engine](const Args& a) { return printsgf(engine, a); });
  engine.add_command("final_score", [&engine](const Args& a) { return final_score(engine, a); });
  engine.add_command("gogui-analyze_commands", analyze_commands);
  engine.add_command("root_space", [&engine](const Args& a) { return root_space(engine, a); });
}

}  // namespace tanbo::cli

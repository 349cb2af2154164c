// GoGui's "ruler" commands (gogui-rules_*): GoGui hands the rules of a game other than Go to an
// engine that answers them, and then shows the engine's board after every move, asks it which
// points may be played and when the game is over. Each is a small function;
// add_rules_commands registers them. See docs/protocol.md, section GoGui.
#include <array>
#include <string>
#include <vector>

#include "commands.hpp"
#include "gtp.hpp"
#include "tanbo/core/error.hpp"

namespace tanbo::cli {

namespace {

using Args = std::vector<std::string>;
using Reply = GtpEngine::Reply;

// Why GoGui cannot show the game, or "" when it can: a grid of two axes without wrap, at most
// 25 points a side, whose Go coordinates GoGui's are, and two players. The refusal says what
// GoGui can show.
std::string why_gogui_cannot_show(const Position& pos) {
  const Topology& t = pos.topology();
  const bool grid = t.kind == BoardKind::kLattice && t.dimensions() == 2 && !t.wrap &&
                    t.dims[0] <= kMaxGtpBoardSize && t.dims[1] <= kMaxGtpBoardSize;
  if (!grid) {
    return "GoGui shows grids of two axes without wrap, at most 25 points a side (grid NxN or "
           "boardsize N; grid WxH with GoGui 1.6); this game is on " +
           t.spec;
  }
  if (pos.num_players() != 2) {
    return "GoGui shows two players, Black and White; this game has " +
           std::to_string(pos.num_players());
  }
  return "";
}

// The columns and rows of the board when GoGui can show the game; else the refusal.
std::array<std::uint32_t, 2> gogui_size(const Position& pos) {
  if (const std::string why = why_gogui_cannot_show(pos); !why.empty()) throw Error(why);
  return {pos.topology().dims[0], pos.topology().dims[1]};
}

Player opponent(Player p) {
  return p == kBlack ? kWhite : kBlack;
}

// gogui-rules_game_id: the game's name, as GoGui wants it (a capital, then small letters).
Reply game_id(const GtpEngine& engine, const Args& a) {
  need_args(a, 0, 0, "gogui-rules_game_id");
  gogui_size(engine.position());
  return {true, "Tanbo"};
}

// gogui-rules_board_size: N for GoGui's N x N board (as every GoGui reads it), "W H" for a
// rectangle (GoGui 1.6 and later).
Reply board_size(const GtpEngine& engine, const Args& a) {
  need_args(a, 0, 0, "gogui-rules_board_size");
  const auto [w, h] = gogui_size(engine.position());
  return {true, std::to_string(w) + (w == h ? "" : " " + std::to_string(h))};
}

// gogui-rules_board: the stones as they stand (roots removed), one row a line from the top
// row down, X for Black, O for White, . for an empty point, separated by spaces.
Reply board(const GtpEngine& engine, const Args& a) {
  need_args(a, 0, 0, "gogui-rules_board");
  const Position& pos = engine.position();
  const auto [w, h] = gogui_size(pos);
  const Topology& t = pos.topology();
  std::string s;
  for (std::uint32_t y = h; y-- > 0;) {
    if (!s.empty()) s += '\n';
    for (std::uint32_t x = 0; x < w; ++x) {
      const Player p = pos.at(t.vertex_at({x, y}));
      if (x > 0) s += ' ';
      s += p == kBlack ? 'X' : p == kWhite ? 'O' : '.';
    }
  }
  return {true, s};
}

// gogui-rules_legal_moves: the side to move's legal points (never `pass`: Tanbo has none);
// empty once the game is over, which is how GoGui learns that it is.
Reply legal_moves(const GtpEngine& engine, const Args& a) {
  need_args(a, 0, 0, "gogui-rules_legal_moves");
  const Position& pos = engine.position();
  gogui_size(pos);
  if (pos.is_over()) return {true, ""};
  return {true, point_names(pos.topology(), pos.legal_moves(pos.to_move()))};
}

// gogui-rules_side_to_move: black or white; once the game is over, the side that lost (it has
// no move), since GoGui reads a colour from every answer.
Reply side_to_move(const GtpEngine& engine, const Args& a) {
  need_args(a, 0, 0, "gogui-rules_side_to_move");
  const Position& pos = engine.position();
  gogui_size(pos);
  const Player p = pos.is_over() ? opponent(pos.winner()) : pos.to_move();
  return {true, std::string(player_name(p))};
}

// gogui-rules_final_result: the sentence GoGui shows when the game is over.
Reply final_result(const GtpEngine& engine, const Args& a) {
  need_args(a, 0, 0, "gogui-rules_final_result");
  const Position& pos = engine.position();
  gogui_size(pos);
  if (!pos.is_over()) throw Error("the game is not over");
  const Player loser = opponent(pos.winner());
  const bool resigned = pos.ply() > 0 && pos.last_move().kind == MoveRecord::Kind::kResign;
  return {true, player_title(pos.winner()) + " wins: " + player_title(loser) +
                    (resigned ? " resigned" : " has no stones left")};
}

}  // namespace

void add_rules_commands(GtpEngine& engine) {
  // Listed (list_commands, known_command) only while GoGui can show the game: GoGui makes an
  // engine that lists them the ruler of its board, and on any other board each would fail.
  const auto add = [&engine](const char* name, Reply (*f)(const GtpEngine&, const Args&)) {
    engine.add_command(
        name, [&engine, f](const Args& a) { return f(engine, a); },
        [&engine] { return why_gogui_cannot_show(engine.position()).empty(); });
  };
  add("gogui-rules_game_id", game_id);
  add("gogui-rules_board_size", board_size);
  add("gogui-rules_board", board);
  add("gogui-rules_legal_moves", legal_moves);
  add("gogui-rules_side_to_move", side_to_move);
  add("gogui-rules_final_result", final_result);
}

}  // namespace tanbo::cli

// SGF (Smart Game Format, FF[4]) export and import of games on 2D boards.
//
// Written so that a standard (Go) SGF viewer shows the right position after every move: GM[1],
// SZ[n] or SZ[w:h], a root node holding the record's properties and the starting stones
// (AB[]/AW[]) and no move, then one node per move with B[] or W[] alone. When a move takes
// stones off, a setup node follows it: AE[] lists every stone the move removed (the moved stone
// itself too when its own root was bounded), after AB[]/AW[] putting back any root a Go viewer
// would have captured but the rules keep. PB/PW, DT, RE (B+ / W+ for a win by elimination,
// B+R / W+R for a resignation). See docs/game-format.md.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "tanbo/io/gamefile.hpp"

namespace tanbo {

// SGF text of a two-player game on a 2D board at most 52 points wide and high.
// Throws tanbo::Error saying why for any other game.
std::string write_sgf(const Game& game);

// Reads SGF text (its main line): the board from SZ, the starting stones from the root's
// AB/AW (a named setup when they match one), the moves replayed through the rules (AE, on the
// move's node as earlier versions wrote it or on the setup node after it, is checked against
// the rules' removals when present), a resignation from RE[..+R].
// Throws tanbo::Error "ORIGIN: ..." for malformed text or an illegal move (naming the move).
// When `variations_left_out` is given, it receives how many lines of play branch off the main
// line (the variations not read). Text over kMaxGameFileBytes (input_file.hpp) is refused as a
// file that large would be; a property given twice in a node is refused; PB, PW, DT and EV are
// read as one line (control characters become spaces, as SGF's SimpleText says).
Game read_sgf(std::string_view text, std::string_view origin = "sgf",
              std::size_t* variations_left_out = nullptr);

// What writing the game of the SGF record `text` again (write_sgf of read_sgf) would leave out
// of it: "" when nothing; else the first such thing, for a message: the variations besides the
// main line ("2 variations besides its main line") or a property this program does not write
// ("C[a good move] in node 3", "KM[6.5] in node 1"). Throws tanbo::Error as read_sgf does for
// text it cannot parse. Commands that change an SGF file in place refuse such a record.
std::string sgf_left_out_by_rewrite(std::string_view text, std::string_view origin = "sgf");

// Whether a file name asks for SGF: it ends in ".sgf" in any case (".SGF", ".Sgf").
bool is_sgf_file_name(std::string_view path);
// Whether file text is SGF rather than the game format: its first character other than
// white space is '(' (a game file starts with a "tanbo" header line).
bool is_sgf_text(std::string_view text);

}  // namespace tanbo

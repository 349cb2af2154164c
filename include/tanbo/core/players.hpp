// Players and their colours.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tanbo {

using Player = std::uint8_t;           // 1..8; 0 means "empty" / "nobody"
inline constexpr Player kEmpty = 0;    // no stone
inline constexpr Player kBlack = 1;    // moves first
inline constexpr Player kWhite = 2;    // moves second
inline constexpr int kMaxPlayers = 8;  // most players a game can have

// Colour name of player p (1..8): black, white, red, blue, green, yellow, orange, purple.
std::string_view player_name(Player p);
// Capitalised colour name ("Black").
std::string player_title(Player p);
// One-character board symbol of player p: # o x @ % & $ = (the 1995 post uses # and o).
char player_symbol(Player p);
// Reads a player: colour name, its first letter (b w r u g y n p; u = blue, n = orange),
// or a 1-based number, case-insensitive. Returns nullopt when the text is none of these
// or names a player above `players`.
std::optional<Player> parse_player(std::string_view text, int players = kMaxPlayers);

}  // namespace tanbo

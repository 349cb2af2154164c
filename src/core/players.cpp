#include "tanbo/core/players.hpp"

#include "tanbo/core/text.hpp"

#include <array>
#include <cctype>
#include <charconv>

namespace tanbo {

namespace {
constexpr std::array<std::string_view, kMaxPlayers> kNames = {
    "black", "white", "red", "blue", "green", "yellow", "orange", "purple"};
constexpr std::array<char, kMaxPlayers> kLetters = {'b', 'w', 'r', 'u', 'g', 'y', 'n', 'p'};
constexpr std::array<char, kMaxPlayers> kSymbols = {'#', 'o', 'x', '@', '%', '&', '$', '='};
}  // namespace

std::string_view player_name(Player p) {
  return p >= 1 && p <= kMaxPlayers ? kNames[p - 1] : std::string_view("nobody");
}

std::string player_title(Player p) {
  std::string s(player_name(p));
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

char player_symbol(Player p) {
  return p >= 1 && p <= kMaxPlayers ? kSymbols[p - 1] : '.';
}

std::optional<Player> parse_player(std::string_view text, int players) {
  const std::string low = to_lower(text);
  if (low.empty()) return std::nullopt;
  int found = 0;
  if (std::isdigit(static_cast<unsigned char>(low[0]))) {
    int value = 0;
    auto [ptr, ec] = std::from_chars(low.data(), low.data() + low.size(), value);
    if (ec != std::errc() || ptr != low.data() + low.size()) return std::nullopt;
    found = value;
  } else {
    for (int i = 0; i < kMaxPlayers; ++i) {
      if (low == kNames[i] || (low.size() == 1 && low[0] == kLetters[i])) found = i + 1;
    }
  }
  if (found < 1 || found > players) return std::nullopt;
  return static_cast<Player>(found);
}

}  // namespace tanbo

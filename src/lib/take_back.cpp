#include "tanbo/core/take_back.hpp"

namespace tanbo {

std::uint32_t take_back_to_person(Position& pos, const std::function<bool(Player)>& is_person) {
  bool any_person = false;
  for (Player p = 1; p <= pos.num_players(); ++p) any_person = any_person || is_person(p);
  std::uint32_t taken = 0;
  while (pos.ply() > 0) {
    pos.undo();
    ++taken;
    if (!any_person || is_person(pos.to_move())) break;
  }
  return taken;
}

}  // namespace tanbo

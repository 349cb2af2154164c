#include "tanbo/text.hpp"

#include <cctype>

namespace tanbo {

std::string to_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string trim(std::string_view s, std::string_view blanks) {
  const auto b = s.find_first_not_of(blanks);
  if (b == std::string_view::npos) return "";
  return std::string(s.substr(b, s.find_last_not_of(blanks) - b + 1));
}

void drop_carriage_returns(std::string& line) {
  while (!line.empty() && line.back() == '\r') line.pop_back();
}

}  // namespace tanbo

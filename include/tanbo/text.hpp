// Small text helpers shared by the library and its front ends.
#pragma once

#include <string>
#include <string_view>

namespace tanbo {

// `s` with ASCII letters in lower case (names, colours and keywords are case-insensitive).
std::string to_lower(std::string_view s);

}  // namespace tanbo

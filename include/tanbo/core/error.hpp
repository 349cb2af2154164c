// Error type used by the tanbo library for every refusal of bad input.
#pragma once

#include <stdexcept>
#include <string>

namespace tanbo {

// Thrown for any input the library refuses (a malformed spec, an illegal move, a bad file).
// The message is complete and meant to be shown to a user as it is.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace tanbo

// Numbers typed by users or read from files, read one way everywhere: plain decimal digits, no
// sign, no spaces, no exponent, nothing after them. Each returns nullopt for anything else; the
// refusal's wording is the caller's, who knows what the number is for.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tanbo {

// A whole number: 1 to 19 digits (so that it fits 64 bits), nothing else.
std::optional<std::uint64_t> parse_whole(std::string_view text);
// The same, no more than `max`.
std::optional<std::uint64_t> parse_whole(std::string_view text, std::uint64_t max);
// A whole or decimal number: digits with at most one '.' ("2", "0.5", "1.", ".5"; not "."),
// at most 30 characters.
std::optional<double> parse_decimal(std::string_view text);
// parse_whole's value when `whole`, else parse_decimal's.
std::optional<double> parse_number(std::string_view text, bool whole);
// A number written as these functions read numbers, for messages and specs: "0.001",
// "10000000" (not "1e+07", which they refuse), "0.000001": the fewest digits that read back as
// exactly `x` (std::to_chars, fixed), without an exponent.
std::string plain_number(double x);

}  // namespace tanbo

// Small text helpers shared by the library and its front ends.
#pragma once

#include <string>
#include <string_view>

namespace tanbo {

// `s` with ASCII letters in lower case (names, colours and keywords are case-insensitive).
std::string to_lower(std::string_view s);

// `s` without the characters of `blanks` at either end (by default spaces, tabs, carriage
// returns and line feeds).
std::string trim(std::string_view s, std::string_view blanks = " \t\r\n");

// Removes the carriage returns at the end of a line read with std::getline: one from a CRLF
// file, or any number (so that reading and writing a line again gives the same line).
void drop_carriage_returns(std::string& line);

// Input quoted for a message: in double quotes, control bytes, quotes, backslashes and bytes
// above 126 escaped (\n, \t, \0, \", \\, \xNN), and at most `max` characters of it: longer
// input keeps its first characters and says how long it was ("xxxx..." (10485760 bytes)).
// Every message that repeats what a user typed or a file held goes through it, so that a
// huge token or a NUL byte cannot swamp or cut a message.
std::string quote_input(std::string_view text, std::size_t max = 40);

}  // namespace tanbo

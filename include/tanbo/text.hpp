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

}  // namespace tanbo

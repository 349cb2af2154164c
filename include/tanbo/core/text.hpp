// Small text helpers shared by the library and its front ends.
#pragma once

#include <iosfwd>
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

// The longest line an interactive input (tanbo gtp, tanbo play) takes: 1 MB.
inline constexpr std::size_t kMaxInputLine = std::size_t{1} << 20;

// Reads a line as std::getline does, but keeps at most `max` bytes of it (the rest of the line
// is read and dropped), so that a line without end cannot fill memory; `length`, when given,
// gets the line's whole length. False at the end of the input.
bool read_line(std::istream& in, std::string& line, std::size_t max, std::size_t* length = nullptr);

// Whether `text` is UTF-8: ASCII, and sequences of two to four bytes of the right form (as
// quote_input reads them; overlong forms and surrogates are not told apart).
bool is_utf8(std::string_view text);

// `text` without the UTF-8 byte-order mark at its start, if it has one (editors on Windows write
// it). Text in UTF-16 or UTF-32 (one of their byte-order marks, or two ASCII characters at the
// start, each beside a NUL) throws Error: "ORIGIN: the text is UTF-16, not UTF-8 (...)". Every
// text file tanbo reads (game files, SGF, DOT, topology lists) is UTF-8.
std::string_view without_byte_order_mark(std::string_view text, std::string_view origin);

// The length in bytes of the control character at text[i], 0 when there is none there: C0
// (bytes below 32), DEL (127) or C1 in UTF-8 (U+0080 to U+009F, 0xC2 0x80 to 0xC2 0x9F; to a
// terminal U+009B starts a command as ESC [ does, and to some programs U+0085 ends a line).
std::size_t control_character_at(std::string_view text, std::size_t i);

// Whether `text` holds a control character (control_character_at): such text cannot stand on
// one line of a file or a message as it is, or is not shown on a terminal as it is written.
bool has_control_characters(std::string_view text);

// Whether UTF-8 `text` holds a character that shows something: not only spaces (U+3000 and the
// like too), control characters and characters without a glyph (U+200B, U+2060, U+FEFF,
// variation selectors, ...). A name without one shows as no name at all.
bool has_visible_character(std::string_view text);

// Whether UTF-8 `text` holds a character that changes the direction text is shown in (U+061C,
// U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069): in a name such a character makes what
// follows it on the line show in another order than it is written.
bool has_direction_controls(std::string_view text);

// Input quoted for a message: in double quotes, control characters (C1 too), quotes,
// backslashes and bytes that are not UTF-8 escaped (\n, \t, \0, \", \\, \xNN), and at most `max`
// characters of it: longer input keeps its first characters and says how long it was ("xxxx..."
// (10485760 bytes)). Every message that repeats what a user typed or a file held goes through it,
// so that a huge token or a NUL byte cannot swamp or cut a message.
std::string quote_input(std::string_view text, std::size_t max = 40);

// A name such as a file path as it appears in a message: as it is when it has at most `max`
// bytes, all printable, else quote_input(text, max).
std::string shown_name(std::string_view text, std::size_t max = 80);

// A message written by another library (Boost's option parser) made safe to print: control
// bytes escaped as quote_input does, and every run of more than `max` non-blank characters
// cut to its first `max` followed by "... (N bytes)".
std::string clip_words(std::string_view message, std::size_t max = 40);

}  // namespace tanbo

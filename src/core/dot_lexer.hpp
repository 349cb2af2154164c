// The tokens of the Graphviz DOT language, for the DOT reader (dot.cpp); private to the library.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tanbo::dot {

enum class Tok {
  kId,
  kLBrace,
  kRBrace,
  kLBracket,
  kRBracket,
  kEquals,
  kSemi,
  kComma,
  kColon,
  kEdgeOp,
  kEnd
};

// The keywords, in any case; quoted, they are ordinary IDs.
enum class Keyword { kNone, kNode, kEdge, kGraph, kDigraph, kSubgraph, kStrict };

struct Token {
  Tok kind = Tok::kEnd;
  std::string text;  // the ID (unquoted), or the edge operator
  Keyword keyword = Keyword::kNone;
  int line = 1;
  std::size_t at = 0;  // where it starts in the text
};

// Throws tanbo::Error "line N: why, near "text"", the text being what follows `at` on its line
// (at most 32 bytes, escaped).
[[noreturn]] void fail_at(std::string_view text, int line, std::size_t at, const std::string& why);

// Splits DOT text into tokens, one at a time, counting lines. Blanks and comments (//, /* */,
// # to the end of the line) and a UTF-8 byte order mark are skipped.
class Lexer {
 public:
  explicit Lexer(std::string_view text) : s_(text) {}

  Token next();  // kEnd at the end of the text; throws tanbo::Error on a broken token

 private:
  void skip_blanks_and_comments();
  Token quoted(Token& t);
  Token html(Token& t);
  Token numeral(Token& t);

  std::string_view s_;
  std::size_t i_ = 0;
  int line_ = 1;
};

}  // namespace tanbo::dot

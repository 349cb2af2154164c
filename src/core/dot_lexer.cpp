// The DOT lexer (dot_lexer.hpp), reading tokens as Graphviz's scanner does.
#include "dot_lexer.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"

namespace tanbo::dot {

namespace {

Keyword keyword_of(std::string_view word) {
  if (word.size() < 4 || word.size() > 8) return Keyword::kNone;
  static constexpr std::pair<std::string_view, Keyword> kWords[] = {
      {"node", Keyword::kNode},         {"edge", Keyword::kEdge},
      {"graph", Keyword::kGraph},       {"digraph", Keyword::kDigraph},
      {"subgraph", Keyword::kSubgraph}, {"strict", Keyword::kStrict}};
  for (const auto& [w, k] : kWords) {
    if (w.size() == word.size() && std::equal(w.begin(), w.end(), word.begin(), [](char a, char b) {
          return a == std::tolower(static_cast<unsigned char>(b));
        })) {
      return k;
    }
  }
  return Keyword::kNone;
}

// Graphviz's letters: ASCII letters, underscore and every byte from 0x80 (any UTF-8).
bool letter(char c) {
  const auto u = static_cast<unsigned char>(c);
  return std::isalpha(u) || c == '_' || u >= 0x80;
}
bool digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

}  // namespace

void fail_at(std::string_view text, int line, std::size_t at, const std::string& why) {
  std::string msg = "line " + std::to_string(line) + ": " + why;
  if (at < text.size()) {
    std::string_view rest = text.substr(at, 32);
    rest = rest.substr(0, rest.find('\n'));
    if (!rest.empty()) msg += ", near " + quote_input(rest, 64);
  }
  throw Error(msg);
}

Token Lexer::next() {
  skip_blanks_and_comments();
  Token t;
  t.line = line_;
  t.at = i_;
  if (i_ >= s_.size()) return t;
  const char c = s_[i_];
  static constexpr std::string_view kSingles = "{}[]=;,:";
  if (const auto k = kSingles.find(c); k != std::string_view::npos) {
    static constexpr Tok kKinds[] = {Tok::kLBrace, Tok::kRBrace, Tok::kLBracket, Tok::kRBracket,
                                     Tok::kEquals, Tok::kSemi,   Tok::kComma,    Tok::kColon};
    t.kind = kKinds[k];
    ++i_;
    return t;
  }
  if (c == '"') return quoted(t);
  if (c == '<') return html(t);
  if (c == '-' && i_ + 1 < s_.size() && (s_[i_ + 1] == '-' || s_[i_ + 1] == '>')) {
    t.kind = Tok::kEdgeOp;
    t.text = std::string(s_.substr(i_, 2));
    i_ += 2;
    return t;
  }
  if (c == '-' || c == '.' || digit(c)) return numeral(t);
  if (letter(c)) {
    const std::size_t b = i_;
    while (i_ < s_.size() && (letter(s_[i_]) || digit(s_[i_]))) ++i_;
    t.kind = Tok::kId;
    t.text = std::string(s_.substr(b, i_ - b));
    t.keyword = keyword_of(t.text);
    return t;
  }
  fail_at(s_, line_, i_, "unexpected character " + quote_input(s_.substr(i_, 1)));
}

void Lexer::skip_blanks_and_comments() {
  while (i_ < s_.size()) {
    const char c = s_[i_];
    if (c == '\n') {
      ++line_;
      ++i_;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i_;
    } else if (c == '#' || s_.substr(i_, 2) == "//") {  // to the end of the line
      while (i_ < s_.size() && s_[i_] != '\n') ++i_;
    } else if (s_.substr(i_, 2) == "/*") {
      const std::size_t end = s_.find("*/", i_ + 2);
      if (end == std::string_view::npos) fail_at(s_, line_, i_, "a /* comment is not closed");
      line_ += static_cast<int>(std::count(s_.begin() + i_, s_.begin() + end, '\n'));
      i_ = end + 2;
    } else if (s_.substr(i_, 3) == "\xEF\xBB\xBF") {  // a UTF-8 byte order mark
      i_ += 3;
    } else {
      return;
    }
  }
}

// "..." as Graphviz reads it: \" is a quote, \\ stays as two backslashes, a backslash before
// a newline joins the lines, any other backslash stays; "a" + "b" is one ID.
Token Lexer::quoted(Token& t) {
  t.kind = Tok::kId;
  for (;;) {
    const std::size_t open = i_;
    const int open_line = line_;
    ++i_;
    for (;;) {
      if (i_ >= s_.size()) fail_at(s_, open_line, open, "a quoted string is not closed");
      const char c = s_[i_];
      if (c == '"') break;
      if (c == '\n') ++line_;
      if (c == '\\' && i_ + 1 < s_.size()) {
        const char d = s_[i_ + 1];
        if (d == '"' || d == '\\' || d == '\n') {
          if (d == '"') t.text += '"';
          if (d == '\\') t.text += "\\\\";
          if (d == '\n') ++line_;
          i_ += 2;
          continue;
        }
      }
      t.text += c;
      ++i_;
    }
    ++i_;  // the closing quote
    const std::size_t after = i_;
    const int after_line = line_;
    skip_blanks_and_comments();
    if (i_ >= s_.size() || s_[i_] != '+') {
      i_ = after;
      line_ = after_line;
      return t;
    }
    ++i_;
    skip_blanks_and_comments();
    if (i_ >= s_.size() || s_[i_] != '"') {
      fail_at(s_, line_, i_, "'+' must join two quoted strings");
    }
  }
}

// <...> with nested angle brackets: the text between the outer ones.
Token Lexer::html(Token& t) {
  t.kind = Tok::kId;
  const std::size_t b = i_;
  const int open_line = line_;
  std::size_t depth = 0;
  for (; i_ < s_.size(); ++i_) {
    if (s_[i_] == '\n') ++line_;
    if (s_[i_] == '<') ++depth;
    if (s_[i_] == '>' && --depth == 0) {
      t.text = std::string(s_.substr(b + 1, i_ - b - 1));
      ++i_;
      return t;
    }
  }
  fail_at(s_, open_line, b, "an HTML string <...> is not closed");
}

// [-]?(.[0-9]+ | [0-9]+(.[0-9]*)?); a letter or a second '.' right after it starts the next
// token, as Graphviz splits "2a" (with a warning) into 2 and a.
Token Lexer::numeral(Token& t) {
  const std::size_t b = i_;
  if (s_[i_] == '-') ++i_;
  std::size_t digits = 0;
  while (i_ < s_.size() && digit(s_[i_])) ++i_, ++digits;
  if (i_ < s_.size() && s_[i_] == '.') {
    ++i_;
    while (i_ < s_.size() && digit(s_[i_])) ++i_, ++digits;
  }
  if (digits == 0) fail_at(s_, line_, b, "expected a number");
  t.kind = Tok::kId;
  t.text = std::string(s_.substr(b, i_ - b));
  return t;
}

}  // namespace tanbo::dot

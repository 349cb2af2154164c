#include "dot.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <unordered_map>

#include "tanbo/error.hpp"
#include "tanbo/text.hpp"

namespace tanbo::dot {

namespace {

// ---------------------------------------------------------------- tokens

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

struct Token {
  Tok kind = Tok::kEnd;
  std::string text;         // the ID (unquoted), or the edge operator
  bool keyword_ok = false;  // a bare identifier (so it may be a keyword)
  int line = 1;
};

bool id_start(char c) {
  const auto u = static_cast<unsigned char>(c);
  return std::isalpha(u) || c == '_' || u >= 0x80;
}
bool id_char(char c) {
  return id_start(c) || std::isdigit(static_cast<unsigned char>(c));
}

// Splits DOT text into tokens, one at a time, counting lines.
class Lexer {
 public:
  explicit Lexer(std::string_view text) : s_(text) {}

  Token next() {
    skip_blanks_and_comments();
    Token t;
    t.line = line_;
    if (i_ >= s_.size()) return t;
    const char c = s_[i_];
    switch (c) {
      case '{':
        return single(t, Tok::kLBrace);
      case '}':
        return single(t, Tok::kRBrace);
      case '[':
        return single(t, Tok::kLBracket);
      case ']':
        return single(t, Tok::kRBracket);
      case '=':
        return single(t, Tok::kEquals);
      case ';':
        return single(t, Tok::kSemi);
      case ',':
        return single(t, Tok::kComma);
      case ':':
        return single(t, Tok::kColon);
      case '"':
        return quoted(t);
      case '<':
        return html(t);
      default:
        break;
    }
    if (c == '-' && i_ + 1 < s_.size() && (s_[i_ + 1] == '-' || s_[i_ + 1] == '>')) {
      t.kind = Tok::kEdgeOp;
      t.text = std::string(s_.substr(i_, 2));
      i_ += 2;
      return t;
    }
    if (c == '-' || c == '.' || std::isdigit(static_cast<unsigned char>(c))) return numeral(t);
    if (id_start(c)) {
      const std::size_t b = i_;
      while (i_ < s_.size() && id_char(s_[i_])) ++i_;
      t.kind = Tok::kId;
      t.text = std::string(s_.substr(b, i_ - b));
      t.keyword_ok = true;
      return t;
    }
    fail("unexpected character " + quote_input(s_.substr(i_, 1)));
  }

  [[noreturn]] void fail(const std::string& why) const {
    throw Error("line " + std::to_string(line_) + ": " + why);
  }

 private:
  Token single(Token& t, Tok kind) {
    t.kind = kind;
    ++i_;
    return t;
  }

  void skip_blanks_and_comments() {
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '\n') {
        ++line_;
        ++i_;
        line_start_ = true;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++i_;
      } else if (c == '#' && line_start_) {  // a line of preprocessor output
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      } else if (s_.substr(i_, 2) == "//") {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      } else if (s_.substr(i_, 2) == "/*") {
        const std::size_t end = s_.find("*/", i_ + 2);
        if (end == std::string_view::npos) fail("a /* comment is not closed");
        line_ += static_cast<int>(std::count(s_.begin() + i_, s_.begin() + end, '\n'));
        i_ = end + 2;
        line_start_ = false;
      } else {
        line_start_ = false;
        return;
      }
    }
  }

  // "..." with \" for a quote (other backslashes stay), backslash-newline joining lines, and
  // "a" + "b" concatenation.
  Token quoted(Token& t) {
    t.kind = Tok::kId;
    for (;;) {
      ++i_;  // the opening quote
      for (;;) {
        if (i_ >= s_.size()) fail("a quoted string is not closed");
        const char c = s_[i_];
        if (c == '"') break;
        if (c == '\n') ++line_;
        if (c == '\\' && i_ + 1 < s_.size() && (s_[i_ + 1] == '"' || s_[i_ + 1] == '\n')) {
          if (s_[i_ + 1] == '"') t.text += '"';
          if (s_[i_ + 1] == '\n') ++line_;
          i_ += 2;
          continue;
        }
        t.text += c;
        ++i_;
      }
      ++i_;  // the closing quote
      const std::size_t save = i_;
      const int save_line = line_;
      skip_blanks_and_comments();
      if (i_ < s_.size() && s_[i_] == '+') {
        ++i_;
        skip_blanks_and_comments();
        if (i_ < s_.size() && s_[i_] == '"') continue;
        fail("'+' must join two quoted strings");
      }
      i_ = save;
      line_ = save_line;
      return t;
    }
  }

  // <...> with nested angle brackets: the text between the outer ones.
  Token html(Token& t) {
    t.kind = Tok::kId;
    std::size_t depth = 0;
    const std::size_t b = i_;
    for (; i_ < s_.size(); ++i_) {
      if (s_[i_] == '\n') ++line_;
      if (s_[i_] == '<') ++depth;
      if (s_[i_] == '>' && --depth == 0) {
        t.text = std::string(s_.substr(b + 1, i_ - b - 1));
        ++i_;
        return t;
      }
    }
    fail("an HTML string <...> is not closed");
  }

  // [-]?(.[0-9]+ | [0-9]+(.[0-9]*)?)
  Token numeral(Token& t) {
    const std::size_t b = i_;
    if (s_[i_] == '-') ++i_;
    std::size_t digits = 0;
    while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_, ++digits;
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_, ++digits;
    }
    if (digits == 0) fail("unexpected " + quote_input(s_.substr(b, i_ - b + 1)));
    t.kind = Tok::kId;
    t.text = std::string(s_.substr(b, i_ - b));
    return t;
  }

  std::string_view s_;
  std::size_t i_ = 0;
  int line_ = 1;
  bool line_start_ = true;
};

bool is_keyword(const Token& t, const char* word) {
  return t.kind == Tok::kId && t.keyword_ok && to_lower(t.text) == word;
}

// ---------------------------------------------------------------- the parser

// An open subgraph (the graph's own braces are the first).
struct Frame {
  std::string stone, pos;              // `node [...]` defaults in force here
  std::vector<std::uint32_t> members;  // nodes named inside, nested subgraphs included
  // When the subgraph is the right end of an edge, the nodes of the left end.
  std::optional<std::vector<std::uint32_t>> left;
  bool root = false;
};

class Parser {
 public:
  Parser(std::string_view text, const std::function<void(std::size_t, std::size_t)>& on_growth)
      : lex_(text), on_growth_(on_growth) {}

  DotGraph read() {
    header();
    body();
    return std::move(g_);
  }

 private:
  // The statement being read: the nodes of the last end of an edge chain, and whether the
  // statement is a lone node so far (then an attribute list belongs to it).
  enum class State { kStatement, kAfterEnd, kAfterEdgeOp };

  Token next() {
    if (peeked_) {
      peeked_ = false;
      return std::move(peek_);
    }
    return lex_.next();
  }
  const Token& peek() {
    if (!peeked_) {
      peek_ = lex_.next();
      peeked_ = true;
    }
    return peek_;
  }
  [[noreturn]] void fail(const Token& at, const std::string& why) const {
    throw Error("line " + std::to_string(at.line) + ": " + why);
  }
  static std::string describe(const Token& t) {
    if (t.kind == Tok::kEnd) return "the end of the file";
    if (t.kind == Tok::kId) return quote_input(t.text);
    static const char* const kText[] = {"",    "'{'", "'}'", "'['", "']'",
                                        "'='", "';'", "','", "':'", ""};
    return t.kind == Tok::kEdgeOp ? "'" + t.text + "'" : kText[static_cast<int>(t.kind)];
  }

  // [strict] (graph | digraph) [ID] '{'
  void header() {
    Token t = next();
    if (is_keyword(t, "strict")) {
      g_.strict = true;
      t = next();
    }
    if (is_keyword(t, "digraph")) {
      g_.directed = true;
    } else if (!is_keyword(t, "graph")) {
      fail(t, "a DOT file starts with \"graph\" or \"digraph\", not " + describe(t));
    }
    t = next();
    if (t.kind == Tok::kId) t = next();
    if (t.kind != Tok::kLBrace) fail(t, "expected '{' after the graph's name, not " + describe(t));
    Frame root;
    root.root = true;
    frames_.push_back(std::move(root));
  }

  // The statements, subgraphs and all, until the graph's closing brace.
  void body() {
    State state = State::kStatement;
    while (!frames_.empty()) {
      switch (state) {
        case State::kStatement:
          state = statement();
          break;
        case State::kAfterEnd:
          state = after_end();
          break;
        case State::kAfterEdgeOp:
          state = edge_end();
          break;
      }
    }
    const Token t = next();
    if (t.kind != Tok::kEnd) fail(t, "text after the graph's closing '}': " + describe(t));
  }

  State statement() {
    Token t = next();
    switch (t.kind) {
      case Tok::kSemi:
        return State::kStatement;
      case Tok::kRBrace:
        return close_subgraph(t);
      case Tok::kLBrace:
        return open_subgraph(t, std::nullopt);
      case Tok::kEnd:
        fail(t, "the file ends before the graph's closing '}'");
      case Tok::kId:
        break;
      default:
        fail(t, "expected a statement, not " + describe(t));
    }
    if (is_keyword(t, "subgraph")) return open_named_subgraph(std::nullopt);
    if (is_keyword(t, "graph") || is_keyword(t, "node") || is_keyword(t, "edge")) {
      attribute_statement(to_lower(t.text), t);
      return State::kStatement;
    }
    if (peek().kind == Tok::kEquals) {  // ID = ID, a graph attribute
      next();
      const Token value = next();
      if (value.kind != Tok::kId) fail(value, "expected a value after '=', not " + describe(value));
      graph_attribute(t.text, value.text);
      return State::kStatement;
    }
    left_ = {node_named(t)};
    lone_node_ = true;
    return State::kAfterEnd;
  }

  // After an end of an edge: another edge operator, an attribute list, or the next statement.
  State after_end() {
    const Token& t = peek();
    if (t.kind == Tok::kEdgeOp) {
      const Token op = next();
      if ((op.text == "->") != g_.directed) {
        fail(op, "'" + op.text + "' in a " + (g_.directed ? "digraph (use ->)" : "graph (use --)"));
      }
      lone_node_ = false;
      return State::kAfterEdgeOp;
    }
    if (t.kind == Tok::kLBracket) {
      Node* node = lone_node_ ? &g_.nodes[left_.front()] : nullptr;  // else edge attributes
      attribute_lists([&](const std::string& key, const std::string& value) {
        if (node) set_node_attribute(*node, key, value);
      });
    }
    return State::kStatement;
  }

  // The right end of an edge: a node or a subgraph.
  State edge_end() {
    const Token t = next();
    if (t.kind == Tok::kLBrace) return open_subgraph(t, left_);
    if (is_keyword(t, "subgraph")) return open_named_subgraph(left_);
    if (t.kind != Tok::kId)
      fail(t, "expected a node or a subgraph after the edge, not " + describe(t));
    const std::uint32_t n = node_named(t);
    join(left_, {n});
    left_ = {n};
    return State::kAfterEnd;
  }

  // subgraph [ID] '{'
  State open_named_subgraph(std::optional<std::vector<std::uint32_t>> left) {
    Token t = next();
    if (t.kind == Tok::kId) t = next();
    if (t.kind != Tok::kLBrace) fail(t, "expected '{' to open the subgraph, not " + describe(t));
    return open_subgraph(t, std::move(left));
  }

  State open_subgraph(const Token& at, std::optional<std::vector<std::uint32_t>> left) {
    if (frames_.size() > kMaxDotNesting) {
      fail(at, "subgraphs nested more than " + std::to_string(kMaxDotNesting) + " deep");
    }
    Frame f;
    f.stone = frames_.back().stone;
    f.pos = frames_.back().pos;
    f.left = std::move(left);
    frames_.push_back(std::move(f));
    return State::kStatement;
  }

  // '}': the subgraph is complete; as an end of an edge its nodes are joined.
  State close_subgraph(const Token& at) {
    Frame f = std::move(frames_.back());
    frames_.pop_back();
    if (f.root) return State::kStatement;
    (void)at;
    std::sort(f.members.begin(), f.members.end());
    f.members.erase(std::unique(f.members.begin(), f.members.end()), f.members.end());
    auto& parent = frames_.back().members;
    parent.insert(parent.end(), f.members.begin(), f.members.end());
    if (f.left) join(*f.left, f.members);
    left_ = std::move(f.members);
    lone_node_ = false;
    return State::kAfterEnd;
  }

  // (graph | node | edge) [a=b, ...][...]
  void attribute_statement(const std::string& kind, const Token& at) {
    if (peek().kind != Tok::kLBracket) fail(at, "expected '[' after \"" + kind + "\"");
    Frame& f = frames_.back();
    attribute_lists([&](const std::string& key, const std::string& value) {
      if (kind == "graph") {
        graph_attribute(key, value);
      } else if (kind == "node" && key == "stone") {
        f.stone = value;
      } else if (kind == "node" && key == "pos") {
        f.pos = value;
      }
    });
  }

  template <class F>
  void attribute_lists(F&& take) {
    while (peek().kind == Tok::kLBracket) {
      next();
      for (;;) {
        Token key = next();
        if (key.kind == Tok::kRBracket) break;
        if (key.kind == Tok::kSemi || key.kind == Tok::kComma) continue;
        if (key.kind != Tok::kId) fail(key, "expected an attribute name, not " + describe(key));
        const Token eq = next();
        if (eq.kind != Tok::kEquals)
          fail(eq, "expected '=' after attribute " + quote_input(key.text));
        const Token value = next();
        if (value.kind != Tok::kId) fail(value, "expected a value, not " + describe(value));
        take(key.text, value.text);
      }
    }
  }

  void graph_attribute(const std::string& key, const std::string& value) {
    if (frames_.back().root && key == "players") g_.players = value;
  }

  static void set_node_attribute(Node& n, const std::string& key, const std::string& value) {
    if (key == "stone") n.stone = value;
    if (key == "pos") n.pos = value;
  }

  // The node an ID names (created with the defaults in force), after its port if any.
  std::uint32_t node_named(const Token& t) {
    while (peek().kind == Tok::kColon) {  // a port, a:n or a:p:sw
      next();
      const Token port = next();
      if (port.kind != Tok::kId)
        fail(port, "expected a port name after ':', not " + describe(port));
    }
    auto [it, added] = index_.try_emplace(t.text, static_cast<std::uint32_t>(g_.nodes.size()));
    if (added) {
      g_.nodes.push_back({t.text, frames_.back().stone, frames_.back().pos});
      grew();
    }
    frames_.back().members.push_back(it->second);
    return it->second;
  }

  void join(const std::vector<std::uint32_t>& from, const std::vector<std::uint32_t>& to) {
    for (std::uint32_t a : from) {
      for (std::uint32_t b : to) {
        g_.edges.emplace_back(a, b);
        grew();
      }
    }
  }

  void grew() {
    if (on_growth_ && ++growth_ % 65536 == 0) on_growth_(g_.nodes.size(), g_.edges.size());
  }

  Lexer lex_;
  const std::function<void(std::size_t, std::size_t)>& on_growth_;
  Token peek_;
  bool peeked_ = false;
  DotGraph g_;
  std::vector<Frame> frames_;
  std::unordered_map<std::string, std::uint32_t> index_;
  std::vector<std::uint32_t> left_;  // the nodes of the last end of the current edge chain
  bool lone_node_ = false;
  std::uint64_t growth_ = 0;
};

}  // namespace

DotGraph read_dot(std::string_view text,
                  const std::function<void(std::size_t, std::size_t)>& on_growth) {
  return Parser(text, on_growth).read();
}

}  // namespace tanbo::dot

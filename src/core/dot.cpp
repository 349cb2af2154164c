// The DOT reader (dot.hpp): a node index, and a parser that keeps open subgraphs on
// an explicit stack instead of recursing.
#include "dot.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <span>

#include "dot_lexer.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"

namespace tanbo::dot {

namespace {

constexpr std::uint32_t kNone = 0xFFFFFFFFu;

// ---------------------------------------------------------------- node index

// Node ids to node numbers: open addressing over the ids themselves (4 bytes a slot), far
// smaller than a map of strings for graphs of millions of nodes.
class NodeIndex {
 public:
  // The node named `id`; adds it (as number ids.size()) when there is none.
  std::pair<std::uint32_t, bool> find_or_add(const std::string& id, std::vector<std::string>& ids) {
    if ((ids.size() + 1) * 2 > slots_.size()) grow(ids);
    for (std::size_t i = std::hash<std::string_view>()(id) & mask_;; i = (i + 1) & mask_) {
      if (slots_[i] == 0) {
        slots_[i] = static_cast<std::uint32_t>(ids.size()) + 1;
        ids.push_back(id);
        return {slots_[i] - 1, true};
      }
      if (ids[slots_[i] - 1] == id) return {slots_[i] - 1, false};
    }
  }
  std::size_t bytes() const { return slots_.capacity() * sizeof(std::uint32_t); }

 private:
  void grow(const std::vector<std::string>& ids) {
    slots_.assign(std::max<std::size_t>(64, slots_.size() * 2), 0);
    mask_ = slots_.size() - 1;
    for (std::uint32_t v = 0; v < ids.size(); ++v) {
      std::size_t i = std::hash<std::string_view>()(ids[v]) & mask_;
      while (slots_[i] != 0) i = (i + 1) & mask_;
      slots_[i] = v + 1;
    }
  }

  std::vector<std::uint32_t> slots_;  // node + 1; 0 = free
  std::size_t mask_ = 0;
};

// ---------------------------------------------------------------- the parser

bool is_keyword(const Token& t) {
  return t.keyword != Keyword::kNone;
}
bool is_keyword(const Token& t, Keyword k) {
  return t.keyword == k;
}

// A named subgraph, kept because opening it again continues it (Graphviz finds a subgraph by
// its name among its parent's subgraphs).
struct Record {
  std::uint64_t key = 0;        // its identity as the parent of named subgraphs
  std::uint32_t stone = kNone;  // its own `node [...]` defaults; kNone: its parent's
  std::uint32_t pos = kNone;
  std::vector<std::uint32_t> nodes;  // its nodes; may repeat and be unsorted until compacted
  bool compact = true;               // nodes sorted and without repeats
};

// An end of an edge: a node list, an anonymous subgraph (its nodes are a range of the frame's
// node list), or a named subgraph (its record, read when the statement ends).
struct End {
  enum class Kind { kNodes, kAnonymous, kNamed } kind = Kind::kNodes;
  std::vector<std::uint32_t> nodes;  // kNodes: as written
  std::size_t begin = 0, end = 0;    // kAnonymous
  bool sorted = false;               // kAnonymous: the range has been sorted
  std::uint32_t record = kNone;      // kNamed
};

// An open graph or subgraph.
struct Frame {
  std::uint64_t key = 0;             // identity as a parent of named subgraphs
  std::uint32_t record = kNone;      // a named subgraph's record
  std::uint32_t stone = 0, pos = 0;  // the `node [...]` defaults in force (indices into values)
  std::vector<std::uint32_t> nodes;  // its nodes so far, nested subgraphs' too (not the root's)
  std::vector<End> chain;            // ends of the statement being read, not yet joined
  std::size_t ends = 0;              // ends of the statement being read
  bool named_end = false;            // one of them is a named subgraph
};

class Parser {
 public:
  Parser(std::string_view text, const std::function<void(const Growth&)>& on_growth)
      : text_(text), lex_(text), on_growth_(on_growth) {}

  DotGraph read() {
    header();
    body();
    const Token t = next();
    if (t.kind != Tok::kEnd) fail(t, "text after the graph's closing '}'");
    report();
    return std::move(g_);
  }

 private:
  // Where the reading is between tokens.
  enum class State { kStatement, kAfterEnd, kAfterEdgeOp };

  // ------------------------------------------------------------ tokens

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
    fail_at(text_, at.line, at.kind == Tok::kEnd ? text_.size() : at.at, why);
  }
  static std::string describe(const Token& t) {
    if (t.kind == Tok::kEnd) return "the end of the file";
    if (t.kind == Tok::kId) return quote_input(t.text);
    if (t.kind == Tok::kEdgeOp) return "'" + t.text + "'";
    static const char* const kText[] = {"", "'{'", "'}'", "'['", "']'", "'='", "';'", "','", "':'"};
    return kText[static_cast<int>(t.kind)];
  }
  // An ID where one is needed: keywords are IDs only when quoted.
  Token expect_id(Token t, const char* what) const {
    if (t.kind != Tok::kId) fail(t, std::string("expected ") + what + ", not " + describe(t));
    if (is_keyword(t)) {
      fail(t, std::string("expected ") + what + ", not the keyword \"" + t.text +
                  "\" (quoted, it is a name)");
    }
    return t;
  }

  // ------------------------------------------------------------ the structure

  // [strict] (graph | digraph) [ID] '{'
  void header() {
    Token t = next();
    if (is_keyword(t, Keyword::kStrict)) {
      g_.strict = true;
      t = next();
    }
    if (is_keyword(t, Keyword::kDigraph)) {
      g_.directed = true;
    } else if (!is_keyword(t, Keyword::kGraph)) {
      fail(t, "a DOT file starts with \"graph\" or \"digraph\", not " + describe(t));
    }
    t = next();
    if (t.kind == Tok::kId) {
      expect_id(t, "the graph's name");
      t = next();
    }
    if (t.kind != Tok::kLBrace) fail(t, "expected '{' to open the graph, not " + describe(t));
    frames_.emplace_back();
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
  }

  State statement() {
    Token t = next();
    switch (t.kind) {
      case Tok::kSemi:
        return State::kStatement;
      case Tok::kRBrace:
        return close_subgraph();
      case Tok::kLBrace:
        return open_subgraph(t, nullptr);
      case Tok::kEnd:
        fail(t, "the file ends before the graph's closing '}'");
      case Tok::kId:
        break;
      default:
        fail(t, "expected a statement, not " + describe(t));
    }
    if (is_keyword(t, Keyword::kSubgraph)) return open_named_subgraph();
    if (is_keyword(t, Keyword::kGraph) || is_keyword(t, Keyword::kNode) ||
        is_keyword(t, Keyword::kEdge)) {
      attribute_statement(to_lower(t.text), t);
      return State::kStatement;
    }
    expect_id(t, "a node");
    if (peek().kind == Tok::kEquals) {  // ID = ID: an attribute of this (sub)graph
      next();
      const Token value = expect_id(next(), "a value after '='");
      graph_attribute(t.text, value.text);
      return State::kStatement;
    }
    node_list(std::move(t));
    return State::kAfterEnd;
  }

  // After an end of an edge: an edge operator, an attribute list, or the next statement.
  State after_end() {
    if (peek().kind == Tok::kEdgeOp) {
      const Token op = next();
      if ((op.text == "->") != g_.directed) {
        fail(op, "'" + op.text + "' in a " + (g_.directed ? "digraph (use ->)" : "graph (use --)"));
      }
      return State::kAfterEdgeOp;
    }
    std::vector<End>& chain = frames_.back().chain;
    const bool lone_nodes = frames_.back().ends == 1 && chain[0].kind == End::Kind::kNodes;
    attribute_lists([&](const std::string& key, const std::string& value) {
      if (!lone_nodes || (key != "stone" && key != "pos")) return;  // else edge attributes
      const std::uint32_t v = add_value(value);
      for (std::uint32_t n : chain[0].nodes)
        (key == "stone" ? g_.stone_value : g_.pos_value)[n] = v;
    });
    end_statement();
    return State::kStatement;
  }

  // The right end of an edge: a node list or a subgraph.
  State edge_end() {
    Token t = next();
    if (t.kind == Tok::kLBrace) return open_subgraph(t, nullptr);
    if (is_keyword(t, Keyword::kSubgraph)) return open_named_subgraph();
    node_list(expect_id(std::move(t), "a node or a subgraph after the edge"));
    return State::kAfterEnd;
  }

  // node [, node ...]: an end of an edge.
  void node_list(Token first) {
    End end;
    end.nodes.push_back(node_named(first));
    while (peek().kind == Tok::kComma) {
      next();
      end.nodes.push_back(node_named(expect_id(next(), "a node after ','")));
    }
    add_end(frames_.back(), std::move(end));
  }

  // subgraph [ID] '{'
  State open_named_subgraph() {
    Token t = next();
    const std::string* name = nullptr;
    std::string id;
    if (t.kind == Tok::kId) {
      id = expect_id(std::move(t), "the subgraph's name").text;
      name = &id;
      t = next();
    }
    if (t.kind != Tok::kLBrace) fail(t, "expected '{' to open the subgraph, not " + describe(t));
    return open_subgraph(t, name);
  }

  // A subgraph opens: a named one found again continues with its own defaults.
  State open_subgraph(const Token& at, const std::string* name) {
    if (frames_.size() > kMaxDotNesting) {
      fail(at, "subgraphs nested more than " + std::to_string(kMaxDotNesting) + " deep");
    }
    const Frame& parent = frames_.back();
    Frame f;
    f.key = ++serial_;
    f.stone = parent.stone;
    f.pos = parent.pos;
    if (name) {
      auto [it, added] = records_.try_emplace({parent.key, *name}, kNone);
      if (added) {
        it->second = static_cast<std::uint32_t>(records_list_.size());
        records_list_.push_back({});
        records_list_.back().key = f.key;
        record_bytes_ += sizeof(Record) + 64 + name->size();
        grew(1);
      }
      f.record = it->second;
      const Record& r = records_list_[f.record];
      f.key = r.key;
      if (r.stone != kNone) f.stone = r.stone;
      if (r.pos != kNone) f.pos = r.pos;
    }
    frames_.push_back(std::move(f));
    return State::kStatement;
  }

  // '}' (the statement before it has ended): the subgraph becomes an end in its parent's chain.
  State close_subgraph() {
    Frame f = std::move(frames_.back());
    frames_.pop_back();
    if (frames_.empty()) return State::kStatement;  // the graph's own brace
    unique(f.nodes);
    Frame& parent = frames_.back();
    End end;
    if (f.record != kNone) {
      Record& r = records_list_[f.record];
      r.nodes.insert(r.nodes.end(), f.nodes.begin(), f.nodes.end());
      r.compact = f.nodes.empty() && r.compact;
      record_entries_ += f.nodes.size();
      end.kind = End::Kind::kNamed;
      end.record = f.record;
    } else {
      end.kind = End::Kind::kAnonymous;
      end.begin = parent.nodes.size();
      end.end = end.begin + f.nodes.size();
    }
    parent.nodes.insert(parent.nodes.end(), f.nodes.begin(), f.nodes.end());
    grew(f.nodes.size());
    add_end(parent, std::move(end));
    return State::kAfterEnd;
  }

  // ------------------------------------------------------------ edges

  // A new end of the statement being read is joined to the one before at once, unless a named
  // subgraph is in the chain: its nodes may still grow in this statement (opened again), so
  // then every end waits for the end of the statement, when Graphviz makes the edges.
  void add_end(Frame& f, End end) {
    f.named_end = f.named_end || end.kind == End::Kind::kNamed;
    chain_bytes_ += end_bytes(end);
    f.chain.push_back(std::move(end));
    ++f.ends;
    if (!f.named_end && f.chain.size() == 2) {
      join(f, f.chain[0], f.chain[1]);
      chain_bytes_ -= end_bytes(f.chain[0]);
      f.chain.erase(f.chain.begin());
    }
  }
  static std::uint64_t end_bytes(const End& e) {
    return sizeof(End) + e.nodes.capacity() * sizeof(std::uint32_t);
  }

  void end_statement() {
    Frame& f = frames_.back();
    for (std::size_t i = 0; i + 1 < f.chain.size(); ++i) join(f, f.chain[i], f.chain[i + 1]);
    for (const End& e : f.chain) chain_bytes_ -= end_bytes(e);
    f.chain.clear();
    f.ends = 0;
    f.named_end = false;
    if (frames_.size() == 1) f.nodes.clear();  // the root's list only serves its statements
  }

  // Every node of one end to every node of the other, in the order Graphviz makes the edges.
  void join(Frame& f, End& tail, End& head) {
    if (empty(tail) || empty(head)) return;
    const std::span<const std::uint32_t> tails = nodes_of(f, tail);
    const std::span<const std::uint32_t> heads = nodes_of(f, head);
    for (std::uint32_t a : tails) {
      for (std::uint32_t b : heads) {
        g_.edges.emplace_back(a, b);
        grew(1);
      }
    }
  }

  bool empty(const End& e) const {
    switch (e.kind) {
      case End::Kind::kNodes:
        return e.nodes.empty();
      case End::Kind::kAnonymous:
        return e.begin == e.end;
      case End::Kind::kNamed:
        return records_list_[e.record].nodes.empty();
    }
    return true;
  }

  // An end's nodes, subgraphs' in the order the nodes were made.
  std::span<const std::uint32_t> nodes_of(Frame& f, End& e) {
    switch (e.kind) {
      case End::Kind::kNodes:
        return e.nodes;
      case End::Kind::kAnonymous:
        if (!e.sorted) std::sort(f.nodes.begin() + e.begin, f.nodes.begin() + e.end);
        e.sorted = true;
        return std::span<const std::uint32_t>(f.nodes).subspan(e.begin, e.end - e.begin);
      case End::Kind::kNamed: {
        Record& r = records_list_[e.record];
        if (!r.compact) {
          record_entries_ -= r.nodes.size();
          unique(r.nodes);
          std::sort(r.nodes.begin(), r.nodes.end());
          r.compact = true;
          record_entries_ += r.nodes.size();
        }
        return r.nodes;
      }
    }
    return {};
  }

  // Drops repeated nodes from a list (keeping the first of each), in linear time.
  void unique(std::vector<std::uint32_t>& list) {
    if (++stamp_ == 0) {
      std::fill(mark_.begin(), mark_.end(), 0);
      stamp_ = 1;
    }
    std::size_t kept = 0;
    for (std::uint32_t n : list) {
      if (mark_[n] != stamp_) {
        mark_[n] = stamp_;
        list[kept++] = n;
      }
    }
    list.resize(kept);
  }

  // ------------------------------------------------------------ nodes and attributes

  // The node an ID names, after its port if any (a:p or a:p:sw, ignored); a new node takes the
  // defaults in force.
  std::uint32_t node_named(const Token& t) {
    for (int colons = 0; peek().kind == Tok::kColon; ++colons) {
      if (colons == 2) fail(peek(), "a node has at most a port and a compass point (a:p:sw)");
      next();
      expect_id(next(), "a port name after ':'");
    }
    const auto [n, added] = index_.find_or_add(t.text, g_.ids);
    if (added) {
      g_.stone_value.push_back(frames_.back().stone);
      g_.pos_value.push_back(frames_.back().pos);
      mark_.push_back(0);
      if (t.text.size() > 15) id_bytes_ += t.text.size() + 1;  // beyond the string's own buffer
      grew(1);
    }
    if (frames_.size() > 1) {
      frames_.back().nodes.push_back(n);
      grew(1);
    }
    return n;
  }

  // (graph | node | edge) [ID =] [a=b, ...][...]; Graphviz reads and ignores the name of an
  // attribute macro (`node m = [...]`).
  void attribute_statement(const std::string& kind, const Token& at) {
    if (peek().kind == Tok::kId) {
      expect_id(next(), "an attribute macro name");
      if (next().kind != Tok::kEquals) fail(at, "expected '[' after \"" + kind + "\"");
    }
    if (peek().kind != Tok::kLBracket) fail(peek(), "expected '[' after \"" + kind + "\"");
    Frame& f = frames_.back();
    attribute_lists([&](const std::string& key, const std::string& value) {
      if (kind == "graph") {
        graph_attribute(key, value);
      } else if (kind == "node" && (key == "stone" || key == "pos")) {
        const std::uint32_t v = add_value(value);
        (key == "stone" ? f.stone : f.pos) = v;
        if (f.record != kNone)
          (key == "stone" ? records_list_[f.record].stone : records_list_[f.record].pos) = v;
      }
    });
  }

  // ('[' (ID = ID [;|,])* ']')*
  template <class F>
  void attribute_lists(F&& take) {
    while (peek().kind == Tok::kLBracket) {
      next();
      while (peek().kind != Tok::kRBracket) {
        const Token key = expect_id(next(), "an attribute name or ']'");
        const Token eq = next();
        if (eq.kind != Tok::kEquals)
          fail(eq, "expected '=' after attribute " + quote_input(key.text));
        const Token value = expect_id(next(), "an attribute value");
        take(key.text, value.text);
        if (peek().kind == Tok::kSemi || peek().kind == Tok::kComma) next();
      }
      next();
    }
  }

  void graph_attribute(const std::string& key, const std::string& value) {
    if (frames_.size() == 1 && key == "players") g_.players = value;
  }

  std::uint32_t add_value(const std::string& value) {
    g_.values.push_back(value);
    if (value.size() > 15) value_bytes_ += value.size() + 1;
    grew(1);
    return static_cast<std::uint32_t>(g_.values.size() - 1);
  }

  // ------------------------------------------------------------ memory

  void grew(std::size_t count) {
    growth_ += count;
    if (on_growth_ && growth_ >= 65536) {
      growth_ = 0;
      report();
    }
  }

  void report() const {
    if (!on_growth_) return;
    std::uint64_t lists = record_entries_;
    for (const Frame& f : frames_) lists += f.nodes.capacity();
    Growth g;
    g.nodes = g_.ids.size();
    g.edges = g_.edges.size();
    g.bytes = g_.ids.capacity() * sizeof(std::string) + id_bytes_ +
              (g_.stone_value.capacity() + g_.pos_value.capacity() + mark_.capacity() + lists) *
                  sizeof(std::uint32_t) +
              g_.values.capacity() * sizeof(std::string) + value_bytes_ +
              g_.edges.capacity() * sizeof(g_.edges[0]) + index_.bytes() + record_bytes_ +
              frames_.capacity() * sizeof(Frame) + chain_bytes_;
    on_growth_(g);
  }

  std::string_view text_;
  Lexer lex_;
  const std::function<void(const Growth&)>& on_growth_;
  Token peek_;
  bool peeked_ = false;
  DotGraph g_;
  NodeIndex index_;
  std::vector<Frame> frames_;
  std::map<std::pair<std::uint64_t, std::string>, std::uint32_t> records_;  // (parent, name)
  std::vector<Record> records_list_;
  std::vector<std::uint32_t> mark_;  // per node, for unique()
  std::uint32_t stamp_ = 0;
  std::uint64_t serial_ = 0;  // subgraphs opened
  std::uint64_t growth_ = 0, id_bytes_ = 0, value_bytes_ = 0, record_bytes_ = 0;
  std::uint64_t record_entries_ = 0;
  std::uint64_t chain_bytes_ = 0;  // ends waiting to be joined
};

}  // namespace

DotGraph read_dot(std::string_view text, const std::function<void(const Growth&)>& on_growth) {
  return Parser(text, on_growth).read();
}

}  // namespace tanbo::dot

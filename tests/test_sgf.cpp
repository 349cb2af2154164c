// SGF export and import: a viewer that applies each node's move and AE sees the position the
// rules give after every move; reading the SGF back gives the same game; bad records refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "tanbo/error.hpp"
#include "tanbo/random.hpp"
#include "tanbo/sgf.hpp"
#include "test_support.hpp"

namespace tanbo {
namespace {

Game random_game(const std::string& spec, std::uint64_t seed, std::uint32_t turns = 0) {
  Game g = new_game(spec, "default", 0, {"alice", "bob"}, "2026-11-21T08:00:00Z");
  Rng rng(seed);
  for (std::uint32_t i = 0; !g.position.is_over() && (turns == 0 || i < turns); ++i) {
    g.position.play(random_move(g.position, rng));
  }
  return g;
}

// A minimal SGF viewer written independently of read_sgf: it knows SZ, AB/AW, B/W and AE
// (no Go captures) and returns the board after every move node as a map point -> 'B'/'W'.
// What a Go viewer does after a stone at `move`: opposing groups without liberties go.
void go_capture(std::map<std::string, char>& board, const std::string& move, int w, int h) {
  const char mine = board[move];
  auto nbrs = [&](const std::string& p) {
    std::vector<std::string> out;
    const int x = p[0] - 'a', y = p[1] - 'a';
    const int d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    for (const auto& dd : d) {
      const int nx = x + dd[0], ny = y + dd[1];
      if (nx >= 0 && ny >= 0 && nx < w && ny < h) {
        out.push_back({static_cast<char>('a' + nx), static_cast<char>('a' + ny)});
      }
    }
    return out;
  };
  for (const auto& start : nbrs(move)) {
    auto it = board.find(start);
    if (it == board.end() || it->second == mine) continue;
    const char colour = it->second;
    std::vector<std::string> group{start}, todo{start};
    bool liberty = false;
    while (!todo.empty()) {
      const std::string p = todo.back();
      todo.pop_back();
      for (const auto& n : nbrs(p)) {
        auto f = board.find(n);
        if (f == board.end()) {
          liberty = true;
        } else if (f->second == colour && std::find(group.begin(), group.end(), n) == group.end()) {
          group.push_back(n);
          todo.push_back(n);
        }
      }
    }
    if (!liberty) {
      for (const auto& p : group) board.erase(p);
    }
  }
}

// A minimal Go-style SGF viewer for square boards, written independently of read_sgf: it
// knows SZ, AB/AW, B/W with Go captures, and AE, applying properties in the order written.
std::vector<std::map<std::string, char>> view(const std::string& sgf, int w, int h) {
  // Split into nodes at ';' outside property values.
  std::vector<std::string> nodes;
  bool in_value = false;
  for (std::size_t k = 0; k < sgf.size(); ++k) {
    const char c = sgf[k];
    if (in_value) {
      if (c == '\\') {
        nodes.back() += sgf.substr(k, 2);
        ++k;
        continue;
      }
      if (c == ']') in_value = false;
    } else if (c == '[') {
      in_value = true;
    } else if (c == ';') {
      nodes.emplace_back();
      continue;
    }
    if (!nodes.empty()) nodes.back() += c;
  }
  std::vector<std::map<std::string, char>> boards;
  std::map<std::string, char> board;
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    const std::string& node = nodes[n];
    std::string id;
    bool moved = false;
    for (std::size_t k = 0; k < node.size();) {
      if (std::isupper(static_cast<unsigned char>(node[k]))) {
        id.clear();
        while (k < node.size() && std::isupper(static_cast<unsigned char>(node[k])))
          id += node[k++];
      } else if (node[k] == '[') {
        std::size_t end = k + 1;
        while (end < node.size() && node[end] != ']') end += node[end] == '\\' ? 2 : 1;
        const std::string value = node.substr(k + 1, end - k - 1);
        if (id == "AB" || id == "B") board[value] = 'B';
        if (id == "AW" || id == "W") board[value] = 'W';
        if (id == "B" || id == "W") go_capture(board, value, w, h);
        if (id == "B" || id == "W") moved = true;
        if (id == "AE") board.erase(value);
        k = end + 1;
      } else {
        ++k;
      }
    }
    if (moved || n == 0) boards.push_back(board);
  }
  return boards;
}

std::map<std::string, char> board_of(const Position& pos) {
  std::map<std::string, char> b;
  const Topology& t = pos.topology();
  for (Vertex v = 0; v < pos.num_vertices(); ++v) {
    if (pos.at(v) == kEmpty) continue;
    const auto c = t.coords(v);
    const std::string key{static_cast<char>('a' + c[0]),
                          static_cast<char>('a' + (t.dims[1] - 1 - c[1]))};
    b[key] = pos.at(v) == kBlack ? 'B' : 'W';
  }
  return b;
}

void expect_same_game(const Game& a, const Game& b) {
  EXPECT_EQ(a.position.ply(), b.position.ply());
  EXPECT_EQ(a.position.hash(), b.position.hash());
}

TEST(Sgf, ViewerSeesTheRulesPositionAfterEveryMove) {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const Game g = random_game("grid 9x9", seed);
    const std::string sgf = write_sgf(g);
    const auto boards = view(sgf, 9, 9);
    ASSERT_EQ(boards.size(), g.position.ply() + 1);
    Position replay(g.position.topology_ptr(), g.position.setup());
    EXPECT_EQ(boards[0], board_of(replay));
    bool removal_seen = false;
    for (std::size_t m = 0; m < g.position.history().size(); ++m) {
      const MoveRecord& rec = replay.play(g.position.history()[m].vertex);
      removal_seen |= rec.removed_end > rec.removed_begin;
      EXPECT_EQ(boards[m + 1], board_of(replay)) << "seed " << seed << " after move " << m + 1;
    }
    EXPECT_TRUE(removal_seen) << "seed " << seed << " had no removal";
    EXPECT_NE(sgf.find("AE["), std::string::npos);
    expect_same_game(g, read_sgf(sgf));
  }
}

void expect_same(const Game& a, const Game& b) {
  ASSERT_EQ(a.position.ply(), b.position.ply());
  for (std::size_t i = 0; i < a.position.history().size(); ++i) {
    EXPECT_EQ(a.position.history()[i].vertex, b.position.history()[i].vertex);
    EXPECT_EQ(a.position.history()[i].kind, b.position.history()[i].kind);
  }
  EXPECT_EQ(a.position.hash(), b.position.hash());
  EXPECT_EQ(a.position.winner(), b.position.winner());
  EXPECT_EQ(a.position.setup().name, b.position.setup().name);
  EXPECT_EQ(a.names, b.names);
}

// Black 2 on a 5x1 board: Black's expanded root {1,2} is bounded and alone removed; White's
// stone 3, momentarily without liberties, stays. A Go viewer captures it when the stone is
// played, so the move node puts it back with AW.
TEST(Sgf, GoCaptureThatTanboDoesNotMakeIsPutBack) {
  auto topo = parse_topology("grid 5x1");
  tanbo::Setup s;
  s.name = "custom";
  s.players = 2;
  s.stones = {{topo->vertex_at({0, 0}), kBlack},
              {topo->vertex_at({2, 0}), kWhite},
              {topo->vertex_at({3, 0}), kBlack}};
  Game g(Position(topo, s));
  g.names = {"", ""};
  const MoveRecord& rec = g.position.play_checked(kBlack, topo->vertex_at({1, 0}));
  ASSERT_TRUE(rec.expanded_removed);
  ASSERT_EQ(g.position.at(topo->vertex_at({2, 0})), kWhite);
  const std::string sgf = write_sgf(g);
  EXPECT_NE(sgf.find(";B[ba]AW[ca]AE[aa][ba]"), std::string::npos) << sgf;
  const auto boards = view(sgf, 5, 1);
  ASSERT_EQ(boards.size(), 2u);
  EXPECT_EQ(boards[1], board_of(g.position));
  expect_same(g, read_sgf(sgf));
}

TEST(Sgf, HeaderProperties) {
  const Game g = random_game("grid 9x9", 1);
  const std::string sgf = write_sgf(g);
  EXPECT_EQ(sgf.rfind("(;GM[1]FF[4]", 0), 0u);
  EXPECT_NE(sgf.find("SZ[9]"), std::string::npos);
  EXPECT_NE(sgf.find("PB[alice]PW[bob]"), std::string::npos);
  EXPECT_NE(sgf.find("DT[2026-11-21]"), std::string::npos);
  EXPECT_NE(sgf.find(std::string("RE[") + (g.position.winner() == kBlack ? "B" : "W") + "+]"),
            std::string::npos);
  EXPECT_NE(sgf.find("AB[bh][hb]"), std::string::npos);  // Figure O: B2 and H8 Black
  EXPECT_NE(sgf.find("AW[hh][bb]"), std::string::npos);  // H2 and B8 White
}

TEST(Sgf, RoundTrip) {
  for (const char* spec : {"grid 9x9", "grid 19x19", "grid 13x13", "grid 7x5"}) {
    const Game g = random_game(spec, 4);
    const Game back = read_sgf(write_sgf(g), "x.sgf");
    expect_same(g, back);
    EXPECT_EQ(write_sgf(back), write_sgf(g));
  }
  EXPECT_NE(write_sgf(random_game("grid 7x5", 4)).find("SZ[7:5]"), std::string::npos);
}

TEST(Sgf, ResignationRoundTrip) {
  Game g = random_game("grid 9x9", 5, 10);
  g.position.resign(kBlack);
  const std::string sgf = write_sgf(g);
  EXPECT_NE(sgf.find("RE[W+R]"), std::string::npos);
  expect_same(g, read_sgf(sgf));
}

TEST(Sgf, UnfinishedGameHasNoResult) {
  const Game g = random_game("grid 9x9", 6, 8);
  const std::string sgf = write_sgf(g);
  EXPECT_EQ(sgf.find("RE["), std::string::npos);
  expect_same(g, read_sgf(sgf));
}

std::string refusal(const std::string& sgf) {
  try {
    read_sgf(sgf, "x.sgf");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Sgf, BadRecordsRefused) {
  const std::string head = "(;GM[1]FF[4]SZ[9]AB[bh][hb]AW[hh][bb]";
  EXPECT_EQ(refusal(head + ";B[ch];W[gh])"), "");
  EXPECT_EQ(refusal(head + ";B[ch];W[cg])"),
            "x.sgf: node 3: W[cg] (C3): no White stone touches C3");
  EXPECT_EQ(refusal(head + ";W[gh])"),
            "x.sgf: node 2: W[gh] (G2): it is Black's turn, not White's");
  EXPECT_EQ(refusal(head + ";B[])"), "x.sgf: node 2: a pass: Tanbo has no passing");
  EXPECT_EQ(refusal(head + ";B[zz])"), "x.sgf: node 2: [zz] is not a point of a 9x9 board");
  EXPECT_EQ(refusal(head + ";B[ch"), "x.sgf:1: unterminated value of B (a ']' is missing)");
  EXPECT_EQ(refusal(head + ";B[ch]"), "x.sgf:1: unexpected end of the SGF text (a ')' is missing)");
  EXPECT_EQ(refusal(head + ";B[ch]AE[bh])"),
            "x.sgf: node 2: AE does not list the stones the rules remove after C2");
  EXPECT_EQ(
      refusal("(;GM[1]SZ[9]AB[aa][ab])").rfind("x.sgf: node 1: the starting stones are refused", 0),
      0u);
  EXPECT_EQ(refusal("(;GM[3]SZ[9])").rfind("x.sgf: node 1: GM[3]", 0), 0u);
  EXPECT_EQ(refusal("hello").rfind("x.sgf:1: SGF text must start with '('", 0), 0u);
  EXPECT_NE(refusal([] {
              std::string deep;
              for (int i = 0; i < 5000; ++i) deep += "(;";
              return deep;
            }())
                .find("nested more than 1000 deep"),
            std::string::npos);
  // Variations: only the main line (first child) counts.
  EXPECT_EQ(refusal(head + ";B[ch](;W[gh];B[ci])(;W[zz]))"), "");
}

TEST(Sgf, OnlyTwoPlayer2DGames) {
  EXPECT_THROW(write_sgf(random_game("grid 5x5x5", 1, 4)), Error);
  EXPECT_THROW(write_sgf(new_game("grid 19x19", "four", 4, {})), Error);
  EXPECT_THROW(write_sgf(new_game("hex 5", "default", 0, {})), Error);
}

TEST(Sgf, ForeignSetupIsKeptAsCustom) {
  // Stones that match no named setup: read as a custom start and written back the same.
  const std::string sgf = "(;GM[1]FF[4]SZ[6]AB[aa][ff]AW[af][fa];B[ba])";
  const Game g = read_sgf(sgf);
  EXPECT_EQ(g.position.setup().name, "custom");
  EXPECT_EQ(g.position.ply(), 1u);
  expect_same(g, read_sgf(write_sgf(g)));
}

// Which names and texts count as SGF, the same for every command (new, save, view, edits).
TEST(Sgf, FileNamesAndTextsThatAreSgf) {
  EXPECT_TRUE(is_sgf_file_name("game.sgf"));
  EXPECT_TRUE(is_sgf_file_name("GAME.SGF"));
  EXPECT_TRUE(is_sgf_file_name("dir/x.Sgf"));
  EXPECT_TRUE(is_sgf_file_name(".sgf"));
  EXPECT_FALSE(is_sgf_file_name("game.tanbo"));
  EXPECT_FALSE(is_sgf_file_name("sgf"));
  EXPECT_FALSE(is_sgf_file_name("game.sgf.tanbo"));
  EXPECT_FALSE(is_sgf_file_name(""));
  EXPECT_TRUE(is_sgf_text("(;GM[1]SZ[9])"));
  EXPECT_TRUE(is_sgf_text(" \r\n\t(;GM[1])"));
  EXPECT_FALSE(is_sgf_text("tanbo game 1\n"));
  EXPECT_FALSE(is_sgf_text("  \n"));
  EXPECT_FALSE(is_sgf_text(""));
}

}  // namespace
}  // namespace tanbo

// A minimal SGF viewer for the tests (sgf_viewer.hpp).
#include "sgf_viewer.hpp"

#include <algorithm>
#include <cctype>

namespace tanbo::test {

namespace {

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

}  // namespace

std::vector<std::string> split_nodes(const std::string& sgf) {
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
  return nodes;
}

std::set<std::string> property_ids(const std::string& node) {
  std::set<std::string> ids;
  bool in_value = false;
  std::string id;
  for (std::size_t k = 0; k < node.size(); ++k) {
    const char c = node[k];
    if (in_value) {
      k += c == '\\' ? 1 : 0;
      in_value = c != ']';
    } else if (std::isupper(static_cast<unsigned char>(c))) {
      id += c;
    } else if (c == '[') {
      in_value = true;
      if (!id.empty()) ids.insert(id);
      id.clear();
    }
  }
  return ids;
}

std::vector<std::map<std::string, char>> view(const std::string& sgf, int w, int h) {
  const std::vector<std::string> nodes = split_nodes(sgf);
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
    if (moved || n == 0) {
      boards.push_back(board);
    } else if (!boards.empty()) {
      boards.back() = board;
    }
  }
  return boards;
}

}  // namespace tanbo::test

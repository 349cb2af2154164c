// A minimal Go-style SGF viewer for square boards, written independently of read_sgf, so that
// the tests can see what a viewer shows of the SGF records tanbo writes.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

namespace tanbo::test {

// The nodes of an SGF text without variations: the text after each ';' outside property
// values, up to the next one.
std::vector<std::string> split_nodes(const std::string& sgf);

// The property identifiers of one node.
std::set<std::string> property_ids(const std::string& node);

// The boards a viewer shows of an SGF record of a w x h board: it knows SZ, AB/AW, B/W with Go
// captures, and AE, applying properties in the order written. The board at the root, then after
// each move together with the setup nodes that follow it (a viewer shows them as steps of their
// own; the last step is what counts). Points are SGF's two letters, stones 'B' and 'W'.
std::vector<std::map<std::string, char>> view(const std::string& sgf, int w, int h);

}  // namespace tanbo::test

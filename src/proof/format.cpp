// The certificate's format (include/tanbo/proof/proof.hpp): positions written as text and read
// back, point names, and the text of a certificate on its way to a file.
#include <algorithm>
#include <bit>
#include <functional>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/proof/proof.hpp"

namespace tanbo::proof {

void CertificateText::add(std::string_view text) {
  piece_ += text;
  if (piece_.size() >= (std::size_t{1} << 20)) flush();
}
void CertificateText::add_line(const Topology& topo, const std::vector<Player>& stones, int players,
                               Vertex move) {
  add(position_text(topo, stones, players));
  add(" ");
  add(topo.name(move));
  add("\n");
}
void CertificateText::flush() {
  if (!piece_.empty()) sink_(piece_);
  piece_.clear();
}

std::string progress_text(const CheckProgress& p) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(0) << p.seconds << " s, ";
  if (p.checked == 0) {
    os << p.lines_read << " lines read";
  } else {
    os << p.checked << " positions checked";
  }
  return os.str();
}

std::string position_text(const Topology& topo, const std::vector<Player>& stones, int players) {
  std::vector<std::string> parts(players);
  for (Vertex v = 0; v < stones.size(); ++v) {
    if (stones[v] == kEmpty) continue;
    std::string& part = parts[stones[v] - 1];
    if (!part.empty()) part += ',';
    part += topo.name(v);
  }
  std::string out;
  for (int i = 0; i < players; ++i) out += (i ? "/" : "") + parts[i];
  return out;
}

std::size_t name_parts(const Topology& t) {
  if (t.kind != BoardKind::kLattice || t.num_vertices() == 0) return 1;
  const std::string first = t.name(0);
  return 1 + static_cast<std::size_t>(std::count(first.begin(), first.end(), ','));
}

void check_names(const Topology& t) {
  const std::size_t parts = name_parts(t);
  for (Vertex v = 0; v < t.num_vertices(); ++v) {
    const std::string name = t.name(v);
    if (name.find('/') == std::string::npos &&
        1 + static_cast<std::size_t>(std::count(name.begin(), name.end(), ',')) == parts) {
      continue;
    }
    throw Error("a certificate cannot name the point " + quote_input(name) +
                ": a ',' or '/' in a node id reads as a separator in its positions (rename the "
                "node in the DOT file)");
  }
}

PointNames::PointNames(const Topology& topo) : topo_(topo) {
  const Vertex n = topo.num_vertices();
  starts_.reserve(std::size_t{n} + 1);
  for (Vertex v = 0; v < n; ++v) {
    starts_.push_back(text_.size());
    text_ += topo.name(v);
  }
  starts_.push_back(text_.size());
  slots_.assign(std::bit_ceil(2 * std::size_t{n} + 2), kNoVertex);  // at most half full
  const std::size_t mask = slots_.size() - 1;
  for (Vertex v = 0; v < n; ++v) {
    std::size_t i = std::hash<std::string_view>{}(name_of(v)) & mask;
    while (slots_[i] != kNoVertex) i = (i + 1) & mask;
    slots_[i] = v;
  }
}

std::string_view PointNames::name_of(Vertex v) const {
  return std::string_view(text_).substr(starts_[v], starts_[v + 1] - starts_[v]);
}

Vertex PointNames::find(std::string_view name) const {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = std::hash<std::string_view>{}(name)&mask; slots_[i] != kNoVertex;
       i = (i + 1) & mask) {
    if (name_of(slots_[i]) == name) return slots_[i];
  }
  return kNoVertex;
}

Vertex PointNames::at(std::string_view name) const {
  if (const Vertex v = find(name); v != kNoVertex) return v;
  const auto v = topo_.parse_vertex(name);
  if (!v) throw Error(topo_.not_a_point(name));
  throw Error("the point " + quote_input(name) + " is not written " + topo_.name(*v));
}

std::uint64_t PointNames::bytes() const {
  return text_.capacity() + starts_.capacity() * sizeof(std::uint64_t) +
         slots_.capacity() * sizeof(Vertex);
}

std::vector<std::pair<Vertex, Player>> read_position(const PointNames& names, std::string_view text,
                                                     int players) {
  const Topology& t = names.topology();
  std::vector<std::pair<Vertex, Player>> stones;
  const std::size_t parts = name_parts(t);
  std::size_t commas = 0;  // in the name read so far
  int part = 1;
  bool first_of_part = true;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != ',' && text[i] != '/') continue;
    if (i < text.size() && text[i] == ',' && commas + 1 < parts) {
      ++commas;  // (a comma inside a lattice's coordinates)
      continue;
    }
    commas = 0;
    const std::string_view name = text.substr(start, i - start);
    const bool part_ends = i == text.size() || text[i] == '/';
    if (!(name.empty() && first_of_part && part_ends)) {  // (a player with no stones)
      const Vertex v = names.at(name);
      if (!first_of_part && v <= stones.back().first) {
        throw Error("the points are not in the board's order");
      }
      stones.emplace_back(v, static_cast<Player>(part));
      first_of_part = false;
    }
    if (part_ends && i < text.size()) {
      if (++part > players) {
        throw Error("more parts than the " + std::to_string(players) + " players");
      }
      first_of_part = true;
    }
    start = i + 1;
  }
  if (part != players) throw Error("fewer parts than the " + std::to_string(players) + " players");
  std::vector<Vertex> points;
  for (const auto& [v, p] : stones) points.push_back(v);
  std::sort(points.begin(), points.end());
  if (std::adjacent_find(points.begin(), points.end()) != points.end()) {
    throw Error("a point of two players");
  }
  return stones;
}

}  // namespace tanbo::proof

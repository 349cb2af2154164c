// The JSON of the API: the bodies it reads, a game's state and board it answers with, and the
// random ids and tokens.
#include <random>

#include "games.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/players.hpp"
#include "tanbo/core/text.hpp"
#include "tanbo/io/gamefile.hpp"
#include "tanbo/io/sgf.hpp"

namespace tanbo::serve {

namespace {

constexpr int kMaxDepth = 32;  // JSON nesting a request may have

Json colour_or_null(Player p) {
  return p == kEmpty ? Json(nullptr) : Json(std::string(player_name(p)));
}

Json players_json(const LiveGame& g) {
  const Game& game = g.session->game();
  Json players = Json::array();
  for (Player p = 1; p <= game.position.num_players(); ++p) {
    const std::string name = p <= game.names.size() ? game.names[p - 1] : "";
    players.push_back(
        {{"color", std::string(player_name(p))}, {"name", name}, {"kind", g.specs.at(p - 1)}});
  }
  return players;
}

Json moves_json(const Position& pos) {
  const Topology& t = pos.topology();
  Json moves = Json::array();
  for (const MoveRecord& rec : pos.history()) {
    Json m = {{"color", std::string(player_name(rec.player))}};
    if (rec.kind == MoveRecord::Kind::kResign) {
      m["point"] = nullptr;
      m["resign"] = true;
    } else {
      m["point"] = t.name(rec.vertex);
    }
    moves.push_back(std::move(m));
  }
  return moves;
}

Json names_of(const Topology& t, const std::vector<Vertex>& vs) {
  Json names = Json::array();
  for (Vertex v : vs) names.push_back(t.name(v));
  return names;
}

}  // namespace

Json state_json(const LiveGame& g, std::optional<std::uint32_t> ply) {
  const Position& latest = g.session->position();
  const Position pos = ply && *ply < latest.ply() ? position_at(latest, *ply) : latest;
  const Topology& t = pos.topology();
  std::vector<Vertex> all(pos.num_vertices());
  Json stones = Json::object();
  std::vector<std::vector<Vertex>> by_player(static_cast<std::size_t>(pos.num_players()) + 1);
  for (Vertex v = 0; v < pos.num_vertices(); ++v) {
    all[v] = v;
    by_player[pos.at(v)].push_back(v);
  }
  for (Player p = 1; p <= pos.num_players(); ++p) {
    stones[std::string(player_name(p))] = names_of(t, by_player[p]);
  }
  const Player to_move = pos.is_over() ? kEmpty : pos.to_move();
  Json last = nullptr;
  if (pos.ply() > 0 && pos.last_move().kind == MoveRecord::Kind::kPlace) {
    last = t.name(pos.last_move().vertex);
  }
  return {{"id", g.id},
          {"topology", t.spec},
          {"setup", pos.setup().name},
          {"players", players_json(g)},
          {"points", names_of(t, all)},
          {"stones", std::move(stones)},
          {"moves", moves_json(pos)},
          {"ply", pos.ply()},
          {"to_move", colour_or_null(to_move)},
          {"winner", colour_or_null(pos.winner())},
          {"last", std::move(last)},
          {"legal", to_move == kEmpty ? Json::array() : names_of(t, pos.legal_moves(to_move))},
          {"next", g.next.empty() ? Json(nullptr) : Json(g.next)}};
}

Json summary_json(const LiveGame& g) {
  const Position& pos = g.session->position();
  return {{"id", g.id},
          {"topology", pos.topology().spec},
          {"setup", pos.setup().name},
          {"players", players_json(g)},
          {"ply", pos.ply()},
          {"to_move", colour_or_null(pos.is_over() ? kEmpty : pos.to_move())},
          {"winner", colour_or_null(pos.winner())}};
}

std::string json_text(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string export_text(const LiveGame& g, const std::string& format) {
  if (format != "tanbo" && format != "sgf") {
    throw ApiError{400, "format " + quote_input(format) + " is not known: tanbo or sgf"};
  }
  try {
    return format == "sgf" ? write_sgf(g.session->game()) : write_game(g.session->game());
  } catch (const Error& e) {
    throw ApiError{400, e.what()};
  }
}

Json parse_body(const std::string& body) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if ((c == '[' || c == '{') && ++depth > kMaxDepth) {
      throw ApiError{400, "the body nests deeper than " + std::to_string(kMaxDepth) + " levels"};
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  try {
    return Json::parse(body);
  } catch (const Json::exception& e) {  // not JSON, or a number beyond a double's range
    throw ApiError{400, std::string("the body is not JSON: ") + clip_words(e.what())};
  }
}

const std::string& state_text(LiveGame& g) {
  if (g.state_version != g.version()) {
    g.state_text = json_text(state_json(g));
    g.state_version = g.version();
  }
  return g.state_text;
}

Json board_json(const Topology& t) {
  Json b;
  b["kind"] = t.kind == BoardKind::kLattice ? "lattice"
              : t.kind == BoardKind::kHex   ? "hex"
                                            : "graph";
  b["dims"] = t.dims;
  b["wrap"] = t.wrap;
  Json axial = Json::array();
  for (const auto& qr : t.hex_axial) axial.push_back({qr[0], qr[1]});
  b["hex_axial"] = std::move(axial);
  Json positions = Json::array();
  for (const auto& xyz : t.positions) positions.push_back({xyz[0], xyz[1], xyz[2]});
  b["positions"] = std::move(positions);
  Json edges = Json::array();
  Json points = Json::array();
  for (Vertex v = 0; v < t.num_vertices(); ++v) {
    points.push_back(t.name(v));
    for (Vertex w : t.graph.neighbours(v)) {
      if (v < w) edges.push_back({v, w});
    }
  }
  b["edges"] = std::move(edges);
  b["points"] = std::move(points);
  return b;
}

std::string random_id(std::size_t n) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::random_device rd;  // getrandom(2) on Linux
  std::string s;
  while (s.size() < n) {
    std::uint32_t bits = rd();
    for (int i = 0; i < 5 && s.size() < n; ++i, bits >>= 6) s += kAlphabet[bits & 63];
  }
  return s;
}

std::string random_token() {
  static constexpr char kHex[] = "0123456789abcdef";
  std::random_device rd;
  std::string s;
  for (int i = 0; i < 4; ++i) {
    std::uint32_t bits = rd();
    for (int j = 0; j < 8; ++j, bits >>= 4) s += kHex[bits & 15];
  }
  return s;
}

bool same_secret(const std::string& a, const std::string& b) {
  // Every byte of `b` is compared, whatever `a` holds, and the differences are OR-ed.
  unsigned diff = a.size() == b.size() ? 0 : 1;
  for (std::size_t i = 0; i < b.size(); ++i) {
    const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    diff |= x ^ static_cast<unsigned char>(b[i]);
  }
  return diff == 0;
}

}  // namespace tanbo::serve

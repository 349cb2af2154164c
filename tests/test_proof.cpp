// Proof certificates: what the solver writes passes the independent checker, and a certificate
// with a move changed, a line removed or the wrong winner fails it, naming the position.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <sstream>

#include "tanbo/ai/proof_writer.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/setup.hpp"
#include "tanbo/core/topology.hpp"
#include "tanbo/platform/memory.hpp"
#include "tanbo/proof/position_set.hpp"
#include "tanbo/proof/proof.hpp"
#include "test_support.hpp"

using namespace tanbo;

namespace {

Player solved_winner(const Position& pos) {
  Solver solver(test::small_solver());
  const SolveResult r = solver.solve(pos);
  EXPECT_TRUE(r.solved);
  return r.winner;
}

proof::CheckResult check_text(const std::string& text,
                              proof::CheckMemory memory = proof::CheckMemory::kAll) {
  std::istringstream in(text);
  return proof::check(in, {}, 0, memory);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

// The certificate of the start of a board, with its check.
std::string proven(const std::string& spec, const std::string& setup = "default") {
  const Position pos = test::make(spec, setup);
  const Player winner = solved_winner(pos);
  ProofStats stats;
  const std::string text = write_proof(pos, winner, test::small_solver(), {}, &stats);
  const auto r = check_text(text);
  EXPECT_TRUE(r.valid) << spec << ": " << r.reason;
  EXPECT_EQ(r.winner, winner) << spec;
  EXPECT_EQ(r.listed, stats.lines) << spec;
  EXPECT_EQ(r.winner_nodes, stats.lines) << spec;
  return text;
}

}  // namespace

TEST(Proof, CertificatesOfSolvedBoardsPassTheChecker) {
  for (const char* spec :
       {"grid 4x4", "grid 3x3", "hex 3", "grid 2x2x3", "line 5", "line 12", "line 17"}) {
    SCOPED_TRACE(spec);
    const auto text = proven(spec);
    EXPECT_EQ(lines_of(text).at(0), "tanbo-proof 1");
    EXPECT_EQ(lines_of(text).at(1), std::string("topology ") + spec);
  }
}

TEST(Proof, PositionsAreListedInTheFormatOfTheContract) {
  const Position pos = test::make("grid 4x4", "spaced");
  std::vector<Player> stones(pos.num_vertices());
  for (Vertex v = 0; v < stones.size(); ++v) stones[v] = pos.at(v);
  EXPECT_EQ(proof::position_text(pos.topology(), stones, 2), "A1,D4/D1,A4");
}

TEST(Proof, APositionInTheMiddleOfAGameIsProvenFromItsMoves) {
  std::mt19937 rng(7);
  for (int game = 0; game < 6; ++game) {
    Position pos = test::make("grid 4x4", "spaced");
    for (int i = 0; i < 3 + game && !pos.is_over(); ++i) {
      const auto moves = pos.legal_moves(pos.to_move());
      pos.play(moves[rng() % moves.size()]);
    }
    if (pos.is_over()) continue;
    const Player winner = solved_winner(pos);
    const std::string text = write_proof(pos, winner, test::small_solver(), {});
    const auto lines = lines_of(text);
    EXPECT_NE(lines.at(3), "moves");  // the moves played are in the header
    const auto r = check_text(text);
    EXPECT_TRUE(r.valid) << r.reason;
  }
}

TEST(Proof, ACorruptedCertificateFailsWithThePositionThatBreaksIt) {
  const std::string good = proven("grid 4x4", "spaced");
  const auto lines = lines_of(good);
  ASSERT_GT(lines.size(), 20u);
  // A line removed: the position it listed is reached and missing.
  for (std::size_t drop : {std::size_t{5}, std::size_t{12}, lines.size() - 1}) {
    auto cut = lines;
    const std::string position = cut[drop].substr(0, cut[drop].rfind(' '));
    cut.erase(cut.begin() + static_cast<std::ptrdiff_t>(drop));
    const auto r = check_text(joined(cut));
    EXPECT_FALSE(r.valid);
    EXPECT_NE(r.reason.find(position), std::string::npos) << r.reason;
  }
  // A move changed: to a point that is not legal, or to a legal move that does not win.
  int refuted = 0;
  for (std::size_t i = 5; i < lines.size(); ++i) {
    for (const std::string point : {"A1", "B2", "C3", "B1", "C1", "A2", "A3", "D2", "D3"}) {
      auto changed = lines;
      changed[i] = changed[i].substr(0, changed[i].rfind(' ')) + " " + point;
      if (changed[i] == lines[i]) continue;
      const auto r = check_text(joined(changed));
      if (r.valid) continue;  // another winning move: still a proof
      ++refuted;
      EXPECT_FALSE(r.reason.empty());
      EXPECT_NE(r.reason.find("position"), std::string::npos) << r.reason;
    }
    if (refuted > 20) break;
  }
  EXPECT_GT(refuted, 20);
  // The loser named as the winner.
  auto wrong = lines;
  wrong[4] = wrong[4] == "winner white" ? "winner black" : "winner white";
  EXPECT_FALSE(check_text(joined(wrong)).valid);
}

TEST(Proof, CheckingWithLowMemoryGivesTheSameAnswerAndTheSameBreakingPosition) {
  std::uint64_t repeats = 0;  // positions of the loser checked again with low memory
  for (const auto& [spec, setup] : std::vector<std::pair<std::string, std::string>>{
           {"grid 4x4", "spaced"}, {"hex 3", "default"}, {"grid 3x3x2", "spaced"}}) {
    SCOPED_TRACE(spec);
    const auto lines = lines_of(proven(spec, setup));
    const auto all = check_text(joined(lines));
    const auto low = check_text(joined(lines), proof::CheckMemory::kLow);
    EXPECT_TRUE(low.valid) << low.reason;
    EXPECT_EQ(low.winner_nodes, all.winner_nodes);
    EXPECT_EQ(low.listed, all.listed);
    EXPECT_GE(low.checked, all.checked);
    repeats += low.checked - all.checked;
    // Broken certificates: lines some way apart dropped one at a time, or given the next line's
    // move; both ways name the same position, or both find the certificate valid. (16 lines a
    // board under AddressSanitizer, 40 without: each is four checks of the whole certificate.)
    const std::size_t tried = TANBO_ASAN ? 16 : 40;
    for (std::size_t i = 5; i < lines.size(); i += std::max<std::size_t>(1, lines.size() / tried)) {
      auto cut = lines;
      cut.erase(cut.begin() + static_cast<std::ptrdiff_t>(i));
      const std::string& other = lines[i + 1 < lines.size() ? i + 1 : 5];
      auto changed = lines;
      changed[i] = lines[i].substr(0, lines[i].rfind(' ')) + other.substr(other.rfind(' '));
      for (const auto& text : {joined(cut), joined(changed)}) {
        const auto a = check_text(text);
        const auto b = check_text(text, proof::CheckMemory::kLow);
        EXPECT_EQ(a.valid, b.valid) << i;
        EXPECT_EQ(a.reason, b.reason) << i;
      }
    }
  }
  EXPECT_GT(repeats, 0u);  // (the boards have positions reached from two listed ones)
}

TEST(Proof, TextThatIsNotACertificateIsRefusedWithTheLine) {
  auto refused = [](const std::string& text) {
    try {
      check_text(text);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(refused(""), "not a proof certificate: the first line must be \"tanbo-proof 1\"");
  EXPECT_EQ(refused("tanbo-proof 2\n"),
            "not a proof certificate: the first line must be \"tanbo-proof 1\"");
  EXPECT_EQ(refused("tanbo-proof 1\ntopology grid 4x4\n"),
            "the certificate ends before its \"setup\" line");
  EXPECT_EQ(refused("tanbo-proof 1\ntopology grid 4x4\nsetup spaced\nmoves Z9\nwinner white\n")
                .substr(0, 7),
            "line 4:");
  EXPECT_EQ(refused("tanbo-proof 1\ntopology grid 4x4\nsetup spaced\nmoves\nwinner mauve\n"),
            "line 5: the winner is not a player");
  EXPECT_EQ(refused("tanbo-proof 1\ntopology grid 4x4\nsetup spaced\nmoves\nwinner white\nA1\n"),
            "line 6: expected \"POSITION MOVE\", found \"A1\"");
  EXPECT_EQ(refused("tanbo-proof 1\ntopology grid 4x4\nsetup spaced\nmoves\nwinner white\n"
                    "A1/D1 B1\nA1/D1 C1\n"),
            "line 7: the position of line 6 is listed again with another move");
}

TEST(Proof, PositionsNotWrittenAsTheFormatSaysAreRefused) {
  // Each position has one text: the players' parts in turn order, each part's points by their
  // names in the board's vertex order. Any other text is refused with its line, as is a
  // certificate that names no setup.
  const auto refused = [](const std::string& lines, const std::string& setup = "spaced") {
    try {
      check_text("tanbo-proof 1\ntopology grid 4x4\nsetup " + setup + "\nmoves\nwinner white\n" +
                 lines);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(refused("A1/D1 B1\n"), "(accepted)");
  EXPECT_EQ(refused("/D1 B1\nA1/ B1\n"), "(accepted)");
  EXPECT_EQ(refused("A1,Z9/D1 B1\n"), "line 6: " + parse_topology("grid 4x4")->not_a_point("Z9") +
                                          " in the position \"A1,Z9/D1\"");
  EXPECT_EQ(refused("A1/D1/B2 B1\n"),
            "line 6: more parts than the 2 players in the position \"A1/D1/B2\"");
  EXPECT_EQ(refused("A1,D1 B1\n"),
            "line 6: fewer parts than the 2 players in the position \"A1,D1\"");
  EXPECT_EQ(refused("a1/D1 B1\n"),
            "line 6: the point \"a1\" is not written A1 in the position \"a1/D1\"");
  EXPECT_EQ(refused("B1,A1/D1 C1\n"),
            "line 6: the points are not in the board's order in the position \"B1,A1/D1\"");
  EXPECT_EQ(refused("A1,A1/D1 C1\n"),
            "line 6: the points are not in the board's order in the position \"A1,A1/D1\"");
  EXPECT_EQ(refused("A1/A1 B1\n"), "line 6: a point of two players in the position \"A1/A1\"");
  EXPECT_EQ(refused("A1,,B1/D1 C1\n").substr(0, 8), "line 6: ");
  EXPECT_EQ(refused(std::string("A1\0/D1 B1\n", 11)).substr(0, 8), "line 6: ");
  EXPECT_EQ(refused("", ""), "line 3: no setup named");
  // The move too is written as the board names it (it was once read in any spelling the
  // board's parser takes: a tab before it, lower case, a leading zero).
  EXPECT_EQ(refused("A1/D1 b1\n"), "line 6: the move \"b1\" is not written B1");
  EXPECT_EQ(refused("A1/D1 \tB1\n"), "line 6: the move \"\\tB1\" is not written B1");
  EXPECT_EQ(refused("A1/D1 B01\n"), "line 6: the move \"B01\" is not written B1");
}

// Moves that end the game leave nothing to prove: the check says so with the position and
// who won there (it once said only that the game was over), for the true winner as for the
// other.
TEST(Proof, MovesThatEndTheGameAreRefusedWithThePosition) {
  for (const char* winner : {"black", "white"}) {
    const auto r = check_text(std::string("tanbo-proof 1\ntopology line 4\nsetup spaced\n") +
                              "moves 2 3\nwinner " + winner + "\n");
    EXPECT_FALSE(r.valid);
    EXPECT_EQ(r.reason,
              "the game is already over after the moves 2 3: black won it, at the position 1,2/ "
              "(a certificate proves a win from a position where the game goes on)");
  }
}

TEST(Proof, ASetupThatIsNoGameIsRefused) {
  // The engine refuses a starting position whose seeds touch or have no room; the checker,
  // which applies the rules on its own, refuses it too.
  const auto refusal = [](const std::string& dot) {
    const std::string path = test::temp_file("setup.dot", dot);
    try {
      check_text("tanbo-proof 1\ntopology file " + path + "\nsetup file\nmoves\nwinner white\n");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(refusal("graph g { a -- b -- c -- d -- e; a [stone=black]; b [stone=black];"
                    " e [stone=white]; }"),
            "the setup's seed at a touches another of its colour");
  EXPECT_EQ(refusal("graph g { a -- b -- d; a -- c -- e; a [stone=black]; b [stone=white];"
                    " c [stone=white]; }"),
            "the setup's seed at a has no root space");
}

TEST(Proof, ACertificateOfAHugeBoardFailsAtItsFirstPosition) {
  // Nothing listed on a board of a million points: the checker follows Black's first move,
  // finds White's position missing and stops there, without making Black's other replies (a
  // copy of the board each: gigabytes for the 10,000 of them). The position in the message is
  // cut short.
  const auto r =
      check_text("tanbo-proof 1\ntopology grid 1000x1000\nsetup spaced\nmoves\nwinner white\n");
  EXPECT_FALSE(r.valid);
  EXPECT_EQ(r.checked, 2u);
  EXPECT_NE(r.reason.find("... ("), std::string::npos);
  EXPECT_LT(r.reason.size(), 1200u);
  EXPECT_NE(r.reason.find("(white to move) is not listed"), std::string::npos) << r.reason;
}

// The line of play the check follows holds a copy of the board a ply, counted against the
// memory limit as the positions kept are: on a long path with two seeds, a line of 2,000
// plies is 40 MB of boards but only a few MB of keys (few stones, a byte each), so a
// certificate of a few MB once took memory far past the limit it was checked under.
TEST(Proof, TheLineOfPlayFollowedIsCountedAgainstTheMemoryLimit) {
  constexpr int kPoints = 20000, kPlies = 2000;
  std::string dot = "graph path {\n n0 [stone=1]; n" + std::to_string(kPoints - 1) + " [stone=2]\n";
  for (int i = 0; i + 1 < kPoints; ++i) {
    dot += " n" + std::to_string(i) + " -- n" + std::to_string(i + 1) + "\n";
  }
  dot += "}\n";
  const auto topo = make_from_dot(dot, "path.dot");
  Position pos(topo, make_setup(*topo, "file"));
  std::string text = proof_header(pos, kBlack);
  // Each side's first legal move in the board's order (one a side here), which the check
  // follows first for White; Black's listed, until the line stops being listed.
  for (int ply = 0; ply < kPlies; ++ply) {
    ASSERT_FALSE(pos.is_over());
    const auto moves = pos.legal_moves(pos.to_move());
    ASSERT_FALSE(moves.empty());
    const Vertex move = *std::min_element(moves.begin(), moves.end());
    if (pos.to_move() == kBlack) text += proof_position(pos) + " " + topo->name(move) + "\n";
    pos.play(move);
  }
  // Without a limit to speak of the line is followed to its end, where a position is missing.
  const char* before = std::getenv("TANBO_MAX_MEMORY");
  const std::string saved = before ? before : "";
  ::setenv("TANBO_MAX_MEMORY", "16G", 1);
  const auto r = check_text(text);
  EXPECT_FALSE(r.valid);
  EXPECT_NE(r.reason.find("(black to move) is not listed"), std::string::npos) << r.reason;
  EXPECT_GE(r.checked, static_cast<std::uint64_t>(kPlies));
  // Under 24 MB the boards of the line pass the room, and the check says so.
  ::setenv("TANBO_MAX_MEMORY", "24M", 1);
  std::string refusal;
  try {
    check_text(text);
  } catch (const Error& e) {
    refusal = e.what();
  }
  if (before) {
    ::setenv("TANBO_MAX_MEMORY", saved.c_str(), 1);
  } else {
    ::unsetenv("TANBO_MAX_MEMORY");
  }
  EXPECT_NE(refusal.find("checking this certificate would need about"), std::string::npos)
      << refusal;
}

// Keys are exact: along random games on boards small and large, of two and three players, two
// positions share a key only when they have the same stones and side to move, and a key read
// from the text's stones is the key of the stones themselves.
TEST(Proof, PositionKeysTellEveryPositionApart) {
  std::mt19937 rng(11);
  for (const auto& [spec, setup] : std::vector<std::pair<std::string, std::string>>{
           {"grid 4x4", "spaced"}, {"hex 3", "default"}, {"grid 30x30", "default"}}) {
    SCOPED_TRACE(spec);
    std::map<std::string, std::string> seen;  // key -> the position's text and side to move
    std::string key, again;
    for (int game = 0; game < 20; ++game) {
      Position pos = test::make(spec, setup);
      const proof::PointNames names(pos.topology());
      while (!pos.is_over()) {
        std::vector<Player> stones(pos.num_vertices());
        for (Vertex v = 0; v < stones.size(); ++v) stones[v] = pos.at(v);
        const std::string text = proof::position_text(pos.topology(), stones, 2);
        for (Player to_move : {kBlack, kWhite}) {
          proof::position_key(stones, 2, to_move, key);
          const auto read = proof::read_position(names, text, 2);
          proof::position_key(read, stones.size(), 2, to_move, again);
          EXPECT_EQ(key, again);
          const std::string what = text + " " + std::to_string(to_move);
          const auto [it, fresh] = seen.emplace(key, what);
          EXPECT_TRUE(fresh || it->second == what) << it->second << " and " << what;
        }
        const auto moves = pos.legal_moves(pos.to_move());
        pos.play(moves[rng() % moves.size()]);
      }
    }
    EXPECT_GT(seen.size(), 200u);
  }
  // A key of two bits a point where that is shorter (a full 4x4), of gaps where it is not.
  std::string full, sparse;
  std::vector<Player> stones(16, kBlack);
  proof::position_key(stones, 2, kBlack, full);
  EXPECT_EQ(full.size(), 1u + 4u);
  std::vector<Player> one(1'000'000, kEmpty);
  one[999'999] = kWhite;
  proof::position_key(one, 2, kBlack, sparse);
  EXPECT_LT(sparse.size(), 8u);
}

// The set keeps every key once with its value, through many doublings of its table.
TEST(Proof, APositionSetKeepsEachKeyOnceWithItsValue) {
  proof::PositionSet set(sizeof(std::uint64_t));
  std::mt19937_64 rng(3);
  std::vector<std::string> keys;
  for (int i = 0; i < 200'000; ++i) {
    std::string k(1 + rng() % 40, '\0');
    for (char& c : k) c = static_cast<char>(rng() % 4);  // short alphabets: many near misses
    keys.push_back(std::move(k));
  }
  std::map<std::string, std::uint64_t> want;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto [value, fresh] = set.insert(keys[i]);
    const bool new_key = want.emplace(keys[i], i).second;
    EXPECT_EQ(fresh, new_key);
    if (fresh) std::memcpy(value, &i, sizeof i);
  }
  EXPECT_EQ(set.size(), want.size());
  for (const auto& [k, i] : want) {
    const std::byte* value = set.find(k);
    ASSERT_NE(value, nullptr);
    std::uint64_t got = 0;
    std::memcpy(&got, value, sizeof got);
    EXPECT_EQ(got, i);
  }
  EXPECT_EQ(set.find(std::string(41, '\1')), nullptr);
  EXPECT_EQ(set.find(""), nullptr);
  const std::string huge(std::size_t{20} << 20, '\2');  // a key larger than a block
  EXPECT_TRUE(set.insert(huge).second);
  EXPECT_NE(set.find(huge), nullptr);
  EXPECT_FALSE(set.insert(huge).second);
}

// A certificate written with the solver of the solve itself (its table as the solve left it)
// passes the checker, and the solver's options come back unchanged.
TEST(Proof, ACertificateFromTheSolversOwnTablePassesTheChecker) {
  const Position pos = test::make("grid 5x5", "spaced");
  SolverOptions o = test::small_solver();
  o.all_moves = true;
  o.threads = 2;
  Solver solver(o);
  const SolveResult r = solver.solve(pos);
  ASSERT_TRUE(r.solved);
  std::string text;
  std::size_t pieces = 0;
  const ProofStats stats = write_proof(solver, pos, r.winner, {}, [&](std::string_view piece) {
    text += piece;
    ++pieces;
  });
  EXPECT_GT(pieces, 0u);
  const auto check = check_text(text);
  EXPECT_TRUE(check.valid) << check.reason;
  EXPECT_EQ(check.listed, stats.lines);
  EXPECT_TRUE(solver.options().all_moves);
  EXPECT_EQ(solver.options().threads, 2);
  SolverOptions other = o;
  other.table_bytes *= 2;
  EXPECT_THROW(solver.set_options(other), Error);
}

// The names a certificate's positions are read by: every point of boards of each notation by
// the name the board writes, and nothing else (another case, leading zeros, a point off the
// board), with the reason.
TEST(Proof, PointsAreFoundByTheNamesTheBoardWrites) {
  for (const char* spec : {"grid 5x5", "grid 30x30", "grid 3x3x3", "grid 2x2x3x2", "hex 4",
                           "line 40", "grid 4x4 wrap"}) {
    const Position pos = test::make(spec, std::string(spec) == "hex 4" ? "hexbo" : "spaced");
    const Topology& t = pos.topology();
    const proof::PointNames names(t);
    for (Vertex v = 0; v < t.num_vertices(); ++v) {
      ASSERT_EQ(names.find(t.name(v)), v) << spec << " " << t.name(v);
      ASSERT_EQ(names.at(t.name(v)), v) << spec << " " << t.name(v);
    }
    EXPECT_EQ(names.find(""), kNoVertex) << spec;
    EXPECT_EQ(names.find(t.name(0) + "/"), kNoVertex) << spec;
    EXPECT_EQ(names.find(" " + t.name(0)), kNoVertex) << spec;
    EXPECT_GT(names.bytes(), 0u);
  }
  const Position pos = test::make("grid 5x5", "spaced");
  const proof::PointNames names(pos.topology());
  EXPECT_EQ(names.find("b1"), kNoVertex);
  EXPECT_EQ(names.find("B01"), kNoVertex);
  try {
    names.at("b1");
    ADD_FAILURE() << "b1 was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("is not written B1"), std::string::npos) << e.what();
  }
  EXPECT_THROW(names.at("Z9"), Error);
}

// On a lattice named by coordinates (here four of them) the names' own commas are read as part
// of each name, so its certificates are checked like any other; a DOT board whose node ids
// hold ',' or '/' gets no certificate, since its positions could not be read back.
TEST(Proof, NamesWithCommasAreReadAsTheBoardWritesThem) {
  const auto text = proven("grid 2x2x3x2");
  EXPECT_NE(text.find("1,1,1,1/1,1,3,1"), std::string::npos);
  const Position pos = test::make("grid 2x2x3x2", "spaced");
  const proof::PointNames names(pos.topology());
  const auto stones = proof::read_position(names, "1,1,1,1,2,2,3,2/1,1,3,1", 2);
  ASSERT_EQ(stones.size(), 3u);
  EXPECT_EQ(pos.topology().name(stones[1].first), "2,2,3,2");
  EXPECT_THROW(proof::read_position(names, "1,1,1/1,1,3,1", 2), Error);
  EXPECT_THROW(proof::read_position(names, "1,1,1,1,2/1,1,3,1", 2), Error);

  const std::string dot =
      "graph g {\n \"a,b\" [stone=black]; f [stone=white];\n"
      " \"a,b\" -- c -- d -- f -- g -- h -- \"a,b\"\n c -- f\n}\n";
  const Position odd = test::make("file " + test::temp_file("odd.dot", dot), "file");
  try {
    write_proof(odd, kBlack, test::small_solver(), {});
    ADD_FAILURE() << "a certificate was written";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("\"a,b\""), std::string::npos) << e.what();
  }
}

// The worked figures of the rule documents, move by move and stone by stone.
//
// Diagrams: tests/data/figures/steere1995_*.txt (Mark Steere's 1995 post, seeds/000_*) and
// pbmserv_*.txt (the pbmserv help page, seeds/002_*). A figure that shows a move already placed
// (">x<") is loaded without that stone, the move is played, and the result is compared point by
// point with the figure that follows it.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "figure_diagram.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/random.hpp"
#include "tanbo/platform/memory.hpp"
#include "test_support.hpp"

using namespace tanbo;
using test::Diagram;
using test::load_diagram;

namespace {

Position load(const Diagram& d, Player to_move, bool without_marked = false) {
  return Position::from_stones(d.topology, d.players, without_marked ? d.before_move() : d.stones,
                               to_move);
}

std::vector<std::string> names(const Position& pos, const std::vector<Vertex>& vs) {
  std::vector<std::string> out;
  for (Vertex v : vs) out.push_back(pos.topology().name(v));
  return out;
}

// Plays the marked move of `before` and checks the result against `after`; returns the record.
MoveRecord play_figure(const std::string& before_file, const std::string& after_file,
                       const std::string& move, Player mover, Position* result = nullptr) {
  const Diagram before = load_diagram(before_file);
  const Diagram after = load_diagram(after_file);
  EXPECT_EQ(before.topology->name(before.marked), move) << before_file << " marks another move";
  Position pos = load(before, mover, /*without_marked=*/true);
  EXPECT_EQ(pos.check_consistency(), "") << before_file << " before the move";
  const test::Snapshot start = test::snapshot(pos);
  EXPECT_EQ(pos.check_move(mover, before.marked), MoveStatus::kLegal)
      << pos.explain(mover, before.marked);
  const MoveRecord rec = pos.play_checked(mover, before.marked);
  EXPECT_EQ(test::diff_against(pos, after), "") << before_file << " -> " << after_file;
  EXPECT_EQ(pos.check_consistency(), "") << "after " << move;
  const MoveRecord copy = rec;
  Position played = pos;
  pos.undo();
  EXPECT_TRUE(test::snapshot(pos) == start)
      << "undo of " << move << " does not restore " << before_file;
  EXPECT_EQ(pos.check_consistency(), "") << "after undo of " << move;
  if (result) *result = played;
  return copy;
}

}  // namespace

// ---------------------------------------------------------------- the diagrams themselves

TEST(Figures, SetupFiguresHaveSixteenSeeds) {
  for (const char* f : {"steere1995_A.txt", "pbmserv_A.txt"}) {
    const Diagram d = load_diagram(f);
    EXPECT_EQ(d.stones.size(), 16u) << f;
    EXPECT_EQ(
        std::count_if(d.stones.begin(), d.stones.end(), [](auto& s) { return s.second == kBlack; }),
        8)
        << f;
  }
  EXPECT_EQ(load_diagram("steere1995_O.txt").stones.size(), 4u);
}

TEST(Figures, PlayedFiguresAreReachablePositions) {
  // Every figure of a game in progress loads as a position with tree roots, none bounded.
  for (const char* f :
       {"steere1995_B.txt", "steere1995_C.txt", "steere1995_E.txt", "steere1995_H.txt",
        "steere1995_J.txt", "steere1995_L.txt", "pbmserv_E.txt"}) {
    const Diagram d = load_diagram(f);
    Position pos = load(d, kBlack);
    EXPECT_EQ(pos.check_consistency(), "") << f;
    EXPECT_FALSE(pos.is_over()) << f;
  }
  // Figures B and C: "16 roots" (8 a side) still on the board.
  for (const char* f : {"steere1995_B.txt", "steere1995_C.txt"}) {
    Position pos = load(load_diagram(f), kBlack);
    EXPECT_EQ(pos.roots_alive(kBlack), 8u) << f;
    EXPECT_EQ(pos.roots_alive(kWhite), 8u) << f;
  }
}

TEST(Figures, FigureDIsAWhiteWin) {
  Position pos = load(load_diagram("steere1995_D.txt"), kWhite);
  EXPECT_TRUE(pos.is_over());
  EXPECT_EQ(pos.winner(), kWhite);
  EXPECT_EQ(pos.stones(kBlack), 0u);
}

TEST(Figures, FigureFImpossibleFormationsAreRefused) {
  // Figure F shows closed loops and clumps; no game reaches them, and loading refuses them.
  const Diagram d = load_diagram("steere1995_F.txt");
  try {
    Position::from_stones(d.topology, 2, d.stones, kBlack);
    ADD_FAILURE() << "Figure F was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("closed loop or clump"), std::string::npos) << e.what();
  }
  // A closed loop of its own, eight white stones around H8, is refused too.
  std::vector<std::pair<Vertex, Player>> ring;
  for (const char* n : {"G9", "H9", "J9", "J8", "J7", "H7", "G7", "G8", "A1"}) {
    ring.emplace_back(d.at(n), kWhite);
  }
  ring.emplace_back(d.at("T19"), kBlack);
  EXPECT_THROW(Position::from_stones(d.topology, 2, ring, kBlack), Error);
}

TEST(Figures, LoadingRefusesBoundedRootsAndBadInput) {
  auto t = parse_topology("grid 3x3");
  auto v = [&](const char* n) { return *t->parse_vertex(n); };
  // A White stone in the corner walled in by Black: no root space.
  try {
    Position::from_stones(t, 2, {{v("A1"), kWhite}, {v("A2"), kBlack}, {v("B1"), kBlack}}, kBlack);
    ADD_FAILURE() << "bounded root accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "the position has a bounded root: the White root of 1 stone at A1 has no root space");
  }
  EXPECT_THROW(Position::from_stones(t, 2, {{v("A1"), kBlack}, {v("A1"), kWhite}}, kBlack), Error);
  EXPECT_THROW(Position::from_stones(t, 2, {{v("A1"), 3}}, kBlack), Error);
  EXPECT_THROW(Position::from_stones(t, 2, {{99, kBlack}}, kBlack), Error);
  EXPECT_THROW(Position::from_stones(t, 2, {}, kBlack), Error);
  EXPECT_THROW(Position::from_stones(t, 1, {{v("A1"), kBlack}}, kBlack), Error);
  // White to move without stones.
  EXPECT_THROW(Position::from_stones(t, 3, {{v("A1"), kBlack}, {v("C3"), 3}}, kWhite), Error);
  // Roots and seeds: the lowest-numbered stone of each component is its seed.
  Position pos = Position::from_stones(
      t, 2, {{v("C1"), kBlack}, {v("B1"), kBlack}, {v("C3"), kWhite}}, kWhite);
  EXPECT_EQ(pos.to_move(), kWhite);
  ASSERT_EQ(pos.num_root_ids(), 2u);
  EXPECT_EQ(pos.root_seed(0), v("B1"));
  EXPECT_EQ(pos.root_size(0), 2u);
  EXPECT_EQ(pos.root_seed(1), v("C3"));
  EXPECT_EQ(pos.setup().name, "position");
  EXPECT_EQ(pos.check_consistency(), "");
}

// A position reached by play and the same stones loaded with from_stones are the same position:
// same legal moves, roots (up to numbering), hash; and they go on the same way.
TEST(Figures, LoadedPositionsMatchPlayedOnes) {
  Rng rng(1995);
  auto roots_of = [](const Position& pos) {
    std::multiset<std::tuple<Player, std::uint32_t, std::uint32_t, std::vector<Vertex>>> out;
    for (RootId r : pos.live_roots()) {
      out.emplace(pos.root_owner(r), pos.root_size(r), pos.root_space(r), pos.root_stones(r));
    }
    return out;
  };
  for (const char* spec : {"grid 9x9", "grid 5x5x5", "hex 5", "line 31"}) {
    for (int game = 0; game < 20; ++game) {
      Position played =
          test::make(spec, "default", game % 2 && std::string(spec) == "hex 5" ? 3 : 0);
      const std::uint32_t moves = rng.below(80);
      for (std::uint32_t i = 0; i < moves && !played.is_over(); ++i)
        played.play(random_move(played, rng));
      Position loaded = Position::from_stones(played.topology_ptr(), played.num_players(),
                                              test::stones_of(played),
                                              played.is_over() ? kBlack : played.to_move());
      ASSERT_EQ(loaded.check_consistency(), "") << spec;
      EXPECT_EQ(loaded.is_over(), played.is_over());
      EXPECT_EQ(loaded.winner(), played.winner());
      EXPECT_EQ(loaded.hash(), played.hash()) << spec;
      EXPECT_EQ(roots_of(loaded), roots_of(played)) << spec;
      for (int p = 1; p <= played.num_players(); ++p) {
        const auto pl = static_cast<Player>(p);
        EXPECT_EQ(loaded.legal_moves(pl), played.legal_moves(pl));
        EXPECT_EQ(loaded.is_out(pl), played.is_out(pl));
      }
      // Continue both with the same moves.
      while (!played.is_over()) {
        const Vertex v = random_move(played, rng);
        played.play(v);
        ASSERT_EQ(loaded.check_move(loaded.to_move(), v), MoveStatus::kLegal);
        loaded.play(v);
        ASSERT_EQ(loaded.hash(), played.hash());
      }
      EXPECT_EQ(loaded.winner(), played.winner());
      EXPECT_EQ(loaded.check_consistency(), "");
    }
  }
}

// ---------------------------------------------------------------- Figure E

TEST(Figures, FigureE1995LegalAndIllegalMovesForWhite) {
  const Diagram d = load_diagram("steere1995_E.txt");
  Position pos = load(d, kWhite);
  ASSERT_EQ(pos.check_consistency(), "");
  for (const char* m : {"B19", "A15", "L17", "H12"}) {
    EXPECT_EQ(pos.check_move(kWhite, d.at(m)), MoveStatus::kLegal) << m;
  }
  for (const char* m : {"Q13", "H9", "M10", "S10"}) {
    EXPECT_EQ(pos.check_move(kWhite, d.at(m)), MoveStatus::kNoConnection) << m;
  }
  for (const char* m : {"E6", "P7", "F2", "H2"}) {
    EXPECT_EQ(pos.check_move(kWhite, d.at(m)), MoveStatus::kTooMany) << m;
  }
  // "E6 ... connects to two white stones; one directly above and the other directly below."
  EXPECT_EQ(pos.explain(kWhite, d.at("E6")),
            "E6 touches 2 White stones: E5, E7 (a stone must touch exactly one of its own colour)");
  // "F2 ... connects to four white stones: above, below, to the left, and to the right."
  EXPECT_EQ(pos.neighbours_of(d.at("F2"), kWhite), 4u);
  EXPECT_EQ(pos.explain(kWhite, d.at("Q13")), "no White stone touches Q13");
  // The same points for Black are judged by Black's stones.
  EXPECT_EQ(pos.neighbours_of(d.at("H9"), kBlack), 1u);
}

TEST(Figures, FigureE1995RootSpaceAndBounding) {
  const Diagram d = load_diagram("steere1995_E.txt");
  {
    // "Point L4 is the only point of root space for the small black root."
    Position pos = load(d, kWhite);
    const RootId small = pos.root_of(d.at("L3"));
    EXPECT_EQ(names(pos, pos.root_stones(small)),
              (std::vector<std::string>{"N1", "L2", "M2", "N2", "L3"}));
    EXPECT_EQ(names(pos, pos.root_space_points(small)), std::vector<std::string>{"L4"});
    // "If white adds a stone to point L4, white ... bounds it": it is removed.
    const MoveRecord rec = pos.play_checked(kWhite, d.at("L4"));
    EXPECT_FALSE(rec.expanded_removed);
    EXPECT_EQ(rec.removed_end - rec.removed_begin, 1u);
    EXPECT_EQ(rec.stones_removed, 5u);
    EXPECT_FALSE(pos.root_alive(small));
    for (const char* n : {"N1", "L2", "M2", "N2", "L3"}) EXPECT_EQ(pos.at(d.at(n)), kEmpty) << n;
    EXPECT_EQ(pos.at(d.at("L4")), kWhite);
    EXPECT_EQ(pos.check_consistency(), "");
  }
  {
    // "White could bound one of his own roots by moving to point S3."
    Position pos = load(d, kWhite);
    const RootId own = pos.root_of(d.at("S2"));
    EXPECT_EQ(names(pos, pos.root_space_points(own)), std::vector<std::string>{"S3"});
    const std::uint32_t white_before = pos.stones(kWhite);
    const MoveRecord rec = pos.play_checked(kWhite, d.at("S3"));
    EXPECT_TRUE(rec.expanded_removed);
    EXPECT_EQ(rec.expanded, own);
    EXPECT_EQ(rec.removed_end - rec.removed_begin, 1u);
    EXPECT_EQ(rec.stones_removed, 4u);  // T1, S2, T2 and the new S3
    EXPECT_EQ(pos.stones(kWhite), white_before - 3);
    for (const char* n : {"T1", "S2", "T2", "S3"}) EXPECT_EQ(pos.at(d.at(n)), kEmpty) << n;
    EXPECT_EQ(pos.check_consistency(), "");
  }
}

TEST(Figures, FigureEPbmservLegalAndIllegalMovesForWhite) {
  // The pbmserv page prints another Figure E with its own lists.
  const Diagram d = load_diagram("pbmserv_E.txt");
  Position pos = load(d, kWhite);
  ASSERT_EQ(pos.check_consistency(), "");
  for (const char* m : {"T18", "P19", "R9", "M12"}) {
    EXPECT_EQ(pos.check_move(kWhite, d.at(m)), MoveStatus::kLegal) << m;
  }
  for (const char* m : {"N4", "J12", "K8", "K2"}) {
    EXPECT_EQ(pos.check_move(kWhite, d.at(m)), MoveStatus::kNoConnection) << m;
  }
  for (const char* m : {"F15", "G5", "B14", "B12"}) {
    EXPECT_EQ(pos.check_move(kWhite, d.at(m)), MoveStatus::kTooMany) << m;
  }
  // "F15 ... one white stone directly to the left and the other directly to the right."
  EXPECT_EQ(
      pos.explain(kWhite, d.at("F15")),
      "F15 touches 2 White stones: E15, G15 (a stone must touch exactly one of its own colour)");
  // "B14 ... connects to four white stones."
  EXPECT_EQ(pos.neighbours_of(d.at("B14"), kWhite), 4u);

  // "D9 is the only point of root space for the small black root"; White D9 bounds it.
  const RootId small = pos.root_of(d.at("B9"));
  EXPECT_EQ(pos.root_size(small), 5u);
  EXPECT_EQ(names(pos, pos.root_space_points(small)), std::vector<std::string>{"D9"});
  {
    Position p = pos;
    const MoveRecord rec = p.play_checked(kWhite, d.at("D9"));
    EXPECT_FALSE(rec.expanded_removed);
    EXPECT_EQ(rec.stones_removed, 5u);
    EXPECT_FALSE(p.root_alive(small));
  }
  // "White could bound one of his own roots by moving to point C2."
  const RootId own = pos.root_of(d.at("B2"));
  EXPECT_EQ(names(pos, pos.root_space_points(own)), std::vector<std::string>{"C2"});
  const MoveRecord rec = pos.play_checked(kWhite, d.at("C2"));
  EXPECT_TRUE(rec.expanded_removed);
  EXPECT_EQ(rec.stones_removed, 4u);  // A1, B1, B2 and C2
  EXPECT_EQ(pos.check_consistency(), "");
}

// ---------------------------------------------------------------- G to N

TEST(Figures, GtoH_ExpandedBoundedRootIsRemoved) {
  // White J1 expands and bounds the small white root in the lower right corner.
  const MoveRecord rec = play_figure("steere1995_G.txt", "steere1995_H.txt", "J1", kWhite);
  EXPECT_TRUE(rec.expanded_removed);
  EXPECT_EQ(rec.removed_end - rec.removed_begin, 1u);
  EXPECT_EQ(rec.stones_removed, 6u);  // F1 G1 G2 H2 J2 and J1
}

TEST(Figures, ItoJ_OnlyTheExpandedBoundedRootIsRemoved) {
  const Diagram before = load_diagram("steere1995_I.txt");
  {
    // Before D5: D5 is the only root space of the upper-left white root and of the black root
    // in the lower left, and D4 (which D5 takes away) that of the lower-right white root.
    Position pos = load(before, kWhite, true);
    EXPECT_EQ(names(pos, pos.root_space_points(pos.root_of(before.at("A9")))),
              std::vector<std::string>{"D5"});
    EXPECT_EQ(names(pos, pos.root_space_points(pos.root_of(before.at("A5")))),
              std::vector<std::string>{"D5"});
    EXPECT_EQ(names(pos, pos.root_space_points(pos.root_of(before.at("E4")))),
              std::vector<std::string>{"D4"});
  }
  Position after = load(before, kWhite, true);
  const MoveRecord rec = play_figure("steere1995_I.txt", "steere1995_J.txt", "D5", kWhite, &after);
  EXPECT_TRUE(rec.expanded_removed);
  EXPECT_EQ(rec.removed_end - rec.removed_begin, 1u);
  EXPECT_EQ(rec.stones_removed, 12u);  // A9 B9 B8 C8 A7 C7 A6 B6 C6 D6 E6 and D5
  // "The white root in the lower right corner reclaimed its one point of root space. The
  // black root in the lower left corner gained a few points of root space."
  EXPECT_EQ(names(after, after.root_space_points(after.root_of(before.at("E4")))),
            std::vector<std::string>{"D4"});
  EXPECT_GT(after.root_space(after.root_of(before.at("A5"))), 1u);
  EXPECT_EQ(after.to_move(), kBlack);
}

TEST(Figures, KtoL_AllOtherBoundedRootsAreRemoved) {
  Position after = load(load_diagram("steere1995_K.txt"), kWhite, true);
  const MoveRecord rec = play_figure("steere1995_K.txt", "steere1995_L.txt", "D5", kWhite, &after);
  EXPECT_FALSE(rec.expanded_removed);
  ASSERT_EQ(rec.removed_end - rec.removed_begin, 2u);
  // The black root of the lower left (15 stones) and the white root of the lower right (19).
  std::vector<Player> owners;
  for (std::uint32_t i = rec.removed_begin; i < rec.removed_end; ++i) {
    owners.push_back(after.root_owner(after.removed_roots()[i]));
  }
  std::sort(owners.begin(), owners.end());
  EXPECT_EQ(owners, (std::vector<Player>{kBlack, kWhite}));
  EXPECT_EQ(rec.stones_removed, 15u + 19u);
}

TEST(Figures, MtoN_BlackSacrificesItsLastRootAndWhiteWins) {
  Position after = load(load_diagram("steere1995_M.txt"), kBlack, true);
  {
    // "Black's only available move is point J9, and point J9 is also the black root's only
    // remaining point of root space."
    Position before = load(load_diagram("steere1995_M.txt"), kBlack, true);
    EXPECT_EQ(names(before, before.legal_moves(kBlack)), std::vector<std::string>{"J9"});
    EXPECT_EQ(before.roots_alive(kBlack), 1u);
    EXPECT_EQ(before.roots_alive(kWhite), 1u);
  }
  const MoveRecord rec = play_figure("steere1995_M.txt", "steere1995_N.txt", "J9", kBlack, &after);
  EXPECT_TRUE(rec.expanded_removed);
  EXPECT_EQ(rec.removed_end - rec.removed_begin, 1u);
  EXPECT_EQ(rec.stones_removed, 29u);  // counted on Figure M
  EXPECT_TRUE(after.is_over());
  EXPECT_EQ(after.winner(), kWhite);
  EXPECT_EQ(after.to_move(), kEmpty);
  EXPECT_EQ(after.stones(kBlack), 0u);
}

// ---------------------------------------------------------------- 004: removal on 5x5

// seeds/004_* explains root removal with two pictures of a 5x5 board that the text does not
// reproduce. The positions below were found by a search over random 5x5 games and realise
// exactly what its text describes; they are our own diagrams, not copies of its pictures.

namespace {

struct Removal {
  MoveRecord rec;
  Position after;
};

// Loads `before` (White to move), checks which roots the move bounds before any removal,
// plays it and compares with `after`.
Removal removal_example(const std::string& before_text, const std::string& move,
                        const std::string& after_text) {
  const Diagram before = test::parse_diagram(before_text);
  const Diagram after = test::parse_diagram(after_text);
  Position pos = load(before, kWhite);
  EXPECT_EQ(pos.check_consistency(), "");
  const test::Snapshot start = test::snapshot(pos);
  const MoveRecord rec = pos.play_checked(kWhite, before.at(move));
  EXPECT_EQ(test::diff_against(pos, after), "") << "after White " << move;
  EXPECT_EQ(pos.check_consistency(), "");
  Removal out{rec, pos};
  pos.undo();
  EXPECT_TRUE(test::snapshot(pos) == start) << "undo of " << move;
  return out;
}

}  // namespace

// "If White places a stone on the spot circled in red, the White root that's extended is
// bounded ... even though 2 other roots are bounded when White's stone is placed ..., the other
// previously bounded roots remain on the board because they are no longer bounded."
// White D5 fills the last root space of its root A5-A4-B4-C4-C5, of the black root (D5 was its
// only point) and of the white root E4..B2 (E5 then touches two white stones).
TEST(Figures, Removal004_CurrentRootRemovedOthersStay) {
  const std::string before =
      "    A B C D E\n"
      " 5 |o . o . .| 5\n"
      " 4 |o o o # o| 4\n"
      " 3 |# # # # o| 3\n"
      " 2 |# o o # o| 2\n"
      " 1 |# # o o o| 1\n"
      "    A B C D E\n";
  {
    const Diagram d = test::parse_diagram(before);
    Position pos = load(d, kWhite);
    EXPECT_EQ(names(pos, pos.root_space_points(pos.root_of(d.at("A5")))),
              std::vector<std::string>{"D5"});
    EXPECT_EQ(names(pos, pos.root_space_points(pos.root_of(d.at("D4")))),
              std::vector<std::string>{"D5"});
    EXPECT_EQ(names(pos, pos.root_space_points(pos.root_of(d.at("E4")))),
              std::vector<std::string>{"E5"});
  }
  const Removal r = removal_example(before, "D5",
                                    "    A B C D E\n"
                                    " 5 |. . . . .| 5\n"
                                    " 4 |. . . # o| 4\n"
                                    " 3 |# # # # o| 3\n"
                                    " 2 |# o o # o| 2\n"
                                    " 1 |# # o o o| 1\n"
                                    "    A B C D E\n");
  EXPECT_TRUE(r.rec.expanded_removed);
  EXPECT_EQ(r.rec.removed_end - r.rec.removed_begin, 1u);
  EXPECT_EQ(r.rec.stones_removed, 6u);
  // The two roots bounded for a moment have their space back (Black also gains A4 and B4,
  // which the removed white stones leave empty).
  const Diagram d = test::parse_diagram(before);
  EXPECT_EQ(names(r.after, r.after.root_space_points(r.after.root_of(d.at("D4")))),
            (std::vector<std::string>{"A4", "B4", "D5"}));
  EXPECT_EQ(names(r.after, r.after.root_space_points(r.after.root_of(d.at("E4")))),
            (std::vector<std::string>{"E5"}));
}

// "Since the current White root is not bounded (White's current root has one more legal move),
// any other bounded roots are removed from the board. In this case, a Black root and a White
// root are both bounded, and so they are both removed."
// White E4 grows C5-D5-D4, which keeps B5; the black stone E5 loses E4, its only point, and
// the white root D1-E1-E2 loses E3, which now touches two white stones.
TEST(Figures, Removal004_OtherBoundedRootsOfBothColoursRemoved) {
  const Removal r = removal_example(
      "    A B C D E\n"
      " 5 |. . o o #| 5\n"
      " 4 |. # . o .| 4\n"
      " 3 |# # # # .| 3\n"
      " 2 |. # . . o| 2\n"
      " 1 |. # # o o| 1\n"
      "    A B C D E\n",
      "E4",
      "    A B C D E\n"
      " 5 |. . o o .| 5\n"
      " 4 |. # . o o| 4\n"
      " 3 |# # # # .| 3\n"
      " 2 |. # . . .| 2\n"
      " 1 |. # # . .| 1\n"
      "    A B C D E\n");
  EXPECT_FALSE(r.rec.expanded_removed);
  ASSERT_EQ(r.rec.removed_end - r.rec.removed_begin, 2u);
  EXPECT_EQ(r.rec.stones_removed, 4u);  // E5, and D1 E1 E2
  std::vector<Player> owners;
  for (std::uint32_t i = r.rec.removed_begin; i < r.rec.removed_end; ++i) {
    owners.push_back(r.after.root_owner(r.after.removed_roots()[i]));
  }
  std::sort(owners.begin(), owners.end());
  EXPECT_EQ(owners, (std::vector<Player>{kBlack, kWhite}));
  // "One more legal move": once E4 stands, the expanded root has B5 alone (E3 touches E2 and
  // E4); after the removal of D1-E1-E2 it also has E3 again.
  EXPECT_EQ(names(r.after, r.after.root_space_points(
                               r.after.root_of(*r.after.topology().parse_vertex("E4")))),
            (std::vector<std::string>{"E3", "B5"}));
  EXPECT_FALSE(r.after.is_over());
  EXPECT_EQ(r.after.to_move(), kBlack);
}

// ---------------------------------------------------------------- the 2005 rule sheet

// "As long as there are stones of both colors on the board, there will be a move available."
// Every root is free at the end of a turn and its root-space points are legal moves of its
// owner, so every player with stones has at least as many moves as roots; the legal moves of a
// player are exactly the root-space points of its roots.
TEST(Figures, RuleSheet2005_APlayerWithStonesAlwaysHasAMove) {
  Rng rng(2005);
  for (const char* spec : {"grid 9x9", "grid 13x13", "grid 5x5", "line 31", "hex 4"}) {
    for (int game = 0; game < 40; ++game) {
      Position pos = test::make(spec);
      while (!pos.is_over()) {
        for (int p = 1; p <= pos.num_players(); ++p) {
          const auto pl = static_cast<Player>(p);
          if (pos.stones(pl) == 0) continue;
          std::uint32_t space = 0;
          for (RootId r : pos.live_roots()) {
            if (pos.root_owner(r) == pl) space += pos.root_space(r);
          }
          ASSERT_GE(pos.legal_count(pl), pos.roots_alive(pl)) << spec;
          ASSERT_EQ(pos.legal_count(pl), space) << spec;
        }
        pos.play(random_move(pos, rng));
      }
      ASSERT_NE(pos.winner(), kEmpty);
    }
  }
}

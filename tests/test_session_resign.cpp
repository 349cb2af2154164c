// Session::check_resign: the check a server makes before it stores a resignation, the same as
// resign()'s own, and changing nothing.
#include <gtest/gtest.h>

#include "tanbo/session/session.hpp"

namespace tanbo {
namespace {

TEST(SessionCheckResign, SaysWhatResignWouldAndChangesNothing) {
  Session s(new_game("grid 5x5", "default", 2, {}));
  // White may not resign on Black's turn; the check and resign() refuse alike.
  const TurnResult early = s.check_resign(kWhite);
  EXPECT_EQ(early.status, TurnStatus::kNotYourTurn);
  EXPECT_EQ(early.message, s.resign(kWhite).message);
  EXPECT_EQ(s.ply(), 0u);
  const std::uint64_t version = s.version();
  EXPECT_TRUE(s.check_resign(kBlack).done());
  EXPECT_TRUE(s.check_resign(0).done());
  EXPECT_EQ(s.ply(), 0u);
  EXPECT_EQ(s.version(), version);
  ASSERT_TRUE(s.resign(kBlack).done());
  const TurnResult over = s.check_resign(kWhite);
  EXPECT_EQ(over.status, TurnStatus::kGameOver);
  EXPECT_NE(over.message.find("the game is over"), std::string::npos);
}

// An engine's seat plays its turns itself: nobody resigns for it, on its turn or another's.
TEST(SessionCheckResign, NobodyResignsForAnEngine) {
  std::vector<Seat> seats(2);
  seats[kWhite - 1] = make_seat("random", 3);
  Session s(new_game("grid 5x5", "default", 2, {}), std::move(seats));
  ASSERT_TRUE(s.play(kBlack, s.position().legal_moves(kBlack).front()).done());
  ASSERT_EQ(s.position().to_move(), kWhite);
  const TurnResult r = s.check_resign(kWhite);
  EXPECT_EQ(r.status, TurnStatus::kEngineTurn);
  EXPECT_EQ(r.message, "White is played by the engine (random), which does not resign");
  EXPECT_EQ(s.resign(0).status, TurnStatus::kEngineTurn);
  EXPECT_EQ(s.ply(), 1u);
  EXPECT_FALSE(s.position().is_over());
}

}  // namespace
}  // namespace tanbo

// The game session every front end drives (include/tanbo/session/session.hpp): moves for a seat
// or for whoever is to move, refusals with the rules' reason, engine turns in the foreground,
// in the background and on a caller's thread, take-backs, stepping through the game, saving.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "tanbo/core/error.hpp"
#include "tanbo/io/gamefile.hpp"
#include "tanbo/io/sgf.hpp"
#include "tanbo/session/session.hpp"

using namespace tanbo;
namespace fs = std::filesystem;

namespace {

fs::path temp_dir() {
  static const fs::path d = [] {
    auto p = fs::temp_directory_path() / ("tanbo_session_test_" + std::to_string(::getpid()));
    fs::create_directories(p);
    return p;
  }();
  return d;
}

// Seats: people except for the players given engine specs.
std::vector<Seat> seats(int players, Player engine_player, const std::string& spec) {
  std::vector<Seat> s(static_cast<std::size_t>(players));
  s[engine_player - 1] = make_seat(spec, 3);
  return s;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST(Session, PlaysRefusesAndSaves) {
  const fs::path file = temp_dir() / "session.tanbo";
  Session s(new_game("grid 5x5x5", "default", 2, {}), seats(2, kWhite, "random"), file.string());
  const Topology& t = s.position().topology();

  // 333 touches no black stone: refused with the rules' reason, nothing changes.
  TurnResult r = s.play(0, "333");
  EXPECT_EQ(r.status, TurnStatus::kIllegal);
  EXPECT_EQ(r.reason, s.position().explain(kBlack, *t.parse_vertex("333")));
  EXPECT_TRUE(contains(r.message, r.reason)) << r.message;
  EXPECT_EQ(s.ply(), 0u);
  EXPECT_EQ(s.version(), 0u);
  EXPECT_FALSE(fs::exists(file));
  EXPECT_EQ(s.play(0, "Z9").status, TurnStatus::kNotAPoint);
  EXPECT_EQ(s.play(kWhite, "125").status, TurnStatus::kNotYourTurn);

  // 125 grows Black's 115 (the pbmserv sample game): played and saved.
  r = s.play(kBlack, "125");
  EXPECT_TRUE(r.done()) << r.message;
  EXPECT_TRUE(contains(r.message, "Black plays 125")) << r.message;
  EXPECT_EQ(s.version(), 1u);
  EXPECT_EQ(load_game(file.string()).position.ply(), 1u);

  // White is the engine: a person's move is refused, the engine answers, the file has both.
  EXPECT_TRUE(s.engine_to_move());
  EXPECT_EQ(s.play(0, "255").status, TurnStatus::kEngineTurn);
  EXPECT_EQ(s.play(kWhite, "255").status, TurnStatus::kEngineTurn);
  r = s.engine_move();
  EXPECT_TRUE(contains(r.message, "[random] White")) << r.message;
  EXPECT_EQ(load_game(file.string()).position.ply(), 2u);

  // Stepping back shows an earlier position; the game itself stays.
  s.previous();
  EXPECT_EQ(s.shown_ply(), 1u);
  EXPECT_EQ(s.shown().hash(), position_at(s.position(), 1).hash());
  EXPECT_FALSE(s.at_end());
  s.last();
  EXPECT_TRUE(s.at_end());

  // Take back: the engine's move and ours, saved.
  r = s.take_back();
  EXPECT_TRUE(r.done());
  EXPECT_EQ(s.ply(), 0u);
  EXPECT_EQ(load_game(file.string()).position.ply(), 0u);
  EXPECT_EQ(s.take_back().status, TurnStatus::kNothingToUndo);
  EXPECT_EQ(s.take_back(3).status, TurnStatus::kNothingToUndo);
}

// The position after ply N, by undoing, equals the one reached by replaying the first N moves.
TEST(Session, PositionAtMatchesReplay) {
  Game g = new_game("grid 9x9", "default", 2, {});
  Position replay = g.position;
  Session s(std::move(g));
  for (int i = 0; i < 40 && !s.position().is_over(); ++i) {
    const Position& pos = s.position();
    ASSERT_TRUE(
        s.play(0, pos.legal_move(pos.to_move(), (i * 7) % pos.legal_count(pos.to_move()))).done());
  }
  const auto& hist = s.position().history();
  for (std::uint32_t ply = 0; ply <= s.ply(); ++ply) {
    EXPECT_EQ(position_at(s.position(), ply).hash(), replay.hash()) << "ply " << ply;
    if (ply < hist.size()) replay.play(hist[ply].vertex);
  }
}

// Resigning: only on one's own turn; it ends a two-player game; the game is then over.
TEST(Session, ResignAndGameOver) {
  Session s(new_game("grid 5x5", "default", 2, {}));
  EXPECT_EQ(s.resign(kWhite).status, TurnStatus::kNotYourTurn);
  EXPECT_TRUE(s.resign(kBlack).done());
  EXPECT_TRUE(s.position().is_over());
  EXPECT_EQ(s.position().winner(), kWhite);
  EXPECT_EQ(s.play(0, "C3").status, TurnStatus::kGameOver);
  EXPECT_EQ(s.resign(0).status, TurnStatus::kGameOver);
  s.new_game();
  EXPECT_EQ(s.ply(), 0u);
  EXPECT_FALSE(s.position().is_over());
}

// An engine's turn run on a caller's thread (a server's pool): its choice is played unless the
// game moved on meanwhile, and then it is dropped silently.
TEST(Session, EngineTurnsOnAnyThread) {
  Session s(new_game("grid 5x5x5", "default", 2, {}), seats(2, kWhite, "greedy"));
  EXPECT_FALSE(s.engine_turn().has_value()) << "Black, a person, is to move";
  ASSERT_TRUE(s.play(0, "125").done());
  auto turn = s.engine_turn();
  ASSERT_TRUE(turn.has_value());
  Vertex v = kNoVertex;
  std::thread([&] { v = turn->agent->choose(turn->position); }).join();
  EXPECT_TRUE(s.play_engine_choice(*turn, v).done());
  EXPECT_EQ(s.ply(), 2u);

  ASSERT_TRUE(s.play(0, s.position().legal_move(kBlack, 0)).done());
  turn = s.engine_turn();
  ASSERT_TRUE(turn.has_value());
  v = turn->agent->choose(turn->position);
  ASSERT_TRUE(s.take_back(1).done());
  const std::uint64_t before = s.position().hash();
  const TurnResult r = s.play_engine_choice(*turn, v);
  EXPECT_FALSE(r.done());
  EXPECT_EQ(r.message, "");
  EXPECT_EQ(s.position().hash(), before);
  // A choice that is no legal move is the engine's bug: an error, and nothing is played.
  ASSERT_TRUE(s.play(0, s.position().legal_move(kBlack, 0)).done());
  turn = s.engine_turn();
  ASSERT_TRUE(turn.has_value());
  EXPECT_THROW(s.play_engine_choice(*turn, kNoVertex), Error);
  EXPECT_EQ(s.ply(), 3u);
}

// An engine thinks on a thread of the session's own: its choice is played when collected,
// unless the game moved on meanwhile (then it is dropped and nothing changes); someone looking
// at an earlier move keeps looking at it.
TEST(Session, EnginesThinkInTheBackgroundAndStaleChoicesAreDropped) {
  Session s(new_game("grid 5x5x5", "default", 2, {}), seats(2, kWhite, "mcts:playouts=300"));
  ASSERT_TRUE(s.play(0, "125").done());
  EXPECT_FALSE(s.engine_thinking());
  ASSERT_TRUE(s.start_engine());
  EXPECT_TRUE(s.engine_thinking());
  EXPECT_FALSE(s.start_engine()) << "one engine at a time";
  s.previous();  // meanwhile a front end can page back through the game
  EXPECT_EQ(s.shown_ply(), 0u);
  while (!s.engine_ready()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  TurnResult r = s.finish_engine();
  EXPECT_TRUE(contains(r.message, "[mcts:playouts=300] White")) << r.message;
  EXPECT_FALSE(s.engine_thinking());
  EXPECT_EQ(s.ply(), 2u);
  EXPECT_EQ(s.shown_ply(), 0u) << "the view stays where it was";
  s.last();

  // Black plays, White starts thinking, Black takes the move back: White's choice is stale.
  const Vertex black = s.position().legal_move(kBlack, 0);
  ASSERT_TRUE(s.play(0, black).done());
  ASSERT_TRUE(s.start_engine());
  s.take_back();
  EXPECT_EQ(s.ply(), 2u);
  const std::uint64_t before = s.position().hash();
  EXPECT_EQ(s.finish_engine().message, "");
  EXPECT_EQ(s.position().hash(), before);
  EXPECT_FALSE(s.engine_to_move()) << "Black, a person, is to move";

  // engine_move() collects a thinking engine first, then lets the one to move play.
  ASSERT_TRUE(s.play(0, black).done());
  ASSERT_TRUE(s.start_engine());
  r = s.engine_move();
  EXPECT_TRUE(contains(r.message, "White")) << r.message;
  EXPECT_EQ(s.ply(), 4u);
  // An engine still thinking when the session ends is waited for (no crash, no leak).
  ASSERT_TRUE(s.play(0, s.position().legal_move(kBlack, 0)).done());
  ASSERT_TRUE(s.start_engine());
}

// An engine that would think for a minute: a take-back tells it to stop, so its stale choice
// is ready within moments; ending the session while it thinks stops it too.
TEST(Session, TakeBackAndClosingStopALongThink) {
  using Clock = std::chrono::steady_clock;
  auto s = std::make_unique<Session>(new_game("grid 9x9", "default", 2, {}),
                                     seats(2, kWhite, "mcts:time=60"));
  auto black_move = [&] { return s->play(0, s->position().legal_move(kBlack, 0)).done(); };
  ASSERT_TRUE(black_move());
  ASSERT_TRUE(s->start_engine());
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  s->take_back();
  EXPECT_EQ(s->ply(), 0u);
  auto t0 = Clock::now();
  // engine_ready() repeats the stop while the choice is stale (the first one may have come
  // before the search started).
  while (!s->engine_ready() && Clock::now() - t0 < std::chrono::seconds(30)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(s->engine_ready()) << "the stale search did not stop";
  EXPECT_EQ(s->finish_engine().message, "");
  EXPECT_EQ(s->ply(), 0u);

  // finish_engine() itself, called at once on a stale choice, stops the engine too.
  ASSERT_TRUE(black_move());
  ASSERT_TRUE(s->start_engine());
  s->take_back();
  t0 = Clock::now();
  EXPECT_EQ(s->finish_engine().message, "");
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 30.0)
      << "finish_engine waited for the stale engine's minute";
  EXPECT_FALSE(s->engine_thinking());

  ASSERT_TRUE(black_move());
  ASSERT_TRUE(s->start_engine());
  t0 = Clock::now();
  s.reset();
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 30.0)
      << "closing waited for the engine's minute";
}

// A file changed by another program meanwhile is never overwritten: the session says so.
TEST(Session, NeverSavesOverAnotherProgramsMoves) {
  const fs::path file = temp_dir() / "shared.tanbo";
  Game g = new_game("grid 5x5", "default", 2, {});
  save_game(g, file.string());
  Session s(std::move(g), {}, file.string());
  Game other = load_game(file.string());
  other.position.play(other.position.legal_move(kBlack, 0));
  save_game(other, file.string());
  const TurnResult r = s.play(0, s.position().legal_move(kBlack, 1));
  EXPECT_TRUE(r.done());
  EXPECT_FALSE(s.save_error().empty());
  EXPECT_TRUE(contains(r.message, "NOT SAVED")) << r.message;
  EXPECT_EQ(load_game(file.string()).position.history().front().vertex,
            other.position.history().front().vertex);
}

// The viewer on an SGF file (`tanbo view game.sgf`) saves after every click: the file stays SGF
// and every save goes through (it was rewritten in the game-file format at the first click).
TEST(Session, AnSgfFileStaysSgf) {
  const fs::path file = temp_dir() / "shared.sgf";
  fs::remove(file);
  Game g = new_game("grid 5x5", "default", 2, {"ann", "bob"});
  save_game(g, file.string());
  ASSERT_TRUE(is_sgf_text(read_text_file(file.string())));
  Session s(load_game(file.string()), {}, file.string());
  for (int i = 0; i < 3; ++i) {
    const TurnResult r = s.play(0, s.position().legal_move(s.position().to_move(), 0));
    ASSERT_TRUE(r.done()) << r.message;
    EXPECT_EQ(s.save_error(), "");
    EXPECT_TRUE(is_sgf_text(read_text_file(file.string())));
  }
  EXPECT_TRUE(s.take_back().done());
  EXPECT_EQ(s.save_error(), "");
  const Game saved = load_game(file.string());
  EXPECT_EQ(saved.position.ply(), 2u);
  EXPECT_EQ(saved.names, (std::vector<std::string>{"ann", "bob"}));
}

// The engine seats of the games a server holds: a bounded pool of threads that plays the
// engines' turns, a watch that stops a search past kMoveSeconds, and the turns whose move the
// database refused, queued again after kEngineRetry (games.hpp).
#include <algorithm>
#include <chrono>
#include <iostream>

#include "games.hpp"
#include "tanbo/core/error.hpp"

namespace tanbo::serve {

void Games::refuse_while_engines_busy(const std::vector<std::string>& players) {
  if (std::all_of(players.begin(), players.end(), [](const std::string& p) {
        return p == "human";  // (as make_seat reads it)
      })) {
    return;
  }
  std::size_t waiting = 0;
  {
    std::lock_guard lock(pool_mutex_);
    waiting = pool_queue_.size() + retry_.size();
  }
  if (waiting >= options_.in_memory) {
    throw ApiError{503,
                   std::to_string(waiting) +
                       " games wait for an engine already; start a game with engine seats later"};
  }
}

void Games::after_change(const std::shared_ptr<LiveGame>& g) {
  g->changed.notify_all();
  if (g->engine_queued || !g->session->engine_to_move()) return;
  g->engine_queued = true;
  {
    std::lock_guard lock(pool_mutex_);
    pool_queue_.push_back(g);
  }
  pool_wake_.notify_one();
}

// Asks engines that have thought for kMoveSeconds to move (they play the best move found so
// far), and queues the turns to try again, looking four times a second.
void Games::watch_engines() {
  std::unique_lock lock(pool_mutex_);
  while (
      !watch_wake_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stopping_; })) {
    const auto now = std::chrono::steady_clock::now();
    for (const auto& [agent, began] : thinking_) {
      if (now - began >= std::chrono::seconds(kMoveSeconds)) agent->stop();
    }
    // Engine turns whose move could not be stored go back to the queue when their time comes.
    const auto due = std::stable_partition(retry_.begin(), retry_.end(),
                                           [&](const auto& r) { return r.second > now; });
    if (due != retry_.end()) {
      for (auto it = due; it != retry_.end(); ++it) pool_queue_.push_back(std::move(it->first));
      retry_.erase(due, retry_.end());
      pool_wake_.notify_all();
    }
  }
}

void Games::engine_worker() {
  for (;;) {
    std::shared_ptr<LiveGame> g;
    {
      std::unique_lock lock(pool_mutex_);
      pool_wake_.wait(lock, [this] { return stopping_ || !pool_queue_.empty(); });
      if (stopping_) return;
      g = std::move(pool_queue_.front());
      pool_queue_.pop_front();
    }
    engine_turn(g);
  }
}

// One engine turn: the engine chooses without the game's lock (so the game answers meanwhile);
// its move is stored, then played, under the lock, unless the game has moved on.
void Games::engine_turn(const std::shared_ptr<LiveGame>& g) {
  std::optional<EngineTurn> turn;
  std::optional<Vertex> chosen;  // a move chosen before, which the database refused
  {
    std::lock_guard lock(g->mutex);
    turn = g->session->engine_turn();
    if (!turn) {
      g->engine_queued = false;
      return;
    }
    if (g->unstored && g->unstored->ply == turn->ply && g->unstored->hash == turn->hash) {
      chosen = g->unstored->vertex;
    }
    g->unstored.reset();
  }
  Vertex v = kNoVertex;
  std::string failure;
  if (chosen) {
    v = *chosen;  // (not thought out again: a minute of an engine thread at each try)
  } else {
    {
      std::lock_guard lock(pool_mutex_);
      if (stopping_) return;
      thinking_.emplace_back(turn->agent, std::chrono::steady_clock::now());
    }
    try {
      v = turn->agent->choose(turn->position);
      // What an engine keeps for its next move (its tree and solver table: about 60 MB after
      // 100,000 playouts on 7x7) would stay for every game in memory while people think, and
      // add up with the games (test_engine_trees_are_not_kept_while_people_think). Each move
      // is thought out afresh, so the searches in memory are at most one per engine thread.
      turn->agent->forget_search();
    } catch (const std::exception& e) {
      failure = e.what();
    }
    std::lock_guard lock(pool_mutex_);
    std::erase_if(thinking_, [&](const auto& t) { return t.first == turn->agent; });
  }
  {
    std::lock_guard lock(pool_mutex_);
    if (stopping_) return;
  }
  std::lock_guard lock(g->mutex);
  g->engine_queued = false;
  Session& s = *g->session;
  if (s.ply() != turn->ply || s.position().hash() != turn->hash) {
    after_change(g);  // stale: the game moved on (cannot happen while only engines move it)
    return;
  }
  const Position& pos = s.position();
  if (failure.empty() && (v >= pos.num_vertices() || !pos.explain(pos.to_move(), v).empty())) {
    failure = "it chose an illegal move";
  }
  if (failure.empty()) {
    try {
      store_.add_turn(g->id, s.ply() + 1, {pos.to_move(), pos.topology().name(v)});
    } catch (const std::exception& e) {
      // The database failed (locked by another program, the disk full): the game would wait
      // for this engine for good, since only its move moves it on. The move is stored later.
      if (g->engine_failures++ == 0) {
        std::cerr << "tanbo serve: game " << g->id << ": the engine's move could not be stored ("
                  << e.what() << "); it is tried again every "
                  << std::chrono::duration<double>(kEngineRetry).count() << " s\n";
      }
      g->engine_queued = true;
      g->unstored = UnstoredMove{turn->ply, turn->hash, v};
      std::lock_guard pool_lock(pool_mutex_);
      retry_.emplace_back(g, std::chrono::steady_clock::now() + kEngineRetry);
      return;
    }
    g->engine_failures = 0;
    s.play_engine_choice(*turn, v);
  } else {
    std::cerr << "tanbo serve: game " << g->id << ": the engine " << turn->agent->spec()
              << " did not move: " << failure << "\n";
    return;
  }
  after_change(g);
}

}  // namespace tanbo::serve

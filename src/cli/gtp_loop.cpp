// `tanbo gtp`'s input loop, with the streaming form of tanbo-analyze: lines are read on their
// own thread, so that a streaming analysis can answer, update after update, until it is done
// or the next command arrives. See docs/protocol.md.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <iostream>
#include <memory>
#include <mutex>
#include <thread>

#include "gtp.hpp"
#include "tanbo/ai/mcts.hpp"
#include "tanbo/core/error.hpp"
#include "tanbo/core/text.hpp"

namespace tanbo::cli {

namespace {

// The lines of the input, read by a thread of their own. Shared with that thread, which may
// outlive the loop (it is left blocked on a read when `quit` comes first).
struct Lines {
  // The most the queue holds: the reader waits while it is full, so a controller that sends
  // faster than the engine answers (a flood during genmove) is held back instead of filling
  // memory.
  static constexpr std::size_t kMaxQueuedBytes = std::size_t{16} << 20;

  std::mutex mu;
  std::condition_variable ready;  // a line came, or the input ended
  std::condition_variable room;   // a line was taken, or the loop is done
  std::deque<std::string> queue;
  std::size_t queued_bytes = 0;
  bool ended = false;
  bool done = false;  // the loop reads no more: the reader stops

  // Waits for the next line; false at the end of the input.
  bool next(std::string& line) {
    std::unique_lock<std::mutex> lock(mu);
    ready.wait(lock, [&] { return !queue.empty() || ended; });
    if (queue.empty()) return false;
    line = std::move(queue.front());
    queue.pop_front();
    queued_bytes -= line.size() + 1;
    room.notify_all();
    return true;
  }
  // The reader's side: queues a line once there is room; false when the loop is done.
  bool add(std::string line) {
    std::unique_lock<std::mutex> lock(mu);
    room.wait(lock, [&] { return queued_bytes < kMaxQueuedBytes || done; });
    if (done) return false;
    queued_bytes += line.size() + 1;
    queue.push_back(std::move(line));
    ready.notify_all();
    return true;
  }
  void finish() {
    std::lock_guard<std::mutex> lock(mu);
    done = true;
    room.notify_all();
  }
  // Whether a line (or the end of the input) is waiting, within `seconds`.
  bool wait_for(double seconds) {
    std::unique_lock<std::mutex> lock(mu);
    return ready.wait_for(lock, std::chrono::duration<double>(seconds),
                          [&] { return !queue.empty() || ended; });
  }
};

// A streaming request: "[id] tanbo-analyze PLAYOUTS INTERVAL", read as handle_line reads
// commands, with arguments that need_analyze_request accepts. Any other line, a refused one
// included, is for handle_line (whose tanbo-analyze refuses it with the same reason).
struct StreamRequest {
  std::string id;
  AnalyzeRequest analyze;
};

bool parse_request(const GtpEngine& engine, const std::string& raw, StreamRequest& r) {
  std::vector<std::string> w;
  if (raw.size() > kMaxInputLine || !split_command(raw, r.id, w)) return false;
  if (w.size() != 3 || w[0] != "tanbo-analyze") return false;
  try {
    r.analyze = need_analyze_request(engine, {w[1], w[2]});
  } catch (const Error&) {
    return false;
  }
  return true;
}

// Searches the engine's position (a game that goes on) in steps of `interval` seconds,
// printing an update after each ("update PLAYOUTS" and one line per candidate move), until
// PLAYOUTS playouts are done (a step searches at most the playouts left), the position is
// proven or the next line arrives; then ends the answer with its blank line at once, so that
// a controller that waits for each answer before it sends the next command never hangs.
void stream_analysis(const GtpEngine& engine, const StreamRequest& r, Lines& lines,
                     std::ostream& out) {
  const Position& pos = engine.position();
  if (!send(out, "=" + r.id + (r.id.empty() ? "\n" : " \n"))) return;  // (as handle_line's)
  MctsConfig config = analysis_config(engine);
  config.move_seconds = r.analyze.interval;
  Mcts mcts(config, engine.seed());
  std::uint64_t done = 0;
  bool updated = false;  // an update was sent
  while (done < r.analyze.playouts && out && !lines.wait_for(0)) {
    mcts.set_playout_limit(r.analyze.playouts - done);
    // A watcher stops the step early when a line arrives (asking again until the search
    // has started and taken it).
    std::atomic<bool> finished{false};
    std::thread watcher([&] {
      while (!finished) {
        if (lines.wait_for(0.02)) {
          mcts.stop();
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
      }
    });
    std::vector<MoveAnalysis> analysis;
    try {
      analysis = mcts.analyze(pos);
    } catch (...) {  // out of memory: the watcher ends before the error goes on
      finished = true;
      watcher.join();
      throw;
    }
    finished = true;
    watcher.join();
    done += mcts.last_stats().playouts;
    const bool proven = mcts.last_stats().playouts == 0 && mcts.last_stats().proven != 0;
    // A step a line stopped before its first playout would repeat the last update word for word.
    if (updated && mcts.last_stats().playouts == 0 && !proven) break;
    // A step that ran no playout may have no candidate line: no empty line inside the answer.
    const std::string text = analysis_text(pos, analysis);
    send(out, "update " + std::to_string(done) + "\n" + text + (text.empty() ? "" : "\n"));
    updated = true;
    if (proven) break;
  }
  if (out) send(out, "\n");
}

}  // namespace

void run_gtp(GtpEngine& engine, std::istream& in, std::ostream& out) {
  auto lines = std::make_shared<Lines>();
  std::thread reader([lines, &in] {
    try {  // a line is kept to 1 MB and a byte (handle_line refuses it); out of memory ends input
      for (std::string line; read_gtp_line(in, line);) {
        if (!lines->add(std::move(line))) break;
      }
    } catch (const std::bad_alloc&) {
      std::cerr << "tanbo gtp: out of memory while reading the input; it ends here\n";
    }
    std::lock_guard<std::mutex> lock(lines->mu);
    lines->ended = true;
    lines->ready.notify_all();
  });
  std::string line;
  try {
    // Until quit, the end of input, or answers that cannot be written (a full disk).
    while (!engine.quit() && out && lines->next(line)) {
      StreamRequest request;
      if (parse_request(engine, line, request)) {
        stream_analysis(engine, request, *lines, out);
        continue;
      }
      std::string reply;
      try {
        reply = engine.handle_line(line);
      } catch (const std::bad_alloc&) {
        reply = "? out of memory\n\n";  // before the command ran: nothing changed
      }
      if (!reply.empty()) send(out, reply);
    }
  } catch (...) {  // an analysis out of memory: the reader is left to end with the process
    lines->finish();
    reader.detach();
    throw;
  }
  lines->finish();
  // After quit (or output that failed) the reader may still wait on the terminal or pipe for
  // input that never comes: it is left to end with the process (it only touches `lines`,
  // which it shares, and cin).
  if ((engine.quit() || !out) && &in == &std::cin) {
    reader.detach();
  } else {
    reader.join();
  }
}

}  // namespace tanbo::cli

// The long calls of the `tanbo` Python module: random playouts, the Monte Carlo search (a call
// or a tanbo.Search that keeps its tree) and the exact solver. Each runs without the GIL on its
// own copy of the position, and Ctrl-C stops it within a tenth of a second: KeyboardInterrupt,
// the game unchanged (docs/python.md).
#include "search.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include <unistd.h>

#include "tanbo/ai/mcts.hpp"
#include "tanbo/ai/playout.hpp"
#include "tanbo/ai/solver.hpp"
#include "tanbo/core/numbers.hpp"
#include "tanbo/core/random.hpp"
#include "tanbo/core/text.hpp"

namespace tanbo::python {

namespace {

using namespace std::chrono_literals;

// How often a call running without the GIL looks for Ctrl-C (Python's signal handlers run
// only when the main thread holds the GIL and asks).
constexpr auto kSignalPoll = 50ms;

// The position a search works on: a copy taken while the GIL is held. The search then releases
// the GIL and reads only its copy, so another Python thread may play or undo on the game
// meanwhile (docs/python.md, "Threads"). The copy is small against any search: on 1000x1000,
// 50 moves in, 30 ms against 2.5 s for one random playout and 17 s for mcts(playouts=1).
Position searched_copy(const PyGame& g) {
  return g.pos();
}

// Whether the interpreter is shutting down; asked without the GIL. A call running on a daemon
// thread when the program ends must not take the GIL again: Python ends a thread that asks for
// it then (pthread_exit), and that unwinding through the C++ frames of the call aborted the
// process ("terminate called without an active exception").
bool exiting() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing() != 0;
#else
  return _Py_IsFinalizing() != 0;
#endif
}

// What a call does instead of taking the GIL back once the interpreter is shutting down (its
// work stopped and joined): it waits, without the GIL, for the process to end.
[[noreturn]] void wait_for_exit() {
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

// Runs work() without the GIL and takes it back, by hand rather than by py::gil_scoped_release:
// a daemon thread that asks for the GIL back while the interpreter shuts down is ended by Python
// there (pthread_exit), and that unwinding must not start in a destructor, which is noexcept (the
// process aborted, "terminate called without an active exception"). From here it goes on
// through pybind11, which lets it pass. work()'s exception, if any, goes on once the GIL is held.
template <class Work>
void without_gil(Work&& work) {
  std::exception_ptr error;
  PyThreadState* others_run = PyEval_SaveThread();
  try {
    work();
  } catch (...) {
    error = std::current_exception();
  }
  PyEval_RestoreThread(others_run);
  if (error) std::rethrow_exception(error);
}

// Whether a signal handler raised (KeyboardInterrupt for Ctrl-C); takes the GIL to ask. The
// exception is left set for py::error_already_set.
bool interrupted() {
  py::gil_scoped_acquire gil;
  return PyErr_CheckSignals() != 0;
}

// Whether the calling thread is Python's main thread, the only one that handles signals
// (PyErr_CheckSignals does nothing on others). Call with the GIL held.
bool on_main_thread() {
  const py::module_ threading = py::module_::import("threading");
  return threading.attr("main_thread")().attr("ident").cast<unsigned long>() ==
         PyThread_get_thread_ident();
}

// Runs work() on a thread of its own while the calling thread, without the GIL, waits for it
// and, on the main thread, asks for signals every kSignalPoll. Another thread never asks: it
// would wait for the GIL, and if the interpreter began to shut down during that wait, Python
// would end the thread inside it (through the C++ frames, which aborts the process). On an
// interrupt it calls stop() until work() returns (a search that had not started yet ignores the
// first call), then raises the interrupt; otherwise work()'s exception, if any, goes on. When the
// interpreter shuts down meanwhile, it stops work() too and never returns (wait_for_exit). Call
// with the GIL held.
void run_interruptible(const std::function<void()>& work, const std::function<void()>& stop) {
  std::mutex mutex;
  std::condition_variable cv;
  bool done = false;
  std::exception_ptr error;
  bool stopped = false;
  const bool signals = on_main_thread();
  without_gil([&] {
    std::thread worker([&] {
      try {
        work();
      } catch (...) {
        error = std::current_exception();
      }
      std::lock_guard lock(mutex);
      done = true;
      cv.notify_all();
    });
    std::unique_lock lock(mutex);
    while (!cv.wait_for(lock, stopped ? 5ms : kSignalPoll, [&] { return done; })) {
      lock.unlock();
      if (stopped || exiting() || (signals && interrupted())) {
        stopped = true;
        stop();
      }
      lock.lock();
    }
    lock.unlock();
    worker.join();
    if (exiting()) wait_for_exit();
  });
  if (stopped) throw py::error_already_set();
  if (error) std::rethrow_exception(error);
}

// A `seconds` argument as the library takes it: 0 means no time limit, and so do infinity and
// values of kNoLimitSeconds or more (over 31 years; the clock cannot reach beyond about 292
// years). Negative and NaN are refused.
constexpr double kNoLimitSeconds = 1e9;
double time_limit(double seconds, const char* name) {
  if (std::isnan(seconds)) {
    throw Error(std::string(name) + " is NaN: give a number of seconds, 0 or more (0 or inf: no " +
                "time limit)");
  }
  if (seconds < 0) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", seconds);
    throw Error(std::string(name) + " must be 0 or more (0 or inf: no time limit), not " + text);
  }
  return seconds >= kNoLimitSeconds ? 0.0 : seconds;
}

// The numbers of the long calls as Python gives them (count_argument): an integer in range, or a
// refusal naming the argument and the value.
constexpr std::uint64_t kAnyCount = UINT64_MAX;
constexpr const char* kAnyCountText = "0 to 2**64 - 1";
std::uint64_t seed_argument(const py::object& seed) {
  return count_argument(seed, "seed", 0, kAnyCount, kAnyCountText);
}
int threads_argument(const py::object& threads) {
  return static_cast<int>(count_argument(threads, "threads", 1, 256, "1 to 256"));
}
// A search's playouts: at most what an mcts: player spec takes, so that Search.spec reads back
// on the command line as the same engine.
constexpr std::uint64_t kMostPlayouts = 1000000000000ull;
std::uint64_t playouts_argument(const py::object& playouts) {
  return count_argument(playouts, "playouts", 0, kMostPlayouts,
                        "0 to 10**12 (0: the time limit alone)");
}
// A number of seconds: an int, a float or a NumPy number (anything with __float__), then read by
// time_limit. None, a bool and text are refused with TypeError (pybind11's "incompatible
// function arguments" named neither the argument nor the value). An int too big for a float is
// beyond kNoLimitSeconds, so no time limit, as any big number.
double seconds_argument(const py::object& x, const char* name) {
  const auto refuse = [&] {
    return py::type_error(std::string(name) + " must be a number of seconds (0 or inf: no time " +
                          "limit), not " + std::string(py::repr(x)).substr(0, 40));
  };
  if (x.is_none() || PyBool_Check(x.ptr()) || PyUnicode_Check(x.ptr()) || PyBytes_Check(x.ptr())) {
    throw refuse();
  }
  const double seconds = PyFloat_AsDouble(x.ptr());
  if (seconds == -1.0 && PyErr_Occurred()) {
    if (PyErr_ExceptionMatches(PyExc_TypeError)) {  // a complex number, a list, ...
      PyErr_Clear();
      throw refuse();
    }
    if (!PyErr_ExceptionMatches(PyExc_OverflowError)) throw py::error_already_set();
    PyErr_Clear();
    const bool negative = PyObject_RichCompareBool(x.ptr(), py::int_(0).ptr(), Py_LT) == 1;
    return time_limit(negative ? -HUGE_VAL : HUGE_VAL, name);
  }
  return time_limit(seconds, name);
}

// Where random games put what they found: the wins by player, and when asked the winner
// (0-based) and the moves of each game.
struct PlayoutTally {
  std::vector<std::uint64_t> wins;
  std::int8_t* winners = nullptr;
  std::uint32_t* lengths = nullptr;
};

// n uniformly random games from the position `base` (not over). Without the GIL; Ctrl-C (on the
// main thread) and the interpreter's shutdown are looked for between games every kSignalPoll.
void play_random_games(const Position& base, std::uint64_t n, std::uint64_t seed,
                       PlayoutTally& tally) {
  bool stopped = false;
  const bool signals = on_main_thread();  // (run_interruptible says why)
  without_gil([&] {
    Rng rng(seed);
    Position pos = base;
    auto next_poll = std::chrono::steady_clock::now() + kSignalPoll;
    for (std::uint64_t i = 0; i < n; ++i) {
      if ((i & 63) == 0 && std::chrono::steady_clock::now() >= next_poll) {
        if (exiting() || (signals && (stopped = interrupted()))) break;
        next_poll = std::chrono::steady_clock::now() + kSignalPoll;
      }
      pos = base;
      random_playout(pos, rng);
      ++tally.wins[pos.winner() - 1];
      if (tally.winners) tally.winners[i] = static_cast<std::int8_t>(pos.winner() - 1);
      if (tally.lengths) tally.lengths[i] = pos.ply() - base.ply();
    }
    if (exiting()) wait_for_exit();
  });
  if (stopped) throw py::error_already_set();
}

// Plays n uniformly random games from the game's position: the wins by player (a list, index 0
// for player 1), or with per_game {"winners", "lengths"}, NumPy arrays of n entries.
py::object random_playouts(const PyGame& g, const py::object& n_arg, const py::object& seed_arg,
                           bool per_game) {
  const std::uint64_t n = count_argument(n_arg, "n", 0, kAnyCount, kAnyCountText);
  const std::uint64_t seed = seed_argument(seed_arg);
  constexpr auto kMaxEntries = static_cast<std::uint64_t>(PY_SSIZE_T_MAX);
  if (per_game && n > kMaxEntries) {
    throw Error("n=" + std::to_string(n) + " is more games than per_game=True can hold " +
                "(arrays of at most " + std::to_string(kMaxEntries) + " entries)");
  }
  Position base = searched_copy(g);
  PlayoutTally tally;
  tally.wins.assign(static_cast<std::size_t>(base.num_players()), 0);
  // The arrays only for per_game: the tally of wins needs no NumPy.
  std::optional<py::array_t<std::int8_t>> winners;
  std::optional<py::array_t<std::uint32_t>> lengths;
  if (per_game) {
    winners.emplace(static_cast<py::ssize_t>(n));
    lengths.emplace(static_cast<py::ssize_t>(n));
    tally.winners = winners->mutable_data();
    tally.lengths = lengths->mutable_data();
  }
  if (base.is_over()) {
    tally.wins[base.winner() - 1] = n;
    if (per_game) {
      std::fill_n(tally.winners, n, static_cast<std::int8_t>(base.winner() - 1));
      std::fill_n(tally.lengths, n, 0u);
    }
  } else {
    base.set_recording(false);  // playouts need no undo
    play_random_games(base, n, seed, tally);
  }
  if (!per_game) return py::cast(tally.wins);
  py::dict out;
  out["winners"] = *winners;
  out["lengths"] = *lengths;
  return out;
}

// Whether an option's value is a boolean: Python's, or NumPy's (numpy.bool_, what comparisons
// and arrays of flags give), whose text "True" the spec's parser refused.
bool is_boolean(const py::handle& value) {
  if (PyBool_Check(value.ptr())) return true;
  const std::string_view type = Py_TYPE(value.ptr())->tp_name;
  return type == "numpy.bool_" || type == "numpy.bool";
}

// `time=` is `seconds` under the spec's name, read as seconds is (0 or inf: no time limit); a
// number, or text that is one.
double time_option(const py::handle& value) {
  const std::string text = py::str(value);
  // A bool is no number of seconds (time=True was a limit of 1 s), as for seconds=.
  PyObject* number = is_boolean(value) ? nullptr : PyNumber_Float(value.ptr());
  if (!number) {
    PyErr_Clear();
    throw Error("mcts option time=" + quote_input(text) +
                ": expected a number of seconds, 0 or more (0 or inf: no time limit)");
  }
  const double seconds = PyFloat_AS_DOUBLE(number);
  Py_DECREF(number);
  return time_limit(seconds, "time");
}

// The configuration of the keyword arguments of mcts() and Search: the options of an mcts:
// player spec (docs/strength.md), read by the spec's own parser, then the named arguments.
MctsConfig mcts_config(const py::object& playouts_arg, const py::object& seconds_arg,
                       const py::object& threads_arg, const py::kwargs& kw) {
  const std::uint64_t playouts = playouts_argument(playouts_arg);
  const int threads = threads_argument(threads_arg);
  std::string options;
  std::optional<double> time;
  for (const auto& [key, value] : kw) {
    const std::string name = py::str(key);
    if (name == "time") {
      time = time_option(value);
      continue;
    }
    // A name such as "rave=0,explore" (**{...}) would pass options of its own to the parser.
    if (name.find_first_of(",=") != std::string::npos)
      throw Error("unknown mcts option " + quote_input(name) +
                  ": an option's name holds no ',' or '='");
    std::string text = is_boolean(value) ? (PyObject_IsTrue(value.ptr()) ? "1" : "0")
                                         : std::string(py::str(value));
    if (text.find_first_of(",=") != std::string::npos)
      throw Error("mcts option " + name + ": " + quote_input(text) + " is not a value");
    options += (options.empty() ? "" : ",") + name + "=" + text;
  }
  MctsConfig config = parse_mcts_options(options);
  config.playouts = playouts;
  const double limit = seconds_argument(seconds_arg, "seconds");
  if (time && limit != 0) {
    throw Error(
        "the time limit is given twice, as seconds= and as time= (the same option): "
        "give one of them");
  }
  config.move_seconds = time ? *time : limit;
  // A search's limit is one an mcts: player spec takes (Search.spec reads back as the same
  // engine on the command line): kLeastMoveSeconds at the least.
  if (config.move_seconds > 0 && config.move_seconds < kLeastMoveSeconds) {
    throw Error(std::string(time ? "time" : "seconds") + " must be 0 (no time limit) or at least " +
                plain_number(kLeastMoveSeconds) + ", not " + plain_number(config.move_seconds));
  }
  // Capped to the cores, as solve's (docs/python.md, "Threads"): with parallel=root each thread
  // grows a tree of its own (up to about 150 MB), so threads=256 on a small machine could ask
  // for tens of GB over a long search.
  config.threads = solver_threads(threads);
  return config;
}

// The dict of a search: the move, the analysis lines of GTP tanbo-analyze ("move V visits N
// winrate W [proven] pv ..."), the root's statistics and the visits of every legal move.
py::dict search_result(const Position& pos, const std::vector<MoveAnalysis>& lines,
                       const SearchStats& stats) {
  if (lines.empty()) throw Error("the search found no move");
  const Topology& t = pos.topology();
  std::vector<std::string> analysis;
  for (const MoveAnalysis& a : lines) {
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.4f", a.winrate);
    std::string line = "move " + t.name(a.move) + " visits " + std::to_string(a.visits) +
                       " winrate " + rate + (a.proven ? " proven" : "") + " pv";
    for (Vertex v : a.pv) line += " " + t.name(v);
    analysis.push_back(std::move(line));
  }
  const std::vector<Vertex> legal = pos.legal_moves(pos.to_move());
  py::array_t<std::uint32_t> visits(static_cast<py::ssize_t>(legal.size()));
  std::fill_n(visits.mutable_data(), legal.size(), 0u);
  for (const MoveAnalysis& a : lines) {
    const auto at = std::lower_bound(legal.begin(), legal.end(), a.move);
    if (at != legal.end() && *at == a.move) visits.mutable_data()[at - legal.begin()] = a.visits;
  }
  py::dict out;
  out["move"] = t.name(lines.front().move);
  out["action"] = lines.front().move;
  out["analysis"] = analysis;
  out["winrate"] = stats.best_value;
  out["visits"] = stats.best_visits;
  out["playouts"] = stats.playouts;
  out["seconds"] = stats.seconds;
  out["reused_visits"] = stats.reused_visits;
  out["child_visits"] = visits;
  return out;
}

// One search of `search` from the game's position, interruptible.
py::dict run_search(Mcts& search, const PyGame& g) {
  if (g.pos().is_over()) throw Error("the game is over: " + result_text(g.game()));
  const Position pos = searched_copy(g);
  std::vector<MoveAnalysis> lines;
  run_interruptible([&] { lines = search.analyze(pos); }, [&] { search.stop(); });
  return search_result(pos, lines, search.last_stats());
}

py::dict mcts_search(const PyGame& g, const py::object& playouts, const py::object& seconds,
                     const py::object& threads, const py::object& seed, const py::kwargs& kw) {
  Mcts search(mcts_config(playouts, seconds, threads, kw), seed_argument(seed));
  return run_search(search, g);
}

// A search engine kept between calls, so that its tree serves the next moves (reuse=1).
class PySearch {
 public:
  PySearch(const py::object& playouts, const py::object& seconds, const py::object& threads,
           const py::object& seed, const py::kwargs& kw)
      : engine_(std::make_unique<Engine>(mcts_config(playouts, seconds, threads, kw),
                                         seed_argument(seed))) {}
  // As for PyGame: a Search made by Search.__new__ without __init__ has zeroed storage, so no
  // engine, and every method refuses it.
  static void* operator new(std::size_t size) {
    void* p = ::operator new(size);
    std::memset(p, 0, size);
    return p;
  }
  static void operator delete(void* p) noexcept { ::operator delete(p); }

  // Whether __init__ made this search (false only for Search.__new__ without __init__).
  bool initialised() const { return engine_ != nullptr; }

  py::dict search(const PyGame& g) {
    Engine& e = engine();
    std::unique_lock lock(e.mutex, std::try_to_lock);
    if (!lock) throw Error(busy(e));
    e.process = getpid();
    return run_search(e.mcts, g);
  }
  void forget() {
    Engine& e = engine();
    std::unique_lock lock(e.mutex, std::try_to_lock);
    if (!lock) throw Error(busy(e));
    e.mcts.forget();
  }
  std::string spec() const { return mcts_spec(engine().mcts.config()); }

 private:
  struct Engine {
    Engine(const MctsConfig& config, std::uint64_t seed) : mcts(config, seed) {}
    Mcts mcts;
    std::mutex mutex;  // held by the thread searching
    // The process of the last search. A process forked (os.fork, multiprocessing's fork) while
    // another thread searched has the mutex held by a thread it does not have, and a tree
    // half-written: its every call would have said "searching on another thread" for ever.
    std::atomic<pid_t> process{getpid()};
  };
  // The refusal of a call while the mutex is held.
  static std::string busy(const Engine& e) {
    if (e.process != getpid()) {
      return "this Search was searching on another thread when the process forked (os.fork or "
             "multiprocessing): no thread of this process will finish that search, and its tree "
             "is left half-written; make a new tanbo.Search in this process";
    }
    return "this Search is searching on another thread";
  }
  Engine& engine() const {
    if (!engine_) {
      throw Error(
          "this tanbo.Search was never initialised (Search.__new__ without __init__): make it "
          "with tanbo.Search(...)");
    }
    return *engine_;
  }

  std::unique_ptr<Engine> engine_;  // null only in a Search __init__ never made
};

SolveMethod solve_method(const std::string& method) {
  if (method == "pn") return SolveMethod::kProofNumber;
  if (method == "ab") return SolveMethod::kAlphaBeta;
  throw Error("method " + quote_input(method) +
              " is not a method: pn (proof-number search) or "
              "ab (alpha-beta)");
}

// The exact solver (two players): the winner with perfect play, a best move, the winning
// moves found, the plies to the end along the proof. Interruptible.
py::dict solve(const PyGame& g, const py::object& seconds, const py::object& threads_arg,
               const py::object& nodes, const std::string& method, const py::object& table_arg,
               bool first) {
  const int threads = threads_argument(threads_arg);
  const std::uint64_t table_mb =
      count_argument(table_arg, "table_mb", 1, std::uint64_t{1} << 20, "1 to 1048576 (MB)");
  std::atomic<bool> stop{false};
  SolveLimits limits;
  limits.seconds = seconds_argument(seconds, "seconds");
  limits.nodes = count_argument(nodes, "nodes", 0, kAnyCount, "0 (no limit) to 2**64 - 1");
  limits.stop = &stop;
  SolverOptions options;
  options.method = solve_method(method);
  options.threads = solver_threads(threads);
  options.table_bytes = static_cast<std::size_t>(table_mb) << 20;
  options.all_moves = !first;
  check_solver_memory(options);
  const Position pos = searched_copy(g);
  SolveResult r;
  run_interruptible([&] { r = Solver(options).solve(pos, limits); }, [&] { stop = true; });
  const Topology& t = pos.topology();
  py::dict out;
  out["solved"] = r.solved;
  out["winner"] = r.solved ? py::cast(static_cast<int>(r.winner)) : py::none();
  out["move"] = r.best == kNoVertex ? py::none() : py::cast(t.name(r.best));
  std::vector<std::string> wins;
  for (Vertex v : r.winning_moves) wins.push_back(t.name(v));
  out["winning_moves"] = wins;
  out["plies"] = r.solved ? py::cast(r.plies) : py::none();
  out["nodes"] = r.nodes;
  out["seconds"] = r.seconds;
  return out;
}

}  // namespace

void bind_search(py::module_& m) {
  m.def("random_playouts", &random_playouts, py::arg("game"), py::arg("n"), py::arg("seed") = 1,
        py::arg("per_game") = false,
        "plays n uniformly random games from the game's position in C++: the wins by player "
        "as a list (index 0: player 1), or with per_game=True a dict of NumPy arrays of n "
        "entries, 'winners' (0-based) and 'lengths' (moves). Ctrl-C stops it.");
  m.def("mcts", &mcts_search, py::arg("game"), py::arg("playouts") = 1000, py::arg("seconds") = 0.0,
        py::arg("threads") = 1, py::arg("seed") = 1,
        "one Monte Carlo tree search from the game's position (seconds: 0 or inf for no time "
        "limit; any other option of an mcts: player spec as a keyword, solver=0, rave=False, "
        "policy='random', explore=0.3, ...): a dict with the move (and its id, 'action'), its "
        "win rate and visits, playouts, seconds, child_visits (a NumPy array by "
        "legal_actions()) and the analysis lines of GTP tanbo-analyze. Ctrl-C stops it.");
  py::class_<PySearch>(m, "Search",
                       "A Monte Carlo search engine that keeps its tree between moves: "
                       "Search(playouts=1000, seconds=0, threads=1, seed=1, **options).")
      .def(py::init<const py::object&, const py::object&, const py::object&, const py::object&,
                    const py::kwargs&>(),
           py::arg("playouts") = 1000, py::arg("seconds") = 0.0, py::arg("threads") = 1,
           py::arg("seed") = 1)
      .def("search", &PySearch::search, py::arg("game"),
           "searches the game's position, starting from the tree of the last search when the "
           "game continues it; the dict of tanbo.mcts (reused_visits: the visits kept)")
      .def("forget", &PySearch::forget, "drops the tree (a new game starts)")
      .def_property_readonly("spec", &PySearch::spec, "the mcts: player spec of this search")
      .def("__repr__",
           [](const PySearch& s) {
             return s.initialised() ? "<tanbo.Search " + s.spec() + ">"
                                    : std::string("<tanbo.Search, not initialised>");
           })
      .def_property_readonly("_initialised", &PySearch::initialised,
                             "whether __init__ made this search (tanbo/__init__.py)")
      // A search holds its tree and threads, which no pickle carries: refused at every
      // protocol (0 and 1 aborted the process through object.__new__).
      .def("__reduce_ex__", [](const PySearch&, int) -> py::object {
        throw py::type_error(
            "cannot pickle a tanbo.Search: its tree stays in memory; make a "
            "new one with tanbo.Search(...)");
      });
  m.def("solve", &solve, py::arg("game"), py::arg("seconds") = 0.0, py::arg("threads") = 1,
        py::arg("nodes") = 0, py::arg("method") = "pn", py::arg("table_mb") = 64,
        py::arg("first") = false,
        "the exact solver (two players; seconds: 0 or inf for no time limit; nodes: 0 for no "
        "limit; method 'pn' or 'ab'; first: stop at the first winning move): a dict with "
        "solved, winner (player number, None when a limit stopped it), move (a best move), "
        "winning_moves, plies (to the end along the proof), nodes and seconds. Ctrl-C stops "
        "it.");
}

}  // namespace tanbo::python

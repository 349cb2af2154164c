"""The module misused: None in a batch of games, two DOT boards of one file name, first arrays
made by several threads at once, games and searches made without __init__, numbers no player
or point has, a finished game resigned, more playouts than an array holds, time= against
seconds=, a search on a daemon thread when the program ends, more search threads than cores,
an empty path, paths that are not str, a save waiting for another process's lock, a board
too big for the memory limit, playouts without NumPy, __init__ or __setstate__ called again
on a live game. Calls that crashed or hung before run in a child process, so that a crash or a
hang fails the test with a message. Run by CTest (python.module) with the module built."""
import math
import os
import pickle
import subprocess
import sys
import threading
import time

import pytest

import tanbo


def run_child(code, *args, timeout=60):
    """Runs `code` in a fresh interpreter; its stdout, after failing on a signal or a hang."""
    try:
        out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                             text=True, timeout=timeout, env=dict(os.environ))
    except subprocess.TimeoutExpired:
        pytest.fail(f"the child hung (killed after {timeout} s)")
    if out.returncode < 0:
        pytest.fail(f"the child died of signal {-out.returncode}: {out.stderr[-2000:]}")
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_none_in_a_batch_of_observations_is_refused():
    # pybind11 passed None in the list on as a null game: a segmentation fault.
    out = run_child("""
import tanbo
game = tanbo.Game("grid 5x5")
for games in ([None], [game, None]):
    try:
        tanbo.observation_tensors(games)
    except TypeError as e:
        print(e)
""")
    assert out == ("observation_tensors: game 0 is None, not a tanbo.Game\n"
                   "observation_tensors: game 1 is None, not a tanbo.Game\n")


# Two games on rings of n points that a game file calls by one name, board.dot: their specs are
# both "file board.dot", and their seeds on the same vertex ids give them the same hash.
NAMESAKES = """
import tanbo
def ring(n):
    points = " -- ".join(f"p{i}" for i in range(n))
    return tanbo.loads("tanbo-game 1\\ntopology file board.dot\\n"
                       f"dot graph {{ {points} -- p0; p0 [stone=1]; p4 [stone=2]; }}\\nmoves\\n")
small, big = ring(8), ring(200000)
print(small.topology == big.topology, small == big, big == small, small == ring(8))
try:
    tanbo.observation_tensors([small, big] * 20)
except ValueError as e:
    print(e)
"""


def test_two_dot_boards_of_one_name_are_two_boards():
    # observation_tensors wrote the big board's planes into room for the small one's (heap
    # corruption, then an abort), and == said True for the two games and read past the small
    # board's points the other way round.
    out = run_child(NAMESAKES).splitlines()
    assert out[0] == "True False False True"
    assert out[1] == ("game 1 (file board.dot, 200000 points, 2 players) is not on the board "
                      "of game 0 (file board.dot, 8 points, 2 players): another board of the "
                      "same name")


def test_first_arrays_made_by_several_threads_at_once_do_not_hang():
    # pybind11 looked NumPy up in a function-local static the first time an array was made;
    # the import inside let another thread run, which blocked on the static holding the GIL:
    # every run of this hung for ever.
    out = run_child("""
import sys, threading, tanbo
game = tanbo.Game("grid 5x5")
calls = [lambda: tanbo.random_playouts(game, 2), lambda: game.observation_tensor(),
         lambda: tanbo.mcts(game, playouts=20), lambda: game.legal_actions_mask()]
threads = [threading.Thread(target=calls[i % 4]) for i in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("ok")
""", timeout=30)
    assert out == "ok\n"


# Child-script lines that make each call of `calls` and print "ran" or its ValueError's text.
TRY_EACH_CALL = """
def try_each(calls):
    for call in calls:
        try:
            call()
            print("ran")
        except ValueError as e:
            print(e)
"""


def test_a_game_or_search_made_without_init_is_refused_not_run():
    # Game.__new__(Game) gave an object whose methods read an unconstructed game: a
    # segmentation fault on the first call; Search.__new__ the same on search().
    out = run_child(TRY_EACH_CALL + """
import pickle, tanbo
game = tanbo.Game("grid 5x5")
blank = tanbo.Game.__new__(tanbo.Game)
calls = [lambda: blank.is_terminal(), lambda: blank.legal_actions(), lambda: blank.ply,
         lambda: blank.apply_action(0), lambda: blank == game, lambda: game == blank,
         lambda: hash(blank), lambda: pickle.dumps(blank), lambda: blank.clone(),
         lambda: blank.save("never.tanbo"), lambda: tanbo.observation_tensors([blank]),
         lambda: tanbo.random_playouts(blank, 1), lambda: tanbo.mcts(blank, playouts=10),
         lambda: tanbo.solve(blank)]
try_each(calls)
print(repr(blank))
search = tanbo.Search.__new__(tanbo.Search)
try_each([lambda: search.search(game), lambda: search.forget(), lambda: search.spec])
blank.__setstate__(game.serialize())  # what pickle does: the game is then whole
print(blank == game)
""").splitlines()
    never = ("this tanbo.Game was never initialised (Game.__new__ without __init__): make "
             "games with tanbo.Game(...), tanbo.load or tanbo.loads")
    assert out[:14] == [never] * 14
    assert out[14] == "<tanbo.Game, not initialised>"
    assert out[15:18] == ["this tanbo.Search was never initialised (Search.__new__ without "
                          "__init__): make it with tanbo.Search(...)"] * 3
    assert out[18] == "True"
    assert not os.path.exists("never.tanbo")


def test_the_openspiel_methods_of_a_game_made_without_init_are_refused():
    # str() gives repr()'s words (str() of an object should never fail); every other new
    # method of OpenSpiel's State refuses the game as the others do, never reading it.
    out = run_child(TRY_EACH_CALL + """
import tanbo
blank = tanbo.Game.__new__(tanbo.Game)
print(str(blank))
calls = [blank.to_string, blank.observation_string, blank.information_state_string,
         blank.history_str, blank.full_history, blank.resignations, blank.move_number,
         blank.is_initial_state, blank.is_player_node, lambda: blank.child(0),
         lambda: blank.undo_action(0, 0), lambda: blank.player_return(0),
         lambda: blank.player_reward(0), lambda: blank.string_to_action(0, "A1"),
         lambda: blank.action_to_string(0, 0)]
try_each(calls)
""").splitlines()
    assert out[0] == "<tanbo.Game, not initialised>"
    assert out[1:] == ["this tanbo.Game was never initialised (Game.__new__ without __init__): "
                       "make games with tanbo.Game(...), tanbo.load or tanbo.loads"] * 15


def test_player_numbers_and_ids_out_of_range_are_named_as_given():
    game = tanbo.Game("grid 5x5")
    # legal_actions raised RuntimeError "Unable to cast Python instance of type <class 'int'>
    # to C++ type 'int'" for these, and apply_action named 2**70 as 9223372036854775807.
    for player in (2**31, 2**40, 2**70, -2**70):
        with pytest.raises(ValueError) as e:
            game.legal_actions(player)
        assert str(e.value) == (f"player {player} is not a player of this 2-player game (0 to 1) "
                                "nor one of OpenSpiel's special player ids (-5 to -1)")
    for bad in ("0", 1.0, [0]):
        with pytest.raises(TypeError) as e:
            game.legal_actions(bad)
        assert str(e.value) == ("legal_actions(): player must be a 0-based player number or "
                                f"None, not {type(bad).__name__}")
    for action in (2**63, 2**70, 10**20, -2**64):
        with pytest.raises(ValueError) as e:
            game.apply_action(action)
        assert str(e.value) == f"move id {action} is not a point of this board (0 to 24)"
    assert game.ply == 0 and game.legal_actions(0) != []


def test_resigning_a_finished_game_says_it_is_over():
    # It said "player 0 is not a player of this game": the side to move of a finished game.
    game = tanbo.Game("grid 5x5")
    game.resign()
    for player in (None, 1, 2):
        with pytest.raises(ValueError) as e:
            game.resign(player)
        assert str(e.value) == "the game is over: White wins (Black resigned)"
    assert game.moves() == ["resign black"]


def test_per_game_playouts_beyond_an_array_are_refused_by_name():
    # NumPy was asked for an array of -1 entries: "negative dimensions are not allowed".
    game = tanbo.Game("grid 5x5")
    for n in (2**63, 2**64 - 1):
        with pytest.raises(ValueError) as e:
            tanbo.random_playouts(game, n, per_game=True)
        assert str(e.value) == (f"n={n} is more games than per_game=True can hold (arrays of "
                                "at most 9223372036854775807 entries)")


def test_time_is_seconds_under_the_spec_s_name():
    game = tanbo.Game("grid 5x5")
    # time=0 and time=inf were refused ("expected a number from 0.001 to 1000000") although
    # seconds= takes them as no time limit, and seconds= silently won over time=.
    for time in (0, math.inf, 1e10):
        assert tanbo.mcts(game, playouts=30, time=time)["playouts"] == 30
    assert tanbo.Search(time=0.5).spec == tanbo.Search(seconds=0.5).spec
    for time, message in ((-1, "time must be 0 or more (0 or inf: no time limit), not -1"),
                          (math.nan, "time is NaN: give a number of seconds, 0 or more (0 or "
                                     "inf: no time limit)"),
                          ("soon", 'mcts option time="soon": expected a number of seconds, 0 '
                                   "or more (0 or inf: no time limit)")):
        with pytest.raises(ValueError) as e:
            tanbo.mcts(game, playouts=10, time=time)
        assert str(e.value) == message
    with pytest.raises(ValueError, match="the time limit is given twice"):
        tanbo.mcts(game, playouts=10, seconds=1, time=2)


def test_an_option_name_cannot_carry_other_options():
    # **{"rave=0,explore": 1} was read as two options, rave=0 and explore=1.
    game = tanbo.Game("grid 5x5")
    with pytest.raises(ValueError) as e:
        tanbo.mcts(game, playouts=10, **{"rave=0,explore": 1})
    assert str(e.value) == ('unknown mcts option "rave=0,explore": an option\'s name holds no '
                            "',' or '='")


# A long call on a daemon thread when the program ends.
AT_EXIT = """
import sys, threading, time, tanbo
game = tanbo.Game("grid 9x9")
calls = {"mcts": lambda: tanbo.mcts(game, playouts=10**9), "solve": lambda: tanbo.solve(game),
         "search": lambda: tanbo.Search(playouts=10**9).search(game),
         "random_playouts": lambda: tanbo.random_playouts(game, 10**9)}
threading.Thread(target=calls[sys.argv[1]], daemon=True).start()
time.sleep(0.5)
# Objects that take the shutdown a few tenths of a second to free, longer than the call's 50 ms
# between two looks for Ctrl-C, so that the call looks while the interpreter shuts down.
junk = [str(i) for i in range(3 * 10**6)]
print("exit")
"""


@pytest.mark.parametrize("kind", ["mcts", "solve", "search", "random_playouts"])
def test_a_call_on_a_daemon_thread_lets_the_program_end(kind):
    # The call took the GIL back while the interpreter shut down; Python ended its thread and
    # the process aborted (SIGABRT, "terminate called without an active exception") every time.
    assert run_child(AT_EXIT, kind, timeout=30) == "exit\n"


def test_search_threads_are_capped_to_the_cores_as_documented():
    # threads=64 ran 64 search threads on a 2-core machine, each growing a tree of its own with
    # parallel="root" (up to about 150 MB each), against docs/python.md's "capped to the
    # machine's cores".
    cores = os.cpu_count() or 1
    for threads in (cores, cores + 1, 256):
        search = tanbo.Search(threads=threads, parallel="root")
        assert search.spec == ("mcts:playouts=1000" + (f",threads={cores}" if cores > 1 else "")
                               + ",parallel=root")


def test_an_empty_path_is_refused_by_name(tmp_path):
    # load("") said ": cannot open (No such file or directory)" and save("") ": not a file
    # name": the empty name shown as nothing.
    with pytest.raises(ValueError) as e:
        tanbo.load("")
    assert str(e.value) == "load(): the path is empty: give a file name"
    with pytest.raises(ValueError) as e:
        tanbo.Game("grid 5x5").save("")
    assert str(e.value) == "save(): the path is empty: give a file name"


def test_paths_may_be_str_bytes_or_pathlib(tmp_path):
    # save and load took str (and bytes) only: a pathlib.Path gave pybind11's "incompatible
    # function arguments".
    g = tanbo.Game("grid 5x5")
    g.apply_action(g.legal_actions()[0])
    g.save(tmp_path / "a.tanbo")
    assert tanbo.load(tmp_path / "a.tanbo").moves() == g.moves()
    g.save(os.fsencode(tmp_path / "b.sgf"))
    assert tanbo.load(str(tmp_path / "b.sgf")).moves() == g.moves()
    with pytest.raises(TypeError):
        g.save(7)
    with pytest.raises(TypeError):
        tanbo.load(None)


def test_other_threads_run_while_save_waits_for_a_lock(tmp_path):
    # save() held the GIL while it waited, up to 10 s, for another process's lock on the file:
    # every other Python thread stood still meanwhile.
    path = tmp_path / "locked.tanbo"
    g = tanbo.Game("grid 5x5")
    g.save(path)
    g.apply_action(g.legal_actions()[0])
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, sys, time\n"
         "f = open(sys.argv[1])\nfcntl.flock(f, fcntl.LOCK_EX)\nprint('locked', flush=True)\n"
         "time.sleep(1.5)\n", str(path)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline() == "locked\n"
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.005)

    counter = threading.Thread(target=count)
    counter.start()
    start = time.monotonic()
    g.save(path)
    end = time.monotonic()
    done.set()
    counter.join()
    holder.wait(timeout=30)
    during = [t for t in ticks if start < t < end]
    assert end - start > 0.5, "save did not wait for the lock"
    assert len(during) > 20, f"{len(during)} ticks in the {end - start:.1f} s save waited"
    assert tanbo.load(path).moves() == g.moves()


def test_a_memory_refusal_names_what_python_can_change():
    # The refusal named --max-memory, an option of the command line that Python does not have.
    out = run_child("""
import os, tanbo
os.environ["TANBO_MAX_MEMORY"] = "64M"
try:
    tanbo.Game("grid 3000x3000")
except ValueError as e:
    print(e)
""")
    assert "TANBO_MAX_MEMORY" in out and "os.environ['TANBO_MAX_MEMORY'] = SIZE" in out, out
    assert "--max-memory" not in out, out


def test_playouts_without_numpy_count_wins():
    # random_playouts made its per-game arrays, empty, even when per_game was False: without
    # NumPy the plain count of wins raised ImportError.
    out = run_child("""
import sys
import threading
import time
sys.modules["numpy"] = None  # as if NumPy were not installed
import tanbo
g = tanbo.Game("grid 5x5")
print(sum(tanbo.random_playouts(g, 50, seed=3)))
try:
    tanbo.random_playouts(g, 5, per_game=True)
except ImportError:
    print("per_game needs NumPy")
""")
    assert out == "50\nper_game needs NumPy\n", out


def test_init_or_setstate_on_a_made_game_is_refused():
    # pybind11 ignored them: g.__init__("grid 9x9") returned None and g stayed a 5x5 game.
    g = tanbo.Game("grid 5x5")
    g.apply_action(g.legal_actions()[0])
    before = g.serialize()
    with pytest.raises(TypeError, match=r"Game.__init__\(\) on a Game that is made already"):
        g.__init__("grid 9x9")
    with pytest.raises(TypeError, match=r"Game.__setstate__\(\) on a Game that is made already"):
        g.__setstate__(tanbo.Game("grid 7x7").__getstate__())
    assert g.serialize() == before
    s = tanbo.Search(playouts=10)
    with pytest.raises(TypeError, match=r"Search.__init__\(\) on a Search that is made already"):
        s.__init__(playouts=20)
    # Made the usual ways, they work as before: a new game, pickle, copy, a subclass.
    copy = pickle.loads(pickle.dumps(g))
    assert copy.serialize() == before and copy == g
    assert tanbo.Game("grid 3x3").vertices[0] == "A1"

    class Named(tanbo.Game):
        pass

    assert Named("grid 4x4", "spaced").topology == "grid 4x4"
    assert tanbo.Game.__init__.__doc__ and "topology" in tanbo.Game.__init__.__doc__

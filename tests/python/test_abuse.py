"""The module as programs written in a hurry use it: batches of games made as they are read,
Python code run in the middle of a call (a garbage collection's callbacks), short calls on
daemon threads when the program ends, numbers of every type and size for counts and seeds, NumPy
booleans as options, a process forked while a Search searches, file names and texts that are not
UTF-8, subclasses of Game copied and pickled, the module reloaded. Calls that crashed before run
in a child process (run_child), so that a crash fails the test with a message. Run by CTest
(python.module) with the module built."""
import copy
import os
import pickle

import pytest

import tanbo
from test_misuse import run_child


def test_a_batch_whose_games_are_made_as_they_are_read():
    # pybind11 turned the sequence into pointers and let go of each game once read: a sequence
    # that makes its games (clones) as they are read left pointers to freed games, and
    # observation_tensors crashed (segmentation fault).
    out = run_child("""
import numpy, tanbo
game, games = tanbo.Game("grid 5x5"), []
for _ in range(6):
    games.append(game.clone())
    game.apply_action(game.legal_actions()[0])
class Clones:
    def __len__(self):
        return len(games)
    def __getitem__(self, i):
        if i >= len(games):
            raise IndexError(i)
        return games[i].clone()
want = numpy.stack([g.observation_tensor(0) for g in games])
print(bool((tanbo.observation_tensors(Clones(), 0) == want).all()),
      bool((tanbo.observation_tensors((g.clone() for g in games), 0) == want).all()))
""")
    assert out == "True True\n"
    game = tanbo.Game("grid 5x5")
    with pytest.raises(TypeError, match="game 1 is a str, not a tanbo.Game"):
        tanbo.observation_tensors([game, "grid 5x5"])
    with pytest.raises(ValueError, match=r"player 2\*\*40|player 1099511627776 is not a player"):
        tanbo.observation_tensors([game], 2**40)


# A game of 6000 moves whose record a garbage collection's callback replaces (another player
# resigns, which makes a new game, and the resignation is taken back) while full_history() makes
# its pairs, then fills memory with bytes 0xff; prints whether the answer is the game's history.
REPLACED_MEANWHILE = """
import gc, tanbo
game = tanbo.Game("grid 200x200", players=3)
for _ in range(6000):
    game.apply_action(game.legal_actions()[0])
want = [tuple(a) for a in game.full_history()]
calls, junk = 0, []
def replace(phase, info):
    global calls
    calls += 1
    if calls == 5:  # the start of the third collection, once the loop has begun
        game.resign(game.to_move % 3 + 1)
        game.undo()
        junk.extend(b"\\xff" * n for n in range(1000, 400000, 997))
gc.collect()
gc.set_threshold(1)
gc.callbacks.append(replace)
got = game.full_history()
gc.callbacks.clear()
gc.set_threshold(700)
print(calls > 5, [tuple(a) for a in got] == want, len(got), game.ply)
"""


def test_full_history_is_of_the_game_as_it_was_called_whatever_runs_meanwhile():
    # full_history() read the record while it made its pairs; a collection's callback that
    # replaced the game meanwhile freed the record, and the loop read freed memory: 3 pairs of a
    # game of 6000 moves.
    assert run_child(REPLACED_MEANWHILE) == "True True 6000 6000\n"


# Daemon threads that call random_playouts again and again, each call short, when the program
# ends: some call gives the GIL back to the interpreter as it shuts down.
SHORT_CALLS_AT_EXIT = """
import threading, time, tanbo
game = tanbo.Game("grid 5x5")
def loop():
    while True:
        tanbo.random_playouts(game, 1)
for _ in range(4):
    threading.Thread(target=loop, daemon=True).start()
time.sleep(0.2)
print("exit")
"""


def test_short_calls_on_daemon_threads_let_the_program_end():
    # The thread asked for the GIL back in a destructor while the interpreter shut down; Python
    # ended the thread there, and the process aborted ("terminate called without an active
    # exception") in 18 runs of 30.
    for _ in range(8):
        assert run_child(SHORT_CALLS_AT_EXIT, timeout=30) == "exit\n"


def test_counts_and_seeds_are_refused_by_name():
    # pybind11 refused these with "incompatible function arguments" (TypeError), naming neither
    # the argument nor its range; a bool was read as 1.
    game = tanbo.Game("grid 5x5")
    refused = {
        lambda: tanbo.random_playouts(game, -1): "n must be 0 to 2**64 - 1, not -1",
        lambda: tanbo.random_playouts(game, 1, seed=2**64):
            "seed must be 0 to 2**64 - 1, not 18446744073709551616",
        lambda: tanbo.mcts(game, playouts=-5): "playouts must be 0 to 10**12 (0: the time limit "
                                               "alone), not -5",
        lambda: tanbo.mcts(game, threads=2**40): "threads must be 1 to 256, not 1099511627776",
        lambda: tanbo.Search(threads=0): "threads must be 1 to 256, not 0",
        lambda: tanbo.Search(seed=-1): "seed must be 0 to 2**64 - 1, not -1",
        lambda: tanbo.solve(game, nodes=-1): "nodes must be 0 (no limit) to 2**64 - 1, not -1",
        lambda: tanbo.solve(game, table_mb=2**64):
            "table_mb must be 1 to 1048576 (MB), not 18446744073709551616",
        lambda: tanbo.random_playouts(game, 10**5000):  # too long for str(): described
            "n must be 0 to 2**64 - 1, not (an integer too long to write out)",
        lambda: game.stones(-10**5000):
            "player (an integer too long to write out) is not a player of this 2-player game",
        lambda: tanbo.Game("grid 5x5", players=2**64):
            "a game needs 2 to 8 players, not 18446744073709551616 (None: the setup's number)",
    }
    for call, message in refused.items():
        with pytest.raises(ValueError) as e:
            call()
        assert str(e.value) == message
    for call, message in ((lambda: tanbo.random_playouts(game, 100, True),
                           "seed must be an integer, not bool (True)"),
                          (lambda: tanbo.random_playouts(game, 1.0),
                           "n must be an integer, not float (1.0)"),
                          (lambda: tanbo.mcts(game, seed=None),
                           "seed must be an integer, not None"),
                          (lambda: tanbo.mcts(game, seconds="1"), "seconds must be a number"),
                          (lambda: tanbo.mcts(game, seconds=1j), "seconds must be a number"),
                          (lambda: tanbo.solve(game, seconds=True), "seconds must be a number")):
        with pytest.raises(TypeError) as e:
            call()
        assert str(e.value).startswith(message), e.value
    with pytest.raises(ValueError, match='mcts option time="True": expected a number of seconds'):
        tanbo.Search(time=True)  # was a limit of 1 s
    assert game.ply == 0


def test_numbers_of_other_types_and_sizes_are_read_as_numbers():
    numpy = pytest.importorskip("numpy")
    game = tanbo.Game("grid 5x5")
    assert sum(tanbo.random_playouts(game, numpy.uint64(7), seed=numpy.int8(3))) == 7
    assert tanbo.random_playouts(game, 0) == [0, 0]
    # An int too big for a float is a number of seconds beyond 1e9: no time limit.
    assert tanbo.mcts(game, playouts=5, seconds=10**400)["playouts"] == 5
    with pytest.raises(ValueError, match="seconds must be 0 or more"):
        tanbo.mcts(game, seconds=-10**400)
    # Search(playouts=2**63).spec was "mcts:playouts=9223372036854775808", which the command
    # line refuses; 10**12 is the most it takes.
    assert tanbo.Search(playouts=10**12).spec == "mcts:playouts=1000000000000"
    with pytest.raises(ValueError, match="playouts must be 0 to 10"):
        tanbo.Search(playouts=2**63)


def test_numpy_booleans_are_booleans_for_options():
    # rave=numpy.False_ (a flag taken from an array, or a comparison) was refused: "mcts option
    # rave=False: expected 1 or 0 (on/off)".
    numpy = pytest.importorskip("numpy")
    flags = numpy.array([False, True])
    assert tanbo.Search(rave=flags[0], reuse=flags[1]).spec == "mcts:playouts=1000,rave=0"
    assert tanbo.mcts(tanbo.Game("grid 5x5"), playouts=5, rave=flags[0])["playouts"] == 5


FORKED_WHILE_SEARCHING = """
import os, threading, time, tanbo
game, search = tanbo.Game("grid 9x9"), tanbo.Search(playouts=10**9)
threading.Thread(target=search.search, args=(game,), daemon=True).start()
while True:  # until the thread searches
    try:
        search.forget()
    except ValueError:
        break
    time.sleep(0.01)
pid = os.fork()
if pid == 0:
    try:
        search.search(game)
    except ValueError as e:
        print(e, flush=True)
    print(tanbo.Search(playouts=20).search(game)["playouts"], flush=True)
    os._exit(0)
os.waitpid(pid, 0)
"""


def test_a_search_forked_while_it_searched_says_so_in_the_child():
    # The child's Search said "this Search is searching on another thread" for ever: that
    # thread is not in the child, and the tree it was writing is left half-written there.
    out = run_child(FORKED_WHILE_SEARCHING).splitlines()
    assert out[0].startswith("this Search was searching on another thread when the process "
                             "forked (os.fork or multiprocessing)"), out
    assert out[1] == "20"


def test_names_and_texts_that_are_not_utf8_are_refused_as_such(tmp_path, monkeypatch):
    # A file name from os.listdir holds surrogates for its undecodable bytes; pybind11 refused
    # such a str with "incompatible constructor arguments" (TypeError), which said nothing of
    # the byte; now the library's refusal names it, as for the bytes themselves.
    monkeypatch.chdir(tmp_path)
    with open(b"caf\xe9.dot", "w") as f:
        f.write("graph { a -- b -- c -- d -- a; a [stone=1]; c [stone=2]; }")
    (name,) = os.listdir(".")
    for spec in ("file " + name, b"file " + os.fsencode(name)):
        with pytest.raises(ValueError, match=r'^the topology spec "file caf\\xe9.dot" is not UTF-8'):
            tanbo.Game(spec)
    text = "tanbo-game 1\ntopology grid 5x5\nplayer black Ren\udce9\nmoves\n"
    with pytest.raises(ValueError, match="text:3: the line is not UTF-8 text"):
        tanbo.loads(text)
    with pytest.raises(TypeError, match="topology must be a str, not None"):
        tanbo.Game(None)
    with pytest.raises(TypeError, match="text must be a str, not int"):
        tanbo.Game.deserialize(5)
    # A move's name too (pybind11's "incompatible function arguments" named neither).
    game = tanbo.Game("grid 5x5")
    with pytest.raises(TypeError, match="^name must be a str, not None$"):
        game.play(None)
    with pytest.raises(TypeError, match="^name must be a str, not int$"):
        game.play(3)
    assert game.ply == 0


class Labelled(tanbo.Game):
    """A subclass with an __init__ of its own arguments and attributes."""

    def __init__(self, label):
        super().__init__("grid 5x5")
        self.label = label
        self.seen = [label]

    def tag(self):
        return self.label + "@" + str(self.ply)


def test_copies_and_pickles_of_a_subclass_keep_its_class_and_attributes():
    # copy.copy, copy.deepcopy, pickle, clone(), copy() and child() gave plain tanbo.Game
    # objects without the attributes.
    game = Labelled("mine")
    game.apply_action(game.legal_actions()[0])
    game.me = game  # an attribute that refers back to the game
    for name, make in (("copy.copy", copy.copy), ("copy.deepcopy", copy.deepcopy),
                       ("clone", Labelled.clone), ("copy", Labelled.copy),
                       ("pickle", lambda g: pickle.loads(pickle.dumps(g))),
                       ("pickle 0", lambda g: pickle.loads(pickle.dumps(g, 0)))):
        made = make(game)
        assert type(made) is Labelled and made == game and made.tag() == "mine@1", name
        deep = name in ("copy.deepcopy", "pickle", "pickle 0")
        assert (made.seen is game.seen) != deep, name  # shared, or copied as deep copies do
        assert made.me is (made if deep else game), name
    child = game.child(game.legal_actions()[0])
    assert type(child) is Labelled and child.tag() == "mine@2" and game.ply == 1
    assert type(tanbo.Game("grid 5x5").clone()) is tanbo.Game
    assert type(pickle.loads(pickle.dumps(tanbo.Game("grid 5x5")))) is tanbo.Game
    with pytest.raises(TypeError, match="not a subclass of Game"):
        tanbo._game_from_text(tanbo.Game("grid 5x5").serialize(), int)  # a forged pickle
    with pytest.raises(TypeError, match="takes the text of Game.serialize"):
        tanbo.Game.__new__(tanbo.Game).__setstate__(5)


def test_copies_of_a_subclass_after_the_module_is_reloaded():
    # importlib.reload (a notebook's autoreload) runs tanbo/__init__.py again on the same
    # classes, whose methods are then the wrappers of the last run: they must wrap pybind11's.
    out = run_child("""
import copy, importlib, pickle, tanbo
for _ in range(3):
    importlib.reload(tanbo)
class Labelled(tanbo.Game):
    def __init__(self):
        super().__init__("grid 5x5")
        self.label = "mine"
game = Labelled()
print(copy.deepcopy(game).label, pickle.loads(pickle.dumps(game)).label, game.clone().label)
try:
    game.__setstate__(game.serialize())
except TypeError as e:
    print(e)
""")
    assert out == ("mine mine mine\nGame.__setstate__() on a Game that is made already changes "
                   "nothing: make a new game with tanbo.loads(text) or pickle.loads\n")

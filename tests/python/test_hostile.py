"""The Python module used as a careless or hostile program would: searches while another thread
changes the game, time arguments out of range, arguments that once meant a default silently,
pickled roots, roots() on a big board. Run by CTest (python.module) with the module built."""
import copy
import math
import os
import pickle
import random
import subprocess
import sys
import time

import pytest

import tanbo
from test_module import reference_of

# One kind of search, called again and again for a while, on a game that another thread plays
# and undoes on meanwhile; prints "ok". Without the search's own copy of the position, solve and
# mcts crashed within a few calls and random_playouts crashed or hung with its thread spinning.
RACE = """
import random, sys, threading, time, tanbo
kind, spec, budget = sys.argv[1], sys.argv[2], float(sys.argv[3])
game = tanbo.Game(spec)
stop = threading.Event()
def mutate():
    rng = random.Random(1)
    while not stop.is_set():
        if game.is_over or (game.ply > 0 and rng.random() < 0.4):
            game.undo()
        else:
            game.play_id(rng.choice(game.legal_move_ids()))
thread = threading.Thread(target=mutate)
thread.start()
end = time.monotonic() + budget
try:
    while time.monotonic() < end:
        try:
            if kind == "solve":
                r = tanbo.solve(game, seconds=0.05)
                assert r["move"] is None or isinstance(r["move"], str)
            elif kind == "mcts":
                assert tanbo.mcts(game, playouts=100, threads=2)["move"]
            else:
                assert sum(tanbo.random_playouts(game, 1)) == 1
        except ValueError as e:  # the other thread ended the game: "the game is over"
            assert "over" in str(e), e
finally:
    stop.set()
    thread.join()
print("ok")
"""


@pytest.mark.parametrize("kind,spec,budget", [("solve", "grid 60x60", 3), ("mcts", "grid 7x7", 2),
                                              ("random_playouts", "grid 30x30", 2),
                                              ("random_playouts", "grid 100x100", 2)])
def test_a_search_while_another_thread_plays_on_the_game_never_crashes_or_hangs(kind, spec, budget):
    # In a child process, so that a crash fails this test with a message instead of ending
    # pytest, and a hang is cut by the timeout (far above the budget and a call's few seconds).
    try:
        out = subprocess.run([sys.executable, "-c", RACE, kind, spec, str(budget)],
                             capture_output=True, text=True, timeout=60, env=dict(os.environ))
    except subprocess.TimeoutExpired:
        pytest.fail(f"{kind} on a game changed by another thread hung (killed after 60 s)")
    if out.returncode < 0:
        pytest.fail(f"{kind} on a game changed by another thread died of signal {-out.returncode}")
    assert out.returncode == 0 and out.stdout == "ok\n", out.stderr


def test_infinite_and_huge_seconds_mean_no_time_limit():
    game = tanbo.Game("grid 7x7")
    for seconds in (math.inf, 1e10, 9.3e9, 1e300):
        result = tanbo.mcts(game, playouts=50, seconds=seconds)
        assert result["playouts"] == 50 and result["move"] in game.legal_moves()
    for seconds in (math.inf, 1e10):
        assert tanbo.solve(tanbo.Game("grid 4x3"), seconds=seconds)["solved"]


@pytest.mark.parametrize("seconds,message", [
    (-1, "seconds must be 0 or more (0 or inf: no time limit), not -1"),
    (-0.5, "seconds must be 0 or more (0 or inf: no time limit), not -0.5"),
    (-math.inf, "seconds must be 0 or more (0 or inf: no time limit), not -inf"),
    (math.nan, "seconds is NaN: give a number of seconds, 0 or more (0 or inf: no time limit)")])
def test_negative_and_nan_seconds_are_refused(seconds, message):
    game = tanbo.Game("grid 7x7")
    for search in (lambda: tanbo.mcts(game, playouts=10, seconds=seconds),
                   lambda: tanbo.solve(game, seconds=seconds)):
        with pytest.raises(ValueError) as e:
            search()
        assert str(e.value) == message
    assert game.ply == 0


def test_players_0_and_setup_empty_are_refused_not_read_as_the_default():
    with pytest.raises(ValueError, match=r"a game needs 2 to 8 players, not 0 \(None: "):
        tanbo.Game("grid 9x9", players=0)
    with pytest.raises(ValueError, match="not -3"):
        tanbo.Game("grid 9x9", players=-3)
    with pytest.raises(ValueError, match='setup "" is not a setup'):
        tanbo.Game("grid 9x9", setup="")
    default = tanbo.Game("grid 9x9", setup=None, players=None)
    assert default.players == 2 and default.to_text() == tanbo.Game("grid 9x9").to_text()


def test_roots_are_plain_values_that_pickle_and_copy():
    roots = tanbo.Game("grid 9x9").roots()
    again = pickle.loads(pickle.dumps(roots))
    assert again == roots and type(again[0]) is tanbo.Root
    assert copy.deepcopy(roots) == roots
    assert tanbo.Root(1, ["A1"], ["B1"]).player == 1


@pytest.mark.parametrize("spec,players", [("grid 9x9", None), ("hex 4", 3), ("grid 5x5x5", None)])
def test_roots_match_the_rules_written_again(spec, players):
    game = tanbo.Game(spec, players=players)
    rng = random.Random(spec)
    while True:
        ref = reference_of(game)
        want = sorted((ref.colour[next(iter(r))], sorted(r), sorted(ref.root_space(r)))
                      for r in ref.roots())
        index = {v: i for i, v in enumerate(game.vertices)}
        for root in game.roots():
            assert root.stones == sorted(root.stones, key=index.get)
            assert root.space == sorted(root.space, key=index.get)
        assert sorted((r.player, sorted(r.stones), sorted(r.space)) for r in game.roots()) == want
        if game.is_over:
            break
        if game.players > 2 and rng.random() < 0.03:
            game.resign()
        else:
            game.play(rng.choice(game.legal_moves()))


def test_roots_takes_time_in_proportion_to_the_board():
    # 28,224 roots on a million points: a scan of the legal moves for each root took 30 times
    # as long as listing the point names; one pass over the board takes a fraction of it.
    game = tanbo.Game("grid 1000x1000")
    start = time.perf_counter()
    names = game.vertices
    listing = time.perf_counter() - start
    start = time.perf_counter()
    roots = game.roots()
    took = time.perf_counter() - start
    assert len(names) == 10**6 and len(roots) == 28224
    assert sum(len(r.stones) for r in roots) == len(game.stones(1)) + len(game.stones(2))
    assert took < 2 * listing + 1.0, (took, listing)


# save() on a daemon thread while the interpreter shuts down: the process aborted ("terminate
# called after throwing", status 134) when the write's thread asked for the GIL back.
SAVE_AT_EXIT = """
import sys, threading, time, tanbo
game = tanbo.Game("grid 19x19")
def save_for_ever():
    while True:
        game.save(sys.argv[1])
threading.Thread(target=save_for_ever, daemon=True).start()
time.sleep(0.3)
print("ok")
"""


def test_save_on_a_daemon_thread_at_exit_ends_the_program_cleanly(tmp_path):
    for _ in range(3):
        r = subprocess.run([sys.executable, "-c", SAVE_AT_EXIT, str(tmp_path / "g.tanbo")],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0 and r.stdout == "ok\n", (r.returncode, r.stderr)
        assert tanbo.load(str(tmp_path / "g.tanbo")).ply == 0
    assert [p.name for p in tmp_path.iterdir()] == ["g.tanbo"]  # no temporary file left


def test_games_pickle_at_every_protocol_and_searches_at_none():
    game = tanbo.Game("grid 5x5")
    game.apply_action(game.legal_actions()[0])
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):  # 0 and 1 aborted the process
        back = pickle.loads(pickle.dumps(game, protocol))
        assert back == game and back.history() == game.history(), protocol
        with pytest.raises(TypeError, match="cannot pickle a tanbo.Search"):
            pickle.dumps(tanbo.Search(), protocol)


def test_a_time_limit_too_short_for_a_playout_still_gives_a_move():
    # "the search found no move" (a limit of 1e-6 s, before any playout). On a board of 40,000
    # points the first playout takes longer than the least limit, 0.001 s.
    game = tanbo.Game("grid 200x200")
    r = tanbo.mcts(game, playouts=0, seconds=0.001)
    assert r["move"] in game.legal_moves(), r
    assert tanbo.Search(seconds=0.001).search(game)["move"] in game.legal_moves()


@pytest.mark.skipif("TANBO" not in os.environ, reason="needs the tanbo program (CTest sets TANBO)")
def test_a_search_s_spec_is_one_the_command_line_takes():
    # Search(seconds=1e-6).spec was "mcts:playouts=1000,time=1e-06", which tanbo play refuses.
    for seconds in (1e-6, 5e-324):
        with pytest.raises(ValueError, match="seconds must be 0 .no time limit. or at least 0.001"):
            tanbo.Search(seconds=seconds)
    for seconds, text in ((0.001, "0.001"), (123456789, "123456789"), (0.25, "0.25")):
        search = tanbo.Search(seconds=seconds)
        spec = search.spec
        assert spec == "mcts:playouts=1000,time=" + text, spec
        assert repr(search) == "<tanbo.Search " + spec + ">"
        r = subprocess.run([os.environ["TANBO"], "play", "--topology", "grid 5x5", "--black", spec],
                           input="quit\n", capture_output=True, text=True, timeout=30)
        assert r.returncode == 0 and "Black " + spec in r.stdout, r


def test_messages_keep_their_text_whatever_bytes_they_quote(tmp_path):
    game = tanbo.Game("grid 5x5")
    with pytest.raises(ValueError, match=r'holds a control character'):
        tanbo.mcts(game, explore="0.3\0x")  # was "mcts option explore=0.3", cut at the NUL
    dot = tmp_path / "latin.dot"
    dot.write_bytes(b"graph{ n\xe9[stone=1]; b[stone=2]; n\xe9--c--b; c--d--n\xe9; d--b }")
    with pytest.raises(ValueError, match=r'node id "n\\xe9" is not UTF-8 text'):
        tanbo.Game("file " + str(dot))
    sgf = tmp_path / "latin.sgf"
    sgf.write_bytes(b"(;GM[1]SZ[9]PB[Ren\xe9];B[bi])")  # not UTF-8, and no CA saying otherwise
    with pytest.raises(ValueError, match="PB is not UTF-8 text"):
        tanbo.load(str(sgf))
    sgf.write_bytes(b"(;GM[1]CA[ISO-8859-1]SZ[9]PB[Ren\xe9];B[bi])")
    assert "player black Ren\u00e9" in tanbo.load(str(sgf)).to_text()


def test_integers_too_big_for_cpp_are_refused_as_values_out_of_range():
    # pybind11 refused them with "incompatible function arguments" (TypeError), where
    # apply_action's ValueError names the number.
    game = tanbo.Game("grid 5x5")
    point = "is not a point of this board (0 to 24)"
    for call, message in ((lambda: game.play_id(2**63), "move id 9223372036854775808 " + point),
                          (lambda: game.action_to_string(2**70), point),
                          (lambda: game.stones(2**40), "player 1099511627776 is not a player"),
                          (lambda: game.resign(2**40), "player 1099511627776 is not a player"),
                          (lambda: game.legal_actions_mask(-2**40), "(0 to 1)"),
                          (lambda: game.observation_tensor(2**40), "(0 to 1)")):
        with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
            call()
    with pytest.raises(TypeError):
        game.play_id(None)
    assert game.ply == 0
    numpy = pytest.importorskip("numpy")
    assert game.action_to_string(numpy.int64(3)) == "D1"  # __index__ integers as before

"""The Python module: every function of docs/python.md, against independent reference rules
(reference_rules.py) and with bad input. Run by CTest (python.module) with the module built."""
import os
import random
import re
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import tanbo
from reference_rules import Reference

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def reference_of(game):
    stones = {}
    for p in range(1, game.players + 1):
        for v in game.stones(p):
            stones[v] = p
    nbrs = {v: game.neighbours(v) for v in game.vertices}
    ref = Reference(game.vertices, nbrs, stones, game.players)
    ref.to_move = game.to_move
    return ref


@pytest.mark.parametrize("spec,games", [("grid 9x9", 3), ("grid 5x5x5", 3), ("line 31", 6),
                                        ("grid 3x3x3x3", 3), ("hex 4", 2)])
def test_random_games_agree_with_reference_rules_move_by_move(spec, games):
    rng = random.Random(spec)
    for _ in range(games):
        game = tanbo.Game(spec)
        ref = reference_of(game)
        while True:
            assert game.legal_moves() == ref.legal_moves()
            assert game.to_move == ref.to_move
            for p in range(1, game.players + 1):
                assert game.stones(p) == ref.stones(p)
            assert game.winner == ref.winner
            if game.winner is not None:
                assert game.is_over and game.legal_moves() == []
                break
            move = rng.choice(ref.legal_moves())
            game.play(move)
            ref.play(move)


def test_illegal_moves_raise_value_error_and_change_nothing():
    game = tanbo.Game("grid 9x9")
    game.play(game.legal_moves()[0])
    before = (game.to_text(), game.legal_moves(), game.ply, game.to_move)
    for bad in ["A1", "Z99", "", "B1", "x" * 100000, "B\0"]:
        with pytest.raises(ValueError) as e:
            game.play(bad)
        assert len(str(e.value)) < 400
    with pytest.raises(ValueError, match="not a point"):
        game.play_id(10**6)
    with pytest.raises(ValueError):
        game.play_id(-1)
    occupied = game.stones(1)[0]
    with pytest.raises(ValueError, match="occupied|stone"):
        game.play(occupied)
    assert (game.to_text(), game.legal_moves(), game.ply, game.to_move) == before


def test_bad_games_and_arguments_raise_value_error():
    with pytest.raises(ValueError, match="grid 9x9 wrap wrap|wrap"):
        tanbo.Game("grid 9x9 wrap wrap")
    with pytest.raises(ValueError):
        tanbo.Game("nonsense 7")
    with pytest.raises(ValueError, match="setup"):
        tanbo.Game("grid 9x9", setup="no-such-setup")
    with pytest.raises(ValueError):
        tanbo.Game("grid 9x9", players=9)
    with pytest.raises(ValueError):
        tanbo.Game("grid 100000x100000")
    game = tanbo.Game("grid 9x9")
    with pytest.raises(ValueError):
        game.stones(3)
    with pytest.raises(ValueError):
        game.neighbours("Z99")
    with pytest.raises(ValueError, match="no move to take back"):
        game.undo()
    with pytest.raises(ValueError):
        tanbo.load(os.path.join(HERE, "no-such-file.tanbo"))
    with pytest.raises(TypeError):
        game.play(5)


def test_the_board_and_the_turn():
    game = tanbo.Game("grid 3x2", setup=None)
    assert game.vertices == ["A1", "B1", "C1", "A2", "B2", "C2"]
    assert game.neighbours("B1") == ["A1", "C1", "B2"]
    assert game.topology == "grid 3x2"
    four = tanbo.Game("grid 19x19", setup="four")
    assert four.players == 4 and four.to_move == 1 and four.winner is None
    assert tanbo.Game("hex 3", players=3).players == 3


def test_setups_name_the_starts_a_board_has(tmp_path):
    # The rule documents' boards start from their own setup by default; odd boards from the
    # 2026 start; each name offered starts a game of that name.
    assert tanbo.setups("grid 7x7") == ["steere2026", "dense", "spaced"]
    assert tanbo.setups("grid 9x9")[0] == "steere1995"
    assert tanbo.setups("grid 13x13", 2)[0] == "steere2005"
    assert tanbo.setups("grid 19x19", players=4) == ["four", "dense", "spaced"]
    assert "four" in tanbo.setups("grid 19x19") and "four" not in tanbo.setups("grid 19x19", 2)
    assert tanbo.setups("grid 5x5x5")[0] == "pbmserv" and tanbo.setups("hex 4") == ["hexbo"]
    assert tanbo.setups("grid 2x2") == []
    for spec, players in [("grid 7x7", None), ("grid 19x19", 4), ("hex 5", 3), ("line 31", None)]:
        names = tanbo.setups(spec, players)
        assert tanbo.Game(spec, players=players).setup == names[0]
        for name in names:
            game = tanbo.Game(spec, setup=name, players=players)
            assert game.setup == name and (players is None or game.players == players)
    # A DOT board offers its own stones only when they start a game.
    good = tmp_path / "good.dot"
    good.write_text("graph { a [stone=black]; c [stone=white]; a -- b -- c -- d -- a }")
    assert tanbo.setups("file " + str(good)) == ["file"]
    touching = tmp_path / "touching.dot"
    touching.write_text("graph { a [stone=black]; b [stone=black]; d [stone=white]; "
                        "a -- b -- c -- d -- e }")
    assert tanbo.setups("file " + str(touching)) == []
    with pytest.raises(ValueError, match="are adjacent"):
        tanbo.Game("file " + str(touching))
    for players, reason in [(1, "2 to 8 players, not 1"), (9, "not 9"), (2**70, "not 1180591")]:
        with pytest.raises(ValueError, match=reason):
            tanbo.setups("grid 7x7", players)
    with pytest.raises(ValueError, match="grid 3x"):
        tanbo.setups("grid 3x")


def test_play_undo_copy_moves_and_ids():
    game = tanbo.Game("grid 9x9")
    start = game.to_text()
    ids = game.legal_move_ids()
    assert [game.vertices[i] for i in ids] == game.legal_moves()
    game.play_id(ids[0])
    second = game.legal_moves()[0]
    game.play(second)
    assert game.moves() == [game.vertices[ids[0]], second]
    copy = game.copy()
    copy.undo()
    assert game.ply == 2 and copy.ply == 1
    game.undo()
    game.undo()
    assert game.to_text() == start
    game.resign()
    assert game.winner == 2 and game.moves() == ["resign black"]
    assert game.legal_moves() == [] and game.to_move == 0
    with pytest.raises(ValueError, match="over"):
        game.play_id(0)
    game.undo()
    assert game.winner is None


def test_roots_and_observation():
    game = tanbo.Game("grid 5x5x5")
    roots = game.roots()
    assert len(roots) == 8
    for root in roots:
        player, stones, space = root
        assert player in (1, 2) and stones and space
        assert all(s in game.stones(player) for s in stones)
    obs = game.observation()
    assert obs.dtype == np.float32 and obs.shape == (3, 5, 5, 5)
    assert obs.sum() == 125 and obs[0].sum() == 125 - 8
    # [plane, z, y, x]: point "235" is column 2, row 3, layer 5.
    black = set(game.stones(1))
    for name in game.vertices:
        x, y, z = (int(c) - 1 for c in name)
        assert obs[1, z, y, x] == (1.0 if name in black else 0.0)
    assert tanbo.Game("hex 3").observation().shape == (3, 19)


def test_files_sgf_and_load(tmp_path):
    game = tanbo.Game("grid 9x9")
    for _ in range(5):
        game.play(game.legal_moves()[-1])
    path = str(tmp_path / "g.tanbo")
    game.save(path)
    loaded = tanbo.load(path)
    assert loaded.moves() == game.moves() and loaded.to_text() == game.to_text()
    sgf = game.to_sgf()
    assert sgf.startswith("(;")
    sgf_path = str(tmp_path / "g.sgf")
    game.save(sgf_path)
    assert open(sgf_path).read() == sgf
    assert tanbo.load(sgf_path).moves() == game.moves()
    with pytest.raises(ValueError):
        tanbo.Game("grid 5x5x5").to_sgf()
    (tmp_path / "bad.tanbo").write_text("tanbo-game 1\ntopology grid 9x9\nmoves\nblack Z99\n")
    with pytest.raises(ValueError, match="bad.tanbo:4"):
        tanbo.load(str(tmp_path / "bad.tanbo"))
    with pytest.raises(ValueError):
        game.save(str(tmp_path / "no" / "such" / "folder.tanbo"))


def test_dot_boards(tmp_path):
    dot = tmp_path / "ring.dot"
    dot.write_text('graph { players=2; a [stone=1]; b; c; d [stone=2]; e; f;'
                   ' a -- b -- c -- d -- e -- f -- a; }')
    game = tanbo.Game("file " + str(dot))
    assert game.vertices == ["a", "b", "c", "d", "e", "f"]
    assert game.stones(1) == ["a"] and game.stones(2) == ["d"]
    assert game.legal_moves() == ["b", "f"]


def test_dot_boards_refuse_a_node_named_as_gtp_names_a_pass(tmp_path):
    dot = tmp_path / "pass.dot"
    dot.write_text('graph { a [stone=1]; b [stone=2]; a -- Pass -- b }')
    with pytest.raises(ValueError, match='node id "Pass" cannot name a point: the engine '
                       r'protocol \(GTP\) reads "pass", in any case, as a pass'):
        tanbo.Game("file " + str(dot))


def test_random_playouts_count_every_game_and_repeat_for_a_seed():
    game = tanbo.Game("grid 9x9")
    wins = tanbo.random_playouts(game, 500, seed=7)
    assert len(wins) == 2 and sum(wins) == 500
    assert tanbo.random_playouts(game, 500, seed=7) == wins
    assert tanbo.random_playouts(tanbo.Game("hex 4", players=3), 90, 1).__len__() == 3
    assert game.ply == 0  # the game itself is not played on
    over = tanbo.Game("grid 9x9")
    over.resign()
    assert tanbo.random_playouts(over, 10) == [0, 10]


def test_mcts_returns_a_legal_move_and_its_search():
    game = tanbo.Game("grid 9x9")
    result = tanbo.mcts(game, playouts=300)
    assert result["move"] in game.legal_moves()
    assert result["playouts"] == 300 and 0 <= result["winrate"] <= 1
    assert tanbo.mcts(game, playouts=300, seed=5)["move"] == tanbo.mcts(game, playouts=300, seed=5)["move"]
    with pytest.raises(ValueError):
        tanbo.mcts(game, playouts=10, threads=0)
    over = tanbo.Game("grid 9x9")
    over.resign()
    with pytest.raises(ValueError, match="over"):
        tanbo.mcts(over)


def test_mcts_analysis_lines_have_the_gtp_form():
    result = tanbo.mcts(tanbo.Game("grid 7x7"), playouts=400)
    assert result["analysis"]
    for line in result["analysis"]:
        assert re.match(r"^move \S+ visits \d+ winrate [01]\.\d{4}( proven)? pv( \S+)+$", line), line
    assert result["analysis"][0].split()[1] == result["move"]


def brute_force_winner(game):
    """The winner with perfect play, by plain minimax over the module's own moves (tiny boards)."""
    if game.winner is not None:
        return game.winner
    me = game.to_move
    for move in game.legal_moves():
        game.play(move)
        w = brute_force_winner(game)
        game.undo()
        if w == me:
            return me
    return 3 - me


@pytest.mark.parametrize("spec", ["line 7", "line 9", "grid 3x3", "grid 4x3"])
def test_solve_agrees_with_brute_force(spec):
    game = tanbo.Game(spec)
    r = tanbo.solve(game, seconds=60)
    assert r["solved"]
    assert r["winner"] == brute_force_winner(game)
    if r["winner"] == game.to_move:
        assert r["move"] in r["winning_moves"]
        game.play(r["move"])
        assert brute_force_winner(game) == r["winner"]
    with pytest.raises(ValueError):
        tanbo.solve(tanbo.Game("hex 3", players=3))


def test_long_calls_release_the_gil():
    game = tanbo.Game("grid 13x13")
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=tick)
    t.start()
    tanbo.random_playouts(game, 3000, 1)  # about a tenth of a second of C++
    stop.set()
    t.join()
    assert len(ticks) > 5  # the other thread ran while the playouts did


def run_example(script, *args):
    out = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "python", script), *args],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_fairness_example_runs(tmp_path):
    out = run_example("fairness.py", "--quick", "--out", str(tmp_path))
    assert "first player wins" in out
    assert (tmp_path / "fairness.png").stat().st_size > 1000


@pytest.mark.skipif("TANBO" not in os.environ, reason="needs the tanbo program (CTest sets TANBO)")
def test_speed_example_runs():
    out = run_example("speed.py", "--games", "100", "--tanbo", os.environ["TANBO"])
    for label in ("move by move", "random_playouts", "tanbo gtp", "tanbo bench"):
        assert re.search(label + r".* [0-9]+ games/s", out), out

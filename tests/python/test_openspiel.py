"""The module in OpenSpiel's conventions (docs/python.md, "OpenSpiel's conventions"): random
games on every kind of board through legal_actions / apply_action / clone / serialize / pickle,
checking returns, terminal states and bounds as OpenSpiel's random simulation test does; the
observation planes; mcts options, Search and solve. Run by CTest (python.module)."""
import copy
import os
import re
import subprocess
import time
import pickle
import random

import numpy as np
import pytest

import tanbo

RING = ('graph { players=2; a [stone=1]; b; c; d; e [stone=2]; f; g; h; i;'
        ' a -- b -- c -- d -- e -- f -- g -- h -- i -- a; a -- e; c -- g; }')


def board(spec, tmp_path):
    """A new game of the test's boards: specs, and 'ring' for a DOT file."""
    if spec == "ring":
        path = tmp_path / "ring.dot"
        path.write_text(RING)
        return tanbo.Game("file " + str(path))
    name, _, players = spec.partition("/")
    return tanbo.Game(name, players=int(players) if players else None)


def check_state(game):
    n = game.num_distinct_actions()
    players = game.num_players()
    assert n == len(game.vertices) and players == game.players
    assert len(game.history()) == game.ply <= game.max_game_length()
    if game.is_terminal():
        assert game.current_player() == tanbo.TERMINAL
        assert game.legal_actions() == [] and not game.legal_actions_mask().any()
        returns = game.returns()
        assert sorted(returns) == [-1.0] * (players - 1) + [1.0]
        assert returns.index(1.0) + 1 == game.winner
        return
    player = game.current_player()
    assert player == game.to_move - 1 and 0 <= player < players
    assert game.returns() == [0.0] * players
    actions = game.legal_actions()
    assert actions and actions == sorted(set(actions)) and actions == game.legal_move_ids()
    assert game.legal_actions(player) == actions
    assert game.legal_actions((player + 1) % players) == []
    mask = game.legal_actions_mask()
    assert mask.dtype == np.bool_ and mask.shape == (n,)
    assert list(np.flatnonzero(mask)) == actions
    for a in actions:
        assert game.string_to_action(game.action_to_string(a)) == a
    assert game.action_to_string(player, actions[0]) == game.vertices[actions[0]]


def check_copies(game):
    """clone, serialize, pickle and copy give equal positions with equal hashes, independent of
    the game."""
    copies = [game.clone(), tanbo.Game.deserialize(game.serialize()), tanbo.loads(game.serialize()),
              pickle.loads(pickle.dumps(game)), copy.deepcopy(game)]
    for other in copies:
        assert other == game and hash(other) == hash(game)
        assert other.history() == game.history() and other.returns() == game.returns()
    if not game.is_terminal():
        copies[0].apply_action(copies[0].legal_actions()[0])
        assert copies[0] != game and copies[0].ply == game.ply + 1
        assert copies[1] == game


@pytest.mark.parametrize("spec,games", [("grid 5x5", 20), ("grid 3x3x3", 10), ("hex 3", 20),
                                        ("line 12", 30), ("grid 5x6 wrap", 10), ("ring", 30),
                                        ("hex 4/3", 5), ("grid 8x8/4", 3)])
def test_random_simulation_on_every_kind_of_board(spec, games, tmp_path):
    rng = random.Random(spec)
    for _ in range(games):
        game = board(spec, tmp_path)
        history = []
        while not game.is_terminal():
            check_state(game)
            if rng.random() < 0.2:
                check_copies(game)
            action = rng.choice(game.legal_actions())
            game.apply_action(action)
            history.append(action)
            assert game.history() == history
        check_state(game)
        check_copies(game)
        with pytest.raises(ValueError, match="the game is over"):
            game.apply_action(0)


def test_bad_actions_raise_and_change_nothing():
    game = tanbo.Game("grid 5x5")
    before = game.clone()
    with pytest.raises(ValueError, match="illegal move"):
        game.apply_action(0)
    with pytest.raises(ValueError, match="not a point of this board"):
        game.apply_action(25)
    with pytest.raises(ValueError, match="not a point of this board"):
        game.action_to_string(-1)
    with pytest.raises(ValueError, match='"Z9"'):
        game.string_to_action("Z9")
    with pytest.raises(ValueError, match="player 2 is not a player of this 2-player game"):
        game.legal_actions(2)
    with pytest.raises(ValueError, match="player -1 is not a player"):
        game.observation_tensor(-1)
    with pytest.raises(ValueError):
        tanbo.Game.deserialize("not a game")
    assert game == before and game.ply == 0
    assert (game == "grid 5x5") is False


def test_positions_compare_by_value_and_hash_in_sets():
    a, b = tanbo.Game("grid 5x5"), tanbo.Game("grid 5x5")
    assert a == b and len({a, b}) == 1 and a != tanbo.Game("grid 6x6")
    a.play("B1")
    assert a != b
    a.undo()
    assert a == b
    a.resign()
    assert a != b and a.is_terminal() and a.history() == [tanbo.RESIGN]


def test_max_game_length_is_roots_times_points():
    game = tanbo.Game("grid 9x9")
    roots = len(game.roots())
    assert game.max_game_length() == roots * 81
    lengths = tanbo.random_playouts(game, 2000, seed=3, per_game=True)["lengths"]
    assert lengths.max() <= game.max_game_length()


def test_observation_tensor_from_each_player_and_in_batches():
    game = tanbo.Game("hex 4", players=3)
    game.apply_action(game.legal_actions()[0])  # player 1 (0-based) to move
    plain = game.observation()  # [empty, player 0, player 1, player 2]
    assert game.observation_tensor().shape == (5,) + plain.shape[1:]
    for me in range(3):
        obs = game.observation_tensor(me)
        assert obs.dtype == np.float32
        for k in range(3):  # own stones first, then the others in turn order
            assert (obs[k] == plain[1 + (me + k) % 3]).all()
        assert (obs[3] == plain[0]).all()
        assert (obs[4] == (1.0 if me == 1 else 0.0)).all()
    assert (game.observation_tensor() == game.observation_tensor(1)).all()
    games = [game, tanbo.Game("hex 4", players=3)]
    batch = tanbo.observation_tensors(games)
    assert batch.shape == (2, 5) + plain.shape[1:]
    assert (batch[0] == game.observation_tensor()).all()
    assert (batch[1] == games[1].observation_tensor()).all()
    with pytest.raises(ValueError, match="not on the board of game 0"):
        tanbo.observation_tensors([game, tanbo.Game("hex 4")])


def test_observation_tensor_on_the_cube_as_docs_python_md_shows_it():
    game = tanbo.Game("grid 5x5x5")  # points "xyz" from 1: Black on 115, White on 111, ...
    assert game.string_to_action("235") == 4 * 25 + 2 * 5 + 1
    black, white = game.observation_tensor(0), game.observation_tensor(1)
    assert black.shape == (4, 5, 5, 5)
    assert black[0, 4, 0, 0] == 1 and black[1, 0, 0, 0] == 1  # own stone 115, White's 111
    assert white[0, 0, 0, 0] == 1 and white[1, 4, 0, 0] == 1  # seen from White
    assert black[2, 4, 2, 1] == 1 and black[:2, 4, 2, 1].sum() == 0  # 235 is empty
    assert black[3].all() and not white[3].any()  # Black to move
    assert (black[:3].sum(axis=0) == 1).all()  # each point in exactly one plane


def test_random_playouts_per_game():
    game = tanbo.Game("grid 7x7")
    r = tanbo.random_playouts(game, 300, seed=5, per_game=True)
    assert r["winners"].shape == (300,) and r["lengths"].shape == (300,)
    assert set(r["winners"].tolist()) <= {0, 1}
    wins = tanbo.random_playouts(game, 300, seed=5)
    assert wins == [int((r["winners"] == 0).sum()), int((r["winners"] == 1).sum())]
    assert (r["lengths"] > 0).all() and (r["lengths"] <= game.max_game_length()).all()
    game.resign()
    over = tanbo.random_playouts(game, 4, per_game=True)
    assert over["winners"].tolist() == [1] * 4 and over["lengths"].tolist() == [0] * 4


def test_mcts_takes_every_option_and_gives_child_visits():
    game = tanbo.Game("grid 5x5")
    r = tanbo.mcts(game, playouts=300, seed=2, solver=0, rave=False, policy="random",
                   explore=0.4, prior=0, expand=1, trans=False, reply=True, tries=2)
    visits = r["child_visits"]
    assert visits.shape == (len(game.legal_actions()),)
    assert visits.sum() > 0 and game.legal_actions()[int(visits.argmax())] == r["action"]
    assert r["move"] == game.action_to_string(r["action"])
    with pytest.raises(ValueError, match="colour"):
        tanbo.mcts(game, colour=1)
    with pytest.raises(ValueError, match="not a value"):
        tanbo.mcts(game, policy="light,rave=0")


def test_search_keeps_its_tree_between_moves():
    game = tanbo.Game("grid 7x7")
    search = tanbo.Search(playouts=400, seed=1, solver=0)
    first = search.search(game)
    assert first["reused_visits"] == 0
    game.apply_action(first["action"])  # the most visited move: its subtree is kept
    second = search.search(game)
    assert second["reused_visits"] > 0
    game.apply_action(second["action"])
    search.forget()
    assert search.search(game)["reused_visits"] == 0
    assert "playouts=400" in search.spec


def test_solve_takes_the_options_of_the_command_line():
    game = tanbo.Game("grid 4x4")
    pn = tanbo.solve(game)
    ab = tanbo.solve(game, method="ab", table_mb=16)
    assert pn["solved"] and ab["solved"] and pn["winner"] == ab["winner"]
    assert pn["winning_moves"] == ab["winning_moves"]
    assert pn["plies"] >= 1
    first = tanbo.solve(game, first=True)
    assert first["winner"] == pn["winner"] and len(first["winning_moves"]) <= len(pn["winning_moves"])
    cut = tanbo.solve(tanbo.Game("grid 6x6"), nodes=1000)
    assert not cut["solved"] and cut["plies"] is None
    with pytest.raises(ValueError, match='method "dfs" is not a method'):
        tanbo.solve(game, method="dfs")
    with pytest.raises(ValueError, match="table_mb"):
        tanbo.solve(game, table_mb=0)


@pytest.mark.skipif("TANBO" not in os.environ, reason="needs the tanbo program (CTest sets TANBO)")
def test_version_is_the_programs():
    program = os.environ["TANBO"]
    out = subprocess.run([program, "--version"], capture_output=True, text=True, check=True)
    assert out.stdout == "tanbo " + tanbo.__version__ + "\n"


def test_openspiel_mcts_example_runs():
    from test_module import run_example
    out = run_example("openspiel_mcts.py", "--quick")
    assert re.search(r"MCTS \(30 simulations\) against random on grid 5x5: [0-2] of 2 games won",
                     out), out


def test_policy_example_trains_a_few_steps():
    from test_module import run_example
    out = run_example("policy.py", "--quick")
    assert re.findall(r"step ([0-9]+): mean return [-+][0-9.]+ against random", out) == [
        "1", "2", "3"], out


def test_the_type_stubs_name_every_function_class_and_method():
    import ast
    folder = os.path.dirname(tanbo.__file__)
    assert os.path.exists(os.path.join(folder, "py.typed"))
    with open(os.path.join(folder, "__init__.pyi")) as f:
        tree = ast.parse(f.read())
    top = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    top |= {n.target.id for n in tree.body if isinstance(n, ast.AnnAssign)}
    assert set(tanbo.__all__) <= top, set(tanbo.__all__) - top
    for cls in ("Game", "Search"):
        stub = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
        named = {n.name for n in stub.body if isinstance(n, ast.FunctionDef)}
        public = {m for m in dir(getattr(tanbo, cls)) if not m.startswith("_")}
        assert public <= named, public - named


def test_the_fast_methods_take_what_the_others_take():
    # is_terminal, legal_actions and apply_action are plain CPython methods (fast.cpp).
    game = tanbo.Game("grid 5x5")
    mask = game.legal_actions_mask()
    game.apply_action(np.int64(np.flatnonzero(mask)[0]))  # NumPy integers, as from argmax
    assert game.ply == 1 and game.legal_actions(player=1) == game.legal_actions(1)
    assert game.legal_actions(player=None) == game.legal_actions() != []
    assert game.legal_actions(0) == []
    with pytest.raises(TypeError):
        game.apply_action(1.5)
    with pytest.raises(TypeError):
        game.apply_action("B1")
    with pytest.raises(TypeError):
        game.legal_actions(colour=1)
    with pytest.raises(TypeError):
        game.legal_actions(0, 1)
    with pytest.raises(ValueError, match="is not a point of this board"):
        game.apply_action(10**20)
    with pytest.raises(ValueError, match="player 7 is not a player"):
        game.legal_actions(7)
    with pytest.raises(TypeError):
        tanbo.Game.is_terminal("not a game")
    assert game.ply == 1 and not game.is_terminal()


def test_a_search_used_by_two_threads_at_once_refuses_the_second():
    import threading
    game = tanbo.Game("grid 9x9")
    search = tanbo.Search(playouts=10**9, seconds=1.5, solver=0)
    results = []
    thread = threading.Thread(target=lambda: results.append(search.search(game)))
    thread.start()
    try:
        for _ in range(100):  # until the thread's search holds the engine
            try:
                search.forget()
            except ValueError as e:
                assert "searching on another thread" in str(e)
                break
            time.sleep(0.01)
        else:
            pytest.fail("the second thread was never refused")
        with pytest.raises(ValueError, match="this Search is searching on another thread"):
            search.search(game)
    finally:
        thread.join()
    assert results and results[0]["move"] in game.legal_moves()

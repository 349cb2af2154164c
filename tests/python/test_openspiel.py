"""The module in OpenSpiel's conventions (docs/python.md, "OpenSpiel's conventions"): random
games on every kind of board through legal_actions / apply_action / clone / serialize / pickle,
checking returns, terminal states and bounds as OpenSpiel's random simulation test does; the
observation planes; mcts options, Search and solve. Run by CTest (python.module)."""
import copy
import itertools
import math
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


TITLES = ("Black", "White", "Red", "Blue")  # the players' titles in the module's messages


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
    assert len(game.history()) == game.ply == game.move_number() <= game.max_game_length()
    assert game.full_history() == [tanbo.PlayerAction(p, a) for p, a in game.full_history()]
    assert [step.action for step in game.full_history()] == game.history()
    assert game.history_str() == ", ".join(map(str, game.history()))
    assert game.is_initial_state() == (game.ply == 0)
    text = str(game)
    assert text == game.to_string() == game.observation_string()
    assert all(game.observation_string(p) == text for p in range(players))
    assert game.information_state_string() == game.history_str()
    assert not game.is_chance_node() and not game.is_simultaneous_node()
    assert not game.is_mean_field_node() and game.is_player_node() != game.is_terminal()
    assert [game.player_return(p) for p in range(players)] == game.returns()
    assert [game.player_reward(p) for p in range(players)] == game.rewards()
    for special in range(-5, 0):  # OpenSpiel's special player ids never act
        assert game.legal_actions(special) == [] and not game.legal_actions_mask(special).any()
    if game.is_terminal():
        assert game.current_player() == tanbo.TERMINAL
        assert game.legal_actions() == [] and not game.legal_actions_mask().any()
        returns = game.returns()
        assert sorted(returns) == [-1.0 / (players - 1)] * (players - 1) + [1.0]
        assert math.isclose(sum(returns), 0.0, abs_tol=1e-12)
        assert returns.index(1.0) + 1 == game.winner
        losers = ", ".join(TITLES[p] for p in range(players) if p + 1 != game.winner)
        assert text.endswith(f"\n{TITLES[game.winner - 1]} won; out: {losers}")
        return
    player = game.current_player()
    assert player == game.to_move - 1 and 0 <= player < players
    assert game.returns() == [0.0] * players
    assert text.split("\n")[-1].startswith(TITLES[player] + " to play")
    actions = game.legal_actions()
    assert actions and actions == sorted(set(actions)) and actions == game.legal_move_ids()
    assert game.legal_actions(player) == actions
    assert game.legal_actions((player + 1) % players) == []
    mask = game.legal_actions_mask()
    assert mask.dtype == np.bool_ and mask.shape == (n,)
    assert list(np.flatnonzero(mask)) == actions
    for a in actions:
        assert game.string_to_action(game.action_to_string(a)) == a
        assert game.string_to_action((player + 1) % players, game.action_to_string(a)) == a
    assert game.action_to_string(player, actions[0]) == game.vertices[actions[0]]


def check_copies(game):
    """clone, serialize, pickle and copy give equal positions with equal hashes, independent of
    the game."""
    copies = [game.clone(), tanbo.Game.deserialize(game.serialize()), tanbo.loads(game.serialize()),
              pickle.loads(pickle.dumps(game)), copy.deepcopy(game)]
    for other in copies:
        assert other == game and hash(other) == hash(game) and str(other) == str(game)
        assert other.history() == game.history() and other.returns() == game.returns()
        assert other.full_history() == game.full_history()
    if not game.is_terminal():
        action = copies[0].legal_actions()[0]
        child = game.child(action)
        copies[0].apply_action(action)
        assert copies[0] != game and copies[0].ply == game.ply + 1
        assert child == copies[0] and str(child) == str(copies[0]) != str(game)
        assert child.history() == game.history() + [action]
        child.undo_action(game.current_player(), action)
        assert child == game and child.history() == game.history()
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
    assert a != b and a.is_terminal() and a.history() == []
    assert a.resignations() == [tanbo.Resignation(player=0, move_number=0)]


def test_str_is_the_position_and_agrees_with_equality():
    # str(g) was repr(g), "<tanbo.Game grid 4x4, move 1, White to play>", the same for every
    # position at one move count: OpenSpiel code keyed on str(state) mixed positions up.
    start = tanbo.Game("grid 5x5")
    b1, d1 = start.clone(), start.clone()
    b1.play("B1")
    d1.play("D1")
    assert repr(b1) == repr(d1) and b1 != d1
    assert str(b1) != str(d1) and b1.to_string() != d1.to_string()
    assert str(b1) == b1.observation_string() == b1.observation_string(1)
    assert repr(b1) == "<tanbo.Game grid 5x5, move 1, White to play>"  # repr stays short
    assert str(start) == ("grid 5x5, 2 players\n"
                          "    A B C D E\n"
                          " 5 |# . o . #| 5\n"
                          " 4 |. . . . .| 4\n"
                          " 3 |o . # . o| 3\n"
                          " 2 |. . . . .| 2\n"
                          " 1 |# . o . #| 1\n"
                          "    A B C D E\n"
                          "Black to play")
    # Two move orders to one position: equal, and the same text (no move count, no last move).
    one, other = start.clone(), start.clone()
    for name in ("B1", "D1", "A2"):
        one.play(name)
    for name in ("A2", "D1", "B1"):
        other.play(name)
    assert one == other and str(one) == str(other) and one.history() != other.history()
    with pytest.raises(ValueError, match="player 2 is not a player"):
        start.observation_string(2)
    # Across many positions of random games (with their transpositions): == exactly when the
    # texts are equal, on every kind of board, and with players out.
    rng = random.Random(7)
    for spec in ("grid 4x4", "hex 3", "line 7", "grid 2x2x3", "hex 3/3", "grid 6x6/4"):
        name, _, players = spec.partition("/")
        seen = []
        for _ in range(40):
            game = tanbo.Game(name, players=int(players) if players else None)
            while not game.is_terminal():
                seen.append(game.clone())
                if game.num_players() > 2 and rng.random() < 0.03:
                    game.resign(rng.choice([p for p in range(1, game.num_players() + 1)
                                            if game.stones(p)]))
                else:
                    game.apply_action(rng.choice(game.legal_actions()))
            seen.append(game)
        for a, b in itertools.combinations(rng.sample(seen, min(len(seen), 300)), 2):
            assert (a == b) == (str(a) == str(b)), (spec, str(a), str(b))
        assert len({str(g) for g in seen}) == len(set(seen))


def test_str_on_a_dot_board_lists_every_stone(tmp_path):
    # tanbo show lists at most 40 stones of a root on a DOT board; str() lists them all.
    names = [f"n{i}" for i in range(120)]
    path = tmp_path / "chain.dot"
    path.write_text("graph { players=2; n0 [stone=1]; n119 [stone=2]; " +
                    " -- ".join(names) + "; }")
    game = tanbo.Game("file " + str(path))
    while len(game.stones(1)) < 45:
        game.play(names[len(game.stones(1))])
        game.play(names[119 - len(game.stones(2))])
    text = str(game)
    assert text.startswith(f"file {path}, 2 players\n") and "..." not in text
    assert all(n in text.split() for n in game.stones(1) + game.stones(2))


def test_string_to_action_takes_only_legal_moves():
    # It gave the id of any point, occupied ones too; OpenSpiel's StringToAction matches only
    # the legal actions of the side to move.
    game = tanbo.Game("grid 5x5")
    assert game.string_to_action("B1") == 1 == game.string_to_action(" b1 ")  # any case, spaces
    refusals = {"A1": "A1 is not a legal move: A1 is occupied by Black",
                " c1": "C1 is not a legal move: C1 is occupied by White",
                "C3": "C3 is not a legal move: C3 is occupied by Black",
                "D4": "D4 is not a legal move: no Black stone touches D4"}
    for name, message in refusals.items():
        with pytest.raises(ValueError) as e:
            game.string_to_action(name)
        assert str(e.value) == message
    # The form with a player, as pyspiel binds it: the player is checked as legal_actions
    # checks it, and the text is matched against the side to move's legal moves.
    assert game.string_to_action(1, "B1") == game.string_to_action(-1, "B1") == 1
    for name, message in refusals.items():
        with pytest.raises(ValueError) as e:
            game.string_to_action(0, name)
        assert str(e.value) == message
    with pytest.raises(ValueError, match='"Z9" is not a point of this board'):
        game.string_to_action(0, "Z9")
    with pytest.raises(ValueError, match="player 2 is not a player of this 2-player game"):
        game.string_to_action(2, "B1")
    with pytest.raises(TypeError):
        game.string_to_action(None, "B1")
    game.resign()
    with pytest.raises(ValueError) as e:
        game.string_to_action("B1")
    assert str(e.value) == ("B1 is not a legal move, the game is over: White wins (Black "
                            "resigned)")


def test_legal_actions_of_any_player_as_openspiel_gives_them():
    # -1 and -4 (OpenSpiel's kChancePlayerId, kTerminalPlayerId) raised ValueError on a game
    # in play, while -4 gave [] on a finished one.
    for players in (2, 3):
        game = tanbo.Game("hex 3", players=players)
        for _ in range(2):
            for p in list(range(-5, 0)) + [p for p in range(players) if p != game.current_player()]:
                assert game.legal_actions(p) == [] and game.legal_actions(player=p) == []
                mask = game.legal_actions_mask(p)
                assert mask.shape == (game.num_distinct_actions(),) and not mask.any()
            assert game.legal_actions(game.current_player()) == game.legal_actions() != []
            for bad in (-6, players, -2**40):
                for call in (game.legal_actions, game.legal_actions_mask):
                    with pytest.raises(ValueError) as e:
                        call(bad)
                    assert str(e.value) == (
                        f"player {bad} is not a player of this {players}-player game (0 to "
                        f"{players - 1}) nor one of OpenSpiel's special player ids (-5 to -1)")
            game.apply_action(game.legal_actions()[0])
        while not game.is_terminal():
            game.resign()
        for p in range(-5, players):  # kTerminalPlayerId -4 included
            assert game.legal_actions(p) == [] and not game.legal_actions_mask(p).any()


def test_action_to_string_checks_its_player():
    # The player was ignored, None included.
    game = tanbo.Game("grid 5x5")
    for p in (0, 1, -1, -4, -5):
        assert game.action_to_string(p, 3) == "D1"
    with pytest.raises(TypeError):
        game.action_to_string(None, 3)
    for bad in (2, -6, 2**70):
        with pytest.raises(ValueError, match=f"player {bad} is not a player of this 2-player"):
            game.action_to_string(bad, 3)
    with pytest.raises(ValueError, match="move id 25 is not a point"):
        game.action_to_string(0, 25)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_returns_are_zero_sum_for_any_number_of_players(players):
    # With three players they were [-1, 1, -1] (sum 2 - n); OpenSpiel's n-player zero-sum
    # games give each loser -1/(n-1).
    game = tanbo.Game("grid 8x8", players=players)
    game.apply_action(game.legal_actions()[0])
    while not game.is_terminal():
        game.resign()  # the side to move, until one player is left
    returns = game.returns()
    assert returns[game.winner - 1] == 1.0
    assert [r for i, r in enumerate(returns) if i != game.winner - 1] == \
        [-1.0 / (players - 1)] * (players - 1)
    assert math.isclose(sum(returns), 0.0, abs_tol=1e-12)
    assert returns == game.rewards() == [game.player_return(p) for p in range(players)]
    for bad in (-1, players):
        with pytest.raises(ValueError, match=f"player {bad} is not a player"):
            game.player_return(bad)
        with pytest.raises(ValueError, match=f"player {bad} is not a player"):
            game.player_reward(bad)


def test_the_state_methods_openspiel_users_call():
    game = tanbo.Game("grid 5x5")
    assert game.is_initial_state() and game.move_number() == 0 and game.history_str() == ""
    assert game.full_history() == [] and game.is_player_node()
    assert not (game.is_chance_node() or game.is_simultaneous_node() or game.is_mean_field_node())
    child = game.child(1)
    assert game.ply == 0 and child.history() == [1] and not child.is_initial_state()
    with pytest.raises(ValueError, match="illegal move A1"):
        game.child(0)
    child.apply_action(child.string_to_action("D1"))
    assert child.move_number() == 2 and child.history_str() == "1, 3"
    assert child.full_history() == [(0, 1), (1, 3)]
    step = child.full_history()[1]
    assert isinstance(step, tanbo.PlayerAction) and (step.player, step.action) == (1, 3)
    assert child.information_state_string() == child.information_state_string(0) == "1, 3"
    for player, action, message in (
            (0, 3, r"the last move was White at D1 \(player 1, action 3\), not Black at D1"),
            (1, 1, r"the last move was White at D1 \(player 1, action 3\), not White at B1"),
            (2, 3, "player 2 is not a player"), (1, 25, "move id 25 is not a point")):
        with pytest.raises(ValueError, match=message):
            child.undo_action(player, action)
    assert child.move_number() == 2
    child.undo_action(1, 3)
    child.undo_action(0, 1)
    assert child == game and child.is_initial_state()
    with pytest.raises(ValueError, match="no move to take back"):
        child.undo_action(0, 1)
    game.resign()
    assert not game.is_player_node() and not game.is_initial_state()
    assert game.player_return(1) == 1.0 and game.player_reward(0) == -1.0


def test_a_resignation_is_no_action_of_the_history():
    # history() held tanbo.RESIGN (-1, OpenSpiel's kInvalidAction, which apply_action refuses)
    # for a resignation, and with three players for one who was not to move.
    rng = random.Random(3)
    game = tanbo.Game("hex 4", players=3)
    for _ in range(5):
        game.apply_action(rng.choice(game.legal_actions()))
    assert game.current_player() == 2
    game.resign(1)  # Black, while Red is to move
    for _ in range(4):
        game.apply_action(rng.choice(game.legal_actions()))
    assert tanbo.RESIGN not in game.history()
    assert game.ply == 10 and game.move_number() == 9 == len(game.history())
    assert game.resignations() == [tanbo.Resignation(player=0, move_number=5)]
    assert [p for p, _ in game.full_history()] == [0, 1, 2, 0, 1, 2, 1, 2, 1]
    assert game.moves()[5] == "resign black"
    assert game.information_state_string() == ", ".join(
        [str(a) for a in game.history()[:5]] + ["resign 0"] + [str(a) for a in game.history()[5:]])
    # Replaying history() with apply_action, with each resignation at its move number, gives
    # the same game.
    replay = tanbo.Game("hex 4", players=3)
    resignations = game.resignations()
    for action in game.history() + [None]:
        while resignations and resignations[0].move_number == replay.move_number():
            replay.resign(resignations.pop(0).player + 1)
        if action is not None:
            replay.apply_action(action)
    assert replay == game and replay.moves() == game.moves()
    assert replay.full_history() == game.full_history()
    # serialize and pickle keep it exactly.
    for back in (tanbo.Game.deserialize(game.serialize()), pickle.loads(pickle.dumps(game))):
        assert back == game and back.moves() == game.moves() and back.ply == game.ply
        assert back.resignations() == game.resignations()
        assert back.information_state_string() == game.information_state_string()
    # A resignation is taken back by undo(), not undo_action().
    two = tanbo.Game("grid 5x5")
    two.apply_action(1)
    two.resign()
    assert two.history() == [1] and two.resignations() == [(1, 1)]
    with pytest.raises(ValueError) as e:
        two.undo_action(1, 3)
    assert str(e.value) == ("the last turn was White's resignation, not a move of White at D1 "
                            "(player 1, action 3): undo() takes it back")
    two.undo()
    assert not two.is_terminal() and two.resignations() == [] and two.history() == [1]


def test_observation_planes_are_in_seat_order_even_with_a_player_out():
    # docs/python.md said "plane 1: the next to move after it"; the planes are the seats in
    # order from the player, and a player out keeps its plane (empty).
    game = tanbo.Game("hex 4", players=3)
    game.resign(2)  # White is out: Red now moves after Black
    game.apply_action(game.legal_actions()[0])
    assert game.current_player() == 2
    plain = game.observation()
    black = game.observation_tensor(0)
    assert (black[0] == plain[1]).all() and not black[1].any() and (black[2] == plain[3]).all()
    red = game.observation_tensor(2)
    assert (red[0] == plain[3]).all() and (red[1] == plain[1]).all() and not red[2].any()
    assert red[4].all() and not black[4].any()


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
    assert game.vertices.index("235") == 4 * 25 + 2 * 5 + 1
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

"""Ctrl-C during the module's long calls: a child process started on a call that would run for
minutes is sent SIGINT and must raise KeyboardInterrupt soon, with its game unchanged. Run by
CTest (python.module) with the module built."""
import os
import signal
import subprocess
import sys
import time

import pytest

# Starts one long call, says so, and reports how it ended; the game must be as it was, and the
# module must still work after the interrupt.
LONG_CALL = """
import sys, time, tanbo
kind = sys.argv[1]
game = tanbo.Game("grid 6x6" if kind.startswith("solve") else "grid 19x19")
game.apply_action(game.legal_actions()[0])
before = game.serialize()
print("started", flush=True)
try:
    if kind == "solve":
        tanbo.solve(game)
    elif kind == "solve_ab":
        tanbo.solve(game, method="ab", threads=2)
    elif kind == "mcts":
        tanbo.mcts(game, playouts=10**9)
    elif kind == "mcts_threads":
        tanbo.mcts(game, playouts=10**9, threads=2, parallel="root")
    elif kind == "search":
        tanbo.Search(playouts=10**9).search(game)
    else:
        tanbo.random_playouts(game, 10**7 if kind == "per_game" else 10**9,
                              per_game=kind == "per_game")
    print("finished", flush=True)
except KeyboardInterrupt:
    assert game.serialize() == before and game.ply == 1
    assert sum(tanbo.random_playouts(game, 3)) == 3
    print("KeyboardInterrupt", flush=True)
"""


@pytest.mark.parametrize("kind", ["solve", "solve_ab", "mcts", "mcts_threads", "search",
                                  "random_playouts", "per_game"])
def test_ctrl_c_stops_a_long_call_with_keyboard_interrupt_and_the_game_unchanged(kind):
    child = subprocess.Popen([sys.executable, "-c", LONG_CALL, kind], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "started\n"
        time.sleep(1.0)  # well inside the call (each would run for minutes)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)  # a hang (Ctrl-C ignored) fails here
        took = time.monotonic() - sent  # with the interpreter's exit
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 0, err
    assert out == "KeyboardInterrupt\n", (out, err)
    # Stopping takes about a tenth of a second; the bound is generous for loaded machines.
    assert took < 10, took
    print(kind, "stopped", round(took, 3), "s after SIGINT")

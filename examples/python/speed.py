"""How fast random games run from Python: move by move through the module (its own names and
OpenSpiel's), all in C++ with tanbo.random_playouts (counts, and per game), through a
`tanbo gtp` pipe, and `tanbo bench` for reference.
Rates are games per second of the processor time the process took (the Python process, or the
tanbo bench child), so that other work on a shared machine changes them little; the pipe,
which waits on another process, is timed by the clock.
Usage: python3 speed.py [--topology SPEC] [--games N] [--tanbo PATH]   (docs/python.md)"""
import argparse
import random
import re
import resource
import shutil
import subprocess
import time

import tanbo


def move_by_move(spec, games, seed):
    rng = random.Random(seed)
    start = tanbo.Game(spec)
    moves = 0
    t = time.process_time()
    for _ in range(games):
        g = start.copy()
        while g.winner is None:
            g.play_id(rng.choice(g.legal_move_ids()))
            moves += 1
    return games / (time.process_time() - t), moves / games


def openspiel_loop(spec, games, seed):
    """The loop of OpenSpiel's random simulation: legal_actions, apply_action, is_terminal."""
    rng = random.Random(seed)
    start = tanbo.Game(spec)
    t = time.process_time()
    for _ in range(games):
        state = start.clone()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
    return games / (time.process_time() - t)


def in_cpp(spec, games, seed, per_game=False):
    g = tanbo.Game(spec)
    t = time.process_time()
    tanbo.random_playouts(g, games, seed, per_game=per_game)
    return games / (time.process_time() - t)


def through_gtp(binary, spec, games, seed):
    """One engine process; each move asks for the legal moves and plays one of them."""
    rng = random.Random(seed)
    p = subprocess.Popen([binary, "gtp", "--topology", spec], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(cmd):
        p.stdin.write(cmd + "\n")
        lines = []
        while True:
            line = p.stdout.readline()
            if line.strip() == "" and lines:
                break
            if line.strip():
                lines.append(line.strip())
        if not lines[0].startswith("="):
            raise RuntimeError(f"{cmd}: {lines}")
        return lines[0][1:].strip()

    t = time.perf_counter()
    for _ in range(games):
        ask("clear_board")
        while True:
            legal = ask("legal_moves").split()
            if not legal:
                break
            ask("play " + ask("side_to_move") + " " + rng.choice(legal))
    rate = games / (time.perf_counter() - t)
    p.stdin.close()
    p.wait()
    return rate


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def bench(binary, spec, games):
    """tanbo bench's games over the processor time it took (its own figure is by the clock)."""
    t = children_cpu()
    out = subprocess.run([binary, "bench", "--topology", spec, "--games", str(games)],
                         capture_output=True, text=True, check=True).stdout
    assert re.search(r"playouts_per_second=([0-9.]+)", out), out
    return games / (children_cpu() - t)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--topology", default="grid 9x9")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--tanbo", default=shutil.which("tanbo") or "build/tanbo")
    args = ap.parse_args()
    spec, n = args.topology, args.games
    in_cpp(spec, n * 10, 2)  # warm-up: the first call of a process ran at half speed
    py_rate, length = move_by_move(spec, max(n // 10, 1), 1)
    rows = [("Python, move by move (legal_move_ids, play_id)", py_rate),
            ("Python, move by move (legal_actions, apply_action)",
             openspiel_loop(spec, max(n // 10, 1), 1)),
            ("tanbo.random_playouts (C++)", in_cpp(spec, n * 10, 1)),
            ("tanbo.random_playouts(per_game=True)", in_cpp(spec, n * 10, 1, True))]
    rows.append(("tanbo gtp through a pipe (legal_moves, play)",
                 through_gtp(args.tanbo, spec, max(n // 100, 1), 1)))
    rows.append(("tanbo bench", bench(args.tanbo, spec, n * 10)))
    print(f"{spec}, {length:.0f} moves a game")
    for label, rate in rows:
        print(f"{label:50s} {rate:12.0f} games/s")


if __name__ == "__main__":
    main()

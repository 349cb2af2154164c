#!/usr/bin/env python3
"""Elo of MCTS engines with growing playout budgets against fixed opponents.

For each budget N and each opponent, plays `tanbo match` games of `mcts:playouts=N` (plus
--options) against the opponent, seats alternating, split over --jobs processes with seeds
S, S+1, ... so that the two cores of a small machine both work. Adds the wins of every part
and prints a Markdown table: score, win rate with its 95% Wilson interval and the Elo
difference with the interval that maps the ends of the score interval (the same figures as
`tanbo match` prints for one run). Used for the ladder in docs/strength.md and the dated
curves in docs/experiments.md.

usage: scripts/scaling_curve.py TANBO --board "grid 9x9" --budgets 100,300,3000
       [--opponents "random;greedy;mcts:playouts=1000"] [--games N] [--jobs J]
       [--seed S] [--options "ravek=300"] [--setup NAME]

A budget's games may also be set alone: --budgets 100000:40 plays 40 games at 100,000.
"""
import argparse
import concurrent.futures
import csv
import io
import math
import subprocess
import sys


def wilson(wins, games, z=1.96):
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(rate):
    if rate <= 1e-9:
        return "-inf"
    if rate >= 1 - 1e-9:  # the Wilson bound of a perfect score is 1 up to rounding
        return "+inf"
    return f"{-400 * math.log10(1 / rate - 1):+.0f}"


def run_part(tanbo, board, setup, players, games, seed):
    """One `tanbo match` process: (wins of the first player, games, mean game length)."""
    command = [tanbo, "match", "--topology", board, "--players", players,
               "--games", str(games), "--seed", str(seed), "--csv"]
    if setup:
        command += ["--setup", setup]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    first = next(csv.DictReader(io.StringIO(out)))
    return int(first["wins"]), int(first["games"]), float(first["mean_length"])


def match(pool, args, players, games, seed):
    """Plays `games` games split over args.jobs processes and adds them up."""
    parts = [games // args.jobs + (1 if i < games % args.jobs else 0) for i in range(args.jobs)]
    futures = [pool.submit(run_part, args.tanbo, args.board, args.setup, players, n, seed + i)
               for i, n in enumerate(parts) if n > 0]
    wins = played = 0
    length = 0.0
    for future in futures:
        w, g, mean_length = future.result()
        wins, played, length = wins + w, played + g, length + mean_length * g
    return wins, played, length / max(played, 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("tanbo")
    parser.add_argument("--board", default="grid 9x9")
    parser.add_argument("--setup", default="")
    parser.add_argument("--budgets", default="100,300,1000,3000,10000")
    parser.add_argument("--opponents", default="random;greedy;mcts:playouts=1000")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", default="", help="more mcts options, e.g. ravek=300")
    args = parser.parse_args()

    print(f"{args.board}{' (' + args.setup + ')' if args.setup else ''}, seed {args.seed}, "
          f"{args.jobs} processes a match\n")
    print("| playouts | opponent | N | score | win rate [95%] | Elo [95%] | mean length |")
    print("|---|---|---|---|---|---|---|")
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for item in args.budgets.split(","):
            budget, _, games = item.partition(":")
            games = int(games) if games else args.games
            engine = f"mcts:playouts={budget}" + (f",{args.options}" if args.options else "")
            for opponent in args.opponents.split(";"):
                wins, played, length = match(pool, args, f"{engine},{opponent}", games, args.seed)
                low, high = wilson(wins, played)
                print(f"| {int(budget):,} | `{opponent}` | {played} | {wins}–{played - wins} | "
                      f"{100 * wins / played:.1f}% [{100 * low:.1f}%, {100 * high:.1f}%] | "
                      f"{elo(wins / played)} [{elo(low)}, {elo(high)}] | {length:.1f} |",
                      flush=True)


if __name__ == "__main__":
    try:
        main()
    except subprocess.CalledProcessError as error:
        sys.exit(f"scaling_curve.py: {' '.join(error.cmd)} failed: {error.stderr.strip()}")

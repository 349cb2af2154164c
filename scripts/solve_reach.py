#!/usr/bin/env python3
"""How far back from the end of a game the exact solver proves the position within a time limit.

For boards too large to solve from the start, this measures the solver's reach: it plays
self-play games through `tanbo gtp`, then walks each game back from its end, one ply at a time,
asking `tanbo-solve SECONDS` of every position, and stops at the first position the solver does
not prove in time. For each game it prints the earliest position proven: its distance in plies
from the end, the empty points left there and the game's length; then a Markdown row with the
medians and the largest reach (docs/solved.md, What stops the next size).

usage: scripts/solve_reach.py TANBO --topology "grid 9x9" [--setup steere2026] [--games N]
       [--seconds S] [--selfplay mcts:playouts=300] [--seed S]

Each step back is an `undo`; the solver's table is kept from one position to the one before it
(as `tanbo-solve` keeps it between calls), so each step reuses what the later positions proved.
"""
import argparse
import statistics
import sys

from gtp_client import Gtp, self_play


def stones(gtp):
    return sum(len(gtp.ask(f"list_stones {c}").split()) for c in ("black", "white"))


def points(topology):
    """The points of a "grid AxB...", "line N" or "hex N" board; None for other boards."""
    words = topology.split()
    try:
        if words[0] == "grid":
            n = 1
            for side in words[1].split("x"):
                n *= int(side)
            return n
        if words[0] == "line":
            return int(words[1])
        if words[0] == "hex":
            n = int(words[1])
            return 3 * n * (n - 1) + 1
    except (IndexError, ValueError):
        pass
    return None


def reach(gtp, moves, seconds):
    """The earliest position of the game proven within `seconds`, walking back from the end:
    (plies before the end, stones on the board there, the solver's answer), or None when even
    the last position before the end is not proven. `gtp` holds the game's end; each step back
    takes one move back."""
    best = None
    for k in range(len(moves) - 1, -1, -1):
        gtp.ask("undo")  # the position after moves[:k]
        answer = gtp.ask(f"tanbo-solve {seconds}")
        if answer.startswith("unknown"):
            break
        best = (len(moves) - k, stones(gtp), answer)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tanbo")
    ap.add_argument("--topology", required=True)
    ap.add_argument("--setup", default="")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--selfplay", default="mcts:playouts=300")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.games < 1:
        ap.error(f"--games must be at least 1, not {args.games}")
    if not args.seconds > 0:
        ap.error(f"--seconds must be more than 0, not {args.seconds:g}")

    total = points(args.topology)
    rows = []
    for g in range(args.games):
        gtp = Gtp(args.tanbo, args.topology, args.selfplay, args.seed + g, args.setup)
        moves = self_play(gtp)
        found = reach(gtp, moves, args.seconds)
        gtp.close()
        if found is None:
            print(f"game {g + 1}: {len(moves)} plies, not even its last position proven",
                  flush=True)
            rows.append((0, None, len(moves)))
            continue
        plies, on_board, answer = found
        empty = total - on_board if total else None
        rows.append((plies, empty, len(moves)))
        where = f"{empty} empty points" if empty is not None else f"{on_board} stones"
        print(f"game {g + 1}: {len(moves)} plies; proven {plies} plies before the end, "
              f"{where}: {answer}", flush=True)

    reaches = [r[0] for r in rows]
    lengths = [r[2] for r in rows]
    empties = [r[1] for r in rows if r[1] is not None]
    most_empty = f"{max(empties)}" if empties else "–"
    print()
    print("| board | setup | games | seconds a position | plies of a game (median) "
          "| plies proven before the end (median, largest) | most empty points proven |")
    print("|---|---|---|---|---|---|---|")
    print(f"| `{args.topology}` | {args.setup or 'default'} | {len(rows)} | {args.seconds:g} "
          f"| {statistics.median(lengths):g} | {statistics.median(reaches):g}, {max(reaches)} "
          f"| {most_empty} |")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (RuntimeError, OSError) as e:
        print(f"solve_reach.py: {e}", file=sys.stderr)
        sys.exit(1)

"""Is a board fair? The first player's win rate on a board of your own (a DOT graph) and on
square grids of growing size, by random playouts (C++ speed) and by engine self-play, with a
chart. Usage: python3 fairness.py [--quick] [--out FOLDER]   (docs/python.md)"""
import argparse
import math
import os

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt

import tanbo


def interval(wins, n):
    """The win rate and its 95% Wilson interval."""
    if n == 0:
        return 0.0, 0.0, 0.0
    p, z = wins / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, centre - half, centre + half


def self_play(game, playouts, games, seed, **options):
    """First player's wins in engine-against-engine games from the game's position: one engine
    a game plays both sides, keeping its tree and its solver's table from move to move."""
    wins = 0
    for g in range(games):
        play = game.copy()
        engine = tanbo.Search(playouts=playouts, seed=seed + 1000 * g, **options)
        while play.winner is None:
            play.apply_action(engine.search(play)["action"])
        wins += play.winner == 1
    return wins


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="few games (for tests)")
    ap.add_argument("--out", default=".", help="folder for ring.dot and fairness.png")
    args = ap.parse_args()
    playouts_n = 2000 if args.quick else 100000
    selfplay_n, selfplay_playouts = (4, 50) if args.quick else (100, 1000)
    # --quick: without the engine's exact solver, which would spend seconds a move on 5x5
    options = {"solver": 0} if args.quick else {}

    # 1. A board of your own: a ring of 12 points with two chords, one seed each.
    dot = os.path.join(args.out, "ring.dot")
    with open(dot, "w") as f:
        f.write("graph ring {\n  players=2\n  p0 [stone=1]; p6 [stone=2];\n")
        f.write("  " + " -- ".join(f"p{i}" for i in range(12)) + " -- p0\n")
        f.write("  p3 -- p9; p1 -- p7\n}\n")
    ring = tanbo.Game("file " + dot)
    wins = tanbo.random_playouts(ring, playouts_n, seed=1)
    p, lo, hi = interval(wins[0], sum(wins))
    print(f"{ring.topology}: random playouts, first player wins {p:.1%} ({lo:.1%} to {hi:.1%})")
    sp = self_play(ring, selfplay_playouts, selfplay_n, seed=1, **options)
    p, lo, hi = interval(sp, selfplay_n)
    print(f"{ring.topology}: self-play at {selfplay_playouts} playouts, first player wins "
          f"{p:.1%} ({lo:.1%} to {hi:.1%}) in {selfplay_n} games")

    # 2. Square grids of growing size: random playouts and self-play.
    sizes = [5, 7, 9] if args.quick else [5, 7, 9, 11, 13, 15, 17, 19]
    rows = []
    for n in sizes:
        game = tanbo.Game(f"grid {n}x{n}")
        w = tanbo.random_playouts(game, playouts_n, seed=n)
        sp = self_play(game, selfplay_playouts, selfplay_n, seed=n, **options)
        rows.append((n, interval(w[0], sum(w)), interval(sp, selfplay_n)))
        print(f"grid {n}x{n}: random {rows[-1][1][0]:.1%}, self-play {rows[-1][2][0]:.1%}")

    fig, ax = plt.subplots(figsize=(7, 4))
    for k, label in ((1, f"random playouts ({playouts_n} games)"),
                     (2, f"self-play, {selfplay_playouts} playouts a move ({selfplay_n} games)")):
        ys = [r[k][0] for r in rows]
        err = [[r[k][0] - r[k][1] for r in rows], [r[k][2] - r[k][0] for r in rows]]
        ax.errorbar(sizes, ys, yerr=err, marker="o", capsize=3, label=label)
    ax.axhline(0.5, color="grey", lw=0.8)
    ax.set_xlabel("board size (N x N, default setup)")
    ax.set_ylabel("first player's win rate")
    ax.set_ylim(0, 1)
    ax.legend()
    fig.tight_layout()
    png = os.path.join(args.out, "fairness.png")
    fig.savefig(png, dpi=100)
    print("wrote", png)


if __name__ == "__main__":
    main()

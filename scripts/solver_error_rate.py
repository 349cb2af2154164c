#!/usr/bin/env python3
"""How often the engine's genmove picks a winning move in positions the solver proves won.

Plays self-play games on each board through `tanbo gtp`, keeps late positions that the exact
solver (`tanbo-solve`) proves won for the side to move, then asks `reg_genmove` of engines with
several playout budgets, with and without the solver inside the search (`solver=0`), and
checks each answer with the solver. Prints a Markdown table (docs/strength.md).

usage: scripts/solver_error_rate.py TANBO [--boards "grid 5x5,grid 7x7"] [--positions N]
       [--budgets 100,1000,10000] [--seed S] [--options "explore=0.2"]
       [--selfplay mcts:playouts=300]

--options adds mcts options to the engines that are judged (not to the self-play that finds
the positions, so that two runs with different options judge the same positions); --selfplay
is the engine of the self-play games (default mcts:playouts=300).
"""
import argparse
import sys

from gtp_client import Gtp, self_play


def won_positions(tanbo, board, wanted, seed, selfplay):
    """Late positions of self-play games that the solver proves won for the side to move."""
    player = Gtp(tanbo, board, selfplay, seed)
    solver = Gtp(tanbo, board, "random", seed)
    found = []
    game = 0
    while len(found) < wanted and game < 4 * wanted:
        game += 1
        moves = self_play(player)
        # From the end backwards while the solver finishes within 3 s; the three earliest
        # won positions of each game are kept (the hardest the solver still proves).
        proven = []
        solver.set_moves(moves)
        for k in range(len(moves) - 1, 0, -1):
            solver.ask("undo")  # the position after moves[:k]
            answer = solver.ask("tanbo-solve 3")
            if answer.startswith("unknown"):
                break
            if answer.split()[0] == solver.ask("side_to_move"):
                proven.append(moves[:k])
        found.extend(proven[-3:][: wanted - len(found)])
    player.close()
    solver.close()
    return found


def pick_rate(tanbo, board, positions, engine, seed):
    gtp = Gtp(tanbo, board, engine, seed)
    judge = Gtp(tanbo, board, "random", seed)
    right = 0
    for moves in positions:
        gtp.set_moves(moves)
        colour = gtp.ask("side_to_move")
        move = gtp.ask(f"reg_genmove {colour}")
        judge.set_moves(moves + [(colour, move)])
        if judge.ask("winner") == colour:
            right += 1
        elif judge.ask("winner") == "none":
            right += judge.ask("tanbo-solve").split()[0] == colour
    gtp.close()
    judge.close()
    return right


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tanbo")
    ap.add_argument("--boards", default="grid 5x5,grid 7x7,grid 9x9")
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--budgets", default="100,1000,10000")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--options", default="", help="more mcts options for the judged engines")
    ap.add_argument("--selfplay", default="mcts:playouts=300", help="the self-play engine")
    a = ap.parse_args()
    budgets = [int(b) for b in a.budgets.split(",")]
    print("| board | won positions | " +
          " | ".join(f"{b} playouts" for b in budgets) + " | " +
          " | ".join(f"{b}, solver=0" for b in budgets) + " |")
    print("|---|---|" + "---|" * (2 * len(budgets)))
    for board in a.boards.split(","):
        positions = won_positions(a.tanbo, board, a.positions, a.seed, a.selfplay)
        n = len(positions)
        cells = []
        for solver in ("", ",solver=0"):
            for b in budgets:
                extra = f",{a.options}" if a.options else ""
                r = pick_rate(a.tanbo, board, positions, f"mcts:playouts={b}{solver}{extra}",
                              a.seed)
                cells.append(f"{r}/{n} ({100.0 * r / max(n, 1):.0f}%)")
        print(f"| {board} | {n} | " + " | ".join(cells) + " |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

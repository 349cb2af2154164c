"""A generic Monte Carlo tree search written only against OpenSpiel's state methods
(current_player, is_terminal, returns, legal_actions, apply_action, clone), as OpenSpiel's own
algorithms call them: it would play any OpenSpiel game, and here plays Tanbo against a uniformly
random player.

    PYTHONPATH=build/python python3 examples/python/openspiel_mcts.py --board "grid 5x5"
"""
import argparse
import math
import random

import tanbo


class Node:
    def __init__(self, mover):
        self.mover = mover    # the player who moved into this node (None at the root)
        self.children = {}    # action -> Node
        self.visits = 0
        self.value = 0.0      # sum of returns of the player who moved into this node


def rollout(state, rng):
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state.returns()


def select(node, state, c):
    """The child of the best upper confidence bound (unvisited children first)."""
    best, best_score = None, -math.inf
    for action in state.legal_actions():
        child = node.children.get(action)
        if child is None or child.visits == 0:
            return action
        score = child.value / child.visits + c * math.sqrt(math.log(node.visits) / child.visits)
        if score > best_score:
            best, best_score = action, score
    return best


def mcts(root_state, simulations, rng, c=1.4):
    root = Node(None)
    for _ in range(simulations):
        state, node, path = root_state.clone(), root, [root]
        while not state.is_terminal():
            action = select(node, state, c)
            mover = state.current_player()
            state.apply_action(action)
            if action not in node.children:
                node.children[action] = Node(mover)
                path.append(node.children[action])
                break
            node = node.children[action]
            path.append(node)
        returns = rollout(state, rng)
        for n in path:
            n.visits += 1
            if n.mover is not None:
                n.value += returns[n.mover]
    return max(root.children, key=lambda a: root.children[a].visits)


def play(board, simulations, seat, rng):
    """One game: the search plays seat (0-based), uniformly random moves the others."""
    state = tanbo.Game(board)
    while not state.is_terminal():
        if state.current_player() == seat:
            action = mcts(state, simulations, rng)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    return state.returns()[seat]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", default="grid 5x5")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="2 games of 30 simulations")
    args = parser.parse_args()
    if args.quick:
        args.games, args.simulations = 2, 30
    rng = random.Random(1)
    wins = sum(play(args.board, args.simulations, g % 2, rng) > 0 for g in range(args.games))
    print(f"MCTS ({args.simulations} simulations) against random on {args.board}: "
          f"{wins} of {args.games} games won")


if __name__ == "__main__":
    main()

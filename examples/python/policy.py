"""A tiny policy trained on Tanbo's observations with NumPy alone: a linear softmax over the
points, fed observation_tensor() planes in batches (tanbo.observation_tensors), masked by
legal_actions_mask(), trained by REINFORCE for a few steps in games against a uniformly random
player. It shows the data path a learning program takes, not a strong player.

    PYTHONPATH=build/python python3 examples/python/policy.py --board "grid 5x5"
"""
import argparse

import numpy as np

import tanbo


def policy_moves(weights, games, rng):
    """The policy's move in each game (all with the policy's seat to move), and the features
    and probabilities it chose from."""
    obs = tanbo.observation_tensors(games).reshape(len(games), -1)
    logits = obs @ weights
    masks = np.stack([g.legal_actions_mask() for g in games])
    logits = np.where(masks, logits, -np.inf)
    probs = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs /= probs.sum(axis=1, keepdims=True)
    actions = [int(rng.choice(len(p), p=p)) for p in probs]
    return actions, obs, probs


def play_batch(weights, board, batch, rng):
    """batch games, the policy as player 0 against random moves: the gradient of the log
    probability of each of the policy's moves times its game's return, and the mean return."""
    games = [tanbo.Game(board) for _ in range(batch)]
    steps = [[] for _ in games]  # (features, probabilities, action) of the policy's moves
    while True:
        live = [i for i, g in enumerate(games) if not g.is_terminal()]
        if not live:
            break
        mine = [i for i in live if games[i].current_player() == 0]
        if mine:
            actions, obs, probs = policy_moves(weights, [games[i] for i in mine], rng)
            for k, i in enumerate(mine):
                steps[i].append((obs[k], probs[k], actions[k]))
                games[i].apply_action(actions[k])
        for i in live:
            if i not in mine and not games[i].is_terminal():
                games[i].apply_action(int(rng.choice(games[i].legal_actions())))
    grad = np.zeros_like(weights)
    returns = np.array([g.returns()[0] for g in games])
    for i, moves in enumerate(steps):
        for features, probs, action in moves:
            onehot = -probs
            onehot[action] += 1.0
            grad += returns[i] * np.outer(features, onehot)
    return grad / batch, returns.mean()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", default="grid 5x5")
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--rate", type=float, default=0.05)
    parser.add_argument("--quick", action="store_true", help="3 steps of 8 games")
    args = parser.parse_args()
    if args.quick:
        args.steps, args.batch = 3, 8
    rng = np.random.default_rng(1)
    game = tanbo.Game(args.board)
    weights = np.zeros((game.observation_tensor().size, game.num_distinct_actions()))
    for step in range(args.steps):
        grad, mean_return = play_batch(weights, args.board, args.batch, rng)
        weights += args.rate * grad
        print(f"step {step + 1}: mean return {mean_return:+.2f} against random")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Fits the value model's weights to the data of tanbo-value-data (see README.md here).

The model gives a position the probability 1 / (1 + exp(-w.f)) that the side to move wins, f
the position's features. The weights w minimise the cross-entropy between that probability
and the games' outcomes, plus a small L2 penalty; the fit is full-batch Adam from w = 0, so
the same data give the same weights. Every fifth game is held out and reported: the loss,
against that of the base rate, and how often the side the model favours won.

usage: fit.py DATA.csv [DATA.csv ...]   (needs numpy: apt-get install python3-numpy)
Prints the report and the weights as a C++ initializer for src/ai/value_model.cpp.
"""
import sys

import numpy as np


def load(paths):
    """Features X, outcomes y (1: the side to move won) and each row's game (0, 1, ...)."""
    X, y, game = [], [], []
    offset = 0
    for path in paths:
        data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
        if len(data) == 0:
            continue
        ids = data[:, 0].astype(np.int64)
        game.append(ids + offset)
        offset = game[-1].max() + 1
        y.append(data[:, 2])
        X.append(data[:, 3:])
    return np.concatenate(X), np.concatenate(y), np.concatenate(game)


def cross_entropy(p, y):
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return -(y * np.log(p) + (1 - y) * np.log(1 - p)).mean()


def fit(X, y, iterations=3000, rate=0.02, l2=1e-4):
    w = np.zeros(X.shape[1])
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for t in range(1, iterations + 1):
        p = 1 / (1 + np.exp(-(X @ w)))
        g = X.T @ (p - y) / len(y) + l2 * w
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        w -= rate * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return w


def main(paths):
    if not paths:
        sys.exit(__doc__)
    X, y, game = load(paths)
    held = (game % 5) == 0
    w = fit(X[~held], y[~held])
    p = 1 / (1 + np.exp(-(X[held] @ w)))
    base = np.full(held.sum(), y[~held].mean())
    print(f"games: {len(np.unique(game))}, positions: {len(y)}, held out: {held.sum()}")
    print(f"held-out cross-entropy: {cross_entropy(p, y[held]):.4f} "
          f"(the base rate: {cross_entropy(base, y[held]):.4f})")
    print(f"held-out accuracy: {((p > 0.5) == (y[held] > 0.5)).mean():.3f}")
    print("weights:")
    print("    " + ", ".join(f"{x:.4f}" for x in w) + ",")


if __name__ == "__main__":
    main(sys.argv[1:])

#!/usr/bin/env python3
"""Fits the move model's weights to the data of tanbo-move-data (see README.md here).

The model gives each legal move of a position the probability exp(w.f) / sum over the legal
moves of exp(w.f'), f a move's features. The weights w minimise the cross-entropy between
those probabilities and the share of the search's playouts each move received (positions
whose moves got no playouts are left out), plus a small L2 penalty; the fit is full-batch
Adam from w = 0, so the same data give the same weights. Every fifth position is held out
and reported: the loss, and how often the model's best move is the search's most visited.

usage: fit.py DATA.csv [DATA.csv ...]   (needs numpy: apt-get install python3-numpy)
Prints the report and the weights as a C++ initializer for src/ai/move_model.cpp.
"""
import sys

import numpy as np


def load(paths):
    """Features X, target shares T, and each row's position index (0, 1, ... in row order)."""
    X, visits, position = [], [], []
    offset = 0
    for path in paths:
        data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
        if len(data) == 0:
            continue
        ids = data[:, 0].astype(np.int64)
        position.append(ids + offset)
        offset = position[-1].max() + 1
        visits.append(data[:, 1])
        X.append(data[:, 2:])
    X, visits, position = np.concatenate(X), np.concatenate(visits), np.concatenate(position)
    starts = np.flatnonzero(np.r_[True, position[1:] != position[:-1]])
    total = np.add.reduceat(visits, starts)
    row_group = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(position)]))
    searched = total[row_group] > 0
    # Keep only positions whose moves got playouts; renumber them.
    X, visits, position = X[searched], visits[searched], position[searched]
    starts = np.flatnonzero(np.r_[True, position[1:] != position[:-1]])
    total = np.add.reduceat(visits, starts)
    row_group = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(position)]))
    return X, visits / total[row_group], visits, starts, row_group


def probabilities(w, X, starts, row_group):
    z = X @ w
    e = np.exp(z - np.maximum.reduceat(z, starts)[row_group])
    return e / np.add.reduceat(e, starts)[row_group]


def loss_and_gradient(w, X, T, starts, row_group, rows):
    p = probabilities(w, X, starts, row_group)
    count = rows[starts].sum()
    loss = -(rows * T * np.log(p + 1e-12)).sum() / count
    return loss, X.T @ (rows * (p - T)) / count


def fit(X, T, starts, row_group, train, iterations=1500, rate=0.05, l2=1e-4):
    w = np.zeros(X.shape[1])
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for t in range(1, iterations + 1):
        _, g = loss_and_gradient(w, X, T, starts, row_group, train)
        g += l2 * w
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        w -= rate * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return w


def report(w, X, T, visits, starts, row_group, held):
    loss, _ = loss_and_gradient(w, X, T, starts, row_group, held.astype(float))
    p = probabilities(w, X, starts, row_group)
    ends = np.r_[starts[1:], len(row_group)]
    agree = n = 0
    uniform = 0.0
    for a, b in zip(starts, ends):
        if not held[a]:
            continue
        n += 1
        agree += np.argmax(p[a:b]) == np.argmax(visits[a:b])
        uniform += 1.0 / (b - a)
    print(f"positions: {len(starts)}, moves: {len(row_group)}, held out: {n}")
    print(f"held-out cross-entropy: {loss:.4f}")
    print(f"held-out agreement with the most visited move: {agree / n:.3f} "
          f"(a uniform choice: {uniform / n:.3f})")


def main(paths):
    if not paths:
        sys.exit(__doc__)
    X, T, visits, starts, row_group = load(paths)
    held = (row_group % 5) == 0
    w = fit(X, T, starts, row_group, (~held).astype(float))
    report(w, X, T, visits, starts, row_group, held)
    print("weights:")
    print("    " + ", ".join(f"{x:.4f}" for x in w) + ",")


if __name__ == "__main__":
    main(sys.argv[1:])

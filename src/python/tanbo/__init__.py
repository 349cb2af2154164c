"""Tanbo on any board that is a graph: the rules engine, game files, random playouts, the Monte
Carlo search and the exact solver of the tanbo program (docs/python.md)."""
from ._tanbo import (RESIGN, TERMINAL, Game, Root, Search, __version__, load, loads, mcts,
                     observation_tensors, random_playouts, solve)

# Pickle and repr name the classes where users find them.
for _type in (Game, Search):
    _type.__module__ = "tanbo"
del _type

__all__ = ["Game", "Root", "Search", "RESIGN", "TERMINAL", "__version__", "load", "loads", "mcts",
           "observation_tensors", "random_playouts", "solve"]

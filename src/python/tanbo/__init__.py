"""Tanbo on any board that is a graph: the rules engine, game files, random playouts, the Monte
Carlo search and the exact solver of the tanbo program (docs/python.md)."""
import functools as _functools

from ._tanbo import (RESIGN, TERMINAL, Game, PlayerAction, Resignation, Root, Search,
                     __version__, load, loads, mcts, observation_tensors, random_playouts, solve)

# Pickle and repr name the classes where users find them.
for _type in (Game, Search):
    _type.__module__ = "tanbo"
del _type


def _game_from_text(text):
    """A pickled Game (Game.__reduce_ex__): the game its text gives, replayed through the rules."""
    return loads(text)


def _made_once(cls, name, advice):
    """pybind11 ignores __init__ and __setstate__ called on an object that is made already, so
    that the call seemed to work and changed nothing: such a call raises TypeError instead."""
    inner = getattr(cls, name)

    @_functools.wraps(inner)
    def once(self, *args, **kwargs):
        if self._initialised:
            raise TypeError(f"{cls.__name__}.{name}() on a {cls.__name__} that is made already "
                            f"changes nothing: {advice}")
        inner(self, *args, **kwargs)

    setattr(cls, name, once)


_made_once(Game, "__init__", "make a new one with tanbo.Game(...)")
_made_once(Game, "__setstate__", "make a new game with tanbo.loads(text) or pickle.loads")
_made_once(Search, "__init__", "make a new one with tanbo.Search(...)")
del _made_once

__all__ = ["Game", "PlayerAction", "Resignation", "Root", "Search", "RESIGN", "TERMINAL",
           "__version__", "load", "loads", "mcts", "observation_tensors", "random_playouts",
           "solve"]

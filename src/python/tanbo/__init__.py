"""Tanbo on any board that is a graph: the rules engine, game files, random playouts, the Monte
Carlo search and the exact solver of the tanbo program (docs/python.md)."""
import copy as _copy
import functools as _functools
import inspect as _inspect

from ._tanbo import (RESIGN, TERMINAL, Game, PlayerAction, Resignation, Root, Search,
                     __version__, load, loads, mcts, observation_tensors, random_playouts,
                     setups, solve)

# Pickle and repr name the classes where users find them.
for _type in (Game, Search):
    _type.__module__ = "tanbo"
del _type


def _game_from_text(text, cls=None):
    """A pickled Game (Game.__reduce_ex__): the game its text gives, replayed through the rules,
    as an object of `cls` when the pickle was of a subclass of Game (pickle then sets its
    attributes through __setstate__)."""
    game = loads(text)
    if cls is None or cls is Game:
        return game
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise TypeError(f"a pickled tanbo.Game names {cls!r}, which is not a subclass of Game")
    return _made_as(cls, game)


# pybind11's __setstate__, which _setstate below wraps: it makes a game in place, from a game's
# text or from another game (C++'s copy, with no replay). Unwrapped, since importlib.reload runs
# this file again on the same class, whose __setstate__ is then the last run's _setstate.
_make_in_place = _inspect.unwrap(Game.__setstate__)


def _made_as(cls, game):
    """An object of `cls`, a subclass of Game, holding a copy of `game`, without cls.__init__
    (whose arguments are the subclass's business)."""
    made = cls.__new__(cls)
    _make_in_place(made, game)
    return made


def _subclass_copy(original, game, memo):
    """A copy of `original`, an object of a subclass of Game: an object of its class holding
    `game` (already a copy of original's game), with original's attributes, copied as
    copy.deepcopy copies them when `memo` is a dict (its memo), else as copy.copy does."""
    made = _made_as(type(original), game)
    attributes = getattr(original, "__dict__", None)
    if memo is not None:
        memo[id(original)] = made  # an attribute may refer back to the game
        if attributes:
            attributes = _copy.deepcopy(attributes, memo)
    if attributes:
        made.__dict__.update(attributes)
    return made


def _made_once(cls, name, advice):
    """pybind11 ignores __init__ and __setstate__ called on an object that is made already, so
    that the call seemed to work and changed nothing: such a call raises TypeError instead."""
    inner = _inspect.unwrap(getattr(cls, name))  # pybind11's, also on importlib.reload

    @_functools.wraps(inner)
    def once(self, *args, **kwargs):
        if self._initialised:
            raise TypeError(f"{cls.__name__}.{name}() on a {cls.__name__} that is made already "
                            f"changes nothing: {advice}")
        inner(self, *args, **kwargs)

    setattr(cls, name, once)


_made_once(Game, "__init__", "make a new one with tanbo.Game(...)")


def _setstate(self, state):
    """Game.__setstate__: a game made by pickle from its text; on a subclass's object made
    already (_game_from_text), its attributes, as pickle gives them to any object."""
    if self._initialised and isinstance(state, dict) and hasattr(self, "__dict__"):
        self.__dict__.update(state)
        return
    if self._initialised:
        raise TypeError("Game.__setstate__() on a Game that is made already changes nothing: "
                        "make a new game with tanbo.loads(text) or pickle.loads")
    _make_in_place(self, state)


_setstate.__wrapped__ = _make_in_place
Game.__setstate__ = _setstate
_made_once(Search, "__init__", "make a new one with tanbo.Search(...)")
del _made_once

__all__ = ["Game", "PlayerAction", "Resignation", "Root", "Search", "RESIGN", "TERMINAL",
           "__version__", "load", "loads", "mcts", "observation_tensors", "random_playouts",
           "setups", "solve"]

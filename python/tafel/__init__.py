"""tafel: the tafel game engines (libtafel.so) from Python, standard library only.

    import tafel
    game = tafel.load("carcassonne(players=3)")
    state = game.new_state()
    rng = tafel.Rng(7)
    while not state.is_terminal():
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    print(state.scores(), state.winners())

The library is found through TAFEL_LIB, else next to this package, else in
the source tree's build/ directory.  docs/python.md has the whole story.
"""
from ._lib import CHANCE, REQUEST, REQUEST_SPENT, TERMINAL
from .bot import Bot, BotInfo, bots
from .env import TafelAECEnv
from .errors import (ActionParseError, BadParameterError, BotError,
                     EngineIOError, EngineMemoryError, IllegalActionError,
                     InvalidArgumentError, NetFileError, ParseError, RecordError,
                     StateError, TafelError, UnknownGameError)
from .game import Game, GameInfo, games, load
from .net import Net
from .record import Record, read_records, write_records
from .rng import Rng
from .state import State
from . import tensors  # noqa: F401  (tafel.tensors.HAVE_NUMPY)

__version__ = "0.1.0"

__all__ = [
    "CHANCE", "TERMINAL", "REQUEST", "REQUEST_SPENT", "Game", "GameInfo", "State", "Record", "Rng",
    "TafelAECEnv", "load", "games", "read_records", "write_records",
    "Bot", "BotInfo", "bots", "Net",
    "TafelError", "InvalidArgumentError", "UnknownGameError",
    "BadParameterError", "IllegalActionError", "ParseError", "ActionParseError",
    "NetFileError",
    "RecordError", "BotError", "EngineMemoryError", "EngineIOError",
    "StateError",
]


def __getattr__(name):
    # tafel.Batch needs numpy, which the rest of the package does not: it is
    # imported when first asked for
    if name == "Batch":
        from .batch import Batch
        return Batch
    raise AttributeError("module 'tafel' has no attribute %r" % name)

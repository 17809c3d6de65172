"""Game: one loaded game with its parameters (tafel_game), and the registry."""
import ctypes
import json
from collections import namedtuple

from . import _lib
from ._lib import lib
from .errors import raise_if_failed

GameInfo = namedtuple("GameInfo", "name summary parameters")


class Game:
    """An immutable game, made by load("carcassonne(players=3)").

    It may be shared between threads.  Its C memory is freed when the last
    reference goes (every State keeps its Game).
    """

    _free = staticmethod(lib.tafel_game_free)

    def __init__(self, game_string):
        pointer = ctypes.c_void_p()
        error = _lib.ErrorStruct()
        rc = lib.tafel_game_load(game_string.encode(), ctypes.byref(pointer),
                                 ctypes.byref(error))
        raise_if_failed(rc, error)
        self._adopt(pointer.value)

    @classmethod
    def _from_pointer(cls, pointer):
        """A Game owning a tafel_game the engine made (a record's replay)."""
        game = cls.__new__(cls)
        game._adopt(pointer)
        return game

    def _adopt(self, pointer):
        self._ptr = pointer
        self.name = lib.tafel_game_name(self._ptr).decode()
        self.game_string = lib.tafel_game_string(self._ptr).decode()
        self.num_players = lib.tafel_game_players(self._ptr)
        self.max_actions = lib.tafel_game_max_actions(self._ptr)
        # every action integer is below this (Carcassonne's placements are
        # board coordinates: far more than max_actions, the most legal at once)
        self.num_distinct_actions = lib.tafel_game_num_distinct_actions(self._ptr)
        self.hidden_information = bool(
            lib.tafel_game_hidden_information(self._ptr))
        self.state_size = lib.tafel_game_state_size(self._ptr)

    def __del__(self):
        pointer, self._ptr = getattr(self, "_ptr", None), None
        if pointer:
            self._free(pointer)

    def new_state(self):
        """The initial state (before any chance action)."""
        from .state import State
        return State(self)

    new_initial_state = new_state  # OpenSpiel's name

    def pieces(self):
        """The game's pieces (tiles, cards) as a dict."""
        text = _lib.take_string(lib.tafel_game_pieces_json(self._ptr))
        if text is None:
            raise MemoryError("tafel_game_pieces_json: out of memory")
        return json.loads(text)

    def __eq__(self, other):
        return isinstance(other, Game) and other.game_string == self.game_string

    def __hash__(self):
        return hash(self.game_string)

    def __reduce__(self):
        return (Game, (self.game_string,))

    def __repr__(self):
        return "tafel.load(%r)" % self.game_string


def load(game_string):
    """Load a game from a game string such as "carcassonne(players=3)".

    Raises UnknownGameError or BadParameterError with the engine's message.
    """
    return Game(game_string)


def games():
    """The registry: a GameInfo(name, summary, parameters) for each game."""
    found = []
    help_buffer = ctypes.create_string_buffer(4096)
    summary = ctypes.c_char_p()
    index = 0
    while True:
        name = lib.tafel_game_info(index, ctypes.byref(summary), help_buffer,
                                   len(help_buffer))
        if name is None:
            return found
        found.append(GameInfo(name.decode(), summary.value.decode(),
                              help_buffer.value.decode().splitlines()))
        index += 1

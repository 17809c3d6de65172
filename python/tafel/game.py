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
        # the fixed action space (0: none for this game yet)
        self.action_space_size = lib.tafel_game_action_space_size(self._ptr)
        self._mask_type = ctypes.c_uint8 * self.action_space_size
        # per kind: (shape, size, ctypes array type); shape () and size 0
        # when the game has no tensors
        self._tensors = tuple(self._tensor_layout(kind) for kind in (0, 1))

    def _tensor_layout(self, kind):
        dims = (ctypes.c_int * _lib.TENSOR_MAX_RANK)()
        rank = lib.tafel_game_tensor_shape(self._ptr, kind, dims)
        size = lib.tafel_game_tensor_size(self._ptr, kind)
        shape = tuple(dims[:rank]) if rank > 0 and size else ()
        return shape, size, ctypes.c_float * size

    # -- for learners -------------------------------------------------------

    @property
    def observation_tensor_shape(self):
        """The observation tensor's shape, a tuple (() if the game has none)."""
        return self._tensors[0][0]

    @property
    def information_state_tensor_shape(self):
        """The information-state tensor's shape (() if the game has none)."""
        return self._tensors[1][0]

    @property
    def observation_tensor_size(self):
        """The number of floats of the observation tensor."""
        return self._tensors[0][1]

    @property
    def information_state_tensor_size(self):
        return self._tensors[1][1]

    def tensor_parts(self, kind="observation"):
        """{name: slice} of the tensor of kind ("observation" or
        "information_state"), in order, over the flattened tensor:
        tensor.reshape(-1)[parts["scores"]].  The planes of each game:
        docs/tensors-<game>.md."""
        from .tensors import kind_code
        code = kind_code(kind)
        parts, i = {}, 0
        offset, size = ctypes.c_size_t(), ctypes.c_size_t()
        while True:
            name = lib.tafel_game_tensor_part(self._ptr, code, i,
                                              ctypes.byref(offset),
                                              ctypes.byref(size))
            if name is None:
                return parts
            parts[name.decode()] = slice(offset.value, offset.value + size.value)
            i += 1

    def __del__(self):
        pointer, self._ptr = getattr(self, "_ptr", None), None
        if pointer:
            self._free(pointer)

    def new_state(self):
        """The initial state (before any chance action)."""
        from .state import State
        return State(self)

    new_initial_state = new_state  # OpenSpiel's name

    def information_state_string(self, history, seat):
        """seat's information state after history (a list of actions from
        the initial state, chance included) as text: equal for two
        histories exactly when seat cannot tell them apart (seat -1: a
        spectator, who sees only what is public)."""
        from .errors import InvalidArgumentError
        history = list(history)
        if not -1 <= seat < self.num_players:
            raise InvalidArgumentError("seat %d is out of range -1..%d"
                                       % (seat, self.num_players - 1))
        actions = (ctypes.c_int32 * max(len(history), 1))(*history)
        error = _lib.ErrorStruct()
        pointer = lib.tafel_information_state_string(
            self._ptr, actions, len(history), seat, ctypes.byref(error))
        if not pointer:
            raise_if_failed(error.code or 8, error)
        return _lib.take_string(pointer)

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

    def __copy__(self):
        return self  # immutable

    def __deepcopy__(self, memo):
        return self

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

"""State: one position of a game (tafel_state), owned by the Python object.

The C state is freed when the State is collected.  A State keeps its Game
alive.  Every failing call raises a TafelError with the engine's message and
leaves the state as it was (the engine validates before it changes).
"""
import ctypes
import json

from . import _lib
from ._lib import CHANCE, TERMINAL, lib
from .errors import (IllegalActionError, InvalidArgumentError,
                     raise_if_failed)

_c_int32 = ctypes.c_int32
_INT32_MIN, _INT32_MAX = -2**31, 2**31 - 1
_c_double = ctypes.c_double


class State:
    """A position.  Made by Game.new_state(), State(game) or copy()."""

    _free = staticmethod(lib.tafel_state_free)

    def __init__(self, game, _pointer=None):
        self.game = game
        self._ptr = _pointer or lib.tafel_state_new(game._ptr)
        if not self._ptr:
            raise MemoryError("tafel_state_new: out of memory")

    def __del__(self):
        pointer, self._ptr = getattr(self, "_ptr", None), None
        if pointer:
            self._free(pointer)

    # -- whose turn ---------------------------------------------------------

    def current_player(self):
        """A seat 0..players-1, tafel.CHANCE (-1) or tafel.TERMINAL (-2)."""
        return lib.tafel_state_current(self._ptr)

    def is_chance(self):
        return lib.tafel_state_current(self._ptr) == CHANCE

    def is_terminal(self):
        return lib.tafel_state_current(self._ptr) == TERMINAL

    @property
    def move_number(self):
        """Actions completed so far, chance included."""
        return lib.tafel_state_move_number(self._ptr)

    @property
    def num_players(self):
        return self.game.num_players

    # -- actions ------------------------------------------------------------

    def legal_actions(self):
        """The legal actions (chance outcomes at a chance node), ascending."""
        cap = self.game.max_actions
        buffer = (_c_int32 * cap)()
        count = lib.tafel_state_legal_actions(self._ptr, buffer, cap)
        return buffer[:count]

    def is_legal(self, action):
        return bool(lib.tafel_state_is_legal(self._ptr, action))

    def chance_outcomes(self):
        """[(action, probability)] at a chance node (they sum to 1), else []."""
        cap = self.game.max_actions
        actions = (_c_int32 * cap)()
        probs = (_c_double * cap)()
        count = lib.tafel_state_chance_outcomes(self._ptr, actions, probs, cap)
        return list(zip(actions[:count], probs[:count]))

    def sample_chance(self, rng):
        """A chance outcome drawn with its probability from rng (an Rng)."""
        out = _c_int32()
        raise_if_failed(lib.tafel_state_sample_chance(self._ptr, rng._pointer,
                                                      ctypes.byref(out)))
        return out.value

    def apply(self, action):
        """Play action: an int, or a text in the game's notation."""
        error = _lib.ErrorStruct()
        if isinstance(action, str):
            rc = lib.tafel_state_apply_text(self._ptr, action.encode(),
                                            ctypes.byref(error))
        else:
            rc = lib.tafel_state_apply(self._ptr, action, ctypes.byref(error))
        raise_if_failed(rc, error)

    apply_action = apply  # OpenSpiel's name

    def play_random(self, rng):
        """One step of a random playout (the engine's fast path); its action.

        Draws exactly as sample_chance, or rng.below over legal_actions()
        followed by apply, so a seed gives the same game either way.
        """
        cap = self.game.max_actions
        scratch = (_c_int32 * cap)()
        played = _c_int32()
        raise_if_failed(lib.tafel_state_play_random(
            self._ptr, rng._pointer, scratch, cap, ctypes.byref(played)))
        return played.value

    def action_to_text(self, action):
        """The canonical text of action in this state ("place 1 0 90")."""
        buffer = ctypes.create_string_buffer(_lib.ACTION_TEXT_MAX)
        if lib.tafel_action_to_text(self._ptr, action, buffer,
                                    len(buffer)) < 0:
            raise IllegalActionError(
                "action %d means nothing in this state" % action)
        return buffer.value.decode()

    def action_from_text(self, text):
        """The action of text in this state; ActionParseError or
        IllegalActionError with the engine's message."""
        out = _c_int32()
        error = _lib.ErrorStruct()
        raise_if_failed(lib.tafel_action_from_text(
            self._ptr, text.encode(), ctypes.byref(out), ctypes.byref(error)),
            error)
        return out.value

    def action_view_text(self, action, seat):
        """The text of action as seat sees it (seat -1: a spectator)."""
        buffer = ctypes.create_string_buffer(_lib.ACTION_TEXT_MAX)
        if lib.tafel_action_view_text(self._ptr, seat, action, buffer,
                                      len(buffer)) < 0:
            raise InvalidArgumentError(
                "action %d for seat %d means nothing in this state"
                % (action, seat))
        return buffer.value.decode()

    def action_reveals(self, action):
        """Whether action shows the seat to move something it could not see."""
        return bool(lib.tafel_state_action_reveals(self._ptr, action))

    def describe(self, action, seat=-1):
        """The account of action, about to be played here, as seat sees it
        (-1: a spectator): a list of events, each a dict with "kind" and its
        fields (docs/events.md).  action is an int or a text, as apply
        takes.  The state is not changed.  IllegalActionError (a text:
        ActionParseError too) with the engine's message when action is not
        legal here; InvalidArgumentError for a seat out of range."""
        if isinstance(action, str):
            action = self.action_from_text(action)
        elif not _INT32_MIN <= action <= _INT32_MAX:  # ctypes would wrap it
            raise IllegalActionError("action %d is no action" % action)
        if not _INT32_MIN <= seat <= _INT32_MAX:
            self._check_seat(seat)
        out = ctypes.c_void_p()
        error = _lib.ErrorStruct()
        raise_if_failed(lib.tafel_state_describe(
            self._ptr, action, seat, ctypes.byref(out), ctypes.byref(error)),
            error)
        return json.loads(_lib.take_string(out.value))

    # -- scores -------------------------------------------------------------

    def _per_seat(self, function):
        out = (_c_double * self.game.num_players)()
        function(self._ptr, out)
        return out[:]

    def scores(self):
        """Scores so far, one per seat."""
        return self._per_seat(lib.tafel_state_scores)

    def projected(self):
        """The scores if the game ended now (final scoring applied)."""
        return self._per_seat(lib.tafel_state_projected)

    def heuristic(self):
        """The engine's cheap estimate of each seat's final score."""
        return self._per_seat(lib.tafel_state_heuristic)

    def winners(self):
        """The winning seats at a terminal state (several on a shared win)."""
        out = (ctypes.c_int * _lib.MAX_PLAYERS)()
        return out[:lib.tafel_state_winners(self._ptr, out)]

    def score_breakdown(self, seat):
        """{category: points} of one seat ("road", "city", ...)."""
        self._check_seat(seat, allow_spectator=False)
        cap = 32
        while True:
            names = (ctypes.c_char_p * cap)()
            values = (_c_double * cap)()
            count = lib.tafel_state_score_breakdown(self._ptr, seat, names,
                                                    values, cap)
            if count <= cap:
                return {names[i].decode(): values[i] for i in range(count)}
            cap = count

    # -- what a seat sees ---------------------------------------------------

    def _check_seat(self, seat, allow_spectator=True):
        low = -1 if allow_spectator else 0
        if not low <= seat < self.game.num_players:
            raise InvalidArgumentError(
                "seat %d is out of range %d..%d" % (seat, low,
                                                   self.game.num_players - 1))

    def view_json(self, seat):
        """What seat may see (-1: a spectator), as the engine's JSON text."""
        self._check_seat(seat)
        text = _lib.take_string(lib.tafel_state_view_json(self._ptr, seat))
        if text is None:
            raise MemoryError("tafel_state_view_json: out of memory")
        return text

    def view(self, seat):
        """What seat may see (-1: a spectator), as a dict."""
        return json.loads(self.view_json(seat))

    def resample(self, seat, rng):
        """Deal anew, from rng, everything seat cannot see (in place)."""
        self._check_seat(seat, allow_spectator=False)
        raise_if_failed(lib.tafel_state_resample(self._ptr, seat,
                                                 rng._pointer))

    def render(self, seat=-1, color=False, whole=False, key=False):
        """A text picture of the position as seat sees it."""
        self._check_seat(seat)
        flags = ((_lib.RENDER_COLOR if color else 0)
                 | (_lib.RENDER_WHOLE if whole else 0)
                 | (_lib.RENDER_KEY if key else 0))
        text = _lib.take_string(lib.tafel_state_render(self._ptr, seat, flags))
        if text is None:
            raise MemoryError("tafel_state_render: out of memory")
        return text

    def check(self):
        """Cross-check the game's invariants; StateError if one fails."""
        error = _lib.ErrorStruct()
        raise_if_failed(lib.tafel_state_check(self._ptr, ctypes.byref(error)),
                        error)

    # -- copies -------------------------------------------------------------

    def copy(self):
        """An independent copy (tafel_state_clone)."""
        pointer = lib.tafel_state_clone(self._ptr)
        if not pointer:
            raise MemoryError("tafel_state_clone: out of memory")
        return State(self.game, pointer)

    __copy__ = copy
    clone = copy  # OpenSpiel's name

    def __deepcopy__(self, memo):
        return self.copy()

    def copy_from(self, other):
        """Overwrite this state with other, a state of the same game."""
        if other.game.game_string != self.game.game_string:
            raise InvalidArgumentError(
                "copy_from: a state of %s into one of %s"
                % (other.game.game_string, self.game.game_string))
        lib.tafel_state_copy(self._ptr, other._ptr)

    def to_bytes(self):
        """The state's memory (it holds no pointers): for pickling."""
        return ctypes.string_at(self._ptr, self.game.state_size)

    @classmethod
    def from_bytes(cls, game, data):
        """A state of game from to_bytes() of a state of the same game."""
        if len(data) != game.state_size:
            raise InvalidArgumentError(
                "from_bytes: %d bytes, a state of %s has %d"
                % (len(data), game.game_string, game.state_size))
        state = cls(game)
        ctypes.memmove(state._ptr, data, len(data))
        return state

    def __reduce__(self):
        return (_state_from_bytes, (self.game.game_string, self.to_bytes()))

    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        return (other.game.game_string == self.game.game_string
                and bool(lib.tafel_state_equal(self._ptr, other._ptr)))

    __hash__ = None  # mutable

    def __str__(self):
        return self.render()

    def __repr__(self):
        return "<tafel.State %s move %d current %d>" % (
            self.game.game_string, self.move_number, self.current_player())


def _state_from_bytes(game_string, data):
    from .game import Game
    return State.from_bytes(Game(game_string), data)

"""State: one position of a game (tafel_state), owned by the Python object.

The C state is freed when the State is collected.  A State keeps its Game
alive.  Every failing call raises a TafelError with the engine's message and
leaves the state as it was (the engine validates before it changes).
"""
import ctypes
import json

from . import _lib
from . import tensors as _tensors
from ._lib import CHANCE, TERMINAL, lib
from .errors import (IllegalActionError, InvalidArgumentError, StateError,
                     raise_if_failed)

_c_int32 = ctypes.c_int32
_INT32_MIN, _INT32_MAX = -2**31, 2**31 - 1
_c_double = ctypes.c_double
_write_observation = lib.tafel_state_observation_tensor
_write_information_state = lib.tafel_state_information_state_tensor
_write_mask = lib.tafel_state_legal_actions_mask
_apply = lib.tafel_state_apply
_ErrorStruct = _lib.ErrorStruct

# The history is a chain of pairs (earlier, action) ending in (): appending
# is one tuple, and a copy shares the chain.  None: not known.
_NO_HISTORY = ()


class State:
    """A position.  Made by Game.new_state(), State(game) or copy()."""

    _free = staticmethod(lib.tafel_state_free)

    def __init__(self, game, _pointer=None, _history=_NO_HISTORY):
        self.game = game
        self._ptr = _pointer or lib.tafel_state_new(game._ptr)
        if not self._ptr:
            raise MemoryError("tafel_state_new: out of memory")
        # a new state's history is empty; a pointer from elsewhere (a replay)
        # comes with the history its maker passes, or None: not known
        self._history = _NO_HISTORY if _pointer is None else _history

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
        if isinstance(action, str):
            action = self.action_from_text(action)
        # no error struct unless the call fails: then again, to say why
        if _apply(self._ptr, action, None):
            error = _ErrorStruct()
            raise_if_failed(_apply(self._ptr, action, ctypes.byref(error)),
                            error)
        if self._history is not None:
            self._history = (self._history, action)

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
        if self._history is not None:
            self._history = (self._history, played.value)
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

    def action_request(self, action):
        """Whether action is a request to another seat (an offer): 0 no,
        REQUEST, or REQUEST_SPENT when a bot with manners would not make it
        now (tafel_state_action_request; docs/bots.md)."""
        return lib.tafel_state_action_request(self._ptr, action)

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

    # -- history ------------------------------------------------------------

    def history_or_none(self):
        """The actions applied since the initial state (chance included), a
        list; None when not known (a state from bytes, a replay, resample)."""
        node = self._history
        if node is None:
            return None
        actions = []
        while node:
            node, action = node
            actions.append(action)
        actions.reverse()
        return actions

    def history(self):
        """The actions applied since the initial state, chance included
        (OpenSpiel's name).  StateError when not known: a state made by
        from_bytes (or unpickled from one), by a record's replay, or changed
        by resample has no history to tell."""
        actions = self.history_or_none()
        if actions is None:
            raise StateError(
                "this state has no known history: it was made from bytes or "
                "a replay, or resampled; keep the State that played the "
                "actions (or its copy()) to have one")
        return actions

    def information_state_string(self, seat=None):
        """seat's information state (seat: the one to move by default) as
        text: what it saw of every action since the initial state, so two
        states give the same string exactly when seat cannot tell their
        histories apart.  Needs the history (StateError without it)."""
        if seat is None:
            seat = self._seat_to_move("information_state_string")
        return self.game.information_state_string(self.history(), seat)

    # -- tensors and the action space (docs/python.md) ---------------------

    def _seat_to_move(self, what):
        seat = lib.tafel_state_current(self._ptr)
        if seat < 0:
            raise InvalidArgumentError(
                "%s: name a seat (no seat is to move: %s)"
                % (what, "chance node" if seat == CHANCE else "the game is over"))
        return seat

    def _tensor(self, write, kind, seat, out):
        shape, size, array_type = self.game._tensors[kind]
        if seat is None:
            seat = self._seat_to_move(_tensors.KIND_NAMES[kind] + "_tensor")
        if not size:  # no tensors for this game: the engine says so
            address = 0
        elif out is None:
            out, address = _tensors.new_floats(array_type, shape)
        else:
            address = _tensors.out_address(out, "f", size)
        if write(self._ptr, seat, address, size, None):
            error = _ErrorStruct()
            raise_if_failed(write(self._ptr, seat, address, size,
                                  ctypes.byref(error)), error)
        return out

    def observation_tensor(self, seat=None, out=None):
        """What seat sees now (seat -1: a spectator; default the seat to
        move) as float32 of game.observation_tensor_shape: a numpy array when
        numpy imports, else a memoryview (format 'f', shaped).  The engine
        writes into the array's memory; out= reuses an array (or any
        writable float32 buffer of that size) and returns it.  Its parts:
        game.tensor_parts("observation")."""
        return self._tensor(_write_observation, 0, seat, out)

    def information_state_tensor(self, seat=None, out=None):
        """What seat has seen (game.information_state_tensor_shape), as
        observation_tensor."""
        return self._tensor(_write_information_state, 1, seat, out)

    def legal_actions_mask(self, out=None):
        """1 at the action-space index of each legal action of the seat to
        move (game.action_space_size entries; all 0 at a chance node or the
        end): numpy bool when numpy imports, else a memoryview 'B'.  out=
        reuses a buffer of one byte an entry (numpy bool, uint8, int8, a
        bytearray)."""
        size = self.game.action_space_size
        if not size:
            raise InvalidArgumentError(
                "%s: no action space for this game" % self.game.name)
        if out is None:
            out, address = _tensors.new_bytes(self.game._mask_type)
        else:
            address = _tensors.out_address(out, "B", size)
        if _write_mask(self._ptr, address, size) < 0:
            raise MemoryError("tafel_state_legal_actions_mask: out of memory")
        return out

    def action_index(self, action):
        """The action-space index of action (of the seat to move), or None
        when it has none (a chance outcome, an action not here, a
        Carcassonne tile placed beyond the window)."""
        index = lib.tafel_state_action_index(self._ptr, action)
        return None if index < 0 else index

    def index_action(self, index):
        """The action that index names here; InvalidArgumentError (index out
        of range, nobody to move) or IllegalActionError (no action here has
        it), with the engine's message."""
        if not 0 <= index < max(self.game.action_space_size, 1):
            raise InvalidArgumentError(
                "action index %d: out of range 0..%d"
                % (index, self.game.action_space_size - 1))
        out = _c_int32()
        error = _ErrorStruct()
        raise_if_failed(lib.tafel_state_index_action(
            self._ptr, index, ctypes.byref(out), ctypes.byref(error)), error)
        return out.value

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
        # what was dealt is no longer what the actions say
        self._history = None

    def render(self, seat=-1, color=False, whole=False, key=False, words=False):
        """A text picture of the position as seat sees it.  words=True: its
        words come as events, "\x1e{JSON}\x1f", for a front end to say in
        its own language (TAFEL_RENDER_WORDS, docs/catalogs.md)."""
        self._check_seat(seat)
        flags = ((_lib.RENDER_COLOR if color else 0)
                 | (_lib.RENDER_WHOLE if whole else 0)
                 | (_lib.RENDER_KEY if key else 0)
                 | (_lib.RENDER_WORDS if words else 0))
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
        return State(self.game, pointer, self._history)

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
        self._history = other._history

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
        state._history = None  # the bytes do not say how it came about
        return state

    def __reduce__(self):
        return (_state_from_bytes, (self.game.game_string, self.to_bytes(),
                                    self.history_or_none()))

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


def _state_from_bytes(game_string, data, history=None):
    from .game import Game
    state = State.from_bytes(Game(game_string), data)
    if history is not None:
        state._history = _NO_HISTORY
        for action in history:
            state._history = (state._history, action)
    return state

"""Bot: one of tafel's own players (tafel_bot), to play against from Python.

    bot = tafel.Bot("hard", game, seed=1)
    action = bot.choose(state)          # for the seat to move
    for move in bot.analyse(state):     # its best moves, best first
        print(state.action_to_text(move.action), move.share, move.winrate)

A bot decides from the view of the seat to move only (it resamples what the
seat cannot see), so it may be given the true state.  bots() lists them.
"""
import collections
import ctypes

from . import _lib
from ._lib import lib
from .errors import InvalidArgumentError, raise_if_failed

Move = collections.namedtuple("Move", "action share winrate")
BotInfo = collections.namedtuple("BotInfo", "name summary")


def bots():
    """The bots tafel has: [BotInfo(name, summary)]."""
    found, i = [], 0
    while True:
        summary = ctypes.c_char_p()
        name = lib.tafel_bot_info(i, ctypes.byref(summary))
        if name is None:
            return found
        found.append(BotInfo(name.decode(), (summary.value or b"").decode()))
        i += 1


class Bot:
    """A bot of spec ("random", "greedy", "hard", "mcts:iters=5000") for a game.

    Its random choices come from seed: the same spec and seed choose the same
    from the same states (unless a time budget stops its search).
    """

    _free = staticmethod(lib.tafel_bot_free)

    def __init__(self, spec, game, seed=0):
        self.game = game  # the bot reads the game's data: keep it alive
        error = _lib.ErrorStruct()
        pointer = ctypes.c_void_p()
        rc = lib.tafel_bot_new(spec.encode(), game._ptr, seed, ctypes.byref(pointer),
                               ctypes.byref(error))
        raise_if_failed(rc, error)
        self._ptr = pointer.value

    def __del__(self):
        pointer, self._ptr = getattr(self, "_ptr", None), None
        if pointer:
            self._free(pointer)

    @property
    def name(self):
        return lib.tafel_bot_name(self._ptr).decode()

    def _check(self, state):
        if state.current_player() < 0:
            raise InvalidArgumentError("a bot chooses for a seat; this state is "
                                       "at a chance node or over")

    def choose(self, state):
        """Its action for the seat to move in state (which is not changed)."""
        self._check(state)
        error = _lib.ErrorStruct()
        action = ctypes.c_int32()
        rc = lib.tafel_bot_choose(self._ptr, state._ptr, ctypes.byref(action),
                                  ctypes.byref(error))
        raise_if_failed(rc, error)
        return action.value

    def stop(self):
        """Ends a search another thread runs on this bot (in choose or
        analyse) at its next check: it then answers with its best move so
        far.  ctypes lets go of the GIL during a search, so a Python thread
        can call this while another waits in choose."""
        lib.tafel_bot_stop(self._ptr)

    def set_time_cap(self, ms):
        """Caps each later choice at ms milliseconds (0: no cap); a search
        that ends sooner chooses exactly as without the cap."""
        error = _lib.ErrorStruct()
        raise_if_failed(lib.tafel_bot_set_time_cap(self._ptr, ms, ctypes.byref(error)), error)

    def analyse(self, state, count=5):
        """Its best moves for the seat to move, best first: [Move(action,
        share of its search, winrate or None)]; the first is its choice."""
        self._check(state)
        error = _lib.ErrorStruct()
        moves = (_lib.BotMove * count)()
        n = ctypes.c_int()
        rc = lib.tafel_bot_analyse(self._ptr, state._ptr, moves, count, ctypes.byref(n),
                                   ctypes.byref(error))
        raise_if_failed(rc, error)
        return [Move(m.action, m.share, None if m.winrate < 0 else m.winrate)
                for m in moves[:n.value]]

"""Bot: one of tafel's own players (tafel_bot), to play against from Python.

    bot = tafel.Bot("hard", game, seed=1)
    action = bot.choose(state)          # for the seat to move
    for move in bot.analyse(state):     # its best moves, best first
        print(state.action_to_text(move.action), move.share, move.winrate)

A bot decides from the view of the seat to move only (it resamples what the
seat cannot see), so it may be given the true state.  bots() lists them.

A search bot takes a leaf evaluator (a value net, and a policy net for
priors), called on batches of leaves with numpy arrays:

    def net(obs, mask, to_move):        # [n, size] float32, [n, space] uint8, [n]
        return values, priors           # [n, players] in 0..1; [n, space] (or values alone)
    bot.set_evaluator(net, batch=16, priors=True)
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
        self._raise(rc, error)
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

    def set_evaluator(self, evaluate, batch=8, priors=False, kind="observation"):
        """Ends the search's iterations with evaluate instead of rollouts
        (tafel_bot_set_evaluator; None: rollouts again).  evaluate(obs,
        mask, to_move) gets, for up to batch leaves, the tensor of kind
        ("observation" or "information_state") and the legal mask of each
        leaf's seat to move, and that seat; it returns values, [n, players]:
        each seat's expected share of the win (0..1), and with priors=True
        also priors, [n, action_space_size] (>= 0, read at legal indices).
        An exception in evaluate ends the search and is raised again by
        choose or analyse.  Needs numpy."""
        import numpy as np
        error = _lib.ErrorStruct()
        if evaluate is None:
            self._evaluator = None
            raise_if_failed(lib.tafel_bot_set_evaluator(self._ptr, None, ctypes.byref(error)),
                            error)
            return
        if kind not in ("observation", "information_state"):
            raise InvalidArgumentError("kind is 'observation' or 'information_state', not %r"
                                       % (kind,))
        if not 1 <= batch <= _lib.EVALUATOR_MAX_BATCH:
            raise InvalidArgumentError("batch is 1..%d, not %r"
                                       % (_lib.EVALUATOR_MAX_BATCH, batch))
        game = self.game
        players, space = game.num_players, game.action_space_size
        size = (game.observation_tensor_size if kind == "observation"
                else game.information_state_tensor_size)
        write = (lib.tafel_state_observation_tensor if kind == "observation"
                 else lib.tafel_state_information_state_tensor)
        obs = np.zeros((batch, size), np.float32)
        mask = np.zeros((batch, space), np.uint8)
        to_move = np.zeros(batch, np.int32)
        row_bytes = size * 4

        def call(_ctx, leaves, n, values_out, priors_out, err):
            try:
                for i in range(n):
                    seat = lib.tafel_state_current(leaves[i])
                    to_move[i] = seat
                    write(leaves[i], seat, obs.ctypes.data + i * row_bytes, size, None)
                    lib.tafel_state_legal_actions_mask(leaves[i], mask.ctypes.data + i * space,
                                                       space)
                answer = evaluate(obs[:n], mask[:n], to_move[:n])
                values, prior = (answer if isinstance(answer, tuple) else (answer, None))
                out = np.ctypeslib.as_array(ctypes.cast(values_out, ctypes.POINTER(
                    ctypes.c_float)), shape=(n, players))
                out[:] = np.asarray(values, np.float32).reshape(n, players)
                if priors_out:
                    if prior is None:
                        raise InvalidArgumentError("the evaluator was set with priors=True "
                                                   "but returned values alone")
                    out = np.ctypeslib.as_array(ctypes.cast(priors_out, ctypes.POINTER(
                        ctypes.c_float)), shape=(n, space))
                    out[:] = np.asarray(prior, np.float32).reshape(n, space)
                return 0
            except BaseException as exc:  # reaches the caller, not the C stack
                self._evaluator_error = exc
                text = ("%s: %s" % (type(exc).__name__, exc)).encode()[:255]
                err.contents.message = text
                return 1  # TAFEL_EINVAL

        function = _lib.EVALUATE(call)
        spec = _lib.Evaluator(function, None, batch, 1 if priors else 0)
        rc = lib.tafel_bot_set_evaluator(self._ptr, ctypes.byref(spec), ctypes.byref(error))
        raise_if_failed(rc, error)
        self._evaluator = function  # the C side keeps its address: keep it alive

    def set_net(self, net, batch=16):
        """Makes net (a tafel.Net of this game) the search's leaf evaluator,
        run in C (tafel_bot_set_net): no Python in the search."""
        error = _lib.ErrorStruct()
        rc = lib.tafel_bot_set_net(self._ptr, net._ptr, batch, ctypes.byref(error))
        raise_if_failed(rc, error)
        self._evaluator = net  # the C side uses it: keep it alive

    def _raise(self, rc, error):
        exc, self._evaluator_error = getattr(self, "_evaluator_error", None), None
        if rc and exc is not None:
            raise exc
        raise_if_failed(rc, error)

    def analyse(self, state, count=5):
        """Its best moves for the seat to move, best first: [Move(action,
        share of its search, winrate or None)]; the first is its choice."""
        self._check(state)
        error = _lib.ErrorStruct()
        moves = (_lib.BotMove * count)()
        n = ctypes.c_int()
        rc = lib.tafel_bot_analyse(self._ptr, state._ptr, moves, count, ctypes.byref(n),
                                   ctypes.byref(error))
        self._raise(rc, error)
        return [Move(m.action, m.share, None if m.winrate < 0 else m.winrate)
                for m in moves[:n.value]]

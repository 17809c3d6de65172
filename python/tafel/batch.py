"""tafel.Batch: n states of one game stepped in one call (tafel_batch), its
numpy arrays written by the engine in place, no copies:

    import numpy as np, tafel
    batch = tafel.Batch("cardcassonne(players=2)", 64, seed=1)
    obs, masks, to_move = batch.obs, batch.masks, batch.to_move   # filled
    actions = np.full(64, -1, np.int32)                           # -1: random
    batch.step(actions)          # obs, masks, to_move, rewards, done updated

- An action is an index, -1 (RANDOM: a random legal one), -2 (KEEP: the
  state stays as it is while others move) or -3 (RESTART: its game is left
  and the next one starts).
- obs: float32 (n, *tensor shape); masks: int8 (n, action space size);
  to_move: int32 (n,); rewards: float32 (n, players), +1 each winner, -1
  the others, 0 all when every seat wins, for the games that ended this
  step (done: bool-like uint8 (n,)); every finished game starts anew.
- State i plays the games a single tafel.State with the rng
  tafel_batch_rng(seed, i) plays with the same actions.
- The arrays are the batch's own and change at every step: copy what must
  stay (obs.copy()).
"""
import ctypes

from . import _lib
from ._lib import lib
from .errors import raise_if_failed
from .game import Game
from .rng import Rng
from .state import State

try:
    import numpy as np
except ImportError as missing:  # pragma: no cover - depends on the machine
    raise ImportError("tafel.Batch needs numpy (%s): apt install python3-numpy"
                      % missing) from missing

KINDS = {"tensor": 0, "information_state": 1}
RANDOM, KEEP, RESTART = -1, -2, -3  # TAFEL_BATCH_RANDOM, _KEEP, _RESTART


def _address(array):
    return array.ctypes.data_as(ctypes.c_void_p)


class Batch:
    """n states of game stepped together: Batch("catan_cards", 64, seed=1)."""

    def __init__(self, game, n, seed=0, observation="tensor"):
        self.game = game if isinstance(game, Game) else Game(game)
        if observation not in KINDS:
            raise ValueError("observation must be one of %s" % (tuple(KINDS),))
        kind = KINDS[observation]
        error = _lib.ErrorStruct()
        self._ptr = lib.tafel_batch_new(self.game._ptr, int(n), int(seed) & (2**64 - 1),
                                        kind, ctypes.byref(error))
        if not self._ptr:
            raise_if_failed(error.code or -1, error)
        self.n = int(n)
        shape = tuple(self.game._tensors[kind][0])
        self.obs = np.zeros((self.n,) + shape, np.float32)
        self.masks = np.zeros((self.n, self.game.action_space_size), np.int8)
        self.to_move = np.zeros(self.n, np.int32)
        self.rewards = np.zeros((self.n, self.game.num_players), np.float32)
        self.done = np.zeros(self.n, np.uint8)
        self._actions = np.full(self.n, -1, np.int32)
        raise_if_failed(lib.tafel_batch_observe(self._ptr, _address(self.obs),
                                                _address(self.masks), _address(self.to_move),
                                                ctypes.byref(error)), error)

    def step(self, actions=None):
        """Play actions (n action-space indexes, -1 random; None: all random)
        and update the arrays.  A bad index raises and moves no state."""
        if actions is None:
            acts = self._actions
            acts.fill(-1)
        else:
            acts = np.ascontiguousarray(actions, dtype=np.int32)
            if acts.shape != (self.n,):
                raise ValueError("actions: %d indexes, not shape %s" % (self.n, acts.shape))
        error = _lib.ErrorStruct()
        raise_if_failed(lib.tafel_batch_step(self._ptr, _address(acts), _address(self.obs),
                                             _address(self.masks), _address(self.to_move),
                                             _address(self.rewards), _address(self.done),
                                             ctypes.byref(error)), error)

    def state(self, i):
        """A copy of state i, as a tafel.State (its history unknown)."""
        return self._copy(lib.tafel_batch_state, i)

    def final_state(self, i):
        """A copy of the state state i's last finished game ended in
        (tafel_batch_final_state), or None when none has ended yet."""
        return self._copy(lib.tafel_batch_final_state, i)

    def _copy(self, which, i):
        if not 0 <= i < self.n:
            raise IndexError("state %d of a batch of %d" % (i, self.n))
        found = which(self._ptr, int(i))
        if not found:
            return None
        pointer = lib.tafel_state_clone(found)
        if not pointer:
            raise MemoryError("tafel_state_clone: out of memory")
        return State(self.game, pointer, None)

    @staticmethod
    def rng_of(seed, i):
        """The tafel.Rng state i of a batch of seed starts with
        (tafel_batch_rng): a single state drawing from it plays the same
        games with the same actions."""
        return Rng.from_state(lib.tafel_batch_rng(int(seed) & (2**64 - 1), int(i)))

    def __len__(self):
        return self.n

    def __del__(self):
        pointer, self._ptr = getattr(self, "_ptr", None), None
        if pointer:
            lib.tafel_batch_free(pointer)

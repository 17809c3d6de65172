"""Net: a value (and policy) net run by the C library (tafel_net_*).

    net = tafel.Net(game, "nets/cardcassonne.tfnet")   # or bytes
    values, logits = net.forward(obs)                  # numpy, [n, players], [n, space]
    bot = tafel.Bot("mcts:iters=800", game)
    bot.set_net(net, batch=16)                         # the search's leaf evaluator

The weights format is docs/nets.md's; nets/train.py writes it from PyTorch.
"""
import ctypes

from . import _lib
from ._lib import lib
from .errors import NetFileError, ParseError, raise_if_failed

KINDS = ("observation", "information_state")


class Net:
    """A net for game, from a weights file's path or its bytes."""

    _free = staticmethod(lib.tafel_net_free)

    def __init__(self, game, source):
        self.game = game  # the net is checked against the game: keep it alive
        error = _lib.ErrorStruct()
        pointer = ctypes.c_void_p()
        if isinstance(source, (bytes, bytearray)):
            rc = lib.tafel_net_load(game._ptr, bytes(source), len(source),
                                    ctypes.byref(pointer), ctypes.byref(error))
        else:
            rc = lib.tafel_net_read(game._ptr, str(source).encode(), ctypes.byref(pointer),
                                    ctypes.byref(error))
        if rc == ParseError.code:  # the engine's "cannot read": here a file, not an action
            raise NetFileError(error.message.decode("utf-8", "replace"), rc)
        raise_if_failed(rc, error)
        self._ptr = pointer.value
        self.kind = KINDS[lib.tafel_net_kind(self._ptr)]
        self.has_policy = bool(lib.tafel_net_has_policy(self._ptr))

    def __del__(self):
        pointer, self._ptr = getattr(self, "_ptr", None), None
        if pointer:
            self._free(pointer)

    def forward(self, obs, policy=True):
        """values [n, players] (each seat's share of the win, the observer
        first) and, when the net has one and policy is true, the policy
        logits [n, action_space_size]; obs is [n, tensor size]."""
        import numpy as np
        obs = np.ascontiguousarray(obs, np.float32)
        n = obs.shape[0] if obs.ndim > 1 else 1
        values = np.zeros((n, self.game.num_players), np.float32)
        logits = (np.zeros((n, self.game.action_space_size), np.float32)
                  if policy and self.has_policy else None)
        error = _lib.ErrorStruct()
        rc = lib.tafel_net_forward(self._ptr, obs.ctypes.data, n, values.ctypes.data,
                                   None if logits is None else logits.ctypes.data,
                                   ctypes.byref(error))
        raise_if_failed(rc, error)
        return values, logits

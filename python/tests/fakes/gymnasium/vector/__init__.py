"""A fake of gymnasium.vector's VectorEnv and AutoresetMode (tests only)."""
from enum import Enum

import numpy as np

from . import utils  # noqa: F401


class AutoresetMode(Enum):
    """Gymnasium 1.x's autoreset modes, by the same values."""

    NEXT_STEP = "NextStep"
    SAME_STEP = "SameStep"
    DISABLED = "Disabled"


class VectorEnv:
    """gymnasium.vector.VectorEnv: reset(seed) seeds np_random; the rest is
    the subclass's."""

    metadata = {}
    spec = None
    render_mode = None
    closed = False
    _np_random = None

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self._np_random = np.random.default_rng(seed)

    @property
    def np_random(self):
        if self._np_random is None:
            self._np_random = np.random.default_rng()
        return self._np_random

    def step(self, actions):
        raise NotImplementedError

    def close(self, **kwargs):
        if not self.closed:
            self.close_extras(**kwargs)
            self.closed = True

    def close_extras(self, **kwargs):
        pass

    @property
    def unwrapped(self):
        return self

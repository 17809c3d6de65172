"""A fake of the few pieces of Gymnasium that tafel.gym uses (tests only)."""
import numpy as np

from . import spaces  # noqa: F401

__version__ = "0.0-fake"
FAKE = True


class Env:
    """gymnasium.Env: reset(seed) seeds np_random; subclasses do the rest."""

    metadata = {"render_modes": []}
    render_mode = None
    np_random = None
    action_space = None
    observation_space = None

    def reset(self, *, seed=None, options=None):
        if seed is not None or self.np_random is None:
            self.np_random = np.random.default_rng(seed)

    def step(self, action):
        raise NotImplementedError

    def close(self):
        pass

    @property
    def unwrapped(self):
        return self

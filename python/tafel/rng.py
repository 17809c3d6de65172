"""Rng: the engine's random generator (tafel_rng_*) as a Python object.

Its whole state is one uint64 held in C memory, and every draw is a call
into the engine, so Python and C draw the same numbers from the same seed:
a game played here with an Rng is the game C plays with that seed.
"""
import ctypes

from ._lib import lib


class Rng:
    """A reproducible generator: Rng(seed) is tafel_rng_seed(seed)."""

    __slots__ = ("_state", "_pointer")

    def __init__(self, seed=0):
        self._state = ctypes.c_uint64(lib.tafel_rng_seed(seed & (2**64 - 1)))
        self._pointer = ctypes.pointer(self._state)

    @classmethod
    def from_state(cls, state):
        """An Rng whose raw state is state (no seeding applied)."""
        rng = cls.__new__(cls)
        rng._state = ctypes.c_uint64(state)
        rng._pointer = ctypes.pointer(rng._state)
        return rng

    @property
    def state(self):
        """The raw uint64 state: Rng.from_state(r.state) continues as r."""
        return self._state.value

    def next(self):
        """64 random bits."""
        return lib.tafel_rng_next(self._pointer)

    def below(self, n):
        """A uniform integer in 0..n-1 (0 when n <= 1)."""
        return lib.tafel_rng_below(self._pointer, n)

    def unit(self):
        """A uniform float in [0, 1)."""
        return lib.tafel_rng_unit(self._pointer)

    def choice(self, items):
        """One of items, each equally likely (as the engine's random bot)."""
        return items[lib.tafel_rng_below(self._pointer, len(items))]

    def copy(self):
        return Rng.from_state(self.state)

    def __repr__(self):
        return "Rng.from_state(%d)" % self.state

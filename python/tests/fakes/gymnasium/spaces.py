"""A fake of gymnasium.spaces: Discrete, MultiDiscrete, Box, Dict (tests only)."""
import numpy as np


class Space:
    def __contains__(self, x):
        return self.contains(x)


class Discrete(Space):
    def __init__(self, n, seed=None):
        self.n = int(n)
        self.shape, self.dtype = (), np.int64
        self._rng = np.random.default_rng(seed)

    def contains(self, x):
        if isinstance(x, np.ndarray) and x.shape == ():
            x = x.item()
        return isinstance(x, (int, np.integer)) and 0 <= int(x) < self.n

    def sample(self, mask=None):
        if mask is None:
            return int(self._rng.integers(self.n))
        if not isinstance(mask, np.ndarray) or mask.dtype != np.int8:
            raise ValueError("the mask must be an np.int8 array, as Gymnasium's")
        if mask.shape != (self.n,):
            raise ValueError("the mask's shape must be (%d,)" % self.n)
        allowed = np.flatnonzero(mask)
        if not len(allowed):
            return 0  # Gymnasium returns the start when nothing is allowed
        return int(self._rng.choice(allowed))


class MultiDiscrete(Space):
    """Gymnasium's MultiDiscrete (start 0): an int64 array, 0 <= x < nvec."""

    def __init__(self, nvec, seed=None):
        self.nvec = np.asarray(nvec, np.int64)
        self.shape, self.dtype = self.nvec.shape, np.dtype(np.int64)
        self._rng = np.random.default_rng(seed)

    def contains(self, x):
        x = np.asarray(x)
        return (x.shape == self.shape and np.issubdtype(x.dtype, np.integer)
                and bool(np.all(x >= 0)) and bool(np.all(x < self.nvec)))

    def sample(self, mask=None):
        """With mask: a tuple of one int8 mask a position, as Gymnasium's."""
        if mask is None:
            return self._rng.integers(self.nvec)
        if not isinstance(mask, tuple) or len(mask) != len(self.nvec):
            raise ValueError("the mask must be a tuple of %d masks" % len(self.nvec))
        return np.array([Discrete(n, seed=self._rng.integers(2**32)).sample(m)
                         for n, m in zip(self.nvec, mask)], np.int64)


class Box(Space):
    def __init__(self, low, high, shape, dtype=np.float32):
        self.shape, self.dtype = tuple(shape), np.dtype(dtype)
        self.low = np.full(self.shape, low, self.dtype)
        self.high = np.full(self.shape, high, self.dtype)

    def contains(self, x):
        return (isinstance(x, np.ndarray) and x.shape == self.shape
                and np.can_cast(x.dtype, self.dtype)
                and bool(np.all(x >= self.low)) and bool(np.all(x <= self.high)))


class Dict(Space):
    def __init__(self, spaces):
        self.spaces = dict(spaces)

    def __getitem__(self, key):
        return self.spaces[key]

    def contains(self, x):
        return (isinstance(x, dict) and x.keys() == self.spaces.keys()
                and all(x[k] in space for k, space in self.spaces.items()))

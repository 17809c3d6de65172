"""A fake of gymnasium.vector.utils.batch_space for Box, Discrete and Dict,
batched as Gymnasium batches them (tests only)."""
import numpy as np

from .. import spaces


def batch_space(space, n=1):
    """n copies of space as one: a Box gains a leading axis of n, a Discrete
    becomes MultiDiscrete([space.n] * n), a Dict batches each of its spaces."""
    if isinstance(space, spaces.Box):
        return spaces.Box(np.repeat(space.low[None], n, 0), np.repeat(space.high[None], n, 0),
                          (n,) + space.shape, space.dtype)
    if isinstance(space, spaces.Discrete):
        return spaces.MultiDiscrete(np.full(n, space.n))
    if isinstance(space, spaces.Dict):
        return spaces.Dict({key: batch_space(value, n) for key, value in space.spaces.items()})
    raise TypeError("the fake batch_space knows Box, Discrete and Dict, not %r" % (space,))

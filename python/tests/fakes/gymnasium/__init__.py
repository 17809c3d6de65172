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


class EnvSpec:
    """What gymnasium.register keeps of an id: its entry point and kwargs."""

    def __init__(self, id, entry_point, kwargs=None):  # noqa: A002 - Gymnasium's name
        self.id, self.entry_point, self.kwargs = id, entry_point, dict(kwargs or {})


registry = {}


def register(id, entry_point, kwargs=None, **unused):  # noqa: A002
    """gymnasium.register: an id is "namespace/Name-vN", once."""
    if "/" not in id or "-v" not in id:
        raise ValueError("env id %r is not namespace/Name-vN" % id)
    if id in registry:
        raise ValueError("env id %r is registered already" % id)
    registry[id] = EnvSpec(id, entry_point, kwargs)


def make(id, **kwargs):  # noqa: A002
    """gymnasium.make without its wrappers: the entry point with the kwargs."""
    import importlib
    spec = registry[id]
    module, _, name = spec.entry_point.partition(":")
    return getattr(importlib.import_module(module), name)(**dict(spec.kwargs, **kwargs))

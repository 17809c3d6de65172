"""A fake of the few pieces of Gymnasium that tafel.gym uses (tests only)."""
import numpy as np

from . import spaces  # noqa: F401
from . import vector  # noqa: F401

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

    def __init__(self, id, entry_point, kwargs=None,  # noqa: A002 - Gymnasium's name
                 vector_entry_point=None):
        self.id, self.entry_point, self.kwargs = id, entry_point, dict(kwargs or {})
        self.vector_entry_point = vector_entry_point


registry = {}


def register(id, entry_point=None, kwargs=None, vector_entry_point=None,  # noqa: A002
             **unused):
    """gymnasium.register: an id is "namespace/Name-vN", once."""
    if "/" not in id or "-v" not in id:
        raise ValueError("env id %r is not namespace/Name-vN" % id)
    if id in registry:
        raise ValueError("env id %r is registered already" % id)
    registry[id] = EnvSpec(id, entry_point, kwargs, vector_entry_point)


def _load(entry_point):
    import importlib
    module, _, name = entry_point.partition(":")
    return getattr(importlib.import_module(module), name)


def make(id, **kwargs):  # noqa: A002
    """gymnasium.make without its wrappers: the entry point with the kwargs."""
    spec = registry[id]
    return _load(spec.entry_point)(**dict(spec.kwargs, **kwargs))


def make_vec(id, num_envs=1, vectorization_mode=None, **kwargs):  # noqa: A002
    """gymnasium.make_vec through a vector_entry_point only (its default when
    the spec has one): the entry point with num_envs and the kwargs."""
    spec = registry[id]
    if vectorization_mode not in (None, "vector_entry_point") or not spec.vector_entry_point:
        raise NotImplementedError("the fake make_vec has only the vector_entry_point mode")
    return _load(spec.vector_entry_point)(num_envs=num_envs, **dict(spec.kwargs, **kwargs))

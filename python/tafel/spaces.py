"""Small stand-ins for Gymnasium's spaces (which this package does not need).

They describe what the environment hands out: Discrete(n) actions, a
MultiBinary(n) action mask, and the view, a JSON dict of no fixed shape.
"""


def _draw_below(rng, n):
    # a tafel.Rng draws as the engine does; random.Random works too
    if hasattr(rng, "below"):
        return rng.below(n)
    return rng.randrange(n)


def _set_positions(mask):
    if hasattr(mask, "nonzero") and hasattr(mask, "dtype"):  # numpy, in C
        return mask.nonzero()[0].tolist()
    if isinstance(mask, memoryview):
        mask = mask.tobytes()
    if isinstance(mask, (bytes, bytearray)):
        # find() scans in C: a Carcassonne mask has 272,144 entries
        positions, at = [], mask.find(1)
        while at >= 0:
            positions.append(at)
            at = mask.find(1, at + 1)
        return positions
    return [i for i, bit in enumerate(mask) if bit]


class Discrete:
    """The integers 0..n-1."""

    def __init__(self, n):
        self.n = n

    def contains(self, x):
        return isinstance(x, int) and 0 <= x < self.n

    __contains__ = contains

    def sample(self, mask=None, rng=None):
        """A uniform element; with mask (n 0/1 values), one where mask is 1."""
        if rng is None:
            import random
            rng = random
        if mask is None:
            return _draw_below(rng, self.n)
        allowed = _set_positions(mask)
        if not allowed:
            raise ValueError("sample: the mask allows no action")
        return allowed[_draw_below(rng, len(allowed))]

    def __eq__(self, other):
        return isinstance(other, Discrete) and other.n == self.n

    def __repr__(self):
        return "Discrete(%d)" % self.n


class MultiBinary:
    """Sequences of n values, each 0 or 1."""

    def __init__(self, n):
        self.n = n

    def contains(self, x):
        if len(x) != self.n:
            return False
        if isinstance(x, (bytes, bytearray)):
            return not x.translate(None, b"\x00\x01")  # in C, not per byte
        return all(bit in (0, 1) for bit in x)

    __contains__ = contains

    def __repr__(self):
        return "MultiBinary(%d)" % self.n


class Box:
    """float32 arrays of a fixed shape (a tensor), like gymnasium's Box
    with no bounds."""

    dtype = "float32"

    def __init__(self, shape):
        self.shape = tuple(shape)

    def contains(self, x):
        shape = getattr(x, "shape", None)
        return shape is not None and tuple(shape) == self.shape

    __contains__ = contains

    def __repr__(self):
        return "Box(%r, float32)" % (self.shape,)


class JsonView:
    """A seat's view: the dict of tafel_state_view_json (no fixed shape).

    Its keys per game are in docs/ (cardcassonne.md, catan_cards.md) and in
    the engine's view code; a learner encodes it into features itself.
    """

    def __init__(self, game_name):
        self.game_name = game_name

    def contains(self, x):
        return isinstance(x, dict)

    __contains__ = contains

    def __repr__(self):
        return "JsonView(%r)" % self.game_name


class DictSpace:
    """A dict of named spaces, like gymnasium.spaces.Dict."""

    def __init__(self, spaces):
        self.spaces = dict(spaces)

    def __getitem__(self, key):
        return self.spaces[key]

    def contains(self, x):
        return (isinstance(x, dict) and x.keys() == self.spaces.keys()
                and all(x[key] in space for key, space in self.spaces.items()))

    __contains__ = contains

    def __repr__(self):
        return "DictSpace(%r)" % self.spaces

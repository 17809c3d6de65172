"""A fake of pettingzoo.AECEnv, the base class tafel.pettingzoo uses."""
__version__ = "0.0-fake"
FAKE = True


class AECEnv:
    metadata = {}
    possible_agents = []
    agents = []

    def __init__(self):
        pass

    @property
    def unwrapped(self):
        return self

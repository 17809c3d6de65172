"""tafel.pettingzoo: a tafel game as a PettingZoo AEC environment over the
tensors and the fixed action space.

    import tafel.pettingzoo
    env = tafel.pettingzoo.env(game="cardcassonne(players=3)")
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            mask = observation["action_mask"]
            action = env.action_space(agent).sample(mask)
        env.step(action)

It is tafel.TafelAECEnv (its behaviour, documented in docs/python.md) on
pettingzoo.AECEnv, with observation="tensor" by default: each observation
is {"observation": the seat's tensor, float32 of the game's shape,
"action_mask": int8, 1 where legal}, as PettingZoo's classic games hand
out, and the spaces are Gymnasium's (Dict of Box, Discrete of the game's
action space).  observation="information_state" gives the seat's
information-state tensor instead.

PettingZoo, Gymnasium and numpy are needed; without them importing this
module raises an ImportError saying what to install (tafel.TafelAECEnv
itself needs none of them).
"""
try:
    from pettingzoo import AECEnv
    from gymnasium import spaces
    import numpy as np
except ImportError as missing:  # pragma: no cover - depends on the machine
    raise ImportError(
        "tafel.pettingzoo needs pettingzoo, gymnasium and numpy (%s): pip "
        "install pettingzoo. Without them: tafel.TafelAECEnv(game, "
        "observation='tensor') has the same behaviour." % missing) from missing

from .env import TafelAECEnv


class raw_env(TafelAECEnv, AECEnv):  # noqa: N801  (PettingZoo's name)
    """TafelAECEnv on pettingzoo.AECEnv, with Gymnasium spaces."""

    metadata = {"name": "tafel_v0", "render_modes": ["ansi", "human"],
                "is_parallelizable": False}

    def __init__(self, game="cardcassonne", seed=None, reward="win",
                 observation="tensor", action_ids=None, render_mode=None):
        AECEnv.__init__(self)
        if observation == "view":
            raise ValueError("tafel.pettingzoo hands out tensors: observation="
                             "'tensor' or 'information_state' (the JSON view: "
                             "tafel.TafelAECEnv)")
        TafelAECEnv.__init__(self, game, seed=seed, reward=reward,
                             action_ids=action_ids, render_mode=render_mode,
                             observation=observation)
        self._action_space = spaces.Discrete(self.num_actions)
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(low=-np.inf, high=np.inf,
                                      shape=self._tensor_shape,
                                      dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.num_actions,),
                                      dtype=np.int8)})


def env(**kwargs):
    """The environment, as PettingZoo's games offer it (env(), raw_env())."""
    return raw_env(**kwargs)

"""tafel.gym: a tafel game as a Gymnasium environment, one agent against
tafel's own bots.

    import tafel.gym
    env = tafel.gym.TafelEnv("cardcassonne(players=3)", opponent="greedy")
    observation, info = env.reset(seed=1)
    while True:
        action = env.action_space.sample(info["action_mask"])
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

- The agent plays seat `seat` (an int, or "random": drawn at each reset);
  every other seat is a tafel.Bot of `opponent` (a spec such as "greedy",
  "medium", "mcts:iters=200", or a list of one spec per other seat).
- Observation: the agent's observation tensor (observation="tensor") or
  information-state tensor ("information_state"): a float32 Box of the
  game's shape.  With dict_observation=True it is {"observation": ...,
  "action_mask": ...}, as PettingZoo's classic games and masking learners
  expect.  info["action_mask"] always holds the mask (int8, 1 = legal), and
  env.action_masks() gives it as bool (sb3-contrib's MaskablePPO asks for it).
- Action: Discrete(game.action_space_size), the game's fixed action space.
  An illegal one, with illegal="raise" (the default), raises
  IllegalActionError and changes nothing; with illegal="lose" it ends the
  episode as a loss (terminated, info["illegal_action"] True; reward -1 with
  reward="win", with reward="score" the agent's score counted as 0 minus
  the mean) -- what Gymnasium's check_env and unmasked learners need.
- Reward: 0 until the end, then reward="win": +1 if the agent is among the
  winners, -1 if not, 0 when every seat wins (a draw); reward="score": its
  final score minus the mean.  terminated at the end of the game; truncated
  never (every game ends by its rules).
- Chance (tiles drawn, cards dealt, dice) and the bots' moves are taken
  inside step and reset.  reset(seed=s) starts the env's tafel.Rng and the
  bots' seeds from s: the same seed and the same actions give the same game.

Gymnasium and numpy are needed (neither is on this machine's Python
necessarily: Gymnasium is no Debian package); without them importing this
module raises an ImportError saying what to install.
"""
try:
    import gymnasium
    from gymnasium import spaces
    import numpy as np
except ImportError as missing:  # pragma: no cover - depends on the machine
    raise ImportError(
        "tafel.gym needs gymnasium and numpy (%s): pip install gymnasium. "
        "Without them: tafel.State's tensors and tafel.TafelAECEnv work as "
        "they are." % missing) from missing

from ._lib import CHANCE, TERMINAL
from .bot import Bot
from .errors import IllegalActionError, InvalidArgumentError
from .game import Game
from .rng import Rng

OBSERVATIONS = ("tensor", "information_state")
REWARDS = ("win", "score")
ILLEGAL = ("raise", "lose")

# Registered ids, for gymnasium.make("tafel/Cardcassonne-v0", opponent=...) and
# gymnasium.make_vec(id, num_envs=64, opponent="random") (tafel.vector):
# two players, and illegal="lose", as Gymnasium's contract takes any action
# of the action space (check_env passes them as they are).
ENV_IDS = {"tafel/Carcassonne-v0": "carcassonne(players=2)",
           "tafel/Cardcassonne-v0": "cardcassonne(players=2)",
           "tafel/CatanCards-v0": "catan_cards"}


def tensor_box(shape):
    """The Box of a tafel tensor: float32 of shape, unbounded."""
    return spaces.Box(low=-np.inf, high=np.inf, shape=shape, dtype=np.float32)


def mask_box(size):
    """The Box of an action mask, as PettingZoo's classic games declare it."""
    return spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8)


class TafelEnv(gymnasium.Env):
    """One seat of a tafel game against bots: TafelEnv("catan_cards")."""

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, game="cardcassonne", opponent="greedy", seat=0,
                 observation="tensor", dict_observation=False, reward="win",
                 render_mode=None, illegal="raise"):
        self.game = game if isinstance(game, Game) else Game(game)
        if illegal not in ILLEGAL:
            raise ValueError("illegal must be one of %s" % (ILLEGAL,))
        self.illegal = illegal
        if observation not in OBSERVATIONS:
            raise ValueError("observation must be one of %s" % (OBSERVATIONS,))
        if reward not in REWARDS:
            raise ValueError("reward must be one of %s" % (REWARDS,))
        if seat != "random" and seat not in range(self.game.num_players):
            raise ValueError("seat must be 0..%d or 'random'"
                             % (self.game.num_players - 1))
        kind = 0 if observation == "tensor" else 1
        shape, size, _ = self.game._tensors[kind]
        if not size or not self.game.action_space_size:
            raise ValueError("%s has no tensors or action space in this "
                             "libtafel yet" % self.game.name)
        others = self.game.num_players - 1
        specs = [opponent] * others if isinstance(opponent, str) else list(opponent)
        if len(specs) != others:
            raise ValueError("opponent: one spec, or %d (one per other seat)"
                             % others)
        self._specs = specs
        for spec in specs:  # a bad spec fails now, with the engine's message
            Bot(spec, self.game, 0)
        self._kind = kind
        self._seat_option = seat
        self.seat = 0 if seat == "random" else seat
        self.reward_mode = reward
        self.render_mode = render_mode
        self.dict_observation = dict_observation
        self.action_space = spaces.Discrete(self.game.action_space_size)
        box = tensor_box(shape)
        self.observation_space = (
            spaces.Dict({"observation": box,
                         "action_mask": mask_box(self.game.action_space_size)})
            if dict_observation else box)
        self._rng = None
        self.tafel_state = None
        self._lost = False

    # -- the Gymnasium interface --------------------------------------------

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None or self._rng is None:
            if seed is None:
                seed = int(self.np_random.integers(0, 2**63))
            self._rng = Rng(seed)
        if self._seat_option == "random":
            self.seat = self._rng.below(self.game.num_players)
        self._bots = {}
        others = [s for s in range(self.game.num_players) if s != self.seat]
        for other, spec in zip(others, self._specs):
            self._bots[other] = Bot(spec, self.game, self._rng.next())
        self.tafel_state = self.game.new_state()
        self._lost = False
        self._advance()
        return self._observation(), self._info()

    def step(self, action):
        if self.tafel_state is None:
            raise RuntimeError("step before reset")
        state = self.tafel_state
        if state.current_player() == TERMINAL or self._lost:
            raise RuntimeError("the game is over: reset")
        try:
            chosen = state.index_action(int(action))
        except (IllegalActionError, InvalidArgumentError):
            if self.illegal == "raise":
                raise
            # the episode ends as a loss; the game itself is left as it was
            info = dict(self._info(), illegal_action=True)
            self._lost = True
            return self._observation(), self._loss_reward(), True, False, info
        state.apply(chosen)
        self._advance()
        terminated = state.is_terminal()
        reward = self._final_reward() if terminated else 0.0
        return self._observation(), reward, terminated, False, self._info()

    def action_masks(self):
        """The legal-action mask as bool (sb3-contrib's MaskablePPO)."""
        return self.tafel_state.legal_actions_mask()

    def render(self):
        if self.tafel_state is None:
            return None
        text = self.tafel_state.render(self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # -- inside -------------------------------------------------------------

    def _advance(self):
        """Chance and the bots' moves, until the agent is to move or the end."""
        state = self.tafel_state
        while True:
            current = state.current_player()
            if current == CHANCE:
                state.apply(state.sample_chance(self._rng))
            elif current == TERMINAL or current == self.seat:
                return
            else:
                state.apply(self._bots[current].choose(state))

    def _observation(self):
        state = self.tafel_state
        tensor = (state.observation_tensor(self.seat) if self._kind == 0
                  else state.information_state_tensor(self.seat))
        if self.dict_observation:
            return {"observation": tensor, "action_mask": self._mask()}
        return tensor

    def _mask(self):
        mask = np.zeros(self.game.action_space_size, np.int8)
        if not self.tafel_state.is_terminal():
            self.tafel_state.legal_actions_mask(out=mask)
        return mask

    def _info(self):
        info = {"action_mask": self._mask(), "seat": self.seat}
        state = self.tafel_state
        if state.is_terminal():
            info["scores"] = state.scores()
            info["winners"] = state.winners()
        return info

    def _loss_reward(self):
        if self.reward_mode == "win":
            return -1.0
        scores = list(self.tafel_state.scores())
        scores[self.seat] = 0
        return float(-sum(scores) / len(scores))

    def _final_reward(self):
        state = self.tafel_state
        scores, winners = state.scores(), state.winners()
        if self.reward_mode == "score":
            return float(scores[self.seat] - sum(scores) / len(scores))
        if len(winners) == len(scores):
            return 0.0
        return 1.0 if self.seat in winners else -1.0


def _register():
    """The env ids above, once (gymnasium.make then builds TafelEnv, and
    gymnasium.make_vec tafel.vector.TafelVectorEnv, the engine's batch)."""
    for env_id, game in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="tafel.gym:TafelEnv",
                               vector_entry_point="tafel.vector:TafelVectorEnv",
                               kwargs={"game": game, "illegal": "lose"})


_register()

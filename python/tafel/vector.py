"""tafel.vector: num_envs tables of a tafel game as one Gymnasium vector env,
stepped by the engine in one call (tafel.Batch, tafel_batch_step).

    import numpy as np, tafel.vector
    envs = tafel.vector.TafelVectorEnv("cardcassonne(players=2)", num_envs=64,
                                       opponent="random")
    observations, infos = envs.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(1000):
        actions = tafel.vector.masked_sample(infos["action_mask"], rng)
        observations, rewards, terminations, truncations, infos = envs.step(actions)

or gymnasium.make_vec("tafel/Cardcassonne-v0", num_envs=64, opponent="random").

- Each sub-env is what TafelEnv is (tafel.gym, the same arguments and
  meaning): the agent at seat `seat` (an int, or "random": drawn for each
  game), the other seats played by `opponent`; the same observation
  (a tensor, or with dict_observation {"observation", "action_mask"}), the
  same Discrete action space, reward ("win" or "score") and illegal
  ("raise" or "lose").  observation_space and action_space are the batched
  ones (gymnasium.vector.utils.batch_space: a Box of (num_envs, *shape),
  MultiDiscrete), single_observation_space and single_action_space the
  sub-env's; infos["action_mask"] is (num_envs, space) int8, every row
  the mask of its env's observation; infos["seat"] the agent's seats.
- opponent="random": the other seats' moves are drawn inside the engine
  (action -1), the fast way.  Any other bot spec ("greedy", the default as
  in TafelEnv, "mcts:iters=200") is a tafel.Bot per env and seat, asked
  from Python one state at a time: as slow as the bot.
- Autoreset as Gymnasium 1.x defines it (AutoresetMode, in
  metadata["autoreset_mode"]): NEXT_STEP (the default) returns a finished
  game's last observation with terminated set, and the next step ignores
  that env's action and returns the first observation of its next game
  (reward 0); SAME_STEP returns the next game's first observation at once
  and the last one in infos["final_obs"] (infos["final_info"]: seat,
  scores, winners).  DISABLED is not offered: the engine starts a finished
  game's next one itself.  A finished game's last observation is the
  engine's own (tafel_batch_final_state).
- truncated is never set (every game ends by its rules).
- reset(seed=s) starts state i from tafel_batch_rng(s, i) (tafel.Batch),
  and the random seats and bots from s; options={"reset_mask": m} starts
  anew only the envs where m is True.
- copy=True (the default, as SyncVectorEnv): the observations returned are
  the env's own copy; copy=False hands out the arrays the engine writes in
  place, which change at the next step (fastest; copy what must stay).
"""
try:
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
    import numpy as np
except ImportError as missing:  # pragma: no cover - depends on the machine
    raise ImportError(
        "tafel.vector needs gymnasium (1.x) and numpy (%s): pip install gymnasium. "
        "Without gymnasium: tafel.Batch steps many states as it is." % missing) from missing

import ctypes

from . import _lib
from ._lib import lib
from .batch import KEEP, RANDOM, RESTART, Batch
from .bot import Bot
from .errors import IllegalActionError, StateError, raise_if_failed
from .game import Game
from .gym import ILLEGAL, OBSERVATIONS, REWARDS, TafelEnv

AUTORESET = (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP)
_NULL = ctypes.c_void_p()


def masked_sample(masks, rng):
    """One uniformly drawn legal index per row of masks ((n, space), nonzero
    = legal), with numpy Generator rng: a random agent.  A row with no legal
    index gives 0, as Gymnasium's masked sample does.  One pass over the
    masks (Carcassonne's are 64 x 16,050 bytes: a fraction of a step)."""
    masks = np.asarray(masks)
    n, space = masks.shape
    flat = np.flatnonzero(masks.view(np.bool_) if masks.dtype.itemsize == 1 else masks)
    counts = np.bincount(flat // space, minlength=n)
    starts = np.cumsum(counts) - counts
    picks = np.minimum(starts + (rng.random(n) * counts).astype(np.int64), len(flat) - 1)
    return np.where(counts > 0, flat[picks] % space if len(flat) else 0, 0)


class TafelVectorEnv(VectorEnv):
    """num_envs tables of one game: TafelVectorEnv("catan_cards", 64)."""

    metadata = {"render_modes": ["ansi"], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, game="cardcassonne", num_envs=64, opponent="greedy", seat=0,
                 observation="tensor", dict_observation=False, reward="win",
                 illegal="raise", autoreset_mode=AutoresetMode.NEXT_STEP, copy=True,
                 render_mode=None):
        self.game = game if isinstance(game, Game) else Game(game)
        autoreset_mode = AutoresetMode(autoreset_mode)
        if autoreset_mode not in AUTORESET:
            raise ValueError("autoreset_mode: NextStep or SameStep (the engine starts a "
                             "finished game's next one itself), not %s"
                             % autoreset_mode.value)
        if illegal not in ILLEGAL:
            raise ValueError("illegal must be one of %s" % (ILLEGAL,))
        if observation not in OBSERVATIONS:
            raise ValueError("observation must be one of %s" % (OBSERVATIONS,))
        if reward not in REWARDS:
            raise ValueError("reward must be one of %s" % (REWARDS,))
        players = self.game.num_players
        if seat != "random" and seat not in range(players):
            raise ValueError("seat must be 0..%d or 'random'" % (players - 1))
        specs = [opponent] * (players - 1) if isinstance(opponent, str) else list(opponent)
        if len(specs) != players - 1:
            raise ValueError("opponent: one spec, or %d (one per other seat)" % (players - 1))
        for spec in specs:  # a bad spec fails now, with the engine's message
            if spec != "random":
                Bot(spec, self.game, 0)
        self.num_envs = int(num_envs)
        if self.num_envs < 1:
            raise ValueError("num_envs must be at least 1, not %d" % self.num_envs)
        # the single env, for its spaces (and what a sub-env is, exactly)
        single = TafelEnv(self.game, opponent="random", observation=observation,
                          dict_observation=dict_observation)
        self.single_observation_space = single.observation_space
        self.single_action_space = single.action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.metadata = dict(self.metadata, autoreset_mode=autoreset_mode)
        self.autoreset_mode = autoreset_mode
        self.render_mode = render_mode
        self.observation_kind = observation
        self.dict_observation = dict_observation
        self.reward_mode = reward
        self.illegal = illegal
        self.copy = copy
        self._seat_option = seat
        self._specs = specs
        self._batch = None
        n = self.num_envs
        self.seats = np.zeros(n, np.int32)
        self._actions = np.zeros(n, np.int32)
        self._to_move = np.zeros(n, np.int32)
        self._step_rewards = np.zeros((n, players), np.float32)
        self._step_done = np.zeros(n, np.uint8)
        self._autoreset = np.zeros(n, bool)
        self._rows = np.arange(n)

    # -- the Gymnasium interface --------------------------------------------

    def reset(self, *, seed=None, options=None):
        """All games anew (a new batch when seeded), or with
        options={"reset_mask": m} those where m is True."""
        mask = (options or {}).get("reset_mask")
        if mask is not None:
            mask = np.asarray(mask)
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
                raise ValueError("options['reset_mask']: a bool array of shape (%d,)"
                                 % self.num_envs)
            if not mask.any():
                raise ValueError("options['reset_mask'] has no True value")
            if seed is not None or self._batch is None:
                raise ValueError("reset_mask restarts games of a running batch: "
                                 "reset(seed=...) once first, and no seed with a mask")
        super().reset(seed=seed)
        if self._batch is None or seed is not None:
            if seed is None:
                seed = int(self.np_random.integers(0, 2**63))
            self._batch = Batch(self.game, self.num_envs, seed=seed,
                                observation=self.observation_kind)
            self._to_move[:] = self._batch.to_move
            self._rng = np.random.default_rng(seed)
            self._bots = [{} for _ in range(self.num_envs)]
            chosen = np.ones(self.num_envs, bool)
        else:
            chosen = mask if mask is not None else np.ones(self.num_envs, bool)
            self._actions[:] = np.where(chosen, RESTART, KEEP)
            self._call_step()
        self._autoreset[chosen] = False
        for i in np.flatnonzero(chosen):
            self._new_game(i)
        self._play_opponents()
        self._observe()
        batch = self._batch
        infos = {"action_mask": batch.masks, "_action_mask": chosen.copy(),
                 "seat": self.seats.copy(), "_seat": chosen.copy()}
        return self._out(self._observations(), infos)

    def step(self, actions):
        if self._batch is None:
            raise RuntimeError("step before reset")
        batch = self._batch
        n, space = self.num_envs, self.game.action_space_size
        actions = np.asarray(actions)
        if actions.shape != (n,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError("actions: %d integers, not %s of %s" % (n, actions.shape,
                                                                     actions.dtype))
        waiting = self._autoreset  # NEXT_STEP: their action is ignored
        self._autoreset = np.zeros(n, bool)
        inside = (actions >= 0) & (actions < space)
        legal = np.zeros(n, bool)
        legal[inside] = batch.masks[self._rows[inside], actions[inside]] != 0
        lost = ~legal & ~waiting
        if lost.any() and self.illegal == "raise":
            i = int(np.flatnonzero(lost)[0])
            raise IllegalActionError("env %d: action %d is not legal there (illegal='lose' "
                                     "ends its game as a loss instead)" % (i, int(actions[i])))
        self._actions[:] = np.where(waiting, KEEP, np.where(lost, RESTART,
                                                            np.where(inside, actions, 0)))
        rewards = np.zeros(n, np.float64)
        terminated = lost.copy()
        # env -> its finished game's last tensor and mask, seat, scores, winners;
        # a lost env's game is left as it was: its last observation is the one
        # the illegal action answered
        finals = {}
        for i in np.flatnonzero(lost):
            seat = int(self.seats[i])
            rewards[i] = self._loss_reward(i, seat)
            finals[i] = (batch.obs[i].copy(), batch.masks[i].copy(), seat, None, None)
        self._call_step()
        self._collect(terminated, rewards, finals)
        for i in np.flatnonzero(lost):
            self._new_game(i)
        self._play_opponents(terminated, rewards, finals)
        self._observe()
        infos = {"action_mask": batch.masks, "_action_mask": np.ones(n, bool),
                 "seat": self.seats.copy(), "_seat": np.ones(n, bool)}
        observations = self._observations()
        ended = np.zeros(n, bool)
        ended[list(finals)] = True
        if finals:
            final_info = self._final_info(finals, lost)
            if self.autoreset_mode == AutoresetMode.NEXT_STEP:
                self._autoreset = ended
                for i, (tensor, mask, seat, _, _) in finals.items():
                    batch.obs[i] = tensor  # rewritten by the next step's observe
                    batch.masks[i] = mask
                    infos["seat"][i] = seat
                for key, value in final_info.items():
                    if key.lstrip("_") != "seat":  # infos["seat"] has every env's
                        infos[key] = value
            else:
                final_obs = np.full(n, None, object)
                for i, (tensor, mask, _, _, _) in finals.items():
                    final_obs[i] = ({"observation": tensor, "action_mask": mask}
                                    if self.dict_observation else tensor)
                infos.update(final_obs=final_obs, _final_obs=ended.copy(),
                             final_info=final_info, _final_info=ended.copy())
        observations, infos = self._out(observations, infos)
        return (observations, rewards, terminated, np.zeros(n, bool), infos)

    def render(self):
        """Each env's position as its agent sees it, as text (a tuple), as
        TafelEnv's render_mode="ansi" gives it."""
        if self._batch is None:
            return None
        return tuple(self._batch.state(i).render(int(self.seats[i]))
                     for i in range(self.num_envs))

    def action_masks(self):
        """The legal-action masks as bool (num_envs, space)."""
        return self._batch.masks.astype(bool)

    def close_extras(self, **kwargs):
        self._batch = None

    # -- inside -------------------------------------------------------------

    def _call_step(self):
        """tafel_batch_step with this step's actions; tensors and masks are
        written once at the end of a step (_observe), not at every call."""
        batch = self._batch
        error = _lib.ErrorStruct()
        address = lambda array: array.ctypes.data_as(ctypes.c_void_p)  # noqa: E731
        raise_if_failed(lib.tafel_batch_step(
            batch._ptr, address(self._actions), _NULL, _NULL, address(self._to_move),
            address(self._step_rewards), address(self._step_done), ctypes.byref(error)), error)

    def _observe(self):
        batch = self._batch
        error = _lib.ErrorStruct()
        raise_if_failed(lib.tafel_batch_observe(
            batch._ptr, batch.obs.ctypes.data_as(ctypes.c_void_p),
            batch.masks.ctypes.data_as(ctypes.c_void_p),
            batch.to_move.ctypes.data_as(ctypes.c_void_p), ctypes.byref(error)), error)

    def _new_game(self, i):
        """Env i's next game: its seat when drawn, its bots."""
        if self._seat_option == "random":
            self.seats[i] = self._rng.integers(self.game.num_players)
        else:
            self.seats[i] = self._seat_option
        others = [s for s in range(self.game.num_players) if s != self.seats[i]]
        self._bots[i] = {}
        for other, spec in zip(others, self._specs):
            self._bots[i][other] = (None if spec == "random" else
                                    Bot(spec, self.game, int(self._rng.integers(2**63))))

    def _play_opponents(self, terminated=None, rewards=None, finals=None):
        """The other seats' moves, each state until its agent is to move; a
        game that ends on the way is collected as the agent's."""
        while True:
            pending = self._to_move != self.seats
            if not pending.any():
                return
            self._actions[:] = KEEP
            for i in np.flatnonzero(pending):
                bot = self._bots[i][int(self._to_move[i])]
                self._actions[i] = RANDOM if bot is None else self._bot_index(i, bot)
            self._call_step()
            if terminated is not None:
                self._collect(terminated, rewards, finals)
            elif self._step_done.any():
                raise StateError("a game ended before its agent's first move")

    def _bot_index(self, i, bot):
        state = self._batch.state(i)
        index = state.action_index(bot.choose(state))
        if index is None:
            raise StateError("env %d: the bot's move has no action-space index "
                             "(a Carcassonne tile placed beyond the window)" % i)
        return index

    def _collect(self, terminated, rewards, finals):
        """The games that ended at the last call: the agent's reward, its
        last observation (the engine's final state); the next game's seat."""
        for i in np.flatnonzero(self._step_done):
            if i in finals:
                raise StateError("env %d: two games ended in one step" % i)
            seat = int(self.seats[i])
            final = self._batch.final_state(i)
            scores, winners = final.scores(), final.winners()
            tensor = (final.observation_tensor(seat) if self.observation_kind == "tensor"
                      else final.information_state_tensor(seat))
            if self.reward_mode == "score":
                rewards[i] = float(scores[seat] - sum(scores) / len(scores))
            else:
                rewards[i] = float(self._step_rewards[i, seat])
            terminated[i] = True
            mask = np.zeros(self.game.action_space_size, np.int8)  # nothing legal at the end
            finals[i] = (tensor, mask, seat, scores, winners)
            self._new_game(i)

    def _loss_reward(self, i, seat):
        if self.reward_mode == "win":
            return -1.0
        scores = list(self._batch.state(i).scores())  # the game as it is left
        scores[seat] = 0
        return float(-sum(scores) / len(scores))

    def _observations(self):
        batch = self._batch
        if self.dict_observation:
            return {"observation": batch.obs, "action_mask": batch.masks}
        return batch.obs

    def _final_info(self, finals, lost):
        n, players = self.num_envs, self.game.num_players
        ended = np.zeros(n, bool)
        ended[list(finals)] = True
        scored = np.zeros(n, bool)
        scores = np.zeros((n, players))
        winners = np.full(n, None, object)
        seats = np.zeros(n, np.int32)
        for i, (_, _, seat, its_scores, its_winners) in finals.items():
            seats[i] = seat
            if its_scores is not None:
                scored[i] = True
                scores[i] = its_scores
                winners[i] = tuple(its_winners)
        info = {"seat": seats, "_seat": ended.copy(), "scores": scores, "_scores": scored,
                "winners": winners, "_winners": scored.copy()}
        if lost.any():
            info.update(illegal_action=lost.copy(), _illegal_action=lost.copy())
        return info

    def _out(self, observations, infos):
        """What reset and step hand out: copies unless copy=False."""
        if not self.copy:
            return observations, infos
        if self.dict_observation:
            observations = {key: value.copy() for key, value in observations.items()}
        else:
            observations = observations.copy()
        infos["action_mask"] = infos["action_mask"].copy()
        return observations, infos

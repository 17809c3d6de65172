"""TafelAECEnv: a tafel game as a multi-agent environment for learning.

It follows the method names of PettingZoo's AEC API (reset, agent_iter,
last, step, observe, observation_space, action_space, agents, rewards,
terminations, truncations, infos) without importing PettingZoo.

- action_ids="engine" (default): an action is the engine's action integer,
  out of Discrete(tafel_game_num_distinct_actions): for the card games
  tafel_game_max_actions, for Carcassonne 272,144 (its integers are board
  coordinates, far above max_actions, which bounds how many are legal at once).
  action_ids="index": an action is a position in the sorted list of legal
  actions, out of Discrete(game.max_actions).  Either way the observation's
  "action_mask" marks the legal ones.  What an integer means from state to
  state, per game: docs/python.md.
- action_ids="space": an action is an index of the game's fixed action
  space (tafel_game_action_space_size), the same thing in every state; the
  default when the observation is a tensor.
- observation="view" (default): as below.  observation="tensor": the
  seat's observation tensor (float32, game.observation_tensor_shape; a numpy
  array when numpy imports, else a memoryview); "information_state": its
  information-state tensor.  With a tensor the mask is an int8 numpy array
  (bytearray without numpy), as PettingZoo's classic games hand out.
- Chance steps (tiles drawn, cards dealt, dice) are taken inside the env
  with its own Rng, so reset(seed=s) always gives the same game for the
  same actions.  Agents never see them as turns.
- The observation of an agent is {"observation": its seat's view (a dict
  from tafel_state_view_json, which hides what the seat may not see),
  "action_mask": bytearray(max_actions)}; the mask is all zeros for an
  agent that is not to move.
- Rewards come at the end only.  reward="win" (default): +1 to each
  winner, -1 to every other seat, 0 to all when every seat wins (a draw or
  a win shared by all); two players sum to 0, n players with k < n winners
  to 2k - n.  reward="score": the final score minus the mean final score
  (sums to 0).
- An illegal action raises IllegalActionError with the engine's message
  and changes nothing: the same agent is still to act.
"""
import operator
import os

from ._lib import CHANCE, TERMINAL
from . import tensors as _tensors
from .errors import IllegalActionError, InvalidArgumentError, StateError
from .game import Game
from .record import Record
from .rng import Rng
from .spaces import Box, DictSpace, Discrete, JsonView, MultiBinary

REWARD_MODES = ("win", "score")
ACTION_ID_MODES = ("engine", "index", "space")
OBSERVATION_MODES = ("view", "tensor", "information_state")


class TafelAECEnv:
    """One table of a tafel game: TafelAECEnv("cardcassonne(players=3)")."""

    metadata = {"name": "tafel_v0", "render_modes": ["ansi", "human"],
                "is_parallelizable": False}

    def __init__(self, game, seed=None, reward="win", action_ids=None,
                 render_mode=None, observation="view"):
        if reward not in REWARD_MODES:
            raise ValueError("reward must be one of %s" % (REWARD_MODES,))
        if observation not in OBSERVATION_MODES:
            raise ValueError("observation must be one of %s"
                             % (OBSERVATION_MODES,))
        if action_ids is None:
            action_ids = "engine" if observation == "view" else "space"
        if action_ids not in ACTION_ID_MODES:
            raise ValueError("action_ids must be one of %s" % (ACTION_ID_MODES,))
        self.game = game if isinstance(game, Game) else Game(game)
        self.action_ids = action_ids
        self.observation_mode = observation
        if action_ids == "engine":
            self.num_actions = self.game.num_distinct_actions
        elif action_ids == "space":
            self.num_actions = self.game.action_space_size
            if not self.num_actions:
                raise InvalidArgumentError(
                    "%s: no action space for this game yet: action_ids="
                    "'engine' or 'index'" % self.game.name)
        else:
            self.num_actions = self.game.max_actions
        if observation != "view":
            kind = 0 if observation == "tensor" else 1
            self._tensor_shape = self.game._tensors[kind][0]
            if not self.game._tensors[kind][1]:
                raise InvalidArgumentError(
                    "%s: no tensors for this game yet: observation='view'"
                    % self.game.name)
        self.reward_mode = reward
        self.render_mode = render_mode
        self.possible_agents = ["player_%d" % seat
                                for seat in range(self.game.num_players)]
        self._seat_of = {agent: seat
                         for seat, agent in enumerate(self.possible_agents)}
        self._action_space = Discrete(self.num_actions)
        self._observation_space = DictSpace({
            "observation": (JsonView(self.game.name) if observation == "view"
                            else Box(self._tensor_shape)),
            "action_mask": MultiBinary(self.num_actions)})
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little")
        self._seed = seed
        self._rng = Rng(seed)
        self.tafel_state = None
        self.agents = []

    # -- the AEC interface --------------------------------------------------

    @property
    def num_agents(self):
        return len(self.agents)

    @property
    def max_num_agents(self):
        return len(self.possible_agents)

    def observation_space(self, agent):
        return self._observation_space

    def action_space(self, agent):
        return self._action_space

    def reset(self, seed=None, options=None):
        """A new game.  A seed restarts the env's Rng; without one the next
        game follows from the previous rng (reproducible from the first)."""
        if seed is not None:
            self._seed = seed
            self._rng = Rng(seed)
        # tafel_state: the whole position, hidden cards included, for tools
        # and search; agents should see only observe(agent).
        self.tafel_state = self.game.new_state()
        self.record = Record(self.game.game_string, seed=self._seed,
                             players=list(self.possible_agents))
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._take_chance_steps()
        self._after_move()

    def agent_iter(self, max_iter=2**63):
        """Yield the agent to act until every agent is done."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def last(self, observe=True):
        """(observation, reward, termination, truncation, info) of the agent
        to act; the reward is what it gained since it last acted."""
        agent = self.agent_selection
        observation = self.observe(agent) if observe else None
        return (observation, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent],
                self.infos[agent])

    def observe(self, agent):
        seat = self._seat_of[agent]
        if self.observation_mode != "view":
            return self._observe_tensor(seat)
        mask = bytearray(self.num_actions)
        if seat == self.tafel_state.current_player():
            if self.action_ids == "index":
                mask[:len(self._legal)] = b"\x01" * len(self._legal)
            else:
                for action in self._legal:
                    mask[action] = 1
        return {"observation": self.tafel_state.view(seat),
                "action_mask": mask}

    def _observe_tensor(self, seat):
        state = self.tafel_state
        if self.observation_mode == "tensor":
            tensor = state.observation_tensor(seat)
        else:
            tensor = state.information_state_tensor(seat)
        if _tensors.numpy is not None:
            mask = _tensors.numpy.zeros(self.num_actions, _tensors.numpy.int8)
        else:
            mask = bytearray(self.num_actions)
        if seat == state.current_player():
            if self.action_ids == "space":
                state.legal_actions_mask(out=mask)
            else:
                for i in (range(len(self._legal)) if self.action_ids == "index"
                          else self._legal):
                    mask[i] = 1
        return {"observation": tensor, "action_mask": mask}

    def step(self, action):
        """Play action for agent_selection (None for an agent that is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._remove_done_agent(agent, action)
            return
        action = self.engine_action(action)
        state = self.tafel_state
        if not state.is_legal(action):
            state.apply(action)  # raises with the engine's reason
        self.record.push(state, action)
        state.apply(action)
        self._cumulative_rewards[agent] = 0.0
        self._take_chance_steps()
        self._after_move()

    def engine_action(self, action):
        """The engine's integer for an action id of this env."""
        action = operator.index(action)  # numpy integers too
        if not 0 <= action < self.num_actions:
            raise IllegalActionError("action %d is not in Discrete(%d)"
                                     % (action, self.num_actions))
        if self.action_ids == "space":
            return self.tafel_state.index_action(action)
        if self.action_ids == "index":
            if action >= len(self._legal):
                raise IllegalActionError(
                    "action %d: there are %d legal actions"
                    % (action, len(self._legal)))
            return self._legal[action]
        return action

    def action_text(self, action):
        """The text of an action id of this env, in the current state."""
        return self.tafel_state.action_to_text(self.engine_action(action))

    def render(self):
        """The position as a spectator sees it (text)."""
        if self.tafel_state is None:
            return None
        text = self.tafel_state.render(-1)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass

    # -- inside -------------------------------------------------------------

    def _take_chance_steps(self):
        state = self.tafel_state
        while state.current_player() == CHANCE:
            outcome = state.sample_chance(self._rng)
            self.record.push(state, outcome)
            state.apply(outcome)

    def _after_move(self):
        state = self.tafel_state
        current = state.current_player()
        for agent in self.agents:
            self.rewards[agent] = 0.0
            self.infos[agent] = {}
        if current == TERMINAL:
            self._legal = []
            self._finish()
            self.agent_selection = self.agents[0]
            return
        self._legal = state.legal_actions()
        if self.action_ids == "engine" and self._legal[-1] >= self.num_actions:
            raise StateError(
                "%s: legal action %d is not below %d, the env's action space"
                % (self.game.game_string, self._legal[-1], self.num_actions))
        self.agent_selection = self.possible_agents[current]
        if self.action_ids == "index":
            legal_ids = list(range(len(self._legal)))
        elif self.action_ids == "space":
            legal_ids = sorted(i for i in map(state.action_index, self._legal)
                               if i is not None)
        else:
            legal_ids = self._legal
        self.infos[self.agent_selection] = {"legal_actions": legal_ids}

    def _finish(self):
        state = self.tafel_state
        scores = state.scores()
        winners = state.winners()
        rewards = self._final_rewards(scores, winners)
        for agent in self.agents:
            seat = self._seat_of[agent]
            self.rewards[agent] = rewards[seat]
            self._cumulative_rewards[agent] += rewards[seat]
            self.terminations[agent] = True
            self.infos[agent] = {"scores": scores, "winners": winners}

    def _final_rewards(self, scores, winners):
        players = len(scores)
        if self.reward_mode == "score":
            mean = sum(scores) / players
            return [score - mean for score in scores]
        if len(winners) == players:
            return [0.0] * players
        return [1.0 if seat in winners else -1.0 for seat in range(players)]

    def _remove_done_agent(self, agent, action):
        if action is not None:
            raise ValueError("%s is done: step(None), as PettingZoo expects"
                             % agent)
        self.agents.remove(agent)
        for table in (self.rewards, self._cumulative_rewards,
                      self.terminations, self.truncations, self.infos):
            del table[agent]
        # the final rewards were handed out by the step that ended the game:
        # this step hands out none (a trainer that adds up `rewards` after
        # every step would count a win twice), while what an agent has not
        # yet been told stays in its cumulative reward, for its last()
        for other in self.agents:
            self.rewards[other] = 0.0
        if self.agents:
            self.agent_selection = self.agents[0]

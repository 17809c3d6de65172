"""The API contracts of tafel.gym, tafel.pettingzoo and tafel.open_spiel,
run against the real libraries where installed, else against the fakes in
fakes/ (appended to sys.path, so a real library is found first): reset and
step signatures and types, the 5-tuple, termination, masks matching the
legal actions, observations in their declared spaces, a whole game per game,
the same game from the same seed.  Also TafelAECEnv over tensors, which
needs none of them (nor numpy)."""
import importlib
import os
import sys
import unittest
from unittest import mock

from helpers import have_numpy, require_tensor_games, tafel

FAKES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fakes")
if FAKES not in sys.path:
    sys.path.append(FAKES)

GYM_GAMES = ("cardcassonne(players=3)", "catan_cards", "carcassonne(players=2)")


def legal_indexes(state):
    """The action-space indexes of the legal actions of the seat to move."""
    if state.current_player() < 0:
        return []
    return sorted(i for i in map(state.action_index, state.legal_actions())
                  if i is not None)


def marked(mask):
    return [i for i, bit in enumerate(mask) if bit]


def which(module):
    return "fake" if getattr(module, "FAKE", False) else "real"


class ImportErrorTest(unittest.TestCase):
    """Without its library each wrapper says what to install."""

    def test_each_wrapper_names_what_to_install(self):
        for module, blocked, words in (
                ("tafel.gym", "gymnasium", "pip install gymnasium"),
                ("tafel.vector", "gymnasium", "pip install gymnasium"),
                ("tafel.pettingzoo", "pettingzoo", "pip install pettingzoo"),
                ("tafel.open_spiel", "pyspiel", "pip install open_spiel")):
            # the module as imported before, put back: other tests hold its classes
            saved = sys.modules.get(module)
            # the library and its submodules (tafel.vector's gymnasium.vector) gone
            gone = {name: None for name in list(sys.modules)
                    if name.startswith(blocked + ".")}
            with mock.patch.dict(sys.modules, dict(gone, **{blocked: None})):
                sys.modules.pop(module, None)
                with self.assertRaisesRegex(ImportError, words):
                    importlib.import_module(module)
            sys.modules.pop(module, None)
            if saved is not None:
                sys.modules[module] = saved


class TensorAECEnvTest(unittest.TestCase):
    """TafelAECEnv(observation="tensor"): no PettingZoo, no numpy needed."""

    def test_a_whole_game_per_game(self):
        for game in require_tensor_games(self):
            env = tafel.TafelAECEnv(game, seed=4, observation="tensor")
            self.assertEqual(env.action_ids, "space")
            self.assertEqual(env.action_space("player_0").n,
                             game.action_space_size)
            env.reset(seed=4)
            steps = 0
            for agent in env.agent_iter():
                observation, reward, termination, truncation, info = env.last()
                space = env.observation_space(agent)
                self.assertIn(observation, space)
                self.assertEqual(tuple(observation["observation"].shape),
                                 game.observation_tensor_shape)
                if termination:
                    env.step(None)
                    continue
                state = env.tafel_state
                self.assertEqual(marked(observation["action_mask"]),
                                 legal_indexes(state))
                self.assertEqual(info["legal_actions"], legal_indexes(state))
                for other in env.agents:
                    if other != agent:
                        self.assertEqual(marked(env.observe(other)["action_mask"]), [])
                env.step(env.action_space(agent).sample(
                    observation["action_mask"], tafel.Rng(steps)))
                steps += 1
            self.assertTrue(env.tafel_state.is_terminal())
            self.assertGreater(steps, 0)

    def test_information_state_observations(self):
        for game in require_tensor_games(self):
            env = tafel.TafelAECEnv(game, seed=2, observation="information_state")
            env.reset(seed=2)
            observation = env.observe(env.agent_selection)["observation"]
            self.assertEqual(tuple(observation.shape),
                             game.information_state_tensor_shape)


@unittest.skipUnless(have_numpy(), "numpy is not importable: no Gymnasium")
class GymTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        import gymnasium  # the real one if installed, else fakes/
        import numpy
        cls.np = numpy
        cls.gymnasium = gymnasium
        cls.gym = importlib.import_module("tafel.gym")
        print("\n  tafel.gym against the %s gymnasium" % which(gymnasium),
              file=sys.stderr)

    def play(self, env, seed, chooser_seed):
        """A whole episode; the list of (observation, reward, terminated)."""
        np = self.np
        chooser = np.random.default_rng(chooser_seed)
        observation, info = env.reset(seed=seed)
        trail = [(observation.tolist(), 0.0, False)]
        terminated = False
        while not terminated:
            state = env.tafel_state
            self.assertEqual(state.current_player(), env.seat)
            mask = info["action_mask"]
            self.assertEqual((mask.dtype, mask.shape),
                             (np.dtype(np.int8), (env.action_space.n,)))
            self.assertEqual(marked(mask), legal_indexes(state))
            self.assertEqual(marked(env.action_masks()), marked(mask))
            action = int(chooser.choice(np.flatnonzero(mask)))
            result = env.step(action)
            self.assertEqual(len(result), 5)
            observation, reward, terminated, truncated, info = result
            self.assertIn(observation, env.observation_space)
            self.assertIsInstance(reward, float)
            self.assertIsInstance(terminated, bool)
            self.assertIs(truncated, False)
            self.assertIsInstance(info, dict)
            if not terminated:
                self.assertEqual(reward, 0.0)
            trail.append((observation.tolist(), reward, terminated))
        state = env.tafel_state
        self.assertTrue(state.is_terminal())
        self.assertEqual(marked(info["action_mask"]), [])
        winners = state.winners()
        expected = (0.0 if len(winners) == state.num_players
                    else 1.0 if env.seat in winners else -1.0)
        self.assertEqual(reward, expected)
        self.assertEqual(info["winners"], winners)
        return trail

    def test_a_whole_game_per_game_and_the_same_game_from_a_seed(self):
        for game in require_tensor_games(self, GYM_GAMES):
            env = self.gym.TafelEnv(game, opponent="greedy", seat=1)
            self.assertEqual(env.action_space.n, game.action_space_size)
            self.assertEqual(env.observation_space.shape,
                             game.observation_tensor_shape)
            self.assertEqual(env.observation_space.dtype, self.np.float32)
            first = self.play(env, seed=7, chooser_seed=1)
            again = self.play(self.gym.TafelEnv(game, opponent="greedy", seat=1),
                              seed=7, chooser_seed=1)
            self.assertEqual(first, again)
            other = self.play(env, seed=8, chooser_seed=1)
            self.assertNotEqual(first, other)

    def test_dict_observation_and_random_seats(self):
        for game in require_tensor_games(self, GYM_GAMES[:1]):
            env = self.gym.TafelEnv(game, opponent="random", seat="random",
                                    dict_observation=True,
                                    observation="information_state")
            seats = set()
            for seed in range(12):
                observation, info = env.reset(seed=seed)
                self.assertIn(observation, env.observation_space)
                self.assertEqual(observation["observation"].shape,
                                 game.information_state_tensor_shape)
                self.assertEqual(observation["action_mask"].tolist(),
                                 info["action_mask"].tolist())
                seats.add(env.seat)
            self.assertGreater(len(seats), 1)

    def test_an_illegal_action_raises_and_changes_nothing(self):
        for game in require_tensor_games(self, GYM_GAMES[:1]):
            env = self.gym.TafelEnv(game, opponent="random")
            _, info = env.reset(seed=3)
            illegal = [i for i, bit in enumerate(info["action_mask"]) if not bit]
            before = env.tafel_state.copy()
            with self.assertRaises(tafel.TafelError):
                env.step(illegal[0])
            self.assertEqual(env.tafel_state, before)
            with self.assertRaises(ValueError):
                self.gym.TafelEnv(game, opponent=["random"] * 5)
            with self.assertRaises(ValueError):
                self.gym.TafelEnv(game, illegal="ignore")
            with self.assertRaises(tafel.BotError):
                self.gym.TafelEnv(game, opponent="nobody")


    def test_an_illegal_action_loses_with_illegal_lose(self):
        # Gymnasium's check_env steps unmasked samples of the action space:
        # with illegal="lose" any of them is an answer, never an exception
        for reward in ("win", "score"):
            for game in require_tensor_games(self, GYM_GAMES[:1]):
                env = self.gym.TafelEnv(game, opponent="random", illegal="lose", reward=reward)
                _, info = env.reset(seed=3)
                illegal = [i for i, bit in enumerate(info["action_mask"]) if not bit]
                before = env.tafel_state.copy()
                _, r, terminated, truncated, info = env.step(illegal[0])
                self.assertTrue(terminated)
                self.assertFalse(truncated)
                self.assertTrue(info["illegal_action"])
                self.assertEqual(env.tafel_state, before, "the game is left as it was")
                if reward == "win":
                    self.assertEqual(r, -1.0)
                else:
                    scores = list(before.scores())
                    scores[env.seat] = 0
                    self.assertAlmostEqual(r, -sum(scores) / len(scores))
                with self.assertRaises(RuntimeError):
                    env.step(illegal[0])
                # a legal action after a reset plays as with illegal="raise"
                _, info = env.reset(seed=3)
                legal = int(info["action_mask"].argmax())
                _, _, _, _, info = env.step(legal)
                self.assertNotIn("illegal_action", info)

    def test_registered_ids_make_the_env(self):
        for env_id, game_string in self.gym.ENV_IDS.items():
            self.assertIn(env_id, self.gymnasium.registry)
            env = self.gymnasium.make(env_id, opponent="random")
            self.assertEqual(env.unwrapped.game.game_string, tafel.Game(game_string).game_string)
            observation, info = env.reset(seed=2)
            action = env.action_space.sample(info["action_mask"])
            self.assertTrue(info["action_mask"][action])


@unittest.skipUnless(have_numpy(), "numpy is not importable: no PettingZoo")
class PettingZooTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        import pettingzoo
        cls.pz = importlib.import_module("tafel.pettingzoo")
        cls.base = pettingzoo.AECEnv
        print("\n  tafel.pettingzoo against the %s pettingzoo" % which(pettingzoo),
              file=sys.stderr)

    def play(self, env, seed):
        import random
        import numpy as np
        chooser = random.Random(seed)
        env.reset(seed=seed)
        trail, rewards = [], {}
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            self.assertIn(observation, env.observation_space(agent))
            mask = observation["action_mask"]
            self.assertEqual(mask.dtype, np.int8)
            self.assertIs(truncation, False)
            if termination:
                rewards[agent] = reward
                env.step(None)
                continue
            self.assertEqual(marked(mask), legal_indexes(env.tafel_state))
            action = chooser.choice(np.flatnonzero(mask).tolist())
            self.assertIn(action, env.action_space(agent))
            trail.append((agent, action))
            env.step(action)
        return trail, rewards

    def test_a_whole_game_per_game_and_the_same_game_from_a_seed(self):
        for game in require_tensor_games(self):
            env = self.pz.env(game=game.game_string, seed=1)
            self.assertIsInstance(env, self.base)
            self.assertEqual(env.action_space("player_0").n, game.action_space_size)
            self.assertEqual(env.observation_space("player_0")["observation"].shape,
                             game.observation_tensor_shape)
            first, rewards = self.play(env, 5)
            self.assertEqual(sorted(rewards), env.possible_agents)
            winners = env.tafel_state.winners()
            for seat, agent in enumerate(env.possible_agents):
                if len(winners) < game.num_players:
                    self.assertEqual(rewards[agent], 1.0 if seat in winners else -1.0)
            # the same seed and the same choices: the same game
            again = self.play(self.pz.env(game=game.game_string), 5)
            self.assertEqual((first, rewards), again)
            self.assertNotEqual(first, self.play(env, 6)[0])
            # the masks' own sampler (Gymnasium's, an int8 mask)
            env.reset(seed=3)
            mask = env.observe(env.agent_selection)["action_mask"]
            self.assertIn(env.action_space(env.agent_selection).sample(mask),
                          legal_indexes(env.tafel_state))

    def test_the_json_view_is_tafel_aec_env_s(self):
        with self.assertRaisesRegex(ValueError, "TafelAECEnv"):
            self.pz.env(game="cardcassonne", observation="view")


@unittest.skipUnless(have_numpy(), "numpy is not importable: no OpenSpiel")
class OpenSpielTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        import pyspiel
        cls.pyspiel = pyspiel
        cls.os = importlib.import_module("tafel.open_spiel")
        print("\n  tafel.open_spiel against the %s pyspiel" % which(pyspiel),
              file=sys.stderr)

    def games(self):
        games = require_tensor_games(self)
        return [(self.os.PREFIX + game.name, game) for game in games]

    def play(self, game, seed):
        import random
        chooser = random.Random(seed)
        state = game.new_initial_state()
        tafel_game = game.tafel_game
        steps = 0
        while not state.is_terminal():
            self.assertLessEqual(steps, game.max_game_length())
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                self.assertAlmostEqual(sum(p for _, p in outcomes), 1.0)
                self.assertTrue(all(0 <= a < game.max_chance_outcomes()
                                    for a, _ in outcomes))
                actions, probs = zip(*outcomes)
                action = chooser.choices(actions, probs)[0]
            else:
                player = state.current_player()
                legal = state.legal_actions()
                self.assertEqual(legal, legal_indexes(state.tafel_state))
                self.assertTrue(all(0 <= a < game.num_distinct_actions()
                                    for a in legal))
                tensor = state.observation_tensor(player)
                self.assertEqual(len(tensor), tafel_game.observation_tensor_size)
                own = state.tafel_state.observation_tensor(player)
                self.assertEqual(tensor, own.reshape(-1).tolist())
                self.assertEqual(len(state.information_state_tensor(player)),
                                 tafel_game.information_state_tensor_size)
                if steps % 64 == 0:  # it replays the history: not every step
                    self.assertEqual(
                        state.information_state_string(player),
                        state.tafel_state.information_state_string(player))
                action = chooser.choice(legal)
                self.assertIsInstance(state.action_to_string(player, action), str)
            state.apply_action(action)
            steps += 1
        returns = state.returns()
        self.assertEqual(len(returns), game.num_players())
        self.assertTrue(all(r in (-1.0, 0.0, 1.0) for r in returns))
        if game.num_players() == 2:
            self.assertEqual(sum(returns), 0.0)
        return state.history(), returns

    def test_every_game_registers_and_plays_whole_games(self):
        for short_name, tafel_game in self.games():
            params = {"players": tafel_game.num_players}
            if tafel_game.name != "catan_cards":
                params = {"players": 3}
            game = self.pyspiel.load_game(short_name, params)
            game_type = game.get_type()
            self.assertEqual(game_type.short_name, short_name)
            self.assertEqual(game_type.reward_model,
                             self.pyspiel.GameType.RewardModel.TERMINAL)
            self.assertEqual(game.num_players(), params["players"])
            self.assertEqual(game.num_distinct_actions(),
                             game.tafel_game.action_space_size)
            self.assertEqual(game.observation_tensor_shape(),
                             [game.tafel_game.observation_tensor_size])
            first = self.play(game, 1)
            self.assertEqual(first, self.play(game, 1))
            self.assertNotEqual(first[0], self.play(game, 2)[0])

    def test_resample_from_infostate_keeps_what_the_player_knows(self):
        # OpenSpiel's IS-MCTS searches resampled states: each must look the
        # same to the player (its information state) and hide what it hides
        import random
        for short_name, tafel_game in self.games():
            if not tafel_game.hidden_information:
                continue
            game = self.pyspiel.load_game(short_name, {"players": 2})
            state, chooser, differed = game.new_initial_state(), random.Random(7), 0
            for step in range(300):
                if state.is_terminal():
                    break
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes())
                    state.apply_action(chooser.choices(actions, probs)[0])
                    continue
                player = state.current_player()
                if step % 5 == 0:
                    sampler = random.Random(step).random
                    for seat in range(2):
                        other = state.resample_from_infostate(seat, sampler)
                        self.assertEqual(other.information_state_tensor(seat),
                                         state.information_state_tensor(seat))
                        self.assertEqual(other.tafel_state.view(seat), state.tafel_state.view(seat))
                        differed += other.tafel_state.view(1 - seat) != state.tafel_state.view(1 - seat)
                    mover = state.resample_from_infostate(player, sampler)
                    self.assertEqual(mover.legal_actions(), state.legal_actions())
                    self.assertNotEqual(id(mover.tafel_state), id(state.tafel_state))
                state.apply_action(chooser.choice(state.legal_actions()))
            self.assertGreater(differed, 0, "%s: resampling deals the hidden cards anew" % short_name)
            with self.assertRaises(ValueError):
                state.resample_from_infostate(5, random.random)

    def test_observer_types_map_to_the_seat_s_or_the_spectator_s_tensors(self):
        # OpenSpiel's IIGObservationType: perfect recall -> the information
        # state, else the observation; a player's private information -> its
        # seat, none -> the spectator (seat -1); the rest refused by name
        import random
        iig, private = self.pyspiel.IIGObservationType, self.pyspiel.PrivateInfoType
        for short_name, tafel_game in self.games():
            game = self.pyspiel.load_game(short_name, {"players": 2})
            state, chooser = game.new_initial_state(), random.Random(3)
            for _ in range(40):
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes())
                    state.apply_action(chooser.choices(actions, probs)[0])
                else:
                    state.apply_action(chooser.choice(state.legal_actions()))
            inner = state.tafel_state
            for recall in (False, True):
                tensor = (inner.information_state_tensor if recall
                          else inner.observation_tensor)
                text = inner.information_state_string if recall else inner.view_json
                for kind, seat_of in ((private.SINGLE_PLAYER, lambda p: p),
                                      (private.NONE, lambda p: -1)):
                    observer = game.make_py_observer(
                        iig(public_info=True, perfect_recall=recall, private_info=kind), None)
                    for player in range(2):
                        observer.set_from(state, player)
                        self.assertEqual(observer.tensor.tolist(),
                                         tensor(seat_of(player)).reshape(-1).tolist())
                        self.assertEqual(observer.string_from(state, player),
                                         text(seat_of(player)))
                spectator = game.make_py_observer(
                    iig(public_info=True, perfect_recall=recall, private_info=private.NONE))
                spectator.set_from(state, 0)
                seen = spectator.tensor.copy()
                spectator.set_from(state, 1)
                self.assertEqual(seen.tolist(), spectator.tensor.tolist(), "one view for all")
            default = game.make_py_observer()
            default.set_from(state, 1)
            self.assertEqual(default.tensor.tolist(),
                             inner.observation_tensor(1).reshape(-1).tolist())
            self.assertEqual(len(game.make_py_observer(None, {}).tensor),
                             game.tafel_game.observation_tensor_size)
            with self.assertRaisesRegex(ValueError, "'colour', 'depth'"):
                game.make_py_observer(None, {"depth": 2, "colour": "red"})
            with self.assertRaisesRegex(ValueError, "ALL_PLAYERS"):
                game.make_py_observer(iig(private_info=private.ALL_PLAYERS))
            with self.assertRaisesRegex(ValueError, "public_info=False"):
                game.make_py_observer(iig(public_info=False, private_info=private.NONE))
            with self.assertRaisesRegex(ValueError, "public_info=False"):
                game.make_py_observer(iig(public_info=False))

    def test_two_players_are_zero_sum_more_are_general_sum(self):
        # OpenSpiel's two-player algorithms ask for a zero-sum game: at two
        # players a tafel game is one (+1 and -1, or 0 both), with more not
        utility = self.pyspiel.GameType.Utility
        for short_name, tafel_game in self.games():
            two = self.pyspiel.load_game(short_name, {"players": 2})
            self.assertEqual(two.get_type().utility, utility.ZERO_SUM, short_name)
            self.assertEqual(two.get_type().short_name, short_name)
            self.play(two, 4)   # its returns add up to 0 (play checks it at two players)
            if tafel_game.name != "catan_cards":
                three = self.pyspiel.load_game(short_name, {"players": 3})
                self.assertEqual(three.get_type().utility, utility.GENERAL_SUM, short_name)

    def test_clones_are_independent_and_illegal_actions_refused(self):
        for short_name, _ in self.games():
            game = self.pyspiel.load_game(short_name)
            state = game.new_initial_state()
            while state.is_chance_node():
                state.apply_action(state.chance_outcomes()[0][0])
            clone = state.clone()
            clone.apply_action(clone.legal_actions()[0])
            self.assertNotEqual(clone.history(), state.history())
            self.assertEqual(state.tafel_state.history(), state.history())
            illegal = sorted(set(range(game.num_distinct_actions()))
                             - set(state.legal_actions()))
            if illegal:
                with self.assertRaises(Exception):
                    state.apply_action(illegal[0])


if __name__ == "__main__":
    unittest.main()

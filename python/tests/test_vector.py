"""tafel.vector.TafelVectorEnv against the real Gymnasium where installed,
else the fake in fakes/: each env plays the games a single tafel.State
plays with its batch rng (the agent's actions, random opponents, chance),
Gymnasium's autoreset modes (next step, same step), spaces batched and
holding every observation, rewards of the agent's seat, illegal actions,
reset_mask, make_vec through the registered vector entry point."""
import os
import sys
import unittest

from helpers import tafel

FAKES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fakes")
if FAKES not in sys.path:
    sys.path.append(FAKES)

try:
    import numpy as np
    import gymnasium
    import tafel.gym  # noqa: F401 - registers the ids
    from tafel import vector
except ImportError:  # pragma: no cover - without numpy
    np = None


def settle(state, rng):
    while state.current_player() == tafel.CHANCE:
        state.apply(state.sample_chance(rng))


def to_seat(state, rng, seat):
    """Random moves of the other seats (as the batch draws them) until
    seat is to move or the game is over."""
    settle(state, rng)
    while state.current_player() not in (seat, tafel.TERMINAL):
        state.play_random(rng)
        settle(state, rng)


@unittest.skipUnless(np is not None, "numpy is not importable")
class VectorEnvTest(unittest.TestCase):

    def mirror(self, game, seed, n, seat):
        """One single state per env, seeded as the batch seeds state i."""
        singles = []
        for i in range(n):
            state, rng = game.new_state(), tafel.Batch.rng_of(seed, i)
            to_seat(state, rng, seat)
            singles.append([state, rng])
        return singles

    def test_each_env_plays_as_a_single_state_next_step(self):
        for game_string, seat, observation in (("cardcassonne(players=2)", 1, "tensor"),
                                               ("catan_cards(max_turns=10)", 0,
                                                "information_state")):
            with self.subTest(game=game_string):
                game, n, seed = tafel.Game(game_string), 3, 21
                envs = vector.TafelVectorEnv(game, n, opponent="random", seat=seat,
                                             observation=observation)
                self.assertEqual(envs.metadata["autoreset_mode"],
                                 vector.AutoresetMode.NEXT_STEP)
                tensor = ((lambda s: s.observation_tensor(seat)) if observation == "tensor"
                          else (lambda s: s.information_state_tensor(seat)))
                obs, infos = envs.reset(seed=seed)
                singles = self.mirror(game, seed, n, seat)
                rng, ends, waiting = np.random.default_rng(4), 0, np.zeros(n, bool)
                for _ in range(300):
                    for i, (state, _) in enumerate(singles):
                        self.assertTrue(np.array_equal(obs[i], tensor(state)))
                        mask = (np.zeros(game.action_space_size, np.int8)
                                if state.is_terminal() else state.legal_actions_mask())
                        self.assertTrue(np.array_equal(infos["action_mask"][i] != 0, mask))
                    self.assertIn(obs, envs.observation_space)
                    actions = vector.masked_sample(infos["action_mask"], rng)
                    obs, rewards, terminated, truncated, infos = envs.step(actions)
                    self.assertFalse(truncated.any())
                    self.assertEqual(infos["seat"].tolist(), [seat] * n)
                    for i, (state, single_rng) in enumerate(singles):
                        if waiting[i]:  # the next game, the action ignored
                            self.assertEqual(rewards[i], 0)
                            self.assertFalse(terminated[i])
                            singles[i][0] = state = game.new_state()
                            to_seat(state, single_rng, seat)
                            continue
                        state.apply(state.index_action(int(actions[i])))
                        to_seat(state, single_rng, seat)
                        self.assertEqual(bool(terminated[i]), state.is_terminal())
                        if not state.is_terminal():
                            self.assertEqual(rewards[i], 0)
                            continue
                        ends += 1
                        winners = state.winners()
                        self.assertEqual(rewards[i], 0.0 if len(winners) == game.num_players
                                         else 1.0 if seat in winners else -1.0)
                        self.assertEqual(infos["scores"][i].tolist(), list(state.scores()))
                        self.assertTrue(infos["_scores"][i])
                    waiting = terminated.copy()
                self.assertGreater(ends, 0)

    def test_same_step_gives_the_next_game_and_the_last_observation_in_infos(self):
        game, n, seed = tafel.Game("cardcassonne(players=2)"), 4, 8
        envs = vector.TafelVectorEnv(game, n, opponent="random", dict_observation=True,
                                     autoreset_mode="SameStep")
        self.assertEqual(envs.metadata["autoreset_mode"], vector.AutoresetMode.SAME_STEP)
        obs, infos = envs.reset(seed=seed)
        singles = self.mirror(game, seed, n, 0)
        rng, ends = np.random.default_rng(5), 0
        for _ in range(250):
            self.assertIn(obs, envs.observation_space)
            for i, (state, _) in enumerate(singles):
                self.assertTrue(np.array_equal(obs["observation"][i],
                                               state.observation_tensor(0)))
                self.assertTrue(np.array_equal(obs["action_mask"][i] != 0,
                                               state.legal_actions_mask()))
            actions = vector.masked_sample(obs["action_mask"], rng)
            obs, rewards, terminated, _, infos = envs.step(actions)
            self.assertEqual("final_obs" in infos, bool(terminated.any()))
            for i, (state, single_rng) in enumerate(singles):
                state.apply(state.index_action(int(actions[i])))
                to_seat(state, single_rng, 0)
                self.assertEqual(bool(terminated[i]), state.is_terminal())
                if not state.is_terminal():
                    continue
                ends += 1
                self.assertTrue(infos["_final_obs"][i])
                final = infos["final_obs"][i]
                self.assertIn(final, envs.single_observation_space)
                self.assertTrue(np.array_equal(final["observation"],
                                               state.observation_tensor(0)))
                self.assertFalse(final["action_mask"].any())
                self.assertEqual(infos["final_info"]["winners"][i], tuple(state.winners()))
                singles[i][0] = state = game.new_state()
                to_seat(state, single_rng, 0)
        self.assertGreater(ends, 0)

    def test_spaces_are_the_single_envs_batched(self):
        envs = vector.TafelVectorEnv("catan_cards", 5, opponent="random",
                                     dict_observation=True)
        single = tafel.gym.TafelEnv("catan_cards", dict_observation=True)
        space = tafel.Game("catan_cards").action_space_size
        self.assertEqual(envs.single_action_space.n, space)
        self.assertEqual(list(envs.action_space.nvec), [space] * 5)
        self.assertEqual(envs.observation_space["observation"].shape,
                         (5,) + single.observation_space["observation"].shape)
        self.assertEqual(envs.observation_space["action_mask"].shape, (5, space))
        obs, infos = envs.reset(seed=1)
        self.assertIn(obs, envs.observation_space)
        mask = tuple(m.astype(np.int8) for m in infos["action_mask"])
        actions = envs.action_space.sample(mask=mask)  # Gymnasium's masked sampling
        self.assertIn(actions, envs.action_space)
        envs.step(actions)

    def test_illegal_actions_raise_or_lose(self):
        game = tafel.Game("cardcassonne(players=2)")
        envs = vector.TafelVectorEnv(game, 3, opponent="random")
        _, infos = envs.reset(seed=3)
        before = [envs._batch.state(i) for i in range(3)]
        actions = vector.masked_sample(infos["action_mask"], np.random.default_rng(1))
        actions[2] = int(np.flatnonzero(infos["action_mask"][2] == 0)[0])
        with self.assertRaises(tafel.IllegalActionError):
            envs.step(actions)
        for i in range(3):  # nothing moved
            self.assertEqual(envs._batch.state(i), before[i])
        envs = vector.TafelVectorEnv(game, 3, opponent="random", illegal="lose")
        obs, infos = envs.reset(seed=3)
        kept = obs[2].copy()
        obs, rewards, terminated, _, infos = envs.step(actions)
        self.assertEqual(terminated.tolist(), [False, False, True])
        self.assertEqual(rewards[2], -1.0)
        self.assertTrue(infos["illegal_action"][2] and infos["_illegal_action"][2])
        self.assertTrue(np.array_equal(obs[2], kept))  # the last observation, as it was
        actions[2] = 10**6  # ignored: the next game starts
        obs, rewards, terminated, _, _ = envs.step(actions)
        self.assertFalse(terminated[2])
        self.assertEqual(rewards[2], 0)
        self.assertTrue(np.array_equal(obs[2], envs._batch.state(2).observation_tensor(0)))

    def test_score_rewards_are_the_final_score_minus_the_mean(self):
        envs = vector.TafelVectorEnv("cardcassonne(players=3)", 3, opponent="random",
                                     reward="score", seat=2)
        obs, infos = envs.reset(seed=9)
        rng, ends = np.random.default_rng(9), 0
        for _ in range(200):
            obs, rewards, terminated, _, infos = envs.step(
                vector.masked_sample(infos["action_mask"], rng))
            for i in np.flatnonzero(terminated):
                scores = infos["scores"][i]
                self.assertAlmostEqual(rewards[i], scores[2] - scores.mean())
                ends += 1
            self.assertFalse(rewards[~terminated].any())
        self.assertGreater(ends, 0)

    def test_reset_mask_restarts_only_those_envs(self):
        envs = vector.TafelVectorEnv("cardcassonne(players=2)", 4, opponent="random")
        obs, infos = envs.reset(seed=6)
        rng = np.random.default_rng(2)
        for _ in range(5):
            obs, *_, infos = envs.step(vector.masked_sample(infos["action_mask"], rng))
        before = [envs._batch.state(i) for i in range(4)]
        mask = np.array([True, False, False, True])
        obs, infos = envs.reset(options={"reset_mask": mask})
        self.assertEqual(infos["_action_mask"].tolist(), mask.tolist())
        self.assertEqual(envs._batch.state(1), before[1])
        self.assertEqual(envs._batch.state(2), before[2])
        self.assertNotEqual(envs._batch.state(0), before[0])
        with self.assertRaises(ValueError):
            envs.reset(options={"reset_mask": np.zeros(4, bool)})

    def test_the_same_seed_gives_the_same_games_and_seats(self):
        def run():
            envs = vector.TafelVectorEnv("cardcassonne(players=3)", 4, opponent="random",
                                         seat="random")
            obs, infos = envs.reset(seed=12)
            rng, seen = np.random.default_rng(0), []
            for _ in range(120):
                obs, rewards, terminated, _, infos = envs.step(
                    vector.masked_sample(infos["action_mask"], rng))
                seen.append((obs.sum(), rewards.tolist(), infos["seat"].tolist()))
            return seen
        first = run()
        self.assertEqual(first, run())
        self.assertGreater(len({tuple(seats) for _, _, seats in first}), 1)

    def test_bots_as_opponents_and_make_vec(self):
        envs = gymnasium.make_vec("tafel/Cardcassonne-v0", num_envs=2, opponent="greedy")
        self.assertIsInstance(envs.unwrapped, vector.TafelVectorEnv)
        self.assertEqual(envs.unwrapped.illegal, "lose")  # the registered id's
        obs, infos = envs.reset(seed=2)
        rng, ends = np.random.default_rng(3), 0
        for _ in range(200):
            obs, rewards, terminated, _, infos = envs.step(
                vector.masked_sample(infos["action_mask"], rng))
            ends += int(terminated.sum())
            self.assertTrue((envs.unwrapped._to_move == envs.unwrapped.seats).all())
        self.assertGreater(ends, 0)
        texts = envs.unwrapped.render()
        self.assertEqual(len(texts), 2)
        self.assertEqual(texts[1], envs.unwrapped._batch.state(1).render(0))
        with self.assertRaises(ValueError):
            envs.step(np.zeros(2, np.float32))
        with self.assertRaises(ValueError):
            vector.TafelVectorEnv("cardcassonne", 2, autoreset_mode="Disabled")
        with self.assertRaises(tafel.TafelError):
            vector.TafelVectorEnv("cardcassonne", 2, opponent="no-such-bot")

    def test_masked_sample_draws_only_legal_indexes_each_of_them(self):
        masks = np.zeros((3, 7), np.int8)
        masks[0, [1, 4, 6]] = 1
        masks[2, 3] = 1  # row 1: nothing legal
        rng, seen = np.random.default_rng(0), [set(), set(), set()]
        for _ in range(200):
            for i, index in enumerate(vector.masked_sample(masks, rng)):
                seen[i].add(int(index))
        self.assertEqual(seen, [{1, 4, 6}, {0}, {3}])

    def test_copy_false_hands_out_the_engines_own_arrays(self):
        envs = vector.TafelVectorEnv("catan_cards", 2, opponent="random", copy=False)
        obs, infos = envs.reset(seed=1)
        self.assertIs(obs, envs._batch.obs)
        copied = vector.TafelVectorEnv("catan_cards", 2, opponent="random")
        obs, _ = copied.reset(seed=1)
        self.assertIsNot(obs, copied._batch.obs)


if __name__ == "__main__":
    unittest.main()

"""tafel.Batch: n states stepped in one call, the numpy arrays written in
place, each row the tensor and mask of its own state (that a batch plays as
single states do is test_batch.c's, in C)."""
import unittest

from helpers import tafel

try:
    import numpy as np
except ImportError:  # pragma: no cover
    np = None


@unittest.skipUnless(np is not None, "numpy is not importable")
class BatchTest(unittest.TestCase):

    def test_arrays_are_each_states_own_tensors_and_masks(self):
        for game_string, observation in (("cardcassonne(players=3)", "tensor"),
                                         ("catan_cards(max_turns=12)", "information_state"),
                                         ("carcassonne(players=2)", "tensor")):
            with self.subTest(game=game_string):
                batch = tafel.Batch(game_string, 4, seed=9, observation=observation)
                address = batch.obs.ctypes.data
                rng = np.random.default_rng(1)
                ended = 0
                for step in range(250):
                    for i in range(4):
                        state = batch.state(i)
                        seat = state.current_player()
                        self.assertEqual(batch.to_move[i], seat)
                        tensor = (state.observation_tensor(seat) if observation == "tensor"
                                  else state.information_state_tensor(seat))
                        self.assertTrue(np.array_equal(batch.obs[i], tensor))
                        self.assertTrue(np.array_equal(batch.masks[i].astype(bool),
                                                       state.legal_actions_mask()))
                    actions = np.array([rng.choice(np.flatnonzero(m)) if rng.random() < .5
                                        else -1 for m in batch.masks], np.int32)
                    batch.step(actions)
                    ended += int(batch.done.sum())
                    for i in np.flatnonzero(batch.done):
                        self.assertIn(sorted(set(batch.rewards[i].tolist())),
                                      ([-1.0, 1.0], [0.0]))
                    for i in np.flatnonzero(batch.done == 0):
                        self.assertFalse(batch.rewards[i].any())
                self.assertEqual(batch.obs.ctypes.data, address, "written in place")
                self.assertGreater(ended, 0)

    def test_a_single_state_seeded_rng_of_plays_as_the_batch(self):
        game = tafel.Game("cardcassonne(players=2)")
        batch = tafel.Batch(game, 3, seed=5)
        singles = [(game.new_state(), tafel.Batch.rng_of(5, i)) for i in range(3)]

        def settle(state, rng):
            while state.current_player() == tafel.CHANCE:
                state.apply(state.sample_chance(rng))
        for state, rng in singles:
            settle(state, rng)
        for _ in range(40):
            for i, (state, _) in enumerate(singles):
                self.assertEqual(state, batch.state(i))
            actions = np.array([np.flatnonzero(m)[0] for m in batch.masks], np.int32)
            batch.step(actions)
            if batch.done.any():
                break
            for (state, rng), index in zip(singles, actions):
                state.apply(state.index_action(int(index)))
                settle(state, rng)

    def test_keep_leaves_a_state_and_final_state_is_the_game_that_ended(self):
        batch = tafel.Batch("cardcassonne(players=2)", 2, seed=4)
        self.assertIsNone(batch.final_state(0))
        ended = 0
        for _ in range(400):
            kept = batch.state(1)
            batch.step(np.array([tafel.batch.RANDOM, tafel.batch.KEEP], np.int32))
            self.assertEqual(batch.state(1), kept)
            self.assertEqual(batch.done[1], 0)
            if batch.done[0]:
                ended += 1
                final = batch.final_state(0)
                self.assertTrue(final.is_terminal())
                winners = final.winners()
                if len(winners) < 2:
                    self.assertEqual(batch.rewards[0, winners[0]], 1.0)
        self.assertGreater(ended, 0)
        self.assertIsNone(batch.final_state(1))

    def test_render_words_hands_the_picture_s_words_over(self):
        state = tafel.Game("cardcassonne(players=2)").new_state()
        plain, words = state.render(), state.render(words=True)
        self.assertIn("Cardcassonne, round", plain)
        self.assertNotIn("\x1e", plain)
        self.assertIn("\x1e{", words)
        self.assertNotIn("Cardcassonne, round", words)

    def test_a_bad_index_raises_and_moves_nothing(self):
        batch = tafel.Batch("cardcassonne(players=2)", 3, seed=2)
        before = [batch.state(i) for i in range(3)]
        actions = np.full(3, -1, np.int32)
        actions[1] = int(np.flatnonzero(batch.masks[1] == 0)[0])
        with self.assertRaises(tafel.TafelError):
            batch.step(actions)
        for i in range(3):
            self.assertEqual(batch.state(i), before[i])
        with self.assertRaises(ValueError):
            batch.step(np.zeros(5, np.int32))
        with self.assertRaises(ValueError):
            tafel.Batch("cardcassonne", 2, observation="pixels")


if __name__ == "__main__":
    unittest.main()

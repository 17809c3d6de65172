"""Tensors, the legal-action mask, the action space and the history through
State: shapes as the game declares, the engine writing into the caller's
buffer (numpy or memoryview), masks matching legal_actions, both-way
mapping, and the information-state string from the kept history."""
import math
import pickle
import unittest
from unittest import mock

from helpers import GAME_STRINGS, have_numpy, require_tensor_games, tafel


def flat(tensor):
    """The floats of a tensor (numpy array or memoryview), flattened."""
    values = tensor.tolist()
    while values and isinstance(values[0], list):
        values = [x for row in values for x in row]
    return values


def prod(shape):
    return math.prod(shape) if shape else 0


class Walk:
    """A seeded random game, yielding each state before its action."""

    def __init__(self, game, seed):
        self.game, self.rng = game, tafel.Rng(seed)

    def __iter__(self):
        state = self.game.new_state()
        while not state.is_terminal():
            yield state
            if state.is_chance():
                state.apply(state.sample_chance(self.rng))
            else:
                state.apply(self.rng.choice(state.legal_actions()))
        yield state


class TensorsTest(unittest.TestCase):

    def test_shapes_parts_and_sizes_agree(self):
        for game in require_tensor_games(self):
            for kind in ("observation", "information_state"):
                shape = getattr(game, kind + "_tensor_shape")
                size = getattr(game, kind + "_tensor_size")
                self.assertIsInstance(shape, tuple)
                self.assertEqual(prod(shape), size, game)
                parts = game.tensor_parts(kind)
                self.assertTrue(parts, (game, kind))
                at = 0
                for name, part in parts.items():  # in order, no gap
                    self.assertEqual(part.start, at, (game, kind, name))
                    self.assertGreater(part.stop, part.start, name)
                    at = part.stop
                self.assertEqual(at, size, (game, kind))

    def test_a_whole_game_with_every_seat_and_the_spectator(self):
        for game in require_tensor_games(self):
            shape = game.observation_tensor_shape
            info_shape = game.information_state_tensor_shape
            out = game.new_state().observation_tensor(-1)
            for state in Walk(game, 11):
                mover = state.current_player()
                for seat in range(-1, game.num_players):
                    tensor = state.observation_tensor(seat)
                    self.assertEqual(tuple(tensor.shape), shape)
                    if seat in (-1, mover):  # the floats: for two seats
                        self.assertTrue(all(math.isfinite(x)
                                            for x in flat(tensor)))
                    # out=: the same object back, holding the same floats
                    again = state.observation_tensor(seat, out=out)
                    self.assertIs(again, out)
                    self.assertEqual(out.tobytes(), tensor.tobytes())
                    info = state.information_state_tensor(seat)
                    self.assertEqual(tuple(info.shape), info_shape)
                mask = state.legal_actions_mask()
                self.assertEqual(len(mask), game.action_space_size)
                marked = [i for i, bit in enumerate(mask) if bit]
                if state.current_player() < 0:
                    self.assertEqual(marked, [], state)  # chance, the end
                    continue
                legal = state.legal_actions()
                indexes = [state.action_index(a) for a in legal]
                self.assertEqual(sorted(i for i in indexes if i is not None),
                                 marked, state)
                for action, index in zip(legal, indexes):
                    if index is not None:
                        self.assertEqual(state.index_action(index), action)

    def test_the_engine_writes_into_the_callers_buffer(self):
        for game in require_tensor_games(self):
            state = game.new_state()
            rng = tafel.Rng(3)
            while state.current_player() < 0:
                state.apply(state.sample_chance(rng))
            fresh = flat(state.observation_tensor(0))
            buffer = bytearray(4 * game.observation_tensor_size)
            view = memoryview(buffer).cast("f")
            for i in range(len(view)):
                view[i] = float("nan")
            self.assertIs(state.observation_tensor(0, out=view), view)
            self.assertEqual(view.tolist(), fresh)  # every float written
            mask = bytearray(b"\x07" * game.action_space_size)
            state.legal_actions_mask(out=mask)
            self.assertEqual(set(mask) - {0, 1}, set())
            self.assertEqual(list(mask), list(state.legal_actions_mask()))
            if have_numpy():
                import numpy
                array = numpy.full(game.observation_tensor_shape, numpy.nan,
                                   numpy.float32)
                state.observation_tensor(0, out=array)
                self.assertEqual(flat(array), fresh)
                raw = numpy.zeros(game.action_space_size, numpy.int8)
                state.legal_actions_mask(out=raw)
                self.assertEqual(raw.tolist(), list(mask))

    def test_without_numpy_memoryviews(self):
        for game in require_tensor_games(self):
            state = game.new_state()
            with mock.patch.object(tafel.tensors, "numpy", None):
                tensor = state.observation_tensor(-1)
                mask = state.legal_actions_mask()
            self.assertIsInstance(tensor, memoryview)
            self.assertEqual((tensor.format, tensor.shape),
                             ("f", game.observation_tensor_shape))
            self.assertIsInstance(mask, memoryview)
            self.assertEqual(mask.format, "B")

    @unittest.skipUnless(have_numpy(), "numpy is not importable here")
    def test_with_numpy_arrays(self):
        import numpy
        for game in require_tensor_games(self):
            state = game.new_state()
            tensor = state.observation_tensor(-1)
            self.assertIsInstance(tensor, numpy.ndarray)
            self.assertEqual(tensor.dtype, numpy.float32)
            self.assertEqual(tensor.shape, game.observation_tensor_shape)
            self.assertEqual(state.legal_actions_mask().dtype, numpy.bool_)

    def test_bad_arguments_are_clear_errors(self):
        for game in require_tensor_games(self):
            state = game.new_state()
            with self.assertRaisesRegex(tafel.InvalidArgumentError, "seat"):
                state.observation_tensor(game.num_players)
            with self.assertRaisesRegex(tafel.InvalidArgumentError, "seat"):
                state.information_state_tensor(-2)
            with self.assertRaisesRegex(tafel.InvalidArgumentError, "entries"):
                state.observation_tensor(0, out=memoryview(bytearray(4)).cast("f"))
            with self.assertRaisesRegex(tafel.InvalidArgumentError, "format"):
                state.observation_tensor(
                    0, out=bytearray(4 * game.observation_tensor_size))
            with self.assertRaisesRegex(tafel.InvalidArgumentError, "no buffer"):
                state.legal_actions_mask(out=[0] * game.action_space_size)
            with self.assertRaisesRegex(tafel.InvalidArgumentError, "writable"):
                state.legal_actions_mask(out=bytes(game.action_space_size))
            with self.assertRaisesRegex(tafel.InvalidArgumentError, "kind"):
                game.tensor_parts("belief")
            with self.assertRaisesRegex(tafel.InvalidArgumentError, "range"):
                state.index_action(game.action_space_size)
            if state.is_chance():  # no seat to move: name one
                with self.assertRaisesRegex(tafel.InvalidArgumentError,
                                            "chance"):
                    state.observation_tensor()
                with self.assertRaisesRegex(tafel.InvalidArgumentError,
                                            "no seat is to move"):
                    state.index_action(0)
                self.assertIsNone(state.action_index(state.legal_actions()[0]))

    def test_a_game_without_tensors_says_so(self):
        for text in GAME_STRINGS:
            game = tafel.load(text)
            state = game.new_state()
            if not game.observation_tensor_size:
                self.assertEqual(game.observation_tensor_shape, ())
                with self.assertRaisesRegex(tafel.InvalidArgumentError,
                                            "no tensors for this game"):
                    state.observation_tensor(0)
            if not game.action_space_size:
                with self.assertRaisesRegex(tafel.InvalidArgumentError,
                                            "no action space"):
                    state.legal_actions_mask()


class HistoryTest(unittest.TestCase):

    def test_history_is_every_action_and_survives_copies(self):
        game = tafel.load("cardcassonne(players=3)")
        played = []
        state = game.new_state()
        rng = tafel.Rng(5)
        for _ in range(40):
            action = (state.sample_chance(rng) if state.is_chance()
                      else rng.choice(state.legal_actions()))
            if len(played) == 20:
                copy = state.copy()
            state.apply(action if len(played) % 3 else
                        state.action_to_text(action))  # text too
            played.append(action)
        state.play_random(rng)
        self.assertEqual(state.history()[:40], played)
        self.assertEqual(len(state.history()), 41)
        self.assertEqual(copy.history(), played[:20])
        other = game.new_state()
        other.copy_from(state)
        self.assertEqual(other.history(), state.history())
        restored = pickle.loads(pickle.dumps(state))
        self.assertEqual(restored.history(), state.history())
        # a failed apply changes nothing, the history neither
        with self.assertRaises(tafel.TafelError):
            state.apply(-5)
        self.assertEqual(len(state.history()), 41)

    def test_unknown_history_is_a_clear_error(self):
        game = tafel.load("cardcassonne(players=3)")
        state, _ = _played(game, 7, 30)
        made = tafel.State.from_bytes(game, state.to_bytes())
        with self.assertRaisesRegex(tafel.StateError, "no known history"):
            made.information_state_string(0)
        self.assertIsNone(made.history_or_none())
        resampled = state.copy()
        resampled.resample(0, tafel.Rng(1))
        with self.assertRaisesRegex(tafel.StateError, "no known history"):
            resampled.history()

    def test_information_state_string_follows_what_the_seat_saw(self):
        for text in GAME_STRINGS:
            game = tafel.load(text)
            state, _ = _played(game, 9, 60)
            seen = set()
            for seat in range(game.num_players):
                line = state.information_state_string(seat)
                self.assertEqual(line, game.information_state_string(
                    state.history(), seat))
                self.assertEqual(line.count("\n"), len(state.history()) + 1)
                seen.add(line)
            if game.hidden_information:  # seats saw different deals
                self.assertEqual(len(seen), game.num_players, text)
            with self.assertRaisesRegex(tafel.InvalidArgumentError, "seat"):
                state.information_state_string(game.num_players)
            with self.assertRaisesRegex(tafel.TafelError, "."):
                game.information_state_string([123456789], 0)


def _played(game, seed, steps):
    state, rng = game.new_state(), tafel.Rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.play_random(rng)
    return state, rng


if __name__ == "__main__":
    unittest.main()

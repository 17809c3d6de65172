"""Bot.set_evaluator: a search guided by a net written in Python (numpy).

The C side is tested in tests/test_evaluator.c; here the numpy plumbing:
the arrays a net gets (each leaf's tensor, mask and seat to move, equal to
what the State methods give for a state at a decision), priors that steer
the choice, values that decide it, and an exception that reaches the
caller."""
import os
import tempfile
import unittest

import helpers  # noqa: F401  (puts the package on the path)
import tafel
from test_bot import first_turn

try:
    import numpy as np
except ImportError:  # the evaluator's arrays are numpy's
    np = None


@unittest.skipUnless(np is not None, "numpy is not importable")
class EvaluatorTest(unittest.TestCase):

    def test_the_net_sees_each_leafs_tensor_mask_and_seat(self):
        game, state = first_turn("catan_cards")
        seen = []

        def net(obs, mask, to_move):
            self.assertEqual(obs.shape[1:], (game.information_state_tensor_size,))
            self.assertEqual(mask.shape[1:], (game.action_space_size,))
            self.assertLessEqual(len(obs), 4)
            for i in range(len(obs)):
                self.assertIn(int(to_move[i]), (0, 1))
                self.assertGreater(int(mask[i].sum()), 0)
            seen.append(len(obs))
            return np.full((len(obs), 2), 0.5, np.float32)

        bot = tafel.Bot("mcts:iters=40", game, seed=1)
        bot.set_evaluator(net, batch=4, kind="information_state")
        self.assertTrue(state.is_legal(bot.choose(state)))
        self.assertEqual(sum(seen), 40)
        self.assertEqual(max(seen), 4)

    def test_a_root_leaf_gets_what_the_state_gives(self):
        # iters=1 and priors: the first call is the root itself
        game, state = first_turn("cardcassonne")
        calls = []

        def net(obs, mask, to_move):
            calls.append((obs.copy(), mask.copy(), to_move.copy()))
            return (np.full((len(obs), 2), 0.5),
                    np.ones((len(obs), game.action_space_size)))

        bot = tafel.Bot("mcts:iters=1", game, seed=1)
        bot.set_evaluator(net, batch=1, priors=True)
        bot.choose(state)
        obs, mask, to_move = calls[0]
        seat = state.current_player()
        self.assertEqual(int(to_move[0]), seat)
        self.assertTrue(np.array_equal(mask[0].astype(bool), state.legal_actions_mask()))
        self.assertTrue(np.array_equal(obs[0], state.observation_tensor(seat)))

    def test_priors_steer_and_values_decide(self):
        game, state = first_turn("cardcassonne")
        legal = np.flatnonzero(state.legal_actions_mask())
        self.assertGreater(len(legal), 1)
        for favoured in (legal[0], legal[-1]):
            def net(obs, mask, to_move, favoured=favoured):
                priors = np.zeros((len(obs), game.action_space_size), np.float32)
                for i in range(len(obs)):
                    priors[i, favoured if mask[i, favoured] else np.flatnonzero(mask[i])[0]] = 1
                return np.full((len(obs), 2), 0.5), priors
            bot = tafel.Bot("mcts:iters=50", game, seed=1)
            bot.set_evaluator(net, batch=8, priors=True)
            self.assertEqual(state.action_index(bot.choose(state)), favoured)
        # values alone, one iteration a move: the move whose leaf the net
        # likes (Carcassonne: after a tile, the same seat's follower choice)
        game, state = first_turn("carcassonne")
        legal = state.legal_actions()
        target = legal[len(legal) // 2]
        seat = state.current_player()
        liked = state.copy()
        liked.apply(target)
        self.assertEqual(liked.current_player(), seat)
        liked_tensor = liked.observation_tensor(seat)

        def judge(obs, mask, to_move):
            values = np.zeros((len(obs), 2), np.float32)
            for i in range(len(obs)):
                mine = float(np.array_equal(obs[i], liked_tensor))
                values[i, seat], values[i, 1 - seat] = mine, 1 - mine
            return values
        bot = tafel.Bot("mcts:iters=%d" % len(legal), game, seed=1)
        bot.set_evaluator(judge, batch=3)
        self.assertEqual(bot.choose(state), target)
        self.assertNotEqual(tafel.Bot("mcts:iters=%d" % len(legal), game, seed=1)
                            .choose(state), target)

    def test_an_exception_in_the_net_reaches_the_caller(self):
        game, state = first_turn("cardcassonne")

        def broken(obs, mask, to_move):
            raise ZeroDivisionError("no net today")

        bot = tafel.Bot("mcts:iters=10", game, seed=1)
        bot.set_evaluator(broken)
        with self.assertRaises(ZeroDivisionError):
            bot.choose(state)
        bot.set_evaluator(lambda o, m, t: np.full((len(o), 2), 0.5), priors=True)
        with self.assertRaises(tafel.InvalidArgumentError):
            bot.choose(state)  # priors asked, values alone returned
        bot.set_evaluator(None)
        self.assertTrue(state.is_legal(bot.choose(state)))
        with self.assertRaises(tafel.InvalidArgumentError):
            bot.set_evaluator(broken, batch=0)
        with self.assertRaises(tafel.BotError):
            tafel.Bot("greedy", game).set_evaluator(broken)


NETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "nets")


class NetFileTest(unittest.TestCase):
    """A weights file the engine cannot read is a NetFileError (a
    ParseError, as an unreadable action's ActionParseError is), not an
    error about actions; a missing file is an EngineIOError."""

    def test_bad_weights_files_are_net_file_errors(self):
        game = tafel.load("cardcassonne")
        with open(os.path.join(NETS, "cardcassonne-2p.tfnet"), "rb") as f:
            good = f.read()
        self.assertTrue(tafel.Net(game, good).has_policy)
        for data, words in ((b"garbage, not weights", "not a tafel weights file"),
                            (good[:20], "cut short")):
            with self.assertRaises(tafel.NetFileError) as caught:
                tafel.Net(game, data)
            e = caught.exception
            self.assertIn(words, str(e))
            self.assertIsInstance(e, tafel.ParseError)
            self.assertNotIsInstance(e, tafel.ActionParseError)
            self.assertEqual(e.status, "EPARSE")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "cut.tfnet")
            with open(path, "wb") as f:
                f.write(good[:20])
            with self.assertRaises(tafel.NetFileError):
                tafel.Net(game, path)
            with self.assertRaises(tafel.EngineIOError):
                tafel.Net(game, os.path.join(d, "missing.tfnet"))


if __name__ == "__main__":
    unittest.main()

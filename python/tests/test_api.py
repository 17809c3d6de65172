"""The Python API: errors, copies, texts, chance, views, records, memory."""
import gc
import json
import pickle
import unittest
import weakref

from helpers import GAME_STRINGS, play_random_game, tafel


def random_states(game, seed, every=1):
    """Every every-th state of a seeded random game (played with the C
    fast path), the final one included."""
    rng = tafel.Rng(seed)
    state = game.new_state()
    while not state.is_terminal():
        if state.move_number % every == 0:
            yield state
        state.play_random(rng)
    yield state


class Errors(unittest.TestCase):

    def test_bad_game_strings_raise_the_engines_message(self):
        with self.assertRaises(tafel.UnknownGameError) as caught:
            tafel.load("chess")
        self.assertIn("unknown game 'chess'", str(caught.exception))
        self.assertEqual(caught.exception.status, "EGAME")
        with self.assertRaises(tafel.BadParameterError) as caught:
            tafel.load("carcassonne(players=9)")
        self.assertEqual(str(caught.exception), "players must be 2..5")
        with self.assertRaises(tafel.BadParameterError) as caught:
            tafel.load("cardcassonne(colour=red)")
        self.assertIn("'colour'", str(caught.exception))

    def test_illegal_actions_raise_and_leave_the_state(self):
        game = tafel.load("carcassonne")
        state = game.new_state()
        state.apply("draw D")
        before = state.copy()
        with self.assertRaises(tafel.IllegalActionError) as caught:
            state.apply("place 5 5 0")
        self.assertTrue(str(caught.exception))
        self.assertEqual(state, before)
        with self.assertRaises(tafel.ActionParseError) as caught:
            state.apply("castle 1 2")
        self.assertIn("cannot read 'castle'", str(caught.exception))
        self.assertEqual(state, before)
        with self.assertRaises(tafel.IllegalActionError):
            state.apply(123456789)
        with self.assertRaises(tafel.IllegalActionError):
            state.apply(-5)
        self.assertEqual(state, before)
        with self.assertRaises(tafel.IllegalActionError):
            state.action_from_text("draw D")  # a tile is in hand now
        self.assertEqual(state, before)

    def test_other_misuse(self):
        state = tafel.load("catan_cards").new_state()
        with self.assertRaises(tafel.InvalidArgumentError):
            state.view(2)
        with self.assertRaises(tafel.InvalidArgumentError):
            state.resample(-1, tafel.Rng(1))
        state.apply(state.sample_chance(tafel.Rng(1)))
        while state.is_chance():
            state.apply(state.legal_actions()[0])
        with self.assertRaises(tafel.InvalidArgumentError):
            state.sample_chance(tafel.Rng(1))  # not a chance node
        with self.assertRaises(tafel.InvalidArgumentError):
            state.copy_from(tafel.load("carcassonne").new_state())


class StatesAndActions(unittest.TestCase):

    def test_copy_is_equal_and_independent(self):
        for game_string in GAME_STRINGS:
            game = tafel.load(game_string)
            state = game.new_state()
            rng = tafel.Rng(3)
            for _ in range(40):
                state.play_random(rng)
            copied = state.copy()
            self.assertEqual(copied, state)
            self.assertIsNot(copied, state)
            copied.play_random(rng)
            self.assertNotEqual(copied, state)
            self.assertEqual(state.move_number + 1, copied.move_number)
            restored = pickle.loads(pickle.dumps(state))
            self.assertEqual(restored, state)
            state.copy_from(copied)
            self.assertEqual(state, copied)

    def test_action_texts_round_trip(self):
        for game_string in GAME_STRINGS:
            game = tafel.load(game_string)
            for seed in range(2):
                for state in random_states(game, seed, every=3):
                    for action in state.legal_actions():
                        text = state.action_to_text(action)
                        self.assertEqual(state.action_from_text(text), action,
                                         (game_string, text))

    def test_offers_are_requests_and_a_declined_one_is_spent(self):
        game = tafel.load("catan_cards")
        seen = set()
        for state in random_states(game, 3):
            if state.current_player() < 0:
                continue
            for action in state.legal_actions():
                text = state.action_to_text(action)
                request = state.action_request(action)
                offer = text.startswith("offer ") or text == "negotiate"
                self.assertEqual(request != 0, offer, text)
                seen.add(request)
        self.assertEqual(seen, {0, tafel.REQUEST, tafel.REQUEST_SPENT})

    def test_chance_probabilities_sum_to_one(self):
        for game_string in GAME_STRINGS:
            game = tafel.load(game_string)
            for state in random_states(game, 4):
                outcomes = state.chance_outcomes()
                if state.is_chance():
                    self.assertAlmostEqual(sum(p for _, p in outcomes), 1.0)
                    self.assertEqual([a for a, _ in outcomes],
                                     state.legal_actions())
                else:
                    self.assertEqual(outcomes, [])

    def test_resample_keeps_the_seats_view(self):
        rng = tafel.Rng(8)
        for game_string in ("cardcassonne(players=3)", "catan_cards"):
            game = tafel.load(game_string)
            self.assertTrue(game.hidden_information)
            changed = 0
            for state in random_states(game, 6, every=5):
                for seat in range(game.num_players):
                    dealt = state.copy()
                    dealt.resample(seat, rng)
                    self.assertEqual(dealt.view(seat), state.view(seat))
                    changed += dealt != state
            self.assertGreater(changed, 0, "resample never changed anything")

    def test_scores_winners_and_views(self):
        for game_string in GAME_STRINGS:
            game = tafel.load(game_string)
            state, _ = play_random_game(game, 12)
            self.assertEqual(state.scores(), state.projected())
            self.assertTrue(state.winners())
            for seat in range(game.num_players):
                breakdown = state.score_breakdown(seat)
                self.assertTrue(breakdown)
                self.assertEqual(state.view(seat)["seat"], seat)
            self.assertIsInstance(state.render(), str)
            state.check()

    def test_rng_draws_as_the_engine(self):
        rng = tafel.Rng(7)
        copied = rng.copy()
        self.assertEqual([rng.next() for _ in range(3)],
                         [copied.next() for _ in range(3)])
        self.assertTrue(all(0 <= rng.below(10) < 10 for _ in range(100)))
        self.assertTrue(0.0 <= rng.unit() < 1.0)
        # splitmix64 from the seed mixed with the digits of pi (rng.c)
        self.assertNotEqual(tafel.Rng(1).next(), tafel.Rng(2).next())


class Records(unittest.TestCase):

    def test_unknown_keys_and_large_seeds_round_trip(self):
        text = ('{"game":"cardcassonne(players=2)","players":["random",null],'
                '"seed":"18446744073709551615","actions":[],'
                '"forfeit":{"seat":1,"reason":"left the table"}}')
        record = tafel.Record.from_json(text)
        self.assertEqual(record.seed, 2**64 - 1)
        self.assertEqual(record.extra["forfeit"]["seat"], 1)
        self.assertEqual(json.loads(record.to_json()), json.loads(text))
        self.assertEqual(tafel.Record.from_json(record.to_json()), record)

    def test_bad_records_raise_the_engines_message(self):
        with self.assertRaises(tafel.RecordError) as caught:
            tafel.Record.from_json('{"game": "carcassonne"}')
        self.assertIn('no "actions"', str(caught.exception))
        with self.assertRaises(tafel.RecordError):
            tafel.Record.from_json('{"game": "carcassonne", "actions": [1]}')
        record = tafel.Record("carcassonne", actions=["draw D", "pass"])
        with self.assertRaises(tafel.RecordError) as caught:
            record.replay()
        self.assertIn("action 1 'pass'", str(caught.exception))

    def test_replay_gives_the_game_and_final_state(self):
        game = tafel.load("cardcassonne(players=3)")
        state, record = play_random_game(game, 5, players=["a", "b", "c"])
        replayed_game, replayed = record.replay()
        self.assertEqual(replayed_game, game)
        self.assertEqual(replayed, state)
        steps = list(record.states())
        self.assertEqual(len(steps), len(record.actions) + 1)
        self.assertEqual(steps[-1][0], state)


class Memory(unittest.TestCase):

    def test_states_and_games_are_freed(self):
        game = tafel.load("carcassonne(players=3)")
        state = game.new_state()
        gone = weakref.ref(state)
        del state
        gc.collect()
        self.assertIsNone(gone())

        def resident_kb():
            with open("/proc/self/statm") as statm:
                return int(statm.read().split()[1]) * 4

        for _ in range(2000):  # warm up the allocators
            game.new_state().copy()
        before = resident_kb()
        for _ in range(100_000):  # 5.4 KB each: 540 MB if they leaked
            game.new_state().copy()
        for _ in range(2000):
            tafel.load("cardcassonne(players=4)").new_state()
        self.assertLess(resident_kb() - before, 20_000)

    def test_a_state_keeps_its_game(self):
        state = tafel.load("catan_cards").new_state()
        gc.collect()
        self.assertEqual(state.game.name, "catan_cards")
        self.assertTrue(state.is_chance())
        self.assertTrue(state.legal_actions())


if __name__ == "__main__":
    unittest.main()

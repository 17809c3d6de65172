"""State.describe: the account of an action, as a seat sees it.

The accounts Python gets are the engine's: for a random game of each game,
every action told to every seat (and a spectator) equals what `tafel replay
--step --json --seat N` prints for the same record; their points add up to
the final scores; describing changes nothing; errors are the engine's.
"""
import json
import os
import tempfile
import unittest

from helpers import GAME_STRINGS, run_cli, tafel


def points_of(account, players):
    """The points the events of an account give each seat, added up."""
    total = [0] * players
    for event in account:
        for seat, points in enumerate(event.get("points", [])):
            total[seat] += points
    return total


class DescribeIsTheEngines(unittest.TestCase):

    def test_every_action_for_every_seat_equals_tafel_replay_step(self):
        with tempfile.TemporaryDirectory() as work:
            for index, game_string in enumerate(GAME_STRINGS):
                with self.subTest(game=game_string):
                    self.check_game(tafel.load(game_string), 80 + index, work)

    def check_game(self, game, seed, work):
        viewers = range(-1, game.num_players)
        rng = tafel.Rng(seed)
        state = game.new_state()
        start = state.scores()
        record = tafel.Record(game, seed=seed)
        accounts = {viewer: [] for viewer in viewers}
        while not state.is_terminal():
            if state.is_chance():
                action = state.sample_chance(rng)
            else:
                action = rng.choice(state.legal_actions())
            before = state.copy()
            for viewer in viewers:
                accounts[viewer].append(state.describe(action, viewer))
            self.assertEqual(state, before, "describe changes nothing")
            record.push(state, action)
            state.apply(action)
        path = os.path.join(work, "game.json")
        record.save(path)
        final = state.scores()
        differ = 0
        for viewer in viewers:
            lines = run_cli("replay", path, "--step", "--json", "--seat",
                            str(viewer)).splitlines()
            self.assertEqual(len(lines), len(accounts[viewer]))
            for n, (line, mine) in enumerate(zip(lines, accounts[viewer]), 1):
                step = json.loads(line)
                self.assertEqual(step["n"], n)
                self.assertEqual(mine, step["events"],
                                 "action %d for seat %d" % (n, viewer))
            added = [0] * game.num_players
            for account in accounts[viewer]:
                added = [a + b for a, b in
                         zip(added, points_of(account, game.num_players))]
            self.assertEqual(added, [f - s for f, s in zip(final, start)],
                             "seat %d: the points add up to the scores"
                             % viewer)
        for n in range(len(accounts[-1])):
            told = {json.dumps(accounts[v][n]) for v in viewers}
            differ += len(told) > 1
        if game.hidden_information:
            self.assertGreater(differ, 10, "seats are told different things")
        self.assertTrue(any(points_of(a, game.num_players) != [0] * game.num_players
                            for a in accounts[-1]), "some account scores")


class DescribeErrors(unittest.TestCase):

    def setUp(self):
        self.game = tafel.load("cardcassonne(players=2)")
        self.state = self.game.new_state()
        rng = tafel.Rng(3)
        while self.state.is_chance():
            self.state.apply(self.state.sample_chance(rng))
        self.legal = self.state.legal_actions()[0]

    def test_an_int_and_its_text_are_told_alike(self):
        text = self.state.action_to_text(self.legal)
        for seat in (-1, 0, 1):
            account = self.state.describe(text, seat)
            self.assertEqual(account, self.state.describe(self.legal, seat))
            self.assertIsInstance(account, list)
            for event in account:
                self.assertIsInstance(event["kind"], str)
        self.assertEqual(self.state.describe(self.legal),
                         self.state.describe(self.legal, -1),
                         "a spectator by default")

    def test_an_illegal_action_raises_with_the_engines_message(self):
        before = self.state.copy()
        illegal = next(a for a in range(self.game.num_distinct_actions)
                       if not self.state.is_legal(a))
        with self.assertRaises(tafel.IllegalActionError) as caught:
            self.state.describe(illegal, 0)
        with self.assertRaises(tafel.IllegalActionError) as applied:
            self.state.copy().apply(illegal)
        self.assertEqual(str(caught.exception), str(applied.exception),
                         "the message apply gives")
        with self.assertRaises(tafel.IllegalActionError):
            self.state.describe(2**40 + self.legal)
        with self.assertRaises(tafel.TafelError) as parsed:
            self.state.describe("frobnicate", 0)
        self.assertIn("frobnicate", str(parsed.exception))
        self.assertEqual(self.state, before)

    def test_a_seat_out_of_range_raises(self):
        for seat in (2, -2, 2**40):
            with self.assertRaises(tafel.InvalidArgumentError) as caught:
                self.state.describe(self.legal, seat)
            self.assertIn("seat", str(caught.exception))
        with self.assertRaises(tafel.InvalidArgumentError) as caught:
            self.state.describe(self.legal, 5)
        self.assertEqual(str(caught.exception),
                         "seat 5: this game has seats 0..1, or -1")

    def test_at_the_end_nothing_is_legal(self):
        state = self.game.new_state()
        rng = tafel.Rng(4)
        while not state.is_terminal():
            action = state.play_random(rng)
        with self.assertRaises(tafel.IllegalActionError):
            state.describe(action)


if __name__ == "__main__":
    unittest.main()

"""The same seeded random games through Python and through C."""
import json
import os
import tempfile
import unittest

from helpers import (GAME_STRINGS, play_random_game, run_cli, sim_mix,
                     tafel)


def c_replay(path):
    """What `tafel replay --json` says of the record in path."""
    return json.loads(run_cli("replay", path, "--json"))


class SimGamesAreThePythonGames(unittest.TestCase):
    """`tafel sim --players random,...` plays, Python plays the same seeds."""

    def test_sim_records_equal_python_records_and_scores(self):
        games = 3
        with tempfile.TemporaryDirectory() as work:
            for game_string in GAME_STRINGS:
                game = tafel.load(game_string)
                bots = ["random"] * game.num_players
                out = os.path.join(work, "sim.jsonl")
                run_cli("sim", game_string, "--players", ",".join(bots),
                        "--games", str(games), "--seed", "11", "--out", out)
                c_records = tafel.read_records(out)
                self.assertEqual(len(c_records), games)
                for i, c_record in enumerate(c_records):
                    with self.subTest(game=game_string, index=i):
                        record, state = self.play_as_sim(game, 11, i)
                        # sim's records also carry the result of the game
                        expected = dict(record.to_dict(), scores=state.scores(),
                                        winners=state.winners())
                        self.assertEqual(expected, c_record.to_dict())
                        record.set_result(state)
                        self.assertEqual(record.to_dict(), c_record.to_dict())
                        self.assertEqual(c_record.result,
                                         (state.scores(), state.winners()))
                        _, replayed = c_record.replay()
                        self.assertEqual(replayed, state)
                        one = os.path.join(work, "one.json")
                        c_record.save(one)
                        c_said = c_replay(one)
                        self.assertTrue(c_said["terminal"])
                        self.assertEqual(c_said["scores"], state.scores())
                        self.assertEqual(c_said["winners"], state.winners())

    def play_as_sim(self, game, sim_seed, index):
        """Game index of `tafel sim --seed sim_seed` with random bots: the
        chance rng and each seat's bot rng seeded as src/cli/sim.c does."""
        # two names for one value, as in sim.c: without --paired a game's
        # deal is the game itself, and both seeds mix in its index
        chance_seed = sim_mix(sim_seed, index)
        game_seed = sim_mix(sim_seed, index)
        chance = tafel.Rng(chance_seed)
        bots = [tafel.Rng(sim_mix(game_seed, seat + 1))
                for seat in range(game.num_players)]
        state = game.new_state()
        record = tafel.Record(game, seed=chance_seed,
                              players=["random"] * game.num_players)
        while not state.is_terminal():
            seat = state.current_player()
            if seat == tafel.CHANCE:
                action = state.sample_chance(chance)
            else:
                # sim's random bot has manners (src/bots/manners.c): it
                # leaves out spent requests unless nothing else is legal
                legal = state.legal_actions()
                action = bots[seat].choice(
                    [a for a in legal
                     if state.action_request(a) != tafel.REQUEST_SPENT] or legal)
            record.push(state, action)
            state.apply(action)
        return record, state


class PythonRecordsReplayInC(unittest.TestCase):

    def test_c_replays_python_games_to_the_same_scores(self):
        with tempfile.TemporaryDirectory() as work:
            for game_string in GAME_STRINGS:
                game = tafel.load(game_string)
                for seed in (1, 2, 2**60 + 3):  # a seed JSON keeps as a string
                    with self.subTest(game=game_string, seed=seed):
                        state, record = play_random_game(game, seed)
                        path = os.path.join(work, "game.json")
                        record.save(path)
                        c_said = c_replay(path)
                        self.assertTrue(c_said["terminal"])
                        self.assertEqual(c_said["actions"],
                                         len(record.actions))
                        self.assertEqual(c_said["scores"], state.scores())
                        self.assertEqual(c_said["winners"], state.winners())
                        self.assertEqual(tafel.Record.load(path), record)


class PlayRandomDrawsAsListingAndApplying(unittest.TestCase):
    """tafel_state_play_random takes the same steps as the slow path."""

    def test_same_seed_same_game(self):
        for game_string in GAME_STRINGS:
            game = tafel.load(game_string)
            for seed in range(3):
                with self.subTest(game=game_string, seed=seed):
                    slow, record = play_random_game(game, seed)
                    fast = game.new_state()
                    rng = tafel.Rng(seed)
                    for text in record.actions:
                        expected = fast.action_from_text(text)
                        before = fast.copy()
                        self.assertEqual(fast.play_random(rng), expected)
                        before.apply(expected)
                        self.assertEqual(fast, before)
                    self.assertTrue(fast.is_terminal())
                    self.assertEqual(fast, slow)


if __name__ == "__main__":
    unittest.main()

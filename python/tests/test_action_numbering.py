"""What an action integer means from state to state (docs/python.md).

These tests pin the findings the env's numbering rests on; if one fails,
the engine's numbering changed and docs/python.md must say what it is now.
"""
import collections
import unittest

from helpers import tafel
from tafel.env import TafelAECEnv


def texts_of_ids(game_string, games, chance):
    """{action id: the set of texts it had} over seeded random games, for
    chance outcomes (chance=True) or players' decisions."""
    game = tafel.load(game_string)
    texts = collections.defaultdict(set)
    for seed in range(games):
        rng = tafel.Rng(seed)
        state = game.new_state()
        while not state.is_terminal():
            if state.is_chance() == chance:
                for action in state.legal_actions():
                    texts[action].add(state.action_to_text(action))
            state.play_random(rng)
    return texts


class IntegersFitTheEnv(unittest.TestCase):

    def test_card_games_integers_are_below_max_actions(self):
        for game_string in ("cardcassonne(players=5)", "catan_cards"):
            game = tafel.load(game_string)
            for chance in (True, False):
                ids = texts_of_ids(game_string, 15, chance)
                self.assertLess(max(ids), game.max_actions, game_string)
                self.assertEqual(game.num_distinct_actions, game.max_actions)

    def test_carcassonne_integers_pass_max_actions(self):
        # max_actions (768) bounds how many actions are legal at once, not
        # their values: a placement is 10000 + position key * 4 + rotation
        game_string = "carcassonne(players=2,crop_circles=true)"
        game = tafel.load(game_string)
        ids = texts_of_ids(game_string, 10, chance=False)
        self.assertGreaterEqual(max(ids), game.max_actions)
        self.assertLess(max(ids), game.num_distinct_actions)
        self.assertEqual(TafelAECEnv(game).num_actions, game.num_distinct_actions)


class MeaningsOfIds(unittest.TestCase):

    def test_cardcassonne_decisions_mean_one_thing(self):
        decisions = texts_of_ids("cardcassonne(players=4)", 40, chance=False)
        self.assertEqual({a: t for a, t in decisions.items() if len(t) > 1}, {})
        # a deal names the card; who receives it is the state's business
        deals = texts_of_ids("cardcassonne(players=4)", 5, chance=True)
        for texts in deals.values():
            self.assertEqual(len({text.split()[-1] for text in texts}), 1)

    def test_catan_cards_ids_name_one_object_the_verb_follows_the_frame(self):
        decisions = texts_of_ids("catan_cards", 20, chance=False)
        several = 0
        for action, texts in decisions.items():
            objects = {" ".join(text.split()[1:]) for text in texts}
            self.assertEqual(len(objects), 1, (action, texts))
            several += len(texts) > 1
        self.assertGreater(several, 0)  # "gain L", "pay L", "take L": one id

    def test_carcassonne_draws_and_placements_are_fixed_followers_are_not(self):
        decisions = texts_of_ids("carcassonne(players=2,crop_circles=true)",
                                 20, chance=False)
        kinds = collections.defaultdict(set)
        for texts in decisions.values():
            kinds[min(texts).split()[0]].add(len(texts))
        self.assertEqual(kinds["place"], {1})
        self.assertIn(1, kinds["pass"])
        self.assertGreater(max(kinds["follower"]), 1)
        draws = texts_of_ids("carcassonne", 5, chance=True)
        self.assertTrue(all(len(texts) == 1 for texts in draws.values()))


if __name__ == "__main__":
    unittest.main()

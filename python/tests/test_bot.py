"""tafel.Bot: the engine's own players from Python."""
import threading
import time
import unittest

import tafel


def first_turn(game_string, seed=3):
    game = tafel.load(game_string)
    state = game.new_state()
    rng = tafel.Rng(seed)
    while state.is_chance():
        state.apply(state.sample_chance(rng))
    return game, state


class BotTest(unittest.TestCase):

    def test_bots_are_listed(self):
        names = [b.name for b in tafel.bots()]
        for name in ("random", "greedy", "hard"):
            self.assertIn(name, names)

    def test_choose_is_legal_and_seeded(self):
        for game_string in ("carcassonne", "cardcassonne(players=3)", "catan_cards"):
            game, state = first_turn(game_string)
            before = state.copy()
            one = tafel.Bot("mcts:iters=200", game, seed=9).choose(state)
            two = tafel.Bot("mcts:iters=200", game, seed=9).choose(state)
            self.assertTrue(state.is_legal(one), game_string)
            self.assertEqual(one, two, "same spec and seed, same choice")
            self.assertTrue(state == before, "choose leaves the state as it was")

    def test_stop_from_another_thread_ends_a_search(self):
        game, state = first_turn("cardcassonne")
        bot = tafel.Bot("mcts:iters=100000000", game, seed=1)
        answer = []
        worker = threading.Thread(target=lambda: answer.append(bot.choose(state)))
        worker.start()
        time.sleep(0.2)
        bot.stop()
        worker.join(10)
        self.assertFalse(worker.is_alive(), "stop ends the search")
        self.assertTrue(state.is_legal(answer[0]))

    def test_time_cap_ends_a_search_and_changes_no_short_one(self):
        game, state = first_turn("catan_cards")
        bot = tafel.Bot("mcts:iters=100000000", game, seed=1)
        bot.set_time_cap(200)
        started = time.monotonic()
        self.assertTrue(state.is_legal(bot.choose(state)))
        self.assertLess(time.monotonic() - started, 5)
        capped = tafel.Bot("mcts:iters=200", game, seed=9)
        capped.set_time_cap(60000)
        self.assertEqual(capped.choose(state), tafel.Bot("mcts:iters=200", game, seed=9).choose(state))
        with self.assertRaises(tafel.InvalidArgumentError):
            bot.set_time_cap(-1)

    def test_analyse_puts_the_choice_first(self):
        game, state = first_turn("cardcassonne")
        moves = tafel.Bot("mcts:iters=300", game, seed=4).analyse(state, count=3)
        self.assertGreaterEqual(len(moves), 1)
        self.assertLessEqual(len(moves), 3)
        self.assertEqual(moves[0].action,
                         tafel.Bot("mcts:iters=300", game, seed=4).choose(state))
        for move in moves:
            self.assertTrue(state.is_legal(move.action))
            self.assertTrue(0 <= move.share <= 1)

    def test_a_whole_game_between_bots(self):
        game = tafel.load("cardcassonne")
        state = game.new_state()
        bots = [tafel.Bot("greedy", game, 1), tafel.Bot("random", game, 2)]
        rng = tafel.Rng(5)
        while not state.is_terminal():
            seat = state.current_player()
            state.apply(state.sample_chance(rng) if seat < 0 else bots[seat].choose(state))
        self.assertTrue(state.winners())

    def test_errors(self):
        game, state = first_turn("carcassonne")
        with self.assertRaises(tafel.BotError) as caught:
            tafel.Bot("genius", game)
        self.assertIn("genius", str(caught.exception))
        chance = game.new_state()
        with self.assertRaises(tafel.InvalidArgumentError):
            tafel.Bot("random", game).choose(chance)


if __name__ == "__main__":
    unittest.main()

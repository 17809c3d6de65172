"""What the test suites share: the C program, seeded random games in Python."""
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
import tafel  # noqa: E402  (the path above first)

# One game string per game, with more than two players where the game
# allows it, so seat handling is exercised.
GAME_STRINGS = ("carcassonne(players=3)", "cardcassonne(players=3)",
                "catan_cards")
CARD_GAMES = ("cardcassonne(players=3)", "catan_cards")


def cli_path():
    """The tafel program (TAFEL_CLI); the test is skipped without it."""
    path = os.environ.get("TAFEL_CLI")
    if not path or not os.path.exists(path):
        raise unittest.SkipTest("TAFEL_CLI does not name the tafel program")
    return path


def run_cli(*args):
    done = subprocess.run([cli_path(), *args], capture_output=True, text=True,
                          timeout=120)
    if done.returncode != 0:
        raise AssertionError("tafel %s failed: %s" % (" ".join(args),
                                                      done.stderr))
    return done.stdout


def play_random_game(game, seed, players=None):
    """A random game played step by step through the Python API: chance
    drawn with sample_chance, a decision with rng.below over the legal
    actions, both from Rng(seed).  Returns (final state, record)."""
    rng = tafel.Rng(seed)
    state = game.new_state()
    record = tafel.Record(game, seed=seed, players=players or [])
    while not state.is_terminal():
        if state.is_chance():
            action = state.sample_chance(rng)
        else:
            action = rng.choice(state.legal_actions())
        record.push(state, action)
        state.apply(action)
    return state, record


SIM_MIX = 0xD1B54A32D192ED03


def sim_mix(seed, index):
    """cli_mix of src/cli/util.c: how `tafel sim` derives a game's seeds."""
    rng = tafel.Rng(seed)
    mixed = rng.state ^ ((index * SIM_MIX) & (2**64 - 1))
    return tafel.Rng.from_state(mixed).next()


def tensor_games(game_strings=GAME_STRINGS):
    """The games of game_strings whose engine has tensors and an action
    space yet (games land one by one), as loaded Games."""
    games = [tafel.load(text) for text in game_strings]
    return [game for game in games
            if game.observation_tensor_size and game.action_space_size]


def require_tensor_games(test, game_strings=GAME_STRINGS):
    """tensor_games(), or the test skipped saying that no game has them."""
    games = tensor_games(game_strings)
    if not games:
        test.skipTest("no game of %s has tensors in this libtafel"
                      % (game_strings,))
    return games


def have_numpy():
    return tafel.tensors.numpy is not None

"""Steps per second through Python: python3 -m tafel.bench [--seconds S].

Two loops per game, each timed three times (the median is printed):
  api  random legal actions through State: at a decision, legal_actions(),
       one view of the seat to move (tafel_state_view_json + json.loads)
       and apply(); at a chance node, sample_chance() and apply().  Every
       action counts as a step, chance included.
  env  TafelAECEnv (action_ids="engine"): last() (one view and the action
       mask), a masked random action, step() (which takes the chance
       steps inside).  Counted per decision, and in actions (chance too).
"""
import argparse
import statistics
import time

from ._lib import CHANCE, TERMINAL
from .env import TafelAECEnv
from .game import Game
from .rng import Rng

GAMES = ("carcassonne", "cardcassonne", "catan_cards")


def api_run(game, seconds, seed):
    """(actions, decisions, seconds) of random games until seconds pass."""
    rng = Rng(seed)
    actions = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state()
        while True:
            seat = state.current_player()
            if seat == TERMINAL:
                break
            if seat == CHANCE:
                state.apply(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.view(seat)
                state.apply(legal[rng.below(len(legal))])
                decisions += 1
            actions += 1
    return actions, decisions, time.perf_counter() - start


def env_run(game, seconds, seed):
    env = TafelAECEnv(game, seed=seed)
    space = env.action_space(env.possible_agents[0])
    chooser = Rng(seed)
    actions = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset()
        for _ in env.agent_iter():
            observation, _, termination, _, _ = env.last()
            if termination:
                env.step(None)
                continue
            env.step(space.sample(observation["action_mask"], chooser))
            decisions += 1
        actions += env.tafel_state.move_number
    return actions, decisions, time.perf_counter() - start


def median_rates(run, game, seconds, runs):
    results = [run(game, seconds, seed) for seed in range(1, runs + 1)]
    actions = statistics.median(a / s for a, _, s in results)
    decisions = statistics.median(d / s for _, d, s in results)
    return actions, decisions


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="length of one timed run (default 2)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("games", nargs="*", default=list(GAMES))
    args = parser.parse_args(argv)
    print("%-28s %-4s %14s %16s" % ("game", "loop", "actions/s",
                                     "decisions/s"))
    for game_string in args.games:
        game = Game(game_string)
        for name, run in (("api", api_run), ("env", env_run)):
            actions, decisions = median_rates(run, game, args.seconds,
                                              args.runs)
            print("%-28s %-4s %14.0f %16.0f" % (game.game_string, name,
                                                actions, decisions),
                  flush=True)


if __name__ == "__main__":
    main()

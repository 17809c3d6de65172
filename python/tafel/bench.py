"""Steps per second through Python: python3 -m tafel.bench [--seconds S].

Two loops per game, each timed three times (the median is printed):
  api  random legal actions through State: at a decision, legal_actions(),
       one view of the seat to move (tafel_state_view_json + json.loads)
       and apply(); at a chance node, sample_chance() and apply().  Every
       action counts as a step, chance included.
  bare the api loop without any observation: legal_actions() and apply()
       (the floor the others add to).
  tensor the api loop with, instead of the view, the seat's observation
       tensor and the legal-action mask, each written into one reused
       buffer (out=).
  env  TafelAECEnv (action_ids="engine"): last() (one view and the action
       mask), a masked random action, step() (which takes the chance
       steps inside).  Counted per decision, and in actions (chance too).
  env-tensor TafelAECEnv(observation="tensor"): last() gives the seat's
       observation tensor and the action-space mask (new arrays each time,
       as an agent may keep them), a masked random index, step().
  vector tafel.vector.TafelVectorEnv (Gymnasium), 64 envs, the agent at
       seat 0, opponent="random" (drawn inside the engine), a masked random
       agent (tafel.vector.masked_sample over infos["action_mask"]); copy=True
       as by default.  Both columns count the agent's decisions only.
  vector-nocopy the same with copy=False (the engine's arrays handed out).
Loops that need tensors are left out for a game that has none yet, the
vector loops without gymnasium (and numpy).
"""
import argparse
import statistics
import time

from ._lib import CHANCE, TERMINAL
from .env import TafelAECEnv
from .game import Game
from .rng import Rng

GAMES = ("carcassonne", "cardcassonne", "catan_cards")


def api_run(game, seconds, seed, observe="view"):
    """(actions, decisions, seconds) of random games until seconds pass."""
    rng = Rng(seed)
    if observe == "tensor":
        tensor = game.new_state().observation_tensor(0)
        mask = game.new_state().legal_actions_mask()
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
                if observe == "view":
                    state.view(seat)
                elif observe == "tensor":
                    state.observation_tensor(seat, out=tensor)
                    state.legal_actions_mask(out=mask)
                state.apply(legal[rng.below(len(legal))])
                decisions += 1
            actions += 1
    return actions, decisions, time.perf_counter() - start


def bare_run(game, seconds, seed):
    return api_run(game, seconds, seed, observe=None)


def tensor_run(game, seconds, seed):
    return api_run(game, seconds, seed, observe="tensor")


def env_tensor_run(game, seconds, seed):
    return env_run(game, seconds, seed, observation="tensor")


def env_run(game, seconds, seed, observation="view"):
    env = TafelAECEnv(game, seed=seed, observation=observation)
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


def vector_run(game, seconds, seed, copy=True):
    from . import vector  # gymnasium and numpy: only for these loops
    import numpy as np
    envs = vector.TafelVectorEnv(game, 64, opponent="random", copy=copy)
    rng = np.random.default_rng(seed)
    _, infos = envs.reset(seed=seed)
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, _, _, infos = envs.step(vector.masked_sample(infos["action_mask"], rng))
        decisions += envs.num_envs
    return decisions, decisions, time.perf_counter() - start


def vector_nocopy_run(game, seconds, seed):
    return vector_run(game, seconds, seed, copy=False)


def _have_gymnasium():
    try:
        from . import vector  # noqa: F401
        return True
    except ImportError:
        return False


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
    parser.add_argument("--loops", default="api,env,bare,tensor,env-tensor,vector,"
                        "vector-nocopy",
                        help="which loops, comma-separated (default all)")
    parser.add_argument("games", nargs="*", default=list(GAMES))
    args = parser.parse_args(argv)
    loops = {"api": api_run, "env": env_run, "bare": bare_run,
             "tensor": tensor_run, "env-tensor": env_tensor_run,
             "vector": vector_run, "vector-nocopy": vector_nocopy_run}
    chosen = [(name, loops[name]) for name in args.loops.split(",")]
    print("%-28s %-13s %14s %16s" % ("game", "loop", "actions/s",
                                     "decisions/s"))
    for game_string in args.games:
        game = Game(game_string)
        for name, run in chosen:
            if (("tensor" in name or "vector" in name)
                    and not (game.observation_tensor_size and game.action_space_size)):
                continue
            if "vector" in name and not _have_gymnasium():
                print("%-28s %-13s (no gymnasium)" % (game.game_string, name))
                continue
            actions, decisions = median_rates(run, game, args.seconds,
                                              args.runs)
            print("%-28s %-13s %14.0f %16.0f" % (game.game_string, name,
                                                actions, decisions),
                  flush=True)


if __name__ == "__main__":
    main()

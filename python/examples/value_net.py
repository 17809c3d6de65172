"""A value network that learns who wins, from observation tensors of
self-play (issue 27's example for learners).

    /usr/bin/python3 python/examples/value_net.py --quick     # seconds
    /usr/bin/python3 python/examples/value_net.py             # the full run

Games of a two-player game (cardcassonne(players=2) by default, or the
Catan card game) are played by tafel's own bots, chance drawn by
the engine's Rng.  At every decision the observation tensor of the seat to
move is written by the engine straight into a row of the data set (out=,
no copy), labelled 1 if that seat went on to win.  Games are split into a
training and a held-out set (whole games, so no position of a held-out game
is seen in training).  A small PyTorch MLP is trained on the training
positions; the report gives its accuracy on the held-out positions beside
two baselines: the current score leader (the seat to move predicted to win
when its score is ahead; a tie counts half, as a coin would) and the
majority class.  Drawn games are left out.

torch is Debian's python3-torch, in /usr/bin/python3 (or a venv made with
--system-site-packages); numpy too.  The package is found through
PYTHONPATH=python (and the library through TAFEL_LIB) as usual.
"""
import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402
import tafel  # noqa: E402

try:
    import torch
except ImportError:  # pragma: no cover - depends on the interpreter
    sys.exit("value_net.py needs torch: Debian's python3-torch, in "
             "/usr/bin/python3 (apt-get install python3-torch)")


def self_play(game, bots, games, seed, stride):
    """(positions, labels, scores, game ids): the observation tensor of the
    seat to move at every stride-th decision of each game, labelled with
    whether that seat won; scores = (own score, other's score) then."""
    size = game.observation_tensor_size
    if not size:
        sys.exit("%s has no observation tensor in this libtafel yet"
                 % game.game_string)
    capacity = 1024
    data = np.empty((capacity, size), np.float32)
    seats, own, other, ids = [], [], [], []
    labels = []
    rng = tafel.Rng(seed)
    players = [tafel.Bot(spec, game, rng.next()) for spec in bots]
    count = 0
    for index in range(games):
        state = game.new_state()
        first, decisions = count, 0
        while not state.is_terminal():
            seat = state.current_player()
            if seat == tafel.CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            if decisions % stride == 0:
                if count == capacity:
                    capacity *= 2
                    data = np.resize(data, (capacity, size))
                # the engine writes into this row of the data set
                state.observation_tensor(seat, out=data[count])
                scores = state.scores()
                seats.append(seat)
                own.append(scores[seat])
                other.append(scores[1 - seat])
                ids.append(index)
                count += 1
            decisions += 1
            state.apply(players[seat].choose(state))
        winners = state.winners()
        if len(winners) != 1:  # a draw: no winner to learn
            for column in (seats, own, other, ids):
                del column[first:]
            count = first
            continue
        labels.extend(1.0 if seats[i] == winners[0] else 0.0
                      for i in range(first, count))
    return (data[:count].copy(), np.array(labels[:count], np.float32),
            np.array(own, np.float32) - np.array(other, np.float32),
            np.array(ids))


def train(x, y, hidden, epochs, batch, lr, seed):
    torch.manual_seed(seed)
    model = torch.nn.Sequential(
        torch.nn.Linear(x.shape[1], hidden), torch.nn.ReLU(),
        torch.nn.Linear(hidden, hidden // 2), torch.nn.ReLU(),
        torch.nn.Linear(hidden // 2, 1))
    optimiser = torch.optim.Adam(model.parameters(), lr=lr)
    loss_of = torch.nn.BCEWithLogitsLoss()
    inputs, targets = torch.from_numpy(x), torch.from_numpy(y)  # no copies
    generator = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        order = torch.randperm(len(inputs), generator=generator)
        for start in range(0, len(order), batch):
            chosen = order[start:start + batch]
            optimiser.zero_grad()
            loss = loss_of(model(inputs[chosen]).squeeze(1), targets[chosen])
            loss.backward()
            optimiser.step()
    return model


def accuracy(model, x, y):
    with torch.no_grad():
        guess = (model(torch.from_numpy(x)).squeeze(1) > 0).float()
    return float((guess == torch.from_numpy(y)).float().mean())


def leader_accuracy(lead, y):
    """The score leader as the predicted winner; a tie counts half."""
    right = np.where(lead > 0, y == 1, np.where(lead < 0, y == 0, 0.5))
    return float(np.mean(right))


def run(args, seed):
    game = tafel.load(args.game)
    if game.num_players != 2:
        sys.exit("value_net.py: a two-player game (%s has %d)"
                 % (game.game_string, game.num_players))
    bots = args.bots.split(",")
    if len(bots) == 1:
        bots *= 2
    started = time.perf_counter()
    x, y, lead, ids = self_play(game, bots, args.games, seed, args.stride)
    played = time.perf_counter() - started
    held_out = ids % 5 == seed % 5  # one game in five, whole games
    model = train(x[~held_out], y[~held_out], args.hidden, args.epochs,
                  args.batch, args.lr, seed)
    def majority(labels):  # the accuracy of always guessing the commoner
        return float(max(np.mean(labels), 1 - np.mean(labels)))

    return {
        "game": game.game_string, "bots": bots, "seed": seed,
        "games": int(len(set(ids.tolist()))), "positions": int(len(y)),
        "held_out_positions": int(held_out.sum()),
        "train_accuracy": accuracy(model, x[~held_out], y[~held_out]),
        "held_out_accuracy": accuracy(model, x[held_out], y[held_out]),
        "leader_accuracy": leader_accuracy(lead[held_out], y[held_out]),
        "majority_accuracy": majority(y[held_out]),
        "train_majority_accuracy": majority(y[~held_out]),
        "seconds_self_play": round(played, 2),
        "seconds_total": round(time.perf_counter() - started, 2),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="cardcassonne(players=2)",
                        help="a two-player game string (default "
                             "cardcassonne(players=2); or catan_cards, whose "
                             "tensor is ten times larger)")
    # random play: greedy against greedy is no test of a value network, for
    # in cardcassonne(players=2) the second seat wins every such game, and
    # the net needs only to see which seat it is
    parser.add_argument("--bots", default="random",
                        help="a bot spec, or two separated by a comma")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--stride", type=int, default=4,
                        help="keep every stride-th decision of a game")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--seeds", default="1",
                        help="comma-separated; with several, medians too")
    parser.add_argument("--quick", action="store_true",
                        help="a seconds-long run: 30 games, every 8th "
                             "decision, 5 epochs, 32 hidden units")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per seed (and the medians)")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.epochs, args.stride, args.hidden = 30, 5, 8, 32
    torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))
    results = [run(args, int(seed)) for seed in args.seeds.split(",")]
    keys = ("train_accuracy", "held_out_accuracy", "leader_accuracy",
            "majority_accuracy")
    for result in results:
        if args.json:
            print(json.dumps(result))
        else:
            print("%s, bots %s, seed %d: %d games, %d positions (%d held out); "
                  "self-play %.1f s, total %.1f s"
                  % (result["game"], ",".join(result["bots"]), result["seed"],
                     result["games"], result["positions"],
                     result["held_out_positions"], result["seconds_self_play"],
                     result["seconds_total"]))
            print("  value net: train %.3f, held out %.3f | baselines on the "
                  "held-out set: score leader %.3f, majority class %.3f"
                  % tuple(result[k] for k in keys))
    if len(results) > 1:
        medians = {k: statistics.median(r[k] for r in results) for k in keys}
        if args.json:
            print(json.dumps({"medians": medians}))
        else:
            print("medians over %d seeds: value net held out %.3f, score "
                  "leader %.3f, majority %.3f"
                  % (len(results), medians["held_out_accuracy"],
                     medians["leader_accuracy"], medians["majority_accuracy"]))


if __name__ == "__main__":
    main()

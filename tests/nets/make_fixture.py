#!/usr/bin/python3
"""Make tests/nets/: small nets of each game and PyTorch's outputs for a few
recorded inputs, which tests/test_net.c checks the C forward pass against
(to 1e-5) without torch at test time.

    TAFEL_LIB=build/libtafel.so /usr/bin/python3 tests/nets/make_fixture.py

For each game, <game>.tfnet (nets/model.py's writer) and <game>.json:
{"game", "net", "inputs": [[[index, value], ...] per input: the nonzero
entries of an observation tensor], "values": [[...] per input: the value
softmax], "logits": [[...]] (only when the net has a policy)}.  The nets
are seeded, untrained (what is tested is that C computes what torch does,
not what the net knows), but their standardisation is set from the inputs'
own spread, so that the folding of it into the first layer is tested too.
The inputs are the seat to move's tensors in random games (tafel.Rng).
Small on purpose: each game's files stay under some 40 kB.  Needs numpy and
torch (Debian's python3-numpy, python3-torch).
"""
import json
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "nets"))
import tafel  # noqa: E402
from model import TafelNet, round_to_half, write  # noqa: E402

# (game string, net shape, float16?, policy?): one of each path of
# src/nn/net.c -- float32 and float16 weights, a policy head, the
# convolutions and the squeeze -- within the size the fixture may have.
NETS = [
    ("cardcassonne(players=2)", dict(hidden=(8,)), False, True),
    ("catan_cards", dict(hidden=(2,)), True, False),
    ("carcassonne(players=2)", dict(planes=18, board=27, convs=(4,), squeeze=2, hidden=(4,)),
     True, False),
]
INPUTS = 3


def positions(game, count, seed):
    """count observation tensors of the seat to move, from random games."""
    rng = tafel.Rng(seed)
    out, state = [], game.new_state()
    while len(out) < count:
        if state.is_terminal():
            state = game.new_state()
        if state.is_chance():
            state.apply(state.sample_chance(rng))
            continue
        if rng.below(4) == 0:  # positions spread over the game
            out.append(np.array(state.observation_tensor(), np.float32).reshape(-1))
        state.apply(rng.choice(state.legal_actions()))
    return np.stack(out)


def make(game_string, shape, half, policy, seed=1):
    torch.manual_seed(seed)
    game = tafel.load(game_string)
    size = game.observation_tensor_size
    model = TafelNet(size, game.num_players, game.action_space_size if policy else 0, **shape)
    x = positions(game, 40, seed)
    dense = x[:, model.planes * model.board * model.board:]
    with torch.no_grad():
        model.mean.copy_(torch.from_numpy(dense.mean(0)))
        spread = dense.std(0)
        model.scale.copy_(torch.from_numpy(
            np.where(spread > 1, 1 / np.maximum(spread, 1), 1.0).astype(np.float32)))
    model.eval()
    if half:
        round_to_half(model)
    name = game.name
    write(model, os.path.join(HERE, name + ".tfnet"), name, "observation", half=half)
    rows = x[::len(x) // INPUTS][:INPUTS]
    with torch.no_grad():
        v, logits = model(torch.from_numpy(rows))
    doc = {"game": game_string, "net": name + ".tfnet",
           "inputs": [[[int(i), float(r[i])] for i in np.flatnonzero(r)] for r in rows],
           "values": torch.softmax(v, 1).tolist()}
    if logits is not None:
        doc["logits"] = logits.tolist()
    with open(os.path.join(HERE, name + ".json"), "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    # the same check here, through the C library, before anything is kept
    net = tafel.Net(game, os.path.join(HERE, name + ".tfnet"))
    cv, cl = net.forward(rows)
    worst = float(np.abs(cv - np.array(doc["values"])).max())
    if logits is not None:
        worst = max(worst, float(np.abs(cl - logits.numpy()).max()))
    print("%s: %d inputs, C against torch %.2g" % (name, len(rows), worst))
    if not worst <= 1e-5:
        raise SystemExit("make_fixture: %s: C and torch differ by %g" % (name, worst))


def main():
    torch.set_num_threads(1)
    for game_string, shape, half, policy in NETS:
        make(game_string, shape, half, policy)


if __name__ == "__main__":
    main()

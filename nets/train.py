#!/usr/bin/python3
"""Train a value and policy net for one game from `tafel selfplay` shards,
report how good it is, and write its weights file (docs/nets.md).

    nets/train.py cardcassonne DATA/run-* --out nets/cardcassonne.tfnet

Seeded: the same shards, seed and options give the same weights on the same
machine (torch on CPU, threads set).  Held out: the last tenth of the games
(whole games, so no position of a held-out game is trained on).  Reported,
on the held-out games: the value's log loss and its calibration (predicted
win chance in ten bins against the share actually won, and the expected
calibration error), next to the log loss of always predicting the training
games' share of wins, and the policy's cross-entropy against the
search's visit shares and how often its top move is the search's.  Needs
numpy and torch (Debian: python3-numpy, python3-torch).
"""
import argparse
import copy
import json
import math
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.path.insert(0, HERE)
import tafel  # noqa: E402
import tafel.shards  # noqa: E402
from model import TafelNet, round_to_half, write  # noqa: E402

# The shape of each game's net: an MLP for the card games, a small
# convolutional net on the board planes for Carcassonne (16 + players planes
# of 27 x 27, docs/tensors-carcassonne.md).  Chosen for speed at play time
# (docs/nets.md gives the cost of an evaluation).
SHAPES = {
    "cardcassonne": dict(hidden=(256, 128)),
    "catan_cards": dict(hidden=(256, 128)),
    "carcassonne": dict(convs=(16, 16), squeeze=4, board=27, hidden=(128,)),
}


def load_runs(folders, max_samples):
    """Every sample of the runs: obs, mask, policy (dense), value target
    (each seat's share of the win, the observer first), game id, margin."""
    obs, mask, policy, target, games, margin, search, meta = [], [], [], [], [], [], [], None
    offset = 0
    for folder in folders:
        data = tafel.shards.load(folder)
        if meta is None:
            meta = data.manifest
        elif data.manifest["game"] != meta["game"] or data.manifest["kind"] != meta["kind"]:
            raise SystemExit("train: %s is a run of another game or tensor" % folder)
        rows = np.arange(len(data))
        for start in range(0, len(rows), 4096):
            b = data.batch(rows[start:start + 4096])
            obs.append(np.asarray(b["obs"], np.float32).reshape(len(b["seat"]), -1))
            mask.append(b["mask"])
            policy.append(b["policy"])
            games.append(np.asarray(b["game"], np.int64) + offset)
            margin.append(np.asarray(b["margin"], np.float32))
            target.append(np.asarray(b["outcome"], np.float32))
            search.append(np.asarray(b["search_value"], np.float32))
        offset = int(np.concatenate(games).max()) + 1
        if sum(len(o) for o in obs) >= max_samples:
            break
    out = dict(obs=np.concatenate(obs), mask=np.concatenate(mask),
               policy=np.concatenate(policy), outcome=np.concatenate(target),
               game=np.concatenate(games), margin=np.concatenate(margin),
               search=np.concatenate(search))
    return {k: v[:max_samples] for k, v in out.items()}, meta


def value_targets(outcome, search, players, weight):
    """Each seat's share of the win, the observer first.  The observer's:
    weight times the search's estimate of the position (its win chance
    over its moves, from the shards) plus the rest from the game's outcome,
    as AlphaZero's successors mix q and z: a game's outcome alone is one
    noisy draw for all its positions, and a net fed only that learns which
    game it is in.  The rest spread evenly over the others (two players:
    exact; more: the observer's share is what the search reads)."""
    mine = np.where(outcome > 0, 1.0, np.where(outcome < 0, 0.0, 1.0 / players))
    mine = np.where(search >= 0, weight * search + (1 - weight) * mine, mine)
    t = np.repeat(((1 - mine) / max(players - 1, 1))[:, None], players, 1)
    t[:, 0] = mine
    return t.astype(np.float32)


def calibration(p, won, bins=10):
    """[(low, high, count, mean predicted, share won)] and the expected
    calibration error."""
    table, ece = [], 0.0
    for k in range(bins):
        lo, hi = k / bins, (k + 1) / bins
        sel = (p >= lo) & ((p < hi) if k < bins - 1 else (p <= hi))
        if sel.sum() == 0:
            continue
        table.append((lo, hi, int(sel.sum()), float(p[sel].mean()), float(won[sel].mean())))
        ece += sel.sum() / len(p) * abs(p[sel].mean() - won[sel].mean())
    return table, float(ece)


def log_loss(p, won):
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-(won * np.log(p) + (1 - won) * np.log(1 - p)).mean())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game", help="carcassonne, cardcassonne or catan_cards")
    ap.add_argument("runs", nargs="+", help="folders of tafel selfplay runs")
    ap.add_argument("--out", required=True, help="the weights file to write")
    ap.add_argument("--report", help="write the report as JSON here too")
    ap.add_argument("--record", help="write a few held-out inputs and torch's outputs for "
                    "them here (.npz: inputs, values, logits), to check the file against")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--minutes", type=float, default=20, help="training time at most")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--max-samples", type=int, default=2_000_000)
    ap.add_argument("--hidden", help="widths of the dense layers, e.g. 256,128")
    ap.add_argument("--no-policy", action="store_true", help="a value net alone")
    ap.add_argument("--search-weight", type=float, default=0.75,
                    help="share of the value target from the search's estimate (0..1)")
    ap.add_argument("--policy-target", choices=("choice", "visits"), default="choice",
                    help="learn the search's choice (default: visit shares of a short "
                    "search are nearly even) or its visit shares")
    ap.add_argument("--weight-decay", type=float, default=1e-4)
    ap.add_argument("--float32", action="store_true",
                    help="store weights as float32 (default float16: half the file)")
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    torch.set_num_threads(args.threads)
    started = time.time()
    data, meta = load_runs(args.runs, args.max_samples)
    game = tafel.load(meta["game"])
    if game.name != args.game:
        raise SystemExit("train: the runs are of %s, not %s" % (game.name, args.game))
    players, space = game.num_players, game.action_space_size
    n = len(data["obs"])
    games = np.unique(data["game"])
    held = set(games[int(len(games) * 0.9):].tolist())
    checked = set(games[int(len(games) * 0.8):int(len(games) * 0.9)].tolist())
    test = np.array([g in held for g in data["game"]])
    valid = np.array([g in checked for g in data["game"]])
    train = ~test & ~valid
    print("train: %d samples of %d games (%d held out, %d samples), loaded in %.0f s"
          % (n, len(games), len(held), int(test.sum()), time.time() - started), file=sys.stderr)

    shape = dict(SHAPES[args.game])
    if args.hidden:
        shape["hidden"] = tuple(int(h) for h in args.hidden.split(","))
    planes = 16 + players if "convs" in shape else 0
    model = TafelNet(data["obs"].shape[1], players, 0 if args.no_policy else space,
                     planes=planes, **shape)
    dense_from = planes * model.board * model.board if planes else 0
    dense = data["obs"][train][:, dense_from:]
    model.mean.copy_(torch.from_numpy(dense.mean(0)))
    # counts and scores are brought to a spread of 1; a 0/1 feature stays as
    # it is (dividing a rare one by its small spread makes it huge)
    spread = dense.std(0)
    model.scale.copy_(torch.from_numpy(np.where(spread > 1, 1 / np.maximum(spread, 1),
                                                1.0).astype(np.float32)))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)

    X = torch.from_numpy(data["obs"])
    M = torch.from_numpy(data["mask"])
    policy = data["policy"]
    if args.policy_target == "choice":
        # one-hot in place: np.eye(space) is a square of the action space
        # (1 GB for Carcassonne's 16,050 actions) and indexing it a copy
        choice = policy.argmax(1)
        policy[:] = 0
        policy[np.arange(len(policy)), choice] = 1
    P = torch.from_numpy(policy)
    V = torch.from_numpy(value_targets(data["outcome"], data["search"], players,
                                       args.search_weight))
    train_rows = np.flatnonzero(train)
    test_rows = torch.from_numpy(np.flatnonzero(test))
    valid_rows = torch.from_numpy(np.flatnonzero(valid))
    best = (math.inf, None, 0)

    def losses(rows):
        v, logits = model(X[rows])
        value_loss = -(V[rows] * F.log_softmax(v, 1)).sum(1).mean()
        if logits is None:
            return value_loss, torch.zeros(())
        logits = logits.masked_fill(~M[rows], -1e9)
        policy_loss = -(P[rows] * F.log_softmax(logits, 1)).sum(1).mean()
        return value_loss, policy_loss

    deadline = started + args.minutes * 60
    for epoch in range(args.epochs):
        model.train()
        order = np.random.permutation(train_rows)
        total = [0.0, 0.0]
        for start in range(0, len(order), args.batch):
            rows = torch.from_numpy(order[start:start + args.batch])
            vl, pl = losses(rows)
            opt.zero_grad()
            (vl + pl).backward()
            opt.step()
            total[0] += vl.item() * len(rows)
            total[1] += pl.item() * len(rows)
        model.eval()
        with torch.no_grad():
            tv, tp = losses(valid_rows)
        print("epoch %d: train value %.4f policy %.4f, validation value %.4f policy %.4f "
              "(%.0f s)" % (epoch + 1, total[0] / len(order), total[1] / len(order), tv.item(),
                            tp.item(), time.time() - started), file=sys.stderr)
        if tv.item() + tp.item() < best[0]:  # early stopping: the best on validation
            best = (tv.item() + tp.item(), copy.deepcopy(model.state_dict()), epoch + 1)
        if time.time() > deadline:
            break
    if best[1] is not None:  # None: no validation games (a tiny run): the last epoch
        model.load_state_dict(best[1])

    model.eval()
    if not args.float32:
        round_to_half(model)  # what is reported is the net the file holds
    with torch.no_grad():
        v, logits = model(X[test_rows])
        p = torch.softmax(v, 1)[:, 0].numpy()
    won = (data["outcome"][test] > 0).astype(np.float64)
    table, ece = calibration(p, won)
    report = {
        "game": meta["game"], "bots": meta.get("bots"), "samples": n, "games": len(games),
        "held_out_games": len(held), "held_out_samples": int(test.sum()),
        "epochs": epoch + 1, "best_epoch": best[2], "seconds": round(time.time() - started),
        "value_log_loss": log_loss(p, won),
        "base_rate_log_loss": log_loss(np.full(len(won), (data["outcome"][train] > 0).mean()),
                                       won),
        "value_accuracy": float(((p > 0.5) == (won > 0.5)).mean()),
        "search_log_loss": (log_loss(data["search"][test][data["search"][test] >= 0],
                                     won[data["search"][test] >= 0])
                            if (data["search"][test] >= 0).any() else None),
        "calibration": table, "ece": ece, "shape": shape,
    }
    if logits is not None:
        masked = logits.masked_fill(~M[test_rows], -1e9)
        report["policy_cross_entropy"] = float(
            -(P[test_rows] * F.log_softmax(masked, 1)).sum(1).mean())
        report["policy_top1"] = float(
            (masked.argmax(1) == P[test_rows].argmax(1)).float().mean())
        report["uniform_cross_entropy"] = float(
            (P[test_rows] * torch.log(M[test_rows].sum(1, keepdim=True).float())).sum(1).mean())
    write(model, args.out, game.name, meta["kind"], half=not args.float32)
    report["weights_bytes"] = os.path.getsize(args.out)
    text = json.dumps(report, indent=1)
    print(text)
    if args.report:
        with open(args.report, "w") as f:
            f.write(text + "\n")
    # the C net must give what torch gives: a few held-out rows, checked here
    net = tafel.Net(game, args.out)
    rows = test_rows[:64]
    with torch.no_grad():
        tv, tl = model(X[rows])
    cv, cl = net.forward(X[rows].numpy())
    worst = float(np.abs(cv - torch.softmax(tv, 1).numpy()).max())
    if tl is not None:
        worst = max(worst, float(np.abs(cl - tl.numpy()).max()))
    print("train: the C forward pass differs from torch by %.2g at most" % worst,
          file=sys.stderr)
    if args.record:
        kept = len(rows[:4])
        np.savez(args.record, inputs=X[rows[:4]].numpy(),
                 values=torch.softmax(tv[:4], 1).numpy(),
                 logits=tl[:4].numpy() if tl is not None else np.zeros((kept, 0), np.float32))
    if not math.isfinite(worst) or worst > 1e-5:
        raise SystemExit("train: the C net does not match torch (%.3g)" % worst)


if __name__ == "__main__":
    main()

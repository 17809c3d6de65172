#!/usr/bin/env python3
"""ladder.py -- an Elo ladder of tafel's bots: a round robin of paired matches, fitted.

Every pair of the given bots plays `tafel sim GAME --players A,B --paired --games N --seed S
--json --out RECORDS` (each deal twice, seats swapped, the same chance seed; every pair plays
the same deals).  Each pair's records and report are kept in the output directory, so a run
that was cut off goes on where it stopped (`tafel sim --resume`), a pair already played is not
played again, a bot added later plays only its own pairs, and a larger --games adds games to
the pairs that have fewer.

The ratings are the maximum likelihood fit of the Bradley-Terry model on the logistic Elo
scale: bot i scores against bot j with probability 1 / (1 + 10^((r_j - r_i) / 400)) a game, a
shared win (a draw) counting as half a win.  Each pair gets --prior virtual games (default 1),
half won by each side, so that a bot that won, or lost, every game has a finite rating; its
distance to the others then rests on the prior and says only "at least this far".  The
ratings are anchored: the --anchor bot (default random) is 0.  The 95% intervals are a
bootstrap over deals (the independent units: a paired deal's two games share their luck):
each pair's deals are drawn again with replacement, the ratings refitted, --bootstrap times
(default 1000, seeded), and the 2.5% and 97.5% points of each bot's rating are its interval.

A bot is a spec of `tafel sim --players` (`hard`, `mcts:iters=300`) or NAME@Xs, X seconds a
move (`hard@0.5s` is `hard:ms=500`: a search of that long a move).  A bot whose name the
program does not know (`tafel list`) is left out with a message on stderr, so that a list
naming a bot still to come (`expert`) runs with the bots there are.

A full round robin of costly bots may not fit the time there is: --cap BOT=N gives the pairs
with BOT at most N games, --reach K has each bot play only the K listed just before it (so
list the bots weakest first); the fit needs only that every bot is joined to the anchor.

    scripts/ladder.py carcassonne --bots random,greedy,easy --games 20 --jobs 2
    scripts/ladder.py catan_cards --fit-only --json     # the fit of what is played so far

Progress goes to stderr; the markdown tables (or with --json one JSON object) to stdout.
Python 3 standard library only.
"""

import argparse
import concurrent.futures
import json
import math
import os
import random
import re
import subprocess
import sys
import time

DEFAULT_BOTS = ("random,greedy,easy,medium,hard,expert,"
                "hard@0.1s,hard@0.5s,hard@2s,expert@0.1s,expert@0.5s,expert@2s")
ELO = 400.0 / math.log(10.0)     # Elo points per unit of the natural logistic scale


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Bots

def parse_bot(item):
    """(label, spec) of one --bots item: NAME@Xs is NAME:ms=X*1000, labelled as given."""
    m = re.fullmatch(r"([A-Za-z_][\w-]*)@(\d+(?:\.\d+)?)s", item)
    if m:
        ms = round(float(m.group(2)) * 1000)
        if ms < 1:
            raise ValueError(f"{item}: under a millisecond a move")
        return item, f"{m.group(1)}:ms={ms}"
    m = re.fullmatch(r"([A-Za-z_][\w-]*):ms=(\d+)", item)
    if m and int(m.group(2)) > 0:
        # hard:ms=500 reads as hard@0.5s in the table.
        secs = f"{int(m.group(2)) / 1000:g}"
        return f"{m.group(1)}@{secs}s", item
    return item, item


def known_bots(tafel):
    """The bot names `tafel list` lists (its "Bots:" section), and ext."""
    out = subprocess.run([tafel, "list"], capture_output=True, text=True, check=True).stdout
    names, in_bots = {"ext"}, False
    for line in out.splitlines():
        if line.strip() == "Bots:":
            in_bots = True
        elif in_bots and re.match(r"^\s+\S", line):
            names.add(line.split()[0])
        elif in_bots and line.strip():
            in_bots = False
    return names


def file_name(label):
    return re.sub(r"[^A-Za-z0-9@._+-]", "_", label)


# ---------------------------------------------------------------------------------------------
# Playing the pairs

class Pair:
    """Two bots' match: its records (one JSON line a game) and report in the directory."""

    def __init__(self, directory, a, b):
        # The order of a pair is that of its labels, whatever the order of --bots, so that a
        # pair is the same files in every run.
        (self.a, self.spec_a), (self.b, self.spec_b) = sorted([a, b])
        stem = os.path.join(directory, f"{file_name(self.a)}--{file_name(self.b)}")
        self.records, self.report = stem + ".jsonl", stem + ".json"

    def deals(self, limit=None):
        """A's points in each whole deal of the records (0, 0.5, ... 2), at most limit deals.

        Game i seats bot (k+i) mod 2 at seat k (tafel sim --help), so A sits at seat 0 in the
        even games and at seat 1 in the odd ones; a deal is games 2d and 2d+1, the same seed.
        """
        if not os.path.exists(self.records):
            return []
        games = []
        with open(self.records) as f:
            for line in f:
                try:
                    games.append(json.loads(line))
                except json.JSONDecodeError:
                    break               # a line cut by a crash; tafel sim --resume drops it
        out = []
        for d in range(len(games) // 2):
            g0, g1 = games[2 * d], games[2 * d + 1]
            if g0["seed"] != g1["seed"]:
                raise ValueError(f"{self.records}: games {2 * d} and {2 * d + 1} "
                                 "are not one deal")
            pts = 0.0
            for g, seat in ((g0, 0), (g1, 1)):
                if seat in g["winners"]:
                    pts += 1.0 / len(g["winners"])
            out.append(pts)
            if limit is not None and len(out) >= limit:
                break
        return out

    def play(self, tafel, game, games, seed):
        """Plays the pair up to games games (going on from its records); seconds taken."""
        cmd = [tafel, "sim", game, "--players", f"{self.spec_a},{self.spec_b}", "--paired",
               "--games", str(games), "--seed", str(seed), "--json", "--progress", "0",
               "--out", self.records]
        if os.path.exists(self.records):
            cmd.append("--resume")
        t0 = time.monotonic()
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed ({run.returncode}):\n{run.stderr}")
        with open(self.report + ".tmp", "w") as f:
            f.write(run.stdout)
        os.replace(self.report + ".tmp", self.report)
        return time.monotonic() - t0


def play_all(args, pairs, wanted):
    todo = [p for p in pairs if len(p.deals()) < wanted[p] // 2]
    log(f"ladder: {args.game}: {len(pairs)} pairs, {len(pairs) - len(todo)} played already, "
        f"{len(todo)} to play over {args.jobs} job(s)")
    t0, done = time.monotonic(), 0

    def one(p):
        have = 2 * len(p.deals())
        log(f"ladder: {p.a} vs {p.b}: {wanted[p]} games"
            + (f" ({have} played before)" if have else "") + " ...")
        return p, p.play(args.tafel, args.game, wanted[p], args.seed)

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for fut in concurrent.futures.as_completed([pool.submit(one, p) for p in todo]):
            p, secs = fut.result()
            done += 1
            d = p.deals()
            log(f"ladder: [{done}/{len(todo)}] {p.a} vs {p.b}: {p.a} scored "
                f"{sum(d):g} of {2 * len(d)} in {secs:.0f} s "
                f"({time.monotonic() - t0:.0f} s in all)")


# ---------------------------------------------------------------------------------------------
# The fit

def solve(m, v):
    """x with m x = v, by Gaussian elimination with partial pivoting (m small and regular)."""
    n = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(m)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        for r in range(c + 1, n):
            f = a[r][c] / a[c][c]
            if f:
                for k in range(c, n + 1):
                    a[r][k] -= f * a[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][k] * x[k] for k in range(r + 1, n))) / a[r][r]
    return x


def fit(k, results, anchor=0, prior=1.0):
    """Elo ratings of k bots from results [(i, j, games, points of i)], bot anchor at 0.

    Maximum likelihood of the Bradley-Terry model, by Newton's method on the log-likelihood
    (concave; with prior > 0 strictly, so the maximum is finite and unique when every bot
    is joined to the anchor by pairs played).  Each pair gets prior virtual games, half won
    by each.
    """
    data = [(i, j, n + prior, s + prior / 2) for i, j, n, s in results if n + prior > 0]
    free = [b for b in range(k) if b != anchor]
    x = [0.0] * k

    def loglik(x):
        t = 0.0
        for i, j, n, s in data:
            d = x[i] - x[j]
            # log p = -log(1 + e^-d), log(1 - p) = -log(1 + e^d), computed stably.
            t -= s * softplus(-d) + (n - s) * softplus(d)
        return t

    cur = loglik(x)
    for _ in range(100):
        grad, hess = [0.0] * k, [[0.0] * k for _ in range(k)]
        for i, j, n, s in data:
            p = 1.0 / (1.0 + math.exp(-(x[i] - x[j])))
            g, w = s - n * p, n * p * (1.0 - p)
            grad[i] += g
            grad[j] -= g
            hess[i][i] += w
            hess[j][j] += w
            hess[i][j] -= w
            hess[j][i] -= w
        step = solve([[hess[r][c] for c in free] for r in free], [grad[r] for r in free])
        t = 1.0
        while True:             # halve the step until the likelihood does not fall
            y = x[:]
            for b, dx in zip(free, step):
                y[b] += t * dx
            new = loglik(y)
            if new >= cur - 1e-12 or t < 1e-6:
                break
            t /= 2
        x, gain, cur = y, new - cur, new
        if max(abs(t * dx) for dx in step) < 1e-9 or (0 <= gain < 1e-13):
            break
    return [v * ELO for v in x]


def softplus(z):
    return z + math.log1p(math.exp(-z)) if z > 0 else math.log1p(math.exp(z))


def bootstrap(k, deals, anchor, prior, rounds, seed):
    """Each bot's 95% interval: the pairs' deals drawn again with replacement, refitted."""
    rng = random.Random(seed)
    samples = [[] for _ in range(k)]
    for _ in range(rounds):
        res = []
        for (i, j), d in deals.items():
            if d:
                res.append((i, j, 2 * len(d), sum(rng.choices(d, k=len(d)))))
        for b, r in enumerate(fit(k, res, anchor, prior)):
            samples[b].append(r)
    out = []
    for s in samples:
        s.sort()
        out.append((quantile(s, 0.025), quantile(s, 0.975)))
    return out


def quantile(sorted_values, q):
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


# ---------------------------------------------------------------------------------------------
# The report

def ladder(args, bots, pairs, wanted):
    index = {label: n for n, (label, _) in enumerate(bots)}
    deals = {}
    for p in pairs:
        d = p.deals(wanted[p] // 2)
        if d:
            deals[(index[p.a], index[p.b])] = d
    k, anchor = len(bots), index[args.anchor]
    results = [(i, j, 2 * len(d), sum(d)) for (i, j), d in deals.items()]
    # A bot with no game can be given no rating: say so rather than print the prior's guess.
    played = [0] * k
    points = [0.0] * k
    for i, j, n, s in results:
        played[i] += n
        played[j] += n
        points[i] += s
        points[j] += n - s
    # Only the bots with games are fitted (one without has no likelihood to rate it).
    live = [b for b in range(k) if played[b]]
    if anchor not in live:
        raise SystemExit(f"ladder: the anchor {args.anchor} has played no game yet")
    at = {b: n for n, b in enumerate(live)}
    sub = {(at[i], at[j]): d for (i, j), d in deals.items()}
    e = fit(len(live), [(at[i], at[j], n, s) for i, j, n, s in results], at[anchor], args.prior)
    c = bootstrap(len(live), sub, at[anchor], args.prior, args.bootstrap, args.seed)
    elo, ci = [0.0] * k, [(0.0, 0.0)] * k
    for b in live:
        elo[b], ci[b] = e[at[b]], c[at[b]]
    rows = []
    for b, (label, spec) in enumerate(bots):
        rows.append({"bot": label, "spec": spec, "elo": elo[b], "lo": ci[b][0], "hi": ci[b][1],
                     "games": played[b], "points": points[b],
                     "swept": played[b] > 0 and points[b] in (0, played[b])})
    order = sorted(range(k), key=lambda b: -elo[b])
    matrix = []
    for (i, j), d in sorted(deals.items()):
        matrix.append({"a": bots[i][0], "b": bots[j][0], "games": 2 * len(d),
                       "a_points": sum(d)})
    return {"game": args.game, "seed": args.seed, "anchor": args.anchor, "prior": args.prior,
            "bootstrap": args.bootstrap, "order": [bots[b][0] for b in order],
            "bots": [rows[b] for b in order if played[b]],
            "unplayed": [bots[b][0] for b in order if not played[b]],
            "pairs": matrix}


def markdown(rep):
    lines = [f"| rank | bot | Elo | 95% interval | games |", "|---:|---|---:|---|---:|"]
    for n, r in enumerate(rep["bots"], 1):
        note = " ¹" if r["swept"] else ""
        lines.append(f"| {n} | `{r['bot']}`{note} | {round(r['elo'])} | "
                     f"[{round(r['lo'])}, {round(r['hi'])}] | {r['games']} |")
    if any(r["swept"] for r in rep["bots"]):
        lines.append("")
        lines.append("¹ won (or lost) every game it played: its distance to the others rests "
                     "on the prior,\na bound rather than a measure.")
    if rep["unplayed"]:
        lines.append("")
        lines.append("Not yet played: " + ", ".join(f"`{b}`" for b in rep["unplayed"]) + ".")
    names = [r["bot"] for r in rep["bots"]]
    cell = {}
    for p in rep["pairs"]:
        cell[(p["a"], p["b"])] = (p["a_points"], p["games"])
        cell[(p["b"], p["a"])] = (p["games"] - p["a_points"], p["games"])
    lines += ["", "Score of the row's bot against the column's (games in brackets):", ""]
    lines.append("| | " + " | ".join(f"`{b}`" for b in names) + " |")
    lines.append("|---|" + "---:|" * len(names))
    for a in names:
        out = []
        for b in names:
            if a == b or (a, b) not in cell:
                out.append("")
            else:
                s, n = cell[(a, b)]
                out.append(f"{100 * s / n:.0f}% ({n})")
        lines.append(f"| `{a}` | " + " | ".join(out) + " |")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------

def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(
        description=__doc__.split(" -- ", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="docs/bots.md (\"Elo ladder\") has the ladders played and how.")
    ap.add_argument("game", help="a game of `tafel list`, with parameters if any "
                    "(two players: the ladder is of pairs)")
    ap.add_argument("--bots", default=DEFAULT_BOTS,
                    help="comma-separated bots, NAME@Xs for X seconds a move "
                    f"(default {DEFAULT_BOTS}); bots the program does not know are left out")
    ap.add_argument("--games", type=int, default=40,
                    help="games a pair, even: deals of two (default 40)")
    ap.add_argument("--cap", action="append", default=[], metavar="BOT=N",
                    help="a pair with BOT plays at most N games (repeatable), for costly bots")
    ap.add_argument("--reach", action="append", default=[], metavar="[BOT=]K",
                    help="each bot (or BOT) plays only the K bots before it in the list (list "
                    "them weakest first); 0, the default: every pair, a full round robin")
    ap.add_argument("--seed", type=int, default=2026, help="tafel sim's seed, and the "
                    "bootstrap's (default 2026)")
    ap.add_argument("--jobs", type=int, default=1, help="pairs played at once (default 1)")
    ap.add_argument("--dir", help="where the pairs' records are kept "
                    "(default build/ladder/GAME)")
    ap.add_argument("--tafel", default=os.path.join(here, "..", "build", "tafel"),
                    help="the tafel program (default build/tafel)")
    ap.add_argument("--anchor", default="random", help="the bot rated 0 (default random)")
    ap.add_argument("--prior", type=float, default=1.0,
                    help="virtual games a pair, half won each (default 1)")
    ap.add_argument("--bootstrap", type=int, default=1000,
                    help="bootstrap rounds for the intervals (default 1000)")
    ap.add_argument("--fit-only", action="store_true",
                    help="play nothing: fit what the directory holds")
    ap.add_argument("--json", action="store_true", help="print the ladder as one JSON object")
    args = ap.parse_args(argv)

    if args.games < 2 or args.games % 2:
        ap.error("--games must be even and at least 2 (paired deals of two games)")
    known = known_bots(args.tafel)
    bots, seen = [], set()
    for item in filter(None, (s.strip() for s in args.bots.split(","))):
        label, spec = parse_bot(item)
        base = re.split(r"[:@]", spec)[0]
        if base not in known:
            log(f"ladder: leaving out {label}: {args.tafel} knows no bot '{base}'")
        elif label not in seen:
            seen.add(label)
            bots.append((label, spec))
    labels = [b[0] for b in bots]
    if args.anchor not in labels:
        ap.error(f"the anchor {args.anchor} is not among the bots ({', '.join(labels)})")
    if len(bots) < 2:
        ap.error("a ladder needs two bots at least")
    caps = {}
    for c in args.cap:
        name, _, n = c.rpartition("=")
        if name not in labels or not n.isdigit() or int(n) < 2 or int(n) % 2:
            ap.error(f"--cap {c}: BOT=N with BOT among the bots and N even")
        caps[name] = int(n)

    reach = {}
    for r in args.reach:
        name, _, n = r.rpartition("=")
        if (name and name not in labels) or not n.isdigit():
            ap.error(f"--reach {r}: K or BOT=K with BOT among the bots")
        reach[name or None] = int(n)

    directory = args.dir or os.path.join(here, "..", "build", "ladder", file_name(args.game))
    os.makedirs(directory, exist_ok=True)
    # Pairs in the order of the list: each bot against those before it (with --reach, the K
    # nearest of them: a bot far weaker or stronger tells little, and a costly bot's games
    # are better spent on its neighbours), so a run cut short has the bots early in the list
    # complete.
    pairs, wanted = [], {}
    for j in range(len(bots)):
        k = reach.get(bots[j][0], reach.get(None, 0))
        for i in range(max(0, j - k) if k > 0 else 0, j):
            p = Pair(directory, bots[i], bots[j])
            pairs.append(p)
            wanted[p] = min([args.games] + [caps[b] for b in (p.a, p.b) if b in caps])
    if not args.fit_only:
        play_all(args, pairs, wanted)
    rep = ladder(args, bots, pairs, wanted)
    rep["games_per_pair"] = args.games
    rep["caps"] = caps
    if args.json:
        print(json.dumps(rep, indent=1))
    else:
        print(markdown(rep))
    return 0


if __name__ == "__main__":
    sys.exit(main())

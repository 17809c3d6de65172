#!/usr/bin/env python3
"""ladder_test.py -- scripts/ladder.py: the Elo fit, its intervals, and a tiny ladder run.

The fit is checked on synthetic results from known ratings (exact expectations, which the
maximum likelihood must give back exactly, and games drawn at random, which it must give back
within a few standard errors); then a ladder of random, greedy and easy in Cardcassonne, four
games a pair, is played through a wrapper of tafel that logs every `sim` it is asked for: the
fit agrees with the pairs' scores, the anchor is 0, each interval holds its estimate, a second
run plays nothing, a pair whose records were cut is played on from where they stop (and ends
as before), a bot added plays only its own pairs, and a bot tafel does not know is left out.

    python3 tests/ladder_test.py path/to/tafel
"""

import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "scripts", "ladder.py")
sys.path.insert(0, os.path.dirname(SCRIPT))
import ladder  # noqa: E402

failures = 0


def check(cond, what):
    global failures
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures += 1


def expected(ra, rb):
    return 1.0 / (1.0 + 10 ** ((rb - ra) / 400.0))


def test_fit_exact():
    """Results equal to their expectations: the maximum likelihood is the true ratings."""
    true = [0.0, 200.0, 400.0, 650.0]
    res = [(i, j, 100, 100 * expected(true[i], true[j]))
           for i in range(4) for j in range(i + 1, 4)]
    got = ladder.fit(4, res, anchor=0, prior=0.0)
    check(all(abs(g - t) < 1e-6 for g, t in zip(got, true)),
          f"fit of exact expectations gives back 0/200/400/650: {[round(g, 3) for g in got]}")
    # Anchored elsewhere, the same differences.
    got = ladder.fit(4, res, anchor=2, prior=0.0)
    check(all(abs(g - (t - 400)) < 1e-6 for g, t in zip(got, true)),
          "anchored at the third bot: the same differences, that bot at 0")


def test_fit_sampled():
    """Deals drawn from ratings 0/200/400: estimates within 35 Elo (4.5 times the spread
    of such estimates, 7.5 Elo).

    A fit on another scale (the natural logistic unconverted, or 200 points to the factor 10
    rather than 400) would be off by 100 points or more.
    """
    true = [0.0, 200.0, 400.0]
    rng = random.Random(38)
    deals = {}
    for i in range(3):
        for j in range(i + 1, 3):
            p = expected(true[i], true[j])
            # A deal is two games; one in ten games a shared win (a draw, half a point),
            # the others won so that the expected score is p.
            d = []
            for _ in range(1000):
                pts = 0.0
                for _ in range(2):
                    u = rng.random()
                    pts += 0.5 if u < 0.1 else (1.0 if u < 0.1 + (p - 0.05) else 0.0)
                d.append(pts)
            deals[(i, j)] = d
    res = [(i, j, 2 * len(d), sum(d)) for (i, j), d in deals.items()]
    got = ladder.fit(3, res, anchor=0, prior=1.0)
    check(abs(got[1] - 200) < 35 and abs(got[2] - 400) < 35 and got[0] == 0,
          f"fit of 2000 games a pair from 0/200/400: {[round(g) for g in got]}")
    ci = ladder.bootstrap(3, deals, 0, 1.0, 200, 1)
    check(all(lo <= g <= hi for (lo, hi), g in zip(ci, got)),
          f"the bootstrap intervals hold the estimates: {[tuple(map(round, c)) for c in ci]}")
    # Over 30 such data sets the estimates of 200 and 400 spread with a standard deviation of
    # 7.5 Elo (measured): a 95% interval some 30 wide.  Far narrower or wider is not 95%.
    width = [hi - lo for lo, hi in ci[1:]]
    check(all(20 < w < 45 for w in width),
          f"the intervals are {width[0]:.0f} and {width[1]:.0f} Elo wide (20..45)")


def test_fit_sweep():
    """A bot that lost every game: finite with the prior, farther the more games it lost."""
    few = ladder.fit(2, [(0, 1, 10, 0.0)], anchor=0, prior=1.0)
    many = ladder.fit(2, [(0, 1, 100, 0.0)], anchor=0, prior=1.0)
    check(math.isfinite(few[1]) and 0 < few[1] < many[1],
          f"a sweep: {few[1]:.0f} Elo over 10 games, {many[1]:.0f} over 100")
    # 0.5 of 101 games: -400 log10(0.5/100.5) ~ 921.
    check(abs(many[1] - 400 * math.log10(100.5 / 0.5)) < 1e-6,
          "the sweep's distance is that of half a virtual win")


def run(args, tafel, log):
    r = subprocess.run([sys.executable, SCRIPT, "--tafel", tafel, *args],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stderr)
        raise SystemExit(f"ladder.py {' '.join(args)} failed")
    sims = []
    if os.path.exists(log):
        with open(log) as f:
            sims = [line.split() for line in f]
        os.remove(log)
    return r, sims


def test_ladder(tafel):
    work = tempfile.mkdtemp()
    try:
        log = os.path.join(work, "sims.log")
        wrapper = os.path.join(work, "tafel")
        with open(wrapper, "w") as f:
            f.write(f'#!/bin/sh\n[ "$1" = sim ] && echo "$@" >> {log}\n'
                    f'exec {os.path.abspath(tafel)} "$@"\n')
        os.chmod(wrapper, 0o755)
        out = os.path.join(work, "pairs")
        common = ["cardcassonne", "--games", "4", "--seed", "7", "--dir", out,
                  "--bootstrap", "200", "--json"]
        r, sims = run(common + ["--bots", "random,greedy,easy,nosuchbot"], wrapper, log)
        rep = json.loads(r.stdout)
        check("leaving out nosuchbot" in r.stderr, "a bot tafel does not know is left out, "
              "with a message")
        check(len(sims) == 3 and all("--paired" in s and "--json" in s for s in sims),
              f"three pairs played, paired: {len(sims)} sims")
        bots = {b["bot"]: b for b in rep["bots"]}
        check(sorted(bots) == ["easy", "greedy", "random"], "the three bots are rated")
        check(bots["random"]["elo"] == 0 and bots["random"]["lo"] == 0 ==
              bots["random"]["hi"], "the anchor random is 0, its interval [0, 0]")
        check(all(b["lo"] <= b["elo"] <= b["hi"] for b in rep["bots"]),
              "every interval holds its estimate: "
              + ", ".join(f"{b['bot']} {b['elo']:.0f} [{b['lo']:.0f}, {b['hi']:.0f}]"
                          for b in rep["bots"]))
        check(all(b["games"] == 8 for b in rep["bots"]), "8 games each (two pairs of 4)")
        agree = True
        for p in rep["pairs"]:
            diff = bots[p["a"]]["elo"] - bots[p["b"]]["elo"]
            if p["a_points"] * 2 != p["games"] and (diff > 0) != (p["a_points"] * 2 >
                                                                p["games"]):
                agree = False
        check(agree and len(rep["pairs"]) == 3, "the fit orders each pair as its score does: "
              + ", ".join(f"{p['a']}-{p['b']} {p['a_points']:g}/{p['games']}"
                          for p in rep["pairs"]))

        r2, sims = run(common + ["--bots", "random,greedy,easy"], wrapper, log)
        check(sims == [] and json.loads(r2.stdout)["bots"] == rep["bots"],
              "a second run plays no pair again, and fits the same")

        # Cut a pair's records after its third game, the fourth half written: it is played
        # on from there (--resume), and ends as it was.
        path = os.path.join(out, "easy--greedy.jsonl")
        with open(path) as f:
            lines = f.readlines()
        with open(path, "w") as f:
            f.writelines(lines[:3])
            f.write(lines[3][:40])
        r3, sims = run(common + ["--bots", "random,greedy,easy"], wrapper, log)
        check(len(sims) == 1 and "--resume" in sims[0] and "easy,greedy" in sims[0],
              f"a cut pair alone is played on, with --resume: {sims}")
        with open(path) as f:
            check(f.readlines() == lines, "and its records end as those of the run not cut")
        check(json.loads(r3.stdout)["bots"] == rep["bots"], "and the ladder is the same")

        r4, sims = run(common + ["--bots", "random,greedy,easy,greedy:depth=1"], wrapper, log)
        check(len(sims) == 3 and all("greedy:depth=1" in " ".join(s) for s in sims),
              f"a bot added plays its own three pairs only: {len(sims)} sims")
        check(len(json.loads(r4.stdout)["bots"]) == 4, "and is rated")

        r5, sims = run(["cardcassonne", "--games", "4", "--dir", out, "--fit-only",
                        "--bots", "random,greedy,easy", "--bootstrap", "50"], wrapper, log)
        check(sims == [] and "| rank | bot | Elo | 95% interval | games |" in r5.stdout
              and "`easy` |" in r5.stdout, "the markdown table, from what is played")
    finally:
        shutil.rmtree(work)


def main():
    tafel = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "build", "tafel")
    test_fit_exact()
    test_fit_sampled()
    test_fit_sweep()
    test_ladder(tafel)
    print(f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""results/annex/shelter/README.md, addendum: what the shelter is worth.

Samples sheltered positions of a Sénat games file (the definitions of
experiments/shelter.py) and values each, and its counterfactual (the
sheltered dice unrestricted), for the side to move O by a fixed-depth
minimax of the learned evaluation (`senat bestmove --agent
'ab:depth=D,eval=learned,net=on'`, its score 1000 x O's log-odds, a
proved win or loss within the depth 1 or 0). The
shelter's value to the mover is G = P(counterfactual) - P(position), at
depths 1 and 2. Where the counterfactual's clock had to be moved to 1, the
position is valued at clock 1 too (the restriction alone differs); a
position the rules refuse at clock 1 is left out and counted.

Prints the mean G in points of P(win) with a 95 % interval from bootstrap
resamples of games, the shares of G > 0 and G >= 5 points, and the mean G
where depth 2's counterfactual move is a hidden one. Standard library, the
senat module and the senat binary.

Usage: shelter_value.py GAMES.csv --bin BIN [--sample N] [--seed S] [--resamples R]
"""
import argparse
import csv
import math
import random
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor

import senat

from shelter import shelter

SCORE = re.compile(r"ab: score (-?\d+|win in \d+|loss in \d+|draw), depth (\d+)")


def sheltered_positions(rows):
    """(game, position text, counterfactual text) of every sheltered position."""
    out = []
    for row in rows:
        p = senat.Position.start("senat", "")
        for m in row["draft_moves"].split():
            p = p.play(m)
        for m in row["play_moves"].split():
            p = p.play(m)
            if p.is_over:
                continue
            sheltered, cf, _ = shelter(p.text)
            if sheltered:
                out.append((int(row["game"]), p.text, " ".join(cf)))
    return out


def valid(text):
    try:
        senat.Position("senat", text, "")
        return True
    except senat.Error:
        return False


def at_clock_one(text):
    f = text.split(" ")
    return " ".join(f[:4] + ["1"])


def value(binary, text, depth):
    """(P(win) of the side to move, best move) by ab at `depth`."""
    agent = f"ab:depth={depth},eval=learned,net=on"
    r = subprocess.run([binary, "bestmove", text, "--agent", agent], capture_output=True, text=True, check=True)
    m = SCORE.search(r.stderr)
    assert m, r.stderr
    score = m.group(1)
    # A proof may end the search before the depth asked for.
    assert int(m.group(2)) == depth or not score.lstrip("-").isdigit(), r.stderr
    # A proved result (within the depth) is certain.
    p = 1.0 if score.startswith("win") else 0.0 if score.startswith("loss") else 0.5 if score == "draw" else None
    if p is None:
        p = 1 / (1 + math.exp(-int(score) / 1000))
    return p, r.stdout.strip().splitlines()[-1]


def measure(binary, item):
    """The position's measures, or None if it is left out."""
    game, real, cf = item
    if not valid(cf):
        cf = at_clock_one(cf)
        real = at_clock_one(real)
        if not valid(cf) or not valid(real):
            return None
    hidden = set(senat.Position("senat", cf, "").legal_moves()) - set(senat.Position("senat", real, "").legal_moves())
    out = {"game": game}
    for d in (1, 2):
        (p_real, _), (p_cf, best_cf) = value(binary, real, d), value(binary, cf, d)
        out[f"g{d}"] = p_cf - p_real
        out[f"bind{d}"] = best_cf in hidden
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("games")
    ap.add_argument("--bin", required=True)
    ap.add_argument("--sample", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=6014)
    ap.add_argument("--resamples", type=int, default=2000)
    a = ap.parse_args()
    with open(a.games, newline="") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    every = sheltered_positions(rows)
    rng = random.Random(a.seed)
    sample = rng.sample(every, min(a.sample, len(every)))
    with ThreadPoolExecutor(max_workers=2) as pool:
        got = list(pool.map(lambda it: measure(a.bin, it), sample))
    kept = [g for g in got if g is not None]
    assert all(g["g1"] >= -1e-12 and g["g2"] >= -1e-12 for g in kept), "a minimax value fell with added moves"
    by_game = {}
    for g in kept:
        by_game.setdefault(g["game"], []).append(g)
    groups = list(by_game.values())

    def stats(gs):
        flat = [g for grp in gs for g in grp]
        n = len(flat)
        b2 = [g for g in flat if g["bind2"]]
        return {
            "mean G depth 2 (points)": 100 * sum(g["g2"] for g in flat) / n,
            "mean G depth 1 (points)": 100 * sum(g["g1"] for g in flat) / n,
            "share G2 > 0": sum(g["g2"] > 1e-12 for g in flat) / n,
            "share G2 >= 5 points": sum(g["g2"] >= 0.05 for g in flat) / n,
            "share binding at depth 2": len(b2) / n,
            "mean G2 where binding (points)": 100 * sum(g["g2"] for g in b2) / len(b2) if b2 else float("nan"),
        }

    point = stats(groups)
    boots = {k: [] for k in point}
    brng = random.Random(a.seed)
    for _ in range(a.resamples):
        s = stats([groups[brng.randrange(len(groups))] for _ in groups])
        for k, v in s.items():
            boots[k].append(v)

    def ci(xs):
        xs = sorted(x for x in xs if x == x)
        return xs[int(0.025 * len(xs))], xs[int(0.975 * len(xs)) - 1]

    print(f"{a.games}: {len(rows)} games, {len(every)} sheltered positions, {len(sample)} sampled (seed {a.seed}), "
          f"{len(kept)} valued ({len(sample) - len(kept)} left out), {len(groups)} games among them, "
          f"{a.resamples} bootstrap resamples of games")
    print("measure,value,lo,hi")
    for k, v in point.items():
        lo, hi = ci(boots[k])
        print(f"{k},{v:.4f},{lo:.4f},{hi:.4f}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""results/annex/draft-decides/README.md: how well an evaluation of the
position at the end of the draft predicts a Sénat game's result. For each
game of a games file: the position after its draft (the senat Python
module replays it), blue's win probability there by `senat bestmove
--agent SPEC` (the value it prints, "mean result for the mover"; blue
moves first in play under the rules), and blue's score. Prints, per
predictor, the Brier score, the constant's Brier score and R^2 = 1 -
Brier / Brier(constant) with 95 % bootstrap intervals over games, and a
calibration table in five bins of p. Writes the per-game values to
--out (CSV) if given.

Usage: draft_decides.py GAMES.csv --senat BIN [--agent NAME=SPEC ...] [--out FILE] [--resamples N]
"""
import argparse
import csv
import random
import re
import subprocess

import senat

from senatstats import mean_ci

AGENTS = ["strong=strong", "net1=mcts:playouts=1,rollout=eval,prior=1000,net=on"]
VALUE = re.compile(r"value (\d\.\d+) \(mean result for the mover\)")


def end_of_draft(row):
    p = senat.Position.start("senat", "")
    for m in row["draft_moves"].split():
        p = p.play(m)
    return p


def value(binary, spn, spec):
    out = subprocess.run([binary, "bestmove", spn, "--agent", spec], capture_output=True, text=True, check=True)
    m = VALUE.search(out.stderr)
    if not m:
        raise SystemExit(f"no value in bestmove's account for {spn}: {out.stderr.strip()}")
    return float(m.group(1))


def brier(ps, ys):
    return sum((p - y) ** 2 for p, y in zip(ps, ys)) / len(ys)


def r2(ps, ys):
    mean = sum(ys) / len(ys)
    b0 = brier([mean] * len(ys), ys)
    return brier(ps, ys), b0, 1 - brier(ps, ys) / b0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("games")
    ap.add_argument("--senat", required=True)
    ap.add_argument("--agent", action="append", default=[], metavar="NAME=SPEC")
    ap.add_argument("--out")
    ap.add_argument("--resamples", type=int, default=2000)
    a = ap.parse_args()
    agents = [x.split("=", 1) for x in (a.agent or AGENTS)]
    with open(a.games, newline="") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    table = []
    for r in rows:
        p = end_of_draft(r)
        if p.to_move != "blue":
            raise SystemExit(f"game {r['game']}: {p.to_move} moves first in play; this script reads the rules' blue")
        y = {"blue": 1.0, "red": 0.0}.get(r["winner"], 0.5)
        table.append([int(r["game"]), y] + [value(a.senat, p.text, spec) for _, spec in agents])
    if a.out:
        with open(a.out, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["game", "blue_score"] + [n for n, _ in agents])
            w.writerows(table)
    ys = [t[1] for t in table]
    rng = random.Random(1)
    idx = [[rng.randrange(len(table)) for _ in table] for _ in range(a.resamples)]
    print(f"{a.games}: {len(table)} games, blue's mean score {sum(ys) / len(ys):.4f}")
    for k, (name, spec) in enumerate(agents):
        ps = [t[2 + k] for t in table]
        b, b0, r = r2(ps, ys)
        boots = sorted(r2([ps[i] for i in s], [ys[i] for i in s]) for s in idx)
        lo = lambda j: sorted(x[j] for x in boots)[int(0.025 * len(boots))]
        hi = lambda j: sorted(x[j] for x in boots)[int(0.975 * len(boots)) - 1]
        print(f"\n{name} ({spec}): Brier {b:.4f} [{lo(0):.4f}, {hi(0):.4f}], constant's {b0:.4f}, "
              f"R^2 {r:.3f} [{lo(2):.3f}, {hi(2):.3f}]")
        order = sorted(range(len(ps)), key=lambda i: ps[i])
        print("bin, games, mean p, mean blue score [95 %]")
        for q in range(5):
            part = order[q * len(order) // 5:(q + 1) * len(order) // 5]
            mp = sum(ps[i] for i in part) / len(part)
            m, l, h, _ = mean_ci([ys[i] for i in part])
            print(f"{q + 1}, {len(part)}, {mp:.3f}, {m:.3f} [{l:.3f}, {h:.3f}]")


if __name__ == "__main__":
    main()

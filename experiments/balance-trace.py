#!/usr/bin/env python3
"""Blue's score along a Sénat arena ladder (issue 60 question 4, balance
against strength): for each pairing of an arena games file (`senat arena
--games-out`, gzip or not), blue's score (win 1, draw 1/2) averaged over
each colour-swapped pair's two games, so that the two agents' strengths
cancel and what is left is the first mover's edge at the level of that
pairing; the mean over pairs with a 95 % normal interval (pairs as
clusters). Standard library only.

Usage: balance-trace.py GAMES.csv[.gz]
"""
import csv
import gzip
import sys

from senatstats import mean_ci


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    path = sys.argv[1]
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    steps, names = {}, {}
    for r in rows:
        k = int(r["pairing"])
        names.setdefault(k, (r["first"], r["second"]))
        s = {"blue": 1.0, "red": 0.0}.get(r["winner"], 0.5)
        steps.setdefault(k, {}).setdefault(int(r["pair"]), []).append(s)
    print("pairing,first,second,pairs,blue_score,lo,hi")
    for k in sorted(steps):
        pairs = [v for v in steps[k].values() if len(v) == 2]
        m, lo, hi, _ = mean_ci([sum(v) / 2 for v in pairs])
        a, b = names[k]
        print(f'{k},"{a}","{b}",{len(pairs)},{m:.4f},{lo:.4f},{hi:.4f}')


if __name__ == "__main__":
    main()

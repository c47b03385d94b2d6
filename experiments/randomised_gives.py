#!/usr/bin/env python3
"""Blue's score after one first give against another, from a draft-stats
`first_give.csv` (`senat draft-stats GAMES.csv`), where the agent's first
give was drawn by its move temperature from the one empty position: every
game starts there, so which give it drew depends on the game's seed alone,
and the split between two gives is a randomised comparison (unequal
allocation). Blue gives first in the rules, so both groups are blue's
gives: the comparison is within one side.

Prints each give's games and blue's score (win 1, draw 1/2) with a 95 %
normal interval, then the difference A - B in points with its 95 % normal
interval (two independent groups) and the two-sided p. Standard library only.

Usage: randomised_gives.py FIRST_GIVE.csv A B      e.g. ... g3 g4
"""
import csv
import math
import sys

from senatstats import Z, p_two_sided


def group(rows, give):
    """(games, mean, variance of one game's score) of blue's score after `give`."""
    for r in rows:
        if r["give"] == give:
            n, w, d = int(r["games"]), int(r["blue_wins"]), int(r["draws"])
            m = (w + d / 2) / n
            return n, m, (w + d / 4) / n - m * m
    sys.exit(f"no first give {give} in the file")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[-1])
    path, a, b = sys.argv[1:]
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    ga, gb = group(rows, a), group(rows, b)
    for name, (n, m, v) in ((a, ga), (b, gb)):
        h = Z * math.sqrt(v / n)
        print(f"{name}: {n} games, blue's score {100 * m:.1f} % [{100 * (m - h):.1f}, {100 * (m + h):.1f}]")
    d = ga[1] - gb[1]
    se = math.sqrt(ga[2] / ga[0] + gb[2] / gb[0])
    print(f"{a} - {b}: {100 * d:+.1f} points [{100 * (d - Z * se):+.1f}, {100 * (d + Z * se):+.1f}], p {p_two_sided(d / se):.2g}")


if __name__ == "__main__":
    main()

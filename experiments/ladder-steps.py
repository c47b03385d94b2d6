#!/usr/bin/env python3
"""The steps of an arena ladder (`senat arena --ladder --summary FILE`), each
from the next agent's side: games, its W-D-L, its mean score, its Elo with the
95 % interval and with the interval corrected for all the ladder's steps
(Bonferroni). Both intervals come from the pentanomial counts of the summary
by the arena's own method: a normal interval on the mean pair score
(0, 1/4, 1/2, 3/4, 1), turned into Elo, so the 95 % ends equal the
summary's `elo_lo95`/`elo_hi95`.

    experiments/ladder-steps.py SUMMARY.csv
"""
import csv
import math
import sys
from statistics import NormalDist


def elo(score):
    return -400 * math.log10(1 / score - 1)


def main(path):
    rows = list(csv.DictReader(open(path, newline="")))
    k = len(rows)
    z95 = NormalDist().inv_cdf(0.975)
    zk = NormalDist().inv_cdf(1 - 0.025 / k)
    print(f"# {path}: {k} steps, Bonferroni {100 * (1 - 0.05 / k):.2f} % each")
    print("first -> second | games | W-D-L of second | its score | Elo, 95 % | Elo, corrected")
    for r in rows:
        counts = [int(r[f"penta_{i}"]) for i in range(5)]
        n = sum(counts)
        xs = [0, 0.25, 0.5, 0.75, 1]
        # The first agent's mean pair score and its standard error.
        m = sum(x * c for x, c in zip(xs, counts)) / n
        se = math.sqrt(sum(c * (x - m) ** 2 for x, c in zip(xs, counts)) / n / n)

        def interval(z):
            # From the second agent's side: its Elo is minus the first's.
            return f"[{-elo(m + z * se):+.1f}, {-elo(m - z * se):+.1f}]"

        wdl = f"{r['losses']}-{r['draws']}-{r['wins']}"
        print(
            f"{r['first']} -> {r['second']} | {r['games']} | {wdl} | {1 - m:.4f} | "
            f"{-elo(m):+.1f} {interval(z95)} | {interval(zk)}"
        )


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])

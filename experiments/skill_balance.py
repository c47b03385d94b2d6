#!/usr/bin/env python3
"""The planned test of results/first-player/skill-balance/PLAN.md: blue's
score in self-play at each budget N (the `playouts=` of the games file's
blue agent), each with its 95 % normal interval, and the one-sided z-test
of the weighted least-squares slope of blue's score on log4(N / 250)
(H1: slope > 0, alpha 0.05). Standard library only.

The distinct games and distinct first four draft moves (two gives and two
placements), and blue's score in each opening played in 10 or more games
of a budget, are descriptive.

Usage: skill_balance.py GAMES.csv[.gz] [GAMES.csv[.gz] ...]
"""
import csv
import gzip
import math
import re
import sys

from senatstats import Z, mean_ci


def read(path):
    """(N, blue scores, draws, mean play half-moves, distinct games, blue's
    scores by the first four draft moves) of one games file (gzip or not)."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    specs = {r["blue"] for r in rows} | {r["red"] for r in rows}
    if len(specs) != 1:
        sys.exit(f"{path}: not a self-play batch of one agent: {sorted(specs)}")
    m = re.search(r"playouts=(\d+)", specs.pop())
    if not m:
        sys.exit(f"{path}: the agent has no playouts=")
    scores = [{"blue": 1.0, "red": 0.0}.get(r["winner"], 0.5) for r in rows]
    draws = sum(1 for r in rows if r["winner"] not in ("blue", "red"))
    plies = sum(int(r["play_half_moves"]) for r in rows) / len(rows)
    games = len({(r["draft_moves"], r["play_moves"]) for r in rows})
    openings = {}
    for r, score in zip(rows, scores):
        openings.setdefault(" ".join(r["draft_moves"].split()[:4]), []).append(score)
    return int(m.group(1)), scores, draws, plies, games, openings


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    points = sorted(read(p) for p in sys.argv[1:])
    print("playouts,games,blue_score,lo95,hi95,se,draws,mean_play_half_moves,distinct_games,distinct_first_four_draft_moves")
    xs, ys, ws = [], [], []
    for n, scores, draws, plies, games, openings in points:
        m, lo, hi, se = mean_ci(scores)
        if se == 0:
            sys.exit(f"playouts={n}: every game has the same score; the test needs a standard error")
        print(f"{n},{len(scores)},{m:.4f},{lo:.4f},{hi:.4f},{se:.4f},{draws},{plies:.1f},{games},{len(openings)}")
        xs.append(math.log(n / 250, 4))
        ys.append(m)
        ws.append(1 / se**2)
    sw = sum(ws)
    xbar = sum(w * x for w, x in zip(ws, xs)) / sw
    ybar = sum(w * y for w, y in zip(ws, ys)) / sw
    sxx = sum(w * (x - xbar) ** 2 for w, x in zip(ws, xs))
    slope = sum(w * (x - xbar) * (y - ybar) for w, x, y in zip(ws, xs, ys)) / sxx
    se = 1 / math.sqrt(sxx)
    z = slope / se
    p = 0.5 * math.erfc(z / math.sqrt(2))
    verdict = "rejected: blue's score rises with the budget" if z > 1.645 else "not rejected: a rise is not detected at this size"
    print(
        f"slope per factor 4 of playouts: {slope:+.4f} [{slope - Z * se:+.4f}, {slope + Z * se:+.4f}] (95 %), "
        f"se {se:.4f}, z {z:.2f}, one-sided p {p:.2g}; H0 (slope <= 0) {verdict}"
    )
    print("descriptive, not planned: openings (first four draft moves) played in 10 or more games of a budget")
    print("playouts,opening,games,blue_score,lo95,hi95")
    for n, _, _, _, _, openings in points:
        for opening, v in sorted(openings.items(), key=lambda o: (-len(o[1]), o[0])):
            if len(v) >= 10:
                m, lo, hi, _ = mean_ci(v)
                print(f'{n},"{opening}",{len(v)},{m:.4f},{lo:.4f},{hi:.4f}')


if __name__ == "__main__":
    main()

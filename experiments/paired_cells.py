#!/usr/bin/env python3
"""Analysis of results/first-placement/PLAN.md: reads the 9 games files of
one tier (blue gives die 5; red places it on S6, M15 or I21 with face Cr,
Cb or Tr: the opening of every game, checked), and writes one CSV: each
cell's red score (win 1, draw 1/2) with a 95 % normal interval, then the 9
comparisons of the plan as paired differences over the same game indices
(mean, 95 % normal interval, two-sided p, Holm-adjusted p). Standard
library only.

Usage: paired_cells.py --tier NAME --out FILE GAMES.csv...
"""
import argparse
import csv
import math
import os
import sys
import tempfile

from senatstats import holm, mean_ci, p_two_sided

ROWS = {"S6": "S", "M15": "M", "I21": "I"}
COLOURS = {"Cr": "own", "Cb": "opponent", "Tr": "white"}


def read(path):
    scores, key = {}, None
    with open(path, newline="") as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            moves = r["draft_moves"].split(" ")
            if moves[0] != "g5" or not moves[1].startswith("5@"):
                sys.exit(f"{path}: game {r['game']} does not open with g5 and a placement of die 5")
            cell, face = moves[1][2:].split("=")
            k = (ROWS[cell], COLOURS[face])
            if key is None:
                key = k
            elif key != k:
                sys.exit(f"{path}: game {r['game']} opens with {moves[1]}, not the file's first opening")
            scores[int(r["game"])] = {"red": 1.0, "blue": 0.0}.get(r["winner"], 0.5)
    return key, scores




def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tier", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    cells = dict(read(p) for p in a.files)
    rows = []
    for row in "SMI":
        for col in ("own", "opponent", "white"):
            s = cells[(row, col)]
            m, lo, hi, _ = mean_ci(list(s.values()))
            rows.append([a.tier, f"cell {row} {col}", len(s), f"{m:.4f}", f"{lo:.4f}", f"{hi:.4f}", "", ""])
    tests = [(f"row {r}: own - opponent", (r, "own"), (r, "opponent")) for r in "SMI"]
    tests += [(f"row {r}: own - white", (r, "own"), (r, "white")) for r in "SMI"]
    tests += [(f"{c}: I - S", ("I", c), ("S", c)) for c in ("own", "opponent", "white")]
    stats = []
    for name, x, y in tests:
        common = sorted(set(cells[x]) & set(cells[y]))
        d = [cells[x][i] - cells[y][i] for i in common]
        m, lo, hi, se = mean_ci(d)
        stats.append([name, len(d), m, lo, hi, p_two_sided(m / se) if se > 0 else 1.0])
    adj = holm([x[5] for x in stats])
    for (name, n, m, lo, hi, p), q in zip(stats, adj):
        rows.append([a.tier, name, n, f"{m:+.4f}", f"{lo:+.4f}", f"{hi:+.4f}", f"{p:.3g}", f"{q:.3g}"])
    d = os.path.dirname(os.path.abspath(a.out))
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".paired-")
    with os.fdopen(fd, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["tier", "quantity", "games", "estimate", "low", "high", "p", "p_holm"])
        w.writerows(rows)
    os.replace(tmp, a.out)


if __name__ == "__main__":
    main()

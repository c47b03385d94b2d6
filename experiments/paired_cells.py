#!/usr/bin/env python3
"""Analysis of results/first-placement/PLAN.md: reads the 9 games files of
one tier (blue gives die 5; red places it on S6, M15 or I21 with face Cr,
Cb or Tr: the opening of every game, checked), and writes one CSV: each
cell's red score (win 1, draw 1/2) with a 95 % normal interval, then the 9
comparisons of the plan as paired differences over the same game indices
(mean, 95 % normal interval, two-sided p, Holm-adjusted p). Standard
library only.

With --design classes it reads the design of results/first-placement/PLAN-classes.md
instead (dice 1, 4 and 3, 15 cells, its 12 comparisons); with --design rows
that of results/first-placement/PLAN-rows.md (dice 5 and 1 showing Cr on S6
or I21, 4 cells): its primary test, the mean over the two dice of the
paired I - S difference (alone, unadjusted: its p_holm is its p), then
each die's I - S, Holm over the two.

Usage: paired_cells.py [--design die5|classes|rows] --tier NAME --out FILE GAMES.csv...
"""
import argparse
import csv
import math
import os
import sys
import tempfile

from senatstats import holm, mean_ci, p_two_sided, read_by_opening as read_rows

ROWS = {"S6": "S", "M15": "M", "I21": "I"}
COLOURS = {"Cr": "own", "Cb": "opponent", "Tr": "white"}
# PLAN-classes.md: the faces each die shows white (die 3: all; die 1: none; die 4: Tr, Sr, Cr).
WHITENED = {"1": set(), "3": {"Tr", "Sr", "Cr", "Tb", "Sb", "Cb"}, "4": {"Tr", "Sr", "Cr"}}


def colour_for_red(die, face):
    """What a face of `die` shows, seen from red (the placer): own, opponent or white."""
    if face in WHITENED[die]:
        return "white"
    return "own" if face.endswith("r") else "opponent"


def die5_key(moves):
    """(row, colour) of PLAN.md's opening: g5, then die 5 placed."""
    if moves[0] != "g5" or not moves[1].startswith("5@"):
        return None
    cell, face = moves[1][2:].split("=")
    return ROWS[cell], COLOURS[face]


def classes_key(moves):
    """(die, row, colour) of PLAN-classes.md's opening: a give of die 1, 3 or 4, then that die placed."""
    die = moves[0][1:]
    if die not in WHITENED or not moves[1].startswith(die + "@"):
        return None
    cell, face = moves[1][len(die) + 1:].split("=")
    return die, ROWS[cell], colour_for_red(die, face)


def rows_key(moves):
    """(die, row) of PLAN-rows.md's opening: g5 or g1, then that die placed
    on S6 or I21 showing Cr (red's own colour on both dice)."""
    die = moves[0][1:]
    if die not in ("5", "1") or not moves[1].startswith(die + "@"):
        return None
    cell, face = moves[1][len(die) + 1:].split("=")
    if cell not in ("S6", "I21") or face != "Cr":
        return None
    return die, ROWS[cell]


def paired(cells, x, y):
    """The paired differences cells[x] - cells[y] over their common game indices."""
    common = sorted(set(cells[x]) & set(cells[y]))
    return {i: cells[x][i] - cells[y][i] for i in common}


def classes_design():
    """The cells (descriptive) and the 12 comparisons of PLAN-classes.md."""
    order = [("1", r, c) for r in "SMI" for c in ("own", "opponent")]
    order += [("4", r, c) for r in "SMI" for c in ("opponent", "white")]
    order += [("3", r, "white") for r in "SMI"]
    tests = [(f"die 1, row {r}: own - opponent", ("1", r, "own"), ("1", r, "opponent")) for r in "SMI"]
    tests += [(f"die 1, {c}: I - S", ("1", "I", c), ("1", "S", c)) for c in ("own", "opponent")]
    tests += [(f"die 4, row {r}: opponent - white", ("4", r, "opponent"), ("4", r, "white")) for r in "SMI"]
    tests += [(f"die 4, {c}: I - S", ("4", "I", c), ("4", "S", c)) for c in ("opponent", "white")]
    tests += [("die 3: I - S", ("3", "I", "white"), ("3", "S", "white")),
              ("die 3: M - S", ("3", "M", "white"), ("3", "S", "white"))]
    return [(f"cell die {d} {r} {c}", (d, r, c)) for d, r, c in order], tests


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--design", choices=["die5", "classes", "rows"], default="die5")
    ap.add_argument("--tier", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    primary = None
    if a.design == "rows":
        cells = dict(read_rows(p, rows_key) for p in a.files)
        if len(cells) != 4:
            sys.exit(f"the rows design has 4 cells; these files hold {len(cells)}")
        shown = [(f"cell die {d} {r} own", (d, r)) for d in ("5", "1") for r in "SI"]
        tests = [(f"die {d}, own: I - S", (d, "I"), (d, "S")) for d in ("5", "1")]
        d5, d1 = paired(cells, ("5", "I"), ("5", "S")), paired(cells, ("1", "I"), ("1", "S"))
        primary = ("primary: mean of dice 5 and 1, own: I - S", [(d5[i] + d1[i]) / 2 for i in sorted(set(d5) & set(d1))])
    elif a.design == "classes":
        cells = dict(read_rows(p, classes_key) for p in a.files)
        shown, tests = classes_design()
    else:
        cells = dict(read_rows(p, die5_key) for p in a.files)
        shown = [(f"cell {row} {col}", (row, col)) for row in "SMI" for col in ("own", "opponent", "white")]
        tests = [(f"row {r}: own - opponent", (r, "own"), (r, "opponent")) for r in "SMI"]
        tests += [(f"row {r}: own - white", (r, "own"), (r, "white")) for r in "SMI"]
        tests += [(f"{c}: I - S", ("I", c), ("S", c)) for c in ("own", "opponent", "white")]
    rows = []
    for name, k in shown:
        s = cells[k]
        m, lo, hi, _ = mean_ci(list(s.values()))
        rows.append([a.tier, name, len(s), f"{m:.4f}", f"{lo:.4f}", f"{hi:.4f}", "", ""])
    if primary is not None:
        name, d = primary
        m, lo, hi, se = mean_ci(d)
        p = p_two_sided(m / se) if se > 0 else 1.0
        rows.append([a.tier, name, len(d), f"{m:+.4f}", f"{lo:+.4f}", f"{hi:+.4f}", f"{p:.3g}", f"{p:.3g}"])
    stats = []
    for name, x, y in tests:
        d = list(paired(cells, x, y).values())
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

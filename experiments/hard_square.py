#!/usr/bin/env python3
"""Results/annex/hard-square/README.md: how long each kind of face lasts in
Sénat play. Replays every game of a games file (the `senat` Python module)
and, at every play ply, counts each die on the board that shows a coloured
face as exposed, and as ended if after the move it shows another face or
has left the board. Classes: symbol (triangle, square, circle) x hard (the
die's other two faces of the shown colour are white) or soft; both colours
pooled. Prints each class's end rate (ends / exposures) with a 95 %
bootstrap interval over games, and the primary ratio hard square / soft
square with its interval. Standard library plus the senat module.

Usage: hard_square.py GAMES.csv [--resamples N] [--seed S]
"""
import argparse
import csv
import random

import senat

from dice_equal import whitened

SYMBOLS = "TSC"
WHITE = whitened()
WHITE[1] = WHITE[2] = set()
WHITE[3] = set(range(6))


def faces(spn):
    """Die -> face index (0-5: T, S, C red; then blue) of a position's text."""
    out = {}
    for cell in spn.split(" ", 1)[0].replace("/", ",").split(","):
        if cell != ".":
            die, code = int(cell[:-2]), cell[-2:]
            out[die] = SYMBOLS.index(code[0]) + (3 if code[1] == "b" else 0)
    return out


def kind(die, face):
    """(symbol, hard) of a coloured face, None for a white one."""
    if face in WHITE[die]:
        return None
    base = face - face % 3
    others = {base, base + 1, base + 2} - {face}
    return SYMBOLS[face % 3], others <= WHITE[die]


def game_counts(row):
    """Per class (symbol, hard): [exposures, ends] over the game's play plies."""
    p = senat.Position.start("senat", "")
    for m in row["draft_moves"].split():
        p = p.play(m)
    counts = {}
    before = faces(p.text)
    for m in row["play_moves"].split():
        p = p.play(m)
        after = faces(p.text)
        for die, f in before.items():
            k = kind(die, f)
            if k is None:
                continue
            c = counts.setdefault(k, [0, 0])
            c[0] += 1
            if after.get(die) != f:
                c[1] += 1
        before = after
    return counts


def rate(games, k):
    e = sum(g.get(k, (0, 0))[0] for g in games)
    n = sum(g.get(k, (0, 0))[1] for g in games)
    return n / e if e else float("nan"), e, n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("games")
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    with open(a.games, newline="") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    games = [game_counts(r) for r in rows]
    classes = [(s, h) for s in SYMBOLS for h in (True, False)]
    rng = random.Random(a.seed)
    boots = {k: [] for k in classes}
    ratios = []
    for _ in range(a.resamples):
        sample = [games[rng.randrange(len(games))] for _ in games]
        r = {k: rate(sample, k)[0] for k in classes}
        for k in classes:
            boots[k].append(r[k])
        ratios.append(r[("S", True)] / r[("S", False)])

    def ci(xs):
        xs = sorted(x for x in xs if x == x)
        return xs[int(0.025 * len(xs))], xs[int(0.975 * len(xs)) - 1]

    print(f"{a.games}: {len(games)} games, {a.resamples} bootstrap resamples of games (seed {a.seed})")
    print("class,exposures,ends,end_rate,lo,hi")
    for k in classes:
        r, e, n = rate(games, k)
        lo, hi = ci(boots[k])
        print(f"{k[0]} {'hard' if k[1] else 'soft'},{e},{n},{r:.4f},{lo:.4f},{hi:.4f}")
    r = rate(games, ("S", True))[0] / rate(games, ("S", False))[0]
    lo, hi = ci(ratios)
    print(f"primary: hard square / soft square end rate = {r:.3f} [{lo:.3f}, {hi:.3f}]")


if __name__ == "__main__":
    main()

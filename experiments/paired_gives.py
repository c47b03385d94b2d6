#!/usr/bin/env python3
"""Forced first give experiment (issue 11, item 3): reads the games files of
batches that differ only in blue's forced first give (`selfplay
--force-first-give gN`, same seed and size, so game i has the same generator
in every batch) and writes one CSV row per give: the giver's (blue's) wins
with a Wilson 95 % interval, and the paired difference to the g3 batch,
d_i = win_i(g3) - win_i(gN) over the same game indices, mean with a normal
95 % interval (1.96 sd / sqrt(n)). A last row `others` pools the other
gives: its giver counts are summed over their batches (the Wilson interval
then treats them as independent, which they are not quite: same seeds),
and its paired difference is d_i = win_i(g3) - mean over N != 3 of
win_i(gN). Standard library only.

Usage: paired_gives.py --tier NAME --out FILE GAMES.csv...
"""
import argparse
import csv
import os
import sys
import tempfile

from senatstats import mean_ci, wilson




def read(path):
    """game index -> (blue won, red won), and the forced first give."""
    out = {}
    give = None
    with open(path, newline="") as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        for r in rows:
            out[int(r["game"])] = (r["winner"] == "blue", r["winner"] == "red")
            g = r["draft_moves"].split(" ", 1)[0]
            if give is None:
                give = g
            elif give != g:
                sys.exit(f"{path}: game {r['game']} starts with {g}, not {give}: not one forced give")
    return give, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tier", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    batches = dict(read(p) for p in a.files)
    if "g3" not in batches:
        sys.exit("no g3 batch among the inputs")
    ref = batches["g3"]
    rows = []
    for give, games in sorted(batches.items(), key=lambda kv: int(kv[0][1:])):
        n = len(games)
        k = sum(b for b, _ in games.values())
        r = sum(x for _, x in games.values())
        lo, hi = wilson(k, n)
        common = sorted(set(games) & set(ref))
        d = [ref[i][0] - games[i][0] for i in common]
        m, lo_d, hi_d, _ = mean_ci(d)
        rows.append([a.tier, give, n, k, f"{k / n:.4f}", f"{lo:.4f}", f"{hi:.4f}", r, f"{r / n:.4f}",
                     len(common), f"{m:+.4f}", f"{lo_d:+.4f}", f"{hi_d:+.4f}"])
    others = {g: b for g, b in batches.items() if g != "g3"}
    if others:
        common = sorted(set(ref).intersection(*[set(b) for b in others.values()]))
        n = sum(len(b) for b in others.values())
        k = sum(sum(x for x, _ in b.values()) for b in others.values())
        r = sum(sum(x for _, x in b.values()) for b in others.values())
        lo, hi = wilson(k, n)
        d = [ref[i][0] - sum(b[i][0] for b in others.values()) / len(others) for i in common]
        m, lo_d, hi_d, _ = mean_ci(d)
        rows.append([a.tier, "others", n, k, f"{k / n:.4f}", f"{lo:.4f}", f"{hi:.4f}", r, f"{r / n:.4f}",
                     len(common), f"{m:+.4f}", f"{lo_d:+.4f}", f"{hi_d:+.4f}"])
    head = ["tier", "first_give", "games", "giver_wins", "giver_rate", "giver_lo", "giver_hi", "receiver_wins",
            "receiver_rate", "paired_games", "g3_minus_this", "g3_minus_this_lo", "g3_minus_this_hi"]
    d = os.path.dirname(os.path.abspath(a.out))
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".paired-")
    with os.fdopen(fd, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(head)
        w.writerows(rows)
    os.replace(tmp, a.out)


if __name__ == "__main__":
    main()

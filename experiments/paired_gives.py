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

Then the same in the giver's score (win 1, draw 1/2: the measure of the
rest of the report): `giver_score` with a normal 95 % interval and the
paired `g3_minus_this_score`; and what the receiver gives back: the games
whose second give is g3 (`second_g3`, with its share and Wilson 95 %
interval; empty in the g3 batch, where die 3 is gone).

Usage: paired_gives.py --tier NAME --out FILE GAMES.csv...
"""
import argparse
import csv
import os
import sys
import tempfile

from senatstats import mean_ci, wilson




def read(path):
    """game index -> (blue won, red won, blue's score, second give is g3),
    and the forced first give."""
    out = {}
    give = None
    with open(path, newline="") as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        for r in rows:
            moves = r["draft_moves"].split(" ")
            score = {"blue": 1.0, "red": 0.0}.get(r["winner"], 0.5)
            out[int(r["game"])] = (r["winner"] == "blue", r["winner"] == "red", score,
                                   len(moves) > 2 and moves[2] == "g3")
            g = moves[0]
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
        k = sum(g[0] for g in games.values())
        r = sum(g[1] for g in games.values())
        lo, hi = wilson(k, n)
        common = sorted(set(games) & set(ref))
        d = [ref[i][0] - games[i][0] for i in common]
        m, lo_d, hi_d, _ = mean_ci(d)
        sm, slo, shi, _ = mean_ci([g[2] for g in games.values()])
        ds, dslo, dshi, _ = mean_ci([ref[i][2] - games[i][2] for i in common])
        back = [] if give == "g3" else [sum(g[3] for g in games.values())]
        back = ["", "", "", ""] if not back else [back[0], f"{back[0] / n:.4f}", *(f"{x:.4f}" for x in wilson(back[0], n))]
        rows.append([a.tier, give, n, k, f"{k / n:.4f}", f"{lo:.4f}", f"{hi:.4f}", r, f"{r / n:.4f}",
                     len(common), f"{m:+.4f}", f"{lo_d:+.4f}", f"{hi_d:+.4f}",
                     f"{sm:.4f}", f"{slo:.4f}", f"{shi:.4f}", f"{ds:+.4f}", f"{dslo:+.4f}", f"{dshi:+.4f}", *back])
    others = {g: b for g, b in batches.items() if g != "g3"}
    if others:
        common = sorted(set(ref).intersection(*[set(b) for b in others.values()]))
        n = sum(len(b) for b in others.values())
        k = sum(sum(g[0] for g in b.values()) for b in others.values())
        r = sum(sum(g[1] for g in b.values()) for b in others.values())
        lo, hi = wilson(k, n)
        d = [ref[i][0] - sum(b[i][0] for b in others.values()) / len(others) for i in common]
        m, lo_d, hi_d, _ = mean_ci(d)
        sm, slo, shi, _ = mean_ci([g[2] for b in others.values() for g in b.values()])
        ds, dslo, dshi, _ = mean_ci([ref[i][2] - sum(b[i][2] for b in others.values()) / len(others) for i in common])
        back = sum(sum(g[3] for g in b.values()) for b in others.values())
        rows.append([a.tier, "others", n, k, f"{k / n:.4f}", f"{lo:.4f}", f"{hi:.4f}", r, f"{r / n:.4f}",
                     len(common), f"{m:+.4f}", f"{lo_d:+.4f}", f"{hi_d:+.4f}",
                     f"{sm:.4f}", f"{slo:.4f}", f"{shi:.4f}", f"{ds:+.4f}", f"{dslo:+.4f}", f"{dshi:+.4f}",
                     back, f"{back / n:.4f}", *(f"{x:.4f}" for x in wilson(back, n))])
    head = ["tier", "first_give", "games", "giver_wins", "giver_rate", "giver_lo", "giver_hi", "receiver_wins",
            "receiver_rate", "paired_games", "g3_minus_this", "g3_minus_this_lo", "g3_minus_this_hi",
            "giver_score", "giver_score_lo", "giver_score_hi", "g3_minus_this_score", "g3_minus_this_score_lo",
            "g3_minus_this_score_hi", "second_g3", "second_g3_rate", "second_g3_lo", "second_g3_hi"]
    d = os.path.dirname(os.path.abspath(a.out))
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".paired-")
    with os.fdopen(fd, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(head)
        w.writerows(rows)
    os.replace(tmp, a.out)


if __name__ == "__main__":
    main()

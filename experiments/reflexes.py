#!/usr/bin/env python3
"""Analysis of the reflexes design of results/reflexes/PLAN.md.

Reads DIR/<test>.summary.csv (one `senat arena WHOLE ABLATED` match each:
colour-swapped pairs, pentanomial counts) and writes DIR/reflexes.csv and
DIR/reflexes.md: per test the whole agent's score over the ablated one
with a 95 % normal interval from the pairs (pentanomial variance), the Elo
the arena printed, a two-sided p-value for "the score is 1/2" and the
Holm-adjusted p over the plan's five tests. Standard library only.

Usage: reflexes.py DIR
"""
import csv
import math
import os
import sys

from senatstats import Z, holm, p_two_sided

TESTS = [
    ("R1-conveyor", "R1 is the bottom row full? (play.full_i)"),
    ("R2-exposed", "R2 coloured dice beside an opponent triangle (play.exposed, draft.exposed)"),
    ("R3-push-colour", "R3 what I push out shows my colour (play.threat_now, threat_next, threats; draft.threats)"),
    ("R4-lookahead-eval", "R4 look ahead: mcts-eval against one ply on the same evaluation (learned)"),
    ("R4-lookahead-net", "R4 look ahead: strong against one ply on the same network (learned:net=on)"),
]


def pair_score(row):
    """Mean pair score (0..1) and the variance of that mean, from the pentanomial counts."""
    counts = [int(row[f"penta_{k}"]) for k in range(5)]
    n = sum(counts)
    vals = [k / 4 for k in range(5)]  # a pair scores 0, ½, 1, 1½ or 2 points of 2
    m = sum(c * v for c, v in zip(counts, vals)) / n
    var = sum(c * (v - m) ** 2 for c, v in zip(counts, vals)) / max(n - 1, 1)
    return n, m, var / n


def fmt_p(p):
    """A p-value in three significant digits; one that underflows to 0 as a bound."""
    return "< 1e-300" if p == 0 else f"{p:.3g}" if p >= 0.01 else f"{p:.1e}"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    rows = []
    for name, what in TESTS:
        with open(os.path.join(d, f"{name}.summary.csv"), newline="") as f:
            r = next(csv.DictReader(line for line in f if not line.startswith("#")))
        pairs, m, v = pair_score(r)
        se = math.sqrt(v)
        z = (m - 0.5) / se if se > 0 else 0.0
        rows.append({
            "test": name, "what": what, "whole": r["first"], "ablated": r["second"], "games": r["games"],
            "wdl": f'{r["wins"]}-{r["draws"]}-{r["losses"]}', "pairs": pairs,
            "score": m, "lo": m - Z * se, "hi": m + Z * se,
            "elo": float(r["elo"]), "elo_lo": float(r["elo_lo95"]), "elo_hi": float(r["elo_hi95"]),
            "p": p_two_sided(z) if se > 0 else 1.0,
        })
    for r, a in zip(rows, holm([r["p"] for r in rows])):
        r["p_holm"] = a
    keys = ["test", "what", "whole", "ablated", "games", "wdl", "pairs", "score", "lo", "hi", "elo", "elo_lo", "elo_hi", "p", "p_holm"]
    with open(os.path.join(d, "reflexes.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(d, "reflexes.md"), "w") as f:
        f.write("| reflex removed | games (W-D-L of the whole agent) | whole agent's score | Elo of the whole over the ablated | p | p_Holm (5 tests) |\n")
        f.write("|---|---|---|---|---|---|\n")
        for r in rows:
            f.write(f'| {r["what"]} | {r["games"]} ({r["wdl"]}) | {100 * r["score"]:.1f} [{100 * r["lo"]:.1f}, {100 * r["hi"]:.1f}] % '
                    f'| {r["elo"]:+.1f} [{r["elo_lo"]:+.1f}, {r["elo_hi"]:+.1f}] | {fmt_p(r["p"])} | {fmt_p(r["p_holm"])} |\n')


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Analysis of the first-player design of results/first-player/PLAN.md.

Reads the selfplay summaries DIR/<tier>-<cell>.summary.csv (cells rules, G,
F, GF: the 2 x 2 of first_giver x first_mover) and writes DIR/effects.csv
and DIR/effects.md: per tier, each cell's blue score with its 95 % interval,
and the contrasts fixed in the plan (2M moving first, 2P placing last, 2I
their interaction, C the colour), each with a 95 % normal interval, a
two-sided p-value and the Holm-adjusted p-value over the tests of the tiers
given (4 per tier: 16 for the plan's four tiers, 20 with PLAN-net's strong). A cell's
score variance is computed from its win/draw/loss counts exactly (the
score takes the values 1, 1/2 and 0). Standard library only.

Usage: first_player.py DIR TIER...   (a TIER is T, or LABEL@PATH/NAME: senatstats.tier_arg)
"""
import csv
import math
import os
import sys

from senatstats import Z, holm, p_two_sided, tier_arg, wilson

CELLS = ["rules", "G", "F", "GF"]
# (m, p) of each cell: m = +1 when blue moves first, p = +1 when blue places last.
SIGNS = {"rules": (1, -1), "G": (1, 1), "F": (-1, -1), "GF": (-1, 1)}


def cell(path):
    """(games, blue wins, draws, red wins) from a selfplay summary."""
    vals = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            vals[r["metric"]] = r["value"]
    return int(vals["games"]), int(vals["blue_wins"]), int(vals["draws"]), int(vals["red_wins"])


def mean_var(n, w, d):
    """Blue's mean score and the variance of that mean."""
    m = (w + 0.5 * d) / n
    ex2 = (w + 0.25 * d) / n
    var = max(ex2 - m * m, 0.0) * n / max(n - 1, 1)
    return m, var / n








def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    d = sys.argv[1]
    args = [tier_arg(d, a) for a in sys.argv[2:]]
    tiers = [label for label, _, _ in args]
    rows = []
    cells = {}
    for t, folder, name in args:
        for c in CELLS:
            n, w, dr, l = cell(os.path.join(folder, f"{name}-{c}.summary.csv"))
            m, v = mean_var(n, w, dr)
            cells[(t, c)] = (n, w, dr, l, m, v)
    tests = []
    for t in tiers:
        get = {c: cells[(t, c)] for c in CELLS}
        # Coefficients of the contrasts over the cells' means.
        contrasts = {
            "2M moving first": {c: SIGNS[c][0] / 2 for c in CELLS},
            "2P placing last": {c: SIGNS[c][1] / 2 for c in CELLS},
            "2I interaction": {c: SIGNS[c][0] * SIGNS[c][1] / 2 for c in CELLS},
            "C colour (blue)": {c: 0.25 for c in CELLS},
        }
        for name, k in contrasts.items():
            est = sum(k[c] * get[c][4] for c in CELLS) - (0.5 if name.startswith("C") else 0.0)
            se = math.sqrt(sum(k[c] ** 2 * get[c][5] for c in CELLS))
            tests.append((t, name, est, se, p_two_sided(est / se) if se > 0 else 1.0))
        # The headline difference 2M - 2P (not in the tested family).
        k = {c: (SIGNS[c][0] - SIGNS[c][1]) / 2 for c in CELLS}
        est = sum(k[c] * get[c][4] for c in CELLS)
        se = math.sqrt(sum(k[c] ** 2 * get[c][5] for c in CELLS))
        rows.append((t, "2M - 2P (descriptive)", est, se, None, None))
    adj = holm([x[4] for x in tests])
    out_rows = [(t, n, e, s, p, a) for (t, n, e, s, p), a in zip(tests, adj)] + rows
    with open(os.path.join(d, "effects.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["tier", "quantity", "estimate", "low", "high", "se", "p", "p_holm"])
        for t in tiers:
            for c in CELLS:
                n, wins, dr, l, m, v = cells[(t, c)]
                se = math.sqrt(v)
                w.writerow([t, f"cell {c}: blue score ({n} games, {wins}-{dr}-{l})", f"{m:.4f}",
                            f"{m - Z * se:.4f}", f"{m + Z * se:.4f}", f"{se:.5f}", "", ""])
        for t, n, e, s, p, a in out_rows:
            w.writerow([t, n, f"{e:.4f}", f"{e - Z * s:.4f}", f"{e + Z * s:.4f}", f"{s:.5f}",
                        "" if p is None else f"{p:.3g}", "" if a is None else f"{a:.3g}"])
    with open(os.path.join(d, "effects.md"), "w") as f:
        f.write("| tier | games per cell | blue score: rules / G / F / GF | moving first (2M) | placing last (2P) "
                "| interaction (2I) | colour (C) | 2M − 2P |\n|---|---|---|---|---|---|---|---|\n")
        for t in tiers:
            ns = sorted({cells[(t, c)][0] for c in CELLS})
            scores = " / ".join(f"{100 * cells[(t, c)][4]:.1f}" for c in CELLS)
            fx = {n: (e, s, a) for (tt, n, e, s, p, a) in out_rows if tt == t}

            def show(key):
                e, s, a = fx[key]
                txt = f"{100 * e:+.1f} [{100 * (e - Z * s):+.1f}, {100 * (e + Z * s):+.1f}]"
                return txt if a is None else f"{txt} p_Holm {'< 1e-10' if a < 1e-10 else f'{a:.2g}'}"
            f.write(f"| {t} | {'/'.join(str(n) for n in ns)} | {scores} | {show('2M moving first')} | "
                    f"{show('2P placing last')} | {show('2I interaction')} | {show('C colour (blue)')} | "
                    f"{show('2M - 2P (descriptive)')} |\n")
        f.write("\nPoints of blue's score (win 1, draw ½) per 100 games, 95 % normal intervals; p_Holm over the "
                f"{len(tests)} tests of the tiers given (4 per tier).\n")
        f.write("\n| tier | cell | games | red wins | blue wins | draws |\n|---|---|---|---|---|---|\n")
        for t in tiers:
            for c in CELLS:
                n, wins, dr, l, m, v = cells[(t, c)]
                share = lambda k: "{:.1f} [{:.1f}, {:.1f}] %".format(100 * k / n, *(100 * x for x in wilson(k, n)))
                f.write(f"| {t} | {c} | {n} | {share(l)} | {share(wins)} | {share(dr)} |\n")
        f.write("\nWilson 95 % intervals.\n")


if __name__ == "__main__":
    main()

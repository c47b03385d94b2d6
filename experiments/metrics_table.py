#!/usr/bin/env python3
"""Joins the `senat metrics --out` tables of several tiers (DIR/metrics-<tier>.csv)
into one Markdown table, DIR/metrics.md: one row per metric, one column per
tier, each cell the value with its 95 % interval. Standard library only.

Usage: metrics_table.py DIR TIER...   (a TIER is T, or LABEL@PATH/NAME: senatstats.tier_arg)
"""
import csv
import os
import sys

from senatstats import tier_arg

# Shares and rates shown in percent; the rest as they are.
PERCENT = {"AdvantageP1", "Completion", "Drawishness", "Share.majority", "Share.repetition", "Share.closure",
           "Share.block", "ClosureSpike", "DecisivenessMoves", "LeadChange", "Drama", "Drama.max"}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    d = sys.argv[1]
    args = [tier_arg(d, a) for a in sys.argv[2:]]
    tiers = [label for label, _, _ in args]
    table, order, games = {}, [], {}
    for t, folder, name in args:
        with open(os.path.join(folder, f"metrics-{name}.csv"), newline="") as f:
            for r in csv.DictReader(f):
                m = r["metric"]
                if m not in order:
                    order.append(m)
                if r["value"] in ("", "-"):
                    table[(m, t)] = "–"
                    continue
                if r["low"] in ("", "-") or r["high"] in ("", "-"):
                    table[(m, t)] = f"{float(r['value']):.4g} (no interval)"
                    continue
                v, lo, hi = (float(r[k]) for k in ("value", "low", "high"))
                if m in PERCENT:
                    table[(m, t)] = f"{100 * v:.2f} [{100 * lo:.2f}, {100 * hi:.2f}] %"
                elif m == "Balance":
                    table[(m, t)] = f"{v:.3f} [{lo:.3f}, {hi:.3f}]"
                else:
                    table[(m, t)] = f"{v:.2f} [{lo:.2f}, {hi:.2f}]"
                if m == "AdvantageP1":
                    games[t] = r["games"]
    with open(os.path.join(d, "metrics.md"), "w") as f:
        f.write("| metric | " + " | ".join(f"{t} ({games.get(t, '?')} games)" for t in tiers) + " |\n")
        f.write("|---|" + "---|" * len(tiers) + "\n")
        for m in order:
            f.write(f"| {m} | " + " | ".join(table.get((m, t), "–") for t in tiers) + " |\n")


if __name__ == "__main__":
    main()

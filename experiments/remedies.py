#!/usr/bin/env python3
"""Analysis of results/remedies/PLAN.md: reads DIR/<tier>-<variant>.summary.csv
(selfplay summaries; the first variant is the reference, the rules) and
writes DIR/remedies.csv and DIR/remedies.md: per tier and rule set, blue's
score, the draw share and the mean length with 95 % intervals, and the
plan's 8 tests per tier (score and draw share of each change minus the
rules', normal intervals, Holm within the tier). Standard library only.

Usage: remedies.py DIR TIER... -- VARIANT...
"""
import csv
import math
import os
import sys

from senatstats import Z, holm, p_two_sided


def summary(path):
    vals = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            vals[r["metric"]] = r["value"]
    n, b, d = int(vals["games"]), int(vals["blue_wins"]), int(vals["draws"])
    score = (b + 0.5 * d) / n
    var_score = max((b + 0.25 * d) / n - score ** 2, 0.0) / n
    draw = d / n
    return {"n": n, "score": score, "var_score": var_score, "draw": draw, "var_draw": draw * (1 - draw) / n,
            "len": float(vals["length_mean"]), "se_len": float(vals["length_sd"]) / math.sqrt(n)}


def main():
    args = sys.argv[1:]
    if "--" not in args or len(args) < 4:
        sys.exit(__doc__)
    i = args.index("--")
    d, tiers, variants = args[0], args[1:i], args[i + 1:]
    rows, md = [], []
    md.append("| tier | rule set | games | blue's score | draws | mean length | score − rules | draws − rules |")
    md.append("|---|---|---|---|---|---|---|---|")
    for t in tiers:
        s = {v: summary(os.path.join(d, f"{t}-{v}.summary.csv")) for v in variants}
        ref = s[variants[0]]
        tests = []
        for v in variants[1:]:
            for q in ("score", "draw"):
                est = s[v][q] - ref[q]
                se = math.sqrt(s[v]["var_" + q] + ref["var_" + q])
                tests.append((v, q, est, se, p_two_sided(est / se) if se > 0 else 1.0))
        adj = holm([x[4] for x in tests])
        fx = {(v, q): (e, se, a) for (v, q, e, se, p), a in zip(tests, adj)}
        for (v, q, e, se, p), a in zip(tests, adj):
            rows.append([t, v, f"{q} - rules", f"{e:.4f}", f"{e - Z * se:.4f}", f"{e + Z * se:.4f}", f"{p:.3g}",
                         f"{a:.3g}"])

        def diff(v, q):
            if (v, q) not in fx:
                return "(reference)"
            e, se, a = fx[(v, q)]
            return f"{100 * e:+.1f} [{100 * (e - Z * se):+.1f}, {100 * (e + Z * se):+.1f}], p_Holm {a:.2g}"
        for v in variants:
            x = s[v]
            ci = lambda m, se: f"{100 * m:.1f} [{100 * (m - Z * se):.1f}, {100 * (m + Z * se):.1f}] %"
            md.append(f"| {t} | {v} | {x['n']} | {ci(x['score'], math.sqrt(x['var_score']))} | "
                      f"{ci(x['draw'], math.sqrt(x['var_draw']))} | {x['len']:.1f} "
                      f"[{x['len'] - Z * x['se_len']:.1f}, {x['len'] + Z * x['se_len']:.1f}] | "
                      f"{diff(v, 'score')} | {diff(v, 'draw')} |")
            rows.append([t, v, "score", f"{x['score']:.4f}", "", "", "", ""])
    with open(os.path.join(d, "remedies.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["tier", "rule_set", "quantity", "estimate", "low", "high", "p", "p_holm"])
        w.writerows(rows)
    with open(os.path.join(d, "remedies.md"), "w") as f:
        f.write("\n".join(md) + "\n\nPoints per 100 games; 95 % normal intervals; p_Holm over the plan's 8 tests "
                "of the tier.\n")


if __name__ == "__main__":
    main()

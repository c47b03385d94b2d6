#!/usr/bin/env python3
"""Analysis of results/first-give/PLAN-dice.md: are the twenty three-white
dice (4-23) equal as blue's forced first give?

Two steps.

  dice_equal.py --tier NAME --out FILE GAMES.csv...
      reads one tier's forced-give games files (`selfplay
      --force-first-give gN`, the same seed in every batch; the files of
      experiments/first-give.sh) and writes one row per three-white die:
      k (its red-printed faces left coloured, 0-3), games, the giver's
      (blue's) score (win 1, draw 1/2) with a 95 % normal interval, and
      the paired contrast c_d = mean over games of score(gd) - the mean of
      the other 19 dice's scores in the same game index, with its 95 %
      normal interval and two-sided p.

  dice_equal.py --tests OUT [--old TIER=TABLE ...]
      reads OUT/dice-TIER.csv of every tier and OUT/TIER.csv (the
      paired_gives.py table of the same games) and writes
      OUT/dice-tests.csv: the primary tests (every c_d, Holm over all
      tiers' dice), secondary 1 (Pearson r of the per-die giver win rates
      of an older table, --old, against these, one-sided by Fisher's z,
      Holm over the tiers) and secondary 2 (Pearson r of k, and of "k is
      0 or 3", against the per-die score, two-sided, Holm over the 2 x
      tiers). It prints the same
      as text.

Standard library only.
"""
import argparse
import csv
import glob
import math
import os
import sys
import tempfile

from senatstats import holm, mean_ci, p_two_sided, read_by_opening

THREE_WHITE = list(range(4, 24))


def whitened():
    """Die number -> its whitened face indices, as the rules' table builds
    it (crates/rules/src/dice.rs, WHITENED): dice 4-23 are the 20 ways to
    choose 3 of the 6 faces, in lexicographic order; faces 0-2 are printed
    red (triangle, square, circle), 3-5 blue."""
    out, n = {}, 4
    for a in range(6):
        for b in range(a + 1, 6):
            for c in range(b + 1, 6):
                out[n] = {a, b, c}
                n += 1
    return out


def red_kept(die):
    """The red-printed faces of `die` left coloured (not whitened): 0-3."""
    return 3 - len(whitened()[die] & {0, 1, 2})


def read(path):
    """The forced first give of a games file and blue's score per game index."""
    give, red = read_by_opening(path, lambda moves: moves[0])
    return give, {i: 1.0 - s for i, s in red.items()}


def write_csv(path, head, rows):
    """Writes a CSV atomically (a temporary file in the same folder, then a rename)."""
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".dice-")
    with os.fdopen(fd, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(head)
        w.writerows(rows)
    os.replace(tmp, path)


def per_die(tier, out, files):
    batches = dict(read(p) for p in files)
    missing = [d for d in THREE_WHITE if f"g{d}" not in batches]
    if missing:
        sys.exit(f"no batch for the first give of dice {missing}")
    common = sorted(set.intersection(*(set(batches[f"g{d}"]) for d in THREE_WHITE)))
    rows = []
    for d in THREE_WHITE:
        s = batches[f"g{d}"]
        m, lo, hi, _ = mean_ci(list(s.values()))
        others = [e for e in THREE_WHITE if e != d]
        c = [s[i] - sum(batches[f"g{e}"][i] for e in others) / len(others) for i in common]
        cm, clo, chi, se = mean_ci(c)
        p = p_two_sided(cm / se) if se > 0 else 1.0
        rows.append([tier, d, red_kept(d), len(s), f"{m:.4f}", f"{lo:.4f}", f"{hi:.4f}", len(common),
                     f"{cm:+.4f}", f"{clo:+.4f}", f"{chi:+.4f}", f"{p:.3g}"])
    write_csv(out, ["tier", "die", "red_kept", "games", "score", "score_lo", "score_hi", "paired_games",
                    "c", "c_lo", "c_hi", "p"], rows)


def pearson(x, y):
    mx, my = sum(x) / len(x), sum(y) / len(y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    return sxy / math.sqrt(sxx * syy)


def fisher_z(r, n):
    """Fisher's z statistic of a Pearson r from n pairs."""
    r = max(min(r, 0.999999), -0.999999)
    return math.atanh(r) * math.sqrt(n - 3)


def rates(table):
    """Die -> giver win rate, from a paired_gives.py table."""
    with open(table, newline="") as f:
        return {int(r["first_give"][1:]): float(r["giver_rate"]) for r in csv.DictReader(f)
                if r["first_give"] != "others"}


def tests(out, olds):
    tiers = sorted(os.path.basename(p)[5:-4] for p in glob.glob(os.path.join(out, "dice-*.csv"))
                   if not p.endswith("dice-tests.csv"))
    if not tiers:
        sys.exit(f"no dice-TIER.csv in {out}")
    rows, prim = [], []
    dice = {}
    for t in tiers:
        with open(os.path.join(out, f"dice-{t}.csv"), newline="") as f:
            dice[t] = list(csv.DictReader(f))
        prim += [(t, r) for r in dice[t]]
    adj = holm([float(r["p"]) for _, r in prim])
    for (t, r), q in zip(prim, adj):
        rows.append([t, "primary", f"die {r['die']} (k={r['red_kept']}): c_d", r["paired_games"], r["c"], r["c_lo"],
                     r["c_hi"], r["p"], f"{q:.3g}"])
    sec1, sec2 = [], []
    for t in tiers:
        score = {int(r["die"]): float(r["score"]) for r in dice[t]}
        ys = [score[d] for d in THREE_WHITE]
        k = [red_kept(d) for d in THREE_WHITE]
        for name, x in (("r(k, score)", k), ("r(one colour all white, score)", [float(v in (0, 3)) for v in k])):
            r2 = pearson(x, ys)
            sec2.append((t, name, r2, p_two_sided(fisher_z(r2, 20))))
        if t in olds:
            old, new = rates(olds[t]), rates(os.path.join(out, f"{t}.csv"))
            r1 = pearson([old[d] for d in THREE_WHITE], [new[d] for d in THREE_WHITE])
            z = fisher_z(r1, 20)
            sec1.append((t, "r(win rate at the old seed, at this one), one-sided", r1,
                         0.5 * math.erfc(z / math.sqrt(2))))
    for kind, sec in (("secondary 1", sec1), ("secondary 2", sec2)):
        for (t, name, r, p), q in zip(sec, holm([x[3] for x in sec])):
            rows.append([t, kind, name, 20, f"{r:+.3f}", "", "", f"{p:.3g}", f"{q:.3g}"])
    for t in tiers:
        for kk in range(4):
            xs = [float(r["score"]) for r in dice[t] if int(r["red_kept"]) == kk]
            rows.append([t, "descriptive", f"mean score of the dice with k={kk}", len(xs), f"{sum(xs) / len(xs):.4f}",
                         "", "", "", ""])
    head = ["tier", "kind", "quantity", "n", "estimate", "low", "high", "p", "p_holm"]
    write_csv(os.path.join(out, "dice-tests.csv"), head, rows)
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(head)
    w.writerows(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tier")
    ap.add_argument("--out")
    ap.add_argument("--tests", metavar="OUT")
    ap.add_argument("--old", action="append", default=[], metavar="TIER=TABLE")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    if a.tests:
        olds = dict(o.split("=", 1) for o in a.old)
        tests(a.tests, olds)
    elif a.tier and a.out and a.files:
        per_die(a.tier, a.out, a.files)
    else:
        ap.error("give --tier NAME --out FILE GAMES.csv..., or --tests OUT")


if __name__ == "__main__":
    main()

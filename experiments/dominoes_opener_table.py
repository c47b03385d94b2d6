#!/usr/bin/env python3
"""The table of results/other-games/opener/PLAN.md: reads the per-batch
outputs of experiments/dominoes_opener.py (DIR/<P>p-<tier>.csv) and writes
DIR/opener.csv and DIR/opener.md: per player count and tier, the share of
rounds whose opener scores the round with its interval clustered by deal,
the fair share 1/P, the two-sided p and the Holm-adjusted p over the plan's
8 tests; then, descriptive, the same share in rounds ended by a domino and
in blocked rounds, and the range of the seats' match-win rates paired over
deals. Standard library only.

Usage: dominoes_opener_table.py DIR
"""
import csv
import os
import sys

from senatstats import Z, holm, p_two_sided

TIERS = ["random", "greedy", "pimc_playouts_300_worlds_10", "ismcts_playouts_300"]
LABEL = {"pimc_playouts_300_worlds_10": "pimc:playouts=300,worlds=10", "ismcts_playouts_300": "ismcts:playouts=300"}


def clustered(rows, name):
    for r in rows:
        if r["section"] == "opener" and r["row"] == name and r["interval"].startswith("clustered"):
            return r
    raise SystemExit(f"no clustered row {name!r}")


def p_of(r):
    """Two-sided p of the rate against the fair share, from the row's normal interval
    (recomputed here: dominoes_opener.py rounds p_fair to four decimals)."""
    se = (float(r["hi95"]) - float(r["lo95"])) / (2 * Z)
    return p_two_sided((float(r["rate"]) - float(r["fair"])) / se) if se > 0 else 1.0


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    out = []
    for p in (2, 4):
        for t in TIERS:
            with open(os.path.join(d, f"{p}p-{t}.csv"), newline="") as f:
                rows = list(csv.DictReader(f))
            a, dom, blk = clustered(rows, "all rounds"), clustered(rows, "domino rounds"), clustered(rows, "blocked rounds")
            seats = [r for r in rows if r["section"] == "seat"]
            out.append({
                "players": p, "tier": LABEL.get(t, t), "matches": sum(int(s["n"]) for s in seats[:1]) * p,
                "deals": seats[0]["n"] if seats else "", "rounds": a["n"], "rate": float(a["rate"]),
                "lo": float(a["lo95"]), "hi": float(a["hi95"]), "fair": float(a["fair"]), "p": p_of(a),
                "domino": f'{100 * float(dom["rate"]):.1f} [{100 * float(dom["lo95"]):.1f}, {100 * float(dom["hi95"]):.1f}] ({dom["n"]})',
                "blocked": f'{100 * float(blk["rate"]):.1f} [{100 * float(blk["lo95"]):.1f}, {100 * float(blk["hi95"]):.1f}] ({blk["n"]})',
                "seats": " / ".join(f'{100 * float(s["rate"]):.1f}' for s in seats),
                "seat_ci": max((float(s["hi95"]) - float(s["lo95"])) / 2 for s in seats) if seats else 0.0,
            })
    for r, a in zip(out, holm([r["p"] for r in out])):
        r["p_holm"] = a
    keys = list(out[0].keys())
    with open(os.path.join(d, "opener.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(out)

    def fp(p):
        return "< 1e-300" if p < 1e-300 else f"{p:.3g}" if p >= 0.01 else f"{p:.1e}"

    with open(os.path.join(d, "opener.md"), "w") as f:
        f.write("| players | tier | deals × rotations | rounds | opener scores the round | fair | p | p_Holm (8) | domino rounds (n) | blocked rounds (n) | seats' match wins, paired over deals (± at most) |\n")
        f.write("|---|---|---|---|---|---|---|---|---|---|---|\n")
        for r in out:
            f.write(f'| {r["players"]} | `{r["tier"]}` | {r["deals"]} × {r["players"]} | {r["rounds"]} | '
                    f'{100 * r["rate"]:.1f} [{100 * r["lo"]:.1f}, {100 * r["hi"]:.1f}] % | {100 * r["fair"]:.0f} % | {fp(r["p"])} | {fp(r["p_holm"])} | '
                    f'{r["domino"]} | {r["blocked"]} | {r["seats"]} % (±{100 * r["seat_ci"]:.1f}) |\n')
        f.write("\nIntervals 95 %, normal, clustered by deal (the P rotations of a deal share its hands); "
                "a blocked tie scores for nobody.\n")


if __name__ == "__main__":
    main()

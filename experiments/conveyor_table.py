#!/usr/bin/env python3
"""The share of games whose first push is a conveyor push (a push from M
into the full row I, which ejects a die through the door), per tier, from
`senat draft-stats` tables DIR/draft-stats-<tier>/first_push.csv, with a
Wilson 95 % interval; written to DIR/conveyor.md. Only the share is
reported: the pusher of the first push is nearly always the first mover,
so a pusher's win rate would measure a side. Standard library only.

Usage: conveyor_table.py DIR TIER...   (a TIER is T, or LABEL@PATH/NAME: senatstats.tier_arg)
"""
import csv
import os
import sys

from senatstats import tier_arg, wilson





def main():
    d = sys.argv[1]
    args = [tier_arg(d, a) for a in sys.argv[2:]]
    with open(os.path.join(d, "conveyor.md"), "w") as f:
        f.write("| tier | games | first push is a conveyor push | of which it ejects the pusher's colour | "
                "mean play ply of the first push |\n|---|---|---|---|---|\n")
        for t, folder, name in args:
            rows = list(csv.DictReader(open(os.path.join(folder, f"draft-stats-{name}", "first_push.csv"), newline="")))
            n = sum(int(r["games"]) for r in rows)
            k = sum(int(r["games"]) for r in rows if r["kind"].startswith("conveyor"))
            own = sum(int(r["games"]) for r in rows if r["kind"] == "conveyor_own")
            lo, hi = wilson(k, n)
            olo, ohi = wilson(own, n)
            f.write(f"| {t} | {n} | {100 * k / n:.2f} [{100 * lo:.2f}, {100 * hi:.2f}] % | "
                    f"{100 * own / n:.2f} [{100 * olo:.2f}, {100 * ohi:.2f}] % of games | "
                    f"{float(rows[0]['mean_first_push_ply']):.2f} |\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The opening explorer of one tier as a Markdown table.

Reads a `senat draft-stats` opening tree (DIR/opening_tree.csv: the first
give, red's first placement as row:colour, the second give, blue's first
placement; at most 6 children per node, the rest in one `(other)` row) and
writes OUT: one row per node with at least MIN games (default 1 % of the
games), in tree order, with its games, its share of the parent's games and
red / blue / draw rates with their Wilson 95 % intervals (those of the CSV).
Descriptive: a line's rates are those of the games where the agent chose
it, not what the line is worth (the agent picks lines where it expects to
do well; only forced moves measure a choice, REPORT §3 and §3b).

Usage: opening_table.py OPENING_TREE.csv OUT.md [--depth D] [--min N]
"""
import argparse
import csv


def pct(r, k):
    return f'{100 * float(r[k + "_rate"]):.1f} [{100 * float(r[k + "_lo"]):.1f}, {100 * float(r[k + "_hi"]):.1f}]'


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tree")
    ap.add_argument("out")
    ap.add_argument("--depth", type=int, default=2, help="deepest level shown (1-4, default 2)")
    ap.add_argument("--min", type=int, default=0, help="least games a node needs to be shown (default 1 %% of all)")
    a = ap.parse_args()
    with open(a.tree, newline="") as f:
        rows = [r for r in csv.DictReader(f) if int(r["depth"]) <= a.depth]
    total = sum(int(r["games"]) for r in rows if r["depth"] == "1")
    least = a.min or max(1, total // 100)
    with open(a.out, "w") as f:
        f.write(f"| line | games | share of the parent | red wins % | blue wins % | draws % |\n|---|---|---|---|---|---|\n")
        for r in rows:
            if int(r["games"]) < least:
                continue
            indent = "↳ " * (int(r["depth"]) - 1)
            share = f'{100 * float(r["share_of_parent"]):.1f} %'
            f.write(f'| {indent}`{r["line"]}` | {r["games"]} | {share} | {pct(r, "red")} | {pct(r, "blue")} | {pct(r, "draw")} |\n')
        f.write(f"\n{total} games; nodes with at least {least} games; lines: gN = die N given, R:class = the die placed in row R "
                "showing the placer's own colour, the opponent's or white.\n")


if __name__ == "__main__":
    main()

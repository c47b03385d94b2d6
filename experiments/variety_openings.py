#!/usr/bin/env python3
"""First draft moves of Sénat games files (issue 58 item 4): for each file,
the distinct openings by their first 1, 2 and 4 draft moves and the counts
of the first give. Usage: experiments/variety_openings.py GAMES.csv..."""
import collections
import csv
import sys

for path in sys.argv[1:]:
    with open(path, newline="") as f:
        rows = csv.reader(f)
        next(rows)  # the identity line
        head = next(rows)
        draft = head.index("draft_moves")
        firsts = [r[draft].split(" ") for r in rows]
    n = len(firsts)
    distinct = {k: len({" ".join(m[:k]) for m in firsts}) for k in (1, 2, 4)}
    gives = collections.Counter(m[0] for m in firsts).most_common()
    print(f"{path}: {n} games; distinct openings by first 1/2/4 draft moves: "
          f"{distinct[1]}/{distinct[2]}/{distinct[4]}; first give: "
          + ", ".join(f"{g} {c}" for g, c in gives))

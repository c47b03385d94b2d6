"""The statistics the experiment scripts share: Wilson and normal 95 %
intervals, two-sided normal p-values and Holm's adjustment. Standard
library only; imported by the scripts beside it (`python3 experiments/x.py`
puts this folder on the path)."""
import csv
import math
import os
import sys

Z = 1.959963984540054


def wilson(k, n, z=Z):
    """Wilson interval of k successes in n trials, as (low, high)."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    den = 1 + z * z / n
    c = (p + z * z / (2 * n)) / den
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, c - h), min(1.0, c + h))


def mean_ci(xs):
    """Mean of xs, its 95 % normal interval and its standard error: (mean, low, high, se)."""
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    se = sd / math.sqrt(n)
    return m, m - Z * se, m + Z * se, se


def p_two_sided(z):
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def holm(ps):
    """Holm-adjusted p-values, in the order given."""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    adj, running = [0.0] * len(ps), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        adj[i] = running
    return adj


def tier_arg(d, arg):
    """(label, folder, name) of a tier argument of the report scripts.

    `T` reads the tier's files from DIR, named after T (`T-rules.summary.csv`,
    `metrics-T.csv`, `draft-stats-T/`); `LABEL@PATH/NAME` reads them from
    PATH, named after NAME, and shows them as LABEL (a table over tiers run
    in different folders, or a tier whose files carry an older name)."""
    if "@" in arg:
        label, path = arg.split("@", 1)
        return label, os.path.dirname(path) or ".", os.path.basename(path)
    return arg, d, arg


def read_by_opening(path, key_of):
    """A Sénat games file whose games all open the same way: the opening's
    key (`key_of(draft moves)`, None for a game that does not open as the
    design says) and red's score (win 1, draw 1/2) per game index. Exits
    with a message naming the game that breaks either rule."""
    scores, key = {}, None
    with open(path, newline="") as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            moves = r["draft_moves"].split(" ")
            k = key_of(moves)
            if k is None:
                sys.exit(f"{path}: game {r['game']} does not open with the design's moves ({' '.join(moves[:2])})")
            if key is None:
                key = k
            elif key != k:
                sys.exit(f"{path}: game {r['game']} opens with {' '.join(moves[:2])}, not as the file's first game")
            scores[int(r["game"])] = {"red": 1.0, "blue": 0.0}.get(r["winner"], 0.5)
    return key, scores

#!/usr/bin/env python3
"""Scores agents on a tactical suite (made by experiments/tactics-suite.py).

Usage:
  experiments/tactics-score.py tests/fixtures/tactics-senat.txt top learned 'ab:depth=3'
  experiments/tactics-score.py tests/fixtures/tactics-dominoes.txt random greedy strong top
  experiments/tactics-score.py SUITE AGENT... [--bin target/release/senat] [--csv out.csv] [--seed 1]

For every position of the suite, `senat bestmove --agent AGENT` is asked for
its move (the position alone, no history, as the suite's verdicts were
proved), and the move counts as found when it is one of the position's good
moves (proved to win within the horizon, or not proved lost for a save).
Prints one row per agent and class: positions, found, the share with its
Wilson 95 % interval, and the time per move (median and maximum of the
`bestmove` process's wall-clock time, so it includes about 2 ms of process
start). With `--csv`, writes the same rows, the command and the binary's
commit to a CSV file (never over an existing one unless --force).

Dominoes (`game=dominoes`): each position is the observation of the player
deciding, given as is to `senat bestmove --game dominoes`; a move is found
when it is one of the proved sure wins of the round (`win`) or one of the
moves not proved lost (`save`).
"""
import argparse
import csv
import math
import os
import shlex
import statistics
import subprocess
import sys
import time


def wilson(k, n, z=1.96):
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def read_suite(path):
    game, items = "senat", []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("# tactics suite v1"):
                for tok in line.split():
                    if tok.startswith("game="):
                        game = tok[5:]
                continue
            if not line.strip() or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split("|")]
            if len(parts) != 6:
                sys.exit(f"tactics-score: {path}:{n}: expected 6 fields separated by `|`, found {len(parts)}")
            cls, dist, legal, good, pos, src = parts
            items.append({"class": cls, "distance": int(dist), "legal": int(legal), "good": set(good.split()),
                          "pos": pos, "source": src})
    if not items:
        sys.exit(f"tactics-score: {path}: no position")
    return game, items


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("suite")
    ap.add_argument("agents", nargs="+")
    ap.add_argument("--bin", default=os.environ.get("SENAT_BIN", "target/release/senat"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--csv")
    ap.add_argument("--misses", action="store_true", help="list the positions each agent misses")
    ap.add_argument("--force", action="store_true")
    a = ap.parse_args()
    if a.csv and os.path.exists(a.csv) and not a.force:
        sys.exit(f"tactics-score: {a.csv} exists (use --force)")
    game, items = read_suite(a.suite)
    classes = []
    for it in items:
        if it["class"] not in classes:
            classes.append(it["class"])
    rows = []
    print(f"{'agent':<48} {'class':<7} {'n':>4} {'found':>5} {'share':>6} {'95% interval':>14} {'ms med':>7} {'ms max':>7}")
    for agent in a.agents:
        res = {c: [] for c in classes}
        for i, it in enumerate(items):
            cmd = [a.bin, "bestmove", "--agent", agent, "--seed", str(a.seed + i)]
            if game != "senat":
                cmd += ["--game", game]
            cmd.append(it["pos"])
            t0 = time.perf_counter()
            p = subprocess.run(cmd, capture_output=True, text=True)
            ms = (time.perf_counter() - t0) * 1000
            if p.returncode != 0:
                sys.exit(f"tactics-score: {shlex.join(cmd)} failed: {p.stderr.strip()}")
            move = p.stdout.strip().splitlines()[-1].strip()
            hit = move in it["good"]
            res[it["class"]].append((hit, ms))
            if a.misses and not hit:
                print(f"  miss {agent}: {it['class']} played {move}, good {' '.join(sorted(it['good']))}: {it['pos']}",
                      file=sys.stderr)
        for c in classes + ["all"]:
            r = [x for cc in classes for x in res[cc]] if c == "all" else res[c]
            n, k = len(r), sum(h for h, _ in r)
            lo, hi = wilson(k, n)
            times = [t for _, t in r]
            row = {"agent": agent, "class": c, "positions": n, "found": k, "share": k / n if n else 0.0,
                   "lo": lo, "hi": hi, "ms_median": statistics.median(times) if times else 0.0,
                   "ms_max": max(times) if times else 0.0}
            rows.append(row)
            print(f"{agent:<48} {c:<7} {n:>4} {k:>5} {row['share']:>6.1%} [{lo:>5.1%}, {hi:>5.1%}] "
                  f"{row['ms_median']:>7.1f} {row['ms_max']:>7.1f}")
        sys.stdout.flush()
    if a.csv:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        tmp = a.csv + ".tmp"
        with open(tmp, "w", newline="") as f:
            f.write(f"# tactics-score suite={a.suite} commit={commit} command={shlex.join(sys.argv)}\n")
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        os.replace(tmp, a.csv)


if __name__ == "__main__":
    main()

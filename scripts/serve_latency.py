#!/usr/bin/env python3
"""The request latency of `senat serve`'s analysis at a fixed budget.

    python3 scripts/serve_latency.py [BIN] [--requests N] [--playouts P]

Starts BIN (default target/ci/senat) as `senat serve --port 0` on an empty
folder, then for each case sends N (default 200) analyses of one position
one after another (a fresh connection each, as the page does), and prints
per case the wall time of each request as the client sees it: min, median
and p99 with distribution-free 95 % intervals (order statistics), max,
and the server's own search time (`ms` of the answer), median. The
position and the seed are fixed, so every request does the same search.
"""
import json
import math
import subprocess
import sys
import tempfile
import time
import urllib.request

CASES = [
    ("senat", "sample", "Sénat, the sample game's position after the draft (play phase)"),
    ("senat", "start", "Sénat, the start (the draft: blue gives)"),
    ("connect4", "start", "Connect Four, the start"),
    ("focus", "start", "Focus, the start"),
]


def order_ci(xs, q):
    """The q-quantile of sorted xs and a 95 % interval of ranks (binomial, normal approximation)."""
    n = len(xs)
    k = q * n
    half = 1.96 * math.sqrt(n * q * (1 - q))
    lo = max(0, math.floor(k - half) - 1)
    hi = min(n - 1, math.ceil(k + half) - 1)
    return xs[min(n - 1, max(0, math.ceil(k) - 1))], xs[lo], xs[hi]


def main():
    args = sys.argv[1:]
    binary = "target/ci/senat"
    n, playouts = 200, 1000
    while args:
        a = args.pop(0)
        if a == "--requests":
            n = int(args.pop(0))
        elif a == "--playouts":
            playouts = int(args.pop(0))
        else:
            binary = a
    folder = tempfile.mkdtemp()
    server = subprocess.Popen([binary, "serve", "--port", "0", "--dir", folder, "--max-playouts", str(playouts)],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        addr = server.stdout.readline().split("http://")[1].split("/")[0]
        print(f"binary {binary}; {n} requests per case, {playouts} playouts, seed 1, one at a time")
        for game, start, about in CASES:
            body = json.dumps({"game": game, "start": start, "playouts": playouts, "seed": 1}).encode()
            walls, searches = [], []
            for _ in range(n):
                rq = urllib.request.Request(f"http://{addr}/api/analyse", data=body,
                                            headers={"Content-Type": "application/json"})
                t0 = time.perf_counter()
                with urllib.request.urlopen(rq) as r:
                    answer = json.load(r)
                walls.append((time.perf_counter() - t0) * 1000)
                searches.append(answer["ms"])
            walls.sort()
            searches.sort()
            med, mlo, mhi = order_ci(walls, 0.5)
            p99, plo, phi = order_ci(walls, 0.99)
            print(f"{about} ({game} {start}): best {answer['best']}; wall ms: min {walls[0]:.1f}, "
                  f"median {med:.1f} (95 % {mlo:.1f}-{mhi:.1f}), p99 {p99:.1f} (95 % {plo:.1f}-{phi:.1f}), "
                  f"max {walls[-1]:.1f}; search ms (server) median {searches[len(searches) // 2]}")
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    main()

"""Rates of the senat Python package (crates/python/README.md quotes them).

    python crates/python/bench_rates.py [GAMES]

1. Random Sénat games played move by move from Python (`legal_moves`, then
   `play` of a uniformly drawn move), in games per second.
2. `Position.play` calls per second from a Python loop: the moves of
   recorded random games replayed from their start (no move generation
   asked from Python), for every game.
3. A batch of 10 x GAMES random Sénat games run inside Rust by
   `senat.selfplay` on one thread (the lab's batch runner, as `senat
   selfplay --threads 1`).
"""

import random
import sys
import tempfile
import time
from pathlib import Path

import senat

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 2000


def random_games(game, n, seed):
    """Plays n random games from Python; returns (seconds, plies, games' moves)."""
    rng = random.Random(seed)
    records, plies = [], 0
    start = senat.Position.start(game)
    t = time.perf_counter()
    for _ in range(n):
        p, moves = start, []
        while not p.is_over:
            m = rng.choice(p.legal_moves())
            p = p.play(m)
            moves.append(m)
        plies += len(moves)
        records.append(moves)
    return time.perf_counter() - t, plies, records


secs, plies, records = random_games("senat", GAMES, 1)
print(f"python random senat games: {GAMES} games, {plies} plies in {secs:.2f} s: "
      f"{GAMES / secs:.0f} games/s, {plies / secs:.0f} plies/s")

for game in senat.GAMES:
    n = GAMES if game in ("senat", "debacle", "dominoes") else max(1, GAMES // 10)
    _, _, recs = random_games(game, n, 2) if game != "senat" else (None, None, records)
    start = senat.Position.start(game)
    calls = 0
    t = time.perf_counter()
    for moves in recs:
        p = start
        for m in moves:
            p = p.play(m)
        calls += len(moves)
    secs = time.perf_counter() - t
    print(f"play calls from a python loop, {game}: {calls} calls in {secs:.2f} s: {calls / secs:.0f} calls/s")

with tempfile.TemporaryDirectory() as d:
    r = senat.selfplay("senat", Path(d) / "g.csv", 10 * GAMES, threads=1, red="random", blue="random")
    print(f"senat.selfplay (the lab's runner, 1 thread): {r['played']} games in {r['seconds']:.2f} s: "
          f"{r['played'] / r['seconds']:.0f} games/s")

"""Random play through `senat.VecEnv` (N games stepped in Rust) against
PettingZoo's own `performance_benchmark` on the same game, in one run.

    python crates/python/benches/bench_vec_env.py [GAME] [SECONDS] > results/python-frameworks/vec_env.txt

For `REPEATS` rounds it measures, one after the other, plies (steps of one
game) per second on one core (one thread; `step_random` runs without the
interpreter's lock but on the calling thread):

- `step_random, observations`: `VecEnv.step_random`, every ply writing
  the game's observation tensor and legal-action mask into the NumPy
  arrays, for N = 1 and N = 64 games;
- `step_random, no observations`: the same with `observe=False` (only the
  rules, the legal-action ids and the random choice; the masks are written
  at the end): the mode without observations, labelled as such;
- `python loop`: `env.step(env.random_actions())` from Python, N = 64
  (one call per step of all N games, observations written);
- `pettingzoo performance_benchmark`: PettingZoo's own benchmark
  (`pettingzoo.test.performance_benchmark`, 5 s by its own clock) on
  `senat.pettingzoo.env(GAME)`, its "turns per second".

Each rate is given twice: per second of wall-clock time, and per second
of the process's CPU time (`time.process_time`), which on a machine
shared with other builds is the closer measure of one core's rate (it
still counts the cache and memory contention). Each ratio is a VecEnv rate
over the PettingZoo rate of the same round (min / median / max over the
rounds), so that a load that changes between rounds cancels out of it.

What this script must never do: write anything but its report on stdout.
"""

import contextlib
import io
import os

# NumPy's OpenBLAS threads spin beside the measured thread and would count
# in the process's CPU time: one thread.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import platform
import statistics
import subprocess
import sys
import time

import senat
import senat.pettingzoo
from pettingzoo.test import performance_benchmark

GAME = sys.argv[1] if len(sys.argv) > 1 else "senat"
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
REPEATS = 3


def timed(run):
    """`run()` (returning the plies it played) repeated for SECONDS: plies
    per wall-clock second and per CPU second."""
    plies, wall, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < SECONDS:
        plies += run()
    return plies / (time.perf_counter() - wall), plies / (time.process_time() - cpu)


def rate_step_random(n, observe):
    env = senat.VecEnv(GAME, n, seed=1)
    env.step_random(max(1, 2000 // n), observe=observe)  # warm up
    steps = max(1, 20000 // n)

    def run():
        env.step_random(steps, observe=observe)
        return steps * n

    return timed(run)


def rate_python_loop(n):
    env = senat.VecEnv(GAME, n, seed=1)

    def run():
        for _ in range(100):
            env.step(env.random_actions())
        return 100 * n

    return timed(run)


def rate_pettingzoo():
    out = io.StringIO()
    wall, cpu = time.perf_counter(), time.process_time()
    with contextlib.redirect_stdout(out):
        performance_benchmark(senat.pettingzoo.env(GAME))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    line = next(x for x in out.getvalue().splitlines() if x.endswith("turns per second"))
    rate = float(line.split()[0])
    # Its own clock covers its loop (just over 5 s); its turns are about
    # rate x the call's wall time, over the call's CPU time.
    return rate, rate * wall / cpu


def commit():
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "?"


def main():
    cpu = next((x.split(":", 1)[1].strip() for x in open("/proc/cpuinfo") if x.startswith("model name")), "?")
    print(f"# commit {commit()}; game {GAME}; {SECONDS} s per measurement, {REPEATS} rounds")
    print(f"# command: python {' '.join(sys.argv)}")
    print(f"# python {platform.python_version()}, senat {senat.__version__}, {os.cpu_count()} cpus ({cpu})")
    print(f"# load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rows = {
        "step_random, observations, N=1": lambda: rate_step_random(1, True),
        "step_random, observations, N=64": lambda: rate_step_random(64, True),
        "step_random, no observations, N=64": lambda: rate_step_random(64, False),
        "python loop step(random_actions()), N=64": lambda: rate_python_loop(64),
        "pettingzoo performance_benchmark (AEC)": rate_pettingzoo,
    }
    rates = {k: [] for k in rows}
    for r in range(REPEATS):
        for k, f in rows.items():
            rates[k].append(f())
        print(f"# round {r + 1} (wall, cpu): " + "; ".join(f"{k}: {v[-1][0]:,.0f}, {v[-1][1]:,.0f}" for k, v in rates.items()), flush=True)
    pz = rates["pettingzoo performance_benchmark (AEC)"]
    print(f"# load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    print("plies (steps of one game) per second on one thread, min / median / max over the rounds;")
    print("ratio: over PettingZoo's performance_benchmark in the same round, min / median / max")
    for which, j in (("per wall-clock second", 0), ("per CPU second (time.process_time)", 1)):
        print()
        print(which)
        for k, v in rates.items():
            x = sorted(r[j] for r in v)
            ratios = sorted(a[j] / b[j] for a, b in zip(v, pz))
            print(
                f"  {k:45s} {x[0]:>11,.0f} {statistics.median(x):>11,.0f} {x[-1]:>11,.0f}"
                f"   ratio {ratios[0]:>7.1f} {statistics.median(ratios):>7.1f} {ratios[-1]:>7.1f}"
            )


if __name__ == "__main__":
    main()

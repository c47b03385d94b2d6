"""Random-simulation speed of the senat games through pyspiel, against
OpenSpiel's own games of similar size, and of the PettingZoo environments.

    python crates/python/bench_frameworks.py [SECONDS] > results/python-frameworks/speed.txt

For each pair (ours, theirs) it runs, alternately, `REPEATS` rounds of:

- `loop`: random games driven from a Python loop through pyspiel's API
  (`legal_actions`, a uniform choice, `apply_action`; chance sampled from
  `chance_outcomes`), for about SECONDS seconds per game and round; plies
  per second;
- `sim_test`: `pyspiel.random_sim_test(game, num_sims=K, serialize=False)`
  (OpenSpiel's own check, its loop in C++: for our games every call
  crosses into Python), with K chosen per game from the first round;
  plies per second estimated from the loop's mean game length.

Each ratio is ours over theirs within a round (min / median / max over the
rounds), so a load that varies between rounds cancels out of it. Then
PettingZoo: random AEC episodes of each game (`env.last()`, a masked
sample, `env.step`), steps per second.

What this script must never do: write anything but its report on stdout.
"""

import os
import statistics
import subprocess
import sys
import time

import numpy as np
import pyspiel

import senat
import senat.openspiel

senat.openspiel.register()
import open_spiel.python.games  # noqa: E402,F401  (registers python_block_dominoes, python_tic_tac_toe)

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
REPEATS = 3

PAIRS = [
    ("senat_connect4", "connect_four", "Connect Four, 7 x 6 (OpenSpiel's C++)"),
    ("senat_dominoes(rules=openspiel)", "python_block_dominoes", "block dominoes, one hand, the same rules (OpenSpiel's Python game)"),
    ("senat_focus", "checkers", "Focus (8 x 8, 52 squares) vs checkers (8 x 8, OpenSpiel's C++)"),
    ("senat_debacle", "breakthrough", "Débâcle (6 x 6) vs breakthrough (8 x 8, OpenSpiel's C++)"),
    ("senat", "othello", "Sénat vs othello (OpenSpiel's C++)"),
    ("python_tic_tac_toe", "tic_tac_toe", "reference: OpenSpiel's own Python game vs its C++ twin"),
]


def loop(game, seconds, rng):
    """(plies per second, games, mean plies per game) of random games."""
    plies = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.integers(len(outcomes))][0])
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.integers(len(legal))])
            plies += 1
        games += 1
    t = time.perf_counter() - start
    return plies / t, games, plies / games


def sim_test(game, sims):
    start = time.perf_counter()
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)
    return time.perf_counter() - start


def spread(xs):
    return f"{min(xs):.3g} / {statistics.median(xs):.3g} / {max(xs):.3g}"


def main():
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    print(f"# bench_frameworks.py {SECONDS:g}  (commit {commit}, {REPEATS} rounds, pyspiel {pyspiel.__file__.split('/')[-1]})")
    print(f"# machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start")
    rng = np.random.default_rng(1)
    for ours_name, theirs_name, what in PAIRS:
        ours, theirs = pyspiel.load_game(ours_name), pyspiel.load_game(theirs_name)
        rows = {"loop": ([], []), "sim_test": ([], [])}
        lengths = [[], []]
        sims = [None, None]
        for _ in range(REPEATS):
            for i, g in enumerate((ours, theirs)):
                rate, _, mean = loop(g, SECONDS, rng)
                rows["loop"][i].append(rate)
                lengths[i].append(mean)
                if sims[i] is None:
                    sims[i] = max(1, int(SECONDS * rate / 4 / mean))
                t = sim_test(g, sims[i])
                rows["sim_test"][i].append(sims[i] * mean / t)
        print(f"\n## {ours_name} vs {theirs_name}: {what}")
        print(f"mean plies per random game: {statistics.mean(lengths[0]):.1f} vs {statistics.mean(lengths[1]):.1f}")
        for kind, (a, b) in rows.items():
            ratios = [x / y for x, y in zip(a, b)]
            print(
                f"{kind:8} plies/s min/median/max: ours {spread(a)}, theirs {spread(b)}; "
                f"ratio ours/theirs {spread(ratios)}" + (f"  (sims {sims[0]} vs {sims[1]})" if kind == "sim_test" else "")
            )

    import warnings

    import senat.pettingzoo as sp

    print("\n## PettingZoo AEC, random episodes (env.last, masked sample, env.step)")
    for game in senat.GAMES:
        rates = []
        for r in range(REPEATS):
            env = sp.env(game)
            steps = 0
            start = time.perf_counter()
            episode = 0
            while time.perf_counter() - start < SECONDS / 2 or episode == 0:
                env.reset(seed=r * 1000 + episode)
                for agent in env.agent_iter():
                    obs, _, term, trunc, _ = env.last()
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        a = None if term or trunc else env.action_space(agent).sample(obs["action_mask"])
                    env.step(a)
                    steps += 1
                episode += 1
            rates.append(steps / (time.perf_counter() - start))
        print(f"{game:9} steps/s min/median/max: {spread(rates)}")


if __name__ == "__main__":
    main()

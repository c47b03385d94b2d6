"""Random complete games of OpenSpiel's python_block_dominoes per second,
one thread, for the side-by-side comparison of experiments/dominoes.sh.

A game of python_block_dominoes is one hand (the 2-player, 7-tile deal with
no boneyard), the same as `rules=openspiel` in dominoes-rules. Chance
outcomes (the deal) are drawn uniformly, as their probabilities are.
Usage: python openspiel_dominoes.py [seconds]
"""
import random
import sys
import time

import pyspiel
from open_spiel.python.games import block_dominoes  # noqa: F401 (registers the game)

seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
game = pyspiel.load_game("python_block_dominoes")
rng = random.Random(1)
n = 0
start = time.perf_counter()
while time.perf_counter() - start < seconds:
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.choice(s.chance_outcomes())[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    n += 1
dt = time.perf_counter() - start
print(f"openspiel python_block_dominoes: {n} random games in {dt:.2f} s: {n / dt:.0f} games/s")

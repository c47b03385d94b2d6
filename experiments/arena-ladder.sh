#!/usr/bin/env bash
# The strength ladder of issue 4: random < greedy < heuristic < alpha-beta
# (depth 2) and MCTS (1000 playouts, greedy rollouts), 200 games per step in
# colour-swapped pairs with a shared random draft, then heuristic against
# both engines. Writes results/arena/*.csv and prints the tables.
# Usage: experiments/arena-ladder.sh [games-per-pairing] [seed]
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200}
seed=${2:-2026}
cargo build --release --quiet
bin=target/release/senat
out=results/arena
mkdir -p "$out"
mcts='mcts:playouts=1000,rollout=greedy'
"$bin" arena random greedy heuristic 'ab:depth=2' "$mcts" --ladder --games "$games" --seed "$seed" \
  --out "$out/ladder-games.csv" --summary "$out/ladder-summary.csv" --force --quiet
"$bin" arena heuristic 'ab:depth=2' "$mcts" --gauntlet --games "$games" --seed "$seed" \
  --out "$out/gauntlet-games.csv" --summary "$out/gauntlet-summary.csv" --force --quiet

#!/usr/bin/env bash
# Issue 10: does drafting by search beat drafting by rules? The same play
# agent on both sides (the learned one-ply policy, then the top MCTS),
# different drafters: heuristic rules, one ply on the learned evaluation,
# and MCTS on the learned evaluation (PUCT, eval leaves). Own drafts,
# colour-swapped pairs from the same 2-ply random books.
# Writes results/arena/searched-draft.txt.
# Usage: experiments/searched-draft.sh [games] [seed]
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200}
seed=${2:-2028}
cargo build --release --quiet
bin=target/release/senat
out=results/arena
mkdir -p "$out"
search='mcts:playouts=10000,rollout=eval,prior=1000'
{
  echo "# experiments/searched-draft.sh $games $seed (commit $(git rev-parse --short HEAD))"
  "$bin" arena "heuristic>learned" "$search>learned" --games "$games" --seed "$seed" --draft own --book-plies 2
  "$bin" arena "learned>learned" "$search>learned" --games "$games" --seed "$seed" --draft own --book-plies 2
  "$bin" arena "heuristic>$search" "$search>$search" --games "$((games / 2))" --seed "$seed" --draft own --book-plies 2
} | tee "$out/searched-draft.txt"

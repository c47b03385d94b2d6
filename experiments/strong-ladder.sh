#!/usr/bin/env bash
# The strong-agent ladder of issue 10, played twice: from shared random
# drafts, and with each agent drafting itself (`--draft own`, every pair
# starting from the same 2 random plies so that agents that draw no
# randomness still meet in varied games). Colour-swapped pairs, 95%
# intervals, each agent's think time per game. Then the new top agent
# against the old top (`mcts:playouts=1000,rollout=greedy`) both ways.
# Writes results/arena/strong-*.{txt,csv}.
# Usage: experiments/strong-ladder.sh [games-per-step] [seed]
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200}
seed=${2:-2027}
cargo build --release --quiet
bin=target/release/senat
out=results/arena
mkdir -p "$out"
top='mcts:playouts=10000,rollout=eval,prior=1000'
ladder=(random greedy heuristic learned 'mcts:playouts=2000,rollout=eval' "$top")
old='mcts:playouts=1000,rollout=greedy'
for draft in random own; do
  book=0
  [ "$draft" = own ] && book=2
  {
    echo "# experiments/strong-ladder.sh $games $seed (draft: $draft, book plies: $book; commit $(git rev-parse --short HEAD))"
    "$bin" arena "${ladder[@]}" --ladder --games "$games" --seed "$seed" --draft "$draft" --book-plies "$book" \
      --out "$out/strong-ladder-$draft-games.csv" --summary "$out/strong-ladder-$draft-summary.csv" --force
  } | tee "$out/strong-ladder-$draft.txt"
done
# The old top against the new, at fewer games (the old top is slow).
old_games=$(( games / 2 ))
for draft in random own; do
  book=0
  [ "$draft" = own ] && book=2
  {
    echo "# experiments/strong-ladder.sh $games $seed: old top against new (draft: $draft, book plies: $book)"
    "$bin" arena "$old" "$top" --games "$old_games" --seed "$seed" --draft "$draft" --book-plies "$book" \
      --summary "$out/strong-top-$draft-summary.csv" --force
  } | tee "$out/strong-top-$draft.txt"
done

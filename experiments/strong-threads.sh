#!/usr/bin/env bash
# Issue 10: at a fixed time per move, does the top agent get stronger with
# a second thread? One shared tree with virtual loss (parallel=tree) on 2
# threads against 1 thread, and root parallelism (parallel=root) on 2
# threads against 1 thread, each an SPRT elo0=0 elo1=20 (alpha = beta =
# 0.05). Games run one at a time (--concurrency 1) so that the two threads
# have the machine's two cores; run it on an otherwise idle machine.
# Writes results/arena/strong-threads.txt.
# Usage: experiments/strong-threads.sh [movetime-ms] [max-games] [seed]
set -euo pipefail
cd "$(dirname "$0")/.."
ms=${1:-50}
games=${2:-600}
seed=${3:-2029}
cargo build --release --quiet
bin=target/release/senat
out=results/arena
mkdir -p "$out"
base="mcts:rollout=eval,prior=1000,movetime=$ms"
{
  echo "# experiments/strong-threads.sh $ms $games $seed (commit $(git rev-parse --short HEAD); $(nproc) cores)"
  for mode in tree root; do
    "$bin" arena "$base,threads=2,parallel=$mode" "$base,threads=1" --games "$games" --seed "$seed" \
      --draft own --book-plies 2 --concurrency 1 --sprt elo0=0,elo1=20,alpha=0.05,beta=0.05
  done
} | tee "$out/strong-threads.txt"

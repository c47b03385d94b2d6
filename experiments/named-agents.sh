#!/usr/bin/env bash
# The named agents of every game against each other: `senat arena --game G
# fast strong top --ladder` (Sénat with --draft own), 40 games (20
# colour-swapped pairs, or duplicate deals for dominoes) per step, one
# thread, seed 2712. Prints each arena's table and writes its summary.
#
#   experiments/named-agents.sh [OUT]    OUT default: named-agents-<date>; must not exist
#
# SENAT (default target/release/senat), GAMES (default 40).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:-named-agents-$(date +%Y%m%d-%H%M%S)}
if [ -e "$out" ]; then echo "named-agents: $out exists; give a new folder" >&2; exit 2; fi
senat=${SENAT:-target/release/senat}
games=${GAMES:-40}
mkdir -p "$out"
{
  echo "# named agents, $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown); $("$senat" --version)"
  for g in focus debacle focus4 dominoes senat; do
    extra=()
    [ "$g" = senat ] && extra=(--draft own)
    cmd=("$senat" arena --game "$g" fast strong top --ladder "${extra[@]}" --games "$games" --seed 2712 --threads 1
      --summary "$out/$g-summary.csv" --force)
    echo "== ${cmd[*]}" | sed "s|$out/|OUT/|"
    start=$(date +%s)
    "${cmd[@]}"
    echo "== $g took $(( $(date +%s) - start )) s"
  done
} 2>&1 | tee "$out/output.txt"

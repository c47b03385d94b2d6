#!/usr/bin/env bash
# Sénat's `strong` against agents outside its family (issue 58: no tier had
# met `ab` in games): `senat arena strong ab:depth=D --draft own`, each
# agent drafting and playing with its own policy, colour-swapped pairs from
# the same seeds, one thread, seed 58. D = 3 (400 games) and 5 (200 games).
# Prints each table and writes each summary and games file.
#
#   experiments/outside-family.sh [OUT]    OUT default: outside-family-<date>; must not exist
#
# SENAT (default target/release/senat). The results do not depend on the
# build (the games are a function of the seed); the think times do.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:-outside-family-$(date +%Y%m%d-%H%M%S)}
if [ -e "$out" ]; then echo "outside-family: $out exists; give a new folder" >&2; exit 2; fi
senat=${SENAT:-target/release/senat}
mkdir -p "$out"
{
  echo "# strong against ab, $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown); $("$senat" --version)"
  for pair in 3:400 5:200; do
    d=${pair%:*} games=${pair#*:}
    cmd=("$senat" arena strong "ab:depth=$d" --draft own --games "$games" --seed 58 --threads 1
      --out "$out/ab$d-games.csv" --summary "$out/ab$d-summary.csv")
    echo "== ${cmd[*]}" | sed "s|$out/|OUT/|g"
    start=$(date +%s)
    "${cmd[@]}"
    echo "== ab:depth=$d took $(( $(date +%s) - start )) s"
  done
} 2>&1 | tee "$out/output.txt"

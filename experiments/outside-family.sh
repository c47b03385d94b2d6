#!/usr/bin/env bash
# Sénat's `strong` against agents outside its family (issue 58: no tier had
# met `ab` in games): `senat arena strong ab:depth=D --draft own`, each
# agent drafting and playing with its own policy, colour-swapped pairs from
# the same seeds, one thread, seed 58. D = 3 (400 games) and 5 (200 games);
# then D = 5 again with both sides' drafts random (`--draft random`): the
# play phase alone, from the same drafts.
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
  for run in 3:400:own 5:200:own 5:200:random; do
    IFS=: read -r d games draft <<<"$run"
    name=ab$d
    [ "$draft" = own ] || name=ab$d-draft-$draft
    cmd=("$senat" arena strong "ab:depth=$d" --draft "$draft" --games "$games" --seed 58 --threads 1
      --out "$out/$name-games.csv" --summary "$out/$name-summary.csv")
    echo "== ${cmd[*]}" | sed "s|$out/|OUT/|g"
    start=$(date +%s)
    "${cmd[@]}"
    echo "== $name took $(( $(date +%s) - start )) s"
  done
} 2>&1 | tee "$out/output.txt"

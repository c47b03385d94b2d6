#!/usr/bin/env bash
# The first-placement design of results/first-placement/PLAN.md: blue gives
# die 5, red places it on S6, M15 or I21 showing its own colour (Cr), the
# opponent's (Cb) or white (Tr); 9 batches per tier with the same seed, then
# the paired comparisons of the plan (experiments/paired_cells.py).
#
#   experiments/first-placement.sh OUT TIER:GAMES...    e.g. OUT learned:10000 strong:300
#
# OUT must not exist. SEED=2401, SENAT, WORK as in experiments/first-player.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ $# -ge 2 ] || { echo "usage: first-placement.sh OUT TIER:GAMES..." >&2; exit 2; }
# shellcheck source=experiments/run-folder.sh
. experiments/run-folder.sh
start_run first-placement "$1" /tmp/first-placement-games
shift
seed=${SEED:-2401}
for tg in "$@"; do
  tier=${tg%%:*} n=${tg##*:}
  spec=$(tier_spec "$tier")
  files=()
  start=$(date +%s)
  for cell in S6 M15 I21; do
    for face in Cr Cb Tr; do
      printf 'g5\n5@%s=%s\n' "$cell" "$face" >"$work/open-$cell-$face.txt"
      f="$work/$tier-$cell-$face.csv"
      "$senat" selfplay --games "$n" --seed "$seed" --red "$spec" --blue "$spec" --opening "$work/open-$cell-$face.txt" \
        --out "$f" --summary "" --force --quiet
      files+=("$f")
    done
  done
  echo "for C in S6 M15 I21, F in Cr Cb Tr: printf 'g5\n5@C=F\n' >open.txt; $senat selfplay --games $n --seed $seed --red $spec --blue $spec --opening open.txt --out WORK/$tier-C-F.csv --summary ''  # $(( $(date +%s) - start )) s for the 9" >>"$runs"
  python3 experiments/paired_cells.py --tier "$tier" --out "$out/$tier.csv" "${files[@]}"
  echo "python3 experiments/paired_cells.py --tier $tier --out OUT/$tier.csv WORK/$tier-*.csv" >>"$runs"
  rm -f "${files[@]}"
done

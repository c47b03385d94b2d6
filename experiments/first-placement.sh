#!/usr/bin/env bash
# The first-placement design of results/first-placement/PLAN.md: blue gives
# die 5, red places it on S6, M15 or I21 showing its own colour (Cr), the
# opponent's (Cb) or white (Tr); 9 batches per tier with the same seed, then
# the paired comparisons of the plan (experiments/paired_cells.py).
#
#   experiments/first-placement.sh OUT TIER:GAMES...    e.g. OUT learned:10000 strong:300
#
# OUT must not exist. SEED=2401, SENAT, WORK as in experiments/first-player.sh.
# DESIGN=classes runs results/first-placement/PLAN-classes.md instead (dice 1, 4
# and 3, 15 cells, SEED default 2403); DESIGN=rows runs PLAN-rows.md (dice 5
# and 1 showing Cr on S6 or I21, 4 cells, SEED default 6001).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ $# -ge 2 ] || { echo "usage: first-placement.sh OUT TIER:GAMES..." >&2; exit 2; }
# shellcheck source=experiments/run-folder.sh
. experiments/run-folder.sh
start_run first-placement "$1" /tmp/first-placement-games
shift
design=${DESIGN:-die5}
case $design in die5 | classes | rows) ;; *) echo "first-placement.sh: DESIGN must be die5, classes or rows, not $design" >&2; exit 2 ;; esac
if [ "$design" = classes ]; then
  seed=${SEED:-2403}
  openings="1:S6:Cr 1:S6:Cb 1:M15:Cr 1:M15:Cb 1:I21:Cr 1:I21:Cb 4:S6:Cb 4:S6:Cr 4:M15:Cb 4:M15:Cr 4:I21:Cb 4:I21:Cr 3:S6:Cr 3:M15:Cr 3:I21:Cr"
elif [ "$design" = rows ]; then
  seed=${SEED:-6001}
  openings="5:S6:Cr 5:I21:Cr 1:S6:Cr 1:I21:Cr"
else
  seed=${SEED:-2401}
  openings="5:S6:Cr 5:S6:Cb 5:S6:Tr 5:M15:Cr 5:M15:Cb 5:M15:Tr 5:I21:Cr 5:I21:Cb 5:I21:Tr"
fi
for tg in "$@"; do
  tier=${tg%%:*} n=${tg##*:}
  spec=$(tier_spec "$tier")
  files=()
  start=$(date +%s)
  for o in $openings; do
    die=${o%%:*} rest=${o#*:}
    cell=${rest%%:*} face=${rest#*:}
    printf 'g%s\n%s@%s=%s\n' "$die" "$die" "$cell" "$face" >"$work/open-$die-$cell-$face.txt"
    f="$work/$tier-$die-$cell-$face.csv"
    "$senat" selfplay --games "$n" --seed "$seed" --red "$spec" --blue "$spec" --opening "$work/open-$die-$cell-$face.txt" \
      --out "$f" --summary "" --force --quiet
    files+=("$f")
  done
  echo "for D:C:F in $openings: printf 'gD\nD@C=F\n' >open.txt; $senat selfplay --games $n --seed $seed --red $spec --blue $spec --opening open.txt --out WORK/$tier-D-C-F.csv --summary ''  # $(( $(date +%s) - start )) s for the $(echo $openings | wc -w)" >>"$runs"
  python3 experiments/paired_cells.py --design "$design" --tier "$tier" --out "$out/$tier.csv" "${files[@]}"
  echo "python3 experiments/paired_cells.py --design $design --tier $tier --out OUT/$tier.csv WORK/$tier-*.csv" >>"$runs"
  rm -f "${files[@]}"
done

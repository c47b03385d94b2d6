#!/usr/bin/env bash
# The first-give design of results/first-give/PLAN.md: for each tier, 22
# batches that differ only in blue's forced first give, then the paired
# differences (experiments/paired_gives.py) and the per-die contrasts of
# PLAN-dice.md (experiments/dice_equal.py; its tests: dice_equal.py --tests OUT).
#
#   experiments/first-give.sh OUT TIER:GAMES...     e.g. OUT learned:4000 strong:200
#
# OUT must not exist (nothing is overwritten). SEED=2301, SENAT, WORK as in
# experiments/first-player.sh; the games files go to WORK and are not kept.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ $# -ge 2 ] || { echo "usage: first-give.sh OUT TIER:GAMES..." >&2; exit 2; }
# shellcheck source=experiments/run-folder.sh
. experiments/run-folder.sh
start_run first-give "$1" /tmp/first-give-games
shift
seed=${SEED:-2301}
for tg in "$@"; do
  tier=${tg%%:*} n=${tg##*:}
  spec=$(tier_spec "$tier")
  files=()
  start=$(date +%s)
  for g in 1 $(seq 3 23); do
    f="$work/$tier-g$g.csv"
    "$senat" selfplay --games "$n" --seed "$seed" --red "$spec" --blue "$spec" --force-first-give "g$g" \
      --out "$f" --summary "" --force --quiet
    files+=("$f")
  done
  echo "for g in 1 3 4 ... 23: $senat selfplay --games $n --seed $seed --red $spec --blue $spec --force-first-give gN --out WORK/$tier-gN.csv --summary ''  # $(( $(date +%s) - start )) s for the 22" >>"$runs"
  python3 experiments/paired_gives.py --tier "$tier" --out "$out/$tier.csv" "${files[@]}"
  echo "python3 experiments/paired_gives.py --tier $tier --out OUT/$tier.csv WORK/$tier-g*.csv" >>"$runs"
  python3 experiments/dice_equal.py --tier "$tier" --out "$out/dice-$tier.csv" "${files[@]}"
  echo "python3 experiments/dice_equal.py --tier $tier --out OUT/dice-$tier.csv WORK/$tier-g*.csv" >>"$runs"
  rm -f "${files[@]}"
done

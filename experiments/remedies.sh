#!/usr/bin/env bash
# The rules-change study of results/remedies/PLAN.md: self-play per tier in
# the rules and four variants, then the differences to the rules
# (experiments/remedies.py).
#
#   experiments/remedies.sh OUT TIER:GAMES...     e.g. OUT learned:200000 strong:1000
#
# OUT must not exist. SEED=2601, SENAT, WORK as in experiments/first-player.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ $# -ge 2 ] || { echo "usage: remedies.sh OUT TIER:GAMES..." >&2; exit 2; }
# shellcheck source=experiments/run-folder.sh
. experiments/run-folder.sh
start_run remedies "$1" /tmp/remedies-games
shift
seed=${SEED:-2601}
variants="rules closure=40 repetition=2 majority=4 majority=6"
tiers=()
for tg in "$@"; do
  tier=${tg%%:*} n=${tg##*:}
  spec=$(tier_spec "$tier")
  tiers+=("$tier")
  for v in $variants; do
    arg=$v
    [ "$v" = rules ] && arg=""
    start=$(date +%s.%N)
    "$senat" selfplay --games "$n" --seed "$seed" --red "$spec" --blue "$spec" --variant "$arg" \
      --out /dev/null --summary "$out/$tier-$v.summary.csv" --force --quiet
    printf '%s selfplay --games %s --seed %s --red %s --blue %s --variant "%s" --out /dev/null --summary OUT/%s-%s.summary.csv  # %.1f s\n' \
      "$senat" "$n" "$seed" "$spec" "$spec" "$arg" "$tier" "$v" "$(echo "$(date +%s.%N) - $start" | bc)" >>"$runs"
  done
done
python3 experiments/remedies.py "$out" "${tiers[@]}" -- $variants
echo "python3 experiments/remedies.py OUT ${tiers[*]} -- $variants" >>"$runs"
cat "$out/remedies.md"

#!/usr/bin/env bash
# The dominoes opener design of results/other-games/opener/PLAN.md: rotated
# self-play per player count and tier, then experiments/dominoes_opener.py
# on each batch and one table with Holm over the plan's 8 tests
# (experiments/dominoes_opener_table.py).
#
#   experiments/dominoes-opener.sh OUT [SCALE]     SCALE multiplies the plan's sizes (default 1)
#
# OUT must not exist. SENAT as in experiments/first-player.sh; the games
# and rounds files go to WORK and are not kept.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ $# -ge 1 ] || { echo "usage: dominoes-opener.sh OUT [SCALE]" >&2; exit 2; }
# shellcheck source=experiments/run-folder.sh
. experiments/run-folder.sh
start_run dominoes-opener "$1" /tmp/dominoes-opener-work
scale=${2:-1}
seed=2802
size() { python3 -c "print(max(4, int(round($1 * $scale / 4)) * 4))"; }
for p in 2 4; do
  for t in random greedy pimc:playouts=300,worlds=10 ismcts:playouts=300; do
    case $t in random | greedy) n=$(size 20000) ;; *) n=$(size 1200) ;; esac
    stem="$work/${p}p-${t//[:=,]/_}"
    start=$(date +%s.%N)
    "$senat" selfplay --game dominoes --variant "players=$p" --first "$t" --second "$t" --games "$n" --seed "$seed" \
      --rotate --rounds "$stem-rounds.csv" --out "$stem.csv" --summary '' --threads 1 --force --quiet >/dev/null
    printf '%s selfplay --game dominoes --variant players=%s --first %s --second %s --games %s --seed %s --rotate --rounds WORK/%s-rounds.csv --out WORK/%s.csv --threads 1  # %.1f s\n' \
      "$senat" "$p" "$t" "$t" "$n" "$seed" "${stem##*/}" "${stem##*/}" "$(echo "$(date +%s.%N) - $start" | bc)" >>"$runs"
    python3 experiments/dominoes_opener.py "$stem-rounds.csv" "$stem.csv" >"$out/${p}p-${t//[:=,]/_}.csv"
  done
done
python3 experiments/dominoes_opener_table.py "$out"
echo "python3 experiments/dominoes_opener.py WORK/X-rounds.csv WORK/X.csv > OUT/X.csv (each batch); python3 experiments/dominoes_opener_table.py OUT" >>"$runs"
cat "$out/opener.md"

#!/usr/bin/env bash
# Is the restriction a shelter? (results/annex/shelter/README.md, written
# before the games): `learned` and `strong` self-play, 2,000 games each,
# then experiments/shelter.py on each with the tier's own agent.
#   experiments/shelter.sh [BIN] OUT     BIN defaults to target/release/senat
# Needs the senat Python module importable (PYTHONPATH, or the package
# installed). OUT must not exist; the games files stay in OUT (not
# committed); OUT/learned.txt and OUT/strong.txt are the results.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -eq 1 ]; then bin=target/release/senat; out=$1; else bin=${1:?}; out=${2:?usage: shelter.sh [BIN] OUT}; fi
[ -x "$bin" ] || { echo "shelter: $bin is not an executable" >&2; exit 2; }
[ -e "$out" ] && { echo "shelter: $out exists; give a new folder" >&2; exit 2; }
python3 -c 'import senat' || { echo "shelter: the senat Python module is not importable (PYTHONPATH)" >&2; exit 2; }
mkdir -p "$out"
for ts in learned:6010 strong:6011; do
  tier=${ts%:*} seed=${ts#*:}
  t0=$(date +%s)
  "$bin" selfplay --games 2000 --seed "$seed" --red "$tier" --blue "$tier" --threads 1 \
    --out "$out/$tier.games.csv" --summary "$out/$tier.summary.csv" --quiet >/dev/null
  t1=$(date +%s)
  {
    echo "# $bin selfplay --games 2000 --seed $seed --red $tier --blue $tier --threads 1 --out G.csv  # $((t1 - t0)) s, commit $(git rev-parse --short HEAD), $("$bin" --version)"
    echo "# python3 experiments/shelter.py G.csv $tier --seed 6012"
    python3 experiments/shelter.py "$out/$tier.games.csv" "$tier" --seed 6012
    echo "# $(( $(date +%s) - t1 )) s"
  } >"$out/$tier.txt"
  cat "$out/$tier.txt"
done

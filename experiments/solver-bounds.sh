#!/usr/bin/env bash
# The 9-ply proof after move 20 of the sample game (results/solver.txt),
# with and without the solver's game bounds (`solve --bounds on|off`),
# alternated in one run, REPEAT times each (default 3), then the proof
# store: the first run with --store writes the fact, the second replays it.
# Usage: experiments/solver-bounds.sh [BINARY]   (default target/release/senat,
# built by `cargo build --release` when absent). Prints one line per run
# and min/median/max of the time per setting.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-target/release/senat}
REPEAT=${REPEAT:-3}
[ -x "$B" ] || cargo build --release --quiet
T=$(mktemp -d target/bounds.XXXXXX)
trap 'rm -rf "$T"' EXIT
# The record's 4 lines (comments and the start position) and 20 moves, as
# experiments/sample-claims.sh writes after20.txt.
head -n 24 crates/rules/data/sample-game.txt > "$T/after20.txt"
for i in $(seq "$REPEAT"); do
  for b in off on; do
    line=$("$B" solve --history "$T/after20.txt" --max-depth 9 --bounds "$b" | grep '^depth')
    echo "bounds $b run $i: $line"
  done
done | tee "$T/runs.txt"
for b in off on; do
  grep "^bounds $b " "$T/runs.txt" | sed 's/.*time \([0-9.]*\)s.*/\1/' | sort -n |
    awk -v b="$b" '{t[NR]=$1} END {printf "bounds %-3s min %.3fs median %.3fs max %.3fs (%d runs)\n", b, t[1], t[int((NR+1)/2)], t[NR], NR}'
done
"$B" solve --history "$T/after20.txt" --max-depth 9 --store "$T/store.txt" | sed 's/^/store, first run: /'
"$B" solve --history "$T/after20.txt" --max-depth 9 --store "$T/store.txt" | sed 's/^/store, second run: /'

#!/usr/bin/env bash
# The exact solver on 1 and 2 threads (`senat solve --threads`, lazy SMP):
# every position of tests/fixtures/solver-positions.txt at its horizon,
# the two thread counts alternated within each round (1, 2, 1, 2, ...) so
# that a drift of the machine's speed falls on both, REPEAT rounds (default
# 3). Each run checks that the verdict and its horizon are the same on 2
# threads as on 1 (they must be: the table holds proven facts only) and
# fails the script otherwise (runs cut by a --time are not compared). Run it on an otherwise idle machine with at
# least 2 cores.
#
# Usage: experiments/solver-threads.sh [BINARY]
#   BINARY       default target/release/senat, built by `cargo build --release` when absent
#   REPEAT=N     rounds (default 3)
#   ONLY=WORD    only the positions whose name contains WORD (default: all)
#   THREADS="1 2"  the thread counts, in their order within a round
#   SOLVE_FLAGS  more flags for every `senat solve` (e.g. "--time 60 --tt-mb 512")
#   OUT=FILE     the results file (default results/solver-threads.txt)
#
# Writes OUT: a header (commit, cores, binary, settings), one line per run
# (`NAME threads T run I: verdict ...; depth ... nodes ... time ...`), then
# per position and thread count min / median / max time and the median
# nodes, and the median time on 1 thread over the median on each other
# count (the speedup; nodes are those of all threads together).
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-target/release/senat}
REPEAT=${REPEAT:-3}
ONLY=${ONLY:-}
THREADS=${THREADS:-1 2}
SOLVE_FLAGS=${SOLVE_FLAGS:-}
OUT=${OUT:-results/solver-threads.txt}
[ -x "$B" ] || cargo build --release --quiet
mkdir -p "$(dirname "$OUT")" target
T=$(mktemp -d target/solver-threads.XXXXXX)
trap 'rm -rf "$T"' EXIT
LIST=tests/fixtures/solver-positions.txt
SAMPLE=crates/rules/data/sample-game.txt

# The positions: "name depth kind rest", kind `sample` (the sample game
# after move N, as a record with its history: its 4 first lines and N
# moves) or `spn` (a position with no history).
grep -v '^[[:space:]]*#' "$LIST" | awk -v only="$ONLY" 'NF >= 6 && index($1, only) {
  rest = $6; for (i = 7; i <= NF; i++) rest = rest " " $i; print $1 "\t" $2 "\t" $5 "\t" rest
}' > "$T/positions.tsv"
[ -s "$T/positions.tsv" ] || { echo "solver-threads.sh: no position matches ONLY=$ONLY" >&2; exit 1; }

# One run: prints `verdict ...; depth ...` on one line.
solve() { # name depth kind rest threads
  local args=()
  if [ "$3" = sample ]; then
    head -n $((4 + $4)) "$SAMPLE" > "$T/$1.txt"
    args=(--history "$T/$1.txt")
  else
    args=("$4")
  fi
  # shellcheck disable=SC2086  # SOLVE_FLAGS is a list of words
  "$B" solve "${args[@]}" --max-depth "$2" --threads "$5" $SOLVE_FLAGS > "$T/out.txt"
  printf '%s; %s\n' "$(grep '^verdict' "$T/out.txt")" "$(grep '^depth' "$T/out.txt")"
}

{
  echo "# experiments/solver-threads.sh: senat solve --threads {${THREADS// /,}}, alternated, $REPEAT rounds"
  echo "# commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- crates src || echo ' (+ uncommitted changes)'), $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ), binary $B${SOLVE_FLAGS:+, flags $SOLVE_FLAGS}"
} > "$T/head.txt"

for i in $(seq "$REPEAT"); do
  while IFS=$'\t' read -r name depth kind rest; do
    first=
    for t in $THREADS; do
      line=$(solve "$name" "$depth" "$kind" "$rest" "$t")
      echo "$name threads $t run $i: $line"
      # The verdict and its horizon (`depth N`) must not depend on the
      # threads (unless a --time of SOLVE_FLAGS cut a run).
      same=$(sed 's/\(; depth [0-9]*\).*/\1/' <<< "$line")
      if [[ $line == *"(time out)"* ]]; then
        continue
      elif [ -z "$first" ]; then
        first=$same
      elif [ "$same" != "$first" ]; then
        echo "solver-threads.sh: $name: '$same' on $t threads, '$first' before" >&2
        exit 1
      fi
    done
  done < "$T/positions.tsv"
done | tee "$T/runs.txt"

{
  cat "$T/head.txt"
  cat "$T/runs.txt"
  echo "# min / median / max time, median nodes (all threads), speedup = median time on the first count / median time"
  cut -f1 "$T/positions.tsv" | while read -r name; do
    base=
    for t in $THREADS; do
      grep "^$name threads $t run " "$T/runs.txt" |
        sed 's/.*nodes \([0-9]*\)  time \([0-9.]*\)s.*/\2 \1/' | sort -n |
        awk -v n="$name" -v t="$t" -v base="$base" '
          {time[NR] = $1; nodes[NR] = $2}
          END {
            m = time[int((NR + 1) / 2)]
            for (i = 2; i <= NR; i++) for (j = i; j > 1 && nodes[j - 1] > nodes[j]; j--) {
              x = nodes[j]; nodes[j] = nodes[j - 1]; nodes[j - 1] = x
            }
            speed = (base != "" && m > 0) ? sprintf("  speedup x%.2f", base / m) : ""
            printf "%-14s threads %s  time min %.3fs median %.3fs max %.3fs  nodes %d  (%d runs)%s\n",
              n, t, time[1], m, time[NR], nodes[int((NR + 1) / 2)], NR, speed
          }' | tee "$T/summary-line.txt"
      [ -n "$base" ] || base=$(sed 's/.*median \([0-9.]*\)s.*/\1/' "$T/summary-line.txt")
    done
  done
} > "$OUT"
tail -n +"$(($(wc -l < "$T/head.txt") + $(wc -l < "$T/runs.txt") + 1))" "$OUT"
echo "wrote $OUT"

#!/usr/bin/env bash
# Issue 57's solver measurement for Connect Four, written to results/connect4/:
# the generic solver (crates/lab/examples/connect4_solve.rs, one thread, a
# 64 MB table) and a peer solver side by side on the same positions, in one
# run, alternating set by set:
#   positions-*.txt  the sets: random 7 x 6 positions, not over, no win at
#                    once for the side to move, N each of three depths
#                    (end: 28-34 discs; middle: 18-27; early: 14-17)
#   solver-*.txt     each solver's output, one position a line
#   solver.txt       per set: agreement of the scores, mean time and nodes,
#                    and the time ratio; then each solver's CPU time on the
#                    set and their ratio (user time, least of 3 runs)
# The peer is Pascal Pons' solver (github.com/PascalPons/connect4, `make
# c4solver`), built outside this repository and named by PEER=path; without
# it only the generic solver runs (and no ratio is written).
# Usage: PEER=/path/to/c4solver experiments/connect4-solver.sh [N] [seed] [sets]
# where sets is a comma-separated choice of end, middle, early (default all).
# OURS=path runs another build of connect4_solve instead of this tree's (an
# older commit's, for a before and after in one sitting).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-200}
seed=${2:-57}
sets=${3:-end,middle,early}
out=results/connect4
mkdir -p "$out"
ours=${OURS:-}
if [ -z "$ours" ]; then
  cargo build --quiet --release -p senat-lab --example connect4_solve
  ours=target/release/examples/connect4_solve
fi
commit=$(git rev-parse --short HEAD)
peer=${PEER:-}

# The least user CPU time of 3 runs of a solver on a file, less the least
# of 3 on no input (its start), in ms: a measure that another process's
# load changes less than the wall clock (where /usr/bin/time exists).
cpu_ms() { # file, then the command
  local file=$1 best=() t
  shift
  for input in /dev/null "$file"; do
    local least=
    for _ in 1 2 3; do
      /usr/bin/time -f %U -o "$out/.cpu" "$@" <"$input" >/dev/null 2>/dev/null
      t=$(awk '{printf "%d", $1 * 1000}' "$out/.cpu")
      { [ -z "$least" ] || [ "$t" -lt "$least" ]; } && least=$t
    done
    best+=("$least")
  done
  rm -f "$out/.cpu"
  echo $((best[1] - best[0]))
}

summary=$out/solver.txt
{
  echo "# experiments/connect4-solver.sh $n $seed $sets (commit $commit${OURS:+, generic solver $OURS}; $(nproc) shared cores; one thread each)"
  [ -n "$peer" ] && echo "# peer: $peer (Pascal Pons' c4solver, strong mode, no opening book)"
} >"$summary"
for set in end:28:34 middle:18:27 early:14:17; do
  IFS=: read -r name min max <<<"$set"
  [[ ",$sets," == *",$name,"* ]] || continue
  pos=$out/positions-$name.txt
  "$ours" generate "$n" "$min" "$max" "$seed" >"$pos"
  "$ours" solve 64 <"$pos" >"$out/solver-generic-$name.txt"
  ours_us=$(awk '$1 == "total" {print $6}' "$out/solver-generic-$name.txt")
  ours_nodes=$(awk '$1 == "total" {print $4}' "$out/solver-generic-$name.txt")
  line="$name ($min-$max discs, $n positions): generic solver mean $((ours_us / n)) us, $((ours_nodes / n)) nodes"
  if [ -n "$peer" ]; then
    # The peer's start (process, table) timed on no input, the least and
    # the most of 5 runs; the least is subtracted, and a time within the
    # start's spread is reported as not measured.
    idle_min=0 idle_max=0
    for _ in 1 2 3 4 5; do
      start=$(date +%s%N)
      "$peer" </dev/null 2>/dev/null >/dev/null
      t=$((($(date +%s%N) - start) / 1000))
      { [ "$idle_min" = 0 ] || [ "$t" -lt "$idle_min" ]; } && idle_min=$t
      [ "$t" -gt "$idle_max" ] && idle_max=$t
    done
    idle_us=$idle_min
    start=$(date +%s%N)
    "$peer" <"$pos" 2>/dev/null >"$out/solver-peer-$name.txt"
    peer_us=$((($(date +%s%N) - start) / 1000 - idle_us))
    agree=$(paste -d' ' <(awk '$1 != "total" {print $1, $2}' "$out/solver-generic-$name.txt") "$out/solver-peer-$name.txt" |
      awk '$1 == $3 && $2 == $4 {a++} END {print a + 0}')
    if [ "$peer_us" -le $((idle_max - idle_min)) ]; then
      line="$line; peer: all $n positions within the spread of its start ($idle_min-$idle_max us on no input), time not measured; scores agree on $agree of $n"
    else
      ratio=$(awk -v a="$ours_us" -v b="$peer_us" 'BEGIN {printf "%.1f", a / b}')
      line="$line; peer mean $((peer_us / n)) us (its start, least of 5 runs on no input, ${idle_min} us, subtracted; most ${idle_max} us); scores agree on $agree of $n; time ratio generic/peer $ratio"
    fi
  fi
  if [ -n "$peer" ] && [ -x /usr/bin/time ]; then
    ours_cpu=$(cpu_ms "$pos" "$ours" solve 64)
    peer_cpu=$(cpu_ms "$pos" "$peer")
    line="$line; CPU time (user, least of 3 runs, less the least on no input): generic $ours_cpu ms, peer $peer_cpu ms"
    if [ "$peer_cpu" -ge 50 ]; then
      line="$line, ratio $(awk -v a="$ours_cpu" -v b="$peer_cpu" 'BEGIN {printf "%.1f", a / b}')"
    else
      line="$line (under 50 ms: no ratio)"
    fi
  fi
  echo "$line" | tee -a "$summary"
done

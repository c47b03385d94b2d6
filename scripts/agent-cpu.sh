#!/usr/bin/env bash
# Two `senat` binaries side by side: the CPU time per game of a self-play
# batch of one agent against itself, runs interleaved (old, new, old, new,
# ...) on one thread, and whether both wrote the same games file.
#
#   scripts/agent-cpu.sh OLD NEW AGENT [GAMES [RUNS [GAME]]]
#
#   OLD, NEW  two senat binaries (for example a build of an older commit
#             in a worktree, and target/release/senat)
#   AGENT     the agent of both sides (`strong`, `fast`, a full spec)
#   GAMES     games per run (default 20), RUNS runs per binary (default 5),
#             GAME the game (default senat)
#
# Prints, per binary, the user CPU seconds per game of each run, then
# min / median / max, and new's median over old's. Exits 1 if the games
# files differ between the binaries or between runs (an optimisation that
# must not change play has changed it). The CPU time is the child's user
# time (`/usr/bin/time`), the fairer figure on a shared machine; still,
# compare only figures of one run of this script.
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
old=$1 new=$2 agent=$3 games=${4:-20} runs=${5:-5} game=${6:-senat}
for b in "$old" "$new"; do
  [ -x "$b" ] || { echo "agent-cpu: $b is not an executable" >&2; exit 2; }
done
command -v /usr/bin/time >/dev/null || { echo "agent-cpu: needs /usr/bin/time (apt install time)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$game" = senat ]; then sides=(--red "$agent" --blue "$agent"); else sides=(--first "$agent" --second "$agent"); fi
for i in $(seq 1 "$runs"); do
  for which in old new; do
    bin=$old
    [ "$which" = new ] && bin=$new
    d=$work/$which-$i
    mkdir "$d"
    /usr/bin/time -f "%U" -o "$d/time" "$bin" selfplay --game "$game" --games "$games" --threads 1 "${sides[@]}" \
      --seed 1 --out "$d/games.csv" --summary "$d/summary.csv" >/dev/null 2>"$d/err" \
      || { echo "agent-cpu: $bin failed:" >&2; cat "$d/err" >&2; exit 2; }
  done
done
# The games files whole, identity lines included.
sums=$(md5sum "$work"/*/games.csv | cut -d' ' -f1 | sort -u | wc -l)
echo "agent-cpu: $agent, $game, $games games a run, $runs runs each, one thread"
for which in old new; do
  per_game=$(for i in $(seq 1 "$runs"); do awk -v g="$games" '{printf "%.6f\n", $1 / g}' "$work/$which-$i/time"; done)
  sorted=$(echo "$per_game" | sort -n)
  med=$(echo "$sorted" | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}')
  echo "$which: runs $(echo "$per_game" | tr '\n' ' ')s/game; min $(echo "$sorted" | head -1), median $med, max $(echo "$sorted" | tail -1)"
  eval "med_$which=$med"
done
awk -v o="$med_old" -v n="$med_new" 'BEGIN {printf "new / old (medians): %.3f\n", n / o}'
if [ "$sums" -ne 1 ]; then
  echo "agent-cpu: the games files differ ($sums versions)"
  exit 1
fi
echo "games files: identical (all $((2 * runs)) runs)"

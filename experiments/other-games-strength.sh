#!/usr/bin/env bash
# Balance against strength for Focus (2p: rules, fix=draw, fix=swap), Focus4
# (rules, order=ccw), Débâcle (scoring=both, scoring=winner) and dominoes
# (2 and 4 players, per seat): self-play of each tier, the design of
# results/other-games/strength/PLAN.md (committed before any game).
# Usage: experiments/other-games-strength.sh [BIN] [OUT] [scale]
#   BIN    the senat binary (default target/release/senat)
#   OUT    a new folder (default results/other-games/strength-<date>); games in OUT/games
#   scale  multiplies every batch size of the plan (default 1)
# One thread, one process at a time. Each batch also writes its moves file
# (OUT/games/*-moves.csv) and `senat metrics` on it (OUT/games/*-metrics.csv:
# Ludii's metrics with the game's evaluation). Writes OUT/runs.txt (commit,
# every command and its time), then experiments/other_games_strength.py OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/senat}
out=${2:-results/other-games/strength-$(date -u +%Y%m%dT%H%M%SZ)}
scale=${3:-1}
seed=2801
mkdir -p "$out/games"
commit=$(git rev-parse --short HEAD)
runs="$out/runs.txt"
{
  echo "# other-games-strength run, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $commit, binary $bin ($("$bin" --version 2>/dev/null || echo '?'))"
  echo "# $(nproc) cores, shared; --threads 1; scale $scale; seed $seed"
} > "$runs"
n() { python3 -c "import sys; print(max(2, int(round($1 * $scale / 2)) * 2))"; }
size() {
  case $1 in
    random|greedy) if [ "$2" = dominoes ]; then n 4000; else n 2000; fi ;;
    ab:depth=2) n 1000 ;;
    ab:depth=3) n 400 ;;
    mcts:*) n 200 ;;
    pimc:*|ismcts:*) n 300 ;;
  esac
}
run() { # game label variant tier [extra args...]
  local game=$1 label=$2 variant=$3 tier=$4; shift 4
  local games; games=$(size "$tier" "$game")
  local stem="$out/games/$game-$label-${tier//[:=,]/_}"
  local file="$stem.csv"
  local cmd=("$bin" selfplay --game "$game" --variant "$variant" --first "$tier" --second "$tier"
    --games "$games" --seed "$seed" --threads 1 "$@" --out "$file" --moves "$stem-moves.csv" --summary '' --force --quiet)
  local t0; t0=$(date +%s.%N)
  "${cmd[@]}" > /dev/null
  printf '%s  # %.1f s\n' "${cmd[*]}" "$(echo "$(date +%s.%N) - $t0" | bc)" >> "$runs"
  local mcmd=("$bin" metrics "$stem-moves.csv" --out "$stem-metrics.csv" --force)
  t0=$(date +%s.%N)
  "${mcmd[@]}" > /dev/null
  printf '%s  # %.1f s\n' "${mcmd[*]}" "$(echo "$(date +%s.%N) - $t0" | bc)" >> "$runs"
}
focus_tiers=(random greedy mcts:playouts=1000 ab:depth=2 ab:depth=3)
focus4_tiers=(random greedy mcts:playouts=1000 ab:depth=3)
debacle_tiers=(random greedy ab:depth=2 mcts:playouts=1000 ab:depth=3)
dominoes_tiers=(random greedy pimc:playouts=300,worlds=10 ismcts:playouts=300)
for v in "rules:" "fix=draw:fix=draw" "fix=swap:fix=swap"; do
  for t in "${focus_tiers[@]}"; do run focus "${v%%:*}" "${v#*:}" "$t" --book-plies 4; done
done
for v in "rules:" "order=ccw:order=ccw"; do
  for t in "${focus4_tiers[@]}"; do run focus4 "${v%%:*}" "${v#*:}" "$t" --book-plies 4; done
done
for v in "rules:" "scoring=winner:scoring=winner"; do
  for t in "${debacle_tiers[@]}"; do run debacle "${v%%:*}" "${v#*:}" "$t" --book-plies 4; done
done
for p in 2 4; do
  for t in "${dominoes_tiers[@]}"; do run dominoes "${p}p" "players=$p" "$t"; done
done
echo "# finished $(date -u +%Y-%m-%dT%H:%M:%SZ)" >> "$runs"
python3 experiments/other_games_strength.py "$out"

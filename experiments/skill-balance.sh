#!/usr/bin/env bash
# The first-move edge along a skill trace (issue 60 question 4; plan:
# results/first-player/skill-balance/PLAN.md): self-play of `strong`'s
# recipe at N = 250, 1,000, 4,000 and 16,000 playouts per move, GAMES
# games each (default 200), seed 6004, each side drafting for itself.
# Writes OUT/games-N.csv and OUT/summary-N.csv and OUT/runs.txt (the
# commands, the commit, each batch's seconds); then
#   experiments/skill_balance.py OUT/games-*.csv
# prints the table and the planned trend test.
#
#   experiments/skill-balance.sh [OUT] [GAMES]   OUT default: skill-balance-<date>; must not exist
#
# SENAT (default target/release/senat), THREADS (default 2).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:-skill-balance-$(date +%Y%m%d-%H%M%S)}
games=${2:-200}
if [ -e "$out" ]; then echo "skill-balance: $out exists; give a new folder" >&2; exit 2; fi
senat=${SENAT:-target/release/senat}
[ -x "$senat" ] || { echo "skill-balance: $senat is not built (cargo build --release)" >&2; exit 2; }
threads=${THREADS:-2}
mkdir -p "$out"
{
  echo "# skill balance, $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown); $("$senat" --version)"
  for n in 250 1000 4000 16000; do
    spec="mcts:playouts=$n,rollout=eval,prior=1000,net=on,temp=0.5"
    cmd=("$senat" selfplay --games "$games" --seed 6004 --red "$spec" --blue "$spec" --threads "$threads"
      --out "$out/games-$n.csv" --summary "$out/summary-$n.csv" --quiet)
    echo "== ${cmd[*]}" | sed "s|$out/|OUT/|g"
    start=$(date +%s)
    "${cmd[@]}"
    echo "== N=$n took $(( $(date +%s) - start )) s on $threads threads"
  done
} 2>&1 | tee "$out/runs.txt"

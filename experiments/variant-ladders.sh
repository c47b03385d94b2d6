#!/usr/bin/env bash
# The tiers of REPORT §8 in the rules variants (issue 21 item 10): the
# committed ladders (results/other-games/ladder-*.txt) were played in the
# default rules only. This plays the same ladders, same tiers, sizes and
# seed, in every variant of §8 that changes play: Focus fix=swap, Focus4
# order=ccw, Débâcle scoring=winner. (Focus fix=draw plays the rules' games
# move for move, §8, so its order is the rules'.)
#
#   experiments/variant-ladders.sh OUT [GAMES]      GAMES per step (default 100)
#
# OUT must not exist. SENAT as in experiments/first-player.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ $# -ge 1 ] || { echo "usage: variant-ladders.sh OUT [GAMES]" >&2; exit 2; }
# shellcheck source=experiments/run-folder.sh
. experiments/run-folder.sh
start_run variant-ladders "$1" /tmp/variant-ladders-work
games=${2:-100}
seed=2026
mcts='mcts:playouts=1000'
for gv in focus:fix=swap focus4:order=ccw debacle:scoring=winner; do
  game=${gv%%:*} variant=${gv#*:}
  case $game in
    focus) ladder=(random greedy "$mcts" ab:depth=2 ab:depth=3) ;;
    focus4) ladder=(random greedy "$mcts" ab:depth=3) ;;
    debacle) ladder=(random greedy ab:depth=2 "$mcts" ab:depth=3) ;;
  esac
  name="ladder-$game-${variant//=/-}"
  start=$(date +%s.%N)
  "$senat" arena --game "$game" --variant "$variant" "${ladder[@]}" --ladder --games "$games" --seed "$seed" \
    --summary "$out/$name-summary.csv" --force --quiet >"$out/$name.txt"
  printf '%s arena --game %s --variant %s %s --ladder --games %s --seed %s --summary OUT/%s-summary.csv  # %.1f s\n' \
    "$senat" "$game" "$variant" "${ladder[*]}" "$games" "$seed" "$name" "$(echo "$(date +%s.%N) - $start" | bc)" >>"$runs"
done
grep -h -A8 '^ladder (first' "$out"/ladder-*.txt

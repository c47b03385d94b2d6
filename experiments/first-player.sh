#!/usr/bin/env bash
# The first-player design of results/first-player/PLAN.md: for each tier,
# self-play in the four cells of first_giver x first_mover, then the
# contrasts (experiments/first_player.py) and, on the rules' cell, Ludii's
# metrics (senat metrics).
#
#   experiments/first-player.sh [OUT]
#
# OUT (default: a new folder first-player-<date>) must not exist: the
# script never overwrites a run, the committed one included. Environment:
#   GAMES=20000        games per cell of the fast tiers (the plan: 200000)
#   STRONG_GAMES=200   games per cell of the slow tiers (mcts-eval, strong, top)
#   STRONG_RULES_GAMES games of the slow tiers' rules cell (default STRONG_GAMES)
#   TIERS="random heuristic learned mcts-eval strong" (labels: experiments/run-folder.sh tier_spec)
#   SEED=2201  SENAT=target/release/senat  WORK=/tmp/first-player-games
# OUT keeps the summaries, effects.csv/md, metrics-<tier>.csv and runs.txt
# (every command with its time, and the commit); the games files of the
# rules' cells go to WORK and are not kept.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=experiments/run-folder.sh
. experiments/run-folder.sh
start_run first-player "${1:-first-player-$(date +%Y%m%d-%H%M%S)}" /tmp/first-player-games
games=${GAMES:-20000}
strong_games=${STRONG_GAMES:-200}
strong_rules_games=${STRONG_RULES_GAMES:-$strong_games}
tiers=${TIERS:-random heuristic learned mcts-eval strong}
seed=${SEED:-2201}
variant_of() {
  case $1 in
    rules) echo "" ;;
    G) echo "first_giver=red" ;;
    F) echo "first_mover=red" ;;
    GF) echo "first_giver=red,first_mover=red" ;;
  esac
}
for tier in $tiers; do
  spec=$(tier_spec "$tier")
  for cell in rules G F GF; do
    n=$games
    if slow_tier "$tier"; then
      n=$strong_games
      [ "$cell" = rules ] && n=$strong_rules_games
    fi
    v=$(variant_of "$cell")
    games_out=/dev/null
    [ "$cell" = rules ] && games_out="$work/$tier-rules.games.csv"
    cmd=("$senat" selfplay --games "$n" --seed "$seed" --red "$spec" --blue "$spec" --variant "$v"
      --out "$games_out" --summary "$out/$tier-$cell.summary.csv" --force --quiet)
    start=$(date +%s.%N)
    "${cmd[@]}"
    end=$(date +%s.%N)
    printf '%s  # %.1f s\n' "${cmd[*]}" "$(echo "$end - $start" | bc)" | sed "s|$work/|WORK/|; s|$out/|OUT/|" >>"$runs"
  done
  if [ -s "$work/$tier-rules.games.csv" ]; then
    "$senat" metrics "$work/$tier-rules.games.csv" --out "$out/metrics-$tier.csv" --force >"$out/metrics-$tier.txt"
    sed -i "s|$work/|WORK/|g" "$out/metrics-$tier.csv" "$out/metrics-$tier.txt"  # no temporary paths in results
    echo "$senat metrics WORK/$tier-rules.games.csv --out OUT/metrics-$tier.csv" >>"$runs"
  fi
done
# shellcheck disable=SC2086
python3 experiments/first_player.py "$out" $tiers
echo "python3 experiments/first_player.py OUT $tiers" >>"$runs"
cat "$out/effects.md"

#!/usr/bin/env bash
# A skill trace of Sénat's MCTS (issue 58 item 5, Ludii's recipe done with
# intervals): one agent family, `strong`'s recipe
# (mcts:rollout=eval,prior=1000,net=on,temp=0.5) at doubling budgets,
# 250 … 16,000 playouts (7 points), as an arena ladder: each agent against
# the next in colour-swapped pairs from the same seeds, each drafting with
# its own policy (--draft own), one thread, seed 58, GAMES games per step
# (default 200). Writes the table, the summary, the games and the ladder's
# picture (arena --plot).
#
#   experiments/skill-trace.sh [OUT] [GAMES]   OUT default: skill-trace-<date>; must not exist
#
# SENAT (default target/release/senat). The games are a function of the
# seed, not of the build; the think times are not. Another game: GAME
# (default senat) and RECIPE (the agent spec with N for the playouts;
# default Sénat's `strong` recipe above), e.g.
#   GAME=focus RECIPE='mcts:playouts=N,guard=7,temp=1' experiments/skill-trace.sh OUT 200
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:-skill-trace-$(date +%Y%m%d-%H%M%S)}
games=${2:-200}
if [ -e "$out" ]; then echo "skill-trace: $out exists; give a new folder" >&2; exit 2; fi
senat=${SENAT:-target/release/senat}
game=${GAME:-senat}
recipe=${RECIPE:-mcts:playouts=N,rollout=eval,prior=1000,net=on,temp=0.5}
case "$recipe" in *playouts=N*) ;; *) echo "skill-trace: RECIPE must hold playouts=N" >&2; exit 2 ;; esac
mkdir -p "$out"
agents=()
for n in 250 500 1000 2000 4000 8000 16000; do
  agents+=("${recipe/playouts=N/playouts=$n}")
done
{
  echo "# skill trace of $game, $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown); $("$senat" --version)"
  draft=(--draft own)
  [ "$game" = senat ] || draft=()   # only Sénat has a draft; the others start from their book (arena's default)
  cmd=("$senat" arena --game "$game" --ladder "${agents[@]}" "${draft[@]}" --games "$games" --seed 58 --threads 1
    --out "$out/games.csv" --summary "$out/summary.csv" --plot "$out/ladder.png" --quiet)
  echo "== ${cmd[*]}" | sed "s|$out/|OUT/|g"
  start=$(date +%s)
  "${cmd[@]}"
  echo "== took $(( $(date +%s) - start )) s"
} 2>&1 | tee "$out/output.txt"

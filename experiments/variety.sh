#!/usr/bin/env bash
# Variety without sampled blunders (issue 58 item 4): self-play batches of
# Sénat's `strong` recipe with today's move temperature (temp=0.5, the
# first 16 plies) and with value-bounded choices (vary=E, the first 16
# plies) at several margins E, each with its own drafts, one thread, seed
# 58, GAMES games (default 1000): distinct games, distinct draft openings
# (first four draft moves) per 1,000 games and, for vary=, each side's mean
# value loss per game, from each batch's report and summary. Then the
# strength cost of each vary=E against `strong` itself: an arena of PAIRS
# colour-swapped pairs (default 300), --draft own, seed 58, one thread.
#
#   experiments/variety.sh [OUT] [GAMES] [PAIRS]   OUT default: variety-<date>; must not exist
#
# SENAT (default target/release/senat); MARGINS (default "0.005 0.01 0.02
# 0.05"); JOBS commands at a time (default 1; each uses one thread). Keeps
# each command's report (NAME.txt) and summary (NAME.summary.csv) in OUT;
# the games files go to OUT/games/ (large: not for committing).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:-variety-$(date +%Y%m%d-%H%M%S)}
games=${2:-1000}
pairs=${3:-300}
if [ -e "$out" ]; then echo "variety: $out exists; give a new folder" >&2; exit 2; fi
senat=${SENAT:-target/release/senat}
margins=${MARGINS:-0.005 0.01 0.02 0.05}
jobs=${JOBS:-1}
recipe=mcts:playouts=1000,rollout=eval,prior=1000,net=on
mkdir -p "$out/games"
{
  echo "# variety of strong's recipe, $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown); $("$senat" --version)"
  echo "# recipe $recipe; temp=0.5 is \`strong\`; vary=E,temp_plies=16 the value-bounded choice"
} >"$out/README.txt"
cmds=()
sp() { # name, spec
  cmds+=("$senat selfplay --games $games --seed 58 --red '$2' --blue '$2' --threads 1 --out $out/games/$1.games.csv --summary $out/$1.summary.csv > $out/$1.txt 2>&1")
}
sp selfplay-temp0.5 "$recipe,temp=0.5"
for e in $margins; do sp "selfplay-vary$e" "$recipe,vary=$e,temp_plies=16"; done
for e in $margins; do
  cmds+=("$senat arena strong '$recipe,vary=$e,temp_plies=16' --draft own --games $((2 * pairs)) --seed 58 --threads 1 --out $out/games/arena-vary$e.games.csv --summary $out/arena-vary$e.summary.csv > $out/arena-vary$e.txt 2>&1")
done
for c in "${cmds[@]}"; do echo "== $c" | sed "s|$out/|OUT/|g" >>"$out/README.txt"; done
start=$(date +%s)
printf '%s\0' "${cmds[@]}" | xargs -0 -P "$jobs" -I{} bash -c '{}'
echo "# done in $(($(date +%s) - start)) s ($jobs at a time)" >>"$out/README.txt"

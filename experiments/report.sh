#!/usr/bin/env bash
# Regenerates every table and plot of results/REPORT.md from nothing, at a
# given size, into a new folder (never over the committed results):
#
#   experiments/report.sh [OUT]      OUT default: report-<date>; must not exist
#
# Sizes (the committed full run in brackets): GAMES per cell of the fast
# tiers [200000], STRONG_GAMES per cell of the strong tier [2500],
# GIVE_HEURISTIC [20000], GIVE_LEARNED [4000], GIVE_STRONG [200] games per
# forced first give, PLACE_LEARNED [10000], PLACE_HEURISTIC [10000],
# PLACE_STRONG [300] per forced first placement, LADDER_GAMES [400] per
# step of the tiers' ladder, REMEDY_LEARNED [200000] and REMEDY_STRONG
# [1000] per rule set of the rules-change study. The defaults are a small
# run (GAMES=20000, STRONG_GAMES=100, GIVE_*=2000/1000/0, PLACE_*=1000/1000/0,
# LADDER_GAMES=100, REMEDY_*=2000/0: no strong tier in the gives, placements
# and rules changes), about two minutes on 2 cores.
# Then it writes:
#   OUT/first-player/   the 2 x 2 of first_giver x first_mover per tier: effects.md,
#                       balance and effects .svg/.png, metrics.md (Ludii's metrics),
#                       conveyor.md, ladder.txt (each tier against the next)
#   OUT/first-give/     the forced first give per tier (paired differences)
#   OUT/first-placement/ the forced first placement per tier (paired differences)
#   OUT/remedies/       four rules changes against the rules (closure, repetition, majority)
# SENAT, WORK and SEED as in experiments/first-player.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:-report-$(date +%Y%m%d-%H%M%S)}
if [ -e "$out" ]; then echo "report: $out exists; give a new folder" >&2; exit 2; fi
senat=${SENAT:-target/release/senat}
export SENAT=$senat
tiers=${TIERS:-random heuristic learned strong}
export TIERS=$tiers
export GAMES=${GAMES:-20000} STRONG_GAMES=${STRONG_GAMES:-100}
work=${WORK:-/tmp/report-games}
export WORK=$work
mkdir -p "$out"
experiments/first-player.sh "$out/first-player"
# The tiers against their neighbours, each drafting for itself (the games file is not kept).
# shellcheck disable=SC2086
"$senat" arena $tiers --ladder --draft own --games "${LADDER_GAMES:-100}" --seed 2501 \
  --out "$work/ladder-games.csv" --summary "$out/first-player/ladder-summary.csv" --force --quiet \
  >"$out/first-player/ladder.txt"
for t in $tiers; do
  "$senat" draft-stats "$work/$t-rules.games.csv" --out-dir "$out/first-player/draft-stats-$t" --force --quiet
done
# shellcheck disable=SC2086
python3 experiments/conveyor_table.py "$out/first-player" $tiers
# shellcheck disable=SC2086
python3 experiments/metrics_table.py "$out/first-player" $tiers
# shellcheck disable=SC2086
python3 experiments/first_player_plot.py "$out/first-player" $tiers
for plot in balance:470 effects:430; do
  svg=$(cd "$out/first-player" && pwd)/${plot%%:*}.svg
  if command -v chromium >/dev/null; then
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=760,${plot##*:} \
      --screenshot="${svg%.svg}.png" "$svg" >/dev/null 2>&1 || echo "report: chromium could not draw ${svg%.svg}.png" >&2
  else
    echo "report: no chromium: ${svg%.svg}.png not drawn (the SVG is there)" >&2
  fi
done
# Only the tables the report reads are kept of draft-stats (the others name sides, not dice).
for t in $tiers; do
  find "$out/first-player/draft-stats-$t" -type f ! -name first_push.csv ! -name first_give.csv -delete
done
gives=("heuristic:${GIVE_HEURISTIC:-2000}" "learned:${GIVE_LEARNED:-1000}")
[ "${GIVE_STRONG:-0}" -gt 0 ] && gives+=("strong:$GIVE_STRONG")
WORK="$work/gives" experiments/first-give.sh "$out/first-give" "${gives[@]}"
places=("learned:${PLACE_LEARNED:-1000}" "heuristic:${PLACE_HEURISTIC:-1000}")
[ "${PLACE_STRONG:-0}" -gt 0 ] && places+=("strong:$PLACE_STRONG")
WORK="$work/placements" experiments/first-placement.sh "$out/first-placement" "${places[@]}"
remedies=("learned:${REMEDY_LEARNED:-2000}")
[ "${REMEDY_STRONG:-0}" -gt 0 ] && remedies+=("strong:$REMEDY_STRONG")
WORK="$work/remedies" experiments/remedies.sh "$out/remedies" "${remedies[@]}"
echo "report: tables and plots in $out"

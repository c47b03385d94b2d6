#!/usr/bin/env bash
# Regenerates every table and plot of results/REPORT.md from nothing, at a
# given size, into a new folder (never over the committed results):
#
#   experiments/report.sh [OUT]      OUT default: report-<date>; must not exist
#
# Tiers (TIERS, labels of experiments/run-folder.sh tier_spec): random,
# heuristic, learned, mcts-eval (MCTS on the learned features) and strong
# (the same MCTS on the value network); top is run apart (TOP_GAMES).
# Sizes (the committed full runs in brackets): GAMES per cell of the fast
# tiers [200000], STRONG_GAMES per cell of the slow tiers [mcts-eval 2500,
# strong 2500], STRONG_RULES_GAMES for their rules' cell [mcts-eval 2500,
# strong 10000], GIVE_HEURISTIC [20000], GIVE_LEARNED [4000], GIVE_STRONG
# [200] games per forced first give (GIVE_STRONG for both slow tiers),
# PLACE_LEARNED [10000], PLACE_HEURISTIC [10000], PLACE_STRONG [300] per
# forced first placement, LADDER_GAMES [400] per step of the tiers' ladder,
# REMEDY_LEARNED [200000] and REMEDY_STRONG [1000, mcts-eval and strong] per rule set
# of the rules-change study, TOP_GAMES [200] of `top` self-play in the
# rules (and TOP_LADDER_GAMES [100] of strong against top), REFLEX_GAMES [1000] per match of
# the reflexes' ablation, CLASS_LEARNED [10000], CLASS_HEURISTIC [10000] and
# CLASS_STRONG [200] per cell of the other die classes' first placement,
# OTHER_SCALE [0.5] of §8's balance against strength, VARIANT_LADDER_GAMES
# [100] and OPENER_SCALE [1] of the dominoes opener (none of §8 when
# OTHER_SCALE is 0, the default). The defaults are a small run (GAMES=20000,
# STRONG_GAMES=100, GIVE_*=2000/1000/0, PLACE_*=1000/1000/0,
# LADDER_GAMES=100, REMEDY_*=2000/0, TOP_GAMES=0, REFLEX_GAMES=0,
# CLASS_*=1000/1000/0, OTHER_SCALE=0: no slow
# tier in the gives, placements, rules changes and reflexes), a few minutes
# on 2 cores.
# Then it writes:
#   OUT/first-player/   the 2 x 2 of first_giver x first_mover per tier: effects.md,
#                       balance and effects .svg/.png, metrics.md (Ludii's metrics),
#                       conveyor.md, ladder.txt (each tier against the next),
#                       draft-stats-<tier>/ (first give, first push, the opening tree),
#                       opening-<tier>.md (the opening explorer as a table)
#   OUT/top/            top's self-play in the rules and strong against top
#   OUT/first-give/     the forced first give per tier (paired differences)
#   OUT/first-placement/ the forced first placement per tier (paired differences)
#   OUT/remedies/       four rules changes against the rules (closure, repetition, majority)
#   OUT/reflexes/       the four reflexes removed from the strongest agent that can lose them
#   OUT/first-placement-classes/ the first placement of dice 1, 4 and 3
#   OUT/other-games-strength/, variant-ladders/, dominoes-opener/   §8 (with OTHER_SCALE)
# SENAT, WORK and SEED as in experiments/first-player.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:-report-$(date +%Y%m%d-%H%M%S)}
if [ -e "$out" ]; then echo "report: $out exists; give a new folder" >&2; exit 2; fi
# shellcheck source=experiments/run-folder.sh
. experiments/run-folder.sh
senat=${SENAT:-target/release/senat}
[ -x "$senat" ] || cargo build --release --quiet
export SENAT=$senat
tiers=${TIERS:-random heuristic learned mcts-eval strong}
export TIERS=$tiers
export GAMES=${GAMES:-20000} STRONG_GAMES=${STRONG_GAMES:-100}
work=${WORK:-/tmp/report-games}
export WORK=$work
mkdir -p "$out"
experiments/first-player.sh "$out/first-player"
# The tiers against their neighbours, each drafting for itself (the games file is not kept).
specs=()
for t in $tiers; do specs+=("$(tier_spec "$t")"); done
"$senat" arena "${specs[@]}" --ladder --draft own --games "${LADDER_GAMES:-100}" --seed 2501 \
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
# The opening explorer of each tier (games and results per line of the draft).
for t in $tiers; do
  python3 experiments/opening_table.py "$out/first-player/draft-stats-$t/opening_tree.csv" "$out/first-player/opening-$t.md" --depth 3
done
# Only the tables the report reads are kept of draft-stats (the others name sides, not dice).
for t in $tiers; do
  find "$out/first-player/draft-stats-$t" -type f ! -name first_push.csv ! -name first_give.csv ! -name opening_tree.csv -delete
done
gives=("heuristic:${GIVE_HEURISTIC:-2000}" "learned:${GIVE_LEARNED:-1000}")
[ "${GIVE_STRONG:-0}" -gt 0 ] && gives+=("mcts-eval:$GIVE_STRONG" "strong:$GIVE_STRONG")
WORK="$work/gives" experiments/first-give.sh "$out/first-give" "${gives[@]}"
places=("learned:${PLACE_LEARNED:-1000}" "heuristic:${PLACE_HEURISTIC:-1000}")
[ "${PLACE_STRONG:-0}" -gt 0 ] && places+=("mcts-eval:$PLACE_STRONG" "strong:$PLACE_STRONG")
WORK="$work/placements" experiments/first-placement.sh "$out/first-placement" "${places[@]}"
remedies=("learned:${REMEDY_LEARNED:-2000}")
[ "${REMEDY_STRONG:-0}" -gt 0 ] && remedies+=("mcts-eval:$REMEDY_STRONG" "strong:$REMEDY_STRONG")
WORK="$work/remedies" experiments/remedies.sh "$out/remedies" "${remedies[@]}"
if [ "${TOP_GAMES:-0}" -gt 0 ]; then
  mkdir -p "$out/top"
  "$senat" selfplay --games "$TOP_GAMES" --seed "${SEED:-2201}" --red top --blue top --out "$work/top-rules.games.csv" \
    --summary "$out/top/top-rules.summary.csv" --force --quiet
  "$senat" arena strong top --draft own --games "${TOP_LADDER_GAMES:-100}" --seed 2501 --summary "$out/top/top-ladder-summary.csv" --force --quiet \
    >"$out/top/top-ladder.txt"
  echo "$senat selfplay --games $TOP_GAMES --seed ${SEED:-2201} --red top --blue top; $senat arena strong top --draft own --games ${TOP_LADDER_GAMES:-100} --seed 2501" >"$out/top/runs.txt"
fi
if [ "${REFLEX_GAMES:-0}" -gt 0 ]; then
  experiments/reflexes.sh "$out/reflexes" "$REFLEX_GAMES"
fi
# The first placement for the other die classes (PLAN-classes.md).
classes=("learned:${CLASS_LEARNED:-1000}" "heuristic:${CLASS_HEURISTIC:-1000}")
[ "${CLASS_STRONG:-0}" -gt 0 ] && classes+=("strong:$CLASS_STRONG")
DESIGN=classes WORK="$work/classes" experiments/first-placement.sh "$out/first-placement-classes" "${classes[@]}"
# The other games (REPORT §8): balance and metrics against strength, the ladders in the variants, the dominoes opener.
if [ "${OTHER_SCALE:-0}" != 0 ]; then
  experiments/other-games-strength.sh "$senat" "$out/other-games-strength" "$OTHER_SCALE"
  experiments/variant-ladders.sh "$out/variant-ladders" "${VARIANT_LADDER_GAMES:-100}"
  experiments/dominoes-opener.sh "$out/dominoes-opener" "${OPENER_SCALE:-1}"
fi
echo "report: tables and plots in $out"

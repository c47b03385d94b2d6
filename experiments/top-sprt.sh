#!/usr/bin/env bash
# A candidate Sénat agent against a reference at equal think time per game,
# as the agents issue asks of a new `top`: a short calibration match finds
# the reference's playouts that match the candidate's think time per game,
# then an SPRT (colour-swapped pairs, own drafts, a 2-ply random book) tests
# the candidate against the reference so calibrated.
#
#   experiments/top-sprt.sh OUT NEW REF [SPRT]
#
#   OUT   a new folder (refused if it exists): runs.txt (every command, its
#         time and the commit), calibration.txt, sprt.txt, the SPRT's games
#         and summary CSVs
#   NEW   the candidate's spec
#   REF   the reference's spec with PLAYOUTS where its playouts go, e.g.
#         'mcts:playouts=PLAYOUTS,rollout=eval,prior=1000,solve=off'
#   SPRT  the hypotheses (default elo0=-20,elo1=0,alpha=0.05,beta=0.05)
#
# SENAT (default target/release/senat), CAL_GAMES (default 40, the
# calibration's games, reference at BASE playouts), BASE (default 10000),
# GAMES (default 3000, the SPRT's most games), SEED (default 2031; the
# calibration uses SEED+1000), THREADS (default 2).
# Think time is wall clock: a loaded machine slows both agents alike, but the
# ratio is what the calibration keeps; the SPRT's own table prints both
# agents' think time per game, which says how equal it stayed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ $# -lt 3 ]; then sed -n '2,25p' "$0" >&2; exit 2; fi
out=$1 new=$2 ref=$3 sprt=${4:-elo0=-20,elo1=0,alpha=0.05,beta=0.05}
if [ -e "$out" ]; then echo "top-sprt: $out exists; give a new folder" >&2; exit 2; fi
case $ref in *PLAYOUTS*) ;; *) echo "top-sprt: REF must hold PLAYOUTS where its playouts go" >&2; exit 2 ;; esac
senat=${SENAT:-target/release/senat}
cal_games=${CAL_GAMES:-40} base=${BASE:-10000} games=${GAMES:-3000}
seed=${SEED:-2031} threads=${THREADS:-2}
mkdir -p "$out"
log() { echo "$*" >>"$out/runs.txt"; }
log "# experiments/top-sprt.sh, $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown); $("$senat" --version)"
run() {
  local into=$1
  shift
  log "$*"
  local start=$SECONDS
  "$@" >"$into" 2>&1
  log "# took $((SECONDS - start)) s"
}

ref_base=${ref//PLAYOUTS/$base}
run "$out/calibration.txt" "$senat" arena "$new" "$ref_base" --draft own --book-plies 2 \
  --games "$cal_games" --seed $((seed + 1000)) --threads "$threads"
# `think time per game: A ms (first), B ms (second)`
read -r t_new t_ref < <(awk '/think time per game/ { gsub(/[(),]/, " "); print $5, $8 }' "$out/calibration.txt")
if [ -z "${t_new:-}" ] || [ -z "${t_ref:-}" ]; then
  echo "top-sprt: no think times in $out/calibration.txt" >&2
  exit 1
fi
# The reference's playouts in proportion to the think times, to the hundred.
playouts=$(awk -v b="$base" -v n="$t_new" -v r="$t_ref" 'BEGIN { printf "%d", int(b * n / r / 100 + 0.5) * 100 }')
log "# calibration: think ms per game $t_new (candidate) and $t_ref (reference at $base playouts): reference at $playouts playouts"
ref_cal=${ref//PLAYOUTS/$playouts}
run "$out/sprt.txt" "$senat" arena "$new" "$ref_cal" --draft own --book-plies 2 --games "$games" \
  --seed "$seed" --threads "$threads" --sprt "$sprt" --out "$out/games.csv" --summary "$out/summary.csv"
cat "$out/runs.txt" "$out/sprt.txt"

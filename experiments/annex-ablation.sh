#!/usr/bin/env bash
# Issue 11, item 3: the rules' "four reflexes" as terms of the heuristic,
# each set to 0 in turn (ablation), measured by arena against the full
# heuristic in colour-swapped pairs (shared random draft, so only the play
# evaluation differs; the heuristic's draft rules are not weights).
# Also: does ab:depth=3 beat ab:depth=2 (the first report's strong tier)?
# Usage: experiments/annex-ablation.sh   (ABL_GAMES, DEPTH_GAMES, SEED)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
senat=${SENAT:-target/release/senat}
[ -x "$senat" ] || cargo build --release --quiet
out=results/annex
mkdir -p "$out"
games=${ABL_GAMES:-20000}
dgames=${DEPTH_GAMES:-400}
seed=${SEED:-2026}
# full_i is 0 in the default weights: ablating it changes nothing, so it is
# not played. pile and win: the score itself (kept as controls).
nice "$senat" arena heuristic 'heuristic:pile=0' 'heuristic:win=0' 'heuristic:own_i=0' 'heuristic:opp_i=0' \
    'heuristic:square=0' 'heuristic:exposed=0' --gauntlet --games "$games" --seed "$seed" \
    --summary "$out/ablation-summary.csv" --force --quiet | tee "$out/ablation.txt"
echo "# $senat arena heuristic heuristic:X=0... --gauntlet --games $games --seed $seed" >>"$out/ablation.txt"
# full_i (row I full: the conveyor belt) is 0 by default: instead of
# removing it, add it with either sign.
nice "$senat" arena heuristic 'heuristic:full_i=1' 'heuristic:full_i=-1' --gauntlet --games "$games" --seed "$seed" \
    --summary "$out/ablation-full-i-summary.csv" --force --quiet | tee "$out/ablation-full-i.txt"
echo "# $senat arena heuristic heuristic:full_i=1 heuristic:full_i=-1 --gauntlet --games $games --seed $seed" >>"$out/ablation-full-i.txt"
nice "$senat" arena 'ab:depth=3' 'ab:depth=2' --games "$dgames" --seed "$seed" \
    --summary "$out/depth-summary.csv" --force --quiet | tee "$out/depth.txt"
echo "# $senat arena ab:depth=3 ab:depth=2 --games $dgames --seed $seed" >>"$out/depth.txt"

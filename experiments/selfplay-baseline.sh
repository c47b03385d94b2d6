#!/usr/bin/env bash
# Self-play baseline measurements (issue 3). Run from the repository root:
#   experiments/selfplay-baseline.sh [bench|million|pairs|all]
# SENAT (default target/release/senat, built if missing) is the binary;
# WORK (default /tmp/senat-selfplay-baseline) holds the big games files,
# which are not kept; small summary CSVs go to results/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
senat=${SENAT:-target/release/senat}
[ -x "$senat" ] || cargo build --release --quiet
work=${WORK:-/tmp/senat-selfplay-baseline}
mkdir -p "$work" results/pairs
what=${1:-all}

if [ "$what" = bench ] || [ "$what" = all ]; then
    # Complete games/s (draft included, nothing written), 1 thread and all threads.
    uptime
    "$senat" bench --games 200000 --policies random,greedy | tee results/bench.txt
fi

if [ "$what" = million ] || [ "$what" = all ]; then
    # A million random games in one command: time, peak RSS, summary table.
    uptime
    /usr/bin/time -v "$senat" selfplay --games 1000000 --seed 1 --out "$work/million.csv" \
        --summary results/million-random-summary.csv --force 2>"$work/million.time" | tee results/million-random.txt
    grep -E "Elapsed|Maximum resident|User time|System time|Percent of CPU" "$work/million.time" | tee -a results/million-random.txt
    ls -l "$work/million.csv" | tee -a results/million-random.txt
fi

if [ "$what" = pairs ] || [ "$what" = all ]; then
    # Game length and results per policy pair, 20,000 games each.
    for red in random greedy heuristic; do
        for blue in random greedy heuristic; do
            "$senat" selfplay --games 20000 --seed 3 --red "$red" --blue "$blue" --out "$work/pair.csv" \
                --summary "results/pairs/$red-vs-$blue.csv" --force --quiet
        done
    done
    # The heuristic's play without its draft: both sides draft at random.
    for red in random greedy heuristic; do
        for blue in random greedy heuristic; do
            [ "$red" = heuristic ] || [ "$blue" = heuristic ] || continue
            "$senat" selfplay --games 20000 --seed 3 --red "$red" --blue "$blue" --draft-red random \
                --draft-blue random --out "$work/pair.csv" --summary "results/pairs/$red-vs-$blue-random-draft.csv" \
                --force --quiet
        done
    done
    # One line per pair: shares, lengths, end reasons, branching.
    awk -F, 'FNR == 1 { next }
        { k = $1 "," $2 "," $3 "," $4; v[k, $5] = $6; if (!(k in seen)) { seen[k] = 1; order[++n] = k } }
        END {
            print "red,blue,draft_red,draft_blue,games,red_share,blue_share,draw_share,length_mean,length_median,length_p10,length_p90,majority,repetition,closure,block,branching_mean"
            for (i = 1; i <= n; i++) { k = order[i]
                print k "," v[k, "games"] "," v[k, "red_share"] "," v[k, "blue_share"] "," v[k, "draw_share"] "," \
                    v[k, "length_mean"] "," v[k, "length_median"] "," v[k, "length_p10"] "," v[k, "length_p90"] "," \
                    v[k, "reason_majority"] "," v[k, "reason_repetition"] "," v[k, "reason_closure"] "," \
                    v[k, "reason_block"] "," v[k, "branching_mean"] }
        }' results/pairs/*.csv | tee results/policy-pairs.csv | column -t -s,
fi

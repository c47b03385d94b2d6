#!/usr/bin/env bash
# Issue 11 (the strategy annex), items 3 and 4: the runs behind
# results/annex/ and results/REPORT.md.
#
#   experiments/annex.sh                                   # small: a few minutes
#   GAMES=1000000 STRONG_GAMES=10000 experiments/annex.sh  # the full size
#
# Tiers (both colours played by the same policy):
#   random, heuristic (both phases), and strong = ab:depth=3 play after a
#   random draft (experiments/annex-ablation.sh checks that ab:depth=3 beats
#   ab:depth=2). ab draws no randomness: with its own draft every game of a
#   batch is the same game (10,000 times: blue wins in 23 half-moves), so
#   the strong tier drafts at random (--draft-red random --draft-blue random),
#   as the arena's shared draft does.
# Variables: GAMES (random and heuristic, default 20000), STRONG_GAMES
# (default 1000), MOVES_GAMES (the sub-batch written with --moves, default
# 20000 or GAMES if smaller; STRONG_MOVES_GAMES, default STRONG_GAMES/5,
# for the strong tier), GIVE_GAMES / STRONG_GIVE_GAMES (games per
# forced first give, default GAMES/20 and STRONG_GAMES/5), SHARDS (default
# 2: each big batch is played as --shard K/SHARDS in a local loop, then
# merged), SEED (default 11), WORK (raw games files, default
# /tmp/senat-annex; deleted at the end unless KEEP=1), SENAT (the binary).
# On a cluster, the same batches run one shard per array task with
# scripts/slurm-selfplay.sh (see README, "Many machines").
#
# Outputs: results/annex/<tier>/*.csv (the draft-stats tables, the opening
# tree cut to depth 3, and the merged selfplay summary), results/annex/plots/ (all tiers), results/annex/give/*.csv (the
# forced first give experiment), results/annex/runs.txt (the commands, in
# order, with their times).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
senat=${SENAT:-target/release/senat}
[ -x "$senat" ] || cargo build --release --quiet
games=${GAMES:-20000}
strong_games=${STRONG_GAMES:-1000}
moves_games=${MOVES_GAMES:-$(( games < 20000 ? games : 20000 ))}
strong_moves_games=${STRONG_MOVES_GAMES:-$(( strong_games / 5 ))}
give_games=${GIVE_GAMES:-$(( games / 20 ))}
strong_give_games=${STRONG_GIVE_GAMES:-$(( strong_games / 5 ))}
shards=${SHARDS:-2}
seed=${SEED:-11}
work=${WORK:-/tmp/senat-annex}
out=results/annex
mkdir -p "$work" "$out/plots" "$out/give"
log="$out/runs.txt"
echo "# experiments/annex.sh GAMES=$games STRONG_GAMES=$strong_games MOVES_GAMES=$moves_games STRONG_MOVES_GAMES=$strong_moves_games GIVE_GAMES=$give_games STRONG_GIVE_GAMES=$strong_give_games SHARDS=$shards SEED=$seed ($(date -u +%F), $(nproc) cores, senat $(git rev-parse --short HEAD))" >"$log"

# Runs a command, logs it with its wall time.
run() {
    local t0=$SECONDS
    nice "$@"
    { printf '%q ' "$@"; echo "# $((SECONDS - t0)) s"; } | sed "s#$work/#\$WORK/#g" >>"$log"
}

tiers=(random heuristic strong)
policy() { case $1 in random) echo random ;; heuristic) echo heuristic ;; strong) echo 'ab:depth=3' ;; esac; }
draft() { case $1 in strong) echo random ;; *) policy "$1" ;; esac; }
size() { case $1 in strong) echo "$strong_games" ;; *) echo "$games" ;; esac; }

for t in "${tiers[@]}"; do
    p=$(policy "$t")
    d=$(draft "$t")
    n=$(size "$t")
    m=$(( n < moves_games ? n : moves_games ))
    [ "$t" = strong ] && m=$strong_moves_games
    mkdir -p "$out/$t"
    parts=()
    for k in $(seq 1 "$shards"); do
        run "$senat" selfplay --games "$n" --seed "$seed" --red "$p" --blue "$p" --draft-red "$d" --draft-blue "$d" --shard "$k/$shards" \
            --out "$work/$t-$k.csv" --summary '' --force --quiet
        parts+=("$work/$t-$k.csv")
    done
    run "$senat" merge --out "$work/$t.csv" --summary "$out/$t/selfplay-summary.csv" --force --quiet "${parts[@]}"
    rm -f "${parts[@]}"
    # The per-move file only for a sub-batch (a million games would be ~5 GB).
    run "$senat" selfplay --games "$m" --seed "$seed" --red "$p" --blue "$p" --draft-red "$d" --draft-blue "$d" \
        --out "$work/$t-sub.csv" --moves "$work/$t-moves.csv" --summary '' --force --quiet
    run "$senat" draft-stats "$work/$t.csv" --moves "$work/$t-moves.csv" --out-dir "$out/$t" --force --quiet
    # Keep the committed results small: the opening tree to depth 3 (the
    # full tree, depth 4, is ~300 KB per tier; rerun draft-stats for it).
    awk -F, 'NR == 1 || $5 <= 3' "$out/$t/opening_tree.csv" >"$out/$t/opening_tree.tmp"
    mv "$out/$t/opening_tree.tmp" "$out/$t/opening_tree.csv"
done

# All tiers in one set of plots (tables of this run are not kept: they are
# the per-tier tables side by side).
run "$senat" draft-stats "$work/random.csv" "$work/heuristic.csv" "$work/strong.csv" \
    --moves "$work/random-moves.csv" --moves "$work/heuristic-moves.csv" --moves "$work/strong-moves.csv" \
    --out-dir "$work/combined" --plot "$out/plots" --force --quiet
rm -f "$work"/{random,heuristic,strong}{,-sub,-moves}.csv

# Controlled experiment: blue's first give forced to each die in turn, same
# seeds otherwise (game i of every batch has the same generator).
gives="g1 $(seq -f 'g%g' 3 23 | tr '\n' ' ')"
for t in "${tiers[@]}"; do
    p=$(policy "$t")
    d=$(draft "$t")
    n=$give_games
    [ "$t" = strong ] && n=$strong_give_games
    files=()
    for g in $gives; do
        run "$senat" selfplay --games "$n" --seed "$seed" --red "$p" --blue "$p" --draft-red "$d" --draft-blue "$d" --force-first-give "$g" \
            --out "$work/give-$t-$g.csv" --summary '' --force --quiet
        files+=("$work/give-$t-$g.csv")
    done
    run python3 experiments/paired_gives.py --tier "$t" --out "$out/give/$t.csv" "${files[@]}"
    rm -f "${files[@]}"
done
[ "${KEEP:-0}" = 1 ] || rm -rf "$work"
echo "done: $out"

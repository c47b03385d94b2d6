#!/usr/bin/env bash
# Ludii's metrics on a yardstick with evaluators of one class
# (results/other-games/yardstick/README.md, written before the games):
# a Connect Four network trained, then self-play of Connect Four, Focus and
# Sénat at their tiers, each file measured by the game's own evaluation
# and by its learned evaluation (`senat metrics --weights`), and one table.
#   experiments/yardstick.sh [BIN] OUT      BIN defaults to target/release/senat
# OUT must not exist; the games go to OUT/games (not committed). The
# training uses every core (train-net has no thread count); the games
# and metrics one thread each.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -eq 1 ]; then bin=target/release/senat; out=$1; else bin=${1:?}; out=${2:?usage: yardstick.sh [BIN] OUT}; fi
[ -x "$bin" ] || { echo "yardstick: $bin is not an executable" >&2; exit 2; }
[ -e "$out" ] && { echo "yardstick: $out exists; give a new folder" >&2; exit 2; }
mkdir -p "$out/games"
runs=$out/runs.txt
echo "# yardstick run, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD), binary $bin ($("$bin" --version)), $(nproc) cores, --threads 1" >"$runs"
log() { echo "$*  # $(( $(date +%s) - t0 )) s" >>"$runs"; }

t0=$(date +%s)
c4net=$out/net-connect4.txt
"$bin" train-net --game connect4 --games 40000 --seed 1 --generator 'ab:depth=1,tt=16' --label 'ab:depth=3,tt=16' \
  --label-weight 0.7 --sample 0.5 --explore 0.02 --hidden 32 --epochs 8 --lr 0.001 --lr-final 0.00001 --l2 0.000001 \
  --out "$c4net" >"$out/train-connect4.txt"
log "$bin train-net --game connect4 --games 40000 --seed 1 --generator 'ab:depth=1,tt=16' --label 'ab:depth=3,tt=16' --label-weight 0.7 --sample 0.5 --explore 0.02 --hidden 32 --epochs 8 --lr 0.001 --lr-final 0.00001 --l2 0.000001 --out net-connect4.txt"

# A moves (Sénat: games) file measured by its game's own evaluation and by
# the network: measure FILE NETWORK STEM writes STEM-own.csv and STEM-learned.csv.
measure() {
  local file=$1 net=$2 stem=$3
  "$bin" metrics "$file" --out "$stem-own.csv" --force >/dev/null
  "$bin" metrics "$file" --weights "$net" --out "$stem-learned.csv" --force >/dev/null
  cp "$stem-own.csv" "$stem-learned.csv" "$out/"
}
for g in connect4 focus; do
  net=$c4net; [ "$g" = focus ] && net=crates/lab/data/net-focus.txt
  tiers="greedy:1000 ab:depth=2:500 ab:depth=3:200 mcts:playouts=1000:200"
  [ "$g" = connect4 ] && tiers="random:1000 $tiers"
  for tg in $tiers; do
    tier=${tg%:*} games=${tg##*:}
    stem="$out/games/$g-${tier//[:=,]/_}"
    t0=$(date +%s)
    "$bin" selfplay --game "$g" --first "$tier" --second "$tier" --games "$games" --seed 2801 --threads 1 \
      --book-plies 4 --out "$stem.csv" --moves "$stem-moves.csv" --summary '' --force --quiet >/dev/null
    measure "$stem-moves.csv" "$net" "$stem"
    log "$bin selfplay --game $g --first $tier --second $tier --games $games --seed 2801 --threads 1 --book-plies 4 --out G.csv --moves M.csv --summary ''; $bin metrics M.csv --out $(basename "$stem")-own.csv; $bin metrics M.csv --weights $net --out $(basename "$stem")-learned.csv"
  done
done
for ts in random:6013 learned:6010 strong:6011; do
  tier=${ts%:*} seed=${ts#*:}
  stem="$out/games/senat-$tier"
  t0=$(date +%s)
  "$bin" selfplay --games 2000 --seed "$seed" --red "$tier" --blue "$tier" --threads 1 \
    --out "$stem.csv" --summary '' --quiet >/dev/null
  measure "$stem.csv" crates/lab/data/net-senat.txt "$stem"
  log "$bin selfplay --games 2000 --seed $seed --red $tier --blue $tier --threads 1 --out G.csv --summary ''; $bin metrics G.csv --out senat-$tier-own.csv; $bin metrics G.csv --weights crates/lab/data/net-senat.txt --out senat-$tier-learned.csv"
done
python3 - "$out" <<'PY' >"$out/table.md"
import csv, os, sys
out = sys.argv[1]
cells = [("senat", t) for t in ("random", "learned", "strong")]
cells += [("connect4", t) for t in ("random", "greedy", "ab_depth_2", "ab_depth_3", "mcts_playouts_1000")]
cells += [("focus", t) for t in ("greedy", "ab_depth_2", "ab_depth_3", "mcts_playouts_1000")]
keys = ["LeadChange", "Drama", "DecisivenessMoves"]
print("| game | tier | games | evaluator | " + " | ".join(keys) + " |")
print("|---|---|---|---|" + "---|" * len(keys))
for game, tier in cells:
    for ev in ("own", "learned"):
        rows = {r["metric"]: r for r in csv.DictReader(open(os.path.join(out, f"{game}-{tier}-{ev}.csv")))}
        def cell(k):
            r = rows[k]
            s = f"{100 * float(r['value']):.1f} [{100 * float(r['low']):.1f}, {100 * float(r['high']):.1f}] %"
            return s + (f" ({r['games']})" if k != "LeadChange" else "")
        name = tier.replace("_", ":", 1).replace("_", "=", 1)
        print(f"| {game} | {name} | {rows['AdvantageP1']['games']} | {ev} | " + " | ".join(cell(k) for k in keys) + " |")
PY
echo "# finished $(date -u +%Y-%m-%dT%H:%M:%SZ)" >>"$runs"
cat "$out/table.md"

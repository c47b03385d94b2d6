#!/usr/bin/env bash
# Ludii's metrics on a yardstick (results/other-games/connect4-metrics/README.md,
# written before the games): Connect Four self-play at five tiers with
# four random opening plies, then `senat metrics` on each moves file, and
# one table of the metrics the report compares (OUT/table.md).
#   experiments/connect4-metrics.sh [BIN] OUT      BIN defaults to target/release/senat
# OUT must not exist; the games and moves files go to OUT/games (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -eq 1 ]; then bin=target/release/senat; out=$1; else bin=${1:?}; out=${2:?usage: connect4-metrics.sh [BIN] OUT}; fi
[ -x "$bin" ] || { echo "connect4-metrics: $bin is not an executable" >&2; exit 2; }
[ -e "$out" ] && { echo "connect4-metrics: $out exists; give a new folder" >&2; exit 2; }
mkdir -p "$out/games"
runs=$out/runs.txt
echo "# connect4-metrics run, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD), binary $bin ($("$bin" --version)), $(nproc) cores, --threads 1, seed 2801" >"$runs"
for tg in random:1000 greedy:1000 ab:depth=2:500 ab:depth=3:200 mcts:playouts=1000:100; do
  tier=${tg%:*} games=${tg##*:}
  stem="$out/games/connect4-${tier//[:=,]/_}"
  t0=$(date +%s)
  "$bin" selfplay --game connect4 --first "$tier" --second "$tier" --games "$games" --seed 2801 --threads 1 \
    --book-plies 4 --out "$stem.csv" --moves "$stem-moves.csv" --summary '' --force --quiet >/dev/null
  "$bin" metrics "$stem-moves.csv" --out "$stem-metrics.csv" --force >/dev/null
  echo "$bin selfplay --game connect4 --first $tier --second $tier --games $games --seed 2801 --threads 1 --book-plies 4 --out G.csv --moves M.csv --summary ''; $bin metrics M.csv --out $(basename "$stem")-metrics.csv  # $(( $(date +%s) - t0 )) s" >>"$runs"
  cp "$stem-metrics.csv" "$out/"
done
python3 - "$out" <<'PY' >"$out/table.md"
import csv, glob, os, sys
out = sys.argv[1]
order = ["random", "greedy", "ab_depth_2", "ab_depth_3", "mcts_playouts_1000"]
keys = ["AdvantageP1", "Duration", "DecisivenessMoves", "LeadChange", "Drama", "Drama.max"]
print("| tier | games | " + " | ".join(keys) + " |")
print("|---|---|" + "---|" * len(keys))
for t in order:
    rows = {r["metric"]: r for r in csv.DictReader(open(os.path.join(out, f"connect4-{t}-metrics.csv")))}
    def cell(k):
        r = rows.get(k)
        if not r:
            return "—"
        pct = k != "Duration"
        f = (lambda x: f"{100 * float(x):.1f}") if pct else (lambda x: f"{float(x):.1f}")
        lo = f" [{f(r['low'])}, {f(r['high'])}]" if r["low"] else ""
        return f"{f(r['value'])}{lo}{' %' if pct else ''}" + (f" ({r['games']})" if k in ("DecisivenessMoves", "Drama", "Drama.max") else "")
    print(f"| {t.replace('_', ':', 1).replace('_', '=', 1)} | {rows['AdvantageP1']['games']} | " + " | ".join(cell(k) for k in keys) + " |")
PY
echo "# finished $(date -u +%Y-%m-%dT%H:%M:%SZ)" >>"$runs"
cat "$out/table.md"

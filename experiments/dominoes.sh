#!/usr/bin/env bash
# Issue 14's measurements for block dominoes, written to results/dominoes/:
#   rates.txt      random complete rounds per second, one thread
#                  (cargo run --release -p dominoes-rules --example dominoes_speed),
#                  and OpenSpiel's python_block_dominoes side by side in the
#                  same run (a Python virtual environment with open_spiel from
#                  PyPI, made under target/openspiel-venv if missing)
#   ladder-*.txt   duplicate-deal arena ladders, 2 and 4 players, with the
#                  same steps on independent deals (the luck they remove)
#   balance.csv    seat balance of the match to 100 under the strongest agent
# Usage: experiments/dominoes.sh [ladder-games] [balance-games] [seed]
set -euo pipefail
cd "$(dirname "$0")/.."
ladder_games=${1:-200}
balance_games=${2:-400}
seed=${3:-2026}
cargo build --release --quiet
bin=target/release/senat
out=results/dominoes
mkdir -p "$out"
commit=$(git rev-parse --short HEAD)

# ---- speed, side by side with OpenSpiel ---------------------------------------
venv=target/openspiel-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet open_spiel
fi
{
  echo "# experiments/dominoes.sh: random play, one thread (commit $commit; $(nproc) shared cores)"
  cargo run --quiet --release -p dominoes-rules --example dominoes_speed 2>/dev/null
  "$venv/bin/python" experiments/openspiel_dominoes.py 10
} | tee "$out/rates.txt"

# ---- ladders ---------------------------------------------------------------------
ladder=(random greedy 'pimc:playouts=300,worlds=10' 'ismcts:playouts=300')
for players in 2 4; do
  for deals in duplicate independent; do
    flag=()
    [ "$deals" = independent ] && flag=(--no-duplicate)
    {
      echo "# senat arena --game dominoes --players $players ${ladder[*]} --ladder --games $ladder_games --seed $seed ${flag[*]} (commit $commit)"
      "$bin" arena --game dominoes --players "$players" "${ladder[@]}" --ladder --games "$ladder_games" --seed "$seed" "${flag[@]}" --quiet
    } | tee "$out/ladder-${players}p-$deals.txt"
  done
done

# ---- seat balance under the strongest agent ------------------------------------------
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
strong='ismcts:playouts=300'
{
  echo "players,seat,agent,matches,wins,win_rate,win_lo,win_hi,draws,mean_rounds,command"
  for players in 2 3 4; do
    "$bin" selfplay --game dominoes --players "$players" --first "$strong" --second "$strong" --games "$balance_games" \
      --seed "$seed" --out "$tmp/g.csv" --summary "" --force --quiet
    python3 "$(dirname "$0")/dominoes_seats.py" "$tmp/g.csv" "$players" | sed "s/\$/,\"senat selfplay --game dominoes --players $players --first $strong --second $strong --games $balance_games --seed $seed\"/"
  done
} | tee "$out/balance.csv"

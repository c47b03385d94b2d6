#!/usr/bin/env bash
# Issue 13's measurements for Focus (2 and 4 players) and Débâcle, written
# to results/other-games/:
#   perft.txt      perft 1..4 at every start position (and the swap opening)
#   rates.txt      random-play speed (cargo bench --bench other_games)
#   ladder-*.txt   an arena ladder per game, colour-swapped pairs, 95% intervals
#   balance.csv    first-player balance: self-play of one agent against
#                  itself at two strengths, per game and Focus symmetry fix,
#                  every game from its own 4 random plies (--book-plies 4:
#                  MCTS with cut=0 draws no randomness and would replay one
#                  game), with Wilson 95% intervals and the number of distinct
#                  games (rows alike but for index and seed) among them
# Usage: experiments/other-games.sh [ladder-games] [balance-games-greedy] [balance-games-mcts] [seed]
set -euo pipefail
cd "$(dirname "$0")/.."
ladder_games=${1:-100}
greedy_games=${2:-2000}
mcts_games=${3:-200}
seed=${4:-2026}
cargo build --release --quiet
bin=target/release/senat
out=results/other-games
mkdir -p "$out"
commit=$(git rev-parse --short HEAD)

# ---- perft -----------------------------------------------------------------
{
  echo "# experiments/other-games.sh: perft at the start (commit $commit)"
  echo "# game variant depth nodes   (command: senat perft --game G [--variant V] start --depth D)"
  for spec in "focus -" "focus4 -" "focus4 order=ccw" "focus fix=swap" "debacle -" "debacle relocate_on_end=yes"; do
    set -- $spec
    for d in 1 2 3 4; do
      if [ "$2" = "-" ]; then n=$("$bin" perft --game "$1" start --depth "$d" 2>/dev/null)
      else n=$("$bin" perft --game "$1" --variant "$2" start --depth "$d" 2>/dev/null); fi
      echo "$1 $2 $d $n"
    done
  done
} | tee "$out/perft.txt"

# ---- random-play speed --------------------------------------------------------
{
  echo "# cargo bench --bench other_games (commit $commit; one thread; $(nproc) cores, shared machine)"
  cargo bench --quiet --bench other_games 2>/dev/null
} | tee "$out/rates.txt"

# ---- ladders -------------------------------------------------------------------
mcts='mcts:playouts=1000'
for game in focus focus4 debacle; do
  case $game in
    focus) ladder=(random greedy "$mcts" ab:depth=2 ab:depth=3) ;;
    focus4) ladder=(random greedy "$mcts" ab:depth=3) ;;
    debacle) ladder=(random greedy ab:depth=2 "$mcts" ab:depth=3) ;;
  esac
  {
    echo "# experiments/other-games.sh: senat arena --game $game ${ladder[*]} --ladder --games $ladder_games --seed $seed (commit $commit)"
    "$bin" arena --game "$game" "${ladder[@]}" --ladder --games "$ladder_games" --seed "$seed" \
      --out "$out/ladder-$game-games.csv" --summary "$out/ladder-$game-summary.csv" --force --quiet
  } | tee "$out/ladder-$game.txt"
done

# ---- first-player balance ---------------------------------------------------------
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
header=""
rows=()
: > "$out/balance.txt"
for spec in "focus -" "focus fix=draw" "focus fix=swap" "focus4 -" "focus4 order=ccw" "debacle -" "debacle scoring=winner"; do
  set -- $spec
  for agent in greedy "mcts:playouts=300"; do
    games=$greedy_games
    [ "$agent" = greedy ] || games=$mcts_games
    variant=()
    [ "$2" = "-" ] || variant=(--variant "$2")
    "$bin" selfplay --game "$1" "${variant[@]}" --first "$agent" --second "$agent" --games "$games" --seed "$seed" \
      --book-plies 4 --out "$tmp/g.csv" --summary "$tmp/s.csv" --force --quiet
    distinct=$(grep -v '^#' "$tmp/g.csv" | tail -n +2 | cut -d, -f3- | sort -u | wc -l)
    header=$(head -1 "$tmp/s.csv")
    rows+=("$(tail -1 "$tmp/s.csv"),$distinct,\"senat selfplay --game $1 ${variant[*]} --first $agent --second $agent --games $games --seed $seed --book-plies 4\"")
    echo "$1 $2 $agent: $(tail -1 "$tmp/s.csv") ($distinct distinct games)" | tee -a "$out/balance.txt"
  done
done
{
  echo "$header,distinct_games,command"
  printf '%s\n' "${rows[@]}"
} > "$out/balance.csv"

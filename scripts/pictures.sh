#!/usr/bin/env bash
# Draws one board picture of each game into results/pictures/ (PNG and SVG),
# from self-play games with fixed seeds, so that anyone gets the same bytes:
#
#   scripts/pictures.sh [BIN]        BIN defaults to target/release/senat
#
# Each picture is a position part-way through a game: the game's record
# (its start, then one move per line) is cut from the moves file of a
# one-game self-play batch and drawn by `senat render --ply N`. The records
# are kept beside the pictures (`*.rec`), so `senat view` can replay them.
set -euo pipefail
bin=${1:-target/release/senat}
[ -x "$bin" ] || { echo "pictures: $bin is not an executable (cargo build --release first)" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/results/pictures
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# record GAME SEED FIRST SECOND NAME: a one-game batch's moves as a record.
record() {
  "$bin" selfplay --game "$1" --games 1 --seed "$2" --first "$3" --second "$4" \
    --out "$work/$5.csv" --moves "$work/$5.moves.csv" --summary "" --quiet
  { echo start; sed -n 3p "$work/$5.moves.csv" | cut -d, -f2 | tr ' ' '\n'; } >"$out/$5.rec"
}
# draw GAME NAME PLY [FLAGS...]: the record's position after PLY moves.
draw() {
  local game=$1 name=$2 ply=$3; shift 3
  for ext in svg png; do
    "$bin" render --game "$game" "$out/$name.rec" --ply "$ply" "$@" --out "$out/$name${suffix:-}.$ext" --force
  done
}

record focus 4 greedy greedy focus
draw focus focus 30
record focus4 4 greedy greedy focus4
draw focus4 focus4 40
record debacle 4 random random debacle
draw debacle debacle 40
record dominoes 4 random random dominoes
draw dominoes dominoes 24                     # seen by the player to move
suffix=-reveal draw dominoes dominoes 24 --reveal
echo "pictures: wrote $(ls "$out" | wc -l) files in $out"

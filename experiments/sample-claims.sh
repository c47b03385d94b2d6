#!/usr/bin/env bash
# The forced-play claims of the sample game's commentary (senat-rules.fr.txt)
# checked with `senat solve`; see results/annex/sample-claims.md.
# Usage: experiments/sample-claims.sh [OUTDIR]   (default results/annex)
# Runs one search at a time (about 35 minutes on one core); BUDGET (seconds
# per move for the move-13 alternatives, default 8) scales the move-13 runs.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-results/annex}
BUDGET=${BUDGET:-8}
cargo build --release --quiet
B=target/release/senat
T=$(mktemp -d target/claims.XXXXXX)
trap 'rm -rf "$T"' EXIT
mkdir -p "$OUT"
# The sample game after its move N: the record's 4 lines (comments and the
# start position) and N moves.
after() { head -n $(($1 + 4)) crates/rules/data/sample-game.txt > "$T/after$1.txt"; echo "$T/after$1.txt"; }
run() { # NAME COMMAND...: output to $OUT/solver-NAME.txt (atomically)
  local name=$1; shift
  { echo "# senat ${*#"$B "}" | sed "s#$T/#/#g; s#$B ##"; echo "# commit $(git rev-parse --short HEAD)"; "$@" | sed "s#$T/#/#g"; } > "$T/$name.tmp"
  mv "$T/$name.tmp" "$OUT/solver-$name.txt"
  echo "$OUT/solver-$name.txt"
}
# Move 13: every blue move after move 12, red's win only, df-pn at horizon 14,
# then the alpha-beta solver with the same budget per move.
run move13-pns "$B" solve --history "$(after 12)" --each-move --engine pns --prove red --max-depth 14 --time "$BUDGET"
run move13-ab "$B" solve --history "$(after 12)" --each-move --max-depth 14 --time "$BUDGET"
# After move 13 (the game's move): does blue force its win?
run after13-ab "$B" solve --history "$(after 13)" --max-depth 30 --time 120
run after13-ab-300 "$B" solve --history "$(after 13)" --max-depth 30 --time 300
run after13-pns "$B" solve --history "$(after 13)" --engine pns --prove blue --max-depth 15 --time 90
# After move 15: red to move; each red move at horizon 7.
run after15-each "$B" solve --history "$(after 15)" --each-move --max-depth 7 --time 20
# After move 16: blue to move; each blue move (move 17 is "la parade").
run after16-each "$B" solve --history "$(after 16)" --each-move --max-depth 8 --time 10
# Moves 21-24: red's position after 21 ("no useful move left"), 22, 23, 24.
run after21 "$B" solve --history "$(after 21)" --max-depth 11 --time 120
run after21-each "$B" solve --history "$(after 21)" --each-move --max-depth 9 --time 10
run after22 "$B" solve --history "$(after 22)" --max-depth 9
run after23 "$B" solve --history "$(after 23)" --max-depth 9 --time 60
run after24 "$B" solve --history "$(after 24)" --max-depth 5
# Depth reached at the same budget: df-pn deepening (both sides' wins, as ab).
run move13-pnsid "$B" solve --history "$(after 12)" --each-move --engine pns-id --max-depth 14 --time "$BUDGET"
run after13-pnsid "$B" solve --history "$(after 13)" --engine pns-id --max-depth 30 --time 120
# After move 21, the three red moves with no forced result within 9 plies: deeper.
for m in M16-M14 'I22>I23=Tb' 'I22>I23=Cb'; do
  f=$T/after21-$(echo "$m" | tr -c 'A-Za-z0-9\n' _).txt
  { cat "$(after 21)"; echo "$m"; } > "$f"
  run "after21-$(echo "$m" | tr -c 'A-Za-z0-9\n' _)" "$B" solve --history "$f" --max-depth 13 --time 60
done
run after23-d13 "$B" solve --history "$(after 23)" --max-depth 13 --time 60
# After move 16, the five blue moves with no red win within 8 plies: deeper.
for m in I20-I23 'I20>I21:M12' 'I20>I21:M14' 'I20>I21:M15' 'I20>I21:M16'; do
  n=after16-$(echo "$m" | tr -c 'A-Za-z0-9\n' _)
  { cat "$(after 16)"; echo "$m"; } > "$T/$n.txt"
  run "$n" "$B" solve --history "$T/$n.txt" --max-depth 13 --time 40
done

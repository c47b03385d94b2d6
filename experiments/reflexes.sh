#!/usr/bin/env bash
# The reflexes design of results/reflexes/PLAN.md: the rules' four reflexes
# ("Les quatre réflexes", the rules card) removed one at a time from the
# strongest agent that has each as a part it can lose, then measured in
# colour-swapped pairs against the same agent whole (experiments/reflexes.py).
#
#   experiments/reflexes.sh OUT [GAMES]        GAMES per match (default 200; the plan: 1000)
#
# R1-R3 are terms of the learned evaluation (crates/lab/data/learned-weights.txt),
# set to 0 in a copy of the weights read by `file=`: the strongest agent on
# that evaluation is the mcts-eval tier (MCTS, 1,000 playouts, the learned
# evaluation as leaf value and prior). The value network has no such terms.
# R4 (look ahead: my move, the reply, my next move) is the search itself:
# the same evaluation at one ply, for mcts-eval (against `learned`) and for
# the network (`strong` against `learned:net=on`).
# OUT must not exist. SEED=2901, SENAT as in experiments/first-player.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ $# -ge 1 ] || { echo "usage: reflexes.sh OUT [GAMES]" >&2; exit 2; }
# shellcheck source=experiments/run-folder.sh
. experiments/run-folder.sh
start_run reflexes "$1" /tmp/reflexes-work
games=${2:-200}
seed=${SEED:-2901}
weights=crates/lab/data/learned-weights.txt
# ablate NAME KEY...: a copy of the weights with each KEY (play.x / draft.x) at 0.
ablate() {
  local name=$1 f="$out/weights-$1.txt"
  shift
  cp "$weights" "$f"
  for k in "$@"; do
    grep -q "^$k=" "$f" || { echo "reflexes: no weight $k in $weights" >&2; exit 2; }
    sed -i "s/^$k=.*/$k=0/" "$f"
  done
  sed -i "1i # $name: $weights with $* set to 0 (experiments/reflexes.sh)" "$f"
}
ablate R1-conveyor play.full_i
ablate R2-exposed play.exposed draft.exposed
ablate R3-push-colour play.threat_now play.threat_next play.threats draft.threats
base=$(tier_spec mcts-eval)
match() {  # match NAME WHOLE ABLATED
  local start
  start=$(date +%s.%N)
  "$senat" arena "$2" "$3" --draft own --book-plies 2 --games "$games" --seed "$seed" \
    --summary "$out/$1.summary.csv" --force --quiet >"$out/$1.txt"
  printf '%s arena %s %s --draft own --book-plies 2 --games %s --seed %s --summary OUT/%s.summary.csv  # %.1f s\n' \
    "$senat" "$2" "$3" "$games" "$seed" "$1" "$(echo "$(date +%s.%N) - $start" | bc)" >>"$runs"
}
for r in R1-conveyor R2-exposed R3-push-colour; do
  match "$r" "$base" "$base,file=$out/weights-$r.txt"
done
match R4-lookahead-eval "$base" learned
match R4-lookahead-net strong learned:net=on
sed -i "s|$out/|OUT/|g" "$out"/*.summary.csv "$out"/*.txt
python3 experiments/reflexes.py "$out"
echo "python3 experiments/reflexes.py OUT" >>"$runs"
cat "$out/reflexes.md"

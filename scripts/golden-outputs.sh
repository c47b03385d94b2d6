#!/usr/bin/env bash
# Records the outputs of a fixed set of senat commands, so that a change meant
# to keep behaviour (a refactoring, a speed-up) can be checked byte for byte.
#
#   scripts/golden-outputs.sh record DIR [BIN]   run the commands, write outputs to DIR
#   scripts/golden-outputs.sh compare OLD NEW    diff two recorded directories
#
# BIN defaults to target/release/senat. Before comparing, a `# senat-batch v1`
# identity line is rewritten as the `v2` line of the same batch (`game=senat
# variant=…` after the format, the variant moved from after `range=`), so a
# v1 recording compares equal to a v2 one exactly when the batch is the same;
# `# senat-arena` lines are removed (absent from older recordings). Runs in
# about a minute on 2 cores.
set -euo pipefail

usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 2 ] || usage

case "$1" in
record)
  dir=$2
  bin=${3:-target/release/senat}
  [ -x "$bin" ] || { echo "golden-outputs: $bin is not an executable (build it first)" >&2; exit 2; }
  bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
  root=$(cd "$(dirname "$0")/.." && pwd)
  mkdir -p "$dir"
  cd "$dir"
  if ls ./* >/dev/null 2>&1; then echo "golden-outputs: $dir is not empty" >&2; exit 2; fi
  run() { # name, then the command's arguments; stdout to NAME.out
    local name=$1; shift
    "$bin" "$@" >"$name.out"
  }
  # Self-play: every basic policy pair, with the moves file.
  for red in random greedy heuristic; do
    for blue in random greedy heuristic; do
      run "sp-$red-$blue" selfplay --games 1000 --seed 7 --red "$red" --blue "$blue" \
        --out "sp-$red-$blue.games.csv" --moves "sp-$red-$blue.moves.csv" \
        --summary "sp-$red-$blue.summary.csv" --threads 2 --quiet
    done
  done
  run sp-weights selfplay --games 500 --seed 3 --red 'heuristic:pile=12,exposed=-1' --blue greedy \
    --draft-blue random --out sp-weights.games.csv --summary sp-weights.summary.csv --quiet
  # The learned evaluation as a policy, drafting for itself.
  run sp-learned selfplay --games 1000 --seed 5 --red learned --blue learned \
    --out sp-learned.games.csv --moves sp-learned.moves.csv --summary sp-learned.summary.csv --threads 2 --quiet
  # Engines as policies (deterministic for a seed).
  run sp-engines selfplay --games 6 --seed 11 --red 'mcts:playouts=200' --blue 'ab:depth=2' \
    --out sp-engines.games.csv --summary sp-engines.summary.csv --threads 2 --quiet
  # Shards and their merge, Sénat's and Focus's, and the merge's refusals
  # (their stderr, in NAME.err).
  fail() { # name, then the command's arguments; it must fail
    local name=$1; shift
    if "$bin" "$@" >/dev/null 2>"$name.err"; then echo "golden-outputs: $name did not fail" >&2; exit 1; fi
  }
  for g in senat focus; do
    for k in 1 2 3; do
      "$bin" selfplay --game "$g" --games 300 --seed 9 --shard "$k/3" --out "$g-shard$k.csv" --summary "" --quiet >/dev/null
    done
    "$bin" selfplay --game "$g" --games 300 --seed 10 --shard 2/3 --out "$g-other.csv" --summary "" --quiet >/dev/null
    cp "$g-shard2.csv" "$g-again.csv"
    head -c "$(($(wc -c <"$g-shard2.csv") - 7))" "$g-shard2.csv" >"$g-cut.csv"
    run "merge-$g" merge "$g-shard3.csv" "$g-shard1.csv" "$g-shard2.csv" \
      --out "merge-$g.games.csv" --summary "merge-$g.summary.csv" --quiet
    fail "merge-$g-missing" merge "$g-shard1.csv" "$g-shard3.csv" --out m.csv --summary ""
    fail "merge-$g-twice" merge "$g-shard1.csv" "$g-shard2.csv" "$g-again.csv" "$g-shard3.csv" --out m.csv --summary ""
    fail "merge-$g-other" merge "$g-shard1.csv" "$g-other.csv" "$g-shard3.csv" --out m.csv --summary ""
    fail "merge-$g-cut" merge "$g-shard1.csv" "$g-cut.csv" "$g-shard3.csv" --out m.csv --summary ""
    rm -f "$g"-shard?.csv "$g-other.csv" "$g-again.csv" "$g-cut.csv" m.csv
  done
  # Arena.
  run arena arena random greedy heuristic --games 40 --seed 5 \
    --out arena.games.csv --summary arena.summary.csv --quiet
  # Rules: moves, perft, show, replay.
  run moves-start moves start
  run moves-sample moves sample
  while IFS=';' read -r name spn counts variant; do
    case "$name" in ''|'#'*) continue ;; esac
    variant=$(echo "${variant:-}" | sed 's/^ *//')
    if [ -n "$variant" ]; then
      run "perft-$name" perft "$(echo "$spn" | sed 's/^ *//')" --variant "$variant" --depth 3 2>/dev/null || true
    else
      run "perft-$name" perft "$(echo "$spn" | sed 's/^ *//')" --depth 3 2>/dev/null
    fi
  done <"$root/crates/rules/tests/perft.txt"
  run show-sample show sample --plain
  run replay-sample replay "$root/crates/rules/data/sample-game.txt"
  # Search: solver verdicts (first fixture positions) and a 1-thread alpha-beta.
  head -32 "$root/crates/rules/data/sample-game.txt" >after.txt 2>/dev/null || true
  head -24 "$root/crates/rules/data/sample-game.txt" >after20.txt
  run solve-after20 solve --history after20.txt --max-depth 7
  run analyze-sample analyze sample --depth 4
  # Speed lines and times are not behaviour: drop them, and blank the
  # arena summary's think-time columns (`*_think_ms`; its cells hold no comma).
  sed -i -E '/(games\/s|nodes\/s| in [0-9.]+ ?m?s|time|elapsed)/d' ./*.out
  awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /_think_ms$/) t[i] = 1 }
    NR > 1 { for (i in t) $i = "-" } { print }' arena.summary.csv >arena.summary.tmp
  mv arena.summary.tmp arena.summary.csv
  rm -f after.txt after20.txt
  echo "golden-outputs: recorded $(ls | wc -l) files in $dir"
  ;;
compare)
  old=$2 new=${3:?compare needs OLD and NEW}
  # v1 identity -> v2 identity; arena lines dropped.
  normalise() {
    perl -ne 'next if /^# senat-arena /;
      if (/^# senat-batch v1 /) { my $v = "-"; $v = $1 if s/ variant=(\S+)//;
        s/^# senat-batch v1 /# senat-batch v2 game=senat variant=$v /; }
      print'
  }
  status=0
  for f in "$old"/*; do
    n=$(basename "$f")
    if [ ! -e "$new/$n" ]; then echo "MISSING $n"; status=1; continue; fi
    if cmp -s <(normalise <"$f") <(normalise <"$new/$n"); then
      echo "same    $n"
    else
      echo "DIFFER  $n"; status=1
    fi
  done
  for f in "$new"/*; do [ -e "$old/$(basename "$f")" ] || echo "NEW     $(basename "$f")"; done
  [ $status = 0 ] && echo "golden-outputs: all files identical" || echo "golden-outputs: differences found"
  exit $status
  ;;
*) usage ;;
esac

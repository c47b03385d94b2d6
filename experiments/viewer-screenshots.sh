#!/usr/bin/env bash
# Issue 61's screenshots of the static viewer (`senat view`), written to
# results/viewer/: one page per game at 400 x 800 and 1280 x 800 in
# Debian's headless chromium (GAME-400.png, GAME-1280.png):
#   senat     the sample game annotated by `ab:depth=5`, at ply 16 (red's
#             blunder): evaluation bar, marks, graph, accuracy, legend
#   focus, focus4, debacle, dominoes, connect4
#             game 0 of a one-game batch (`--first greedy`, seed 1), at ply 30
# The pages themselves are left in the scratch folder (argument 1, default
# a fresh temporary folder). README.md there says which command and commit
# made them.
# Usage: experiments/viewer-screenshots.sh [SCRATCH] (BIN=path: another senat binary;
# default target/ci/senat, built first with the ci profile).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=results/viewer
mkdir -p "$out"
bin=${BIN:-}
if [ -z "$bin" ]; then
  cargo build --quiet --profile ci
  bin=target/ci/senat
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
scratch=${1:-$(mktemp -d)}
mkdir -p "$scratch"
browser=${SENAT_CHROMIUM:-chromium}

shot() { # page ply width name
  "$browser" --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
    --force-device-scale-factor=1 --window-size="$3,800" --virtual-time-budget=3000 \
    --user-data-dir="$scratch/profile" --screenshot="$root/$out/$4-$3.png" "file://$1#ply=$2" 2>/dev/null
}

cp crates/rules/data/sample-game.txt "$scratch/sample-game.txt"
# In the scratch folder, so that the pages' titles are the files' short names.
(
  cd "$scratch"
  "$bin" annotate sample-game.txt --agent ab:depth=5 --out senat.txt --force >/dev/null
  "$bin" view senat.txt --out senat.html --force >/dev/null
  for g in focus focus4 debacle dominoes connect4; do
    "$bin" selfplay --game "$g" --games 1 --seed 1 --first greedy --out "$g.csv" \
      --moves "$g-moves.csv" --summary "" --quiet --force >/dev/null
    "$bin" view "$g-moves.csv" --index 0 --out "$g.html" --force >/dev/null
  done
)
for w in 400 1280; do shot "$scratch/senat.html" 16 "$w" senat; done
for g in focus focus4 debacle dominoes connect4; do
  for w in 400 1280; do shot "$scratch/$g.html" 30 "$w" "$g"; done
done

commit=$(git rev-parse --short HEAD)
dirty=$(git diff --quiet HEAD -- crates src || echo " (with uncommitted changes)")
{
  echo "# The static viewer at 400 and 1280 px"
  echo
  echo "Made by \`experiments/viewer-screenshots.sh\` at commit $commit$dirty with"
  echo "$("$browser" --version 2>/dev/null | head -1), headless, 800 px high."
  echo
  echo "| game | page | 400 px | 1280 px |"
  echo "|---|---|---|---|"
  echo "| senat | the sample game annotated by \`ab:depth=5\`, ply 16 | [senat-400.png](senat-400.png) | [senat-1280.png](senat-1280.png) |"
  for g in focus focus4 debacle dominoes connect4; do
    echo "| $g | game 0 of \`selfplay --game $g --games 1 --seed 1 --first greedy\`, ply 30 | [$g-400.png]($g-400.png) | [$g-1280.png]($g-1280.png) |"
  done
  echo
  echo "tests/it/viewer.rs (\`every_page_fits_400_and_1280_px_with_its_evaluation\`) checks the"
  echo "same pages' widths in the browser: no page is wider than its window."
} >"$out/README.md"
ls -l "$out"

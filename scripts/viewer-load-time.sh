#!/usr/bin/env bash
# Measures the viewer page of a long Focus game: its size, and how long
# headless Chromium takes from navigation start to the end of the page's
# script (the last ply shown), plus the wall-clock time of the whole
# browser run next to that of an empty page (the browser's own start).
#
#   scripts/viewer-load-time.sh [BIN] [DIR]
#
# BIN defaults to target/ci/senat, DIR to a fresh temporary folder. The
# game is game 0 of a random Focus self-play batch of seed 1: random Focus
# games end at the 1,000-ply cap (a draw). The timed copy of the page has
# its CSP removed and one extra script that writes performance.now() into
# the body's data-script-ms; the page itself is measured unchanged.
set -euo pipefail
bin=${1:-target/ci/senat}
dir=${2:-$(mktemp -d)}
mkdir -p "$dir"
browser=${SENAT_CHROMIUM:-chromium}
flags=(--headless --no-sandbox --disable-gpu --no-first-run "--user-data-dir=$dir/profile")

"$bin" selfplay --game focus --games 1 --seed 1 --out "$dir/focus.csv" --moves "$dir/focus-moves.csv" \
  --summary "" --quiet --force
"$bin" view --game focus "$dir/focus-moves.csv" --index 0 --out "$dir/focus.html" --force
plies=$(tail -1 "$dir/focus-moves.csv" | cut -d, -f2 | wc -w)
echo "plies: $plies"
echo "page bytes: $(stat -c %s "$dir/focus.html")"

sed -e '/http-equiv="Content-Security-Policy"/d' \
  -e 's|</body>|<script>document.body.setAttribute("data-script-ms", String(performance.now()));</script>\n</body>|' \
  "$dir/focus.html" > "$dir/timed.html"
echo '<!DOCTYPE html><html><body>x</body></html>' > "$dir/empty.html"
for i in 1 2 3; do
  t0=$(date +%s.%N)
  ms=$("$browser" "${flags[@]}" --dump-dom "file://$dir/timed.html#ply=$plies" 2>/dev/null |
    grep -o 'data-script-ms="[0-9.]*"' | grep -o '[0-9.]*')
  t1=$(date +%s.%N)
  "$browser" "${flags[@]}" --dump-dom "file://$dir/empty.html" > /dev/null 2>&1
  t2=$(date +%s.%N)
  printf 'run %d: shown in %.0f ms after navigation start; browser run %.2f s (an empty page: %.2f s)\n' \
    "$i" "$ms" "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)"
done

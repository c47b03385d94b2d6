# Sourced by the experiment scripts (first-player.sh, first-give.sh,
# first-placement.sh) after `set -euo pipefail` and the cd to the
# repository root: `start_run NAME OUT DEFAULT_WORK` refuses an OUT that
# exists (no run is ever overwritten), sets `senat` (SENAT, default
# target/release/senat, built if missing), `work` (WORK, else DEFAULT_WORK)
# and `runs` (OUT/runs.txt), creates the folders and writes the header of
# runs.txt: the date, the commit (+dirty when src or crates differ from
# it), the cores and the binary's version.
start_run() {
  local name=$1
  out=$2
  if [ -e "$out" ]; then echo "$name: $out exists; give a new folder" >&2; exit 2; fi
  senat=${SENAT:-target/release/senat}
  [ -x "$senat" ] || cargo build --release --quiet
  work=${WORK:-$3}
  mkdir -p "$out" "$work"
  runs="$out/runs.txt"
  echo "# $name run, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src crates || echo '+dirty'), $(nproc) cores, $("$senat" --version)" >"$runs"
}

# The agent spec of a report tier. Every tier is a named agent or a spec,
# except `mcts-eval`: the report's strong tier before the value network
# (MCTS on the learned features alone), which is what the named `strong`
# meant until commit 148bf25. Labels name files; specs play.
tier_spec() {
  case $1 in
    mcts-eval) echo 'mcts:playouts=1000,rollout=eval,prior=1000,temp=0.5' ;;
    *) echo "$1" ;;
  esac
}

# Whether a tier is slow (MCTS): it gets STRONG_GAMES, not GAMES.
slow_tier() {
  case $1 in
    mcts-eval | strong | top | mcts*) return 0 ;;
    *) return 1 ;;
  esac
}

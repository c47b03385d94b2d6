#!/usr/bin/env bash
# Run one large self-play batch as a Slurm job array: N shards (senat selfplay
# --shard K/N), then one merge job (senat merge) that runs after all shards
# succeed and writes OUTDIR/games.csv and OUTDIR/summary.csv. The union of
# the shards is byte-identical to the unsharded run of the same batch.
#
# Usage (on a login node, from anywhere):
#   scripts/slurm-selfplay.sh -n SHARDS -g GAMES [-s SEED] [-o OUTDIR] [-c CPUS]
#                             [-b SENAT_BINARY] [-- extra selfplay arguments]
# e.g.
#   scripts/slurm-selfplay.sh -n 64 -g 100000000 -o /scratch/senat/run1 -- --red greedy --blue random
# (each extra argument is passed whole: `-- --red 'heuristic:file=/w dir/w.txt'`)
#
# It prints "<array job id> <merge job id>". Each shard runs with --resume,
# so a requeued or preempted shard (scontrol requeue) continues its file
# (OUTDIR/shard-K.csv.partial until the shard completes and renames it to
# shard-K.csv) instead of starting over; nothing is ever overwritten. The
# merge job proves from the files' batch identity lines that the shards are
# exactly one complete batch, or fails with the reason. Shard logs:
# OUTDIR/slurm-<job>_<task>.log, merge log: OUTDIR/slurm-merge-<job>.log.
# Extra sbatch options (partition, account, time) go in SBATCH_EXTRA,
# e.g. SBATCH_EXTRA="--partition=short --time=01:00:00".
#
# The same file is the job script: under Slurm, SENAT_MODE=shard or merge
# (set by the submission below) selects what it does.
set -euo pipefail

mode=${SENAT_MODE:-submit}

case "$mode" in
shard)
    k=${SLURM_ARRAY_TASK_ID:?not a job array task}
    n=${SENAT_SHARDS:?}
    # SENAT_ARGS holds the extra arguments quoted by `printf %q`: each comes
    # back whole, blanks included.
    eval "set -- ${SENAT_ARGS:-}"
    exec "$SENAT_BIN" selfplay --games "$SENAT_GAMES" --seed "$SENAT_SEED" --shard "$k/$n" \
        --threads "${SLURM_CPUS_PER_TASK:-1}" --out "$SENAT_OUT/shard-$k.csv" --summary "" \
        --resume --quiet "$@"
    ;;
merge)
    shopt -s nullglob
    shards=("$SENAT_OUT"/shard-*.csv)
    if [ "${#shards[@]}" -ne "$SENAT_SHARDS" ]; then
        echo "merge: expected $SENAT_SHARDS shard files in $SENAT_OUT, found ${#shards[@]}" >&2
        exit 1
    fi
    exec "$SENAT_BIN" merge --out "$SENAT_OUT/games.csv" --summary "$SENAT_OUT/summary.csv" "${shards[@]}"
    ;;
submit) ;;
*)
    echo "slurm-selfplay.sh: unknown SENAT_MODE=$mode" >&2
    exit 2
    ;;
esac

shards=8 games=1000000 seed=1 out=selfplay-slurm cpus=1 bin=""
usage() { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while getopts "n:g:s:o:c:b:h" opt; do
    case "$opt" in
    n) shards=$OPTARG ;;
    g) games=$OPTARG ;;
    s) seed=$OPTARG ;;
    o) out=$OPTARG ;;
    c) cpus=$OPTARG ;;
    b) bin=$OPTARG ;;
    h) usage 0 ;;
    *) usage 2 ;;
    esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift
extra=("$@")

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -z "$bin" ]; then
    bin="$repo/target/release/senat"
    [ -x "$bin" ] || (cd "$repo" && cargo build --release --quiet)
fi
bin=$(realpath "$bin")
mkdir -p "$out"
out=$(realpath "$out")
if [ -e "$out/games.csv" ]; then
    echo "slurm-selfplay.sh: $out/games.csv already exists; choose another -o" >&2
    exit 2
fi
# Reject bad arguments here (one game), not in N failed jobs.
check=$(mktemp -d)
if ! "$bin" selfplay --games 1 --shard "1/1" --out "$check/g.csv" --summary "" --quiet "${extra[@]}" >/dev/null; then
    rm -rf "$check"
    exit 2
fi
rm -rf "$check"
if ! [ "$shards" -ge 1 ] 2>/dev/null || ! [ "$games" -ge "$shards" ] 2>/dev/null; then
    echo "slurm-selfplay.sh: need 1 <= shards <= games (got -n $shards -g $games)" >&2
    exit 2
fi
quoted=""
[ "${#extra[@]}" -gt 0 ] && quoted=$(printf '%q ' "${extra[@]}")
export SENAT_BIN="$bin" SENAT_GAMES="$games" SENAT_SEED="$seed" SENAT_SHARDS="$shards" SENAT_OUT="$out" SENAT_ARGS="$quoted"

# shellcheck disable=SC2086
array=$(SENAT_MODE=shard sbatch --parsable ${SBATCH_EXTRA:-} --job-name=senat-shard --array="1-$shards" \
    --cpus-per-task="$cpus" --output="$out/slurm-%A_%a.log" --export=ALL,SENAT_MODE=shard "$0")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_EXTRA:-} --job-name=senat-merge --dependency="afterok:$array" \
    --output="$out/slurm-merge-%j.log" --export=ALL,SENAT_MODE=merge "$0")
merge=${merge%%;*}
echo "$array $merge"

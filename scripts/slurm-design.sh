#!/usr/bin/env bash
# Run one `senat design` on Slurm, each round of games as a job array: N
# shards (senat design --shard K/N, each writing OUTDIR/round-R/shard-K.csv),
# then one fold job (senat design --fold) that runs after all shards succeed
# (afterok), folds the round into OUTDIR/rounds.csv, decides, writes
# OUTDIR/design.csv, design.png and design.txt (the printed table) and, while
# the design needs another round, submits that round's array and fold job.
# The chain ends when every cell is decided or the game budget
# (--budget-games, default 100000) is spent; its verdicts, rounds.csv and
# design.csv are byte-identical to the unsharded run of the same arguments.
#
# Usage (on a login node, from anywhere):
#   scripts/slurm-design.sh -n SHARDS -o OUTDIR [-c CPUS] [-b SENAT_BINARY] -- DESIGN ARGUMENTS
# e.g.
#   scripts/slurm-design.sh -n 32 -c 4 -o /scratch/design1 -- --game senat \
#       --space 'closure=40..60:10,majority=4..6:1' --tiers learned --first 0.45..0.55 --budget-games 400000
# (the design's arguments without --out, --shard, --fold, --resume or
# --budget-hours; each is passed whole, blanks included)
#
# It first runs `senat design --fold` here once (it plays nothing: it checks
# the arguments, starts or resumes OUTDIR/rounds.csv, and says whether a
# round is to be played), then prints "<array job id> <fold job id>" of the
# first round it submits, or the finished table. Each round's jobs log to
# OUTDIR/slurm-<job>_<task>.log and OUTDIR/slurm-fold-<job>.log; the chain's
# state is OUTDIR itself, so after a failed job, running this script again
# with the same arguments continues (a shard already played is not played
# again; a partial round is completed). A fold that finds a shard missing
# fails with the shards' names. Extra sbatch options (partition, account,
# time) go in SBATCH_EXTRA, e.g. SBATCH_EXTRA="--partition=short".
#
# The same file is the job script: under Slurm, SENAT_MODE=shard or fold
# (set by the submission below) selects what it does.
set -euo pipefail

mode=${SENAT_MODE:-submit}

# Submits round's shards as an array and the fold job after them; prints
# "<array job id> <fold job id>".
submit_round() {
    local array fold
    # shellcheck disable=SC2086
    array=$(sbatch --parsable ${SBATCH_EXTRA:-} --job-name=senat-design-shard --array="1-$SENAT_SHARDS" \
        --cpus-per-task="$SENAT_CPUS" --output="$SENAT_OUT/slurm-%A_%a.log" --export=ALL,SENAT_MODE=shard \
        "$SENAT_SCRIPT")
    array=${array%%;*}
    # shellcheck disable=SC2086
    fold=$(sbatch --parsable ${SBATCH_EXTRA:-} --job-name=senat-design-fold --dependency="afterok:$array" \
        --kill-on-invalid-dep=yes --output="$SENAT_OUT/slurm-fold-%j.log" --export=ALL,SENAT_MODE=fold \
        "$SENAT_SCRIPT")
    fold=${fold%%;*}
    echo "$array $fold"
}

# Folds the next round (if its shards are there) and decides; the table in
# OUTDIR/design.txt. Returns 0 when another round is to be played, 1 when
# the design is finished; exits on an error.
fold_round() {
    local table="$SENAT_OUT/design.txt"
    # Called as an `if` condition, where `set -e` does not stop: a failed fold stops here.
    "$SENAT_BIN" design "$@" --out "$SENAT_OUT" --fold --threads 1 --quiet >"$table.partial" || {
        echo "slurm-design.sh: the fold failed (its message above); the chain stops" >&2
        exit 1
    }
    mv "$table.partial" "$table"
    grep -q '^# stopped: round [0-9]* is to be played' "$table"
}

case "$mode" in
shard)
    k=${SLURM_ARRAY_TASK_ID:?not a job array task}
    # SENAT_ARGS holds the design's arguments quoted by `printf %q`: each
    # comes back whole, blanks included.
    eval "set -- ${SENAT_ARGS:-}"
    exec "$SENAT_BIN" design "$@" --out "$SENAT_OUT" --shard "$k/$SENAT_SHARDS" \
        --threads "${SLURM_CPUS_PER_TASK:-1}" --quiet
    ;;
fold)
    eval "set -- ${SENAT_ARGS:-}"
    if fold_round "$@"; then
        echo "next round: $(submit_round)"
    else
        echo "design finished: $SENAT_OUT/design.txt"
    fi
    exit 0
    ;;
submit) ;;
*)
    echo "slurm-design.sh: unknown SENAT_MODE=$mode" >&2
    exit 2
    ;;
esac

shards=8 out=design-slurm cpus=1 bin=""
usage() { sed -n '2,32p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while getopts "n:o:c:b:h" opt; do
    case "$opt" in
    n) shards=$OPTARG ;;
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
for x in "${extra[@]}"; do
    case "$x" in
    --out | --out=* | --shard | --shard=* | --fold | --resume | --budget-hours | --budget-hours=*)
        echo "slurm-design.sh: give the design's arguments without $x (the script sets --out, --shard and --fold)" >&2
        exit 2
        ;;
    esac
done
if ! [ "$shards" -ge 1 ] 2>/dev/null || ! [ "$cpus" -ge 1 ] 2>/dev/null; then
    echo "slurm-design.sh: need -n SHARDS >= 1 and -c CPUS >= 1 (got -n $shards -c $cpus)" >&2
    exit 2
fi

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -z "$bin" ]; then
    bin="$repo/target/release/senat"
    [ -x "$bin" ] || (cd "$repo" && cargo build --release --quiet)
fi
bin=$(realpath "$bin")
mkdir -p "$out"
out=$(realpath "$out")
quoted=""
[ "${#extra[@]}" -gt 0 ] && quoted=$(printf '%q ' "${extra[@]}")
export SENAT_BIN="$bin" SENAT_SHARDS="$shards" SENAT_CPUS="$cpus" SENAT_OUT="$out" SENAT_ARGS="$quoted" \
    SENAT_SCRIPT="$(realpath "$0")"

# Reject bad arguments here (the fold plays nothing), not in N failed jobs.
if fold_round "${extra[@]}"; then
    submit_round
else
    cat "$out/design.txt"
fi

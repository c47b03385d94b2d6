#!/usr/bin/env bash
# Proves scripts/slurm-selfplay.sh on a real single-node Slurm on this
# machine: starts munged, slurmctld and slurmd by hand (no systemd) on
# 127.0.0.1 with a private configuration, submits a job array of shards and
# the merge job, and compares the merged games and summary files byte for
# byte with the unsharded run of the same batch; then runs a tiny design
# through scripts/slurm-design.sh (a job array and a fold job per round)
# and compares its round log, CSV and table with the unsharded design.
#
# Slurm comes from Debian's slurm-wlm and munge packages (installed with apt
# when missing and we are root). If they cannot be installed or the daemons
# do not come up within a timeout, the script says so clearly, says what was
# skipped, and exits 0; that is the only case where it exits 0 without the
# comparison. A mismatch or a failed job exits 1.
#
# Environment: SENAT_BIN (default: target/release/senat, built if missing),
# GAMES (default 20000), SHARDS (default 4), SEED (default 42),
# SLURM_TEST_TIMEOUT (seconds for apt, daemon start and the jobs; default 300).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
games=${GAMES:-20000}
shards=${SHARDS:-4}
seed=${SEED:-42}
timeout_s=${SLURM_TEST_TIMEOUT:-300}
work=$(mktemp -d /tmp/senat-slurm-test.XXXXXX)
pids=()

say() { echo "slurm-local-test: $*"; }
skip() {
    say "SKIPPED: Slurm is unavailable ($1)."
    say "skipped: the sharded Slurm job array, the merge job and the byte comparison with the unsharded run."
    exit 0
}
cleanup() {
    local p
    for p in "${pids[@]}"; do
        kill "$p" 2>/dev/null || true
    done
    for p in "${pids[@]}"; do
        wait "$p" 2>/dev/null || true
    done
    if [ "${KEEP:-0}" = 1 ]; then say "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

# ---- the binary -------------------------------------------------------------
bin=${SENAT_BIN:-$repo/target/release/senat}
if [ ! -x "$bin" ]; then
    (cd "$repo" && cargo build --release --quiet)
fi
bin=$(realpath "$bin")

# ---- Slurm and munge ----------------------------------------------------------
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
        skip "slurm-wlm/munge are not installed and cannot be installed (need root and apt-get)"
    fi
    say "installing slurm-wlm and munge with apt-get (timeout ${timeout_s}s)"
    if ! timeout "$timeout_s" bash -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge' \
        >"$work/apt.log" 2>&1; then
        tail -5 "$work/apt.log" | sed 's/^/  apt: /'
        skip "apt-get install slurm-wlm munge failed or timed out"
    fi
fi

host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ {print int($2 / 1024 * 0.8)}' /proc/meminfo)
mkdir -p "$work/state" "$work/spool" "$work/munge" "$work/out"

# munged: its own socket, key and state in $work, run as the munge user when
# we are root (munged refuses to run as root without --force).
key=/etc/munge/munge.key
if [ ! -r "$key" ] && [ "$(id -u)" = 0 ]; then
    skip "no munge key at $key"
fi
cp "$key" "$work/munge/munge.key" 2>/dev/null || skip "cannot read the munge key $key"
chmod 600 "$work/munge/munge.key"
sock="$work/munge/munge.socket"
munge_args=(--foreground --key-file="$work/munge/munge.key" --socket="$sock"
    --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" --seed-file="$work/munge/munged.seed")
if [ "$(id -u)" = 0 ] && id munge >/dev/null 2>&1; then
    chown -R munge:munge "$work/munge"
    chmod 711 "$work"
    setpriv --reuid=munge --regid=munge --init-groups munged "${munge_args[@]}" >"$work/munged.out" 2>&1 &
else
    munged "${munge_args[@]}" >"$work/munged.out" 2>&1 &
fi
pids+=($!)

port=$((20000 + RANDOM % 20000))
cat >"$work/slurm.conf" <<CONF
ClusterName=senattest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$(id -un)
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
# Schedule a finished job's dependants and a new array at once (the default
# batch_sched_delay waits up to 3 s; the design's chain of rounds waits on it).
SchedulerParameters=batch_sched_delay=0
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool/slurmd-%n
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
MinJobAge=300
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"

for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || skip "munged did not start (see its log: $(tail -2 "$work/munge/munged.log" 2>/dev/null))"

slurmctld -D -i >"$work/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D >"$work/slurmd.out" 2>&1 &
pids+=($!)

deadline=$((SECONDS + timeout_s))
up=0
while [ $SECONDS -lt $deadline ]; do
    state=$(sinfo -h -N -o '%T' 2>/dev/null | head -1 || true)
    case "$state" in
    idle* | mixed* | allocated*) up=1; break ;;
    esac
    # A daemon that died will not come up: stop waiting.
    kill -0 "${pids[1]}" 2>/dev/null && kill -0 "${pids[2]}" 2>/dev/null || break
    sleep 1
done
if [ $up = 0 ]; then
    tail -n 3 "$work"/slurmctld.* "$work"/slurmd.* 2>/dev/null | sed 's/^/  /' || true
    skip "slurmctld/slurmd did not come up within ${timeout_s}s (node state: ${state:-none})"
fi
say "Slurm is up: node $host, $cpus CPUs, port $port"

# ---- a design, each round a job array (scripts/slurm-design.sh) --------------
# Two rounds of two shards and a fold job each (the budget stops it), with
# an Elo-gap target: its rounds.csv, design.csv and table must be the
# unsharded run's. Its chain of jobs is submitted first and runs beside
# the self-play batch below (each round waits on Slurm's scheduling more
# than it computes), and is checked at the end.
design_args=(--game connect4 --space 'width=5|7' --tiers random --first 0.3..0.7
    --elo-gap 'greedy>random:100' --budget-games 100 --round 10 --seed "$seed")
design_ids=$("$repo/scripts/slurm-design.sh" -n 2 -o "$work/design" -b "$bin" -- "${design_args[@]}")
say "design: first round's jobs $design_ids"

# ---- the unsharded reference run -------------------------------------------
say "unsharded: $games games, seed $seed"
"$bin" selfplay --games "$games" --seed "$seed" --out "$work/unsharded.csv" --summary "$work/unsharded-summary.csv" --quiet

# ---- the job array ----------------------------------------------------------
say "submitting $shards shards and the merge job"
ids=$("$repo/scripts/slurm-selfplay.sh" -n "$shards" -g "$games" -s "$seed" -o "$work/out" -b "$bin")
merge_id=${ids##* }
say "jobs: $ids"
while [ $SECONDS -lt $deadline ]; do
    if [ -z "$(squeue -h -o '%i' 2>/dev/null)" ]; then
        break
    fi
    sleep 0.2
done
if [ -n "$(squeue -h -o '%i' 2>/dev/null)" ]; then
    squeue
    say "FAIL: the jobs (the batch's and the design's) did not finish within ${timeout_s}s"
    exit 1
fi
if [ ! -f "$work/out/games.csv" ]; then
    say "FAIL: the merge job wrote no games.csv; logs:"
    tail -n 5 "$work"/out/slurm-*.log 2>/dev/null | sed 's/^/  /' || true
    exit 1
fi

# ---- compare -----------------------------------------------------------------
status=0
for f in games.csv:unsharded.csv summary.csv:unsharded-summary.csv; do
    merged=$work/out/${f%%:*}
    ref=$work/${f##*:}
    if cmp -s "$merged" "$ref"; then
        say "OK: $merged is byte-identical to the unsharded $(basename "$ref") ($(wc -c <"$ref") bytes)"
    else
        say "FAIL: $merged differs from the unsharded $(basename "$ref")"
        cmp "$merged" "$ref" || true
        status=1
    fi
done
shard_files=$(find "$work/out" -name 'shard-*.csv' | wc -l)
say "$shard_files shard files, merge job $merge_id"

# ---- the design's comparison ------------------------------------------------
"$bin" design "${design_args[@]}" --out "$work/design-local" --threads 1 --quiet >"$work/design-local.txt"
rounds=$(grep -c '^#end' "$work/design-local/rounds.csv")
for f in rounds.csv design.csv; do
    if cmp -s "$work/design/$f" "$work/design-local/$f"; then
        say "OK: the Slurm design's $f is byte-identical to the unsharded run's ($rounds rounds)"
    else
        say "FAIL: the Slurm design's $f differs from the unsharded run's; logs:"
        tail -n 5 "$work"/design/slurm-*.log 2>/dev/null | sed 's/^/  /' || true
        status=1
    fi
done
# The tables differ in their first line only (the command, with its --out).
if cmp -s <(tail -n +2 "$work/design/design.txt" 2>/dev/null) <(tail -n +2 "$work/design-local.txt"); then
    say "OK: the Slurm design's table is the unsharded run's but for its first line (the command)"
else
    say "FAIL: the Slurm design's table differs from the unsharded run's"
    status=1
fi
exit $status

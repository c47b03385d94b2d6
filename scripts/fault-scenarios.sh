#!/usr/bin/env bash
# Replays the file and process faults of issue 8 end to end with the release
# binary: kill -9 at several points of selfplay and merge, path aliases,
# missing, duplicate and mixed shards, impossible rows, resumes of another
# batch, concurrent writers, unwritable and full outputs, and a failed commit
# (a full summary) that must keep every old output in every game; and (issue
# 56) for every game, `convert` of damaged games files and network files cut
# short or edited. Prints PASS or FAIL
# per scenario and exits 1 if any failed.
#
# Usage: scripts/fault-scenarios.sh
# Environment: SENAT_BIN (default target/release/senat, built if missing),
# KEEP=1 keeps the work directory.
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${SENAT_BIN:-$repo/target/release/senat}
if [ ! -x "$bin" ]; then
    (cd "$repo" && cargo build --release --quiet) || exit 1
fi
bin=$(realpath "$bin")
work=$(mktemp -d /tmp/senat-faults.XXXXXX)
bg=()
cleanup() {
    local p
    for p in "${bg[@]}"; do kill -9 "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
    if [ "${KEEP:-0}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
cd "$work" || exit 1

failed=0
passed=0
why=""
senat() { "$bin" "$@"; }
# refused CMD...: exit code 2 (within 60 s) and one `senat: error:` line matching $want.
refused() {
    local err rc
    err=$(timeout 60 "$bin" "$@" 2>&1 >/dev/null)
    rc=$?
    if [ "$rc" != 2 ]; then why="exit $rc instead of 2: $*"; return 1; fi
    if [ "$(printf '%s\n' "$err" | wc -l)" != 1 ] || [[ "$err" != "senat: error: "* ]]; then
        why="not one error line: $err"; return 1
    fi
    if [ -n "${want:-}" ] && [[ "$err" != *"$want"* ]]; then why="no \`$want\` in: $err"; return 1; fi
    return 0
}
same() { cmp -s "$1" "$2" || { why="$1 differs from $2"; return 1; }; }
absent() { local f; for f; do [ ! -e "$f" ] || { why="$f exists"; return 1; }; done; }
size() { stat -c %s "$1" 2>/dev/null || echo 0; }
# wait_size FILE N [PID]: until FILE holds more than N bytes; fails after
# 30 s, or as soon as process PID (the writer) has exited.
wait_size() {
    local deadline=$((SECONDS + 30))
    while [ "$(size "$1")" -le "$2" ]; do
        if [ $SECONDS -ge $deadline ]; then why="timed out waiting for $1"; return 1; fi
        if [ -n "${3:-}" ] && ! kill -0 "$3" 2>/dev/null; then why="the writer exited before $1 held $2 bytes"; return 1; fi
        sleep 0.001
    done
}
rows() { echo $(($(wc -l <"$1") - 2)); }
scenario() {
    local name=$1
    shift
    why=""
    local dir="$work/$name"
    mkdir -p "$dir"
    if (cd "$dir" && "$@"); then
        echo "PASS  $name"
        passed=$((passed + 1))
    else
        echo "FAIL  $name${why:+: $why}"
        failed=$((failed + 1))
    fi
}

# ---- fixtures: a 4-shard batch and its unsharded run ---------------------
batch=(--games 400 --seed 11 --quiet --summary "")
mkdir -p "$work/fixtures"
(
    cd "$work/fixtures" || exit 1
    senat selfplay "${batch[@]}" --out all.csv
    for k in 1 2 3 4; do senat selfplay "${batch[@]}" --shard "$k/4" --out "s$k.csv"; done
    senat selfplay "${batch[@]}" --shard 2/4 --red greedy --out other2.csv
    big=(--games 30000 --seed 5 --quiet --summary "" --threads 2)
    senat selfplay "${big[@]}" --out big.csv
    senat selfplay "${big[@]}" --shard 1/2 --out big1.csv
    senat selfplay "${big[@]}" --shard 2/2 --out big2.csv
) || { echo "FAIL  fixtures"; exit 1; }
fx="$work/fixtures"
shards=("$fx/s1.csv" "$fx/s2.csv" "$fx/s3.csv" "$fx/s4.csv")

# ---- selfplay killed at several points ------------------------------------
big=(--games 30000 --seed 5 --quiet --summary "" --threads 2 --out k.csv)
kill_early() {
    "$bin" selfplay "${big[@]}" & local p=$!
    bg+=("$p")
    wait_size k.csv.partial -1 "$p" || return 1
    kill -9 "$p"; wait "$p" 2>/dev/null
    absent k.csv || return 1
    senat selfplay "${big[@]}" --resume && same k.csv "$fx/big.csv" && absent k.csv.partial
}
kill_mid_rows() {
    "$bin" selfplay "${big[@]}" & local p=$!
    bg+=("$p")
    wait_size k.csv.partial 100000 "$p" || return 1
    kill -9 "$p"; wait "$p" 2>/dev/null
    absent k.csv || return 1
    local n; n=$(rows k.csv.partial)
    [ "$n" -gt 0 ] && [ "$n" -lt 30000 ] || { why="killed with $n rows of 30000"; return 1; }
    senat selfplay "${big[@]}" --resume && same k.csv "$fx/big.csv"
}
kill_during_resume() {
    "$bin" selfplay "${big[@]}" & local p=$!
    bg+=("$p")
    wait_size k.csv.partial 100000 "$p" || return 1
    kill -9 "$p"; wait "$p" 2>/dev/null
    local before; before=$(size k.csv.partial)
    "$bin" selfplay "${big[@]}" --resume & p=$!
    bg+=("$p")
    wait_size k.csv.partial "$before" "$p" || return 1
    kill -9 "$p"; wait "$p" 2>/dev/null
    absent k.csv || return 1
    senat selfplay "${big[@]}" --resume && same k.csv "$fx/big.csv"
}
kill_with_moves() {
    local m=(--games 3000 --seed 5 --quiet --summary "" --threads 2 --out g.csv --moves m.csv)
    senat selfplay --games 3000 --seed 5 --quiet --summary "" --threads 2 --out ref.csv --moves ref-m.csv --force
    "$bin" selfplay "${m[@]}" & local p=$!
    bg+=("$p")
    wait_size m.csv.partial 100000 "$p" || return 1
    kill -9 "$p"; wait "$p" 2>/dev/null
    absent g.csv m.csv || return 1
    senat selfplay "${m[@]}" --resume && same g.csv ref.csv && same m.csv ref-m.csv
}
scenario selfplay-kill-at-start kill_early
scenario selfplay-kill-mid-run kill_mid_rows
scenario selfplay-kill-during-resume kill_during_resume
scenario selfplay-kill-with-moves-file kill_with_moves

# ---- merge killed, with and without an old output -------------------------
kill_merge() {
    [ "$1" = old ] && echo old >m.csv
    "$bin" merge --force --quiet --out m.csv --summary ms.csv "$fx/big1.csv" "$fx/big2.csv" & local p=$!
    bg+=("$p")
    wait_size m.csv.partial 0 "$p" || return 1
    kill -9 "$p"; wait "$p" 2>/dev/null
    [ "$(size m.csv.partial)" -lt "$(size "$fx/big.csv")" ] || { why="the merge had finished"; return 1; }
    if [ "$1" = old ]; then [ "$(cat m.csv)" = old ] || { why="m.csv changed"; return 1; }; else absent m.csv || return 1; fi
    absent ms.csv || return 1
    senat merge --force --quiet --out m.csv --summary ms.csv "$fx/big1.csv" "$fx/big2.csv" && same m.csv "$fx/big.csv"
}
scenario merge-kill-keeps-old-file kill_merge old
scenario merge-kill-leaves-no-file kill_merge none

# ---- missing, duplicate and mixed shards -----------------------------------
merge_ok() { senat merge --quiet --out m.csv --summary "" "${shards[3]}" "${shards[0]}" "${shards[2]}" "${shards[1]}" && same m.csv "$fx/all.csv"; }
missing_first() { want="missing shard 1 of 4" refused merge --out m.csv "${shards[@]:1}" && absent m.csv summary.csv m.csv.partial; }
missing_last() { want="missing shard 4 of 4" refused merge --out m.csv "${shards[@]:0:3}" && absent m.csv summary.csv; }
duplicate() {
    cp "${shards[1]}" dup.csv
    echo old >m.csv
    want="given twice" refused merge --force --out m.csv "${shards[@]}" dup.csv || return 1
    [ "$(cat m.csv)" = old ] && absent m.csv.partial summary.csv
}
mixed() { want="not shards of one batch" refused merge --out m.csv "${shards[0]}" "$fx/other2.csv" "${shards[2]}" "${shards[3]}" && absent m.csv; }
impossible_row() {
    cp "${shards[@]}" .
    # Row 3 of shard 2: red's pile 9 (at most 5).
    awk -F, 'BEGIN { OFS = "," } NR == 5 { $10 = 9 } { print }' s2.csv >bad.csv && mv bad.csv s2.csv
    want="s2.csv:5: red_pile" refused merge --out m.csv s1.csv s2.csv s3.csv s4.csv && absent m.csv
}
old_file() {
    tail -n +2 "${shards[0]}" >old1.csv
    want="no batch identity line" refused merge --out m.csv old1.csv "${shards[@]:1}"
}
scenario merge-shards-in-any-order merge_ok
scenario merge-missing-first-shard missing_first
scenario merge-missing-last-shard missing_last
scenario merge-duplicate-shard duplicate
scenario merge-mixed-policies mixed
scenario merge-impossible-row impossible_row
scenario merge-file-without-identity old_file

# ---- aliases ---------------------------------------------------------------
alias_merge_out() {
    cp "$fx/all.csv" keep.csv
    want="name the same file" refused merge --out ./keep.csv keep.csv --force && same keep.csv "$fx/all.csv"
}
alias_merge_summary() {
    cp "${shards[@]}" .
    want="name the same file" refused merge --summary s1.csv s1.csv s2.csv s3.csv s4.csv --out m.csv --force &&
        same s1.csv "${shards[0]}"
}
alias_games_moves() { want="name the same file" refused selfplay --games 10 --out a.csv --moves ./a.csv --force && absent a.csv; }
alias_symlink() {
    cp "${shards[0]}" s1.csv
    ln -s s1.csv link.csv
    want="name the same file" refused merge --out link.csv --force s1.csv "${shards[@]:1}" && same s1.csv "${shards[0]}"
}
scenario alias-merge-out-is-input alias_merge_out
scenario alias-merge-summary-is-input alias_merge_summary
scenario alias-games-and-moves alias_games_moves
scenario alias-symlink-out-is-input alias_symlink

# ---- concurrent writers ----------------------------------------------------
concurrent() {
    "$bin" selfplay --games 100000000 --threads 1 --quiet --summary "" --out c.csv --force & local p=$!
    bg+=("$p")
    wait_size c.csv.partial 0 "$p" || return 1 # its identity line is written once it holds the lock
    want="being written by another running senat" refused selfplay --games 10 --summary "" --out c.csv --force
    local rc=$?
    # Without --force too: the .partial is the running one's, not a leftover (issue 56).
    want="being written by another running senat" refused selfplay --games 10 --summary "" --out c.csv || rc=1
    kill -9 "$p"; wait "$p" 2>/dev/null
    [ $rc = 0 ] && absent c.csv
}
scenario concurrent-writers-refused concurrent

# ---- resume of another batch ----------------------------------------------
resume_games() {
    cp "$fx/all.csv" g.csv
    want="games=400" refused selfplay --games 50 --seed 11 --summary "" --out g.csv --resume && same g.csv "$fx/all.csv"
}
resume_weights() {
    echo pile=12 >w.txt
    senat selfplay --games 60 --red heuristic:file=w.txt --summary "" --out h.csv --quiet || return 1
    head -c 20000 h.csv >h2.csv && mv h2.csv h.csv
    echo pile=13 >w.txt
    want="red_weights" refused selfplay --games 60 --red heuristic:file=w.txt --summary "" --out h.csv --resume
}
resume_new_out() {
    senat selfplay --games 20 --quiet --summary "" --out a.csv --moves am.csv || return 1
    cp am.csv am.ref
    want="belongs to another run" refused selfplay --games 20 --summary "" --out b.csv --moves am.csv --resume &&
        same am.csv am.ref && absent b.csv
}
scenario resume-other-games-count resume_games
scenario resume-changed-weights-file resume_weights
scenario resume-new-out-keeps-moves-file resume_new_out

# ---- outputs checked before play; full disk ---------------------------------
unwritable_summary() {
    local t0=$SECONDS
    want="cannot create no/dir/s.csv" refused selfplay --games 100000000 --out g.csv --summary no/dir/s.csv || return 1
    [ $((SECONDS - t0)) -lt 10 ] || { why="the error came after playing"; return 1; }
    absent g.csv g.csv.partial
}
arena_full() { want="cannot write /dev/full" refused arena random greedy --games 2 --summary /dev/full; }
scenario unwritable-summary-before-play unwritable_summary
scenario arena-summary-dev-full arena_full

# ---- a failed commit leaves every old output (issue 56) ---------------------
# failed_commit GAME: selfplay, merge and arena with a full --summary keep
# the old games and moves files.
failed_commit() {
    local g=$1 full=(--summary /dev/full --force --quiet)
    kept() { [ "$(cat g.csv)" = old ] && [ "$(cat m.csv)" = oldm ] || { why="$1 replaced an output"; return 1; }; }
    senat selfplay --game "$g" --games 4 --seed 3 --quiet --summary "" --shard 1/2 --out s1.csv >/dev/null || return 1
    senat selfplay --game "$g" --games 4 --seed 3 --quiet --summary "" --shard 2/2 --out s2.csv >/dev/null || return 1
    echo old >g.csv; echo oldm >m.csv
    want="cannot write /dev/full" refused selfplay --game "$g" --games 4 --out g.csv --moves m.csv "${full[@]}" &&
        kept selfplay || return 1
    want="cannot write /dev/full" refused merge --game "$g" --out g.csv "${full[@]}" s1.csv s2.csv && kept merge || return 1
    want="cannot write /dev/full" refused arena --game "$g" random greedy --games 2 --out g.csv --moves m.csv \
        "${full[@]}" && kept arena
}
for g in senat focus focus4 debacle dominoes; do scenario "failed-commit-keeps-old-files-$g" failed_commit "$g"; done

# ---- convert and weights files, every game (issue 56) ----------------------
games_all=(senat focus focus4 debacle dominoes)
# convert_checked GAME: a games file cut mid-row, one without its header and
# one with an impossible row are refused (nothing written); the whole file converts.
convert_checked() {
    senat selfplay --game "$1" --games 6 --seed 4 --quiet --summary "" --out g.csv >/dev/null || { why="selfplay"; return 1; }
    head -c $(($(size g.csv) - 12)) g.csv >cut.csv
    sed 2d g.csv >headerless.csv
    sed '3s/^0,/1,/' g.csv >impossible.csv
    want="ends with an incomplete row" refused convert cut.csv --out x.parquet && absent x.parquet || return 1
    want="header" refused convert headerless.csv --out x.parquet && absent x.parquet || return 1
    refused convert impossible.csv --out x.parquet && absent x.parquet || return 1
    senat convert g.csv --out g.parquet --quiet >/dev/null || { why="the whole file does not convert"; return 1; }
}
# truncated_network GAME FILE AGENT: the game's network file cut short (with
# its check line, and without), a row repeated and a number cut are refused
# with the file and the line.
truncated_network() {
    local game=$1 file=$repo/crates/lab/data/$2 spec=$3 n
    n=$(($(wc -l <"$file") - 25))
    head -n "$n" "$file" >cut.txt
    grep -v '^check=' "$file" | head -n "$n" >bare.txt
    awk '{print} /^net.w1.3=/{print}' "$file" >twice.txt
    sed -E 's/^(net.w1.3=[^ ]{4,})[^ ]{3} /\1 /' "$file" >number.txt
    cmp -s number.txt "$file" && { why="no number cut"; return 1; }
    local f
    for f in cut bare twice number; do
        want="$f.txt: line " refused bestmove --game "$game" --agent "${spec}file=$f.txt" start || return 1
    done
    want="cut.txt: line $n: " refused bestmove --game "$game" --agent "${spec}file=cut.txt" start
}
for g in "${games_all[@]}"; do scenario "convert-checks-$g" convert_checked "$g"; done
scenario truncated-network-senat truncated_network senat net-senat-draft.txt "learned:"
scenario truncated-network-focus truncated_network focus net-focus.txt "ab:depth=1,"
scenario truncated-network-focus4 truncated_network focus4 net-focus.txt "ab:depth=1,"
scenario truncated-network-debacle truncated_network debacle net-debacle.txt "ab:depth=1,"
scenario truncated-network-dominoes truncated_network dominoes net-dominoes.txt "pimc:playouts=20,leaf=net,"

echo "fault scenarios: $passed passed, $failed failed"
[ "$failed" = 0 ]

#!/usr/bin/env bash
# The long fuzz run: every target of crates/fuzz (or those named), each for
# FUZZ_SECONDS seconds (default 60) or FUZZ_CASES cases, whichever comes
# first, built in release with debug assertions and overflow checks on (in
# its own target folder, target/fuzz, so the release build is untouched).
# Prints cases run and crashes per target; crashing inputs are saved under
# FUZZ_CRASHES (default fuzz-crashes/<target>/). Exits 1 if anything crashed.
#
#   scripts/fuzz.sh                          # all targets, 60 s each
#   FUZZ_SECONDS=600 scripts/fuzz.sh spn legal
#   FUZZ_CASES=1000000 FUZZ_SECONDS=3600 scripts/fuzz.sh shard
#   FUZZ_SEED=7 scripts/fuzz.sh              # another sequence of cases
#
# A saved crash is replayed with
#   target/fuzz/release/senat-fuzz --replay TARGET FILE
# and, once fixed, copied to crates/fuzz/regressions/TARGET/ (replayed by
# `cargo test -p senat-fuzz`).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

seconds=${FUZZ_SECONDS:-60}
cases=${FUZZ_CASES:-18446744073709551615}
seed=${FUZZ_SEED:-$(date +%s)}
crashes=${FUZZ_CRASHES:-fuzz-crashes}

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target/fuzz}
export CARGO_PROFILE_RELEASE_DEBUG_ASSERTIONS=true
export CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=true
export CARGO_PROFILE_RELEASE_LTO=false
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16

cargo build --release -p senat-fuzz
echo "== fuzzing: seed $seed, ${seconds} s or $cases cases per target"
nice "$CARGO_TARGET_DIR/release/senat-fuzz" "$@" --seconds "$seconds" --cases "$cases" --seed "$seed" --crashes "$crashes"

#!/usr/bin/env bash
# Refits the logistic scale of alpha-beta's evaluation (senat_lab::winprob::HAND_SCALE):
# `senat tune` fits, besides the learned model, the best single scale of
# SenatEval against self-play results and prints it per round as
# `alpha-beta scale N`; the constant is round 3's. About 15 s on 2 cores.
set -euo pipefail
bin=${1:-target/release/senat}
tmp=$(mktemp -d)
"$bin" tune --games 20000 --rounds 3 --seed 1 --out "$tmp/w.txt" --force | grep -E '^ +[0-9] |alpha-beta scale'
rm -rf "$tmp"

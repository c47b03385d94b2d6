#!/usr/bin/env bash
# Runs every shell command of docs/tutorial.md, in order, as a reader would
# (its `cargo install` line left out: the binary is SENAT, by default
# target/release/senat, put first on the PATH as `senat`). It stops at the
# first command that fails. The tutorial writes to /tmp/run1 and
# /tmp/my-report; they must not exist (nothing is overwritten).
#
#   scripts/check-tutorial.sh            # about two minutes on 2 cores
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
senat=${SENAT:-target/release/senat}
[ -x "$senat" ] || { echo "check-tutorial: no binary at $senat (cargo build --release, or set SENAT)" >&2; exit 2; }
for d in /tmp/run1 /tmp/my-report; do
  [ -e "$d" ] && { echo "check-tutorial: $d exists; remove it first" >&2; exit 2; }
done
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
ln -s "$(realpath "$senat")" "$bin/senat"
script=$(mktemp)
python3 - "$root/docs/tutorial.md" >"$script" <<'PY'
import re, shlex, sys
text = open(sys.argv[1], encoding="utf-8").read()
for block in re.findall(r"```sh\n(.*?)```", text, re.S):
    for line in block.splitlines():
        if not line.strip() or line.startswith("cargo install"):
            continue
        print("echo " + shlex.quote("+ " + line))
        print(line)
PY
(cd "$root" && PATH="$bin:$PATH" SENAT="$(realpath "$senat")" bash -eu "$script")
rm -f "$script"
echo "check-tutorial: every command of docs/tutorial.md ran"

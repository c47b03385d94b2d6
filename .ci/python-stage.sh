#!/usr/bin/env bash
# The Python package's CI stage, run by `.ci/run` (and runnable alone, from
# the repository root, once the workspace's ci build is there): the wheel
# built once from the test stage's library, installed in the stage's
# virtual environment, its tests run against the installed package, and
# the tour notebook run headless.
#
# The wheel: crates/python/make_wheel.py packs target/ci/libsenat_py.so
# and crates/python/python/senat into senat-*.whl without compiling
# (`maturin build --profile ci` would build the package alone, whose
# dependencies resolve with other features than the workspace's test
# build, and compile the lab a second time; make_wheel.py says more).
# `pip install ./crates/python` builds the same package with maturin
# (crates/python/README.md).
#
# The virtual environment lives under target/ and is kept between runs:
# a fresh one per run, with pytest, pandas, pyarrow, open_spiel,
# pettingzoo, numpy, nbclient, ipykernel and matplotlib from PyPI, took
# 64 s on the development machine (2 cores, shared), over the stage's
# budget. The wheel itself is installed afresh every run
# (--force-reinstall), and the tests import it from the venv's
# site-packages, not from the source tree.
#
# If Python (with venv and pip) cannot be had, the package's tests are
# skipped with one loud line (and only then); a missing pandas or pyarrow
# skips only the pandas read-back of the CSV or Parquet files, loudly, in
# the tests, and a missing polars leaves the polars snippets of
# docs/formats.md compiled but not run; open_spiel (PyPI) is OpenSpiel
# itself, for the dominoes rules=openspiel comparison
# (tests/test_openspiel_dominoes.py) and the OpenSpiel games
# (tests/test_openspiel_games.py), skipped loudly without it; pettingzoo
# (PyPI) for the AEC environments (tests/test_pettingzoo_envs.py), the
# same; without nbclient, ipykernel or matplotlib the notebook is not run
# (loudly).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mkdir -p target

py_venv=target/pyvenv
py_log=$(mktemp)
py_ready=0
if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
  (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y python3 python3-venv python3-pip) >"$py_log" 2>&1 || true
fi
if { [ -x "$py_venv/bin/python" ] || python3 -m venv "$py_venv"; } >>"$py_log" 2>&1 \
  && "$py_venv/bin/python" -m pip install -q pytest >>"$py_log" 2>&1; then
  py_ready=1
  # One pip run for all (one resolution, seconds less; --no-compile: no
  # bytecode for the whole of pandas, pyarrow, matplotlib… at install,
  # only for what the tests import, when they import it); only if it fails
  # is each package tried alone, so that a missing one is skipped loudly.
  if ! "$py_venv/bin/python" -m pip install -q --no-compile numpy pandas pyarrow polars open_spiel pettingzoo nbclient ipykernel matplotlib >>"$py_log" 2>&1; then
  "$py_venv/bin/python" -m pip install -q numpy >>"$py_log" 2>&1 || echo "!! numpy could not be installed: the package's arrays (VecEnv) cannot load"
  "$py_venv/bin/python" -m pip install -q pandas >>"$py_log" 2>&1 || echo "!! pandas could not be installed: the tests skip its read-back (loudly)"
  "$py_venv/bin/python" -m pip install -q pyarrow >>"$py_log" 2>&1 || echo "!! pyarrow could not be installed: the tests skip the Parquet read-back (loudly)"
  "$py_venv/bin/python" -m pip install -q polars >>"$py_log" 2>&1 || echo "!! polars could not be installed: the polars snippets of docs/formats.md are only compiled, not run (loudly)"
  "$py_venv/bin/python" -m pip install -q open_spiel >>"$py_log" 2>&1 || echo "!! open_spiel could not be installed: rules=openspiel is NOT compared with OpenSpiel's python_block_dominoes and the OpenSpiel games are NOT checked (the tests are skipped, loudly)"
  "$py_venv/bin/python" -m pip install -q pettingzoo >>"$py_log" 2>&1 || echo "!! pettingzoo could not be installed: the PettingZoo environments are NOT checked (the tests are skipped, loudly)"
  "$py_venv/bin/python" -m pip install -q nbclient ipykernel matplotlib >>"$py_log" 2>&1 || echo "!! nbclient, ipykernel or matplotlib could not be installed: the tour notebook is NOT run"
  fi
fi
if [ "${1:-}" = "--prepare" ]; then
  # Only the virtual environment and its packages (`.ci/run` starts this
  # in the background while the test stage compiles); the run proper
  # finds them installed.
  [ "$py_ready" -eq 1 ] && echo "python: target/pyvenv prepared" || tail -5 "$py_log"
  rm -f "$py_log"
  exit 0
fi
if [ "$py_ready" -eq 1 ]; then
  "$py_venv/bin/python" --version
  # `cargo test` builds no cdylib of a crate without tests; building the
  # targets `cargo test` builds (libraries, binaries, tests, examples)
  # gives the test build's features, so only the library is compiled
  # here, not the lab again. The benches are left to `cargo clippy
  # --all-targets` and `cargo bench` (seven optimised links, about half
  # a minute on 2 cores, kept CI over its 10 minutes). It runs before the
  # venv's VIRTUAL_ENV and PATH are set: pyo3's build script reruns when
  # the interpreter it finds changes, and pyo3, numpy and the package were
  # compiled again (20 s on 2 cores). The library is abi3: one build for
  # every Python from 3.9.
  cargo build --profile ci --lib --bins --tests --examples --quiet
  (
    export VIRTUAL_ENV="$PWD/$py_venv" PATH="$PWD/$py_venv/bin:$PATH"
    py_whl=target/pywheel
    rm -rf "$py_whl"
    wheel=$(python crates/python/make_wheel.py target/ci/libsenat_py.so "$py_whl")
    python -m pip install -q --force-reinstall --no-deps "$wheel"
    echo "installed $(basename "$wheel"): $(python -c 'import senat; print(senat.__file__)')"
    SENAT_BIN=target/ci/senat python -m pytest -q crates/python/tests
    if python -c 'import nbclient, ipykernel, matplotlib' >/dev/null 2>&1; then
      # Run headless into a copy: the committed notebook keeps its outputs.
      nb_out=$(mktemp -d)
      (cd "$nb_out" && python -c '
import sys, nbclient, nbformat
nb = nbformat.read(sys.argv[1], as_version=4)
nbclient.NotebookClient(nb, timeout=300, kernel_name="python3").execute()
print("notebook", sys.argv[1], "ran:", sum(c.cell_type == "code" for c in nb.cells), "code cells")
' "$OLDPWD/crates/python/examples/tour.ipynb" 2> >(grep -v "running over TCP without encryption" >&2))
      rm -rf "$nb_out"
    else
      echo "!!!!!!!! NOT RUN: crates/python/examples/tour.ipynb (nbclient, ipykernel or matplotlib missing) !!!!!!!!"
    fi
  )
else
  tail -5 "$py_log" || true
  echo "!!!!!!!! SKIPPED: python (venv, pip) could not be installed; the senat Python package is NOT tested !!!!!!!!"
fi
rm -f "$py_log"

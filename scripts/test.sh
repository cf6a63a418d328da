#!/usr/bin/env bash
# Runs every check of the project: format, lint, all tests, bench compilation,
# and the core tests under AddressSanitizer and valgrind. This is the README's
# test command and what CI (.ci/run) calls.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n=== %s\n' "$*"; }

step "python environment (.venv: numpy for the .npy interop tests)"
if [[ ! -x .venv/bin/python ]]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check numpy
export ANYPROC_PYTHON="$PWD/.venv/bin/python"

step "format"
cargo fmt --all -- --check

step "clippy"
cargo clippy --all-targets --all-features -- -D warnings

step "tests (all features)"
cargo test --all-features

step "benches compile"
cargo bench --no-run

step "sanitizers"
scripts/sanitize.sh

printf '\nall checks passed\n'

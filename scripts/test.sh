#!/usr/bin/env bash
# Runs every check of the project: format, lint, all tests, bench compilation,
# and the core tests under AddressSanitizer and valgrind. This is the README's
# test command and what CI (.ci/run) calls.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n=== %s\n' "$*"; }

step "python environment (.venv: numpy for the interop tests; maturin, pytest and the reference tokenizers for the package)"
if [[ ! -x .venv/bin/python ]]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check numpy maturin pytest tokenizers tiktoken
export ANYPROC_PYTHON="$PWD/.venv/bin/python"

step "format"
cargo fmt --all -- --check

step "clippy"
cargo clippy --all-targets --all-features -- -D warnings
cargo clippy -p anyproc-python --all-targets -- -D warnings
cargo clippy -p anyproc-abi -p anyproc-plugin-example --all-targets -- -D warnings

step "tests (all features)"
cargo test --all-features

step "python package (built into .venv with maturin; pytest python/tests)"
VIRTUAL_ENV="$PWD/.venv" PATH="$PWD/.venv/bin:$PATH" .venv/bin/maturin develop --release -q -m python/Cargo.toml
cargo build --release -q --bin anyproc
ANYPROC_CLI="$PWD/target/release/anyproc" .venv/bin/python -m pytest -q python/tests

step "benches compile"
cargo bench --no-run

step "sanitizers"
scripts/sanitize.sh

printf '\nall checks passed\n'

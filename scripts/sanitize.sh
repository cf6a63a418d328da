#!/usr/bin/env bash
# Runs the core tests under AddressSanitizer and valgrind: the tests of the
# layers that hold unsafe code (any/, object/, func/, ndarray/, capi/; long_text grows heap
# strings in place through the interpreter), and the
# C ABI tests that load C and Rust plugins and run a C program through the table. The op parity
# suites are safe Rust over these layers and too slow under valgrind.
#   scripts/sanitize.sh          both
#   scripts/sanitize.sh asan     AddressSanitizer only
#   scripts/sanitize.sh valgrind valgrind only
set -euo pipefail
cd "$(dirname "$0")/.."
which="${1:-all}"
target=x86_64-unknown-linux-gnu
core_tests=(--lib --test smoke_core --test zero_alloc --test objects --test bad_input --test proptest_values
    --test object_census --test dlpack_roundtrip --test collate --test npy_numpy --test interp_cpython
    --test pipeline_errors --test direct_call --test deep_nesting --test long_text --test capi_abi --test capi_plugins --test capi_layout
    --test mutated_scripts --test sets)
# Property tests and mutated scripts run fewer cases under the (slow) checkers; the plain run
# covers the full count.
export PROPTEST_CASES="${PROPTEST_CASES:-32}"
export ANYPROC_MUTANTS="${ANYPROC_MUTANTS:-8}"
# The NumPy interop tests need an interpreter with numpy; scripts/test.sh makes .venv.
if [[ -z "${ANYPROC_PYTHON:-}" && -x .venv/bin/python ]]; then
    export ANYPROC_PYTHON="$PWD/.venv/bin/python"
fi

if [[ "$which" == all || "$which" == asan ]]; then
    printf '\n--- AddressSanitizer\n'
    # Stable toolchain: RUSTC_BOOTSTRAP unlocks -Z; --target keeps build scripts unsanitized.
    RUSTC_BOOTSTRAP=1 RUSTFLAGS="-Zsanitizer=address" ASAN_OPTIONS="detect_leaks=1" \
        CARGO_TARGET_DIR=target/asan \
        cargo test --all-features --target "$target" "${core_tests[@]}"
fi

if [[ "$which" == all || "$which" == valgrind ]]; then
    printf '\n--- valgrind\n'
    # The runner applies to the host triple too, so this reuses the plain debug build.
    # "Possibly lost" records are the global registry's statics, alive until exit; definite
    # leaks still fail the run, and hiding the others keeps the log readable.
    CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite --show-possibly-lost=no" \
        cargo test --all-features "${core_tests[@]}"
fi

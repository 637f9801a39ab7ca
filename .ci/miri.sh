#!/usr/bin/env bash
# tests/miri (the decode kernels on small blocks, the compressors' unchecked reads) under Miri:
# undefined behaviour in the raw-pointer copies: out-of-bounds or uninitialised reads and writes,
# aliasing, provenance, alignment.
#
# The tests are a package of their own (`lz4-simd-miri`) so that Miri builds only lz4-simd and
# them, not lz4-simd's dev-dependencies. The library's unit tests cover safe code and are not run
# here (building the dev-dependencies under Miri took minutes).
#
# Under Miri, CPU feature detection reports only the features enabled at compile time, so the
# tests run twice: as built (scalar and SSE2 on x86_64), and with the lz4-simd crate built with
# `-C target-feature=+avx2` (a per-package rustflag) to reach the AVX2 kernel. The second pass
# runs tests/miri/tests/kernels.rs comparing only AVX2 with scalar there
# (LZ4_SIMD_MIRI_ONLY_KERNEL), and exact_room.rs; the first pass runs compress_edges.rs and
# kernels.rs. The compressors' tests run the same code with or without AVX2, so each runs once,
# in the pass that balances the two (alone on 2 cores, both passes end at about 177 s). Arguments
# go to both `cargo miri test` runs (e.g. `-- --report-time -Zunstable-options` for per-test
# times).
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TERM_COLOR=never
export CARGO_TARGET_DIR="${MIRI_TARGET_DIR:-${CARGO_TARGET_DIR:-target}/miri-ci}"
export MIRIFLAGS="${MIRIFLAGS:--Zmiri-strict-provenance -Zmiri-symbolic-alignment-check}"
started=$SECONDS
step() { printf '\n=== miri: %s (%ss)\n' "$*" "$((SECONDS - started))"; }

step "install"
if ! rustup toolchain list | grep -q '^nightly'; then
    rustup toolchain install nightly --profile minimal
fi
rustup component add miri rust-src --toolchain nightly
cargo +nightly miri --version
cargo +nightly miri setup

# The two passes run at the same time (Miri interprets on one core; CI machines have two), each
# in its own target directory; the second pass's output is printed after the first's.
step "tests/miri, two passes in parallel (MIRIFLAGS=$MIRIFLAGS)"
avx2_log="$(mktemp)"
trap 'rm -f "$avx2_log"' EXIT
(
    # Both crates: Miri takes the features it allows from the crate it runs (the test binary).
    # Miri passes the interpreted program only the environment variables it is told to forward.
    export CARGO_TARGET_DIR="$CARGO_TARGET_DIR/avx2"
    LZ4_SIMD_MIRI_ONLY_KERNEL=avx2 MIRIFLAGS="$MIRIFLAGS -Zmiri-env-forward=LZ4_SIMD_MIRI_ONLY_KERNEL" \
        cargo +nightly miri test -p lz4-simd-miri --test kernels --test exact_room -Zprofile-rustflags \
        --config 'profile.dev.package.lz4-simd.rustflags=["-Ctarget-feature=+avx2"]' \
        --config 'profile.dev.package.lz4-simd-miri.rustflags=["-Ctarget-feature=+avx2"]' \
        "$@"
) >"$avx2_log" 2>&1 &
avx2_pid=$!

echo "--- first pass: as built (scalar, SSE2)"
first=0
cargo +nightly miri test -p lz4-simd-miri --lib --test compress_edges --test kernels "$@" || first=$?
second=0
wait "$avx2_pid" || second=$?
step "second pass (lz4-simd built for AVX2: the AVX2 kernel against scalar), exit $second"
cat "$avx2_log"
if [ "$first" -ne 0 ] || [ "$second" -ne 0 ]; then
    echo "miri: first pass exit $first, second pass exit $second" >&2
    exit 1
fi

step "done"

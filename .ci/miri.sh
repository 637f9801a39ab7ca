#!/usr/bin/env bash
# The library's unit tests and tests/miri_kernels.rs under Miri (undefined behaviour in the
# kernels' raw-pointer copies: out-of-bounds or uninitialised reads and writes, aliasing,
# provenance, alignment).
#
# Under Miri, CPU feature detection reports only the features enabled at compile time, so the
# kernel test runs twice: as built (scalar and SSE2 on x86_64), and with the lz4-simd crate built
# with `-C target-feature=+avx2` (a per-package rustflag, so the dependencies are not rebuilt) to
# reach the AVX2 kernel. Heavy unit tests shrink themselves under `cfg(miri)`.
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

step "unit tests and tests/miri_kernels.rs (MIRIFLAGS=$MIRIFLAGS)"
cargo +nightly miri test -p lz4-simd --lib --test miri_kernels

step "tests/miri_kernels.rs with lz4-simd built for AVX2"
cargo +nightly miri test -p lz4-simd --test miri_kernels \
    -Zprofile-rustflags --config 'profile.dev.package.lz4-simd.rustflags=["-Ctarget-feature=+avx2"]'

step "done"

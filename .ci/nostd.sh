#!/usr/bin/env bash
# lz4-simd without std: the library builds and lints for real no_std targets, and works.
#
# - x86_64-unknown-none (a kernel target: soft-float ABI, no SSE, so no SIMD kernel is compiled
#   in and the scalar decoder serves) and thumbv7em-none-eabihf (32-bit Cortex-M4F/M7): `cargo
#   build` and `cargo clippy` of the library, with and without `unsafe` (and `containers`).
#   There is no std for these targets, so the build itself proves nothing reaches for it.
# - The host without std: tests/portable (its own package, so lz4-simd is built without `std`
#   there) runs the kernel sweeps and the block and one-shot frame round trips against lz4_flex on
#   the no_std library, where AVX2 and AVX-512 are detected through cpufeatures instead of std.
#
# About a minute on a warm machine (a few lib builds per target, then the portable tests).
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TERM_COLOR=never
started=$SECONDS
step() { printf '\n=== no_std: %s (%ss)\n' "$*" "$((SECONDS - started))"; }

step "install the targets"
rustup target add x86_64-unknown-none thumbv7em-none-eabihf

for target in x86_64-unknown-none thumbv7em-none-eabihf; do
    for features in "--features unsafe,containers" "--features unsafe" ""; do
        step "$target, --no-default-features $features: build and clippy"
        # shellcheck disable=SC2086 # $features is zero or two words
        cargo build -p lz4-simd --target "$target" --no-default-features $features
        # shellcheck disable=SC2086
        cargo clippy -p lz4-simd --target "$target" --no-default-features $features -- -D warnings
    done
done

step "host, --no-default-features (with and without unsafe): build"
cargo build -p lz4-simd --no-default-features --features unsafe
cargo build -p lz4-simd --no-default-features

step "tests/portable on the no_std library (x86 kernels detected by cpufeatures)"
# As in .ci/run: the CI machines have AVX2, so detection without std must find it.
if [ "$(uname -m)" = x86_64 ]; then
    export LZ4_SIMD_REQUIRE_KERNELS="${LZ4_SIMD_REQUIRE_KERNELS:-sse2,avx2}"
fi
cargo test -p lz4-simd-portable

#!/usr/bin/env bash
# lz4-simd on WebAssembly: builds for wasm32-unknown-unknown and wasm32-wasip1, and tests under
# node's WASI (`.ci/wasi-runner.mjs`, node 20+, set as cargo's runner for wasm32-wasip1 here only,
# so native runs are unaffected), twice: with the simd128 kernel (`-C target-feature=+simd128`)
# and without it (the scalar decoder, what a module built for engines without SIMD runs).
#
# What runs under WASI, and why not the rest:
# - lz4-simd's unit tests (among them every available kernel against the reference decoder
#   through each dispatch entry) and its doctests (README's included). lz4-simd's dev-dependencies
#   are not built for wasm (Cargo.toml): liblz4 through lz4-sys needs a C compiler and libc
#   for the target.
# - tests/portable: the kernel sweeps of tests/kernels that need neither liblz4 nor processes
#   (hand-built blocks over offsets 1-70, lengths and end margins; random and corrupted blocks;
#   every capacity), tests/miri's small-block checks (exact-size and uninitialised buffers), and
#   block and frame interop with lz4_flex (pure Rust), on lz4-simd built without std. The simd128
#   pass requires the simd128 kernel (LZ4_SIMD_REQUIRE_KERNELS): a build that silently fell
#   back to scalar fails.
# - Not run: lz4-simd's integration tests (tests/*/main.rs: liblz4 is their oracle, some re-run
#   themselves as child processes, which WASI cannot start), the CLI (processes, pipes), the
#   benches and fuzz targets.
# - benches/wasm_decode_speed runs once on small inputs as a smoke test (its figures are for
#   the README, measured by hand: see the example's docs).
#
# Panics abort on wasm32-wasip1, which takes the whole test binary down at the first failure,
# and libtest's capture would swallow the message: the tests run with --nocapture.
#
# About 2 to 3 minutes on a cold target directory (two wasm builds of the library, the test kit
# and lz4_flex), well under a minute warm.
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TERM_COLOR=never
started=$SECONDS
step() { printf '\n=== wasm: %s (%ss)\n' "$*" "$((SECONDS - started))"; }

step "install"
rustup target add wasm32-unknown-unknown wasm32-wasip1
node_major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$node_major" -lt 20 ]; then
    echo "node $node_major: node:wasi with version 'preview1' needs node 20 or later" >&2
    exit 1
fi
node --version
export CARGO_TARGET_WASM32_WASIP1_RUNNER="node --no-warnings $PWD/.ci/wasi-runner.mjs"

# The simd128 builds have their own target directory: RUSTFLAGS differ, and sharing one would
# rebuild everything at every switch.
target_dir="${CARGO_TARGET_DIR:-target}"
simd_dir="$target_dir/wasm-simd128"

step "wasm32-unknown-unknown: build (std, no_std, no_std without unsafe, simd128)"
cargo build -p lz4-simd --target wasm32-unknown-unknown
cargo build -p lz4-simd --target wasm32-unknown-unknown --no-default-features --features unsafe
cargo build -p lz4-simd --target wasm32-unknown-unknown --no-default-features
RUSTFLAGS="-C target-feature=+simd128" CARGO_TARGET_DIR="$simd_dir" \
    cargo build -p lz4-simd --target wasm32-unknown-unknown

# The doctests run in the simd128 pass only: they show the API's use, whichever kernel decodes
# (each is its own wasm program to build, about half of a pass's time).
run_suite() {
    cargo test -p lz4-simd --target wasm32-wasip1 --lib -- --nocapture
    if [ "${1:-}" = doc ]; then
        cargo test -p lz4-simd --target wasm32-wasip1 --doc
    fi
    cargo test -p lz4-simd-portable --target wasm32-wasip1 -- --nocapture
}

step "wasm32-wasip1 with simd128 under node: unit tests, doctests, tests/portable"
(
    export RUSTFLAGS="-C target-feature=+simd128" CARGO_TARGET_DIR="$simd_dir"
    export LZ4_SIMD_REQUIRE_KERNELS=simd128
    run_suite doc
    step "benches/wasm_decode_speed (smoke run, small inputs)"
    cargo bench -p lz4-simd-benches --no-default-features --features std,unsafe --target wasm32-wasip1 --bench wasm_decode_speed -- 65536 1
)

step "wasm32-wasip1 without simd128 (scalar) under node: unit tests, tests/portable"
run_suite

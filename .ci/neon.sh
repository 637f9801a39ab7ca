#!/usr/bin/env bash
# The library's tests on aarch64 (the NEON kernel) under user-mode QEMU.
#
# Installs what it needs if missing (Debian's aarch64 cross gcc for linking and for lz4-sys's C
# code, qemu-user-static, the Rust aarch64 target); `.cargo/config.toml` names the linker and the
# runner. Builds optimised with debug assertions on: fast enough under emulation, the margin
# `debug_assert!`s stay armed, and the test files' sampled (debug) sweep sizes apply.
# `LZ4_SIMD_REQUIRE_KERNELS=neon` makes the kernel tests (tests/kernels/) fail if NEON is not detected.
#
# Skipped: `kernel_env_override`, which re-executes the test binary; under user-mode QEMU without
# binfmt_misc (containers) the kernel refuses to exec an aarch64 binary (ENOEXEC, child exit 127).
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET=aarch64-unknown-linux-gnu
export CARGO_TERM_COLOR=never
export CARGO_TARGET_DIR="${NEON_TARGET_DIR:-${CARGO_TARGET_DIR:-target}/neon}"
started=$SECONDS
step() { printf '\n=== neon: %s (%ss)\n' "$*" "$((SECONDS - started))"; }

step "install"
if ! command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || ! command -v qemu-aarch64-static >/dev/null 2>&1 \
    || [ ! -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq gcc-aarch64-linux-gnu qemu-user-static >/dev/null
fi
if ! rustup target list --installed | grep -qx "$TARGET"; then
    rustup target add "$TARGET"
fi
aarch64-linux-gnu-gcc --version | head -n 1
qemu-aarch64-static --version | head -n 1

# Tests that re-run their own binary in a child process (testkit::process::rerun_test) start it
# through the same runner: user-mode QEMU cannot execute the aarch64 binary directly here.
export LZ4_SIMD_TEST_RUNNER="qemu-aarch64-static -L /usr/aarch64-linux-gnu"

# lz4-sys builds liblz4 with the cc crate: the cross compiler for the target.
export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc
export AR_aarch64_unknown_linux_gnu=aarch64-linux-gnu-ar
# Release optimisation, debug assertions and overflow checks; no LTO, parallel codegen (build time).
export CARGO_PROFILE_RELEASE_DEBUG_ASSERTIONS=true
export CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=true
export CARGO_PROFILE_RELEASE_LTO=false
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
export CARGO_PROFILE_RELEASE_DEBUG=0
export LZ4_SIMD_REQUIRE_KERNELS=neon
# The random and hostile kernel sweeps (tests/kernels/) on a quarter of their debug-build blocks:
# every test still runs on every kernel, under emulation.
export LZ4_SIMD_TEST_SAMPLE=4

# The library's unit tests and the test binaries that reach the decode kernel, each named: not
# tests/hc nor tests/container (compressors and container formats run the same code on every
# little-endian 64-bit target; the x86_64 and i686 runs cover them), tests/parallel (the
# `parallel` feature is off here, so it would hold only its feature check) nor
# tests/frame_async (it needs the features tokio and futures-io).
tests=(--lib --test alloc --test block --test frame --test kernels --test stream)

step "build tests for $TARGET"
cargo test -p lz4-simd -p lz4-simd-tests --no-default-features --features std,unsafe,containers --release --target "$TARGET" "${tests[@]}" --no-run

step "run tests under qemu-aarch64 (LZ4_SIMD_REQUIRE_KERNELS=$LZ4_SIMD_REQUIRE_KERNELS)"
# Also skipped: the tests that run peers (the lz4 CLI, python-lz4) on the host; the x86_64 test
# run covers them, and tests/frame/format.rs runs the codecs here. And the frame compressor's
# sweeps (tests/frame/{give_up_edge,reset,lz4f_updates,into}.rs: compression only, the same code
# on every little-endian 64-bit target, about half of tests/frame's time under emulation).
cargo test -p lz4-simd -p lz4-simd-tests --no-default-features --features std,unsafe,containers --release --target "$TARGET" "${tests[@]}" --no-fail-fast -- \
    --skip kernel_env_override --skip lz4_cli_frames_decode_with_ours_and_match_bytes \
    --skip our_frames_decode_with_lz4_cli --skip python_lz4_interop \
    --skip give_up_edge:: --skip reset:: --skip lz4f_updates:: --skip into::

step "done"

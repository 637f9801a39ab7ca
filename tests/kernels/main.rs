//! Every decode kernel against the scalar reference decoder ([`Kernel::Scalar`]), one file per
//! concern:
//!
//! - `api`: `available()` / `detect()` / `name()` / `FromStr`; forcing an unavailable kernel (an
//!   error with the `unsafe` feature, the scalar decoder without it); the `LZ4_SIMD_KERNEL`
//!   override, checked by re-running this test binary (`kernel_env_child`) with the variable set.
//! - `corpus`: Silesia chunks (64 KiB and 4 MiB; ours, liblz4 fast and HC 3, 9, 12).
//! - `hand_built`: blocks sweeping offsets 1-70 x match lengths x literal lengths x the distance
//!   of the last match from the block end (0-64, margins violated included), copy-width
//!   boundaries (15-17, 31-33, 63-65), long runs.
//! - `random`: random valid blocks, and every `dst` size from 0 to the decoded size + 64.
//! - `hostile`: mutated valid blocks, every truncation, and the `Vec` API (`decompress` and
//!   `decompress_size_prepended` decode into a `Vec`'s spare capacity) against the reference.
//! - `multi` (x86_64, `unsafe`): the multi-block prototype (2 and 4 blocks interleaved) against
//!   each block decoded alone.
//!
//! Every differential test is a sweep (`testkit::kernels::for_each_kernel`): it runs once per
//! available kernel, each must give the scalar decoder's verdict (the whole `Error` value) and
//! output (`harness`). Every decode runs on a `src` that is a slice of a larger buffer and into a
//! `dst` that is a slice of a larger buffer: the bytes around `dst` must stay untouched, and
//! different bytes around `src` and different prior contents of `dst` must not change the result.
//! Every kernel also decodes through `Decoder::decompress_into_uninit` (a `&mut [MaybeUninit<u8>]`
//! destination, same guards). Reads of uninitialised memory themselves are Miri's to find
//! (tests/miri/tests/kernels.rs).
//!
//! The sweeps print which kernels were skipped; `LZ4_SIMD_REQUIRE_KERNELS=sse2,avx2` makes them
//! (and `required_kernels_are_available`) fail when a listed kernel is not available here. Debug
//! builds sample the heavy sweeps; release builds run them in full.

mod api;
mod blocks;
mod corpus;
mod hand_built;
mod harness;
mod hostile;
#[cfg(all(feature = "unsafe", target_arch = "x86_64"))]
mod random;

/// Debug builds sample the heavy sweeps.
const DEBUG: bool = cfg!(debug_assertions);

/// How many rounds (blocks, bases) a random or hostile sweep runs: `release` in release builds;
/// in debug builds `debug`, divided by `LZ4_SIMD_TEST_SAMPLE` when that is a number above 1 (at
/// least 1 left). .ci/neon.sh and .ci/i686.sh set it under qemu; every kernel still runs every
/// test, on fewer random blocks.
fn rounds(debug: usize, release: usize) -> usize {
    if !DEBUG {
        return release;
    }
    let divisor = std::env::var("LZ4_SIMD_TEST_SAMPLE")
        .ok()
        .and_then(|value| value.parse::<usize>().ok())
        .unwrap_or(1)
        .max(1);
    (debug / divisor).max(1)
}

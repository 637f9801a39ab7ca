//! The kernel sweeps of `tests/kernels` that need neither liblz4 nor processes (hand-built blocks
//! sweeping offsets 1-70, match and literal lengths and the end-of-block margins; random valid and
//! corrupted blocks; every output capacity), and the small-block checks of `tests/miri` (exact-size
//! and uninitialised destinations, the `Vec` API), run here against the library built without
//! `std`: every available kernel against the scalar decoder, whose own unit tests hold it to the
//! reference decoder. On wasm32 built with `+simd128` the kernel under test is simd128
//! (`.ci/wasm.sh` requires it through `LZ4_SIMD_REQUIRE_KERNELS`); natively, the x86 kernels as
//! detected without `std` (cpufeatures).
//!
//! The test files are the same files as there (`#[path]`), not copies.

/// Debug builds sample the heavy sweeps (as in `tests/kernels`).
const DEBUG: bool = cfg!(debug_assertions);

/// The sweep sizes of tests/kernels (its `rounds`), without the `LZ4_SIMD_TEST_SAMPLE` divisor.
fn rounds(debug: usize, release: usize) -> usize {
    if DEBUG {
        debug
    } else {
        release
    }
}

// `hostile`, the other user of `blocks`, needs liblz4 and is not included.
#[allow(dead_code)]
#[path = "../../kernels/blocks.rs"]
mod blocks;
#[path = "../../kernels/hand_built.rs"]
mod hand_built;
#[path = "../../kernels/harness.rs"]
mod harness;
#[path = "../../miri/tests/kernels.rs"]
mod miri_small_blocks;
#[path = "../../kernels/random.rs"]
mod random;

//! Names for the `cfg` conditions that decide which decode kernels are compiled in, so each
//! condition is written once (here) rather than at every `#[cfg]` that needs it.
//!
//! A SIMD kernel is compiled only where the target guarantees, at compile time, the vector
//! registers its baseline needs: SSE2 on x86_64 (not on `x86_64-unknown-none`, whose soft-float
//! ABI leaves the vector registers to the kernel it runs in), NEON on aarch64 (not on
//! `aarch64-unknown-none-softfloat`), and `simd128` on wasm32 (opt-in: `-C
//! target-feature=+simd128`, the only way a WebAssembly module may use it). Wider x86 kernels
//! (AVX2, AVX-512) are selected at run time on top of SSE2 (`src/kernel/mod.rs`).

use cfg_aliases::cfg_aliases;

fn main() {
    cfg_aliases! {
        // The SSE2, AVX2 and AVX-512 kernels.
        x86_kernels: { all(feature = "unsafe", target_arch = "x86_64", target_feature = "sse2") },
        // The NEON kernel.
        neon_kernel: { all(feature = "unsafe", target_arch = "aarch64", target_feature = "neon") },
        // The WebAssembly simd128 kernel.
        wasm_kernel: { all(feature = "unsafe", target_arch = "wasm32", target_feature = "simd128") },
        // Any SIMD kernel: the shared fast loop (`block::fast_decode`), the copy primitives and
        // the shuffle tables.
        // Spelled out: with cfg_aliases 0.2.2, `any(x86_kernels, neon_kernel, wasm_kernel)` came
        // out false on wasm32 with `wasm_kernel` set (observed; aliases inside `any` are not
        // reliable there).
        simd_kernels: {
            all(
                feature = "unsafe",
                any(
                    all(target_arch = "x86_64", target_feature = "sse2"),
                    all(target_arch = "aarch64", target_feature = "neon"),
                    all(target_arch = "wasm32", target_feature = "simd128")
                )
            )
        },
    }
}

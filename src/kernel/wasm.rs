//! wasm32 `simd128` copy kernel: 16-byte copies (`v128.load` / `v128.store`), `i8x16.swizzle`
//! pattern replication.
//!
//! The WebAssembly counterpart of the NEON kernel: `i8x16.swizzle` picks lanes of one vector by
//! index like `vqtbl1q_u8` (and `pshufb`), so the same `PATTERN` rows replicate an overlapping
//! match's `offset` bytes from the 16 bytes of finished output before it. Compiled in only when
//! the crate is built with `simd128` enabled (`-C target-feature=+simd128`): WebAssembly has no
//! run-time feature test, an engine without `simd128` rejects the module when it loads it.

use core::arch::wasm32::{i8x16_swizzle, v128, v128_load, v128_store};

use super::copy::{CopyKernel, REPLICATE_HISTORY};
use super::tables::{PATTERN, STEP};

/// The repetition of the `offset` bytes before `dst`, as 16 bytes: a swizzle of the 16 bytes
/// ending at `dst` with `PATTERN[offset]` (lane `i` takes the byte `offset - i % offset`
/// positions before `dst`).
///
/// # Safety
///
/// The 16 bytes before `dst` initialised and readable; `1 <= offset < 16`; `simd128`.
#[inline(always)]
unsafe fn pattern_by_swizzle(dst: *const u8, offset: usize) -> v128 {
    debug_assert!((1..16).contains(&offset));
    // SAFETY: the caller's contract: 16 readable initialised bytes before `dst`; PATTERN rows are
    // 16 bytes. v128_load takes unaligned addresses (it is an unaligned read).
    unsafe {
        i8x16_swizzle(
            v128_load(dst.sub(REPLICATE_HISTORY).cast::<v128>()),
            v128_load(PATTERN[offset].as_ptr().cast::<v128>()),
        )
    }
}

/// `simd128`: 16-byte wild copies, swizzle replication.
pub(crate) struct Simd128;

// SAFETY: the methods use simd128 instructions; the fast loop instantiates them only in
// `decode_simd128` / `decode_special_simd128`, which exist only when the crate is compiled with
// `simd128` enabled (build.rs's `wasm_kernel`), so every instruction is valid in the module.
unsafe impl CopyKernel for Simd128 {
    const WIDTH: usize = 16;

    #[inline(always)]
    unsafe fn copy_wide(src: *const u8, dst: *mut u8) {
        // SAFETY: the caller guarantees 16 readable / writable bytes; v128 loads and stores are
        // unaligned.
        unsafe { v128_store(dst.cast::<v128>(), v128_load(src.cast::<v128>())) }
    }

    #[inline(always)]
    unsafe fn copy16(src: *const u8, dst: *mut u8) {
        // SAFETY: the caller guarantees 16 readable / writable bytes.
        unsafe { v128_store(dst.cast::<v128>(), v128_load(src.cast::<v128>())) }
    }

    #[inline(always)]
    unsafe fn replicate(dst: *mut u8, offset: usize, len: usize) {
        debug_assert!((1..16).contains(&offset) && len >= 1);
        // SAFETY: the 16 bytes ending at `dst` are initialised output (the caller's
        // REPLICATE_HISTORY contract).
        let pattern = unsafe { pattern_by_swizzle(dst, offset) };
        let step = usize::from(STEP[offset]);
        let mut pos = 0;
        while pos < len {
            // SAFETY: pos < len, so the store ends before dst + len + 16, which the caller
            // guarantees writable.
            unsafe { v128_store(dst.add(pos).cast::<v128>(), pattern) };
            pos += step;
        }
    }

    #[inline(always)]
    unsafe fn replicate_short(dst: *mut u8, offset: usize) {
        // SAFETY: the caller's contract: 16 history bytes before `dst`, 32 writable bytes after
        // (STEP[offset] <= 16).
        unsafe {
            let pattern = pattern_by_swizzle(dst, offset);
            v128_store(dst.cast::<v128>(), pattern);
            v128_store(dst.add(usize::from(STEP[offset])).cast::<v128>(), pattern);
        }
    }
}

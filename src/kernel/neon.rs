//! aarch64 NEON copy kernel: 16-byte copies, `vqtbl1q_u8` pattern replication.

use core::arch::aarch64::{uint8x16_t, vld1q_u8, vqtbl1q_u8, vst1q_u8};

use super::copy::{CopyKernel, REPLICATE_HISTORY};
use super::tables::{PATTERN, STEP};

/// The repetition of the `offset` bytes before `dst`, as 16 bytes: a table lookup of the 16 bytes
/// ending at `dst` with `PATTERN[offset]` (lane `i` takes the byte `offset - i % offset`
/// positions before `dst`).
///
/// # Safety
///
/// The 16 bytes before `dst` initialised and readable; `1 <= offset < 16`; NEON.
#[inline(always)]
unsafe fn pattern_by_table(dst: *const u8, offset: usize) -> uint8x16_t {
    // SAFETY: the caller's contract; vld1q_u8 takes unaligned addresses.
    unsafe {
        vqtbl1q_u8(
            vld1q_u8(dst.sub(REPLICATE_HISTORY)),
            vld1q_u8(PATTERN[offset].as_ptr()),
        )
    }
}

/// NEON: 16-byte wild copies, table-lookup replication.
pub(crate) struct Neon;

// SAFETY: the methods use NEON instructions; the fast loop instantiates them only in
// `decode_neon`, which carries `#[target_feature(enable = "neon")]` and is reached only through a
// token proving NEON is present.
unsafe impl CopyKernel for Neon {
    const WIDTH: usize = 16;

    #[inline(always)]
    unsafe fn copy_wide(src: *const u8, dst: *mut u8) {
        // SAFETY: the caller guarantees 16 readable / writable bytes; vld1q/vst1q are unaligned.
        unsafe { vst1q_u8(dst, vld1q_u8(src)) }
    }

    #[inline(always)]
    unsafe fn copy16(src: *const u8, dst: *mut u8) {
        // SAFETY: the caller guarantees 16 readable / writable bytes.
        unsafe { vst1q_u8(dst, vld1q_u8(src)) }
    }

    #[inline(always)]
    unsafe fn replicate(dst: *mut u8, offset: usize, len: usize) {
        debug_assert!((1..16).contains(&offset) && len >= 1);
        // SAFETY: the 16 bytes ending at `dst` are initialised output (the caller's
        // REPLICATE_HISTORY contract).
        let pattern = unsafe { pattern_by_table(dst, offset) };
        let step = usize::from(STEP[offset]);
        let mut pos = 0;
        while pos < len {
            // SAFETY: pos < len, so the store ends before dst + len + 16.
            unsafe { vst1q_u8(dst.add(pos), pattern) };
            pos += step;
        }
    }

    #[inline(always)]
    unsafe fn replicate_short(dst: *mut u8, offset: usize) {
        // SAFETY: the caller's contract: 16 history bytes before `dst`, 32 writable bytes after
        // (STEP[offset] <= 16).
        unsafe {
            let pattern = pattern_by_table(dst, offset);
            vst1q_u8(dst, pattern);
            vst1q_u8(dst.add(usize::from(STEP[offset])), pattern);
        }
    }
}

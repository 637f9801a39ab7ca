//! x86_64 copy kernels: SSE2 (16-byte copies; SSE2 has no byte shuffle, so small offsets use
//! word broadcasts or 8-byte copies at a lag that is a multiple of the offset) and AVX2 (32-byte
//! copies; `pshufb` pattern replication for offsets below 16).

use core::arch::x86_64::{
    __m128i, __m256i, _mm256_loadu_si256, _mm256_storeu_si256, _mm_loadu_si128, _mm_set1_epi64x,
    _mm_shuffle_epi8, _mm_storeu_si128,
};

use super::copy::{CopyKernel, REPLICATE_HISTORY};
use super::tables::{PATTERN, STEP};

/// Copies 8 bytes (load, then store).
///
/// # Safety
///
/// `src` valid for reads and `dst` for writes of 8 bytes.
#[inline(always)]
unsafe fn copy8(src: *const u8, dst: *mut u8) {
    // SAFETY: the caller guarantees both ranges; unaligned access is what read/write_unaligned do.
    unsafe {
        dst.cast::<u64>()
            .write_unaligned(src.cast::<u64>().read_unaligned())
    }
}

/// Copies 16 bytes with one unaligned SSE2 load and store.
///
/// # Safety
///
/// `src` valid for reads and `dst` for writes of 16 bytes.
#[inline(always)]
unsafe fn copy16_sse2(src: *const u8, dst: *mut u8) {
    // SAFETY: the caller guarantees both ranges; loadu/storeu take unaligned addresses; SSE2 is
    // x86_64 baseline.
    unsafe {
        _mm_storeu_si128(
            dst.cast::<__m128i>(),
            _mm_loadu_si128(src.cast::<__m128i>()),
        )
    }
}

/// Replication with 8-byte copies, for kernels without a byte shuffle. Offsets below 8: the first
/// 8 bytes one by one, then 8-byte copies from `lag` back, `lag` being the smallest multiple of the
/// offset that is at least 8 (so every copy reads finished bytes and keeps the phase); offsets
/// 8..16: 8-byte copies from `offset` back. Writes at most 7 bytes past `len`.
///
/// # Safety
///
/// `dst - offset .. dst` initialised and readable, `dst .. dst + len + 16` writable, within one
/// allocation; `1 <= offset < 16`.
#[inline(always)]
unsafe fn replicate_by_words(dst: *mut u8, offset: usize, len: usize) {
    debug_assert!((1..16).contains(&offset) && len >= 1);
    if offset & (offset - 1) == 0 && offset < 8 {
        // Offsets 1, 2, 4: the pattern, multiplied out to 8 bytes, broadcast to 16-byte stores
        // (runs of one byte are the common case). 16 is a multiple of the offset, so the phase
        // holds from one store to the next.
        // SAFETY: the `offset` bytes before `dst` are initialised (this function's contract).
        let unit: u64 = unsafe {
            match offset {
                1 => u64::from(*dst.sub(1)),
                2 => u64::from(dst.sub(2).cast::<u16>().read_unaligned()),
                _ => u64::from(dst.sub(4).cast::<u32>().read_unaligned()),
            }
        };
        let pattern = unit.wrapping_mul(match offset {
            1 => 0x0101_0101_0101_0101,
            2 => 0x0001_0001_0001_0001,
            _ => 0x0000_0001_0000_0001,
        });
        // SAFETY: SSE2 is part of the x86_64 baseline.
        let vector = unsafe { _mm_set1_epi64x(pattern as i64) };
        let mut pos = 0;
        while pos < len {
            // SAFETY: pos < len, so the store ends before dst + len + 16, which the caller's
            // contract (len + WIDTH writable, WIDTH = 16 for SSE2) covers.
            unsafe { _mm_storeu_si128(dst.add(pos).cast::<__m128i>(), vector) };
            pos += 16;
        }
        return;
    }
    let lag = if offset < 8 {
        for i in 0..8 {
            // SAFETY: `dst + i - offset` and `dst + i` are within the caller's range (i < 8 <= len + 8).
            unsafe { *dst.add(i) = *dst.add(i).sub(offset) };
        }
        offset * 8usize.div_ceil(offset)
    } else {
        offset
    };
    let mut pos = if offset < 8 { 8 } else { 0 };
    while pos < len {
        // SAFETY: reads `dst + pos - lag ..+8`, all before `dst + pos` (lag >= 8) and not before
        // `dst - offset` (pos >= 8 when lag > offset); writes `dst + pos ..+8` with pos < len.
        unsafe { copy8(dst.add(pos).sub(lag), dst.add(pos)) };
        pos += 8;
    }
}

/// SSE2: 16-byte wild copies.
pub(crate) struct Sse2;

// SAFETY: SSE2 is part of the x86_64 baseline; the methods use only SSE2 and plain loads/stores.
unsafe impl CopyKernel for Sse2 {
    const WIDTH: usize = 16;

    #[inline(always)]
    unsafe fn copy_wide(src: *const u8, dst: *mut u8) {
        // SAFETY: forwarded contract.
        unsafe { copy16_sse2(src, dst) }
    }

    #[inline(always)]
    unsafe fn copy16(src: *const u8, dst: *mut u8) {
        // SAFETY: forwarded contract.
        unsafe { copy16_sse2(src, dst) }
    }

    #[inline(always)]
    unsafe fn replicate(dst: *mut u8, offset: usize, len: usize) {
        // SAFETY: forwarded contract (writes at most 15 bytes past len: < WIDTH).
        unsafe { replicate_by_words(dst, offset, len) }
    }
}

/// AVX2: 32-byte wild copies, `pshufb` replication.
pub(crate) struct Avx2;

// SAFETY: the methods use AVX2 and SSSE3 (implied by AVX2) instructions; the fast loop
// instantiates them only in `decode_avx2`, which carries `#[target_feature(enable = "avx2")]` and
// is reached only through a token proving AVX2 is present.
unsafe impl CopyKernel for Avx2 {
    const WIDTH: usize = 32;

    #[inline(always)]
    unsafe fn copy_wide(src: *const u8, dst: *mut u8) {
        // SAFETY: the caller guarantees 32 readable / writable bytes; AVX2 per the impl contract.
        unsafe {
            _mm256_storeu_si256(
                dst.cast::<__m256i>(),
                _mm256_loadu_si256(src.cast::<__m256i>()),
            )
        }
    }

    #[inline(always)]
    unsafe fn copy16(src: *const u8, dst: *mut u8) {
        // SAFETY: forwarded contract.
        unsafe { copy16_sse2(src, dst) }
    }

    #[inline(always)]
    unsafe fn replicate(dst: *mut u8, offset: usize, len: usize) {
        debug_assert!((1..32).contains(&offset) && len >= 1);
        if offset < 16 {
            // SAFETY: the 16 bytes ending at `dst` are initialised output (the caller's
            // REPLICATE_HISTORY contract); the shuffle picks the last `offset` of them.
            let pattern = unsafe {
                _mm_shuffle_epi8(
                    _mm_loadu_si128(dst.sub(REPLICATE_HISTORY).cast::<__m128i>()),
                    _mm_loadu_si128(PATTERN[offset].as_ptr().cast::<__m128i>()),
                )
            };
            let step = usize::from(STEP[offset]);
            let mut pos = 0;
            while pos < len {
                // SAFETY: pos < len, so the 16-byte store ends before dst + len + 16.
                unsafe { _mm_storeu_si128(dst.add(pos).cast::<__m128i>(), pattern) };
                pos += step;
            }
        } else {
            let mut pos = 0;
            while pos < len {
                // SAFETY: offset >= 16, so the 16 bytes read end at or before `dst + pos`
                // (finished output); the store ends before dst + len + 16.
                unsafe {
                    _mm_storeu_si128(
                        dst.add(pos).cast::<__m128i>(),
                        _mm_loadu_si128(dst.add(pos).sub(offset).cast::<__m128i>()),
                    )
                };
                pos += 16;
            }
        }
    }
}

//! x86_64 copy kernels: SSE2 (16-byte copies; SSE2 has no byte shuffle, so the repeating pattern
//! of an offset below 16 is built with a multiplication), AVX2 (32-byte copies; `pshufb` builds
//! the pattern; both store it 16 bytes at a time) and AVX-512 (64-byte copies; `vpermb` builds a
//! 64-byte pattern, stored 64 bytes at a time).

use core::arch::x86_64::{
    __m128i, __m256i, __m512i, _mm256_loadu_si256, _mm256_storeu_si256, _mm512_loadu_si512,
    _mm512_permutexvar_epi8, _mm512_storeu_si512, _mm512_zextsi128_si512, _mm_loadu_si128,
    _mm_set1_epi64x, _mm_shuffle_epi8, _mm_storeu_si128,
};

use super::copy::{copy_bytes, CopyKernel, REPLICATE_HISTORY};
use super::tables::{PATTERN, PATTERN_64, REPEAT, STEP, STEP_64};

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

/// The repetition of the `offset` bytes before `dst`, as 16 bytes (lane `i` holds the byte
/// `offset - i % offset` positions before `dst`), built with integer arithmetic: SSE2 has no byte
/// shuffle. The last `offset` of the 16 bytes before `dst` are moved to the bottom of a `u128`,
/// then multiplied by [`REPEAT`]`[offset]`.
///
/// # Safety
///
/// The 16 bytes before `dst` must be initialised and readable; `1 <= offset < 16`.
#[inline(always)]
unsafe fn pattern_by_multiply(dst: *const u8, offset: usize) -> __m128i {
    debug_assert!((1..16).contains(&offset));
    // 8 % offset == 0 for offsets 1, 2, 4, 8: bits of 0x116 (a `%` here compiled to a `div`).
    if (0x116u32 >> offset) & 1 != 0 {
        // Offsets 1, 2, 4, 8 (runs are the common case): 8 bytes repeat, so a 64-bit multiply
        // (a shorter dependency chain than the 128-bit one) and a broadcast.
        // SAFETY: the caller guarantees the 16 bytes (so the 8) before `dst`.
        let history = u64::from_le_bytes(unsafe { dst.sub(8).cast::<[u8; 8]>().read() });
        let pattern = (history >> (8 * (8 - offset))).wrapping_mul(REPEAT[offset] as u64);
        // SAFETY: SSE2 is part of the x86_64 baseline.
        return unsafe { _mm_set1_epi64x(pattern as i64) };
    }
    // SAFETY: the caller guarantees the 16 bytes before `dst`.
    let history =
        u128::from_le_bytes(unsafe { dst.sub(REPLICATE_HISTORY).cast::<[u8; 16]>().read() });
    let pattern = (history >> (8 * (16 - offset))).wrapping_mul(REPEAT[offset]);
    // SAFETY: SSE2 is part of the x86_64 baseline; the load reads the local array.
    unsafe { _mm_loadu_si128(pattern.to_le_bytes().as_ptr().cast::<__m128i>()) }
}

/// Writes `len` bytes of an overlapping match at `dst` from its 16-byte `pattern` (see
/// [`PATTERN`]): 16-byte stores `STEP[offset]` bytes apart (a multiple of the offset, so the
/// phase holds from one store to the next). Writes at most 15 bytes past `len`.
///
/// # Safety
///
/// `dst .. dst + len + 16` writable; `1 <= offset < 16`; SSE2 (x86_64 baseline).
#[inline(always)]
unsafe fn store_pattern(dst: *mut u8, pattern: __m128i, offset: usize, len: usize) {
    let step = usize::from(STEP[offset]);
    let mut pos = 0;
    while pos < len {
        // SAFETY: pos < len, so the 16-byte store ends before dst + len + 16 (the contract).
        unsafe { _mm_storeu_si128(dst.add(pos).cast::<__m128i>(), pattern) };
        pos += step;
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
        debug_assert!((1..16).contains(&offset) && len >= 1);
        // SAFETY: the 16 bytes before `dst` are initialised output (the REPLICATE_HISTORY
        // contract), and `dst .. dst + len + WIDTH` (WIDTH = 16) is writable.
        unsafe { store_pattern(dst, pattern_by_multiply(dst, offset), offset, len) }
    }

    #[inline(always)]
    unsafe fn replicate_short(dst: *mut u8, offset: usize) {
        if offset >= 8 {
            // Offsets 8..15: 8 + 8 + 2 bytes from `offset` back, cheaper than the 128-bit
            // multiply (+1% on Silesia, same-process A/B over four builds). Each read ends at or
            // before the end of what the earlier writes wrote: the first at dst - offset + 8 <=
            // dst, the second at dst - offset + 16 <= dst + 8, the third at dst - offset + 18 <=
            // dst + 10.
            // SAFETY: the reads start at dst - offset >= dst - 16 (the history bytes the caller
            // guarantees) and are initialised (history, or written just before); the writes end
            // at dst + 18 <= dst + 32 (the contract).
            unsafe {
                let from = dst.sub(offset);
                copy_bytes::<8>(from, dst);
                copy_bytes::<8>(from.add(8), dst.add(8));
                copy_bytes::<2>(from.add(16), dst.add(16));
            }
        } else {
            // SAFETY: the caller's contract: 16 history bytes, 32 writable bytes.
            unsafe { store_pattern_twice(dst, pattern_by_multiply(dst, offset), offset) }
        }
    }
}

/// Stores a match's 16-byte `pattern` (see [`PATTERN`]) at `dst` and at `dst + STEP[offset]`
/// (9 to 16 bytes on, a multiple of the offset): its first 25 to 32 bytes.
///
/// # Safety
///
/// `dst .. dst + 32` writable; `1 <= offset < 16`; SSE2 (x86_64 baseline).
#[inline(always)]
unsafe fn store_pattern_twice(dst: *mut u8, pattern: __m128i, offset: usize) {
    // SAFETY: STEP[offset] <= 16: both stores end by dst + 32.
    unsafe {
        _mm_storeu_si128(dst.cast::<__m128i>(), pattern);
        _mm_storeu_si128(
            dst.add(usize::from(STEP[offset])).cast::<__m128i>(),
            pattern,
        );
    }
}

/// The repetition of the `offset` bytes before `dst`, as 16 bytes: `pshufb` of the 16 bytes
/// ending at `dst` with `PATTERN[offset]` (lane `i` takes the byte `offset - i % offset`
/// positions before `dst`).
///
/// # Safety
///
/// The 16 bytes before `dst` initialised and readable; `1 <= offset < 16`; SSSE3.
#[inline(always)]
unsafe fn pattern_by_shuffle(dst: *const u8, offset: usize) -> __m128i {
    // SAFETY: the caller's contract.
    unsafe {
        _mm_shuffle_epi8(
            _mm_loadu_si128(dst.sub(REPLICATE_HISTORY).cast::<__m128i>()),
            _mm_loadu_si128(PATTERN[offset].as_ptr().cast::<__m128i>()),
        )
    }
}

/// Copies 32 bytes with one unaligned AVX load and store.
///
/// # Safety
///
/// `src` valid for reads and `dst` for writes of 32 bytes; AVX present.
#[inline(always)]
unsafe fn copy32_avx(src: *const u8, dst: *mut u8) {
    // SAFETY: the caller guarantees both ranges and the feature; loadu/storeu take unaligned
    // addresses.
    unsafe {
        _mm256_storeu_si256(
            dst.cast::<__m256i>(),
            _mm256_loadu_si256(src.cast::<__m256i>()),
        )
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
        // SAFETY: the caller guarantees 32 readable / writable bytes; AVX (in AVX2) per the impl
        // contract.
        unsafe { copy32_avx(src, dst) }
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
            // REPLICATE_HISTORY contract); SSSE3 is implied by AVX2; `dst .. dst + len + 32` is
            // writable (the contract, WIDTH = 32).
            unsafe { store_pattern(dst, pattern_by_shuffle(dst, offset), offset, len) };
        } else {
            // SAFETY: offset >= 16: the bytes read are the `offset` before `dst` (initialised per
            // the contract) or earlier chunks'; writes end before dst + len + 16.
            unsafe { copy_back_chunks::<16>(dst, offset, len) };
        }
    }

    #[inline(always)]
    unsafe fn replicate_short(dst: *mut u8, offset: usize) {
        // SAFETY: the caller's contract; SSSE3 is implied by AVX2.
        unsafe { store_pattern_twice(dst, pattern_by_shuffle(dst, offset), offset) }
    }
}

/// Writes `len` bytes at `dst`, each a copy of the byte `offset` positions before it, in
/// `CHUNK`-byte copies from `offset` bytes back (`CHUNK` is 16 or 32, `offset >= CHUNK`, so each
/// chunk's source lies before its destination: finished output). Writes at most `CHUNK - 1`
/// bytes past `len`.
///
/// # Safety
///
/// `dst - offset .. dst` initialised and readable, `dst .. dst + len + CHUNK` writable, in one
/// allocation; `offset >= CHUNK`; for `CHUNK = 32`, AVX present.
#[inline(always)]
unsafe fn copy_back_chunks<const CHUNK: usize>(dst: *mut u8, offset: usize, len: usize) {
    debug_assert!(offset >= CHUNK && (CHUNK == 16 || CHUNK == 32));
    let mut pos = 0;
    while pos < len {
        // SAFETY: the source `dst + pos - offset .. + CHUNK` ends at or before `dst + pos`
        // (offset >= CHUNK): bytes before `dst` (the caller's) or written by earlier chunks; the
        // store ends before dst + len + CHUNK (pos < len). AVX for 32: the caller's.
        unsafe {
            let at = dst.add(pos);
            if CHUNK == 32 {
                copy32_avx(at.sub(offset), at);
            } else {
                copy16_sse2(at.sub(offset), at);
            }
        }
        pos += CHUNK;
    }
}

/// AVX-512 (F, BW, VBMI): 64-byte wild copies, `vpermb` replication.
pub(crate) struct Avx512;

// SAFETY: the methods use AVX-512 F/BW/VBMI, AVX and SSE2 instructions; the fast loop
// instantiates them only in `decode_avx512`, which carries `#[target_feature(enable =
// "avx512f,avx512bw,avx512vbmi")]` and is reached only through a token proving those features.
unsafe impl CopyKernel for Avx512 {
    const WIDTH: usize = 64;

    #[inline(always)]
    unsafe fn copy_wide(src: *const u8, dst: *mut u8) {
        // SAFETY: the caller guarantees 64 readable / writable bytes; AVX-512 F per the impl
        // contract.
        unsafe {
            _mm512_storeu_si512(
                dst.cast::<__m512i>(),
                _mm512_loadu_si512(src.cast::<__m512i>()),
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
        debug_assert!((1..64).contains(&offset) && len >= 1);
        if offset < 16 {
            // SAFETY: the 16 bytes ending at `dst` are initialised output (the caller's
            // REPLICATE_HISTORY contract); they become the low lanes of a zeroed register, and
            // every lane of PATTERN_64 indexes one of them (so the pattern repeats the last
            // `offset` of them). AVX-512 VBMI per the impl contract.
            let pattern = unsafe {
                _mm512_permutexvar_epi8(
                    _mm512_loadu_si512(PATTERN_64[offset].as_ptr().cast::<__m512i>()),
                    _mm512_zextsi128_si512(_mm_loadu_si128(
                        dst.sub(REPLICATE_HISTORY).cast::<__m128i>(),
                    )),
                )
            };
            // Stores STEP_64[offset] apart (a multiple of the offset) keep the phase.
            let step = usize::from(STEP_64[offset]);
            let mut pos = 0;
            while pos < len {
                // SAFETY: pos < len, so the 64-byte store ends before dst + len + 64 (the
                // contract, WIDTH = 64).
                unsafe { _mm512_storeu_si512(dst.add(pos).cast::<__m512i>(), pattern) };
                pos += step;
            }
        } else if offset < 32 {
            // SAFETY: offset >= 16: the bytes read are the `offset` before `dst` (initialised per
            // the contract: max(offset, REPLICATE_HISTORY) of them) or earlier chunks'; writes end
            // before dst + len + 16.
            unsafe { copy_back_chunks::<16>(dst, offset, len) };
        } else {
            // SAFETY: as above with offset >= 32, writes ending before dst + len + 32; AVX is
            // implied by AVX-512 F.
            unsafe { copy_back_chunks::<32>(dst, offset, len) };
        }
    }

    #[inline(always)]
    unsafe fn replicate_short(dst: *mut u8, offset: usize) {
        // SAFETY: the caller's contract; SSSE3 is implied by AVX-512.
        unsafe { store_pattern_twice(dst, pattern_by_shuffle(dst, offset), offset) }
    }
}

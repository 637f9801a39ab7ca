//! Offset → shuffle and repeat tables for pattern replication.
//!
//! A match whose offset is smaller than the copy width overlaps itself: its output repeats the
//! `offset` bytes before it. A byte shuffle (`pshufb`, `vqtbl1q_u8`, `i8x16.swizzle`) of the 16 bytes *ending* at
//! the match start with `PATTERN[offset]` (lane `i` takes byte `16 - offset + i % offset`) yields
//! 16 bytes of that repetition while reading only finished output (the match's own bytes may be
//! uninitialised memory); storing it at steps of `STEP[offset]` (the largest multiple of `offset`
//! that is at most 16) keeps the pattern's phase from one store to the next.
//!
//! Without a byte shuffle (SSE2, the safe scalar decoder) the same repetition is a multiplication:
//! `REPEAT[offset]` lays copies of an `offset`-byte value end to end. [`REPEAT`] is compiled in
//! every configuration (the safe scalar decoder uses it); the shuffle tables only where a SIMD
//! kernel uses them.

#![forbid(unsafe_code)]

/// `REPEAT[offset]`: the sum of `1 << (8 * offset * k)` for every `k` with `offset * k < 16`.
/// Multiplying an `offset`-byte value by it lays copies of the value end to end across 16 bytes
/// (the copies do not overlap, so no carries cross them); its low 64 bits do the same across 8
/// bytes. Used by the scalar decoder for offsets 1-7 and by the SSE2 kernel's replication.
pub(crate) static REPEAT: [u128; 16] = {
    let mut table = [0u128; 16];
    let mut offset = 1;
    while offset < 16 {
        let mut at = 0;
        while at < 16 {
            table[offset] |= 1u128 << (8 * at);
            at += offset;
        }
        offset += 1;
    }
    table
};

/// Rows for offsets 1..16 (row 0 is unused) of `LANES` shuffle indices: lane `i` of row `offset`
/// is `16 - offset + i % offset`, an index into the 16 bytes that end where the match starts.
#[cfg(simd_kernels)]
const fn pattern_rows<const LANES: usize>() -> [[u8; LANES]; 16] {
    let mut table = [[0u8; LANES]; 16];
    let mut offset = 1;
    while offset < 16 {
        let mut i = 0;
        while i < LANES {
            table[offset][i] = (16 - offset + i % offset) as u8;
            i += 1;
        }
        offset += 1;
    }
    table
}

/// For offsets 1..16 (row 0 is unused): the largest multiple of `offset` that is at most `span`.
const fn steps(span: usize) -> [u8; 16] {
    let mut table = [0u8; 16];
    let mut offset = 1;
    while offset < 16 {
        table[offset] = (span - span % offset) as u8;
        offset += 1;
    }
    table
}

/// `PATTERN[offset][i] = 16 - offset + i % offset` for offsets 1..16 (row 0 is unused): indices
/// into the 16 bytes that end where the match starts.
#[cfg(simd_kernels)]
pub(crate) static PATTERN: [[u8; 16]; 16] = pattern_rows::<16>();

/// `STEP[offset]`: the largest multiple of `offset` that is at most 16 (row 0 is unused).
#[cfg(simd_kernels)]
pub(crate) static STEP: [u8; 16] = steps(16);

/// `STEP_8[offset]`: the largest multiple of `offset` that is at most 8 (row 0 and rows 8.. are
/// unused): where the scalar decoder's 8-byte pattern of an offset below 8 is stored next.
pub(crate) static STEP_8: [u8; 16] = steps(8);

/// [`PATTERN`] over 64 lanes, for `vpermb` (AVX-512 VBMI) over a register whose low 16 bytes are
/// the 16 bytes ending where the match starts.
#[cfg(x86_kernels)]
pub(crate) static PATTERN_64: [[u8; 64]; 16] = pattern_rows::<64>();

/// `STEP_64[offset]`: the largest multiple of `offset` that is at most 64 (row 0 is unused).
#[cfg(x86_kernels)]
pub(crate) static STEP_64: [u8; 16] = steps(64);

#[cfg(test)]
mod tests {
    #[test]
    fn repeat_table_repeats_every_offset() {
        for offset in 1..16usize {
            let value =
                0x100f_0e0d_0c0b_0a09_0807_0605_0403_0201u128 & ((1u128 << (8 * offset)) - 1);
            let bytes = value.wrapping_mul(super::REPEAT[offset]).to_le_bytes();
            for (i, &byte) in bytes.iter().enumerate() {
                assert_eq!(byte, (i % offset) as u8 + 1, "offset {offset}, byte {i}");
            }
        }
    }

    #[cfg(x86_kernels)]
    #[test]
    fn wide_tables_repeat_the_pattern() {
        use super::{PATTERN_64, STEP_64};
        for offset in 1..16 {
            let step = usize::from(STEP_64[offset]);
            assert_eq!(step % offset, 0);
            assert!(step <= 64 && step + offset > 64);
            for (i, &lane) in PATTERN_64[offset].iter().enumerate() {
                assert_eq!(usize::from(lane), 16 - offset + i % offset);
                assert!(lane < 16, "lanes index the 16 history bytes only");
            }
        }
    }

    #[cfg(simd_kernels)]
    #[test]
    fn tables_repeat_the_pattern() {
        use super::{PATTERN, STEP};
        for offset in 1..16 {
            let step = usize::from(STEP[offset]);
            assert_eq!(step % offset, 0);
            assert!(step <= 16 && step + offset > 16);
            for (i, &lane) in PATTERN[offset].iter().enumerate() {
                assert_eq!(usize::from(lane), 16 - offset + i % offset);
            }
        }
    }
}

//! Offset → shuffle tables for pattern replication.
//!
//! A match whose offset is smaller than the copy width overlaps itself: its output repeats the
//! `offset` bytes before it. A byte shuffle (`pshufb`, `vqtbl1q_u8`) of the 16 bytes *ending* at
//! the match start with `PATTERN[offset]` (lane `i` takes byte `16 - offset + i % offset`) yields
//! 16 bytes of that repetition while reading only finished output (the match's own bytes may be
//! uninitialised memory); storing it at steps of `STEP[offset]` (the largest multiple of `offset`
//! that is at most 16) keeps the pattern's phase from one store to the next.

#![forbid(unsafe_code)]

/// Rows for offsets 1..16 (row 0 is unused) of `LANES` shuffle indices: lane `i` of row `offset`
/// is `16 - offset + i % offset`, an index into the 16 bytes that end where the match starts.
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
pub(crate) static PATTERN: [[u8; 16]; 16] = pattern_rows::<16>();

/// `STEP[offset]`: the largest multiple of `offset` that is at most 16 (row 0 is unused).
pub(crate) static STEP: [u8; 16] = steps(16);

/// [`PATTERN`] over 64 lanes, for `vpermb` (AVX-512 VBMI) over a register whose low 16 bytes are
/// the 16 bytes ending where the match starts.
#[cfg(target_arch = "x86_64")]
pub(crate) static PATTERN_64: [[u8; 64]; 16] = pattern_rows::<64>();

/// `STEP_64[offset]`: the largest multiple of `offset` that is at most 64 (row 0 is unused).
#[cfg(target_arch = "x86_64")]
pub(crate) static STEP_64: [u8; 16] = steps(64);

#[cfg(test)]
mod tests {
    use super::{PATTERN, STEP};

    #[cfg(target_arch = "x86_64")]
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

    #[test]
    fn tables_repeat_the_pattern() {
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

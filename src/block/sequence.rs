//! What the fast compressor (`compress`) and LZ4 HC (`hc`) share: reading the input in the hot
//! loops, counting how far a match extends, the 4-byte hash, and writing sequences.
//!
//! # Reading the input
//!
//! The parses read 2-, 4- and 8-byte little-endian words and single bytes at positions they have
//! already proven to lie inside the input. [`word_at!`] and [`byte_at!`] do such reads, and
//! [`put_at!`] such writes into the output: with the `unsafe` feature they skip the bounds check,
//! without it they are ordinary checked slice accesses. Every use says why it is in bounds, from
//! either
//!
//! - a check that holds in release builds, in the same function: an `assert!` at its start (as
//!   in `hc::chain`'s `count_back`), a loop condition, or a fact of a type the function was given
//!   that only a check can create; or
//! - the duty of an *unchecked function*, declared with [`unchecked_fn!`]: an `unsafe fn` with the
//!   `unsafe` feature, whose `# Safety` section states what the caller must establish, and whose
//!   callers (through [`call_unchecked!`]) say in a `// SAFETY:` comment where they establish it.
//!   Without the feature it is a safe `fn` whose accesses are all checked.
//!
//! The helpers the parses call per sequence or per candidate ([`count_common`],
//! [`SequenceWriter::sequence`], the HC chain walk) are unchecked functions, and so are the parses
//! that call them: checking their arguments in release builds, even once per search, costs 0.5-7%
//! more instructions in the parses (measured with the release CLI under callgrind), which already
//! know the arguments are in range. Checks that cost nothing measurable are made in release
//! builds: once per block, and in cold paths.
//!
//! # Writing sequences
//!
//! [`SequenceWriter`] appends sequences (token, literal length extension, literals, offset, match
//! length extension) and the final literal run to the output. It has two modes, chosen per block
//! by whether the output holds [`compress_bound`](super::compress_bound) of the input: exact
//! (every sequence's size is checked before it is written, and an output too small gives
//! [`Error::OutputTooSmall`]), and bound-sized (no per-sequence size computation; literals are
//! copied in whole 8-byte words).

#![cfg_attr(not(feature = "unsafe"), forbid(unsafe_code))]

use super::{MAX_INPUT_SIZE, MFLIMIT, ML_MASK, RUN_MASK};
use crate::Error;

/// Inputs shorter than this are emitted as literals only (liblz4's `LZ4_minLength`): a match
/// needs an earlier occurrence (offset at least 1) and must start at least [`MFLIMIT`] bytes
/// before the end.
pub(super) const MIN_COMPRESSIBLE: usize = MFLIMIT + 1;

/// Refuses inputs above [`MAX_INPUT_SIZE`].
pub(super) fn check_input_size(src: &[u8]) -> Result<(), Error> {
    if src.len() > MAX_INPUT_SIZE {
        return Err(Error::InputTooLarge {
            len: src.len(),
            max: MAX_INPUT_SIZE,
        });
    }
    Ok(())
}

/// The width of the whole-word reads and copies.
const WORD: usize = 8;

/// The little-endian `u16` at `src[pos..]` (checked).
#[inline(always)]
pub(super) fn read_u16(src: &[u8], pos: usize) -> u16 {
    u16::from_le_bytes(src[pos..pos + 2].try_into().unwrap_or([0; 2]))
}

/// The little-endian `u32` at `src[pos..]` (checked).
#[inline(always)]
pub(super) fn read_u32(src: &[u8], pos: usize) -> u32 {
    let bytes: [u8; 4] = src[pos..pos + 4].try_into().unwrap_or([0; 4]);
    u32::from_le_bytes(bytes)
}

/// The little-endian `u64` at `src[pos..]` (checked).
#[inline(always)]
pub(super) fn read_u64(src: &[u8], pos: usize) -> u64 {
    let bytes: [u8; 8] = src[pos..pos + 8].try_into().unwrap_or([0; 8]);
    u64::from_le_bytes(bytes)
}

/// Reads a little-endian `u32` or `u64` from `src` at `pos` in the parse's hot loop, where the
/// caller has established that the whole word lies inside `src` (each use says why; debug builds
/// assert it). With the `unsafe` feature the read skips the bounds check; without it, it is an
/// ordinary checked slice read.
macro_rules! word_at {
    ($ty:ty, $src:expr, $pos:expr) => {{
        let (src, pos): (&[u8], usize) = ($src, $pos);
        debug_assert!(pos + core::mem::size_of::<$ty>() <= src.len());
        #[cfg(feature = "unsafe")]
        // SAFETY: the use site's invariant (stated there) puts the word inside `src`, and any
        // bit pattern is a valid integer; the read is unaligned.
        let word = unsafe { src.as_ptr().add(pos).cast::<$ty>().read_unaligned() };
        #[cfg(not(feature = "unsafe"))]
        let word = <$ty>::from_ne_bytes(
            src[pos..pos + core::mem::size_of::<$ty>()]
                .try_into()
                .unwrap_or_default(),
        );
        <$ty>::from_le(word)
    }};
}

/// `src[pos]` in the parse's hot loop, where the caller has established `pos < src.len()`
/// (unchecked with the `unsafe` feature, like [`word_at`]).
macro_rules! byte_at {
    ($src:expr, $pos:expr) => {{
        let (src, pos): (&[u8], usize) = ($src, $pos);
        debug_assert!(pos < src.len());
        #[cfg(feature = "unsafe")]
        // SAFETY: the use site's invariant (stated there) puts `pos` inside `src`.
        let byte = unsafe { *src.get_unchecked(pos) };
        #[cfg(not(feature = "unsafe"))]
        let byte = src[pos];
        byte
    }};
}

/// Writes the `N` bytes of the array `$bytes` at `dst[pos..]` where the caller has established
/// room (each use says why; debug builds assert it): unchecked with the `unsafe` feature, a
/// checked slice write without it.
macro_rules! put_at {
    ($dst:expr, $pos:expr, $bytes:expr) => {{
        let (dst, pos): (&mut [u8], usize) = ($dst, $pos);
        let bytes = $bytes;
        debug_assert!(pos + bytes.len() <= dst.len());
        #[cfg(feature = "unsafe")]
        // SAFETY: the use site's invariant (stated there) puts the written bytes inside `dst`;
        // the write is unaligned.
        unsafe {
            core::ptr::copy_nonoverlapping(bytes.as_ptr(), dst.as_mut_ptr().add(pos), bytes.len())
        };
        #[cfg(not(feature = "unsafe"))]
        dst[pos..pos + bytes.len()].copy_from_slice(&bytes);
    }};
}

/// Declares an *unchecked function* (see the module documentation): with the `unsafe` feature an
/// `unsafe fn`, whose `# Safety` section states the caller's duty; without it a safe `fn` (its
/// [`word_at!`], [`byte_at!`] and [`put_at!`] accesses are then checked, and the crate is
/// `#![forbid(unsafe_code)]`, which forbids declaring an `unsafe fn`).
macro_rules! unchecked_fn {
    ($(#[$attr:meta])* $vis:vis fn $($rest:tt)*) => {
        #[cfg(feature = "unsafe")]
        $(#[$attr])*
        $vis unsafe fn $($rest)*
        #[cfg(not(feature = "unsafe"))]
        $(#[$attr])*
        #[allow(clippy::unnecessary_safety_doc)]
        $vis fn $($rest)*
    };
}

/// Calls a function declared by [`unchecked_fn!`]; the use site says, in a `// SAFETY:` comment,
/// where it establishes the callee's duty.
macro_rules! call_unchecked {
    ($call:expr) => {{
        #[cfg(feature = "unsafe")]
        // SAFETY: the use site's comment (above it) says where the callee's duty is established.
        let value = unsafe { $call };
        #[cfg(not(feature = "unsafe"))]
        let value = $call;
        value
    }};
}

// Path-based exports, so that both compressors' hot loops use these (single) definitions.
pub(super) use byte_at;
pub(super) use call_unchecked;
pub(super) use put_at;
pub(super) use unchecked_fn;
pub(super) use word_at;

/// Knuth's multiplicative hash of a 4-byte word, to `LOG` bits (liblz4's `LZ4_hash4` and
/// `LZ4HC_hashPtr`): the fast compressor's `u16` table uses 13 bits, the HC chains 15 and level
/// 2's short table 14.
#[inline(always)]
pub(super) fn hash4<const LOG: u32>(word: u32) -> usize {
    (word.wrapping_mul(2_654_435_761) >> (32 - LOG)) as usize
}

unchecked_fn! {
    /// Number of equal bytes at `src[a..]` and `src[b..]`, counting positions `a..limit`.
    ///
    /// # Safety
    ///
    /// `a <= limit <= src.len()`, and `b + 8 <= src.len()` if `a + 8 <= limit` (as any `b < a`
    /// gives): the first 8 bytes at `a` and at `b` are then read unchecked (the rest is read
    /// through checked slices).
    #[inline(always)]
    pub(super) fn count_common(src: &[u8], a: usize, b: usize, limit: usize) -> usize {
        debug_assert!(a <= limit && limit <= src.len());
        // Most matches are short: settle them with one word compare before setting up the loop.
        if limit - a >= WORD {
            // In bounds: a + 8 <= limit <= src.len() and b + 8 <= src.len() (the caller's duty).
            debug_assert!(b + WORD <= src.len());
            let diff = word_at!(u64, src, a) ^ word_at!(u64, src, b);
            if diff != 0 {
                return (diff.trailing_zeros() / 8) as usize;
            }
            return WORD + count_common_long(src, a + WORD, b + WORD, limit);
        }
        count_common_long(src, a, b, limit)
    }
}

unchecked_fn! {
    /// [`count_common`] for the fast parse's `u16` table, which also returns the little-endian
    /// `u32` at `a + count` (where the next probe hashes and compares): for a match that ends in
    /// the first word it is taken from the words compared (shifted by the count), not loaded
    /// again at an address that waits for the count.
    ///
    /// # Safety
    ///
    /// `a <= limit`, `limit + 4 <= src.len()`, and `b + 8 <= src.len()` if `a + 8 <= limit`: the
    /// 12 bytes at `a` and the 8 at `b` are then read unchecked, and the word at
    /// `a + count <= limit` in any case.
    #[inline(always)]
    pub(super) fn count_common_next(
        src: &[u8],
        a: usize,
        b: usize,
        limit: usize,
    ) -> (usize, u32) {
        debug_assert!(a <= limit && limit + 4 <= src.len());
        if limit - a >= WORD {
            // In bounds: a + 12 <= limit + 4 <= src.len() and b + 8 <= src.len() (the duty).
            debug_assert!(b + WORD <= src.len());
            let first = word_at!(u64, src, a);
            let after = word_at!(u32, src, a + 8);
            let diff = first ^ word_at!(u64, src, b);
            if diff != 0 {
                // 8 × the count, the count being 0 to 7.
                let shift = diff.trailing_zeros() & 56;
                // The word at `a + count`, from the 12 bytes at `a` (a double shift, no branch).
                let word = ((u128::from(first) | (u128::from(after) << 64)) >> shift) as u32;
                return ((shift / 8) as usize, word);
            }
            let count = WORD + count_common_long(src, a + WORD, b + WORD, limit);
            // In bounds: a + count <= limit, and limit + 4 <= src.len() (the duty).
            return (count, word_at!(u32, src, a + count));
        }
        let count = count_common_long(src, a, b, limit);
        // In bounds: as above.
        (count, word_at!(u32, src, a + count))
    }
}

unchecked_fn! {
    /// [`count_common_next`] for the fast parse's `u32` table, whose hash reads 5 bytes: returns
    /// the bytes at `a + count`, at least 5 of them in the low bytes of the `u64`: for a match
    /// that ends in the first word they are taken from the bytes compared (shifted by the
    /// count), not loaded again at an address that waits for the count.
    ///
    /// # Safety
    ///
    /// `3 <= a <= limit`, `limit + 5 <= src.len()`, and `b + 8 <= src.len()` if `a + 8 <= limit`:
    /// the 12 bytes at `a` and the 8 at `b` are then read unchecked, and the 8 bytes ending 5
    /// past `a + count <= limit` in any case.
    #[inline(always)]
    pub(super) fn count_common_next5(
        src: &[u8],
        a: usize,
        b: usize,
        limit: usize,
    ) -> (usize, u64) {
        debug_assert!(3 <= a && a <= limit && limit + 5 <= src.len());
        if limit - a >= WORD {
            // In bounds: a + 12 <= limit + 4 < src.len() and b + 8 <= src.len() (the duty).
            debug_assert!(b + WORD <= src.len());
            let first = word_at!(u64, src, a);
            let after = word_at!(u32, src, a + 8);
            let diff = first ^ word_at!(u64, src, b);
            if diff != 0 {
                // 8 × the count, the count being 0 to 7.
                let shift = diff.trailing_zeros() & 56;
                // The bytes at `a + count`, from the 12 bytes at `a` (a double shift, no
                // branch): `12 - count >= 5` of them.
                let word = ((u128::from(first) | (u128::from(after) << 64)) >> shift) as u64;
                return ((shift / 8) as usize, word);
            }
            let count = WORD + count_common_long(src, a + WORD, b + WORD, limit);
            // In bounds: a + count - 3 >= 0, and a + count + 5 <= limit + 5 <= src.len().
            return (count, word_at!(u64, src, a + count - 3) >> 24);
        }
        let count = count_common_long(src, a, b, limit);
        // In bounds: as above.
        (count, word_at!(u64, src, a + count - 3) >> 24)
    }
}

/// [`count_common`] past its first word.
#[inline]
pub(super) fn count_common_long(src: &[u8], a: usize, b: usize, limit: usize) -> usize {
    let ahead = &src[a..limit];
    let behind = &src[b..b + ahead.len()];
    let mut count = 0;
    for (x, y) in ahead.chunks_exact(8).zip(behind.chunks_exact(8)) {
        let x = u64::from_le_bytes(x.try_into().unwrap_or([0; 8]));
        let y = u64::from_le_bytes(y.try_into().unwrap_or([0; 8]));
        let diff = x ^ y;
        if diff != 0 {
            return count + (diff.trailing_zeros() / 8) as usize;
        }
        count += 8;
    }
    count
        + ahead[count..]
            .iter()
            .zip(&behind[count..])
            .take_while(|(x, y)| x == y)
            .count()
}

/// Number of equal leading bytes of `ahead` and `behind` (at most the shorter length), compared
/// a word at a time: the match counting of parses whose match may lie in another slice (a
/// dictionary).
#[inline]
pub(super) fn common_prefix(ahead: &[u8], behind: &[u8]) -> usize {
    let len = ahead.len().min(behind.len());
    let (ahead, behind) = (&ahead[..len], &behind[..len]);
    let mut count = 0;
    for (x, y) in ahead.chunks_exact(8).zip(behind.chunks_exact(8)) {
        let x = u64::from_le_bytes(x.try_into().unwrap_or([0; 8]));
        let y = u64::from_le_bytes(y.try_into().unwrap_or([0; 8]));
        let diff = x ^ y;
        if diff != 0 {
            return count + (diff.trailing_zeros() / 8) as usize;
        }
        count += 8;
    }
    count
        + ahead[count..]
            .iter()
            .zip(&behind[count..])
            .take_while(|(x, y)| x == y)
            .count()
}

/// Appends sequences to a block being compressed (see the module documentation).
pub(super) struct SequenceWriter<'a> {
    dst: &'a mut [u8],
    /// Bytes written so far.
    pos: usize,
}

impl<'a> SequenceWriter<'a> {
    /// A writer at the start of `dst`.
    #[inline(always)]
    pub(super) fn new(dst: &'a mut [u8]) -> Self {
        Self { dst, pos: 0 }
    }

    /// Bytes written so far.
    #[inline(always)]
    pub(super) fn written(&self) -> usize {
        self.pos
    }

    #[inline(always)]
    fn ensure(&self, len: usize) -> Result<(), Error> {
        if len > self.dst.len() - self.pos {
            Err(Error::OutputTooSmall {
                capacity: self.dst.len(),
                needed: self.pos + len,
            })
        } else {
            Ok(())
        }
    }

    /// Number of extension bytes a length of `len` (beyond the nibble's 15) takes.
    #[inline(always)]
    fn extension_bytes(len: usize, mask: usize) -> usize {
        if len >= mask {
            (len - mask) / 255 + 1
        } else {
            0
        }
    }

    #[inline(always)]
    fn write_extension(&mut self, mut len: usize) {
        while len >= 255 {
            self.dst[self.pos] = 255;
            self.pos += 1;
            len -= 255;
        }
        self.dst[self.pos] = len as u8;
        self.pos += 1;
    }

    unchecked_fn! {
        /// [`Self::write_extension`] without bounds checks, for the sequences written with
        /// whole words (see [`Self::sequence`]).
        ///
        /// # Safety
        ///
        /// `dst` has room for the `len / 255 + 1` bytes past the bytes written so far.
        #[inline(always)]
        fn write_extension_wide(&mut self, mut len: usize) {
            while len >= 255 {
                // In bounds: the caller's duty.
                put_at!(self.dst, self.pos, [255u8]);
                self.pos += 1;
                len -= 255;
            }
            // In bounds: the caller's duty.
            put_at!(self.dst, self.pos, [len as u8]);
            self.pos += 1;
        }
    }

    unchecked_fn! {
        /// Writes one sequence: the literals `src[anchor..ip]`, then a match of
        /// `MINMATCH + match_code` bytes at `offset`.
        ///
        /// With `EXACT` (a `dst` smaller than the bound) the exact size is checked first; the
        /// literals are then copied in whole words as below where that check shows the room for
        /// it (in `dst`, and in `src` after `ip`), else exactly. Without it the size is not
        /// computed, and the literals are copied in whole 8-byte words, read and written up to
        /// 7 bytes past their end.
        ///
        /// # Safety
        ///
        /// With `EXACT`, none: every access is checked, or covered by the checks made here.
        /// Without it: `anchor <= ip` and `ip + 8 <= src.len()`, and `dst` has room, past the
        /// bytes written so far, for the token, the literal length extension, the literals and
        /// 8 more bytes (the whole words of the literal copy, and the offset), and for the
        /// offset and the match length extension.
        ///
        /// A `dst` of [`compress_bound`](super::compress_bound)`(n)` bytes has that room at every
        /// sequence of a block of `n` bytes whose sequences are consecutive (each one's literals
        /// start where the previous match ended) and whose matches end inside the block: a
        /// sequence never produces more than `literal_len / 255` bytes beyond the input it
        /// consumes, so the bytes written stay below `n + n / 255`, 16 bytes under the bound.
        #[inline(always)]
        pub(super) fn sequence<const EXACT: bool>(
            &mut self,
            src: &[u8],
            anchor: usize,
            ip: usize,
            offset: usize,
            match_code: usize,
        ) -> Result<(), Error> {
            debug_assert!(anchor <= ip && ip + WORD <= src.len());
            let literal_len = ip.wrapping_sub(anchor);
            // Whether the literals are copied in whole words: always without `EXACT` (the
            // caller's duty); with it, where the checks below show room for the words.
            let wide = if EXACT {
                // A cheap bound first: `total + 1 + WORD` (below) is at most this, as an
                // extension of a length `l` takes at most `l / 255 + 1 <= (l >> 7) + 1` bytes;
                // `literal_len <= ip` keeps it from wrapping.
                let room = self.dst.len() - self.pos;
                let ample = anchor <= ip
                    && ip + WORD <= src.len()
                    && literal_len + (literal_len >> 7) + (match_code >> 7) + 14 <= room;
                if !ample {
                    let total = 1
                        + Self::extension_bytes(literal_len, RUN_MASK)
                        + literal_len
                        + 2
                        + Self::extension_bytes(match_code, ML_MASK);
                    // Leave room for at least the final (possibly empty) literal run's token.
                    self.ensure(total + 1)?;
                }
                // With `ample`, the words end at most 7 bytes past the literals, which end 2
                // bytes or more before `total`, inside `room`; they are read from
                // `src[anchor..]`, ending before `ip + 8 <= src.len()`.
                ample
            } else {
                true
            };
            let token = ((literal_len.min(RUN_MASK) << 4) | match_code.min(ML_MASK)) as u8;
            if wide {
                // In bounds: the room the caller vouches for (without `EXACT`) or checked above.
                put_at!(self.dst, self.pos, [token]);
            } else {
                self.dst[self.pos] = token;
            }
            self.pos += 1;
            if literal_len >= RUN_MASK {
                if wide {
                    // SAFETY: the room the caller vouches for (without `EXACT`), or checked
                    // above (the extension is part of `total`).
                    call_unchecked!(self.write_extension_wide(literal_len - RUN_MASK));
                } else {
                    self.write_extension(literal_len - RUN_MASK);
                }
            }
            if wide {
                let mut copied = 0;
                while copied < literal_len {
                    // In bounds (the caller's duty without `EXACT`, checked above with it): the
                    // word ends before `ip + 8 <= src.len()`, and is written at most 7 bytes past
                    // the literals, inside the room vouched for or checked.
                    let chunk = word_at!(u64, src, anchor + copied);
                    put_at!(self.dst, self.pos + copied, chunk.to_le_bytes());
                    copied += WORD;
                }
                self.pos += literal_len;
                // In bounds: the room the caller vouches for, or checked above.
                put_at!(self.dst, self.pos, (offset as u16).to_le_bytes());
            } else {
                self.dst[self.pos..self.pos + literal_len].copy_from_slice(&src[anchor..ip]);
                self.pos += literal_len;
                self.dst[self.pos..self.pos + 2].copy_from_slice(&(offset as u16).to_le_bytes());
            }
            self.pos += 2;
            if match_code >= ML_MASK {
                if wide {
                    // SAFETY: the room the caller vouches for (without `EXACT`), or checked
                    // above (the extension is part of `total`).
                    call_unchecked!(self.write_extension_wide(match_code - ML_MASK));
                } else {
                    self.write_extension(match_code - ML_MASK);
                }
            }
            Ok(())
        }
    }

    /// Writes the final literal-only sequence.
    #[inline]
    pub(super) fn last_literals(&mut self, literals: &[u8]) -> Result<(), Error> {
        let literal_len = literals.len();
        self.ensure(1 + Self::extension_bytes(literal_len, RUN_MASK) + literal_len)?;
        if literal_len >= RUN_MASK {
            self.dst[self.pos] = (RUN_MASK << 4) as u8;
            self.pos += 1;
            self.write_extension(literal_len - RUN_MASK);
        } else {
            self.dst[self.pos] = (literal_len << 4) as u8;
            self.pos += 1;
        }
        self.dst[self.pos..self.pos + literal_len].copy_from_slice(literals);
        self.pos += literal_len;
        Ok(())
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;

    /// Deterministic bytes from a 2-letter alphabet, so that matches of every length occur.
    pub(in crate::block) fn binary(len: usize, seed: u64) -> Vec<u8> {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                b'a' + (state >> 63) as u8
            })
            .collect()
    }

    fn common_naive(src: &[u8], a: usize, b: usize, limit: usize) -> usize {
        (a..limit).take_while(|&i| src[i] == src[b + i - a]).count()
    }

    /// `count_common_next`: matches ending at every byte of the first word and past it, and the
    /// word after them.
    #[test]
    fn count_common_next_at_every_edge() {
        for seed in 0..24 {
            let buf = binary(48, seed);
            for len in [16, 17, 24, 33, 48] {
                let buf = &buf[..len];
                for limit in 8..=len - 4 {
                    for a in 0..=limit {
                        for b in (0..a).filter(|&b| b + 8 <= len) {
                            let want = common_naive(buf, a, b, limit);
                            // SAFETY: `a <= limit`, `limit + 4 <= len`, `b + 8 <= len`.
                            let got = call_unchecked!(count_common_next(buf, a, b, limit));
                            let word =
                                u32::from_le_bytes(buf[a + want..a + want + 4].try_into().unwrap());
                            assert_eq!(got, (want, word), "seed {seed}, {b} {a} {limit} of {len}");
                        }
                    }
                }
            }
        }
    }

    /// `count_common_next5`: matches ending at every byte of the first word and past it, and the
    /// bytes after them.
    #[test]
    fn count_common_next5_at_every_edge() {
        for seed in 0..24 {
            let buf = binary(48, seed);
            for len in [16, 17, 24, 33, 48] {
                let buf = &buf[..len];
                for limit in 3..=len - 5 {
                    for a in 3..=limit {
                        for b in (0..a).filter(|&b| b + 8 <= len) {
                            let want = common_naive(buf, a, b, limit);
                            // SAFETY: `3 <= a <= limit`, `limit + 5 <= len`, `b + 8 <= len`.
                            let (count, word) =
                                call_unchecked!(count_common_next5(buf, a, b, limit));
                            assert_eq!(count, want, "seed {seed}, {b} {a} {limit} of {len}");
                            let mut bytes = [0u8; 8];
                            bytes[..5].copy_from_slice(&buf[a + want..a + want + 5]);
                            assert_eq!(
                                word & 0xff_ffff_ffff,
                                u64::from_le_bytes(bytes),
                                "seed {seed}, {b} {a} {limit} of {len}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Every `b < a <= limit <= len` of inputs up to 40 bytes: the match ending exactly at the
    /// limit, 0 to 7 bytes before it and past the first word, limits 0 to 16 bytes from the end
    /// of `src`, and `src` cut to exactly `limit` bytes.
    #[test]
    fn count_common_at_every_edge() {
        for seed in 0..24 {
            let buf = binary(40, seed);
            for len in [9, 16, 17, 24, 40] {
                let buf = &buf[..len];
                for limit in 0..=len {
                    for a in 0..=limit {
                        for b in 0..a {
                            let want = common_naive(buf, a, b, limit);
                            for src in [buf, &buf[..limit]] {
                                // SAFETY: `b < a <= limit <= src.len()`.
                                let got = call_unchecked!(count_common(src, a, b, limit));
                                assert_eq!(got, want, "seed {seed}, {b} {a} {limit} of {len}");
                            }
                        }
                    }
                }
            }
        }
        // Equal runs end exactly at the limit, wherever it is relative to the first word.
        let run = [7u8; 64];
        for limit in 1..=run.len() {
            for a in 1..=limit {
                // SAFETY: `a - 1 < a <= limit <= run.len()`.
                let got = call_unchecked!(count_common(&run[..limit], a, a - 1, limit));
                assert_eq!(got, limit - a);
            }
        }
    }

    /// The sequence `src[anchor..ip]` + match as the format spells it, written byte by byte.
    fn sequence_naive(literals: &[u8], offset: usize, match_code: usize) -> Vec<u8> {
        let mut out = vec![((literals.len().min(15) << 4) | match_code.min(15)) as u8];
        let extend = |out: &mut Vec<u8>, len: usize| {
            if len >= 15 {
                let mut rest = len - 15;
                while rest >= 255 {
                    out.push(255);
                    rest -= 255;
                }
                out.push(rest as u8);
            }
        };
        extend(&mut out, literals.len());
        out.extend_from_slice(literals);
        out.extend_from_slice(&(offset as u16).to_le_bytes());
        extend(&mut out, match_code);
        out
    }

    /// Both modes at the edges of their duty: literal and match lengths around the nibble's 15
    /// and each extension byte's 255, `ip` exactly 8 bytes before the end of `src`, and the
    /// bound-sized mode in a `dst` with exactly the room it needs; the exact mode in `dst`s
    /// from one byte smaller than the sequence (plus a token) to past the room where it copies
    /// the literals in whole words.
    #[test]
    fn sequence_at_every_edge() {
        let lengths = [0usize, 1, 7, 8, 9, 14, 15, 16, 269, 270, 271, 524, 525, 600];
        let src = binary(700, 99);
        for &literal_len in &lengths {
            for &match_code in &lengths {
                for anchor in [0, 3] {
                    let ip = anchor + literal_len;
                    let src = &src[..ip + WORD];
                    let offset = 1 + (literal_len * 7 + match_code) % 65535;
                    let want = sequence_naive(&src[anchor..ip], offset, match_code);

                    // Bound-sized: room for the token, the extension, the literals and 8 bytes
                    // (and the match extension, written with checks, after the offset).
                    let literal_ext = SequenceWriter::extension_bytes(literal_len, RUN_MASK);
                    let match_ext = SequenceWriter::extension_bytes(match_code, ML_MASK);
                    let room = 1 + literal_ext + literal_len + WORD.max(2 + match_ext);
                    for prefix in [0, 5] {
                        let mut dst = vec![0xEEu8; prefix + room];
                        let mut out = SequenceWriter::new(&mut dst);
                        out.pos = prefix;
                        // SAFETY: `anchor <= ip`, `ip + 8 == src.len()`, and `dst` has the room
                        // (computed above) past `prefix`.
                        call_unchecked!(out.sequence::<false>(src, anchor, ip, offset, match_code))
                            .unwrap();
                        assert_eq!(out.written(), prefix + want.len());
                        assert!(dst[..prefix].iter().all(|&b| b == 0xEE));
                        assert_eq!(&dst[prefix..prefix + want.len()], &want[..]);
                    }

                    // Exact: the sequence and the final run's token fit, or an error and no
                    // byte written; from exactly that room to past where the whole-word copy
                    // starts (`literal_len + (literal_len >> 7) + (match_code >> 7) + 14`).
                    let ample = literal_len + (literal_len >> 7) + (match_code >> 7) + 14;
                    for capacity in want.len()..=ample.max(want.len() + 1) + 1 {
                        let mut dst = vec![0xEEu8; capacity];
                        let mut out = SequenceWriter::new(&mut dst);
                        // SAFETY: no duty with `EXACT`.
                        let result = call_unchecked!(
                            out.sequence::<true>(src, anchor, ip, offset, match_code)
                        );
                        if capacity > want.len() {
                            result.unwrap();
                            assert_eq!(out.written(), want.len());
                            assert_eq!(&dst[..want.len()], &want[..]);
                        } else {
                            assert!(matches!(result, Err(Error::OutputTooSmall { .. })));
                            assert!(dst.iter().all(|&b| b == 0xEE));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn last_literals_at_every_edge() {
        let src = binary(600, 5);
        for len in [0usize, 1, 14, 15, 16, 269, 270, 271, 524, 525, 600] {
            let literals = &src[..len];
            let mut want = sequence_naive(literals, 0, 0);
            want.truncate(want.len() - 2); // no offset after the last literals
            for capacity in [want.len(), want.len() - 1] {
                let mut dst = vec![0xEEu8; capacity];
                let mut out = SequenceWriter::new(&mut dst);
                let result = out.last_literals(literals);
                if capacity == want.len() {
                    result.unwrap();
                    assert_eq!(out.written(), want.len());
                    assert_eq!(dst, want);
                } else {
                    assert!(matches!(result, Err(Error::OutputTooSmall { .. })));
                    assert!(dst.iter().all(|&b| b == 0xEE));
                }
            }
        }
    }

    #[test]
    fn hash4_is_knuths() {
        for word in [0u32, 1, 0x6162_6364, u32::MAX] {
            let product = word.wrapping_mul(2_654_435_761);
            assert_eq!(hash4::<13>(word), (product >> 19) as usize);
            assert_eq!(hash4::<14>(word), (product >> 18) as usize);
            assert_eq!(hash4::<15>(word), (product >> 17) as usize);
        }
    }
}

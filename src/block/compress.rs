//! The fast compressor: output byte-identical to liblz4 1.10 `LZ4_compress_fast` (64-bit,
//! little-endian build) at every acceleration.
//!
//! # The algorithm
//!
//! A single-probe hash table maps a hash of the next 4 (or 5) bytes to the last position that
//! had it. The parse walks the input looking for a position whose table candidate starts with the
//! same 4 bytes:
//!
//! - **Table type.** Inputs under [`U16_TABLE_LIMIT`] (65,547) bytes use 8192 `u16` slots and a
//!   multiplicative hash of the 4-byte little-endian word; larger inputs use 4096 `u32` slots and
//!   a hash of the low 5 bytes of the 8-byte word, and skip candidates more than 65,535 back.
//!   Both tables start zeroed, and a zero slot is a real candidate: position 0.
//! - **Skipping.** The search advances by `step`, which starts at 1 and becomes
//!   `attempts >> 6`, with the attempt counter starting at `acceleration << 6` for each new
//!   search: the longer nothing matches, the faster it skips. Each probe stores its own position
//!   in the table before comparing.
//! - **Catch-up.** A found match is extended backwards while the bytes before both ends agree
//!   (not before the pending literals, not before position 0).
//! - **After a match**, the position two bytes before its end is inserted, and the end position
//!   itself is probed at once: a hit there becomes a sequence with no literals.
//! - **End of block.** Matches stop [`LASTLITERALS`] bytes before the end, no match starts in the
//!   last [`MFLIMIT`] bytes, and inputs under 13 bytes are one literal run: the margins the
//!   decoders rely on.
//!
//! Output is written with exact capacity checks, so a destination smaller than
//! [`compress_bound`](super::compress_bound) either receives the same bytes or gets
//! [`Error::OutputTooSmall`], and nothing past its end is touched.

#![cfg_attr(not(feature = "unsafe"), forbid(unsafe_code))]

use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

use super::sequence::{
    byte_at, check_input_size, count_common, hash4, read_u32, read_u64, word_at, SequenceWriter,
    MIN_COMPRESSIBLE,
};
use super::{compress_bound, LASTLITERALS, MAX_DISTANCE, MAX_INPUT_SIZE, MFLIMIT, MINMATCH};
use crate::Error;

/// Inputs shorter than this use the `u16` table (liblz4's `LZ4_64Klimit` = 64 KiB + MFLIMIT - 1).
pub(crate) const U16_TABLE_LIMIT: usize = 65536 + MFLIMIT - 1;
/// liblz4's `LZ4_ACCELERATION_MAX`: larger accelerations are clamped to it.
pub const ACCELERATION_MAX: u32 = 65537;
/// The attempt counter's shift (liblz4's `LZ4_skipTrigger`).
const SKIP_TRIGGER: u32 = 6;

/// Bits of the `u16` table's hash.
const U16_TABLE_LOG: u32 = 13;
const U16_TABLE_SLOTS: usize = 1 << U16_TABLE_LOG;
const U32_TABLE_SLOTS: usize = 4096;

/// A position table of one of liblz4's two layouts.
trait PositionTable {
    /// How many bytes [`PositionTable::hash`] reads at a position.
    const HASH_READ: usize;
    /// Whether candidates further than [`MAX_DISTANCE`] back must be skipped (the `u16` table is
    /// only used on inputs short enough that no candidate can be).
    const CHECK_DISTANCE: bool;
    /// The hash of the position whose next 8 bytes (little-endian) are `word`.
    fn hash_word(word: u64) -> usize;
    /// The hash of position `pos` (a checked read of [`PositionTable::HASH_READ`] bytes).
    fn hash(src: &[u8], pos: usize) -> usize;
    fn get(&self, hash: usize) -> usize;
    fn put(&mut self, hash: usize, pos: usize);
    fn reset(&mut self);
}

/// 8192 `u16` slots, hashed on the 4-byte word (inputs under 65,547 bytes).
struct U16Table([u16; U16_TABLE_SLOTS]);

/// 4096 `u32` slots, hashed on the low 5 bytes of the 8-byte word.
struct U32Table([u32; U32_TABLE_SLOTS]);

impl U16Table {
    fn new() -> Self {
        Self([0; U16_TABLE_SLOTS])
    }
}

impl U32Table {
    fn new() -> Self {
        Self([0; U32_TABLE_SLOTS])
    }
}

impl PositionTable for U16Table {
    const HASH_READ: usize = 4;
    const CHECK_DISTANCE: bool = false;

    #[inline(always)]
    fn hash_word(word: u64) -> usize {
        hash4::<U16_TABLE_LOG>(word as u32)
    }
    #[inline(always)]
    fn hash(src: &[u8], pos: usize) -> usize {
        Self::hash_word(u64::from(read_u32(src, pos)))
    }
    #[inline(always)]
    fn get(&self, hash: usize) -> usize {
        usize::from(self.0[hash & (U16_TABLE_SLOTS - 1)])
    }
    #[inline(always)]
    fn put(&mut self, hash: usize, pos: usize) {
        debug_assert!(pos < U16_TABLE_LIMIT);
        self.0[hash & (U16_TABLE_SLOTS - 1)] = pos as u16;
    }
    fn reset(&mut self) {
        self.0.fill(0);
    }
}

impl PositionTable for U32Table {
    const HASH_READ: usize = 8;
    const CHECK_DISTANCE: bool = true;

    #[inline(always)]
    fn hash_word(word: u64) -> usize {
        ((word << 24).wrapping_mul(889_523_592_379) >> 52) as usize
    }
    #[inline(always)]
    fn hash(src: &[u8], pos: usize) -> usize {
        Self::hash_word(read_u64(src, pos))
    }
    #[inline(always)]
    fn get(&self, hash: usize) -> usize {
        self.0[hash & (U32_TABLE_SLOTS - 1)] as usize
    }
    #[inline(always)]
    fn put(&mut self, hash: usize, pos: usize) {
        debug_assert!(pos <= MAX_INPUT_SIZE);
        self.0[hash & (U32_TABLE_SLOTS - 1)] = pos as u32;
    }
    fn reset(&mut self) {
        self.0.fill(0);
    }
}

/// Reusable compressor state: the position tables, so that compressing many blocks allocates
/// nothing per call.
///
/// Each call starts from a cleared table, so a reused `Compressor` produces exactly the bytes of
/// a fresh one (and of liblz4's `LZ4_compress_fast`).
///
/// ```
/// let mut compressor = lz4_simd::block::Compressor::new();
/// let mut out = vec![0u8; lz4_simd::block::compress_bound(1000)];
/// for chunk in [&[7u8; 1000][..], &[9u8; 1000][..]] {
///     let n = compressor.compress_into(chunk, &mut out, 1).unwrap();
///     assert_eq!(&out[..n], &lz4_simd::block::compress(chunk)[..]);
/// }
/// ```
pub struct Compressor {
    small: Box<U16Table>,
    large: Box<U32Table>,
}

impl Default for Compressor {
    fn default() -> Self {
        Self::new()
    }
}

impl core::fmt::Debug for Compressor {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Compressor").finish_non_exhaustive()
    }
}

impl Compressor {
    /// A compressor with its tables allocated (32 KiB on the heap).
    pub fn new() -> Self {
        Self {
            small: Box::new(U16Table::new()),
            large: Box::new(U32Table::new()),
        }
    }

    /// Compresses `src` into `dst` at the given acceleration (clamped to `1..=65537`), returning
    /// the compressed length. See [`compress_into`](super::compress_into).
    pub fn compress_into(
        &mut self,
        src: &[u8],
        dst: &mut [u8],
        acceleration: u32,
    ) -> Result<usize, Error> {
        self.compress_with_history_into(src, 0, dst, acceleration)
    }

    /// Compresses `window[history_len..]` into `dst`, letting matches reach back into
    /// `window[..history_len]` (only its last 64 KiB, the largest offset the format has), and
    /// returns the compressed length. The block decodes with the same history in front of it, for
    /// example by [`decompress_into_with_history`](super::decompress_into_with_history): this is
    /// how linked frame blocks and dictionaries work.
    ///
    /// The history is indexed every [`HISTORY_STRIDE`] bytes before the parse starts; with
    /// `history_len == 0` the output is exactly that of [`compress_into`](super::compress_into).
    /// `history_len` above `window.len()` counts as `window.len()`.
    pub fn compress_with_history_into(
        &mut self,
        window: &[u8],
        history_len: usize,
        dst: &mut [u8],
        acceleration: u32,
    ) -> Result<usize, Error> {
        let history_len = history_len.min(window.len());
        // Only the last MAX_DISTANCE + 1 bytes of history can be referenced.
        let skip = history_len.saturating_sub(MAX_DISTANCE + 1);
        let (window, start) = (&window[skip..], history_len - skip);
        check_input_size(&window[start..])?;
        let acceleration = acceleration.clamp(1, ACCELERATION_MAX);
        if window.len() < U16_TABLE_LIMIT {
            self.small.reset();
            compress_with(&mut *self.small, window, start, dst, acceleration)
        } else {
            self.large.reset();
            compress_with(&mut *self.large, window, start, dst, acceleration)
        }
    }

    /// Compresses `src` into a new `Vec` (see [`compress_fast`](super::compress_fast)).
    pub fn compress(&mut self, src: &[u8], acceleration: u32) -> Vec<u8> {
        let mut out = vec![0u8; compress_bound(src.len())];
        match self.compress_into(src, &mut out, acceleration) {
            Ok(len) => {
                out.truncate(len);
                out
            }
            // Only an input above MAX_INPUT_SIZE fails with a bound-sized buffer.
            Err(_) => Vec::new(),
        }
    }
}

/// One-shot compression with a fresh table on the stack (16 KiB), as `LZ4_compress_fast` does.
pub(crate) fn compress_once(src: &[u8], dst: &mut [u8], acceleration: u32) -> Result<usize, Error> {
    check_input_size(src)?;
    let acceleration = acceleration.clamp(1, ACCELERATION_MAX);
    if src.len() < U16_TABLE_LIMIT {
        compress_with(&mut U16Table::new(), src, 0, dst, acceleration)
    } else {
        compress_with(&mut U32Table::new(), src, 0, dst, acceleration)
    }
}

/// History is indexed at every this many positions (liblz4's `LZ4_loadDict` uses the same
/// stride): the 4096- or 8192-slot table keeps about the same recent positions as indexing every
/// byte would, at a third of the cost.
pub const HISTORY_STRIDE: usize = 3;

/// Compresses `src[start..]` with a cleared `table`, `src[..start]` being history (at most 64 KiB);
/// `acceleration` is already clamped.
fn compress_with<T: PositionTable>(
    table: &mut T,
    src: &[u8],
    start: usize,
    dst: &mut [u8],
    acceleration: u32,
) -> Result<usize, Error> {
    debug_assert!(start <= MAX_DISTANCE + 1 && start <= src.len());
    // Index the history. Only positions whose hash bytes lie inside `src` can be hashed.
    let hashable_end = (src.len() + 1).saturating_sub(T::HASH_READ).min(start);
    for pos in (0..hashable_end).step_by(HISTORY_STRIDE) {
        table.put(T::hash(src, pos), pos);
    }
    if dst.len() >= compress_bound(src.len() - start) {
        parse::<T, false>(table, src, start, dst, acceleration)
    } else {
        parse::<T, true>(table, src, start, dst, acceleration)
    }
}

/// The parse of `src[start..]` (matches may reach into `src[..start]`), generic over the table
/// layout, and over whether output room must be checked (`EXACT`, for a `dst` smaller than the
/// bound).
fn parse<T: PositionTable, const EXACT: bool>(
    table: &mut T,
    src: &[u8],
    start: usize,
    dst: &mut [u8],
    acceleration: u32,
) -> Result<usize, Error> {
    let len = src.len();
    let mut out = SequenceWriter::new(dst);
    let mut anchor = start;

    if len - start >= MIN_COMPRESSIBLE {
        // No match may start at or after this position (the last MFLIMIT bytes), and the search
        // stops once its probe position passes it.
        let match_start_limit = len - MFLIMIT + 1;
        // Matches end at least LASTLITERALS bytes before the end.
        let match_end_limit = len - LASTLITERALS;

        table.put(T::hash(src, start), start);
        let mut ip = start + 1;
        let mut forward_hash = T::hash(src, ip);

        'search: loop {
            // Find a match: probe at `ip`, prefetching the hash of the next probe position.
            let mut forward_ip = ip;
            let mut step = 1usize;
            let mut attempts = (acceleration as usize) << SKIP_TRIGGER;
            let mut candidate;
            loop {
                let hash = forward_hash;
                ip = forward_ip;
                forward_ip += step;
                step = attempts >> SKIP_TRIGGER;
                attempts += 1;
                if forward_ip > match_start_limit {
                    break 'search;
                }
                candidate = table.get(hash);
                // In bounds: forward_ip <= match_start_limit = len - MFLIMIT + 1, so the 8 bytes
                // end at least 3 bytes before the end of `src`.
                forward_hash = T::hash_word(word_at!(u64, src, forward_ip));
                table.put(hash, ip);
                if T::CHECK_DISTANCE && candidate + MAX_DISTANCE < ip {
                    continue;
                }
                // In bounds: the table only holds positions already passed (it starts cleared,
                // and every insert is of a position at or before the current one), so
                // candidate < ip < match_start_limit.
                debug_assert!(candidate < ip);
                if word_at!(u32, src, candidate) == word_at!(u32, src, ip) {
                    break;
                }
            }

            // Catch up: extend the match backwards over equal bytes. In bounds: the loop
            // condition makes ip - 1 >= anchor >= 0 and candidate - 1 >= 0, and candidate < ip.
            while ip > anchor
                && candidate > 0
                && byte_at!(src, ip - 1) == byte_at!(src, candidate - 1)
            {
                ip -= 1;
                candidate -= 1;
            }

            // Emit sequences as long as the position right after a match matches too.
            loop {
                let match_code =
                    count_common(src, ip + MINMATCH, candidate + MINMATCH, match_end_limit);
                out.sequence::<EXACT>(src, anchor, ip, ip - candidate, match_code)?;
                ip += MINMATCH + match_code;
                anchor = ip;
                if ip >= match_start_limit {
                    break 'search;
                }
                // In bounds: ip < match_start_limit, so 8 bytes at ip (and ip - 2) end before
                // the last 3 bytes of `src`; candidate < ip as in the search loop.
                table.put(T::hash_word(word_at!(u64, src, ip - 2)), ip - 2);
                let hash = T::hash_word(word_at!(u64, src, ip));
                candidate = table.get(hash);
                table.put(hash, ip);
                debug_assert!(candidate < ip);
                let in_range = !T::CHECK_DISTANCE || candidate + MAX_DISTANCE >= ip;
                if !(in_range && word_at!(u32, src, candidate) == word_at!(u32, src, ip)) {
                    break;
                }
            }

            ip += 1;
            // In bounds: ip <= match_start_limit here (the previous match ended before it).
            forward_hash = T::hash_word(word_at!(u64, src, ip));
        }
    }

    out.last_literals(&src[anchor..])?;
    Ok(out.written())
}

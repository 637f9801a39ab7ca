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
//!
//! # Dictionaries, streams and dest-size: the second parse
//!
//! `parse_external` runs the same search with liblz4's rules for a history (`LZ4_loadDict` /
//! `LZ4_attach_dictionary` + `LZ4_compress_fast_continue`, and stream blocks) and for a full page
//! (`LZ4_compress_destSize`, "fillOutput"). It is one skeleton, compiled once per *mode* (a
//! [`History`] type: [`Window`], [`ExtDict`], [`DictCtx`]), as liblz4 inlines its generic loop
//! once per dictionary directive, so that no loop branches on the mode:
//!
//! - **Indices.** Table slots hold indices: the input starts at `base` (64 KiB after a
//!   dictionary, 0 without one) and the history's bytes are the indices just below it, so an
//!   offset is a difference of indices. A candidate is taken only 1 to 65,535 indices back (one
//!   compare on 64-bit targets, [`in_reach`]), and not before the history.
//! - **Window** (liblz4's noDict and prefix modes): the history and the input are one slice, as
//!   for a stream block that starts where the previous one ended; a match may be extended
//!   backwards from the input into the history. Also the dest-size parse, with no history.
//! - **ExtDict** (extDict mode): the history is another slice, read in place. A match there that
//!   reaches its end goes on at the start of the input; a match in the input is never extended
//!   backwards into the dictionary (liblz4's extDict catch-up bound, which is why this is not the
//!   window parse with the dictionary copied in front).
//! - **DictCtx** (dictCtx mode): inputs up to 4 KiB read a prepared [`Dictionary`]'s table
//!   beside the working table instead of copying it in; which table a candidate came from says
//!   which slice it is in. A message's working table is 8 KiB of `u16` slots cleared per call
//!   ([`ConsultTable`]; a stream's, which persists, is the `u32` table).
//! - **Streams.** A stream block (`compress_stream_block`) runs this parse with the stream's
//!   persistent table and indices, in the mode its layout gives. Below the bound it gives up
//!   where liblz4's `limitedOutput` checks do (`give_up_like_liblz4`), leaving the table as
//!   liblz4 leaves it.
//! - **Filling a page.** A sequence that would leave less than the room of a minimal last
//!   sequence is dropped, a match too long for the page is shortened to leave exactly 6 bytes,
//!   and the last literals are cut to fit; the block then decodes to exactly the input consumed.
//!
//! Its reads at a candidate rest on local checks only (the reach check, and one compare with the
//! dictionary's length), never on what the table holds: its tables may come from earlier calls.
//! The plain parse above stays separate: run through this skeleton (a `Window` with no history)
//! it costs 9-10% more instructions (measured with callgrind on 1 KiB and 4 KiB messages, see
//! `asm-notes/dictionary-parse.md`), for the reach check its proven table invariant makes
//! unnecessary.

#![cfg_attr(not(feature = "unsafe"), forbid(unsafe_code))]

use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

use super::dict::Dictionary;
use super::sequence::{
    byte_at, call_unchecked, check_input_size, common_prefix, count_common, count_common_next,
    count_common_next5, hash4, read_u32, read_u64, unchecked_fn, word_at, SequenceWriter,
    MIN_COMPRESSIBLE,
};
use super::xxh32::{ContentHasher, Lanes, STRIPE};
use super::{compress_bound, LASTLITERALS, MAX_DISTANCE, MAX_HISTORY, MFLIMIT, MINMATCH};
use crate::Error;

/// Inputs shorter than this use the `u16` table (liblz4's `LZ4_64Klimit` = 64 KiB + MFLIMIT - 1).
pub(crate) const U16_TABLE_LIMIT: usize = 65536 + MFLIMIT - 1;
/// liblz4's `LZ4_ACCELERATION_MAX`: larger accelerations are clamped to it.
pub const ACCELERATION_MAX: u32 = 65537;
/// The attempt counter's shift (liblz4's `LZ4_skipTrigger`).
const SKIP_TRIGGER: u32 = 6;

/// A stream's indices stay at or below this (liblz4's `LZ4_renormDictT` threshold, 2 GiB).
pub(super) const STREAM_INDEX_LIMIT: usize = 0x8000_0000;

/// Bits of the `u16` table's hash.
const U16_TABLE_LOG: u32 = 13;
const U16_TABLE_SLOTS: usize = 1 << U16_TABLE_LOG;
pub(super) const U32_TABLE_SLOTS: usize = 4096;

/// A position table of one of liblz4's two layouts.
pub(super) trait PositionTable {
    /// A table with every slot 0.
    fn new() -> Self;
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
pub(super) struct U16Table([u16; U16_TABLE_SLOTS]);

/// 4096 `u32` slots, hashed on the low 5 bytes of the 8-byte word: liblz4's `LZ4_stream_t`
/// table, with its layout (`repr(transparent)`: the C ABI keeps it in the caller's state).
#[derive(Clone)]
#[repr(transparent)]
pub struct U32Table(pub(super) [u32; U32_TABLE_SLOTS]);

/// A prepared dictionary's table ([`Dictionary`]): the slots and hash of [`U32Table`], holding
/// dictionary indices, which are all below 64 KiB ([`Dictionary::BASE`]) and so take 16 bits:
/// half the cache footprint of a `u32` table, where the dictCtx probe reads it at random beside
/// the working table and the dictionary's bytes.
#[derive(Clone)]
pub(super) struct PreparedTable([u16; U32_TABLE_SLOTS]);

impl PreparedTable {
    /// A table with every slot 0.
    pub(super) fn new() -> Self {
        Self([0; U32_TABLE_SLOTS])
    }
    /// The index in the slot of `hash` (a [`U32Table::hash`]).
    #[inline(always)]
    pub(super) fn get(&self, hash: usize) -> usize {
        usize::from(self.0[hash & (U32_TABLE_SLOTS - 1)])
    }
    /// Stores the dictionary index `index` (below 64 KiB) in the slot of `hash`.
    pub(super) fn put(&mut self, hash: usize, index: usize) {
        debug_assert!(index < Dictionary::BASE);
        self.0[hash & (U32_TABLE_SLOTS - 1)] = index as u16;
    }
}

/// The working table of a dictionary message consulted in place (inputs up to [`CONSULT_MAX`],
/// indexed from [`Dictionary::BASE`], cleared per call): the hash of [`U32Table`] in 4096 `u16`
/// slots (8 KiB, half the cache footprint). A slot holds `index - (BASE - 1)`, so 0, an empty
/// slot, reads as `BASE - 1`: below the input, where [`DictCtx`] consults the dictionary's slot,
/// as for an empty `u32` slot.
pub(super) struct ConsultTable([u16; U32_TABLE_SLOTS]);

impl PositionTable for ConsultTable {
    const HASH_READ: usize = U32Table::HASH_READ;
    const CHECK_DISTANCE: bool = true;

    fn new() -> Self {
        Self([0; U32_TABLE_SLOTS])
    }
    #[inline(always)]
    fn hash_word(word: u64) -> usize {
        U32Table::hash_word(word)
    }
    #[inline(always)]
    fn hash(src: &[u8], pos: usize) -> usize {
        U32Table::hash(src, pos)
    }
    #[inline(always)]
    fn get(&self, hash: usize) -> usize {
        usize::from(self.0[hash & (U32_TABLE_SLOTS - 1)]) + (Dictionary::BASE - 1)
    }
    #[inline(always)]
    fn put(&mut self, hash: usize, pos: usize) {
        debug_assert!(pos >= Dictionary::BASE && pos - (Dictionary::BASE - 1) <= CONSULT_MAX + 1);
        self.0[hash & (U32_TABLE_SLOTS - 1)] = (pos - (Dictionary::BASE - 1)) as u16;
    }
    fn reset(&mut self) {
        self.0.fill(0);
    }
}

impl U32Table {
    /// Makes this table a copy of `other` (a prepared dictionary's table).
    pub(super) fn copy_from(&mut self, other: &PreparedTable) {
        for (slot, &index) in self.0.iter_mut().zip(other.0.iter()) {
            *slot = u32::from(index);
        }
    }

    /// liblz4's `LZ4_renormDictT` step: every index below `delta` becomes 0, the others move
    /// down by `delta` (distances between the kept ones are unchanged).
    pub(super) fn rebase(&mut self, delta: usize) {
        let delta = delta as u32;
        for slot in self.0.iter_mut() {
            *slot = slot.saturating_sub(delta);
        }
    }
}

impl PositionTable for U16Table {
    const HASH_READ: usize = 4;
    const CHECK_DISTANCE: bool = false;

    fn new() -> Self {
        Self([0; U16_TABLE_SLOTS])
    }
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

    fn new() -> Self {
        Self([0; U32_TABLE_SLOTS])
    }
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
        // Positions, or indices after a dictionary (which start at 64 KiB), or a stream's
        // indices (renormalised before they pass 2 GiB, as liblz4's).
        debug_assert!(pos <= STREAM_INDEX_LIMIT);
        self.0[hash & (U32_TABLE_SLOTS - 1)] = pos as u32;
    }
    fn reset(&mut self) {
        self.0.fill(0);
    }
}

mod fresh {
    use super::{PositionTable, HISTORY_STRIDE};

    /// A position table zeroed for a new block. Only [`Cleared::reset`] makes one.
    pub(super) struct Cleared<'a, T>(&'a mut T);

    /// A position table whose every slot holds 0 or a position below `start`: the state each
    /// parse starts from, which its unchecked reads at the table's candidates rest on (see
    /// `parse`). Only [`Cleared::index_history`] makes one.
    pub(super) struct Indexed<'a, T> {
        table: &'a mut T,
        start: usize,
    }

    impl<'a, T: PositionTable> Cleared<'a, T> {
        /// Zeroes `table`.
        #[inline(always)]
        pub(super) fn reset(table: &'a mut T) -> Self {
            table.reset();
            Self(table)
        }

        /// Indexes the history `src[..start]`, every [`HISTORY_STRIDE`] bytes (only positions
        /// whose hash bytes lie inside `src` can be hashed).
        #[inline(always)]
        pub(super) fn index_history(self, src: &[u8], start: usize) -> Indexed<'a, T> {
            let table = self.0;
            let hashable_end = (src.len() + 1).saturating_sub(T::HASH_READ).min(start);
            for pos in (0..hashable_end).step_by(HISTORY_STRIDE) {
                table.put(T::hash(src, pos), pos);
            }
            Indexed { table, start }
        }
    }

    impl<'a, T> Indexed<'a, T> {
        /// The table, and the position its entries are all below.
        #[inline(always)]
        pub(super) fn into_parts(self) -> (&'a mut T, usize) {
            (self.table, self.start)
        }
    }
}

use fresh::{Cleared, Indexed};

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
///     assert_eq!(&out[..n], &lz4_simd::block::compress(chunk).unwrap()[..]);
/// }
/// ```
pub struct Compressor {
    small: Box<U16Table>,
    large: Box<U32Table>,
    /// The dictionary path's own table, allocated on first use (see
    /// [`Compressor::compress_into_with_prepared_dictionary`]).
    with_dict: Option<Box<DictTable>>,
}

/// The working tables of dictionary compression: each input's indices start at
/// [`Dictionary::BASE`] in a table cleared (or copied from the dictionary's) for it.
struct DictTable {
    /// Inputs up to [`CONSULT_MAX`]: cleared per call, the dictionary's table read beside it.
    consult: ConsultTable,
    /// Larger inputs: a copy of the dictionary's table.
    copied: U32Table,
}

/// Inputs up to this many bytes consult the dictionary's table in place (liblz4's dictCtx mode,
/// which it uses up to 4 KiB); larger ones copy it into the working table first. Both give the
/// same output.
const CONSULT_MAX: usize = 4096;

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
            with_dict: None,
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
        self.compress_into_with_history(src, 0, dst, acceleration)
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
    pub fn compress_into_with_history(
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
            let table = Cleared::reset(&mut *self.small);
            compress_with(table, window, start, dst, acceleration)
        } else {
            let table = Cleared::reset(&mut *self.large);
            compress_with(table, window, start, dst, acceleration)
        }
    }

    /// [`compress_into`](Self::compress_into) that also feeds `src` to `hasher` (a frame's content
    /// checksum), hashing its stripes inside the parse where the hasher allows it (no partial
    /// stripe buffered from earlier input), with the same output and digest as compressing and
    /// hashing separately.
    pub(crate) fn compress_into_hashing(
        &mut self,
        src: &[u8],
        dst: &mut [u8],
        acceleration: u32,
        hasher: &mut ContentHasher,
    ) -> Result<usize, Error> {
        let Some(lanes) = hasher.lanes() else {
            hasher.update(src);
            return self.compress_into(src, dst, acceleration);
        };
        let mut fused = Fused { lanes, hashed: 0 };
        let result = check_input_size(src).and_then(|()| {
            let acceleration = acceleration.clamp(1, ACCELERATION_MAX);
            if src.len() < U16_TABLE_LIMIT {
                let table = Cleared::reset(&mut *self.small);
                compress_fused::<_, true>(table, src, 0, dst, acceleration, &mut fused)
            } else {
                let table = Cleared::reset(&mut *self.large);
                compress_fused::<_, true>(table, src, 0, dst, acceleration, &mut fused)
            }
        });
        match result {
            Ok(_) => {
                hasher.absorbed(fused.lanes, fused.hashed);
                hasher.update(&src[fused.hashed..]);
            }
            // The parse stopped midway: hash everything here.
            Err(_) => hasher.update(src),
        }
        result
    }

    /// Compresses `src` into `dst` with the prepared dictionary `dict` as history, at the given
    /// acceleration (clamped to `1..=65537`), and returns the compressed length. The block decodes
    /// with the same dictionary bytes in front of it
    /// ([`decompress_with_dictionary`](super::decompress_with_dictionary) with `dict.as_bytes()` or
    /// the original bytes).
    ///
    /// The output is byte-identical to liblz4 1.10's `LZ4_loadDict(stream, dict)` followed by
    /// `LZ4_compress_fast_continue(stream, src, dst, src.len(), dst.len(), acceleration)` on a
    /// fresh stream with the dictionary in its own buffer, and so to `LZ4_attach_dictionary` +
    /// `LZ4_compress_fast_continue`. The dictionary is never hashed again, and its bytes are read
    /// in place: inputs up to 4 KiB consult its prepared table beside this compressor's own (8 KiB,
    /// cleared per call: half the table the dictionary-less path clears), larger inputs start from
    /// a copy of it (widened into a 16 KiB working table), as liblz4 does.
    ///
    /// With `dst.len() >= compress_bound(src.len())` this always succeeds (for inputs up to
    /// [`MAX_INPUT_SIZE`](super::MAX_INPUT_SIZE)); with a smaller `dst` it writes the same bytes or
    /// returns [`Error::OutputTooSmall`], and never writes past `dst`.
    ///
    /// ```
    /// use lz4_simd::block::{self, Compressor, Dictionary};
    /// let dict = Dictionary::new(b"GET /index.html HTTP/1.1\r\nHost: example.com\r\n");
    /// let request = b"GET /about.html HTTP/1.1\r\nHost: example.com\r\n\r\n";
    /// let mut out = vec![0u8; block::compress_bound(request.len())];
    /// let n = Compressor::new()
    ///     .compress_into_with_prepared_dictionary(request, &mut out, &dict, 1)
    ///     .unwrap();
    /// assert!(n < block::compress(request).unwrap().len());
    /// let back = block::decompress_with_dictionary(&out[..n], dict.as_bytes(), 1000).unwrap();
    /// assert_eq!(back, request);
    /// ```
    pub fn compress_into_with_prepared_dictionary(
        &mut self,
        src: &[u8],
        dst: &mut [u8],
        dict: &Dictionary,
        acceleration: u32,
    ) -> Result<usize, Error> {
        check_input_size(src)?;
        let acceleration = acceleration.clamp(1, ACCELERATION_MAX);
        let working = self.with_dict.get_or_insert_with(|| {
            Box::new(DictTable {
                consult: ConsultTable::new(),
                copied: U32Table::new(),
            })
        });
        if src.len() <= CONSULT_MAX {
            let table = &mut working.consult;
            table.reset();
            let history = DictCtx::new(dict, Dictionary::BASE);
            compress_block::<_, _, false>(table, history, src, 0, dst, acceleration)
        } else {
            let table = &mut working.copied;
            table.copy_from(dict.table());
            let history = ExtDict::new(dict.history(), Dictionary::BASE);
            compress_block::<_, _, false>(table, history, src, 0, dst, acceleration)
        }
    }

    /// Compresses `src` into a new `Vec` (see [`compress_fast`](super::compress_fast)). Inputs
    /// above [`MAX_INPUT_SIZE`](super::MAX_INPUT_SIZE) are [`Error::InputTooLarge`].
    pub fn compress(&mut self, src: &[u8], acceleration: u32) -> Result<Vec<u8>, Error> {
        // Before the allocation: the bound of an oversized input is gigabytes.
        check_input_size(src)?;
        let mut out = vec![0u8; compress_bound(src.len())];
        let len = self.compress_into(src, &mut out, acceleration)?;
        out.truncate(len);
        Ok(out)
    }
}

/// One-shot compression with a fresh table on the stack (16 KiB), as `LZ4_compress_fast` does.
pub(crate) fn compress_once(src: &[u8], dst: &mut [u8], acceleration: u32) -> Result<usize, Error> {
    check_input_size(src)?;
    let acceleration = acceleration.clamp(1, ACCELERATION_MAX);
    if src.len() < U16_TABLE_LIMIT {
        compress_with(
            Cleared::reset(&mut U16Table::new()),
            src,
            0,
            dst,
            acceleration,
        )
    } else {
        compress_with(
            Cleared::reset(&mut U32Table::new()),
            src,
            0,
            dst,
            acceleration,
        )
    }
}

/// History is indexed at every this many positions (liblz4's `LZ4_loadDict` uses the same
/// stride): the 4096- or 8192-slot table keeps about the same recent positions as indexing every
/// byte would, at a third of the cost.
pub const HISTORY_STRIDE: usize = 3;

/// Compresses `src[start..]`, `src[..start]` being history (at most 64 KiB); `acceleration` is
/// already clamped.
fn compress_with<T: PositionTable>(
    table: Cleared<'_, T>,
    src: &[u8],
    start: usize,
    dst: &mut [u8],
    acceleration: u32,
) -> Result<usize, Error> {
    compress_fused::<T, false>(table, src, start, dst, acceleration, &mut Fused::new())
}

/// [`compress_with`], and with `FUSE` it also hashes the content checksum's stripes of
/// `src[start..]` into `fused` as it parses (see [`Fused`]); `fused` is left as it was given
/// without `FUSE`, and undefined after an error. Not inlined into its callers (as
/// `compress_with` is not): the parse's registers are allocated in this function alone.
#[inline(never)]
fn compress_fused<T: PositionTable, const FUSE: bool>(
    table: Cleared<'_, T>,
    src: &[u8],
    start: usize,
    dst: &mut [u8],
    acceleration: u32,
    fused: &mut Fused,
) -> Result<usize, Error> {
    debug_assert!(start <= MAX_DISTANCE + 1 && start <= src.len());
    let table = table.index_history(src, start);
    if dst.len() >= compress_bound(src.len() - start) {
        // SAFETY: `dst` holds the bound for `src[start..]` (just checked).
        call_unchecked!(parse::<T, false, FUSE>(
            table,
            src,
            dst,
            acceleration,
            fused
        ))
    } else {
        // SAFETY: no duty with `EXACT`.
        call_unchecked!(parse::<T, true, FUSE>(table, src, dst, acceleration, fused))
    }
}

/// The content checksum's stripes (XXH32) hashed inside the fast parse, for frames with
/// independent blocks ([`Compressor::compress_into_hashing`]): the lanes after the first
/// `hashed` bytes of the input (a multiple of 16). The parse continues `lanes` from the start of
/// its input and writes `hashed`; it never reads `hashed`, so no value of it can move a stripe
/// read.
///
/// The parse is latency-bound (dependent loads, mispredicted match decisions) and leaves the
/// multiply port idle; XXH32 is bound by that port (8 multiplies per stripe). So the parse
/// hashes up to four stripes after each sequence it writes, while stripes remain, each behind a
/// branch that is taken until the block's last whole stripe is hashed and never after (well
/// predicted); what is left (literal-only tails, a partial stripe) is hashed after the parse.
/// The probe loop is left alone: a stripe per probe gained more in two of three builds but cost
/// the block compressor 1-2% there by moving its code (asm-notes/compress.md, 2026-12-05).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fused {
    pub(crate) lanes: Lanes,
    pub(crate) hashed: usize,
}

impl Fused {
    fn new() -> Self {
        Self {
            lanes: Lanes::SEED_0,
            hashed: 0,
        }
    }
}

/// With `FUSE`, hashes the stripe at `*hashed` into `lanes` and moves `*hashed` past it, if it
/// ends at `stripe_end` at most (`stripe_end <= src.len()`).
#[inline(always)]
fn fuse_stripe<const FUSE: bool>(
    src: &[u8],
    stripe_end: usize,
    lanes: &mut Lanes,
    hashed: &mut usize,
) {
    if FUSE && *hashed < stripe_end {
        // In bounds: `*hashed` and `stripe_end` are `start` plus multiples of 16, so `*hashed +
        // 16 <= stripe_end <= src.len()`.
        let at = *hashed;
        lanes.stripe([
            word_at!(u32, src, at),
            word_at!(u32, src, at + 4),
            word_at!(u32, src, at + 8),
            word_at!(u32, src, at + 12),
        ]);
        *hashed = at + STRIPE;
    }
}

unchecked_fn! {
    /// The parse of `src[start..]`, `start` being that of `table` (matches may reach into the
    /// history `src[..start]`, already in `table`), generic over the table layout, and over whether
    /// output room must be checked (`EXACT`, for a `dst` smaller than the bound).
    ///
    /// # Safety
    ///
    /// Without `EXACT`, `dst.len() >= compress_bound(src.len() - start)`: the sequences are written
    /// with [`SequenceWriter::sequence`], whose room that bound provides.
    ///
    /// # Panics
    ///
    /// If `acceleration` is 0.
    ///
    /// # The reads at table candidates
    ///
    /// They are unchecked, and in bounds because every slot of `table` holds 0 or a position stored
    /// below, all under `match_start_limit` (so `candidate + MFLIMIT <= len`): the table holds only
    /// positions under `start` when the parse begins ([`Indexed`]), `start + 13 <= len` in the
    /// parse (`T::hash(src, start)`, a checked read, comes before any unchecked one, so `len -
    /// start` does not wrap), and the parse stores only probe positions (`ip < forward_ip <=
    /// match_start_limit`: `step >= 1`, as `attempts >= acceleration << 6 >= 64`), `ip - 2` and
    /// match ends under `match_start_limit`. (A `u16` slot keeps a position's low 16 bits, no
    /// larger than the position.)
    fn parse<T: PositionTable, const EXACT: bool, const FUSE: bool>(
        table: Indexed<'_, T>,
        src: &[u8],
        dst: &mut [u8],
        acceleration: u32,
        fused: &mut Fused,
    ) -> Result<usize, Error> {
        // `step >= 1` (see above), checked (in release builds too).
        assert!(acceleration >= 1);
        let (table, start) = table.into_parts();
        let len = src.len();
        let mut out = SequenceWriter::new(dst);
        let mut anchor = start;
        // With FUSE: the checksum's stripes of `src[start..stripe_end]` are hashed on the way.
        let stripe_end = start + (len - start) / STRIPE * STRIPE;
        let mut lanes = fused.lanes;
        // From `start`, whatever `fused.hashed` holds (an output only), so every stripe read
        // ends at `stripe_end <= len` (see `fuse_stripe`).
        let mut hashed = start;

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
                    // In bounds: forward_ip <= match_start_limit = len - MFLIMIT + 1, so the 8
                    // bytes end at least 3 bytes before the end of `src`.
                    forward_hash = T::hash_word(word_at!(u64, src, forward_ip));
                    table.put(hash, ip);
                    if T::CHECK_DISTANCE && candidate + MAX_DISTANCE < ip {
                        continue;
                    }
                    // In bounds: candidate < match_start_limit (see above) and ip < forward_ip.
                    debug_assert!(candidate < ip);
                    if word_at!(u32, src, candidate) == word_at!(u32, src, ip) {
                        break;
                    }
                }

                // Catch up: extend the match backwards over equal bytes. In bounds: the conditions
                // make ip - 1 >= anchor >= 0 and candidate - 1 >= 0, and both are under
                // match_start_limit. The first step is tested apart (as liblz4 does), without
                // `ip > anchor`, which holds here (every probe is after `anchor`): its branch,
                // mostly not taken, gets its own prediction, apart from the loop's. The
                // sequence's unchecked literal copy relies on it too (`ip - anchor` would wrap):
                // every search starts at `anchor + 1` (after a match ending at `anchor`, or at
                // the input's start + 1), so every probe is after `anchor`.
                debug_assert!(ip > anchor);
                if candidate > 0 && byte_at!(src, ip - 1) == byte_at!(src, candidate - 1) {
                    loop {
                        ip -= 1;
                        candidate -= 1;
                        // One branch for the three conditions (as liblz4's compiled loop): the
                        // bytes are read even where a bound is reached, then at position 0 at
                        // worst (in bounds), and the compare is ignored.
                        let same = byte_at!(src, ip.saturating_sub(1))
                            == byte_at!(src, candidate.saturating_sub(1));
                        if !((ip > anchor) & (candidate > 0) & same) {
                            break;
                        }
                    }
                }

                // Emit sequences as long as the position right after a match matches too.
                loop {
                    // The match's length, and the bytes at its end, which the test for a match
                    // right after it hashes and compares: taken from the bytes the count compared
                    // where the match ends in them (see `count_common_next`), so that test's chain
                    // (hash, slot, candidate, compare: its branch mispredicts often) does not wait
                    // for a load at an address computed from the count. The `u16` table's hash
                    // reads 4 bytes, the `u32` table's 5.
                    //
                    // SAFETY (both calls): `3 <= ip + 4 <= match_end_limit`, as `ip <
                    // match_start_limit` (the search's `ip < forward_ip`, lowered by the
                    // catch-up, or the check below); `match_end_limit + 5 = len`; `candidate +
                    // 12 <= len` (see above): the 8 bytes at `candidate + 4` are inside.
                    let (match_code, end_word) = if T::HASH_READ == 4 {
                        let (code, word) = call_unchecked!(count_common_next(
                            src,
                            ip + MINMATCH,
                            candidate + MINMATCH,
                            match_end_limit
                        ));
                        (code, u64::from(word))
                    } else {
                        call_unchecked!(count_common_next5(
                            src,
                            ip + MINMATCH,
                            candidate + MINMATCH,
                            match_end_limit
                        ))
                    };
                    // SAFETY: `anchor <= ip` (the search starts after `anchor` and the catch-up
                    // stops at it; a match right after another starts at `anchor`), `ip + 8 <= len`
                    // (as above), and without EXACT `dst` holds the bound (this function's duty)
                    // and the sequences are consecutive and end inside `src` (each match ends at
                    // `match_end_limit` at most, and `anchor` moves to its end): the room follows
                    // (see `sequence`).
                    call_unchecked!(out.sequence::<EXACT>(
                        src,
                        anchor,
                        ip,
                        ip - candidate,
                        match_code
                    ))?;
                    // With FUSE: the content checksum's next stripes (see `Fused`).
                    for _ in 0..4 {
                        fuse_stripe::<FUSE>(src, stripe_end, &mut lanes, &mut hashed);
                    }
                    ip += MINMATCH + match_code;
                    anchor = ip;
                    if ip >= match_start_limit {
                        break 'search;
                    }
                    // In bounds: ip < match_start_limit, so 8 bytes at ip (and ip - 2) end before
                    // the last 3 bytes of `src`; candidate < match_start_limit as in the search.
                    table.put(T::hash_word(word_at!(u64, src, ip - 2)), ip - 2);
                    debug_assert!(end_word as u32 == word_at!(u32, src, ip));
                    let hash = T::hash_word(end_word);
                    debug_assert!(hash == T::hash_word(word_at!(u64, src, ip)));
                    candidate = table.get(hash);
                    table.put(hash, ip);
                    debug_assert!(candidate < ip);
                    let in_range = !T::CHECK_DISTANCE || candidate + MAX_DISTANCE >= ip;
                    if !(in_range && word_at!(u32, src, candidate) == end_word as u32) {
                        break;
                    }
                }

                ip += 1;
                // In bounds: ip <= match_start_limit here (the previous match ended before it).
                forward_hash = T::hash_word(word_at!(u64, src, ip));
            }
        }

        if FUSE {
            fused.lanes = lanes;
            fused.hashed = hashed - start;
        }
        out.last_literals(&src[anchor..])?;
        Ok(out.written())
    }
}

/// liblz4's `LZ4_compress_destSize_extState`: compresses as much of `src` as fits into `dst` at
/// `acceleration` (clamped to `1..=65537`) and returns (bytes of `src` consumed, bytes written).
/// See [`compress_dest_size`](super::compress_dest_size).
pub(crate) fn compress_dest_size(
    src: &[u8],
    dst: &mut [u8],
    acceleration: u32,
) -> Result<(usize, usize), Error> {
    let acceleration = acceleration.clamp(1, ACCELERATION_MAX);
    check_input_size(src)?;
    if dst.is_empty() {
        return Err(Error::OutputTooSmall {
            capacity: 0,
            needed: 1,
        });
    }
    if dst.len() >= compress_bound(src.len()) {
        // Everything fits: the plain compressor's bytes (liblz4 takes the same shortcut).
        return compress_once(src, dst, acceleration).map(|written| (src.len(), written));
    }
    // The table layout follows the whole input's size, as in liblz4.
    let result = if src.len() < U16_TABLE_LIMIT {
        // SAFETY: no duty with `EXACT`.
        call_unchecked!(parse_external::<U16Table, Window, true, true, false>(
            &mut U16Table::new(),
            Window { origin: 0 },
            src,
            0,
            dst,
            acceleration
        ))
    } else {
        // SAFETY: no duty with `EXACT`.
        call_unchecked!(parse_external::<U32Table, Window, true, true, false>(
            &mut U32Table::new(),
            Window { origin: 0 },
            src,
            0,
            dst,
            acceleration
        ))
    };
    // The fill rules leave room for every sequence and cut the last literals to fit, so the
    // writer never refuses; should it, its error says so.
    result.map(|(written, consumed)| (consumed, written))
}

/// What a [`parse_external`] may match besides its input, and how: liblz4's dictionary
/// directives, one type per mode, so that the parse is compiled once per mode with no branch on
/// the mode in its loops (liblz4 gets the same by inlining its generic function into one copy
/// per directive).
///
/// Table slots hold *indices*: `src[p]` has index `origin() + p` (the parse's `src` is the input,
/// or for [`Window`] the history and the input as one slice), and an offset is a difference of
/// indices. The parse takes a candidate only from 1 to 65,535 indices back ([`in_reach`]; with
/// the `u16` table nothing is further back), and the mode rejects candidates before its history
/// (liblz4's `dictSmall` bound).
///
/// [`History::matches`], [`History::find`] and [`History::catch_up`] are unchecked functions
/// (see `sequence`'s module documentation): their reads are in bounds from their callers' duty,
/// which holds for any probe position of the parse and any candidate it found there, or from a
/// check they make themselves, never from what the table was given earlier.
pub(super) trait History<T>: Copy {
    /// The index of `src[0]`.
    fn origin(&self) -> usize;
    /// The candidate for `hash`, whose slot in the working table holds `own`: `own` (or the
    /// dictionary's slot, see [`DictCtx`]).
    fn candidate(&self, own: usize, hash: usize) -> usize;
    unchecked_fn! {
        /// Whether the match at index `candidate` is not before the history and its 4 bytes
        /// equal those at `src[ip]`.
        ///
        /// # Safety
        ///
        /// `ip + 8 <= src.len()`, and `candidate` is in reach of `origin() + ip` ([`in_reach`]).
        fn matches(&self, src: &[u8], ip: usize, candidate: usize) -> bool;
    }
    unchecked_fn! {
        /// The probe of `src[ip]`, whose index is `current` and hash `hash` (whose slot held
        /// `own` before the probe replaced it): its candidate, if it is in reach and
        /// [`History::matches`].
        ///
        /// # Safety
        ///
        /// `ip + 8 <= src.len()` and `current == origin() + ip`.
        #[inline(always)]
        fn find(
            &self,
            own: usize,
            hash: usize,
            src: &[u8],
            ip: usize,
            current: usize,
        ) -> Option<usize> {
            let candidate = self.candidate(own, hash);
            // SAFETY: this function's duty, and the candidate is in reach (checked first).
            let found = in_reach(candidate, current)
                && call_unchecked!(self.matches(src, ip, candidate));
            found.then_some(candidate)
        }
    }
    unchecked_fn! {
        /// Number of bytes past the first 4 that the match at index `candidate` shares with
        /// `src[ip..match_end_limit]`.
        ///
        /// # Safety
        ///
        /// `ip + 4 <= match_end_limit <= src.len()`, and `candidate` is what [`History::find`]
        /// returned for `ip` (under its duty), or that moved back together with `ip` by
        /// [`History::catch_up`].
        fn match_code(
            &self,
            src: &[u8],
            ip: usize,
            candidate: usize,
            match_end_limit: usize,
        ) -> usize;
    }
    unchecked_fn! {
        /// Extends the match at `src[ip]` / index `candidate` backwards while the bytes before
        /// both agree, not before `anchor` and not before the start of the candidate's own slice.
        ///
        /// # Safety
        ///
        /// `candidate` is what [`History::find`] returned for `src[ip]` (under its duty).
        fn catch_up(&self, src: &[u8], anchor: usize, ip: &mut usize, candidate: &mut usize);
    }
}

/// Whether index `candidate` is 1 to [`MAX_DISTANCE`] indices before `current`: liblz4's
/// distance check and its `matchIndex < current` (which its tables guarantee and ours need not).
/// Candidates come from `u32` slots (plus at most 64 KiB): with a 64-bit `usize` one above
/// `current` makes the wrapped difference huge, so one compare does both; with a 32-bit one
/// the difference wraps below 64 KiB for a slot up to 64 KiB above `current` (a C caller's
/// stream state), so the order is checked first.
#[inline(always)]
fn in_reach(candidate: usize, current: usize) -> bool {
    #[cfg(target_pointer_width = "64")]
    let after = true;
    #[cfg(not(target_pointer_width = "64"))]
    let after = candidate < current;
    after && current.wrapping_sub(candidate).wrapping_sub(1) < MAX_DISTANCE
}

unchecked_fn! {
    /// The catch-up of a match at `src[from]` for `src[ip]` (a match in the input's own slice):
    /// moves `ip` back while the bytes before both agree, not before `anchor` nor before
    /// `src[0]`, and returns by how much.
    ///
    /// # Safety
    ///
    /// `from < ip <= src.len()`.
    #[inline(always)]
    fn catch_up_in(src: &[u8], anchor: usize, ip: &mut usize, mut from: usize) -> usize {
        let start = *ip;
        // In bounds: `from < ip <= src.len()` (this function's duty), and both only go down
        // together.
        while *ip > anchor && from > 0 && byte_at!(src, *ip - 1) == byte_at!(src, from - 1) {
            *ip -= 1;
            from -= 1;
        }
        start - *ip
    }
}

/// One slice holds the history and the input (liblz4's plain mode with `origin == 0` and no
/// history, and its prefix mode, a stream block that starts where the previous one ended): a
/// match may be extended backwards from the input into the history. The history is the slice
/// before the parse's `start`, and must be no more than liblz4's `dictSize` (at most 64 KiB of
/// it matter), which makes `origin` its `dictSmall` bound.
#[derive(Clone, Copy)]
pub(super) struct Window {
    origin: usize,
}

impl<T: PositionTable> History<T> for Window {
    #[inline(always)]
    fn origin(&self) -> usize {
        self.origin
    }
    #[inline(always)]
    fn candidate(&self, own: usize, _hash: usize) -> usize {
        own
    }
    unchecked_fn! {
        #[inline(always)]
        fn matches(&self, src: &[u8], ip: usize, candidate: usize) -> bool {
            // In bounds (the duty): `ip + 4 <= src.len()`, and in reach, `candidate - origin <
            // ip` once `candidate >= origin` is checked.
            candidate >= self.origin
                && word_at!(u32, src, candidate - self.origin) == word_at!(u32, src, ip)
        }
    }
    unchecked_fn! {
        #[inline(always)]
        fn match_code(
            &self,
            src: &[u8],
            ip: usize,
            candidate: usize,
            match_end_limit: usize,
        ) -> usize {
            let from = candidate - self.origin + MINMATCH;
            // SAFETY: the duty: `ip + 4 <= match_end_limit <= src.len()`, and `candidate -
            // origin < ip` (found in reach, or moved back with `ip`), so `from < ip + 4`.
            call_unchecked!(count_common(src, ip + MINMATCH, from, match_end_limit))
        }
    }
    unchecked_fn! {
        #[inline(always)]
        fn catch_up(&self, src: &[u8], anchor: usize, ip: &mut usize, candidate: &mut usize) {
            // SAFETY: `candidate` was found for `ip` (the duty): `origin <= candidate < origin +
            // ip`, and `ip + 8 <= src.len()`.
            *candidate -= call_unchecked!(catch_up_in(src, anchor, ip, *candidate - self.origin));
        }
    }
}

/// The history is another slice, `dict` (at most 64 KiB), ending just below index `base`, the
/// input's first (liblz4's extDict mode: a dictionary in its own buffer, or a stream's saved
/// history). A match in the dictionary that reaches its end goes on at the start of the input;
/// a match in the input is never extended backwards into the dictionary (liblz4's extDict
/// catch-up bound).
#[derive(Clone, Copy)]
pub(super) struct ExtDict<'a> {
    dict: &'a [u8],
    base: usize,
    /// The index of `dict[0]`.
    low: usize,
    /// How many positions of `dict` start a whole 4-byte word inside it.
    words: usize,
}

impl<'a> ExtDict<'a> {
    pub(super) fn new(dict: &'a [u8], base: usize) -> Self {
        debug_assert!(dict.len() <= MAX_HISTORY && dict.len() <= base);
        Self {
            dict,
            base,
            low: base - dict.len(),
            words: dict.len().saturating_sub(MINMATCH - 1),
        }
    }

    /// The comparison of [`History::matches`] for a candidate in the dictionary's last 3 bytes
    /// (its positions are entered at least 8 bytes before its end, so none is: should one be,
    /// its word goes on into the input, as the bytes do).
    #[cold]
    fn matches_across(&self, src: &[u8], ip: usize, candidate: usize) -> bool {
        let at = candidate - self.low;
        (0..MINMATCH).all(|i| {
            let byte = match self.dict.get(at + i) {
                Some(&byte) => Some(byte),
                None => src.get(at + i - self.dict.len()).copied(),
            };
            byte == src.get(ip + i).copied()
        })
    }
}

impl<T: PositionTable> History<T> for ExtDict<'_> {
    #[inline(always)]
    fn origin(&self) -> usize {
        self.base
    }
    #[inline(always)]
    fn candidate(&self, own: usize, _hash: usize) -> usize {
        own
    }
    unchecked_fn! {
        #[inline(always)]
        fn matches(&self, src: &[u8], ip: usize, candidate: usize) -> bool {
            // In bounds: `ip + 4 <= src.len()` (the duty).
            let word = word_at!(u32, src, ip);
            if candidate >= self.base {
                // In bounds: in reach (the duty), `candidate - base < ip`.
                word_at!(u32, src, candidate - self.base) == word
            } else {
                let at = candidate.wrapping_sub(self.low);
                if at < self.words {
                    // In bounds: just checked (`at + 4 <= dict.len()`).
                    word_at!(u32, self.dict, at) == word
                } else {
                    // Before the dictionary (common: a stream's table keeps older blocks), or
                    // (never) across its end.
                    candidate >= self.low && self.matches_across(src, ip, candidate)
                }
            }
        }
    }
    unchecked_fn! {
        #[inline(always)]
        fn match_code(
            &self,
            src: &[u8],
            ip: usize,
            candidate: usize,
            match_end_limit: usize,
        ) -> usize {
            let (ahead, from) = (ip + MINMATCH, candidate + MINMATCH);
            if from >= self.base {
                // SAFETY: the duty: `ahead <= match_end_limit <= src.len()`, and `candidate -
                // base < ip` (found in reach, or moved back with `ip`), so `from - base < ahead`.
                return call_unchecked!(count_common(src, ahead, from - self.base, match_end_limit));
            }
            let at = from - self.low;
            // Most matches end within 8 bytes: one word compare where both words are inside.
            if ahead + 8 <= match_end_limit && at + 8 <= self.dict.len() {
                // In bounds: just checked, and `match_end_limit <= src.len()` (the duty).
                let diff = word_at!(u64, src, ahead) ^ word_at!(u64, self.dict, at);
                if diff != 0 {
                    return (diff.trailing_zeros() / 8) as usize;
                }
            }
            let limit = (ahead + (self.dict.len() - at)).min(match_end_limit);
            let code = common_prefix(&src[ahead..limit], &self.dict[at..]);
            if ahead + code == limit {
                code + common_prefix(&src[limit..match_end_limit], src)
            } else {
                code
            }
        }
    }
    unchecked_fn! {
        #[inline(always)]
        fn catch_up(&self, src: &[u8], anchor: usize, ip: &mut usize, candidate: &mut usize) {
            if *candidate >= self.base {
                // SAFETY: `candidate` was found for `ip` (the duty): in reach, `candidate - base
                // < ip`, and `ip + 8 <= src.len()`.
                *candidate -= call_unchecked!(catch_up_in(src, anchor, ip, *candidate - self.base));
                return;
            }
            let start = *ip;
            let mut at = *candidate - self.low;
            // In bounds: `at < dict.len()` (a found candidate below `base` is in the
            // dictionary), `ip <= src.len()` (the duty); both only go down together.
            while *ip > anchor && at > 0 && byte_at!(src, *ip - 1) == byte_at!(self.dict, at - 1)
            {
                *ip -= 1;
                at -= 1;
            }
            *candidate -= start - *ip;
        }
    }
}

/// [`ExtDict`] with a prepared dictionary's table read beside the working table (liblz4's
/// dictCtx mode): a working slot below `base` (left by an earlier input, or empty) stands for
/// the dictionary's slot of the same hash, whose indices count from [`Dictionary::BASE`].
#[derive(Clone, Copy)]
pub(super) struct DictCtx<'a> {
    ext: ExtDict<'a>,
    prepared: &'a PreparedTable,
}

impl<'a> DictCtx<'a> {
    pub(super) fn new(dict: &'a Dictionary, base: usize) -> Self {
        debug_assert!(base >= Dictionary::BASE);
        Self {
            ext: ExtDict::new(dict.history(), base),
            prepared: dict.table(),
        }
    }
}

impl<T: PositionTable> History<T> for DictCtx<'_> {
    #[inline(always)]
    fn origin(&self) -> usize {
        self.ext.base
    }
    #[inline(always)]
    fn candidate(&self, own: usize, hash: usize) -> usize {
        if own < self.ext.base {
            // An empty dictionary slot (0) maps to more than 64 KiB back: never in reach.
            self.prepared.get(hash) + (self.ext.base - Dictionary::BASE)
        } else {
            own
        }
    }
    unchecked_fn! {
        #[inline(always)]
        fn matches(&self, src: &[u8], ip: usize, candidate: usize) -> bool {
            // SAFETY: this function's duty, the same as the callee's.
            call_unchecked!(History::<U32Table>::matches(&self.ext, src, ip, candidate))
        }
    }
    unchecked_fn! {
        /// [`History::candidate`] and [`History::matches`] in one, so that which table the
        /// candidate came from also says which slice it is in (no second compare with `base`),
        /// as liblz4's dictCtx loop does.
        #[inline(always)]
        fn find(
            &self,
            own: usize,
            hash: usize,
            src: &[u8],
            ip: usize,
            current: usize,
        ) -> Option<usize> {
            let ext = &self.ext;
            if own >= ext.base {
                // In bounds (the duty and the reach check, made first): `own - base < ip` and
                // `ip + 4 <= src.len()`.
                let found = in_reach(own, current)
                    && word_at!(u32, src, own - ext.base) == word_at!(u32, src, ip);
                return found.then_some(own);
            }
            // An empty dictionary slot (0) maps to more than 64 KiB back: never in reach.
            let candidate = self.prepared.get(hash) + (ext.base - Dictionary::BASE);
            if !in_reach(candidate, current) {
                return None;
            }
            let at = candidate.wrapping_sub(ext.low);
            let found = if at < ext.words {
                // In bounds: just checked (`at + 4 <= dict.len()`), and `ip + 4 <= src.len()`
                // (the duty).
                word_at!(u32, ext.dict, at) == word_at!(u32, src, ip)
            } else {
                candidate >= ext.low && ext.matches_across(src, ip, candidate)
            };
            found.then_some(candidate)
        }
    }
    unchecked_fn! {
        #[inline(always)]
        fn match_code(
            &self,
            src: &[u8],
            ip: usize,
            candidate: usize,
            match_end_limit: usize,
        ) -> usize {
            // SAFETY: this function's duty; the candidates `find` gives are extDict candidates
            // (in the input before `ip`, or in the dictionary).
            call_unchecked!(History::<U32Table>::match_code(
                &self.ext,
                src,
                ip,
                candidate,
                match_end_limit
            ))
        }
    }
    unchecked_fn! {
        #[inline(always)]
        fn catch_up(&self, src: &[u8], anchor: usize, ip: &mut usize, candidate: &mut usize) {
            // SAFETY: this function's duty; the candidates `find` gives are the extDict
            // candidates `ExtDict::find` would accept (in the input before `ip`, or in the
            // dictionary).
            call_unchecked!(History::<U32Table>::catch_up(&self.ext, src, anchor, ip, candidate))
        }
    }
}

unchecked_fn! {
    /// The parse of `src[start..]` with the history `history` (see [`History`]; `src[..start]`
    /// is history only for [`Window`]), into a `table` that holds only indices below that of
    /// `src[start]` (or 0), generic over the table layout, over the history's mode, over whether
    /// output room must be checked (`EXACT`), over liblz4's `fillOutput` rules (`FILL`, with
    /// `EXACT`: stop where `dst` is full), and over its `limitedOutput` rules (`LIMITED`, with
    /// `EXACT`: give up, with [`Error::OutputTooSmall`], at the first sequence whose pessimistic
    /// room check fails, with the table holding exactly the positions liblz4's holds then).
    /// Returns (bytes written, bytes of `src[start..]` consumed).
    ///
    /// Reads at table candidates are checked (the table may come from earlier calls); only the
    /// sequence writer runs unchecked without `EXACT`.
    ///
    /// # Safety
    ///
    /// Without `EXACT`, `dst.len() >= compress_bound(src.len() - start)`, the room the
    /// bound-sized [`SequenceWriter::sequence`] needs.
    #[allow(clippy::too_many_arguments)]
    fn parse_external<
        T: PositionTable,
        H: History<T>,
        const EXACT: bool,
        const FILL: bool,
        const LIMITED: bool,
    >(
        table: &mut T,
        history: H,
        src: &[u8],
        start: usize,
        dst: &mut [u8],
        acceleration: u32,
    ) -> Result<(usize, usize), Error> {
        assert!(
            acceleration >= 1 && start <= src.len() && (EXACT || !FILL) && (EXACT || !LIMITED)
        );
        let len = src.len();
        let origin = history.origin();
        let target = dst.len();
        let mut out = SequenceWriter::new(dst);
        let mut anchor = start;

        if len - start >= MIN_COMPRESSIBLE {
            let match_start_limit = len - MFLIMIT + 1;
            let match_end_limit = len - LASTLITERALS;

            table.put(T::hash(src, start), origin + start);
            let mut ip = start + 1;
            let mut forward_hash = T::hash(src, ip);

            'search: loop {
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
                    let own = table.get(hash);
                    // In bounds: forward_ip <= match_start_limit = len - MFLIMIT + 1, so the 8
                    // bytes end at least 3 bytes before the end of `src`.
                    forward_hash = T::hash_word(word_at!(u64, src, forward_ip));
                    table.put(hash, origin + ip);
                    // SAFETY: `ip < forward_ip <= match_start_limit`, so `ip + 12 <= len`.
                    let found = call_unchecked!(history.find(own, hash, src, ip, origin + ip));
                    if let Some(found) = found {
                        candidate = found;
                        break;
                    }
                }
                // SAFETY: `candidate` is what `find` returned for `ip`.
                call_unchecked!(history.catch_up(src, anchor, &mut ip, &mut candidate));

                loop {
                    // SAFETY: `ip < match_start_limit`, so `ip + 4 <= match_end_limit = len - 5`;
                    // `candidate` was found for `ip` (and caught up with it).
                    let mut match_code =
                        call_unchecked!(history.match_code(src, ip, candidate, match_end_limit));
                    let mut full = false;
                    if FILL {
                        let literal_len = ip - anchor;
                        // Token, literal length extension, literals; then the offset, a token
                        // and the 8 bytes that keep the last match MFLIMIT from the end.
                        let offset_at = out.written() + 1 + (literal_len + 240) / 255 + literal_len;
                        if offset_at + 2 + 1 + (MFLIMIT - MINMATCH) > target {
                            break 'search;
                        }
                        let match_ext_at = offset_at + 2;
                        if match_ext_at + 1 + LASTLITERALS + (match_code + 240) / 255 > target {
                            // Shorten the match to what fits: its extension then ends exactly 6
                            // bytes before the end of `dst`, too few for another sequence, so
                            // only the last literals follow. (liblz4 parses on, finds that no
                            // sequence fits, and clears table slots past the new end for a reuse
                            // of its state: neither changes the output.)
                            match_code = 14 + (target - match_ext_at - 1 - LASTLITERALS) * 255;
                            full = true;
                        }
                    }
                    if LIMITED {
                        give_up_like_liblz4(out.written(), ip - anchor, match_code, target)?;
                    }
                    // SAFETY: without EXACT, `dst` holds the bound (this function's duty), the
                    // sequences are consecutive and their matches end by `match_end_limit`;
                    // `anchor <= ip` and `ip + 8 <= len` (`ip < match_start_limit`).
                    call_unchecked!(out.sequence::<EXACT>(
                        src,
                        anchor,
                        ip,
                        origin + ip - candidate,
                        match_code
                    ))?;
                    ip += MINMATCH + match_code;
                    anchor = ip;
                    if full || ip >= match_start_limit {
                        break 'search;
                    }
                    // In bounds: ip < match_start_limit, so 8 bytes at ip (and ip - 2) end
                    // before the last 3 bytes of `src`.
                    table.put(T::hash_word(word_at!(u64, src, ip - 2)), origin + ip - 2);
                    let hash = T::hash_word(word_at!(u64, src, ip));
                    let own = table.get(hash);
                    table.put(hash, origin + ip);
                    // SAFETY: `ip < match_start_limit` (checked above), so `ip + 12 <= len`.
                    match call_unchecked!(history.find(own, hash, src, ip, origin + ip)) {
                        Some(found) => candidate = found,
                        None => break,
                    }
                }

                ip += 1;
                // In bounds: ip <= match_start_limit here (the previous match ended before it).
                forward_hash = T::hash_word(word_at!(u64, src, ip));
            }
        }

        let mut run = len - anchor;
        if FILL {
            let at = out.written();
            if at + 1 + (run + 240) / 255 + run > target {
                // As many literals as fit with their token and length extension.
                run = target.saturating_sub(at + 1);
                run -= (run + 241) / 256;
            }
        }
        out.last_literals(&src[anchor..anchor + run])?;
        Ok((out.written(), anchor + run - start))
    }
}

/// liblz4's `limitedOutput` checks for a sequence whose token would go at `token_at`: before
/// the literals, room for them, their length's extension (counted as `literal_len / 255`), an
/// offset, a token and the last literals; after the offset, room for the match length's
/// extension, a token and the last literals. They reserve more than the sequence needs, so
/// liblz4 gives up on some blocks that would fit; a stream must give up exactly there, because
/// the positions entered so far stay in its table. (The zero-literal sequence after a match
/// skips the first check in liblz4; the second implies it then.)
#[inline(always)]
pub(super) fn give_up_like_liblz4(
    token_at: usize,
    literal_len: usize,
    match_code: usize,
    capacity: usize,
) -> Result<(), Error> {
    let literals_needed = token_at + 1 + literal_len + 8 + literal_len / 255;
    let after_offset = token_at + 1 + (literal_len + 240) / 255 + literal_len + 2;
    let match_needed = after_offset + 1 + LASTLITERALS + (match_code + 240) / 255;
    let needed = literals_needed.max(match_needed);
    if needed > capacity {
        return Err(Error::OutputTooSmall { capacity, needed });
    }
    Ok(())
}

/// Compresses `src[start..]` after `history` into `table` at the given (clamped)
/// acceleration, and returns the compressed length: the bound-sized parse when `dst` holds the
/// bound, else the exact one, which with `LIMITED` gives up where liblz4's `limitedOutput` does
/// ([`give_up_like_liblz4`], the rule of `LZ4_compress_fast_continue`) and otherwise only when
/// `dst` is full.
#[inline(always)]
pub(super) fn compress_block<T: PositionTable, H: History<T>, const LIMITED: bool>(
    table: &mut T,
    history: H,
    src: &[u8],
    start: usize,
    dst: &mut [u8],
    acceleration: u32,
) -> Result<usize, Error> {
    let (written, _) = if dst.len() >= compress_bound(src.len().saturating_sub(start)) {
        // SAFETY: `dst` holds the bound for `src[start..]` (just checked).
        call_unchecked!(parse_external::<T, H, false, false, false>(
            table,
            history,
            src,
            start,
            dst,
            acceleration
        ))?
    } else {
        // SAFETY: no duty with `EXACT`.
        call_unchecked!(parse_external::<T, H, true, false, LIMITED>(
            table,
            history,
            src,
            start,
            dst,
            acceleration
        ))?
    };
    Ok(written)
}

/// The history of one stream block (liblz4's directive for it), for [`compress_stream_block`].
pub(super) enum StreamHistory<'a> {
    /// Prefix mode: `window[..start]` is the history (at most 64 KiB), `window[start..]` the
    /// input, whose first byte has index `base`.
    Prefix { window: &'a [u8], start: usize },
    /// External-dictionary mode: the history `dict` (at most 64 KiB) ends just below `base`.
    External(&'a [u8]),
    /// A prepared dictionary consulted in place (dictCtx mode), `base >= Dictionary::BASE`.
    Consulted(&'a Dictionary),
}

/// Compresses one stream block (`src`, which for [`StreamHistory::Prefix`] is the window's input)
/// at index `base`, at the given (clamped) acceleration, into `table`, with liblz4's
/// `LZ4_compress_fast_continue` rules: below the bound, it gives up where liblz4 does
/// ([`give_up_like_liblz4`]). One parse per mode, chosen here once per block.
pub(super) fn compress_stream_block(
    table: &mut U32Table,
    history: StreamHistory<'_>,
    base: usize,
    src: &[u8],
    dst: &mut [u8],
    acceleration: u32,
) -> Result<usize, Error> {
    if src.is_empty() {
        // liblz4's empty block, whatever the mode.
        return match dst.first_mut() {
            Some(byte) => {
                *byte = 0;
                Ok(1)
            }
            None => Err(Error::OutputTooSmall {
                capacity: 0,
                needed: 1,
            }),
        };
    }
    match history {
        StreamHistory::Prefix { window, start } => {
            let origin = base - start;
            compress_block::<_, _, true>(table, Window { origin }, window, start, dst, acceleration)
        }
        StreamHistory::External(dict) => {
            // Only the last 64 KiB can be referenced.
            let history = ExtDict::new(&dict[dict.len().saturating_sub(MAX_HISTORY)..], base);
            compress_block::<_, _, true>(table, history, src, 0, dst, acceleration)
        }
        StreamHistory::Consulted(dict) => {
            let history = DictCtx::new(dict, base);
            compress_block::<_, _, true>(table, history, src, 0, dst, acceleration)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::sequence::tests::binary;
    use super::*;

    /// Compresses `window[start..]` with `compressor` into a bound-sized and an exact-sized
    /// `dst` (and one byte less), checks that both agree and that the block decodes, and returns
    /// it.
    fn compress_checked(compressor: &mut Compressor, window: &[u8], start: usize) -> Vec<u8> {
        let mut dst = vec![0u8; compress_bound(window.len() - start)];
        let len = compressor
            .compress_into_with_history(window, start, &mut dst, 1)
            .unwrap();
        dst.truncate(len);
        let mut exact = vec![0u8; len];
        let exact_len = compressor
            .compress_into_with_history(window, start, &mut exact, 1)
            .unwrap();
        assert_eq!(exact_len, len);
        assert_eq!(exact, dst);
        let mut short = vec![0u8; len - 1];
        assert!(matches!(
            compressor.compress_into_with_history(window, start, &mut short, 1),
            Err(Error::OutputTooSmall { .. })
        ));
        let mut out = window[..start].to_vec();
        out.resize(window.len(), 0);
        super::super::reference::decode(&dst, &mut out, start).unwrap();
        assert!(out == window);
        dst
    }

    /// A compressor reused for dictionary inputs of mixed sizes (the consulted path's table
    /// cleared per call, the copied path's copied per call) gives the bytes of a fresh one.
    #[test]
    fn dictionary_reuse_gives_fresh_bytes() {
        let text = binary(100_000, 3);
        let dict = Dictionary::new(&text[..70_000]);
        let mut reused = Compressor::new();
        let mut dst = vec![0u8; compress_bound(20_000)];
        for (i, len) in [5000usize, 1000, 4096, 4097, 13, 20_000, 1000, 0, 4096]
            .into_iter()
            .enumerate()
        {
            let src = &text[70_000 + i * 37..][..len];
            let n = Compressor::new()
                .compress_into_with_prepared_dictionary(src, &mut dst, &dict, 1)
                .unwrap();
            let want = dst[..n].to_vec();
            let n = reused
                .compress_into_with_prepared_dictionary(src, &mut dst, &dict, 1)
                .unwrap();
            assert_eq!(&dst[..n], &want[..], "input {i} ({len} bytes)");
        }
    }

    /// The parse at the edges of its table invariant and margins: inputs around the smallest
    /// compressible one and around the switch from the `u16` to the `u32` table, fresh tables
    /// and tables left full by a longer input (a reused compressor must give the same bytes),
    /// and histories around the 64 KiB reach.
    #[test]
    fn parse_at_every_edge() {
        let mut reused = Compressor::new();
        let long = binary(3 * U16_TABLE_LIMIT, 1);
        for len in (0..=48).chain(U16_TABLE_LIMIT - 2..=U16_TABLE_LIMIT + 1) {
            for src in [
                &binary(len, 2)[..],
                &long[long.len() - len..],
                &[7u8; 48][..len.min(48)],
            ] {
                // Fill the tables with positions of a longer input first.
                compress_checked(&mut reused, &long, 0);
                let block = compress_checked(&mut reused, src, 0);
                assert_eq!(block, super::super::compress(src).unwrap(), "len {len}");
            }
        }
        for history in [0usize, 1, 12, 13, 65535, 65536, 65537, 70000] {
            let window = &long[..history + 100];
            compress_checked(&mut reused, &long, 0);
            let block = compress_checked(&mut reused, window, history);
            assert_eq!(
                block,
                compress_checked(&mut Compressor::new(), window, history)
            );
        }
    }
}
